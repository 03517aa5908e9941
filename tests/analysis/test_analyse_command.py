"""``manage.py analyse``: the JSON contract of shared/DESIGN.md and readable tables."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def _run(*args: str) -> str:
    out = StringIO()
    call_command("analyse", *args, stdout=out)
    return out.getvalue()


def test_rtp_json_has_the_rtp_as_a_fraction_and_each_outcome() -> None:
    data = json.loads(_run("rtp", "--game", "unlimited-blackjack", "--bet", "perfect-pairs", "--decks", "8", "--json"))
    assert round(data["rtp"], 6) == 0.959036
    assert set(data["outcomes"]) == {"perfect-pairs/perfect", "perfect-pairs/coloured", "perfect-pairs/mixed", "lose"}
    assert abs(sum(o["probability"] for o in data["outcomes"].values()) - 1) < 1e-12


def test_rtp_of_21_plus_3_is_readable_by_default() -> None:
    text = _run("rtp", "--game", "unlimited-blackjack", "--bet", "21+3")
    assert "RTP 93.7118%" in text and "21+3/straight-flush" in text


def test_rtp_takes_a_pay_table() -> None:
    table = json.dumps({"lines": [{"name": "perfect-pairs/mixed", "pays": {"odds": "5:1"}}]})
    data = json.loads(_run("rtp", "--game", "unlimited-blackjack", "--bet", "perfect-pairs", "--pay-table", table, "--json"))
    assert data["rtp"] < 0.959


def test_dealer_json_is_keyed_by_up_card_with_totals_blackjack_and_bust() -> None:
    data = json.loads(_run("dealer", "--decks", "6", "--no-peek", "--json"))
    assert list(data) == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"]
    for row in data.values():
        assert set(row) == {"17", "18", "19", "20", "21", "blackjack", "bust"}
        assert abs(sum(row.values()) - 1) < 1e-12


def test_dealer_chart_with_the_peek_prints_the_articles_figures() -> None:
    text = _run("dealer", "--decks", "6")
    assert "42.2842%" in text and "16.7033%" in text


def test_strategy_prints_a_chart_and_the_house_edge() -> None:
    data = json.loads(_run("strategy", "--game", "unlimited-blackjack", "--json"))
    assert data["chart"]["hard"]["16"]["A"] == "R/H"
    assert round(data["rtp"], 4) == 0.9979


def test_house_edge_of_a_blackjack_game() -> None:
    data = json.loads(_run("house-edge", "--game", "mini-blackjack", "--json"))
    assert 0.004 < data["house_edge"] < 0.006 and data["ci95"] is None


def test_house_edge_of_finnish_27_is_simulated_with_a_confidence_interval() -> None:
    data = json.loads(_run("house-edge", "--game", "finnish-27", "--strategy", "rule-text", "--rounds", "200000", "--json"))
    assert {"house_edge", "ci95", "rounds", "bonus"} <= set(data)
    assert data["rounds"] >= 200000 and 0 < data["ci95"] < 0.01
    assert "9-9-9/dealer-9-9" in data["bonus"] and "poker/flush" in data["bonus"]


def test_unknown_bet_is_a_clear_error() -> None:
    with pytest.raises(CommandError):
        _run("rtp", "--game", "mini-blackjack", "--bet", "21+3")
