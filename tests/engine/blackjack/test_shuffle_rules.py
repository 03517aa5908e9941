"""Shuffle rules through the shoe: Unlimited shuffles at the end of the round in which the cut card
(about half way) came out; Mini shuffles between rounds once 60 or more cards have been dealt."""

import random

import pytest

from tables.engine.blackjack import live as L
from tables.engine.errors import RuleViolation
from tables.engine.shoe import Shoe

from .helpers import MINI, UNLIMITED, D, cards, open_round, rules_of


def _fill(shoe, n):
    for c in rules_of(UNLIMITED).shoe.shuffled(random.Random(1))[:n]:
        shoe.deal(c)


def test_unlimited_cut_card_is_about_half_way_through_eight_decks():
    rules = rules_of(UNLIMITED)
    assert rules.decks == 8 and rules.shoe.shuffle_at == 208 == rules.shoe.size // 2


def test_unlimited_round_in_which_the_cut_card_comes_out_is_finished_then_the_shoe_is_shuffled():
    rules = rules_of(UNLIMITED)
    shoe = Shoe(rules.shoe)
    _fill(shoe, 206)
    st = open_round(UNLIMITED, [L.SeatBet(1, D("10.00"))], shoe=shoe)
    for c in cards("TS 9C 9H 8D"):  # the cut card comes out during this deal
        L.deal(st, c)
    assert shoe.cut_card_out and L.next_step(st).phase == "play"  # the round goes on
    L.stand(st)
    L.settle(st)
    with pytest.raises(RuleViolation) as err:
        open_round(UNLIMITED, [L.SeatBet(1, D("10.00"))], shoe=shoe)
    assert err.value.rule == "blackjack.shuffle-due"
    assert L.shuffle_if_due(shoe) is not None and shoe.cards_dealt == 0
    assert L.shuffle_if_due(shoe) is None


def test_mini_shuffles_when_60_or_more_cards_were_dealt():
    rules = rules_of(MINI)
    shoe = Shoe(rules.shoe)
    for c in rules.shoe.shuffled(random.Random(2))[:59]:
        shoe.deal(c)
    assert L.shuffle_if_due(shoe) is None
    shoe.deal(next(c for c in rules.shoe.shuffled() if shoe.remaining()[c] > 0))
    event = L.shuffle_if_due(shoe)
    assert event is not None and event.cards_dealt == 60
