"""Settlement lines: the game wager at 1:1, the bonus line, human details, exact money (rule text
"Resolution Of The Game Wager")."""

from __future__ import annotations

from decimal import Decimal

from tables.engine.finnish27 import settle
from tables.engine.paytable import PayTable

from .helpers import C, D


def test_a_win_pays_one_to_one() -> None:
    s = settle(C("KS 8D 8C"), C("KS JD"), D("12.50"), table_minimum=D("5"))
    (main,) = s.lines
    assert (main.bet, main.result, main.net, main.wager) == ("main", "win", D("12.50"), D("12.50"))


def test_a_loss_collects_the_wager() -> None:
    s = settle(C("KS 9D"), C("KS KD"), D("12.50"), table_minimum=D("5"))
    assert (s.lines[0].result, s.lines[0].net) == ("lose", D("-12.50"))
    assert s.total_net == D("-12.50")


def test_the_main_detail_explains_the_win_and_the_bonus() -> None:
    s = settle(C("8S 9S TS"), C("KS QD"), D("10"), table_minimum=D("5"))
    assert s.lines[0].detail == "player 27 (8-9-10 spades) vs dealer hard 25: win 1:1 + bonus 2:1 (27 wins at once)"
    assert s.lines[1].detail == "8-9-10/spades: 8-9-10 spades, pays 2:1 on the wager 10.00"


def test_the_detail_explains_distance_and_ties() -> None:
    assert settle(C("KS 8D 8C"), C("KS JD"), D("10"), table_minimum=D("5")).lines[0].detail == (
        "player 29 vs dealer hard 24: win 1:1 (closer to 27: 2 away against the dealer's 3)"
    )
    assert settle(C("KS JD"), C("KS 8D 8C"), D("10"), table_minimum=D("5")).lines[0].detail == (
        "player hard 24 vs dealer 29: lose (the dealer closer to 27: 2 away against the player's 3)"
    )
    assert settle(C("KS KD 2C"), C("KS KD"), D("10"), table_minimum=D("5")).lines[0].detail == (
        "player 28 vs dealer hard 26: lose (equally close to 27, 1 away each: the dealer wins ties)"
    )


def test_the_total_is_the_main_net_plus_the_bonus() -> None:
    s = settle(C("9S 9H 9C"), C("9D 9C"), D("10.00"), table_minimum=D("10.00"))
    assert s.total_net == D("10000.00")
    assert all(isinstance(line.net, Decimal) for line in s.lines)


def test_the_game_wager_pays_what_the_main_line_of_the_pay_table_says() -> None:
    table = PayTable.from_json("finnish-27", {"lines": [{"name": "main", "pays": {"odds": "19:20"}}]})
    s = settle(C("KS 8D 8C"), C("KS JD"), D("10.00"), table_minimum=D("5"), pay_table=table)
    assert s.lines[0].net == D("9.50")


def test_lines_serialise_with_two_decimal_places() -> None:
    s = settle(C("KS 9D"), C("KS KD"), D("10"), table_minimum=D("5"))
    assert s.lines[0].as_json()["net"] == "-10.00" and s.lines[0].as_json()["wager"] == "10.00"
