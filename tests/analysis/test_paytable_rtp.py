"""``paytable_rtp``: what the back office shows when a pay table is saved."""

from __future__ import annotations

import pytest

from tables.analysis import paytable_rtp
from tables.engine.errors import InvalidInput


def test_unlimited_blackjack_published_table_gives_every_bet_at_once() -> None:
    out = paytable_rtp("unlimited-blackjack", None)
    assert round(out["bets"]["perfect-pairs"]["rtp"], 3) == 0.959
    assert round(out["bets"]["21+3"]["rtp"], 4) == 0.9371
    assert round(out["bets"]["main"]["rtp"], 4) == 0.9979
    assert out["pending"] == []
    names = [line["name"] for line in out["lines"]]
    assert "21+3/suited-trips" in names and "insurance" in names
    assert all(line["method"] in ("exact", "computed") for line in out["lines"])


def test_a_changed_line_changes_that_bets_rtp_only() -> None:
    base = paytable_rtp("unlimited-blackjack", None)
    changed = paytable_rtp("unlimited-blackjack",
                           {"lines": [{"name": "21+3/flush", "pays": {"odds": "4:1"}}]})
    assert changed["bets"]["21+3"]["rtp"] < base["bets"]["21+3"]["rtp"]
    assert changed["bets"]["perfect-pairs"] == base["bets"]["perfect-pairs"]


def test_rule_set_parameters_are_used() -> None:
    six = paytable_rtp("unlimited-blackjack", None, {"decks": 6})
    eight = paytable_rtp("unlimited-blackjack", None)
    assert six["bets"]["perfect-pairs"]["rtp"] != eight["bets"]["perfect-pairs"]["rtp"]


def test_a_blackjack_paying_6_to_5_costs_the_player() -> None:
    base = paytable_rtp("mini-blackjack", None)
    six_five = paytable_rtp("mini-blackjack", {"lines": [{"name": "main/blackjack", "pays": {"odds": "6:5"}}]})
    assert base["bets"]["main"]["rtp"] - six_five["bets"]["main"]["rtp"] > 0.01
    assert "perfect-pairs" not in base["bets"]


def test_player_versus_player_games_have_no_rtp() -> None:
    assert paytable_rtp("bluffjack", None)["lines"] == []


def test_unknown_game_names_the_field() -> None:
    with pytest.raises(InvalidInput) as err:
        paytable_rtp("roulette", None)
    assert err.value.field == "game"
