"""Bluffjack games over the tablet API: stacks carried from hand to hand, the button passing left,
players without chips eliminated, the game won when one player holds every chip."""

from __future__ import annotations

from typing import Any

import pytest

from tables import services
from tables.models import AuditEvent, BluffjackGame, ShuffleEvent
from tests.tables.api.conftest import client_for
from tests.tables.api.test_round_commands import card, decide, ok

pytestmark = pytest.mark.django_db

PLAYERS = {"seats": [{"seat": 1, "player": "Ann", "stack": 20, "dealer": True}, {"seat": 2, "player": "Bob", "stack": 20}]}


@pytest.fixture
def bluff_table(demo_casino: Any, dealer: Any) -> Any:
    table = demo_casino.tables["bluffjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer)
    return table


def first_hand(api: Any, table: Any) -> dict[str, Any]:
    """Ann deals; Bob's forced raise, Ann re-raises by 2, Bob folds: Ann takes the pot of 6."""
    body = ok(api.post(f"/api/tables/{table.pk}/rounds/", PLAYERS, format="json"), 201)
    rid = body["id"]
    for code in ["TS", "9H", "7D", "8C"]:
        ok(card(api, rid, code))
    ok(decide(api, rid, "raise", amount="1"))
    ok(decide(api, rid, "raise", amount="2"))
    ok(decide(api, rid, "fold"))
    return ok(api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))


def game_of(api: Any, table: Any) -> dict[str, Any]:
    return ok(api.get(f"/api/tables/{table.pk}/bluffjack/games/"))[0]


def test_the_next_hand_starts_from_the_stacks_the_last_one_left_and_the_button_passes_left(bluff_table, dealer_api):
    first_hand(dealer_api, bluff_table)
    game = game_of(dealer_api, bluff_table)
    assert game["stacks"] == {"Ann": 22, "Bob": 18} and game["button"] == "Bob" and game["hands_played"] == 1
    assert game["starting_stacks"] == {"Ann": 20, "Bob": 20}
    shuffles = ShuffleEvent.objects.filter(table=bluff_table).count()
    hand = ok(dealer_api.post(f"/api/bluffjack/games/{game['id']}/hands/", {}, format="json"), 201)
    assert {s["player"]: s["stack"] for s in hand["seats"]} == {"Ann": 22, "Bob": 18}
    assert [s["player"] for s in hand["seats"] if s.get("dealer")] == ["Bob"]
    assert hand["next"]["extra"]["pot"] == 2  # antes from the carried stacks
    assert ShuffleEvent.objects.filter(table=bluff_table).count() == shuffles + 1  # reshuffled before every hand
    for code in ["TS", "9H", "7D", "8C"]:
        body = ok(card(dealer_api, hand["id"], code))
    assert body["next"]["actor"] == "player:Ann" and body["next"]["forced"] == "raise"  # left of Bob now
    assert ok(dealer_api.get(f"/api/bluffjack/games/{game['id']}/"))["current_hand"] == hand["id"]


def test_a_player_without_chips_is_eliminated_and_the_last_one_holding_chips_wins(bluff_table, dealer_api, dealer):
    setup = {"seats": [{"seat": 1, "player": "Ann", "stack": 2, "dealer": True}, {"seat": 2, "player": "Bob", "stack": 2}]}
    rid = ok(dealer_api.post(f"/api/tables/{bluff_table.pk}/rounds/", setup, format="json"), 201)["id"]
    for code in ["TS", "9H", "9D", "8C"]:  # Bob 19, Ann 17
        ok(card(dealer_api, rid, code))
    ok(decide(dealer_api, rid, "raise", amount="1"))  # Bob's forced raise puts him all-in
    body = ok(decide(dealer_api, rid, "call"))  # Ann calls all-in
    while body["next"]["needs"] == "decision":
        body = ok(decide(dealer_api, rid, "stand"))
    assert body["next"]["needs"] == "settle", body["next"]
    ok(dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    game = game_of(dealer_api, bluff_table)
    assert game["state"] == "over" and game["winner"] == "Bob" and game["stacks"] == {"Ann": 0, "Bob": 4}
    assert [p["eliminated"] for p in game["players"]] == [True, False]
    r = dealer_api.post(f"/api/bluffjack/games/{game['id']}/hands/", {}, format="json")
    assert r.status_code == 409 and "Bob holds every chip" in r.json()["error"]
    # The table is free for a new game, from the stacks the dealer enters.
    ok(dealer_api.post(f"/api/rounds/{rid}/paid/", {"paid": {"2": {"pot": "2.00"}}}, format="json"))
    services.shoe_shuffle(table=bluff_table, actor=dealer)
    ok(dealer_api.post(f"/api/tables/{bluff_table.pk}/rounds/", PLAYERS, format="json"), 201)
    assert BluffjackGame.objects.filter(table=bluff_table).count() == 2


def test_opening_with_entered_stacks_while_a_game_plays_is_a_conflict(bluff_table, dealer_api, dealer):
    first_hand(dealer_api, bluff_table)
    rid = game_of(dealer_api, bluff_table)["current_hand"]
    ok(dealer_api.post(f"/api/rounds/{rid}/paid/", {"paid": {"1": {"pot": "2.00"}}}, format="json"))
    services.shoe_shuffle(table=bluff_table, actor=dealer)
    r = dealer_api.post(f"/api/tables/{bluff_table.pk}/rounds/", PLAYERS, format="json")
    assert r.status_code == 409 and "next hand" in r.json()["error"]


def test_a_pit_boss_correction_re_settles_the_hand_and_re_carries_the_stacks(bluff_table, dealer_api, pit_api):
    setup = {"seats": [{"seat": 1, "player": "Ann", "stack": 2, "dealer": True}, {"seat": 2, "player": "Bob", "stack": 2}]}
    rid = ok(dealer_api.post(f"/api/tables/{bluff_table.pk}/rounds/", setup, format="json"), 201)["id"]
    for code in ["TS", "9H", "9D", "8C"]:
        ok(card(dealer_api, rid, code))
    ok(decide(dealer_api, rid, "raise", amount="1"))
    body = ok(decide(dealer_api, rid, "call"))
    while body["next"]["needs"] == "decision":
        body = ok(decide(dealer_api, rid, "stand"))
    ok(dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    assert game_of(dealer_api, bluff_table)["winner"] == "Bob"
    # Bob's face-up card was a Six, not a Nine: Ann's 17 beats Bob's 16 and the game goes on.
    body = ok(pit_api.post(f"/api/rounds/{rid}/cards/3/correct/", {"code": "6D", "reason": "misread on camera"},
                           format="json"))  # fmt: skip
    assert {(ln["seat"], ln["result"]) for ln in body["settlement"]} >= {(1, "win")}
    game = game_of(dealer_api, bluff_table)
    assert game["state"] == "over" and game["winner"] == "Ann" and game["stacks"] == {"Ann": 4, "Bob": 0}
    assert AuditEvent.objects.filter(action="round.card.correct", round_id=rid).exists()
    assert AuditEvent.objects.filter(action="bluffjack.carry", round_id=rid).count() == 2


def test_a_hand_cannot_be_re_settled_once_the_next_was_played_from_its_stacks(bluff_table, dealer_api, pit_api):
    first = first_hand(dealer_api, bluff_table)
    game = game_of(dealer_api, bluff_table)
    ok(dealer_api.post(f"/api/bluffjack/games/{game['id']}/hands/", {}, format="json"), 201)
    ok(dealer_api.post(f"/api/rounds/{first['id']}/paid/", {"paid": {"1": {"pot": "2.00"}}}, format="json"))
    r = pit_api.post(f"/api/rounds/{first['id']}/cards/1/correct/", {"code": "QS", "reason": "misread"}, format="json")
    assert r.status_code == 409 and "later hand" in r.json()["error"]
    assert game_of(dealer_api, bluff_table)["stacks"] == {"Ann": 22, "Bob": 18}


def test_next_hand_commands_permissions_retries_and_bad_payloads(bluff_table, dealer_api, auditor, pit_api):
    first_hand(dealer_api, bluff_table)
    gid = game_of(dealer_api, bluff_table)["id"]
    url = f"/api/bluffjack/games/{gid}/hands/"
    assert client_for(auditor).post(url, {}, format="json").status_code == 403
    assert client_for(auditor).get(f"/api/bluffjack/games/{gid}/").status_code == 200
    r = dealer_api.post(url, {"version": "x"}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "version"
    assert dealer_api.post(url, {"version": 999}, format="json").status_code == 409
    a = dealer_api.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="next-1")
    b = dealer_api.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="next-1")
    assert a.status_code == b.status_code == 201 and a.json()["id"] == b.json()["id"]
    assert BluffjackGame.objects.get(pk=gid).hands.count() == 2
    r = pit_api.post(f"/api/bluffjack/games/{gid}/end/", {}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "reason"
    r = pit_api.post(f"/api/bluffjack/games/{gid}/end/", {"reason": "players left"}, format="json")
    assert r.status_code == 409  # a hand is in play


def test_the_trail_says_a_hand_opened_with_the_players_stacks_and_what_it_carried(bluff_table, dealer_api):
    # The trail once read "opened the round with seat 1: ; seat 2: " and "bluffjack carry".
    from tables.models import Round
    from tables.selectors.trail import round_trail_words

    first_hand(dealer_api, bluff_table)
    words = [w["text"] for w in round_trail_words(Round.objects.filter(table=bluff_table).latest("number"))]
    assert words[0] == "opened the round with seat 1 (Ann): stack 20 chips; seat 2 (Bob): stack 20 chips"
    assert "Bluffjack game 1: stacks after the hand Ann 22, Bob 18 chips; carried to the next pot 0" in words


def test_no_shuffle_is_ever_due_at_a_game_dealt_from_a_fresh_shoe_every_hand(bluff_table, dealer_api):
    # The walk-through: the table picker said "shuffle due" on Bluffjack once a game had ended; the next
    # hand is dealt from a fresh shoe whatever the last one left.
    from tables.selectors.rounds import current_shoe, engine_shoe

    first_hand(dealer_api, bluff_table)
    assert engine_shoe(current_shoe(bluff_table)).cards_dealt == 4
    shoe = ok(dealer_api.get(f"/api/tables/{bluff_table.pk}/"))["shoe"]
    assert shoe["shuffle_due"] is False
    assert "shuffle due" not in dealer_api.get("/tablet/").content.decode()
