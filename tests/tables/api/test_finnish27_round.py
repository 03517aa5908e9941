"""A Finnish 27 round over the tablet API: forced plays, the 999× bonus behind pit-boss approval."""

from __future__ import annotations

import pytest

from tables.models import Decision, RoundState
from tests.tables.api.test_round_commands import card, decide, ok

pytestmark = pytest.mark.django_db

ONE_SEAT = {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]}


def test_the_player_must_hit_9_9_against_a_dealer_hard_18_and_27_wins_the_999_bonus(f27_table, dealer_api, pit_api):
    rid = ok(dealer_api.post(f"/api/tables/{f27_table.pk}/rounds/", ONE_SEAT, format="json"), 201)["id"]
    for code in ["9S", "9C", "9H", "9D"]:  # player, dealer, player, dealer
        body = ok(card(dealer_api, rid, code))
    assert body["next"]["needs"] == "decision"
    assert body["next"]["forced"] == "hit" and body["next"]["allowed"] == ["hit"]
    refused = decide(dealer_api, rid, "stand")
    assert refused.status_code == 422 and refused.json()["rule"].startswith("finnish27.")
    ok(decide(dealer_api, rid, "hit"))
    body = ok(card(dealer_api, rid, "9D"))
    assert body["next"]["forced"] == "stand"  # 27: the player stands...
    body = ok(decide(dealer_api, rid, "stand"))
    assert body["next"]["needs"] == "settle"  # ...and wins at once: the dealer draws nothing
    body = ok(dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    assert body["due"] == {"1": {"main": "10.00", "bonus": "9990.00"}}
    assert body["approval_required"] is True  # 999 table minimums
    paid = {"paid": {"1": {"main": "10.00", "bonus": "9990.00"}}}
    assert dealer_api.post(f"/api/rounds/{rid}/paid/", paid, format="json").status_code == 409
    ok(pit_api.post(f"/api/rounds/{rid}/approve/", {"reason": "9-9-9 verified on camera"}, format="json"))
    body = ok(dealer_api.post(f"/api/rounds/{rid}/paid/", paid, format="json"))
    assert body["state"] == RoundState.CLOSED
    assert Decision.objects.filter(round_id=rid, action="hit", forced=True).count() == 1


def test_a_card_scanned_while_a_hit_is_forced_is_the_hit(f27_table, dealer_api):
    rid = ok(dealer_api.post(f"/api/tables/{f27_table.pk}/rounds/", ONE_SEAT, format="json"), 201)["id"]
    for code in ["9S", "9C", "9H", "9D", "9D"]:
        body = ok(card(dealer_api, rid, code))
    assert [d["action"] for d in body["decisions"]] == ["hit"]
    assert body["cards"][-1]["to"] == "player"
    assert body["next"]["forced"] == "stand"


def test_finnish_27_takes_one_seat_and_the_game_wager_only(f27_table, dealer_api):
    two = {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}, {"seat": 2, "wagers": {"main": "10.00"}}]}
    response = dealer_api.post(f"/api/tables/{f27_table.pk}/rounds/", two, format="json")
    assert response.status_code == 400 and response.json()["field"] == "seats"
    side = {"seats": [{"seat": 1, "wagers": {"main": "10.00", "perfect-pairs": "5.00"}}]}
    response = dealer_api.post(f"/api/tables/{f27_table.pk}/rounds/", side, format="json")
    assert response.status_code == 400 and response.json()["field"] == "seats[0].wagers.perfect-pairs"


def test_a_joker_is_a_possible_card_in_finnish_27(f27_table, dealer_api):
    rid = ok(dealer_api.post(f"/api/tables/{f27_table.pk}/rounds/", ONE_SEAT, format="json"), 201)["id"]
    body = ok(card(dealer_api, rid, "JK"))
    assert body["cards"][0]["code"] == "JK"
