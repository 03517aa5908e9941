"""Review of the basic-strategy hints against the standard published charts.

Mini Blackjack (4 decks, dealer stands on soft 17, no double after split, peek): key cells of the
standard 4-deck S17 basic-strategy chart, against the hint the tablet shows: the strategy the game
math computes for the rule set (``tables.analysis.blackjack``), read by the engine as a chart.  Unlimited Blackjack (8 decks, S17, double after split,
no peek): the engine's own chart (tables/engine/strategy.py), which once returned "hit" for every
non-pair hand because it compared a whole chart row with a cell code.
"""

from __future__ import annotations

import pytest

from tables.analysis.blackjack import recommend as computed
from tables.engine.cards import parse_card, parse_cards
from tables.engine.rulesets import PUBLISHED_RULES
from tables.engine.strategy import recommend

MINI = PUBLISHED_RULES["mini-blackjack"]
UNL = PUBLISHED_RULES["unlimited-blackjack"]


def rec(rules, player: str, up: str, double: bool = True, split: bool = True, surrender: bool = False) -> str:
    """Mini Blackjack's hint (the computed strategy); Unlimited Blackjack's published chart."""
    play = computed if rules is MINI else recommend
    return play(rules, parse_cards(player), parse_card(up), double, split, surrender)


STANDARD_4_DECK_S17_NO_DAS = [
    ("TS 6D", "TH", "hit"), ("TS 6D", "6H", "stand"), ("TS 2D", "3H", "hit"), ("TS 2D", "4H", "stand"),
    ("TS 2D", "7H", "hit"), ("TS 3D", "2H", "stand"), ("9S 7D", "7H", "hit"), ("TS 7D", "AH", "stand"),
    ("6S 5D", "TH", "double"), ("6S 4D", "9H", "double"), ("6S 4D", "TH", "hit"), ("5S 4D", "2H", "hit"),
    ("5S 4D", "3H", "double"), ("AS 7D", "2H", "stand"), ("AS 7D", "3H", "double"), ("AS 7D", "7H", "stand"),
    ("AS 7D", "9H", "hit"), ("AS 6D", "2H", "hit"), ("AS 6D", "3H", "double"), ("AS 4D", "4H", "double"),
    ("AS 8D", "6H", "stand"), ("AS 3D", "4H", "hit"), ("8S 8D", "TH", "split"), ("8S 8D", "AH", "split"),
    ("AS AD", "AH", "split"), ("9S 9D", "7H", "stand"), ("9S 9D", "8H", "split"), ("TS TD", "6H", "stand"),
    ("4S 4D", "5H", "hit"), ("2S 2D", "3H", "hit"), ("2S 2D", "4H", "split"), ("6S 6D", "2H", "hit"),
    ("6S 6D", "3H", "split"), ("5S 5D", "9H", "double"), ("7S 7D", "7H", "split"), ("7S 7D", "8H", "hit"),
]


@pytest.mark.parametrize(("player", "up", "action"), STANDARD_4_DECK_S17_NO_DAS)
def test_mini_hint_matches_the_standard_4_deck_s17_chart(player, up, action):
    assert rec(MINI, player, up) == action


@pytest.mark.xfail(strict=True, reason=(
    "known difference, left to the game-math owners: the computed Mini strategy "
    "(tables/analysis/blackjack.py) says hit for soft 13 vs 5 (EV 0.1374 vs double 0.1350, a 0.2% "
    "margin; its shoe removes only the up card, not the player's A and 2); the published 4-deck "
    "S17 charts double A-2 against 5 and 6"))
def test_mini_soft_13_doubles_against_a_5_as_in_the_standard_chart():
    assert rec(MINI, "AS 2D", "5H") == "double"


@pytest.mark.parametrize(("player", "up", "action"), [
    ("TS 2D", "4H", "stand"), ("TS 2D", "2H", "hit"), ("TS 3D", "2H", "stand"), ("TS 6D", "7H", "hit"),
    ("TS 6D", "6H", "stand"), ("6S 5D", "6H", "double"), ("6S 4D", "9H", "double"), ("5S 4D", "3H", "double"),
    ("5S 4D", "2H", "hit"), ("AS 7D", "2H", "stand"), ("AS 7D", "3H", "double"), ("AS 7D", "9H", "hit"),
    ("AS 8D", "6H", "stand"), ("AS 2D", "5H", "double"), ("AS 2D", "4H", "hit"), ("TS 7D", "TH", "stand"),
    ("8S 8D", "6H", "split"), ("9S 9D", "7H", "stand"), ("2S 2D", "2H", "split"), ("4S 4D", "5H", "split"),
])
def test_unlimited_chart_cells(player, up, action):
    assert rec(UNL, player, up) == action


def test_unlimited_no_peek_cells_hit_11_and_8_8_against_a_ten():
    assert rec(UNL, "6S 5D", "TH") == "hit"
    assert rec(UNL, "8S 8D", "TH") == "hit"


def test_double_cells_fall_back_when_a_double_is_not_allowed():
    assert rec(UNL, "6S 5D", "6H", double=False) == "hit"
    assert rec(UNL, "AS 7D", "3H", double=False) == "stand"
    assert rec(UNL, "TS 3D 2C", "2H", double=False, split=False) == "stand"  # three-card hard 15 vs 2


def test_unlimited_early_surrender_against_an_ace():
    assert rec(UNL, "TS 6D", "AH", surrender=True) == "surrender"
    assert rec(UNL, "TS 8D", "AH", surrender=True) == "stand"
