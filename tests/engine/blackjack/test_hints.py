"""Hints (Mini Blackjack): the basic-strategy action for the current hand and dealer up card."""

import pytest

from tables.engine.blackjack import live as L
from tables.engine.strategy import Chart, recommend

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


def _chart(cell: str, multi: str = "H") -> Chart:
    """A chart (the data the game math hands the engine) that answers ``cell`` for every two-card hand."""
    ups = range(10)
    totals = range(4, 22)
    return Chart(hard={u: {t: cell for t in totals} for u in ups}, soft={u: {t: cell for t in totals} for u in ups},
                 pairs={u: {c: "H" for c in range(10)} for u in ups},
                 multi={u: {(h, a): multi for h in range(2, 32) for a in (False, True)} for u in ups})


def test_a_chart_given_decides_the_play_in_place_of_the_published_one():
    # The published chart doubles 11 against a 6; a chart that says "stand" is followed, with its fallbacks.
    assert rec(MINI_RULES, "6S 5H", "6D") == "double"
    assert recommend(MINI_RULES, cards("6S 5H"), cards("6D")[0], True, True, False, _chart("S")) == "stand"
    assert recommend(MINI_RULES, cards("6S 5H"), cards("6D")[0], True, True, False, _chart("D/S")) == "double"
    # Without the double, a hand is played by its total (the chart's multi-card plays).
    assert recommend(MINI_RULES, cards("6S 5H"), cards("6D")[0], False, True, False, _chart("D/H", "S")) == "stand"
    assert recommend(MINI_RULES, cards("6S 5H 2C"), cards("6D")[0], False, False, False, _chart("D/S", "H")) == "hit"
    assert recommend(MINI_RULES, cards("TS 9H 5C"), cards("6D")[0], False, False, False, _chart("S")) == "stand"


def test_the_live_hint_reads_the_chart_it_is_given():
    st = open_round(MINI, [L.SeatBet(1, D("10.00"))])
    deal_initial(st, "6S 6C 5H 9D")
    assert L.hint(st) == "double"
    assert L.hint(st, _chart("S")) == "stand"
