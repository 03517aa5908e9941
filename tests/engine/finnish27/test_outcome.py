"""Outcomes after the hands: 27 wins at once, over hard 35 loses at once, otherwise the hand nearer
to 27 wins and ties go to the dealer (rule text "Determine The Outcome Of The Game")."""

from __future__ import annotations

from tables.engine.finnish27 import outcome, player_decided

from .helpers import C


def test_a_29_beats_a_24_by_distance() -> None:
    o = outcome(C("KS 8D 8C"), C("KS JD"))  # 29 (2 away) against 24 (3 away)
    assert o.winner == "player" and o.how == "closer"


def test_the_dealer_wins_when_closer() -> None:
    assert outcome(C("KS 9D"), C("KS KD")).winner == "dealer"  # 22 against 26


def test_equal_distance_goes_to_the_dealer() -> None:
    o = outcome(C("KS KD 2C"), C("KS KD"))  # 28 and 26: one away each
    assert o.winner == "dealer" and o.how == "tie"
    assert outcome(C("KS JD"), C("KS JC")).how == "tie"  # equal totals


def test_a_player_27_wins_at_once() -> None:
    assert player_decided(C("9S 9H 9D")) == "player"
    o = outcome(C("9S 9H 9D"), C("KS 5D"))
    assert o.winner == "player" and o.how == "player-27"


def test_a_player_over_hard_35_loses_at_once() -> None:
    assert player_decided(C("KS JD QC")) == "dealer"  # 36
    o = outcome(C("KS JD QC"), C("KS 5D 3C TH"))  # the dealer's 31 is nearer anyway, but it is not compared
    assert o.winner == "dealer" and o.how == "player-over-35"


def test_hard_35_is_not_over_35() -> None:
    assert player_decided(C("KS KD 9C")) is None
    assert outcome(C("KS KD 9C"), C("KS QD 9C TH")).winner == "player"  # 35 (8 away) vs 44 (17 away)


def test_neither_side_busts_between_28_and_35() -> None:
    assert outcome(C("KS KD 5C"), C("KS JD 9C")).winner == "player"  # 31 vs 33
