"""tables.services.theory: exact lines at once, the simulation queued once per version, stored, idempotent, failures kept."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tables.analysis import finnish27
from tables.models import PayLine, PayTable, RuleSet, TheoryResult, TheoryStatus, VersionStatus
from tables.services.theory import ProgressWriter, claim_theory, rule_set_house_edge, run_theory, theory_for
from tables.tasks.theory import compute_theory
from tests.factories import PayTableFactory, RuleSetFactory, game, published

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("tiny_simulation", "queued", "_empty_cache"),
]

FORCED_PLAY_LINES = {"finnish-27", "jo-jo", "8-9-10/mixed", "8-9-10/suited", "8-9-10/spades", "9-9-9/mixed",
                     "9-9-9/suited", "9-9-9/dealer-9-9"}


def f27_table() -> PayTable:
    return PayTable.objects.select_related("game").get(game__slug="finnish-27", status=VersionStatus.PUBLISHED)


def test_finnish_27_forced_play_lines_are_exact_at_once_and_the_rest_pending(queued) -> None:
    theory = theory_for(f27_table())
    by_name = {line["name"]: line for line in theory["lines"]}
    assert {n for n, line in by_name.items() if line["method"] == "exact"} == FORCED_PLAY_LINES
    # Finnish 27 (player A-K wins) pays 1:2: probability 1.08812%, contribution 0.5441% (docs/analysis.md).
    assert by_name["finnish-27"]["probability"] == pytest.approx(0.0108812, abs=5e-7)
    assert by_name["finnish-27"]["contribution"] == pytest.approx(0.005441, abs=5e-7)
    assert by_name["poker/flush"]["probability"] is None and "poker/flush" in theory["pending"]
    assert theory["status"] == TheoryStatus.PENDING and theory["rtp"] is None
    assert theory["simulation"]["status"] == TheoryStatus.PENDING


def test_blackjack_is_complete_at_once_without_a_simulation(queued) -> None:
    pay_table = PayTable.objects.get(game__slug="unlimited-blackjack", status=VersionStatus.PUBLISHED)
    theory = theory_for(pay_table)
    assert theory["status"] == "done" and theory["simulation"] is None and theory["pending"] == []
    assert theory["bets"]["perfect-pairs"]["rtp"] == pytest.approx(398 / 415)
    assert theory["house_edge"] == pytest.approx(0.0021006, abs=1e-6)
    assert not TheoryResult.objects.exists() and queued == []


def test_the_task_is_queued_after_commit_once_per_version(queued, django_capture_on_commit_callbacks) -> None:
    pay_table = f27_table()
    with django_capture_on_commit_callbacks(execute=True):
        theory_for(pay_table)
        theory_for(pay_table)  # asked again before the worker started: the same row, not queued again
    result = TheoryResult.objects.get()
    assert queued == [result.pk]
    assert result.rules_hash and result.pay_lines == pay_table.as_engine_json()


def test_the_task_stores_the_result_and_running_it_twice_does_no_double_work(monkeypatch) -> None:
    calls: list[int] = []
    real = finnish27.simulate

    def counting(*args: Any, **kwargs: Any) -> dict[str, Any]:
        calls.append(kwargs["rounds"])
        return real(*args, **kwargs)

    monkeypatch.setattr(finnish27, "simulate", counting)
    pay_table = f27_table()
    theory_for(pay_table)
    result_id = TheoryResult.objects.get().pk

    first = compute_theory(result_id)  # the task function, run synchronously
    stored = TheoryResult.objects.get()
    assert first["status"] == TheoryStatus.DONE and calls == [20_000]
    assert stored.status == TheoryStatus.DONE and stored.progress == 1.0 and stored.rounds >= 20_000
    assert stored.house_edge == pytest.approx(1 - stored.rtp) and stored.ci95 > 0
    assert stored.computed_at is not None and stored.attempts == 1

    second = compute_theory(result_id)
    assert second == {"result": result_id, "skipped": True, "status": TheoryStatus.DONE}
    assert calls == [20_000] and TheoryResult.objects.count() == 1
    assert TheoryResult.objects.get().computed_at == stored.computed_at

    theory = theory_for(pay_table)
    by_name = {line["name"]: line for line in theory["lines"]}
    assert theory["status"] == TheoryStatus.DONE and theory["pending"] == []
    assert theory["house_edge"] == stored.house_edge and theory["ci95"] == stored.ci95
    assert by_name["poker/flush"]["probability"] == stored.lines["poker/flush"]["probability"] > 0
    # Exact lines keep their exact figures; the contributions add up to the RTP.
    assert by_name["finnish-27"]["method"] == "exact"
    assert sum(line["contribution"] for line in theory["lines"]) == pytest.approx(theory["rtp"])


def test_a_second_worker_cannot_claim_a_running_row() -> None:
    theory_for(f27_table())
    result_id = TheoryResult.objects.get().pk
    assert claim_theory(result_id) is True
    assert claim_theory(result_id) is False
    assert run_theory(result_id)["skipped"] is True


def test_a_running_row_whose_worker_died_is_claimed_again(queued, django_capture_on_commit_callbacks) -> None:
    pay_table = f27_table()
    theory_for(pay_table)
    result = TheoryResult.objects.get()
    assert claim_theory(result.pk)
    TheoryResult.objects.filter(pk=result.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    with django_capture_on_commit_callbacks(execute=True):
        theory_for(pay_table)  # the next look queues it again ...
    assert queued == [result.pk]
    assert run_theory(result.pk)["status"] == TheoryStatus.DONE  # ... and the new run claims it
    assert TheoryResult.objects.get().attempts == 2


def test_progress_is_written_while_the_simulation_runs(monkeypatch) -> None:
    settings_rounds = 300_000  # enough chunks for several progress calls
    seen: list[tuple[str, float]] = []
    real = finnish27.simulate

    def watching(*args: Any, progress: Any, **kwargs: Any) -> dict[str, Any]:
        def spy(done: int, total: int) -> None:
            progress(done, total)
            row = TheoryResult.objects.get()
            seen.append((row.status, row.progress))

        return real(*args, progress=spy, **kwargs)

    monkeypatch.setattr(finnish27, "simulate", watching)
    theory_for(f27_table())
    TheoryResult.objects.update(rounds_requested=settings_rounds)
    run_theory(TheoryResult.objects.get().pk, progress_interval=0.0)
    assert len(seen) >= 3
    assert all(status == TheoryStatus.RUNNING for status, _ in seen)
    fractions = [p for _, p in seen]
    assert fractions == sorted(fractions) and 0 < fractions[0] < fractions[-1] <= 1.0
    assert TheoryResult.objects.get().progress == 1.0


def test_progress_is_written_at_most_once_a_second() -> None:
    theory_for(f27_table())
    result_id = TheoryResult.objects.get().pk
    claim_theory(result_id)
    now = [100.0]
    writer = ProgressWriter(result_id, interval=1.0, clock=lambda: now[0])
    for t, done in ((100.0, 10), (100.4, 20), (100.9, 30), (101.0, 40), (101.5, 50), (102.2, 60)):
        now[0] = t
        writer(done, 100)
    assert writer.writes == 3  # at 100.0, 101.0 and 102.2
    assert TheoryResult.objects.get().progress == pytest.approx(0.6)


def test_a_failure_is_recorded_with_its_error_and_can_be_retried(monkeypatch, queued,
                                                                 django_capture_on_commit_callbacks) -> None:
    def broken(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise RuntimeError("kernel exploded")

    monkeypatch.setattr(finnish27, "simulate", broken)
    pay_table = f27_table()
    theory_for(pay_table)
    result = TheoryResult.objects.get()
    summary = compute_theory(result.pk)
    result.refresh_from_db()
    assert summary["status"] == TheoryStatus.FAILED
    assert result.status == TheoryStatus.FAILED and result.error == "RuntimeError: kernel exploded"
    theory = theory_for(pay_table)
    assert theory["status"] == TheoryStatus.FAILED and theory["simulation"]["error"] == result.error
    assert theory["rtp"] is None  # no figure is made up from a failed run

    from tables.services.theory import retry_theory

    with django_capture_on_commit_callbacks(execute=True):
        assert retry_theory(result) is True
    assert queued == [result.pk]
    assert TheoryResult.objects.get().status == TheoryStatus.PENDING


def test_a_changed_pay_line_gives_the_new_version_a_new_rtp_and_the_old_keeps_its_own() -> None:
    old = f27_table()
    theory_for(old)
    compute_theory(TheoryResult.objects.get(pay_table=old).pk)
    old_result = TheoryResult.objects.get(pay_table=old)

    draft = old.new_draft(actor=None)
    flush = PayLine.objects.get(pay_table=draft, name="poker/flush")
    flush.odds_numerator, flush.odds_denominator = 20, 1  # 6:1 -> 20:1
    flush.save()
    nine = PayLine.objects.get(pay_table=draft, name="9-9-9/mixed")
    nine.table_minimum = 50  # 9x -> 50x table minimum: an exact line, changed at once
    nine.save()

    new_theory = theory_for(draft)
    new_nine = next(x for x in new_theory["lines"] if x["name"] == "9-9-9/mixed")
    old_nine = next(x for x in theory_for(old)["lines"] if x["name"] == "9-9-9/mixed")
    assert new_nine["contribution"] == pytest.approx(old_nine["contribution"] * 50 / 9)
    compute_theory(TheoryResult.objects.get(pay_table=draft).pk)

    new = theory_for(draft)
    assert new["status"] == TheoryStatus.DONE
    # Same seed, same shoes: the flush paying 14 more units is the only change besides the 9-9-9 line.
    new_flush = next(x for x in new["lines"] if x["name"] == "poker/flush")
    assert new["rtp"] > old_result.rtp + 13 * new_flush["probability"]
    again = TheoryResult.objects.get(pay_table=old)
    assert (again.rtp, again.computed_at) == (old_result.rtp, old_result.computed_at)
    assert theory_for(old)["rtp"] == old_result.rtp
    assert TheoryResult.objects.count() == 2


def test_a_draft_saved_with_other_lines_gets_a_new_result() -> None:
    draft = PayTableFactory(game=game("finnish-27"))
    theory_for(draft)
    line = PayLine.objects.get(pay_table=draft, name="poker/two-pair")
    line.odds_numerator = 2
    line.save()
    theory_for(draft)
    hashes = set(TheoryResult.objects.filter(pay_table=draft).values_list("pay_table_hash", flat=True))
    assert len(hashes) == 2


def test_a_rule_set_with_other_rules_gets_its_own_result() -> None:
    pay_table = f27_table()
    theory_for(pay_table)
    four_decks = published(RuleSetFactory, game=game("finnish-27"), params={"decks": 4, "shuffle_at": 160})
    theory = theory_for(pay_table, four_decks)
    assert theory["rule_set"] == four_decks.pk
    assert TheoryResult.objects.filter(pay_table=pay_table).count() == 2
    assert TheoryResult.objects.get(rule_set=four_decks).rules["decks"] == 4


def test_an_incomplete_draft_names_the_lines_valued_at_the_published_pay() -> None:
    draft = PayTableFactory(game=game("mini-blackjack"), lines=False)
    PayLine.objects.create(pay_table=draft, name="main/win", kind="odds", odds_numerator=1, odds_denominator=1)
    theory = theory_for(draft)
    assert theory["status"] == "done" and theory["missing"] == ["main/blackjack", "insurance"]


def test_a_rule_set_of_another_game_is_refused_with_its_reason() -> None:
    other = RuleSet.objects.get(game__slug="mini-blackjack", status=VersionStatus.PUBLISHED)
    theory = theory_for(f27_table(), other)
    assert theory["status"] == "invalid" and "mini-blackjack" in theory["error"]
    assert not TheoryResult.objects.exists()


def test_the_blackjack_rule_set_edge_is_exact_and_cached(monkeypatch) -> None:
    from tables.analysis import blackjack

    rule_set = RuleSet.objects.select_related("game").get(game__slug="mini-blackjack", status=VersionStatus.PUBLISHED)
    first = rule_set_house_edge(rule_set)
    expected = blackjack.house_edge(rule_set.rules(), blackjack_pays=1.5)
    assert first["status"] == "done" and first["house_edge"] == pytest.approx(expected.house_edge)

    def not_again(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("computed twice")

    monkeypatch.setattr(blackjack, "house_edge", not_again)
    assert rule_set_house_edge(rule_set)["house_edge"] == first["house_edge"]


def test_player_versus_player_games_have_no_house_edge() -> None:
    rule_set = RuleSet.objects.select_related("game").get(game__slug="bluffjack", status=VersionStatus.PUBLISHED)
    assert rule_set_house_edge(rule_set)["status"] == "none"
