"""Initial 27s: Jo Jo > Finnish 27 > Joanca; an initial 27 decides the round at once, ties to the
dealer (rule text "Initial Hands That Have A Value Of Twenty-Seven", "Determine Whether A
Predetermined Outcome Occurs")."""

from __future__ import annotations

import pytest

from tables.engine.finnish27 import initial_27, initial_winner, settle

from .helpers import C, D

HANDS = {"jo-jo": "JK JK", "finnish-27": "AS KD", "joanca": "JK 7C"}
RANK = {"jo-jo": 3, "finnish-27": 2, "joanca": 1}


@pytest.mark.parametrize(("kind", "codes"), list(HANDS.items()) + [("finnish-27", "KH AC"), ("joanca", "QD JK")])
def test_the_three_initial_27s(kind: str, codes: str) -> None:
    assert initial_27(C(codes)) == kind


@pytest.mark.parametrize("codes", ["AS QD", "KS KD", "AS AD", "9S 9D"])
def test_other_initial_hands_are_not_27s(codes: str) -> None:
    assert initial_27(C(codes)) is None


@pytest.mark.parametrize("player", list(HANDS))
@pytest.mark.parametrize("dealer", list(HANDS))
def test_each_initial_27_against_each_other_higher_rank_wins_ties_to_dealer(player: str, dealer: str) -> None:
    expected = "player" if RANK[player] > RANK[dealer] else "dealer"
    assert initial_winner(C(HANDS[player]), C(HANDS[dealer])) == expected
    assert settle(C(HANDS[player]), C(HANDS[dealer]), D("10"), table_minimum=D("5")).outcome.winner == expected


@pytest.mark.parametrize("player", list(HANDS))
def test_a_player_27_against_no_dealer_27_wins_at_once(player: str) -> None:
    s = settle(C(HANDS[player]), C("TS 5D"), D("10"), table_minimum=D("5"))
    assert s.outcome.winner == "player" and s.outcome.how == "initial-27"


@pytest.mark.parametrize("dealer", list(HANDS))
def test_a_dealer_27_against_no_player_27_wins_at_once(dealer: str) -> None:
    s = settle(C("KS QD"), C(HANDS[dealer]), D("10"), table_minimum=D("5"))
    assert s.outcome.winner == "dealer" and s.lines[0].net == D("-10")


def test_no_initial_27_means_no_predetermined_outcome() -> None:
    assert initial_winner(C("9S 9D"), C("KS QD")) is None


def test_the_explanation_names_both_27s() -> None:
    s = settle(C("JK JK"), C("AS KD"), D("10"), table_minimum=D("5"))
    assert "Jo Jo outranks Finnish 27" in s.lines[0].detail
    s = settle(C("AS KD"), C("KC AH"), D("10"), table_minimum=D("5"))
    assert "equal initial 27s go to the dealer" in s.lines[0].detail
