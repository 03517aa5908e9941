"""Scoring: card values, high and low Aces, soft and hard totals, the Joker (rule text "Scoring",
"Hard and Soft"; rules/README.md "Values", "Joker")."""

from __future__ import annotations

import pytest

from tables.engine.finnish27 import card_value, describe, hand_value

from .helpers import C


@pytest.mark.parametrize(("code", "value"), [("2S", 2), ("5H", 5), ("9D", 9), ("TC", 10), ("JS", 11), ("QH", 12), ("KD", 13)])
def test_cards_count_their_poker_rank_faces_11_12_13(code: str, value: int) -> None:
    assert card_value(C(code)[0]) == value


def test_ace_and_jack_is_soft_25() -> None:
    assert hand_value(C("AS JD")) == (25, True)
    assert describe(C("AS JD")) == "soft 25"


def test_ace_nine_king_is_hard_23() -> None:
    assert hand_value(C("AS 9D KC")) == (23, False)
    assert describe(C("AS 9D KC")) == "hard 23"


def test_an_ace_is_high_when_14_keeps_the_total_at_27_or_under() -> None:
    assert hand_value(C("AS 2D")) == (16, True)
    assert hand_value(C("AS KD")) == (27, True)  # exactly 27 keeps the Ace high


def test_a_soft_hand_over_27_turns_its_ace_low_and_becomes_hard() -> None:
    assert hand_value(C("AS 9D")) == (23, True)
    assert hand_value(C("AS 9D 5C")) == (15, False)


def test_at_most_one_ace_is_high() -> None:
    assert hand_value(C("AS AD")) == (15, True)
    assert hand_value(C("AS AD AH")) == (16, True)


def test_a_hand_without_a_high_ace_is_hard() -> None:
    assert hand_value(C("9S 8D")) == (17, False)


def test_no_bust_totals_go_past_27() -> None:
    assert hand_value(C("KS QD 9C")) == (34, False)
    assert describe(C("KS QD 9C")) == "34"


@pytest.mark.parametrize("other", ["2S", "9H", "KD", "AS", "TC"])
def test_a_joker_in_the_initial_hand_makes_it_27(other: str) -> None:
    assert hand_value(C(f"JK {other}"))[0] == 27
    assert hand_value(C(f"{other} JK"))[0] == 27


def test_a_lone_joker_is_27() -> None:
    assert hand_value(C("JK")) == (27, False)


def test_two_jokers_are_27() -> None:
    assert hand_value(C("JK JK"))[0] == 27


def test_a_joker_as_third_card_counts_0() -> None:
    assert hand_value(C("9S 8D JK")) == (17, False)
    assert hand_value(C("AS 5D JK")) == (19, True)
    assert card_value(C("JK")[0]) == 0


def test_the_joker_rule_applies_to_the_dealers_hand_too() -> None:
    # the same function values both hands: a dealer Joker as third card is 0 as well
    assert hand_value(C("TS 6D JK")) == (16, False)
