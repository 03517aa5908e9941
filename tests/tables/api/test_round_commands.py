"""The live round over the tablet API: each command, the interlock, permissions, bad payloads."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tables.models import AuditEvent, Decision, Round, RoundCard, RoundState, SettlementLine
from tests.factories import UserFactory
from tests.tables.api.conftest import client_for

pytestmark = pytest.mark.django_db

TWO_SEATS = {
    "seats": [
        {"seat": 3, "wagers": {"main": "10.00", "perfect-pairs": "5.00"},
         "behind": [{"wagers": {"main": "5.00"}, "double_along": True, "follow_split": "both"}]},
        {"seat": 5, "wagers": {"main": "10.00"}},
    ]
}  # fmt: skip
# Dealt in order: seat 3, seat 5, dealer up, seat 3, seat 5, dealer hole.
INITIAL = ["8S", "7D", "6H", "8H", "TD", "TC"]
DUE = {"3": {"main": "20.00", "behind": "10.00", "perfect-pairs": "30.00"}, "5": {"main": "10.00"}}


def ok(response: Any, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.content
    return response.json()


def open_round(api: APIClient, table: Any, setup: dict[str, Any] = TWO_SEATS) -> dict[str, Any]:
    return ok(api.post(f"/api/tables/{table.pk}/rounds/", setup, format="json"), 201)


def card(api: APIClient, rid: int, code: str, **extra: Any) -> Any:
    return api.post(f"/api/rounds/{rid}/cards/", {"code": code, **extra}, format="json")


def decide(api: APIClient, rid: int, action: str, **extra: Any) -> Any:
    return api.post(f"/api/rounds/{rid}/decisions/", {"action": action, **extra}, format="json")


def play_split_round(api: APIClient, table: Any) -> dict[str, Any]:
    """Seat 3 splits eights (21 and 17), seat 5 stands on 17, the dealer's 6-T draws a 9 and busts."""
    rid = open_round(api, table)["id"]
    for code in INITIAL:
        ok(card(api, rid, code))
    ok(decide(api, rid, "split"))
    ok(card(api, rid, "3D"))  # the first split hand's second card
    ok(decide(api, rid, "hit", card="QC"))
    ok(decide(api, rid, "stand"))
    ok(card(api, rid, "9C"))  # the second split hand's second card
    ok(decide(api, rid, "stand"))
    ok(decide(api, rid, "stand"))  # seat 5 on 17
    body = ok(card(api, rid, "9S"))  # the dealer must hit 16
    assert body["next"]["needs"] == "settle"
    return body


def test_a_dealer_plays_a_blackjack_round_with_a_split_a_bet_behind_and_a_perfect_pairs_win(bj_table, dealer_api):
    rid = play_split_round(dealer_api, bj_table)["id"]
    body = ok(dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    assert body["state"] == "settled"
    assert body["due"] == DUE
    bets = {(ln["seat"], ln["bet"], ln["result"]) for ln in body["settlement"]}
    assert (3, "perfect-pairs", "win") in bets or any(
        ln["bet"] == "perfect-pairs" and ln["net"] == "30.00" for ln in body["settlement"]
    )
    body = ok(dealer_api.post(f"/api/rounds/{rid}/paid/", {"paid": DUE}, format="json"))
    assert body["state"] == "closed" and body["discrepancies"] == []
    actions = list(AuditEvent.objects.filter(round_id=rid).values_list("action", flat=True))
    assert "round.settle" in actions and "round.paid" in actions


def test_every_response_carries_what_comes_next(bj_table, dealer_api):
    body = open_round(dealer_api, bj_table)
    assert body["next"] == {**body["next"], "needs": "card", "actor": "seat:3"}
    body = ok(card(dealer_api, body["id"], "8S"))
    assert body["next"]["actor"] == "seat:5"
    assert body["version"] == 2


def test_a_card_dealt_while_the_player_decides_is_a_hit(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table, {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]})["id"]
    for code in ["5S", "6H", "4D", "TC"]:
        ok(card(dealer_api, rid, code))
    body = ok(card(dealer_api, rid, "2C"))  # the player's hit
    assert [d["action"] for d in body["decisions"]] == ["hit"]
    assert body["cards"][-1]["to"] == "seat:1"


def test_a_paid_mismatch_keeps_the_round_open_until_a_pit_boss_approves(bj_table, dealer_api, pit_api):
    rid = play_split_round(dealer_api, bj_table)["id"]
    ok(dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    short = {**DUE, "3": {**DUE["3"], "perfect-pairs": "25.00"}}
    body = ok(dealer_api.post(f"/api/rounds/{rid}/paid/", {"paid": short}, format="json"))
    assert body["state"] == "mismatch"
    (d,) = body["discrepancies"]
    assert d["bet"] == "perfect-pairs" and d["due"] == "30.00" and d["paid"] == "25.00"
    # The dealer cannot open the next round while this one is open... nor approve it.
    assert dealer_api.post(f"/api/rounds/{rid}/approve/", {"reason": "ok"}, format="json").status_code == 403
    assert pit_api.post(f"/api/rounds/{rid}/approve/", {}, format="json").json()["field"] == "reason"
    body = ok(pit_api.post(f"/api/rounds/{rid}/approve/", {"reason": "player accepted 25, chip shortage"},
                           format="json"))  # fmt: skip
    assert body["state"] == "closed"
    assert body["approvals"][0]["kind"] == "mismatch"


def test_paying_the_difference_closes_a_mismatch(bj_table, dealer_api):
    rid = play_split_round(dealer_api, bj_table)["id"]
    ok(dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    ok(dealer_api.post(f"/api/rounds/{rid}/paid/", {"paid": {"3": {"main": "20.00"}}}, format="json"))
    body = ok(dealer_api.post(f"/api/rounds/{rid}/paid/", {"paid": DUE}, format="json"))
    assert body["state"] == "closed"
    assert sum(p["superseded"] for p in body["payments"]) == 1


def test_a_payout_above_the_limit_needs_approval_before_paying(bj_table, dealer_api, pit_api, settings):
    settings.PAYOUT_APPROVAL_AMOUNT = "25.00"
    rid = play_split_round(dealer_api, bj_table)["id"]
    body = ok(dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    assert body["approval_required"] is True
    refused = dealer_api.post(f"/api/rounds/{rid}/paid/", {"paid": DUE}, format="json")
    assert refused.status_code == 409 and "approval" in refused.json()["error"]
    ok(pit_api.post(f"/api/rounds/{rid}/approve/", {"reason": "checked the cards on camera"}, format="json"))
    assert ok(dealer_api.post(f"/api/rounds/{rid}/paid/", {"paid": DUE}, format="json"))["state"] == "closed"


def test_settling_a_round_that_is_not_over_is_a_conflict(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    response = dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "conflict"


def test_a_decision_the_rules_forbid_is_refused_naming_the_rule(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table, {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]})["id"]
    for code in ["5S", "6H", "4D", "TC"]:
        ok(card(dealer_api, rid, code))
    response = decide(dealer_api, rid, "split")
    assert response.status_code == 422
    assert response.json()["rule"].startswith("blackjack.")
    assert not Decision.objects.filter(round_id=rid).exists()


def test_a_joker_is_an_impossible_card_for_a_blackjack_shoe(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    response = card(dealer_api, rid, "JK")
    assert response.status_code == 400 and response.json()["field"] == "code"
    assert not RoundCard.objects.filter(round_id=rid).exists()


def test_a_stale_version_is_a_conflict(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    ok(card(dealer_api, rid, "8S", version=1))
    response = card(dealer_api, rid, "7D", version=1)
    assert response.status_code == 409
    assert RoundCard.objects.filter(round_id=rid).count() == 1


def test_pause_resume_and_cancel_with_refund(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    ok(card(dealer_api, rid, "8S"))
    assert ok(dealer_api.post(f"/api/rounds/{rid}/pause/", {"reason": "player left"}, format="json"))["state"] == "paused"
    assert card(dealer_api, rid, "7D").status_code == 409
    assert ok(dealer_api.post(f"/api/rounds/{rid}/resume/", {}, format="json"))["next"]["actor"] == "seat:5"
    body = ok(dealer_api.post(f"/api/rounds/{rid}/cancel/", {"reason": "card dropped on the floor"}, format="json"))
    assert body["state"] == "cancelled"
    assert {ln["result"] for ln in body["settlement"]} == {"refund"}
    assert SettlementLine.objects.filter(round_id=rid).count() == 4  # main, perfect pairs, behind, seat 5


def test_a_pit_boss_corrects_a_card_after_settlement_and_the_round_is_resettled(bj_table, dealer_api, pit_api):
    rid = play_split_round(dealer_api, bj_table)["id"]
    ok(dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    ok(dealer_api.post(f"/api/rounds/{rid}/paid/", {"paid": DUE}, format="json"))
    seq = RoundCard.objects.get(round_id=rid, code="9S").seq  # the dealer's bust card
    assert dealer_api.post(f"/api/rounds/{rid}/cards/{seq}/correct/", {"code": "5S", "reason": "misread"},
                           format="json").status_code == 403  # fmt: skip
    body = ok(pit_api.post(f"/api/rounds/{rid}/cards/{seq}/correct/", {"code": "5S", "reason": "camera shows 5S"},
                           format="json"))  # fmt: skip
    # Dealer 21 now: the paid round is a mismatch until settled anew.
    assert body["state"] == "mismatch"
    corrected = [c for c in body["cards"] if c["seq"] == seq][0]
    assert corrected["code"] == "5S" and corrected["corrected_from"] == "9S" and corrected["corrected_by"] == "pitboss"


def test_game_recall_lists_the_last_ten_rounds_newest_first(bj_table, dealer_api, auditor):
    for _ in range(11):
        rid = open_round(dealer_api, bj_table, {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]})["id"]
        ok(dealer_api.post(f"/api/rounds/{rid}/cancel/", {"reason": "test"}, format="json"))
    body = ok(client_for(auditor).get(f"/api/tables/{bj_table.pk}/recall/"))
    assert len(body) == 10
    assert [r["number"] for r in body] == list(range(11, 1, -1))


# ---------------------------------------------------------------------------------------------
# Permissions


def test_a_dealer_cannot_act_at_another_table(bj_table, demo_casino, dealer_api):
    other = demo_casino.tables["mini-blackjack"]
    colleague = UserFactory(username="colleague")
    from django.contrib.auth.models import Group

    colleague.groups.add(Group.objects.get(name="Dealer"))
    from tables import services

    services.table_open(table=other, actor=colleague)
    services.shoe_shuffle(table=other, actor=colleague)
    response = dealer_api.post(f"/api/tables/{other.pk}/rounds/", {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]},
                               format="json")  # fmt: skip
    assert response.status_code == 403
    rid = open_round(client_for(colleague), other, {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]})["id"]
    assert card(dealer_api, rid, "AS").status_code == 403
    assert dealer_api.post(f"/api/tables/{other.pk}/open/", {}, format="json").status_code == 409


def test_an_auditor_reads_but_cannot_write(bj_table, dealer_api, auditor):
    rid = open_round(dealer_api, bj_table)["id"]
    api = client_for(auditor)
    assert api.get(f"/api/rounds/{rid}/").status_code == 200
    for url, body in [
        (f"/api/rounds/{rid}/cards/", {"code": "8S"}),
        (f"/api/rounds/{rid}/cancel/", {"reason": "x"}),
        (f"/api/tables/{bj_table.pk}/shuffle/", {}),
        (f"/api/tables/{bj_table.pk}/rounds/", TWO_SEATS),
    ]:
        assert api.post(url, body, format="json").status_code == 403, url
    assert not RoundCard.objects.filter(round_id=rid).exists()


def test_an_outsider_reads_nothing(bj_table, outsider):
    assert client_for(outsider).get(f"/api/tables/{bj_table.pk}/").status_code == 403


def test_anonymous_requests_are_refused(bj_table):
    assert APIClient().get("/api/tables/").status_code == 401


# ---------------------------------------------------------------------------------------------
# Bad payloads: 400 naming the field, never 500


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "seats"),
        ({"seats": []}, "seats"),
        ({"seats": [{"seat": 1, "wagers": {"main": "abc"}}]}, "seats[0].wagers.main"),
        ({"seats": [{"seat": 1, "wagers": {"main": "1.001"}}]}, "seats[0].wagers.main"),
        ({"seats": [{"seat": 1, "wagers": {"main": "2000.00"}}]}, "seats[0].wagers.main"),
        ({"seats": [{"seat": 1, "wagers": {"main": "10.00", "lucky-ladies": "5"}}]}, "seats[0].wagers.lucky-ladies"),
        ({"seats": [{"seat": "one", "wagers": {"main": "10.00"}}]}, "seats[0].seat"),
        ({"seats": [{"seat": 1, "wagers": {}}]}, "seats[0].wagers"),
        ({"seats": "all"}, "seats"),
    ],
)
def test_a_bad_round_payload_is_a_400_naming_the_field(bj_table, dealer_api, body, field):
    response = dealer_api.post(f"/api/tables/{bj_table.pk}/rounds/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field
    assert not Round.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [({}, "code"), ({"code": "ZZ"}, "code"), ({"code": "9S", "version": "x"}, "version"), ({"code": ["9S"]}, "code")],
)
def test_a_bad_card_payload_is_a_400_naming_the_field(bj_table, dealer_api, body, field):
    rid = open_round(dealer_api, bj_table)["id"]
    response = dealer_api.post(f"/api/rounds/{rid}/cards/", body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_bad_paid_amounts_name_the_field(bj_table, dealer_api):
    rid = play_split_round(dealer_api, bj_table)["id"]
    ok(dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    response = dealer_api.post(f"/api/rounds/{rid}/paid/", {"paid": {"3": {"main": "-1"}}}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "paid.3.main"
    response = dealer_api.post(f"/api/rounds/{rid}/paid/", {"paid": {"4": {"main": "10.00"}}}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "paid.4"
    assert Round.objects.get(pk=rid).state == RoundState.SETTLED


@pytest.mark.parametrize(
    "payload",
    [b"", b"not an image at all", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, b"\xff\xd8\xff\xe0" + b"garbage" * 20],
)
def test_a_corrupt_image_is_a_400_naming_the_image(bj_table, dealer_api, payload):
    from django.core.files.uploadedfile import SimpleUploadedFile

    rid = open_round(dealer_api, bj_table)["id"]
    upload = SimpleUploadedFile("scan.png", payload, content_type="image/png")
    response = dealer_api.post(f"/api/rounds/{rid}/scans/", {"image": upload}, format="multipart")
    assert response.status_code == 400, response.content
    assert response.json()["field"] == "image"
    assert not RoundCard.objects.filter(round_id=rid).exists()


def test_a_scan_without_a_file_is_a_400(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    response = dealer_api.post(f"/api/rounds/{rid}/scans/", {}, format="multipart")
    assert response.status_code == 400 and response.json()["field"] == "image"


def test_an_unknown_round_is_a_404(dealer_api, bj_table):
    assert dealer_api.post("/api/rounds/999999/cards/", {"code": "9S"}, format="json").status_code == 404


def test_a_pit_boss_hands_a_held_table_to_another_dealer(bj_table, dealer, pit_api):
    from django.contrib.auth.models import Group

    from tables.access import DEALER
    from tables.models import TableSession

    relief = UserFactory(username="relief")
    relief.groups.add(Group.objects.get(name=DEALER))
    body = ok(pit_api.post(f"/api/tables/{bj_table.pk}/open/", {"dealer": "relief"}, format="json"))
    assert body["dealer"] == "relief"
    assert TableSession.objects.get(table=bj_table, closed_at__isnull=True).dealer == relief
    refused = client_for(dealer).post(f"/api/tables/{bj_table.pk}/open/", {}, format="json")
    assert refused.status_code == 409  # the relieved dealer no longer holds it and cannot take it back alone
    unknown = pit_api.post(f"/api/tables/{bj_table.pk}/open/", {"dealer": "nobody"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["field"] == "dealer"
    junk = pit_api.post(f"/api/tables/{bj_table.pk}/open/", {"dealer": "relief", "x": 1}, format="json")
    assert junk.status_code == 400
