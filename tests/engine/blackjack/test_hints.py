"""Hints (Mini Blackjack): the basic-strategy action for the current hand and dealer up card."""

import pytest

from tables.engine.blackjack import live as L
from tables.engine.strategy import recommend

from .helpers import MINI, UNLIMITED, D, cards, deal_initial, open_round, rules_of

MINI_RULES = rules_of(MINI)
UNL_RULES = rules_of(UNLIMITED)


def rec(rules, hand, up, double=True, split=True, surrender=False):
    return recommend(rules, cards(hand), cards(up)[0], double, split, surrender)


@pytest.mark.parametrize(("hand", "up", "action"), [
    ("6S 5H", "6D", "double"), ("6S 5H", "AD", "hit"), ("TS 6H", "TD", "hit"), ("TS 6H", "6D", "stand"),
    ("TS 2H", "4D", "stand"), ("TS 2H", "3D", "hit"), ("AS 7H", "9D", "hit"), ("AS 7H", "2D", "stand"),
    ("AS 7H", "5D", "double"), ("AS AH", "TD", "split"), ("8S 8H", "TD", "split"), ("TS QH", "6D", "stand"),
    ("9S 9H", "7D", "stand"), ("9S 9H", "8D", "split"), ("5S 5H", "9D", "double"), ("TS 8H", "AD", "stand"),
])
def test_mini_basic_strategy_cells(hand, up, action):
    assert rec(MINI_RULES, hand, up) == action


def test_mini_without_double_after_split_hits_4_4_and_splits_2_2_only_against_4_to_7():
    assert rec(MINI_RULES, "4S 4H", "5D") == "hit"
    assert rec(MINI_RULES, "2S 2H", "3D") == "hit" and rec(MINI_RULES, "2S 2H", "4D") == "split"


def test_double_falls_back_to_hit_or_stand_when_not_allowed():
    assert rec(MINI_RULES, "6S 5H", "6D", double=False) == "hit"
    assert rec(MINI_RULES, "AS 7H", "5D", double=False) == "stand"


def test_no_peek_does_not_split_eights_or_double_eleven_against_a_ten():
    assert rec(UNL_RULES, "8S 8H", "TD") == "hit" and rec(UNL_RULES, "6S 5H", "TD") == "hit"


def test_early_surrender_of_16_against_an_ace():
    assert rec(UNL_RULES, "TS 6H", "AD", surrender=True) == "surrender"


def test_live_hint_for_the_current_hand():
    st = open_round(MINI, [L.SeatBet(1, D("10.00"))])
    deal_initial(st, "6S 6C 5H 9D")
    assert L.hint(st) == "double"
    L.hit(st, cards("2C")[0])
    assert L.hint(st) == "stand"  # hard 13 against a 6 stands
