"""Bluffjack verification documents through ``verify_round``."""

from __future__ import annotations

import pytest

from tables.engine import verify_round
from tables.engine.errors import InvalidInput


def _request(**over):
    req = {
        "game": "bluffjack", "dealer": "ann",
        "players": [{"player": "ann", "stack": 100, "cards": ["9S", "7H"]},
                    {"player": "bob", "stack": 100, "cards": ["8S", "5C", "TH"]},
                    {"player": "cy", "stack": 100, "cards": ["KD", "6D", "9C"]}],
        "actions": [{"player": "bob", "action": "raise", "by": 1}, {"player": "cy", "action": "call"},
                    {"player": "ann", "action": "fold"}, {"player": "bob", "action": "hit"},
                    {"player": "cy", "action": "hit"},
                    {"player": "bob", "action": "check"}, {"player": "cy", "action": "check"}],
    }
    req.update(over)
    return req


def test_verify_all_bust_hand_reports_the_house_take():
    answer = verify_round(_request(paid={"house": 5}))
    assert answer["house"] == 5 and answer["discrepancies"] == [] and answer["violations"] == []
    bob = next(p for p in answer["players"] if p["player"] == "bob")
    assert bob["total_net"] == -2 and bob["lines"][0]["result"] == "bust"
    assert "over 21" in bob["lines"][0]["detail"]


def test_verify_flags_a_payout_that_differs_from_what_is_due():
    answer = verify_round(_request(paid={"cy": 5}))
    assert {d["player"] for d in answer["discrepancies"]} == {"cy", "house"}


def test_verify_reports_an_out_of_turn_action_as_a_violation():
    req = _request()
    req["actions"][1], req["actions"][2] = req["actions"][2], req["actions"][1]
    answer = verify_round(req)
    assert answer["violations"][0]["rule"] == "bluffjack.out-of-turn"
    assert "not replayed" in answer["violations"][0]["message"]


def test_verify_reports_raising_more_than_held():
    req = _request(rules={"no_house": True})
    req["players"][1]["stack"] = 2  # 1 left after the ante
    req["actions"][0]["by"] = 5
    answer = verify_round(req)
    assert answer["violations"][0]["rule"] == "bluffjack.raise-exceeds-stack"


def test_verify_reports_cards_listed_but_never_dealt():
    req = _request()
    req["players"][0]["cards"].append("2C")
    answer = verify_round(req)
    assert answer["violations"][0]["rule"] == "bluffjack.card-not-dealt"


@pytest.mark.parametrize(
    ("change", "field"),
    [(lambda r: r["players"][0].update(stack=-1), "players[0].stack"),
     (lambda r: r["players"][1].update(cards=["8S", "5C", "8S"]), "players[1].cards[2]"),
     (lambda r: r["players"][2].update(cards=["KD", "XX"]), "players[2].cards[1]"),
     (lambda r: r["actions"].pop(), "actions"),
     (lambda r: r["actions"][0].update(action="bet"), "actions[0].action"),
     (lambda r: r.update(dealer="zed"), "dealer"),
     (lambda r: r.update(rules={"charlie": 6}), "charlie")],
)
def test_verify_malformed_input_names_the_field(change, field):
    req = _request()
    change(req)
    with pytest.raises(InvalidInput) as exc:
        verify_round(req)
    assert exc.value.field == field
