"""The shuffle-point audit through the Celery task, on constructed shoes and rounds."""

from __future__ import annotations

import pytest

from tables.models import AuditFinding, AuditKind, AuditResult
from tables.tasks.audit import audit_table
from tests.tables.tasks.builders import DAY, at

pytestmark = pytest.mark.django_db


def run(table) -> dict:
    return audit_table.apply(args=[table.pk, DAY.isoformat()]).get()


def rules(table) -> list[str]:
    return sorted(AuditFinding.objects.filter(table=table, result__kind=AuditKind.SHUFFLE).values_list("rule", flat=True))


def test_a_round_dealt_after_the_cut_card_came_out_is_a_late_shuffle(bj):
    bj.shuffle(at(1))
    rounds = bj.deal_rounds(at(1.1), 42, 5)  # 210 cards: the cut card (card 208) came out in round 42
    late = bj.round(at(2), ["2S", "3S", "4S"])
    run(bj.table)
    finding = AuditFinding.objects.get(table=bj.table, rule="shuffle.late")
    assert finding.round_id == late.pk and finding.severity == "critical"
    assert finding.message.startswith(f"round {late.number} was dealt after the shuffle point")
    assert finding.data == {"cards_dealt": 210, "shuffle_at": 208}
    assert rounds[-1].pk != late.pk and rules(bj.table) == ["shuffle.late"]


def test_the_round_in_which_the_cut_card_comes_out_is_not_late(bj):
    bj.shuffle(at(1))
    bj.deal_rounds(at(1.1), 42, 5)
    bj.shuffle(at(2))
    run(bj.table)
    assert rules(bj.table) == []
    result = AuditResult.objects.get(kind=AuditKind.SHUFFLE, table=bj.table)
    assert result.summary["shoes"] == 2 and result.summary["checked_card_by_card"] == 0
    assert not result.flagged


def test_a_shoe_shuffled_before_its_shuffle_point_is_an_early_shuffle(bj):
    bj.shuffle(at(1))
    bj.deal_rounds(at(1.1), 10, 5)  # 50 cards of 208
    bj.shuffle(at(2))
    run(bj.table)
    finding = AuditFinding.objects.get(table=bj.table, rule="shuffle.early")
    assert finding.data["cards_dealt"] == 50 and finding.severity == "warning"
    assert rules(bj.table) == ["shuffle.early"]


def test_a_card_seen_more_often_than_the_shoe_holds_is_an_impossible_card(bj):
    bj.shuffle(at(1))
    bj.round(at(1.1), ["AS"] * 5)
    dup = bj.round(at(1.2), ["AS"] * 4)  # the ninth Ace of spades in an eight-deck shoe
    run(bj.table)
    finding = AuditFinding.objects.get(table=bj.table, rule="card.impossible")
    assert finding.round_id == dup.pk
    assert finding.data == {"card": "AS", "seen": 9, "holds": 8}


def test_a_joker_in_a_game_without_jokers_is_flagged(bj):
    bj.shuffle(at(1))
    bj.round(at(1.1), ["JK", "5D"])
    run(bj.table)
    assert rules(bj.table) == ["card.joker-without-jokers"]


def test_jokers_are_cards_of_the_finnish_27_shoe(f27):
    f27.shuffle(at(1))
    f27.round(at(1.1), ["JK", "5D", "JK", "9C"])
    run(f27.table)
    assert rules(f27.table) == []


def test_a_reshuffle_the_player_was_not_told_of_is_flagged(bj):
    bj.shuffle(at(1))
    bj.deal_rounds(at(1.1), 42, 5)
    bj.shuffle(at(2), notified=False)
    run(bj.table)
    assert rules(bj.table) == ["shuffle.not-notified"]


def test_a_shoe_belongs_to_the_gaming_day_it_was_shuffled_in(bj):
    bj.shuffle(at(-2))  # the evening before: audited with the previous gaming day
    bj.round(at(1), ["AS"] * 9)
    run(bj.table)
    assert rules(bj.table) == []
