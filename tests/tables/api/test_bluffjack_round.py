"""A Bluffjack hand over the tablet API: antes, the forced raise, a raise and a fold, the pot resolved."""

from __future__ import annotations

import pytest

from tables import services
from tables.models import AuditEvent, ShuffleEvent
from tests.tables.api.test_round_commands import card, decide, ok

pytestmark = pytest.mark.django_db

PLAYERS = {"seats": [{"seat": 1, "player": "Ann", "stack": 20, "dealer": True}, {"seat": 2, "player": "Bob", "stack": 20}]}


@pytest.fixture
def bluff_table(demo_casino, dealer):
    table = demo_casino.tables["bluffjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer)
    return table


def test_a_bluffjack_hand_with_the_forced_raise_a_raise_and_a_fold(bluff_table, dealer_api):
    body = ok(dealer_api.post(f"/api/tables/{bluff_table.pk}/rounds/", PLAYERS, format="json"), 201)
    rid = body["id"]
    assert body["next"]["extra"]["pot"] == 2  # both antes in
    for code in ["TS", "9H", "7D", "8C"]:
        body = ok(card(dealer_api, rid, code))
    assert body["next"]["actor"] == "player:Bob" and body["next"]["forced"] == "raise"
    refused = decide(dealer_api, rid, "call")
    assert refused.status_code == 422 and refused.json()["rule"].startswith("bluffjack.")
    ok(decide(dealer_api, rid, "raise", amount="1"))
    body = ok(decide(dealer_api, rid, "raise", amount="2"))  # Ann re-raises
    assert body["next"]["extra"]["pot"] == 6
    body = ok(decide(dealer_api, rid, "fold"))
    assert body["next"]["needs"] == "settle"
    body = ok(dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    nets = {(ln["seat"], ln["result"]): ln["net"] for ln in body["settlement"]}
    assert nets[(2, "fold")] == "-2.00"
    assert sum(float(n) for n in nets.values()) == 0  # a pot game: the chips only change hands


def test_a_fractional_raise_is_a_400(bluff_table, dealer_api):
    rid = ok(dealer_api.post(f"/api/tables/{bluff_table.pk}/rounds/", PLAYERS, format="json"), 201)["id"]
    for code in ["TS", "9H", "7D", "8C"]:
        ok(card(dealer_api, rid, code))
    response = decide(dealer_api, rid, "raise", amount="1.50")
    assert response.status_code == 400 and response.json()["field"] == "amount"


def test_every_bluffjack_hand_is_dealt_from_a_fresh_shoe_whose_shuffle_is_recorded_without_asking(
        demo_casino, dealer, dealer_api):
    """Every hand is dealt from a fresh shoe (the engine's rule, the tablet's "a fresh shoe every hand"): the
    shuffle is implied, so opening a hand records it as a shuffle (the players told, an audit event, a
    ShuffleEvent the shuffle audit sees) instead of refusing the hand until the dealer shuffles."""
    table = demo_casino.tables["bluffjack"]
    services.table_open(table=table, actor=dealer)  # no shuffle by hand, not even before the first hand
    first = ok(dealer_api.post(f"/api/tables/{table.pk}/rounds/", PLAYERS, format="json"), 201)
    ok(card(dealer_api, first["id"], "TS"))
    ok(dealer_api.post(f"/api/rounds/{first['id']}/cancel/", {"reason": "misdeal"}, format="json"))
    game = ok(dealer_api.get(f"/api/tables/{table.pk}/bluffjack/games/"))[0]
    second = ok(dealer_api.post(f"/api/bluffjack/games/{game['id']}/hands/", {}, format="json"), 201)
    assert second["shoe"] != first["shoe"]
    shuffles = list(ShuffleEvent.objects.filter(table=table).order_by("id"))
    assert [s.shoe.number for s in shuffles] == [first["shoe"], second["shoe"]]
    assert all(s.players_notified and "fresh shoe" in s.reason for s in shuffles)
    assert AuditEvent.objects.filter(action="shoe.shuffle", table=table).count() == 2
    # A hand cancelled before any card was dealt leaves its shoe untouched: the next hand is dealt from it.
    ok(dealer_api.post(f"/api/rounds/{second['id']}/cancel/", {"reason": "players left"}, format="json"))
    third = ok(dealer_api.post(f"/api/bluffjack/games/{game['id']}/hands/", {}, format="json"), 201)
    assert third["shoe"] == second["shoe"] and ShuffleEvent.objects.filter(table=table).count() == 2
