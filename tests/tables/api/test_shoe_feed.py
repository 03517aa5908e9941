"""The shoe feed: a card-reading shoe or a document camera posts card images for its table with a
device key; the images go through the dealer's scan checks and land in the round in play."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tables import services
from tables.models import AuditEvent, RoundCard, Scan
from tables.services import shoe_feed
from tests.tables.api.test_round_commands import ok, open_round
from tests.tables.api.test_scans import png_header_only
from tests.tables.tablet.test_tablet_rounds import card_image, fake_recognise

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _recogniser(monkeypatch):
    monkeypatch.setattr(services.scans, "recognise", fake_recognise)


@pytest.fixture
def device_key(bj_table, pit_boss):
    _, key = shoe_feed.shoe_feed_issue(table=bj_table, name="shoe reader", actor=pit_boss)
    return key


def feed(table, data: bytes, key: str | None, **headers):
    client = APIClient()
    if key is not None:
        headers["HTTP_AUTHORIZATION"] = f"Device {key}"
    upload = SimpleUploadedFile("card.png", data, content_type="image/png")
    return client.post(f"/api/tables/{table.pk}/shoe-feed/", {"image": upload}, format="multipart", **headers)


def test_a_device_image_lands_in_the_round_in_play_as_the_dealers_next_card(bj_table, dealer, dealer_api, device_key):
    rid = open_round(dealer_api, bj_table)["id"]
    body = ok(feed(bj_table, card_image("8S"), device_key))
    assert body["recorded"] == ["8S"] and body["round"]["id"] == rid
    card = RoundCard.objects.get(round_id=rid)
    assert (card.code, card.source, card.recorded_by) == ("8S", "scan", dealer)
    event = AuditEvent.objects.get(action="round.shoe_feed", round_id=rid)
    assert event.payload["name"] == "shoe reader" and event.payload["recorded"] == ["8S"]
    # The tablet reads it like any card (the round document the tablet polls).
    assert [c["code"] for c in ok(dealer_api.get(f"/api/rounds/{rid}/"))["cards"]] == ["8S"]


def test_an_unsure_device_image_waits_in_the_round_document_until_the_dealer_picks_its_card(
        bj_table, dealer_api, device_key):
    rid = open_round(dealer_api, bj_table)["id"]
    body = ok(feed(bj_table, card_image("8S", confidence=50), device_key))
    assert body["needs_confirmation"] and body["recorded"] == []
    scan = Scan.objects.get(round_id=rid)
    # The tablet polling the round learns that the dealer is asked (not only the device that sent it).
    pending = ok(dealer_api.get(f"/api/rounds/{rid}/"))["pending_scan"]
    assert pending["scan"] == scan.pk and pending["guesses"][0]["code"] == "8S", pending
    doc = ok(dealer_api.post(f"/api/rounds/{rid}/cards/", {"code": "8S", "scan": scan.pk}, format="json"))
    assert doc["pending_scan"] is None
    assert RoundCard.objects.get(round_id=rid).scan_id == scan.pk


def test_a_resent_image_with_the_same_idempotency_key_counts_once(bj_table, dealer_api, device_key):
    rid = open_round(dealer_api, bj_table)["id"]
    a = feed(bj_table, card_image("8S"), device_key, HTTP_IDEMPOTENCY_KEY="img-1")
    b = feed(bj_table, card_image("8S"), device_key, HTTP_IDEMPOTENCY_KEY="img-1")
    assert a.status_code == b.status_code == 200 and a.json() == b.json()
    assert RoundCard.objects.filter(round_id=rid).count() == 1


@pytest.mark.parametrize("key, status", [(None, 401), ("not-a-key", 401)])
def test_without_a_valid_key_nothing_is_read(bj_table, dealer_api, device_key, monkeypatch, key, status):
    monkeypatch.setattr(services, "scan_read", lambda *_: pytest.fail("the image was read"))
    open_round(dealer_api, bj_table)
    response = feed(bj_table, card_image("8S"), key)
    assert response.status_code == status, response.content


def test_a_revoked_device_is_refused(bj_table, dealer_api, device_key, pit_boss):
    open_round(dealer_api, bj_table)
    device = shoe_feed.shoe_feed_device(device_key)
    shoe_feed.shoe_feed_revoke(device=device, actor=pit_boss)
    assert feed(bj_table, card_image("8S"), device_key).status_code == 401


def test_a_device_feeds_only_its_own_table(bj_table, demo_casino, dealer_api, device_key, monkeypatch):
    monkeypatch.setattr(services, "scan_read", lambda *_: pytest.fail("the image was read"))
    other = demo_casino.tables["mini-blackjack"]
    response = feed(other, card_image("8S"), device_key)
    assert response.status_code == 403 and "feeds table" in response.json()["error"]


def test_no_round_in_play_is_a_conflict_and_the_image_is_not_read(bj_table, device_key, monkeypatch):
    monkeypatch.setattr(services, "scan_read", lambda *_: pytest.fail("the image was read"))
    response = feed(bj_table, card_image("8S"), device_key)
    assert response.status_code == 409 and "no round is in play" in response.json()["error"]


def test_a_huge_image_is_refused_from_its_header(bj_table, dealer_api, device_key):
    rid = open_round(dealer_api, bj_table)["id"]
    response = feed(bj_table, png_header_only(30000, 30000), device_key)
    assert response.status_code == 400 and response.json()["field"] == "image"
    assert not Scan.objects.filter(round_id=rid).exists()


def test_only_a_pit_boss_pairs_a_device(bj_table, dealer):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        shoe_feed.shoe_feed_issue(table=bj_table, name="shoe", actor=dealer)


def test_a_pit_boss_rejects_a_payment_with_a_reason_the_round_document_carries(bj_table, dealer_api, pit_api):
    from tests.tables.api.test_round_commands import card

    rid = open_round(dealer_api, bj_table, {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]})["id"]
    for code in ["TS", "7D", "9H", "8C"]:  # 19 against 15; the dealer draws to 20 and the house wins
        ok(card(dealer_api, rid, code))
    ok(dealer_api.post(f"/api/rounds/{rid}/decisions/", {"action": "stand"}, format="json"))
    doc = ok(dealer_api.get(f"/api/rounds/{rid}/"))
    while doc["next"]["needs"] == "card":
        doc = ok(card(dealer_api, rid, "5C"))
    ok(dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    doc = ok(dealer_api.post(f"/api/rounds/{rid}/paid/", {"paid": {"1": {"main": "5.00"}}}, format="json"))  # paid a loser
    assert doc["state"] == "mismatch"
    refused = dealer_api.post(f"/api/rounds/{rid}/reject/", {"reason": "no"}, format="json")
    assert refused.status_code == 403
    doc = ok(pit_api.post(f"/api/rounds/{rid}/reject/", {"reason": "pay the full 10.00"}, format="json"))
    assert doc["rejections"][0]["reason"] == "pay the full 10.00" and doc["rejections"][0]["current"] is True
    assert ok(pit_api.get(f"/api/tables/{bj_table.pk}/dealers/"))[0]["username"] == "dealer"
    assert dealer_api.get(f"/api/tables/{bj_table.pk}/dealers/").status_code == 403
