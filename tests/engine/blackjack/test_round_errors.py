"""Round errors: pause and resume, cancel with every bet refunded, and the Mini Blackjack round
interrupted for 48 hours settled as if the player stood."""

from datetime import datetime, timedelta

import pytest

from tables.engine.blackjack import live as L
from tables.engine.errors import InvalidInput, RuleViolation

from .helpers import MINI, UNLIMITED, D, cards, deal_initial, open_round

T0 = datetime(2026, 1, 1, 12, 0)


def test_paused_round_refuses_actions_and_resumes_where_it_stopped():
    st = open_round(UNLIMITED, [L.SeatBet(1, D("10.00"))])
    deal_initial(st, "TS 9C 6H 7D")
    L.pause(st, "card misread", T0)
    assert L.next_step(st).phase == "paused" and not L.can_hit(st)
    with pytest.raises(RuleViolation) as err:
        L.stand(st)
    assert err.value.rule == "blackjack.round-paused"
    L.resume(st)
    assert L.next_step(st).allowed == ("hit", "stand", "double")


def test_cancelled_round_refunds_every_bet():
    st = open_round(UNLIMITED, [L.SeatBet(1, D("10.00"), perfect_pairs=D("5.00"))],
                    [L.BehindBet(1, D("5.00"), "p2"), L.BehindBet(4, D("7.00"), "p3")])
    deal_initial(st, "8S AC 8H 7D")
    L.insure(st, 1)
    L.decline(st, 1, behind=0)
    L.split(st)
    L.cancel(st, "shoe error")
    got = [(x.bet, x.wager, x.result, x.net) for x in L.settlement(st)]
    assert got == [
        ("main", D("10.00"), "refund", D("0.00")), ("main", D("10.00"), "refund", D("0.00")),
        ("perfect-pairs", D("5.00"), "refund", D("0.00")), ("insurance", D("5.00"), "refund", D("0.00")),
        ("behind", D("5.00"), "refund", D("0.00")), ("behind", D("7.00"), "refund", D("0.00")),
    ]
    assert L.next_step(st).phase == "cancelled" and not L.can_settle(st)


def test_settled_round_cannot_be_cancelled():
    st = open_round(UNLIMITED, [L.SeatBet(1, D("10.00"))])
    deal_initial(st, "TS 9C 9H 8D")
    L.stand(st)
    L.settle(st)
    with pytest.raises(RuleViolation):
        L.cancel(st)


def _interrupted_mini():
    st = open_round(MINI, [L.SeatBet(1, D("10.00"))])
    deal_initial(st, "TS 6C 5H TD")  # player 15, dealer 16
    L.pause(st, "player disconnected", T0)
    return st


def test_interrupted_mini_round_waits_48_hours_for_the_player():
    st = _interrupted_mini()
    with pytest.raises(RuleViolation) as err:
        L.settle_interrupted(st, T0 + timedelta(hours=47, minutes=59), cards("9C"))
    assert err.value.rule == "blackjack.interrupted-round-not-due"


def test_interrupted_mini_round_settles_as_if_the_player_stood():
    st = _interrupted_mini()
    L.settle_interrupted(st, T0 + timedelta(hours=48), cards("4C 9S"))
    assert st.seats[0].hands[0].cards == cards("TS 5H")  # stood on 15
    assert st.dealer == cards("6C TD 4C")  # the dealer drew to 20 and stopped
    assert [(x.result, x.net) for x in L.settlement(st)] == [("lose", D("-10.00"))]


def test_interrupted_settlement_needs_enough_cards_for_the_dealer():
    st = _interrupted_mini()
    with pytest.raises(InvalidInput):
        L.settle_interrupted(st, T0 + timedelta(hours=49), [])


def test_interrupted_round_with_a_pending_insurance_offer_takes_no_insurance():
    st = open_round(MINI, [L.SeatBet(1, D("10.00"))])
    deal_initial(st, "TS AC 5H 5D")
    L.pause(st, "player disconnected", T0)
    L.settle_interrupted(st, T0 + timedelta(days=3), cards("2C"))
    assert st.seats[0].insurance is None and st.dealer == cards("AC 5D 2C")  # soft 16 draws to soft 18


def test_unlimited_has_no_automatic_settlement_of_interrupted_rounds():
    st = open_round(UNLIMITED, [L.SeatBet(1, D("10.00"))])
    deal_initial(st, "TS 6C 5H TD")
    L.pause(st, "error", T0)
    with pytest.raises(RuleViolation) as err:
        L.settle_interrupted(st, T0 + timedelta(days=10), cards("9C"))
    assert err.value.rule == "blackjack.no-automatic-settlement"
