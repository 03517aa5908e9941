"""Seats and the deal order: a card to each seat in seat order, the dealer's up card, a second card to
each seat, the dealer's hole card face down; Mini Blackjack is one player on one of three seats."""

import pytest

from tables.engine.blackjack import live as L
from tables.engine.errors import InvalidInput, RuleViolation

from .helpers import MINI, UNLIMITED, D, cards, open_round


def test_initial_deal_order_players_then_up_card_then_players_then_hole_card():
    st = open_round(UNLIMITED, [L.SeatBet(7, D("10.00")), L.SeatBet(2, D("10.00"))])
    order = []
    for c in cards("2S 3S 4S 5S 6S 7S"):
        p = L.next_step(st)
        order.append((p.actor, p.extra.get("face_up")))
        L.deal(st, c)
    assert order == [("seat:2", True), ("seat:7", True), ("dealer", True), ("seat:2", True), ("seat:7", True),
                     ("dealer", False)]
    assert st.seats[0].hands[0].cards == cards("2S 5S") and st.dealer == cards("4S 7S")


def test_hole_card_event_is_face_down():
    st = open_round(MINI, [L.SeatBet(2, D("10.00"))])
    events = [L.deal(st, c) for c in cards("9S 8C 9H 7D")]
    assert [e.face_up for e in events] == [True, True, True, False]


def test_unlimited_has_seven_seats():
    with pytest.raises(InvalidInput):
        open_round(UNLIMITED, [L.SeatBet(8, D("10.00"))])
    assert len(open_round(UNLIMITED, [L.SeatBet(s, D("10.00")) for s in range(1, 8)]).seats) == 7


def test_mini_one_player_on_one_of_three_seats():
    assert open_round(MINI, [L.SeatBet(3, D("10.00"))]).seats[0].number == 3
    with pytest.raises(InvalidInput):
        open_round(MINI, [L.SeatBet(4, D("10.00"))])
    with pytest.raises(RuleViolation) as err:
        open_round(MINI, [L.SeatBet(1, D("10.00")), L.SeatBet(2, D("10.00"))])
    assert err.value.rule == "blackjack.one-seat-only"


def test_a_main_bet_must_be_positive():
    with pytest.raises(InvalidInput):
        open_round(UNLIMITED, [L.SeatBet(1, D("0.00"))])


def test_an_impossible_card_is_refused_and_the_round_is_unchanged():
    st = open_round(MINI, [L.SeatBet(1, D("10.00"))])
    for _ in range(4):  # four decks: four Aces of spades
        st.shoe.deal(cards("AS")[0])
    with pytest.raises(InvalidInput) as err:
        L.deal(st, cards("AS")[0])
    assert "impossible card AS" in str(err.value)
    assert st.seats[0].hands[0].cards == [] and not L.can_deal(st, cards("AS")[0])


def test_no_card_is_due_while_a_decision_is_awaited():
    st = open_round(UNLIMITED, [L.SeatBet(1, D("10.00"))])
    for c in cards("TS 9C 8H 7D"):
        L.deal(st, c)
    with pytest.raises(RuleViolation) as err:
        L.deal(st, cards("2C")[0])
    assert err.value.rule == "blackjack.no-card-due"
