"""The back office shows RTP and house edge per line and in total, polls the simulation, and the rule set's edge."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tables.admin.theory import pct
from tables.models import PayLine, PayTable, RuleSet, TheoryResult, TheoryStatus, VersionStatus
from tables.services.theory import theory_for
from tables.tasks.theory import compute_theory
from tests.factories import PASSWORD, PayTableFactory, game

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("tiny_simulation", "queued", "_empty_cache"),
]


def _client(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def _change_url(obj: Any) -> str:
    return reverse(f"admin:tables_{obj._meta.model_name}_change", args=[obj.pk])


def _theory_url(pay_table: PayTable) -> str:
    return reverse("admin:tables_paytable_theory", args=[pay_table.pk])


def f27_table() -> PayTable:
    return PayTable.objects.select_related("game").get(game__slug="finnish-27", status=VersionStatus.PUBLISHED)


def _change_form_data(pay_table: PayTable, **pays: dict[str, Any]) -> dict[str, Any]:
    """The POST of a pay table's change form as it stands, with some lines' pays replaced."""
    lines = list(pay_table.lines.all())
    data: dict[str, Any] = {
        "name": pay_table.name, "notes": pay_table.notes, "_continue": "Save and continue editing",
        "lines-TOTAL_FORMS": len(lines), "lines-INITIAL_FORMS": len(lines),
        "lines-MIN_NUM_FORMS": 0, "lines-MAX_NUM_FORMS": 1000,
    }
    for i, line in enumerate(lines):
        row = {"id": line.pk, "pay_table": pay_table.pk, "position": line.position, "name": line.name,
               "label": line.label, "kind": line.kind, "odds": line.odds_text, "table_minimum": line.table_minimum or ""}
        row.update(pays.get(line.name, {}))
        data.update({f"lines-{i}-{k}": v for k, v in row.items()})
    return data


def test_saving_a_pay_table_shows_its_exact_lines_at_once_and_queues_the_simulation(
        games_manager, queued, django_capture_on_commit_callbacks) -> None:
    draft = PayTableFactory(game=game("finnish-27"))
    data = _change_form_data(draft, **{"9-9-9/mixed": {"kind": "table_minimum", "odds": "", "table_minimum": 50}})
    client = _client(games_manager)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(_change_url(draft), data, follow=True)
    assert response.status_code == 200, response.content[:2000]
    assert PayLine.objects.get(pay_table=draft, name="9-9-9/mixed").table_minimum == 50
    page = response.content.decode()
    # 9-9-9 mixed: probability 0.03154% a round, now paying 50 units: contribution about 1.577%.
    line = next(x for x in theory_for(draft)["lines"] if x["name"] == "9-9-9/mixed")
    assert line["contribution"] == pytest.approx(0.0003154 * 50, rel=1e-3)
    assert pct(line["contribution"]) in page
    assert "simulating" in page and 'data-status="pending"' in page and "admin/theory.js" in page
    result = TheoryResult.objects.get(pay_table=draft)
    assert queued == [result.pk]  # queued once, on save; the page after the redirect finds it pending


def test_the_pay_table_page_renders_the_simulated_figures_for_a_games_manager(games_manager) -> None:
    pay_table = f27_table()
    theory_for(pay_table)
    compute_theory(TheoryResult.objects.get().pk)
    result = TheoryResult.objects.get()
    response = _client(games_manager).get(_change_url(pay_table))
    assert response.status_code == 200
    page = response.content.decode()
    assert f"RTP {pct(result.rtp)}, house edge {pct(result.house_edge)}" in page
    assert pct(result.lines["poker/flush"]["contribution"]) in page
    assert 'data-status="done"' in page and "simulating" not in page


def test_the_blackjack_pay_table_page_shows_each_bet_and_line(games_manager) -> None:
    pay_table = PayTable.objects.get(game__slug="unlimited-blackjack", status=VersionStatus.PUBLISHED)
    page = _client(games_manager).get(_change_url(pay_table)).content.decode()
    assert "95.9036%" in page and "4.0964%" in page  # Perfect Pairs RTP and house edge (398/415)
    assert 'data-line="21+3/suited-trips"' in page and 'data-bet="insurance"' in page


def test_the_poll_reports_progress_then_the_figures(games_manager) -> None:
    pay_table = f27_table()
    client = _client(games_manager)
    pending = client.get(_theory_url(pay_table)).json()
    assert pending["status"] == TheoryStatus.PENDING and pending["simulation"]["progress"] == 0.0
    TheoryResult.objects.update(status=TheoryStatus.RUNNING, progress=0.4)
    running = client.get(_theory_url(pay_table)).json()
    assert running["status"] == TheoryStatus.RUNNING and running["simulation"]["progress"] == 0.4
    assert 'value="40"' in running["html"]
    TheoryResult.objects.update(status=TheoryStatus.PENDING)
    compute_theory(TheoryResult.objects.get().pk)
    done = client.get(_theory_url(pay_table)).json()
    assert done["status"] == TheoryStatus.DONE and done["pending"] == []
    assert done["house_edge"] == TheoryResult.objects.get().house_edge
    assert f"house edge {pct(done['house_edge'])}" in done["html"]


def test_the_poll_takes_a_rule_set_of_the_same_game_only(games_manager) -> None:
    client = _client(games_manager)
    pay_table = f27_table()
    other = RuleSet.objects.get(game__slug="mini-blackjack", status=VersionStatus.PUBLISHED)
    assert client.get(_theory_url(pay_table), {"rule_set": other.pk}).status_code == 400
    own = RuleSet.objects.get(game__slug="finnish-27", status=VersionStatus.PUBLISHED)
    assert client.get(_theory_url(pay_table), {"rule_set": own.pk}).json()["rule_set"] == own.pk


def test_the_poll_needs_the_back_office(outsider, auditor) -> None:
    pay_table = f27_table()
    assert _client(outsider).get(_theory_url(pay_table)).status_code == 302  # to the admin login
    assert _client(auditor).get(_theory_url(pay_table)).status_code == 200


def test_a_failed_simulation_is_shown_and_a_games_manager_retries_it(games_manager, auditor, queued,
                                                                     django_capture_on_commit_callbacks) -> None:
    pay_table = f27_table()
    theory_for(pay_table)
    TheoryResult.objects.update(status=TheoryStatus.FAILED, error="SoftTimeLimitExceeded: time limit")
    page = _client(games_manager).get(_change_url(pay_table)).content.decode()
    assert "The simulation failed: SoftTimeLimitExceeded: time limit" in page
    assert _client(auditor).post(_theory_url(pay_table)).status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        retried = _client(games_manager).post(_theory_url(pay_table)).json()
    assert retried["status"] == TheoryStatus.PENDING and queued == [TheoryResult.objects.get().pk]


def test_the_blackjack_rule_set_page_shows_its_exact_house_edge(games_manager) -> None:
    from tables.analysis.blackjack import house_edge

    rule_set = RuleSet.objects.get(game__slug="unlimited-blackjack", status=VersionStatus.PUBLISHED)
    page = _client(games_manager).get(_change_url(rule_set)).content.decode()
    expected = house_edge(rule_set.rules(), blackjack_pays=1.5)
    assert f"house edge {pct(expected.house_edge)}" in page


def test_the_finnish_27_rule_set_page_shows_the_simulation(games_manager) -> None:
    rule_set = RuleSet.objects.get(game__slug="finnish-27", status=VersionStatus.PUBLISHED)
    client = _client(games_manager)
    assert "Simulating" in client.get(_change_url(rule_set)).content.decode()
    compute_theory(TheoryResult.objects.get(rule_set=rule_set).pk)
    result = TheoryResult.objects.get()
    assert f"house edge {pct(result.house_edge)}" in client.get(_change_url(rule_set)).content.decode()


def test_a_player_versus_player_rule_set_has_no_house_edge(games_manager) -> None:
    rule_set = RuleSet.objects.get(game__slug="contract-rummy", status=VersionStatus.PUBLISHED)
    page = _client(games_manager).get(_change_url(rule_set)).content.decode()
    assert "the house takes no side" in page


def test_the_cached_results_are_listed_read_only(auditor, games_manager) -> None:
    theory_for(f27_table())
    compute_theory(TheoryResult.objects.get().pk)
    url = reverse("admin:tables_theoryresult_changelist")
    page = _client(auditor).get(url)
    assert page.status_code == 200 and b"rule-text" in page.content
    assert _client(games_manager).get(reverse("admin:tables_theoryresult_add")).status_code == 403


def test_a_new_draft_with_the_same_lines_takes_the_simulated_figures_without_simulating_again(
        games_manager, queued, django_capture_on_commit_callbacks) -> None:
    # The walk-through: opening the published table and then its new draft (lines unchanged) ran two
    # identical 25-million-round simulations side by side.
    published = f27_table()
    with django_capture_on_commit_callbacks(execute=True):
        theory_for(published)
    first = TheoryResult.objects.get(pay_table=published)
    compute_theory(first.pk)
    assert queued == [first.pk]
    _client(games_manager).post(reverse("admin:tables_paytable_new_draft", args=[published.pk]))
    draft = PayTable.objects.get(game=published.game, name=published.name, version=published.version + 1)
    with django_capture_on_commit_callbacks(execute=True):
        out = theory_for(draft)
    copy = TheoryResult.objects.get(pay_table=draft)
    first.refresh_from_db()
    assert queued == [first.pk]  # nothing simulated again
    assert copy.status == TheoryStatus.DONE and copy.detail["copied_from"] == first.pk
    assert (copy.rtp, copy.house_edge, copy.lines) == (first.rtp, first.house_edge, first.lines)
    assert out["status"] == "done" and out["house_edge"] == theory_for(published)["house_edge"]
    # A line changed: its own simulation.
    line = draft.lines.exclude(kind="table_minimum").first()
    line.set_odds("7:1" if line.odds_text != "7:1" else "8:1")
    line.save()
    with django_capture_on_commit_callbacks(execute=True):
        theory_for(draft)
    assert len(queued) == 2 and queued[1] != first.pk


def test_load_demo_with_theory_queues_the_published_simulations(queued, django_capture_on_commit_callbacks) -> None:
    from io import StringIO

    from django.core.management import call_command

    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", "--theory", stdout=StringIO())
    rows = TheoryResult.objects.filter(pay_table__status=VersionStatus.PUBLISHED)
    assert rows.filter(game="finnish-27").count() == 1
    assert sorted(queued) == sorted(rows.values_list("pk", flat=True))
