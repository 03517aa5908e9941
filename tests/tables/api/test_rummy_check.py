"""Contract Rummy dealer assist: a laid-down contract checked against the deal, the hand left scored."""

from __future__ import annotations

import pytest

from tests.tables.api.test_round_commands import ok

pytestmark = pytest.mark.django_db


def url(demo_casino):
    return f"/api/tables/{demo_casino.tables['contract-rummy'].pk}/rummy/check/"


def test_two_sets_meet_the_first_deal_and_the_hand_is_scored(demo_casino, dealer_api):
    body = ok(dealer_api.post(url(demo_casino), {"deal": 1, "cards": ["7S", "7H", "7D", "KC", "KD", "JK"],
                                                 "hand": ["AS", "KD", "3C"]}, format="json"))  # fmt: skip
    assert body["met"] is True and len(body["melds"]) == 2
    assert body["hand_points"] == 15 + 10 + 3


def test_a_sequence_that_is_too_short_does_not_meet_the_contract(demo_casino, dealer_api):
    body = ok(dealer_api.post(url(demo_casino), {"deal": 1, "melds": [["7S", "7H", "7D"], ["8C", "9C", "TC"]]},
                              format="json"))  # fmt: skip
    assert body["met"] is False and body["rule"]


def test_a_bad_card_or_deal_is_a_400_naming_the_field(demo_casino, dealer_api):
    r = dealer_api.post(url(demo_casino), {"deal": 1, "hand": ["ZZ"]}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "hand[0]"
    r = dealer_api.post(url(demo_casino), {"deal": 0}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "deal"


def test_it_is_refused_at_a_table_of_another_game(demo_casino, dealer_api):
    r = dealer_api.post(f"/api/tables/{demo_casino.tables['finnish-27'].pk}/rummy/check/", {"deal": 1}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "table"
