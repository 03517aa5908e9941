"""A scan of several cards asks about its unsure ones one at a time, in the order they were dealt (left to
right): the cards before the unsure one are recorded, the dealer is asked about that card alone (the
reader's guesses for it, not every card's guesses mixed in one list), and the answer records the scan's
later sure cards after it.  A false region (a chip, a shadow read as "unknown") is dropped as "not a card"
and the scan goes on.  Before, one question offered every card's guesses for one card at 20% each, and the
answer recorded one card of three."""

from __future__ import annotations

from typing import Any

import pytest

from tables import services
from tables.models import AuditEvent, RoundCard, Scan
from tests.tables.api.test_round_commands import card, decide, ok
from tests.tables.api.test_scans import post_scan
from tests.tables.tablet.test_tablet_rounds import CODES

pytestmark = pytest.mark.django_db

TWO_SEATS = {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}, {"seat": 2, "wagers": {"main": "10.00"}}]}
JUNK = 255  # a region the reader calls "unknown", guessing a queen of hearts


def cards_image(*cards: tuple[str, int]) -> bytes:
    """A PNG of the cards side by side on felt (each 90 x 120 pixels, 100 apart, its code written on it), whose
    first row's pixels encode them for ``fake_recognise`` (B = index or JUNK, G = confidence %, R = 1)."""
    import cv2
    import numpy as np

    img = np.full((130, 100 * len(cards) + 10, 3), (40, 110, 30), dtype=np.uint8)
    for i, (code, _) in enumerate(cards):
        cv2.rectangle(img, (100 * i, 2), (100 * i + 89, 119), (250, 250, 250), -1)
        cv2.putText(img, code, (100 * i + 8, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (20, 20, 200), 2)
    img[0, :] = 0
    for i, (code, confidence) in enumerate(cards):
        img[0, i] = (JUNK if code == "?" else CODES.index(code), confidence, 1)
    ok_, buf = cv2.imencode(".png", img)
    assert ok_
    return bytes(buf)


def fake_recognise(image: Any) -> list[dict[str, Any]]:
    found = []
    for i in range(image.shape[1]):
        b, g, r = (int(v) for v in image[0, i])
        if r != 1:
            break
        corners = [[100.0 * i, 0.0], [100.0 * i + 90, 0.0], [100.0 * i + 90, 120.0], [100.0 * i, 120.0]]
        if b == JUNK:
            found.append({"code": "unknown", "confidence": g / 100, "corners": corners,
                          "guesses": [{"code": "QH", "confidence": g / 100}]})  # fmt: skip
        else:
            found.append({"code": CODES[b], "confidence": g / 100, "corners": corners})
    return found


@pytest.fixture(autouse=True)
def _recogniser(monkeypatch):
    monkeypatch.setattr(services.scans, "recognise", fake_recognise)


def _open(api: Any, table: Any) -> int:
    return ok(api.post(f"/api/tables/{table.pk}/rounds/", TWO_SEATS, format="json"), 201)["id"]


def _codes(doc: dict[str, Any]) -> list[str]:
    return [c["code"] for c in doc["cards"]]


def test_the_cards_before_the_unsure_one_are_recorded_and_the_dealer_is_asked_about_that_card_alone(
        bj_table, dealer_api):
    rid = _open(dealer_api, bj_table)
    scan = ok(post_scan(dealer_api, rid, cards_image(("8S", 97), ("TS", 60), ("9C", 97))))
    assert scan["recorded"] == ["8S"] and scan["needs_confirmation"] is True
    assert [g["code"] for g in scan["guesses"]] == ["TS"]  # the unsure card's guesses, not the 8♠ and 9♣ too
    doc = ok(dealer_api.get(f"/api/rounds/{rid}/"))
    assert _codes(doc) == ["8S"]
    pending = doc["pending_scan"]
    assert (pending["scan"], pending["card"], pending["of"]) == (scan["scan"], 1, 3)
    assert pending["corners"] == [[100.0, 0.0], [190.0, 0.0], [190.0, 120.0], [100.0, 120.0]]
    assert pending["question"] == "Answer the unsure read of seat 2's card (card 2 of 3 in the scan) first: 10♠?"
    assert pending["why"] == "unsure"
    # The dealer confirms the 10♠: it is seat 2's card, and the 9♣ after it, read sure, is recorded after it.
    doc = ok(card(dealer_api, rid, "TS", scan=scan["scan"]))
    assert _codes(doc) == ["8S", "TS", "9C"] and doc["pending_scan"] is None
    assert [c["to"] for c in doc["cards"]] == ["seat:1", "seat:2", "dealer"]
    answered = RoundCard.objects.get(round_id=rid, code="TS")
    assert (answered.recognised_code, answered.confidence) == ("TS", pytest.approx(0.60))  # the asked card's read
    assert RoundCard.objects.get(round_id=rid, code="9C").scan_id == scan["scan"]
    event = AuditEvent.objects.filter(round_id=rid, action="round.card").latest("pk")
    assert event.payload["then_recorded"] == ["9C"] and event.payload["asking"] is None
    again = card(dealer_api, rid, "TS", scan=scan["scan"])
    assert again.status_code == 409 and "not waiting for an answer" in again.json()["error"]


def test_two_unsure_cards_are_asked_one_after_the_other(bj_table, dealer_api):
    rid = _open(dealer_api, bj_table)
    scan = ok(post_scan(dealer_api, rid, cards_image(("8S", 50), ("9S", 97), ("6D", 70), ("8H", 97))))
    assert scan["recorded"] == [] and [g["code"] for g in scan["guesses"]] == ["8S"]
    doc = ok(card(dealer_api, rid, "8S", scan=scan["scan"]))
    assert _codes(doc) == ["8S", "9S"] and doc["pending_scan"]["card"] == 2
    assert doc["pending_scan"]["question"] == ("Answer the unsure read of the dealer's card (card 3 of 4 in the "
                                               "scan) first: 6♦?")  # fmt: skip
    # Another card keyed in is refused while the 6♦ waits (it would take the 6♦'s place).
    assert card(dealer_api, rid, "5C").status_code == 409
    doc = ok(card(dealer_api, rid, "6H", scan=scan["scan"]))  # the dealer picks another card: it is a 6♥
    assert _codes(doc) == ["8S", "9S", "6H", "8H"] and doc["pending_scan"] is None
    assert RoundCard.objects.get(round_id=rid, code="6H").corrected_from == "6D"


def test_a_region_that_is_not_a_card_is_dropped_and_the_scan_goes_on(bj_table, dealer_api):
    rid = _open(dealer_api, bj_table)
    scan = ok(post_scan(dealer_api, rid, cards_image(("8S", 97), ("?", 30), ("9S", 97))))
    assert scan["recorded"] == ["8S"] and [g["code"] for g in scan["guesses"]] == ["QH"]
    assert ok(dealer_api.get(f"/api/rounds/{rid}/"))["pending_scan"]["why"] == "unknown"
    doc = ok(dealer_api.post(f"/api/rounds/{rid}/scans/{scan['scan']}/dismiss/",
                             {"reason": "not a card", "only_this_card": True}, format="json"))
    assert _codes(doc) == ["8S", "9S"] and doc["pending_scan"] is None
    assert [c["to"] for c in doc["cards"]] == ["seat:1", "seat:2"]
    event = AuditEvent.objects.filter(round_id=rid).latest("pk")
    assert event.action == "round.scan.skip"
    assert (event.payload["card"], event.payload["reason"], event.payload["then_recorded"]) == (1, "not a card", ["9S"])


def test_dropping_the_scan_keeps_the_cards_recorded_before_the_question(bj_table, dealer_api):
    rid = _open(dealer_api, bj_table)
    scan = ok(post_scan(dealer_api, rid, cards_image(("8S", 97), ("TS", 60), ("9C", 97))))
    doc = ok(dealer_api.post(f"/api/rounds/{rid}/scans/{scan['scan']}/dismiss/",
                             {"reason": "scan the card again"}, format="json"))
    assert _codes(doc) == ["8S"] and doc["pending_scan"] is None
    assert Scan.objects.get(pk=scan["scan"]).asking is None
    assert ok(post_scan(dealer_api, rid, cards_image(("TS", 97), ("9C", 97))))["recorded"] == ["TS", "9C"]


def test_a_card_the_round_cannot_take_is_asked_about_after_the_ones_it_took(bj_table, dealer_api):
    rid = _open(dealer_api, bj_table)
    for code in ["8S", "9S", "6D", "8H", "7C", "TD"]:  # seat 1 8-8, seat 2 9-7, the dealer 6 and the hole card
        ok(card(dealer_api, rid, code))
    ok(decide(dealer_api, rid, "stand"))
    ok(decide(dealer_api, rid, "stand"))
    # The dealer draws to 16: the 5♣ makes 21 and the round takes no further card; the 4♣ is asked about.
    scan = ok(post_scan(dealer_api, rid, cards_image(("5C", 97), ("4C", 97))))
    assert scan["recorded"] == ["5C"] and scan["needs_confirmation"] is True
    doc = ok(dealer_api.get(f"/api/rounds/{rid}/"))
    assert doc["pending_scan"]["card"] == 1 and doc["next"]["needs"] == "settle"
    assert doc["pending_scan"]["why"] == "round"  # read surely: the round takes no card now
    # Not an unsure read: said as it is, in the question and in the refusal of anything else meanwhile.
    question = "Card 2 of 2 in the scan read 4♣, but the round takes no card now: tap Not a card first"
    assert doc["pending_scan"]["question"] == question
    refused = dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json")
    assert refused.status_code == 409 and refused.json()["error"] == question
    doc = ok(dealer_api.post(f"/api/rounds/{rid}/scans/{scan['scan']}/dismiss/",
                             {"reason": "not a card", "only_this_card": True}, format="json"))
    assert doc["pending_scan"] is None and _codes(doc)[-1] == "5C"


def test_a_card_the_shoe_cannot_hold_is_asked_about(bj_table, dealer_api):
    rid = _open(dealer_api, bj_table)  # a shoe without Jokers
    scan = ok(post_scan(dealer_api, rid, cards_image(("8S", 97), ("JK", 97), ("9C", 97))))
    assert scan["recorded"] == ["8S"] and "JK" not in [g["code"] for g in scan["guesses"]]
    pending = ok(dealer_api.get(f"/api/rounds/{rid}/"))["pending_scan"]
    assert pending["card"] == 1 and pending["why"] == "shoe"  # read surely, a card the shoe cannot hold


def test_a_scan_waiting_before_the_upgrade_still_waits_after_it(bj_table, dealer_api):
    """Migration 0022 (``Scan.asking``): a scan that waited for the dealer under the old rule (the round's
    last write but a pause that scan, which recorded no card) asks about its first card; others ask nothing."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("tables.migrations.0022_scan_asks_card_by_card")
    rid = _open(dealer_api, bj_table)
    sure = ok(post_scan(dealer_api, rid, cards_image(("8S", 97))))
    unsure = ok(post_scan(dealer_api, rid, cards_image(("TS", 60))))
    ok(dealer_api.post(f"/api/rounds/{rid}/pause/", {"reason": "dispute"}, format="json"))
    ok(dealer_api.post(f"/api/rounds/{rid}/resume/", {}, format="json"))
    Scan.objects.filter(round_id=rid).update(asking=None)  # as the rows stood before the field
    migration.ask_waiting_scans(apps, None)
    assert Scan.objects.get(pk=unsure["scan"]).asking == 0 and Scan.objects.get(pk=sure["scan"]).asking is None
    assert ok(dealer_api.get(f"/api/rounds/{rid}/"))["pending_scan"]["scan"] == unsure["scan"]
