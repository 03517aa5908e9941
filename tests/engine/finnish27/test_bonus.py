"""Bonus pay table: every line, only when the player wins, one line per hand (the highest-paying),
table-minimum lines against odds lines, the pay table as data (rule text "Bonus Payouts For
Predetermined Combinations Of Cards"; rules/README.md)."""

from __future__ import annotations

import pytest

from tables.engine.finnish27 import bonus_candidates, bonus_line, settle
from tables.engine.paytable import PayTable

from .helpers import C, D

DEALER_20 = "KS 7D"  # hard 20: draws; player 27s win at once anyway


def bonus_of(player: str, dealer: str = DEALER_20, wager: str = "10.00", minimum: str = "10.00",
             pay_table: PayTable | None = None):  # type: ignore[no-untyped-def]
    kwargs = {"pay_table": pay_table} if pay_table else {}
    s = settle(C(player), C(dealer), D(wager), table_minimum=D(minimum), **kwargs)
    lines = {line.bet: line for line in s.lines}
    return s.bonus, (lines["bonus"].net if "bonus" in lines else None), s  # fmt: skip


@pytest.mark.parametrize(
    ("player", "line", "net"),
    [
        ("AS KD", "finnish-27", "5.00"),  # 1:2 odds
        ("KH AC", "finnish-27", "5.00"),
        ("JK JK", "jo-jo", "10.00"),  # 1:1
        ("8S 9H TD", "8-9-10/mixed", "5.00"),  # 1:2
        ("8H 9H TH", "8-9-10/suited", "10.00"),  # 1:1
        ("TC 8C 9C", "8-9-10/suited", "10.00"),
        ("9D 8D TD", "8-9-10/suited", "10.00"),
        ("8S 9S TS", "8-9-10/spades", "20.00"),  # 2:1
        ("9S 9H 9C", "9-9-9/mixed", "90.00"),  # 9 x table minimum
        ("9H 9H 9H", "9-9-9/suited", "990.00"),  # 99 x table minimum (six decks)
    ],
)
def test_each_three_and_two_card_bonus_line(player: str, line: str, net: str) -> None:
    name, paid, s = bonus_of(player)
    assert s.outcome.winner == "player"
    assert (name, paid) == (line, D(net))


def test_9_9_9_with_a_dealer_9_9_pays_999_table_minimums() -> None:
    assert bonus_of("9S 9H 9C", dealer="9D 9C")[:2] == ("9-9-9/dealer-9-9", D("9990.00"))


def test_one_line_per_hand_the_highest_paying() -> None:
    # a same-suit 9-9-9 against a dealer 9-9 matches two lines; only the 999 is paid
    assert bonus_candidates(C("9H 9H 9H"), C("9D 9C")) == ("9-9-9/dealer-9-9", "9-9-9/suited")
    name, paid, s = bonus_of("9H 9H 9H", dealer="9D 9C")
    assert (name, paid) == ("9-9-9/dealer-9-9", D("9990.00"))
    assert [line.bet for line in s.lines] == ["main", "bonus"]


def test_the_highest_paying_line_follows_the_pay_table_not_a_fixed_order() -> None:
    table = PayTable.from_json("finnish-27", {"lines": [{"name": "9-9-9/suited", "pays": {"table_minimum": 5000}}]})
    assert bonus_of("9H 9H 9H", dealer="9D 9C", pay_table=table)[:2] == ("9-9-9/suited", D("50000.00"))


def test_table_minimum_lines_ignore_the_wager() -> None:
    assert bonus_of("9S 9H 9C", wager="100.00", minimum="5.00")[1] == D("45.00")


def test_odds_lines_pay_on_the_wager() -> None:
    assert bonus_of("8S 9S TS", wager="25.00", minimum="5.00")[1] == D("50.00")


def test_odds_are_rounded_down_to_the_cent() -> None:
    assert bonus_of("AS KD", wager="5.01")[1] == D("2.50")


def test_the_pay_table_is_data() -> None:
    table = PayTable.from_json("finnish-27", {"lines": [{"name": "8-9-10/spades", "pays": {"odds": "3:1"}}]})
    assert bonus_of("8S 9S TS", pay_table=table)[1] == D("30.00")


def test_a_joanca_earns_no_bonus() -> None:
    name, paid, s = bonus_of("JK 7C")
    assert s.outcome.winner == "player" and name is None and paid is None


def test_no_bonus_when_the_player_loses() -> None:
    name, paid, s = bonus_of("AS KD", dealer="JK JK")  # Finnish 27 loses to Jo Jo
    assert s.outcome.winner == "dealer" and name is None and [line.bet for line in s.lines] == ["main"]


@pytest.mark.parametrize(
    ("player", "dealer", "line", "net"),
    [
        # five or more cards; the dealer's 35 is 8 away, so every one of these hands wins
        ("2S 2D 9C 9H 5S", "KS 9D KC", "poker/two-pair", "10.00"),  # 27 wins at once
        ("2S 2D 2C 5H 6S 7D", "KS 9D KC", "poker/three-of-a-kind", "20.00"),
        ("2S 3D 4C 5H 6S 7D", "KS 9D KC", "poker/straight", "30.00"),
        ("2S 2D 2C 3H 3S 5D 7C", "KS 9D KC", "poker/full-house", "40.00"),
        ("3S 3D 3C 3H 5S 6D", "KS 9D KC", "poker/four-of-a-kind", "50.00"),
        ("2H 3H 5H 7H 9H", "KS 9D KC", "poker/flush", "60.00"),
        ("2H 3H 4H 5H 6H 6C", "KS 9D KC", "poker/straight-flush", "70.00"),
        ("4S 4S 4D 4C 4H 5C", "KS 9D KC", "poker/five-of-a-kind", "80.00"),
    ],
)
def test_each_poker_line_on_five_or_more_cards(player: str, dealer: str, line: str, net: str) -> None:
    name, paid, s = bonus_of(player, dealer=dealer)
    if s.outcome.winner != "player":
        pytest.fail(f"test hand does not win: {s.lines[0].detail}")
    assert (name, paid) == (line, D(net))


def test_a_joker_drawn_later_is_wild_for_the_poker_bonus_and_worth_0() -> None:
    # 2-3-4-5 of hearts and a Joker: a straight flush, total 14 + 0 + 9 = 23
    assert bonus_candidates(C("2H 3H 4H 5H JK 9C"), C(DEALER_20)) == ("poker/straight-flush",)


def test_one_pair_qualifies_but_pays_nothing() -> None:
    assert bonus_candidates(C("2S 2D 3C 4H 9S 7C"), C(DEALER_20)) == ()


def test_the_finnish_order_ranks_a_flush_above_four_of_a_kind() -> None:
    assert bonus_line(C("3H 3D 3C 3S 2H 5H 7H 9H"), C(DEALER_20)) == "poker/flush"


def test_four_cards_earn_no_poker_bonus() -> None:
    assert bonus_candidates(C("2S 2D 2C 2H"), C(DEALER_20)) == ()


def test_8_9_10_and_9_9_9_need_exactly_three_cards() -> None:
    assert bonus_candidates(C("8S 9S TS JK"), C(DEALER_20)) == ()
    assert bonus_candidates(C("9S 9S 9S 2C 2D"), C(DEALER_20)) == ("poker/full-house",)
