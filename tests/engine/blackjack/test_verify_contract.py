"""The verify_round contract of shared/DESIGN.md for the blackjack games, and malformed input."""

import copy

import pytest

from tables.engine import verify_round
from tables.engine.errors import InvalidCard, InvalidInput

from .helpers import MINI, UNLIMITED, hand, request, seat

DESIGN_EXAMPLE = {
    "game": "unlimited-blackjack", "table_minimum": "5.00",
    "pay_table": {"lines": [{"name": "perfect-pairs/perfect", "pays": {"odds": "25:1"}}]},
    "dealer": {"cards": ["6H", "TC", "9S"]},
    "seats": [{"seat": 3,
               "wagers": {"main": "10.00", "perfect-pairs": "5.00", "21+3": "5.00"},
               "hands": [{"cards": ["8S", "3D", "QC"], "doubled": False, "surrendered": False},
                         {"cards": ["8H", "9C"], "doubled": False, "surrendered": False}],
               "behind": [{"wagers": {"main": "5.00"}, "double_along": True, "follow_split": "both"}],
               "paid": {"main": "20.00", "behind": "10.00", "perfect-pairs": "30.00"}}],
}


def test_design_example_verifies_as_described():
    ans = verify_round(copy.deepcopy(DESIGN_EXAMPLE))
    assert ans["violations"] == [] and ans["discrepancies"] == []
    (s,) = ans["seats"]
    got = [(x["bet"], x.get("hand"), x.get("behind"), x["wager"], x["result"], x["net"]) for x in s["lines"]]
    assert got == [
        ("main", 0, None, "10.00", "win", "10.00"),
        ("main", 1, None, "10.00", "win", "10.00"),
        ("perfect-pairs", None, None, "5.00", "win", "30.00"),
        ("21+3", None, None, "5.00", "lose", "-5.00"),
        ("behind", 0, 0, "5.00", "win", "5.00"),
        ("behind", 1, 0, "5.00", "win", "5.00"),
    ]
    assert s["seat"] == 3 and s["total_net"] == "55.00"


def test_underpaid_kind_is_a_discrepancy():
    req = copy.deepcopy(DESIGN_EXAMPLE)
    req["seats"][0]["paid"]["behind"] = "5.00"
    assert verify_round(req)["discrepancies"] == [
        {"seat": 3, "bet": "behind", "kind": "behind", "paid": "5.00", "due": "10.00", "difference": "-5.00"}]


def test_a_kind_not_listed_in_paid_was_paid_nothing():
    req = copy.deepcopy(DESIGN_EXAMPLE)
    del req["seats"][0]["paid"]["perfect-pairs"]
    (d,) = verify_round(req)["discrepancies"]
    assert (d["bet"], d["paid"], d["due"]) == ("perfect-pairs", "0.00", "30.00")


def test_without_paid_there_are_no_discrepancies():
    req = copy.deepcopy(DESIGN_EXAMPLE)
    del req["seats"][0]["paid"]
    assert verify_round(req)["discrepancies"] == []


def test_doubled_and_surrendered_default_to_false():
    req = request(UNLIMITED, "TH 8C", seat(1, "10.00", [{"cards": ["TS", "9H"]}]))
    assert verify_round(req)["seats"][0]["lines"][0]["net"] == "10.00"


def _error(req):
    with pytest.raises(InvalidInput) as err:
        verify_round(req)
    return err.value


def test_bad_card_code_names_the_field():
    err = _error(request(UNLIMITED, "TH 8C", seat(1, "10.00", [hand("TS 1H")])))
    assert err.field == "seats[0].hands[0].cards[1]" and "1H" in err.message


def test_impossible_card_names_the_field():
    # Nine Aces of spades cannot come from eight decks.
    hands = [hand("AS AS"), hand("AS AS")]
    req = request(UNLIMITED, "AS AS AS AS", seat(1, "10.00", hands), seat(2, "10.00", [hand("AS 9C")]))
    err = _error(req)
    assert isinstance(err, InvalidCard) and err.field == "seats[1].hands[0].cards[0]"
    assert "impossible card AS" in err.message


def test_a_joker_is_an_impossible_card():
    assert isinstance(_error(request(MINI, "TH 8C", seat(1, "10.00", [hand("JK 9H")]))), InvalidCard)


def test_missing_main_wager():
    err = _error(request(UNLIMITED, "TH 8C", seat(1, None, [hand("TS 9H")])))
    assert err.field == "seats[0].wagers.main"


def test_non_positive_wager():
    assert _error(request(UNLIMITED, "TH 8C", seat(1, "0.00", [hand("TS 9H")]))).field == "seats[0].wagers.main"


def test_float_wager_is_refused():
    assert _error(request(UNLIMITED, "TH 8C", seat(1, 10.123, [hand("TS 9H")]))).field == "seats[0].wagers.main"


def test_unknown_bet_kind():
    err = _error(request(UNLIMITED, "TH 8C", seat(1, "10.00", [hand("TS 9H")], wagers={"lucky": "1.00"})))
    assert err.field == "seats[0].wagers.lucky"


def test_one_card_hand_is_malformed():
    assert _error(request(UNLIMITED, "TH 8C", seat(1, "10.00", [hand("TS")]))).field == "seats[0].hands[0].cards"


def test_dealer_needs_up_and_hole_card():
    assert _error(request(UNLIMITED, "TH", seat(1, "10.00", [hand("TS 9H")]))).field == "dealer.cards"


def test_mini_round_has_exactly_one_seat():
    req = request(MINI, "TH 8C", seat(1, "10.00", [hand("TS 9H")]), seat(2, "10.00", [hand("TD 9D")]))
    assert _error(req).field == "seats"


def test_seat_outside_the_table():
    assert _error(request(UNLIMITED, "TH 8C", seat(8, "10.00", [hand("TS 9H")]))).field == "seats[0].seat"


def test_same_seat_twice():
    req = request(UNLIMITED, "TH 8C", seat(1, "10.00", [hand("TS 9H")]), seat(1, "10.00", [hand("TD 9D")]))
    assert _error(req).field == "seats[1].seat"


def test_bad_follow_split_preset():
    req = request(UNLIMITED, "TH 8C", seat(1, "10.00", [hand("TS 9H")],
                                            behind=[{"wagers": {"main": "5.00"}, "follow_split": "second"}]))
    assert _error(req).field == "seats[0].behind[0].follow_split"


def test_doubled_must_be_a_boolean():
    req = request(UNLIMITED, "TH 8C", seat(1, "10.00", [{"cards": ["TS", "9H"], "doubled": "yes"}]))
    assert _error(req).field == "seats[0].hands[0].doubled"


def test_unknown_rule_parameter():
    assert _error(request(UNLIMITED, "TH 8C", seat(1, "10.00", [hand("TS 9H")]), rules={"decks": 0})).field == "decks"


def test_rules_override_changes_the_dealer_rule():
    req = request(UNLIMITED, "AH 6C 2S", seat(1, "10.00", [hand("TS 8H")]), rules={"dealer_hits_soft_17": True})
    assert verify_round(req)["violations"] == []
