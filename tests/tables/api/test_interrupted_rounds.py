"""Interrupted rounds: Mini Blackjack settles as if the player stood after 48 hours; others wait for a pit boss."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services
from tables.models import AuditEvent, Decision, Round, RoundState
from tables.tasks.rounds import settle_interrupted_rounds

pytestmark = pytest.mark.django_db


def _paused_round(table, dealer, cards, hours_ago: float) -> Round:
    rnd = services.round_open(table=table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    for code in cards:
        services.round_add_card(round=rnd, code=code, actor=dealer)
    services.round_pause(round=rnd, actor=dealer, reason="player left")
    Round.objects.filter(pk=rnd.pk).update(paused_at=timezone.now() - timedelta(hours=hours_ago))
    return rnd


def test_a_mini_blackjack_round_unresumed_for_48_hours_settles_as_if_the_player_stood(mini_table, dealer):
    # Player T-7 (17) against the dealer's 9 up and T in the hole: 19 stands, the player loses.
    rnd = _paused_round(mini_table, dealer, ["TS", "9D", "7H", "TC"], hours_ago=49)
    summary = settle_interrupted_rounds.apply().get()
    assert summary == {"rounds": 1, "settled": 1}
    rnd.refresh_from_db()
    assert rnd.state == RoundState.SETTLED
    assert list(Decision.objects.filter(round=rnd).values_list("action", "forced")) == [("stand", True)]
    (line,) = rnd.lines.filter(bet="main")
    assert line.net == -10
    assert AuditEvent.objects.filter(round=rnd, action="round.interrupted").count() == 1


def test_running_the_task_twice_settles_once(mini_table, dealer):
    rnd = _paused_round(mini_table, dealer, ["TS", "9D", "7H", "TC"], hours_ago=49)
    settle_interrupted_rounds.apply().get()
    assert settle_interrupted_rounds.apply().get() == {"rounds": 0}
    assert AuditEvent.objects.filter(round=rnd, action="round.interrupted").count() == 1


def test_a_round_paused_for_less_than_48_hours_waits(mini_table, dealer):
    rnd = _paused_round(mini_table, dealer, ["TS", "9D", "7H", "TC"], hours_ago=47)
    assert settle_interrupted_rounds.apply().get() == {"rounds": 1, "skipped": 1}
    rnd.refresh_from_db()
    assert rnd.state == RoundState.PAUSED


def test_when_the_dealer_must_still_draw_the_round_goes_back_to_the_dealer(mini_table, dealer):
    # Dealer 6 up, T hole = 16: after the player's automatic stand the dealer must draw a card.
    rnd = _paused_round(mini_table, dealer, ["TS", "6D", "7H", "TC"], hours_ago=50)
    assert services.round_settle_interrupted(round=rnd) == "awaiting-dealer"
    rnd.refresh_from_db()
    assert rnd.state == RoundState.IN_PLAY
    assert rnd.prompt["actor"] == "dealer" and rnd.prompt["needs"] == "card"


def test_an_interrupted_unlimited_blackjack_round_waits_for_a_pit_boss(bj_table, dealer):
    rnd = _paused_round(bj_table, dealer, ["TS"], hours_ago=100)
    assert services.round_settle_interrupted(round=rnd) == "skipped"
    rnd.refresh_from_db()
    assert rnd.state == RoundState.PAUSED
