"""The dashboard's words for a round's money maps (``floor_words.amounts``): never an empty seat entry."""

from __future__ import annotations

from tables.templatetags.floor_words import amounts


def test_a_seat_with_nothing_due_is_left_out():
    # The round document keeps a seat that won nothing as {}: it was drawn "seat 1: ; seat 2: ...".
    assert amounts({"1": {}, "2": {"perfect-pairs": "30.00"}}) == "seat 2: perfect-pairs 30.00"


def test_nothing_due_at_any_seat_is_a_dash():
    assert amounts({"1": {}, "3": {}}) == "—"
    assert amounts({}) == "—" and amounts(None) == "—"


def test_each_seat_with_its_bets():
    assert amounts({"1": {"main": "20.00", "behind": "5.00"}, "4": {"main": "10.00"}}) == (
        "seat 1: main 20.00, behind 5.00; seat 4: main 10.00")
