"""The back office's version pages: names in words, the history of line edits, the diff, the publish pages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from tables.admin.theory import pct
from tables.days import day_text
from tables.engine.rulesets import PUBLISHED_RULES
from tables.models import PayTable, PublishStatus, RuleSet, VersionStatus
from tables.services.theory import default_rule_set, rule_set_house_edge, theory_for
from tests.factories import PASSWORD, PayTableFactory, RuleSetFactory, game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("_empty_cache", "queued", "tiny_simulation")]


def _client(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def _url(obj: Any, view: str) -> str:
    return reverse(f"admin:tables_{obj._meta.model_name}_{view}", args=[obj.pk])


def _edit_perfect_pairs(draft: PayTable, odds: tuple[int, int], user: Any) -> None:
    line = draft.lines.get(name="perfect-pairs/perfect")
    line.odds_numerator, line.odds_denominator = odds
    line._history_user = user
    line.save()


def test_a_version_is_named_in_words() -> None:
    published = PayTable.objects.get(game__slug="finnish-27", status=VersionStatus.PUBLISHED)
    assert str(published) == f"No-Bust Finnish 27 pay table v1 (published {day_text(published.published_at.date())})"
    assert re.fullmatch(r"No-Bust Finnish 27 pay table v1 \(published \w{3} \d{1,2} \w{3} \d{4}\)", str(published))
    assert str(RuleSetFactory(name="Summer", game=game("mini-blackjack"))) == "Mini Blackjack rule set \u201cSummer\u201d v1 (draft)"


def test_the_menu_says_bet_theories_and_view_site_goes_to_the_landing_page() -> None:
    from tables.models import BetTheory

    assert BetTheory._meta.verbose_name_plural == "bet theories"
    assert admin.site.site_url == "/"


def test_the_history_shows_a_pay_line_edit_in_words(games_manager) -> None:
    draft = PayTableFactory()
    _edit_perfect_pairs(draft, (30, 1), games_manager)
    page = _client(games_manager).get(_url(draft, "history"))
    assert page.status_code == 200
    timeline = page.context["timeline"]
    assert timeline[0]["who"] == games_manager.username
    assert timeline[0]["changes"] == ["line perfect-pairs/perfect: 25:1 → 30:1"]
    assert "line perfect-pairs/perfect: 25:1 → 30:1" in page.content.decode()


def test_the_history_of_a_rule_set_names_the_changed_parameter(games_manager) -> None:
    draft = RuleSetFactory(params=PUBLISHED_RULES["unlimited-blackjack"].to_params())
    draft.params = {**draft.params, "decks": 6}
    draft._history_user = games_manager
    draft.save()
    timeline = _client(games_manager).get(_url(draft, "history")).context["timeline"]
    assert timeline[0]["changes"] == ["Decks in the shoe: 8 → 6"]  # the form's label, not the stored key


def test_the_history_of_a_choice_says_it_in_words(games_manager) -> None:
    draft = RuleSetFactory(params=PUBLISHED_RULES["unlimited-blackjack"].to_params())
    draft.params = {**draft.params, "surrender": "none", "shuffle_rule": "cards_dealt"}
    draft._history_user = games_manager
    draft.save()
    timeline = _client(games_manager).get(_url(draft, "history")).context["timeline"]
    assert sorted(timeline[0]["changes"]) == ["Shuffle rule: cut card → cards dealt",
                                              "Surrender: against an Ace → no surrender"]
    assert draft.params["surrender"] == "none"  # stored as the engine's value


def test_the_history_page_is_one_history_with_its_saved_copies(games_manager) -> None:
    draft = PayTableFactory()
    _edit_perfect_pairs(draft, (30, 1), games_manager)
    draft.notes = "thirty to one"
    draft._history_user = games_manager
    draft.save()
    page = _client(games_manager).get(_url(draft, "history"))
    html = page.content.decode()
    main = html.split('id="content-main"')[1]
    assert "Saved copies" not in html and main.count("<table") == 1  # simple-history's second table is gone
    assert 'id="version-timeline"' in html and "Compare with another version" in html
    # Each change of the version itself opens its saved copy (where a draft is reverted).
    record = draft.history.order_by("-history_id").first()
    copy_url = reverse("admin:tables_paytable_simple_history", args=[draft.pk, record.history_id])
    assert f'href="{copy_url}"' in html
    assert _client(games_manager).get(copy_url).status_code == 200


def test_the_diff_of_two_pay_tables_marks_the_changed_line_and_its_return(games_manager) -> None:
    old = PayTable.objects.get(game__slug="unlimited-blackjack", status=VersionStatus.PUBLISHED)
    draft = old.new_draft(actor=games_manager)
    _edit_perfect_pairs(draft, (30, 1), games_manager)
    page = _client(games_manager).get(_url(draft, "compare") + f"?with={old.pk}")
    diff = page.context["diff"]
    changed = [r for r in diff["section"] if r["changed"]]
    assert [(r["a"], r["b"]) for r in changed[:1]] == [("25:1", "30:1")]
    assert changed[0]["line"] == "perfect-pairs/perfect"
    pp = next(r for r in diff["section"] if r["label"] == "RTP of Perfect Pairs")
    assert pp["b"] == "104.3373%" and pp["over"]
    html = page.content.decode()
    assert 'data-line="perfect-pairs/perfect"' in html
    # Only the side above 100% is marked (in red): the old 95.9036% is not.
    assert '<td>95.9036%</td><td class="over-100">104.3373%</td>' in html


def test_the_diff_of_two_rule_sets_lists_the_parameters(games_manager) -> None:
    a = RuleSetFactory()
    b = RuleSetFactory(params={"decks": 6, "dealer_hits_soft_17": True})
    diff = _client(games_manager).get(_url(b, "compare") + f"?with={a.pk}").context["diff"]
    changed = {r["label"]: (r["a"], r["b"]) for r in diff["section"] if r["changed"]}
    assert changed == {"Decks in the shoe": ("8", "6"), "Dealer hits soft 17": ("no", "yes")}


def test_the_publish_page_shows_the_blocking_warning(games_manager) -> None:
    draft = PayTableFactory()
    _edit_perfect_pairs(draft, (30, 1), games_manager)
    client = _client(games_manager)
    page = client.get(_url(draft, "publish")).content.decode()
    assert 'class="rtp-warning"' in page and "104.3373%" in page and 'name="acknowledge"' in page
    response = client.post(_url(draft, "publish"), follow=True)  # no acknowledgement
    assert "was not published" in response.content.decode()
    assert not draft.publish_requests.exists()
    client.post(_url(draft, "publish"), {"acknowledge": "on"})
    assert draft.publish_requests.get().status == PublishStatus.PENDING


def test_the_maker_checker_through_the_pages(games_manager, second_manager) -> None:
    draft = RuleSetFactory()
    first = _client(games_manager)
    first.post(_url(draft, "publish"))
    page = first.get(_url(draft, "change")).content.decode()
    assert "you cannot approve your own request" in page and "Review and approve" not in page
    response = first.post(_url(draft, "approve"), {"approve": "1"}, follow=True)
    assert "a second games manager must approve it" in response.content.decode()
    draft.refresh_from_db()
    assert draft.status == VersionStatus.DRAFT
    second = _client(second_manager)
    assert "Review and approve" in second.get(_url(draft, "change")).content.decode()
    second.post(_url(draft, "approve"), {"approve": "1"})
    draft.refresh_from_db()
    assert draft.status == VersionStatus.PUBLISHED and draft.published_by == second_manager


def test_the_rule_set_page_shows_the_pay_tables_house_edge(games_manager) -> None:
    # One house edge per pay table: the rule set's page and the pay table's page read theory_for.
    for slug in ("unlimited-blackjack", "mini-blackjack"):
        rule_set = RuleSet.objects.get(game__slug=slug, status=VersionStatus.PUBLISHED)
        pay_table = PayTable.objects.get(game__slug=slug, status=VersionStatus.PUBLISHED)
        assert default_rule_set(pay_table) == rule_set
        theory = theory_for(pay_table, rule_set)
        client = _client(games_manager)
        rule_page = client.get(_url(rule_set, "change")).content.decode()
        pay_page = client.get(_url(pay_table, "change")).content.decode()
        figure = f"house edge {pct(theory['house_edge'])}"
        assert figure in rule_page and figure in pay_page, slug
        assert rule_set_house_edge(rule_set)["house_edge"] == pytest.approx(theory["house_edge"], abs=5e-7)


def test_a_typed_rule_set_form_for_every_game(games_manager) -> None:
    client = _client(games_manager)
    for slug in ("finnish-27", "unlimited-blackjack", "mini-blackjack", "bluffjack", "contract-rummy"):
        page = client.get(reverse("admin:tables_ruleset_add") + f"?game={game(slug).pk}")
        form = page.context["adminform"].form
        assert "params" not in form.fields and "decks" in form.fields or slug == "contract-rummy", slug
    form = client.get(reverse("admin:tables_ruleset_add") + f"?game={game('bluffjack').pk}").context["adminform"].form
    assert [c for c, _ in form.fields["odd_chip"].choices] == ["first_left_of_dealer", "house", "next_pot"]


def test_a_draft_asked_to_be_published_opens_read_only(games_manager) -> None:
    draft = RuleSetFactory()
    client = _client(games_manager)
    client.post(_url(draft, "publish"))
    page = client.get(_url(draft, "change"))
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert client.post(_url(draft, "change"), {"name": "changed"}).status_code == 403


@pytest.mark.parametrize("slug", ["finnish-27", "unlimited-blackjack", "mini-blackjack", "bluffjack", "contract-rummy"])
def test_the_typed_form_saves_the_published_rules_unchanged(games_manager, slug) -> None:
    from tests.tables.admin.forms import form_data

    client = _client(games_manager)
    url = reverse("admin:tables_ruleset_add") + f"?game={game(slug).pk}"
    form = client.get(url).context["adminform"].form
    response = client.post(url, form_data(form, game=game(slug).pk, name="Typed"))
    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else response
    saved = RuleSet.objects.get(game__slug=slug, name="Typed")
    assert saved.params == PUBLISHED_RULES[slug].to_params()
