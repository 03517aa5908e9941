"""Contract Rummy verification of a finished deal through ``verify_round``."""

from __future__ import annotations

import pytest

from tables.engine import verify_round
from tables.engine.errors import InvalidInput


def _request(**over):
    req = {
        "game": "contract-rummy", "deal": 6,
        "players": [
            {"player": "ann", "contract": [["7S", "7H", "7D"], ["3H", "4H", "JK=5H", "6H"], ["9C", "TC", "JC", "QC"]],
             "hand": [], "score_before": 30, "score": 0},
            {"player": "bob", "hand": ["KD", "AS", "2C"], "score_before": 12, "score": 27},
            {"player": "cy", "contract": [["8S", "8H", "8D"], ["2D", "3D", "4D", "5D"], ["9S", "TS", "JS", "QS"]],
             "hand": ["9H"], "score_before": 0},
        ],
    }
    req.update(over)
    return req


def test_verify_scores_each_hand_and_checks_the_contracts():
    answer = verify_round(_request())
    by = {p["player"]: p for p in answer["players"]}
    assert answer["contract"] == ["set", "sequence", "sequence"]
    assert by["ann"]["contract_met"] and by["ann"]["went_out"] and by["ann"]["total"] == 30
    assert by["bob"]["score"] == 27 and by["bob"]["total"] == 39 and "KD 10 + AS 15 + 2C 2 = 27" == by["bob"]["lines"][0]["detail"]
    assert by["cy"]["score"] == 9 and by["cy"]["contract_met"]
    assert answer["violations"] == [] and answer["discrepancies"] == []


def test_verify_with_a_scoring_variant():
    answer = verify_round(_request(rules={"deuces_wild": True}))
    bob = next(p for p in answer["players"] if p["player"] == "bob")
    assert bob["score"] == 50
    assert answer["discrepancies"] == [{"player": "bob", "claimed": 27, "due": 50, "difference": -23}]


def test_verify_reports_a_contract_with_touching_sequences():
    req = _request()
    req["players"][2]["contract"][2] = ["6D", "7D", "8D", "9D"]
    req["players"][2]["contract"][0] = ["8S", "8H", "8C"]
    answer = verify_round(req)
    assert [v["rule"] for v in answer["violations"]] == ["rummy.sequences-not-separated"]


def test_verify_reports_going_out_without_the_contract():
    req = _request()
    del req["players"][0]["contract"]
    answer = verify_round(req)
    assert answer["violations"][0]["rule"] == "rummy.out-without-contract"


def test_verify_refuses_more_copies_than_the_shoe_holds():
    req = _request()
    req["players"][1]["hand"] = ["JK"]  # ann's contract holds the only Joker of a 3-player shoe
    with pytest.raises(InvalidInput) as exc:
        verify_round(req)
    assert "JK" in str(exc.value)


@pytest.mark.parametrize(
    ("change", "field"),
    [(lambda r: r.update(deal=8), "deal"),
     (lambda r: r["players"][1].update(hand=["KX"]), "players[1].hand[0]"),
     (lambda r: r["players"][1].update(score_before=-1), "players[1].score_before"),
     (lambda r: r["players"][0].update(contract="7S 7H 7D"), "players[0].contract"),
     (lambda r: r.update(players=[]), "players")],
)
def test_verify_malformed_input_names_the_field(change, field):
    req = _request()
    change(req)
    with pytest.raises(InvalidInput) as exc:
        verify_round(req)
    assert exc.value.field == field
