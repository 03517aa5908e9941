"""An unsure read waits for the dealer's answer: the card it stands for may have been dealt, so the round
takes no further scan, card, decision, settlement or correction until the dealer confirms or picks the card
(naming the scan) or drops the scan (no card was dealt, or it is scanned again) — in every game whose cards
come through the round's scans.  A new scan once replaced the question and every later card landed one seat
off ("read 10♠ (69%); no card recorded")."""

from __future__ import annotations

from typing import Any

import pytest

from tables import services
from tables.models import AuditEvent, RoundCard
from tests.tables.api.test_round_commands import card, decide, ok
from tests.tables.api.test_scans import post_scan
from tests.tables.tablet.test_tablet_rounds import card_image, fake_recognise

pytestmark = pytest.mark.django_db

BLUFF = {"seats": [{"seat": 1, "player": "Seat 1", "stack": 20, "dealer": True},
                   {"seat": 2, "player": "Seat 2", "stack": 20}]}  # fmt: skip
ONE_SEAT = {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]}
TWO_SEATS = {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}, {"seat": 2, "wagers": {"main": "10.00"}}]}


@pytest.fixture(autouse=True)
def _recogniser(monkeypatch):
    monkeypatch.setattr(services.scans, "recognise", fake_recognise)


@pytest.fixture
def bluff_table(demo_casino, dealer):
    table = demo_casino.tables["bluffjack"]
    services.table_open(table=table, actor=dealer)
    return table


def _open(api: Any, table: Any, setup: dict[str, Any]) -> int:
    return ok(api.post(f"/api/tables/{table.pk}/rounds/", setup, format="json"), 201)["id"]


# (table fixture, setup, the cards dealt before the unsure one, whose card the unsure one is)
GAMES = [
    ("bj_table", TWO_SEATS, ["8S"], "seat 2's card"),
    ("mini_table", ONE_SEAT, [], "seat 1's card"),
    ("f27_table", ONE_SEAT, [], "seat 1's card"),
    ("bluff_table", BLUFF, [], "seat 2's card"),  # the deal starts left of the dealer (Seat 1)
]


@pytest.mark.parametrize("fixture, setup, before, whose", GAMES)
def test_a_new_scan_is_refused_while_an_unsure_read_waits_naming_the_question(
        fixture, setup, before, whose, request, dealer_api):
    rid = _open(dealer_api, request.getfixturevalue(fixture), setup)
    for code in before:
        ok(card(dealer_api, rid, code))
    unsure = ok(post_scan(dealer_api, rid, card_image("TS", 69)))
    assert unsure["needs_confirmation"] and unsure["recorded"] == []
    response = post_scan(dealer_api, rid, card_image("9C", 97))
    assert response.status_code == 409, response.content
    assert response.json()["error"] == f"Answer the unsure read of {whose} first: 10♠?"
    doc = ok(dealer_api.get(f"/api/rounds/{rid}/"))
    assert doc["pending_scan"]["scan"] == unsure["scan"]  # the question stays
    assert doc["pending_scan"]["question"] == f"Answer the unsure read of {whose} first: 10♠?"
    assert [c["code"] for c in doc["cards"]] == before  # the 9♣ was not taken for the 10♠'s place
    # The dealer answers: the card confirmed is the scan's, and the round takes cards again.
    body = ok(card(dealer_api, rid, "TS", scan=unsure["scan"]))
    assert body["pending_scan"] is None and [c["code"] for c in body["cards"]] == [*before, "TS"]
    assert ok(post_scan(dealer_api, rid, card_image("9C", 97)))["recorded"] == ["9C"]


def test_a_card_keyed_in_without_naming_the_waiting_scan_is_refused(bj_table, dealer_api):
    rid = _open(dealer_api, bj_table, TWO_SEATS)
    ok(card(dealer_api, rid, "8S"))
    unsure = ok(post_scan(dealer_api, rid, card_image("TS", 69)))
    response = card(dealer_api, rid, "9C")
    assert response.status_code == 409 and "Answer the unsure read of seat 2's card first" in response.json()["error"]
    assert RoundCard.objects.filter(round_id=rid).count() == 1
    ok(card(dealer_api, rid, "9C", scan=unsure["scan"]))  # picked as the scan's card: the answer
    assert RoundCard.objects.get(round_id=rid, code="9C").scan_id == unsure["scan"]


def test_a_decision_or_a_correction_waits_for_the_answer_too(bj_table, dealer_api):
    rid = _open(dealer_api, bj_table, TWO_SEATS)
    for code in ["8S", "9S", "6D", "8H", "7C", "TD"]:  # seat 1 8-8, seat 2 9-7, the dealer 6 and the hole card
        ok(card(dealer_api, rid, code))
    ok(post_scan(dealer_api, rid, card_image("TS", 69)))  # seat 1's hit, perhaps
    refused = decide(dealer_api, rid, "stand")
    assert refused.status_code == 409 and refused.json()["error"].startswith("Answer the unsure read of seat 1")
    refused = dealer_api.post(f"/api/rounds/{rid}/cards/1/correct/", {"code": "8D", "reason": "misread"},
                              format="json")
    assert refused.status_code == 409


def test_the_dealer_drops_an_unsure_scan_with_a_reason_and_the_round_takes_cards_again(bj_table, dealer_api):
    rid = _open(dealer_api, bj_table, TWO_SEATS)
    unsure = ok(post_scan(dealer_api, rid, card_image("TS", 40)))
    missing = dealer_api.post(f"/api/rounds/{rid}/scans/{unsure['scan']}/dismiss/", {}, format="json")
    assert missing.status_code == 400 and missing.json()["field"] == "reason"
    body = ok(dealer_api.post(f"/api/rounds/{rid}/scans/{unsure['scan']}/dismiss/",
                              {"reason": "scan the card again"}, format="json"))
    assert body["pending_scan"] is None and body["cards"] == []
    event = AuditEvent.objects.filter(round_id=rid).latest("pk")
    assert event.action == "round.scan.dismiss" and event.payload["reason"] == "scan the card again"
    again = dealer_api.post(f"/api/rounds/{rid}/scans/{unsure['scan']}/dismiss/", {"reason": "x"}, format="json")
    assert again.status_code == 409  # nothing waits any more
    assert ok(post_scan(dealer_api, rid, card_image("TS", 97)))["recorded"] == ["TS"]


def test_a_pause_leaves_the_question_standing(bj_table, dealer_api):
    rid = _open(dealer_api, bj_table, TWO_SEATS)
    unsure = ok(post_scan(dealer_api, rid, card_image("TS", 40)))
    ok(dealer_api.post(f"/api/rounds/{rid}/pause/", {"reason": "dispute"}, format="json"))
    body = ok(dealer_api.post(f"/api/rounds/{rid}/resume/", {}, format="json"))
    assert body["pending_scan"]["scan"] == unsure["scan"]


def test_the_shoe_feed_is_refused_too_while_an_unsure_read_waits(bj_table, dealer, dealer_api):
    rid = _open(dealer_api, bj_table, TWO_SEATS)
    ok(post_scan(dealer_api, rid, card_image("TS", 40)))
    from tables.models import Round

    with pytest.raises(services.Conflict, match="Answer the unsure read of seat 1's card first"):
        services.scan_precheck(round=Round.objects.get(pk=rid), actor=dealer)
