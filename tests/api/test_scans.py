"""Cards from scan images: stored with their hash, recorded when confident, confirmed by the dealer when not."""

from __future__ import annotations

import hashlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tables import services
from tables.models import RoundCard, Scan
from tests.api.test_round_commands import ok, open_round
from tests.tablet.test_tablet_rounds import card_image, fake_recognise

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _recogniser(monkeypatch):
    # A stand-in keyed by the image's pixels: these tests pin the service, vision has its own.
    monkeypatch.setattr(services, "recognise", fake_recognise)


def post_scan(api, rid, data: bytes, **headers):
    upload = SimpleUploadedFile("scan.png", data, content_type="image/png")
    return api.post(f"/api/rounds/{rid}/scans/", {"image": upload}, format="multipart", **headers)


def test_a_confident_scan_records_the_card_with_its_image_hash_and_confidence(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    data = card_image("8S", 97)
    body = ok(post_scan(dealer_api, rid, data))
    assert body["recorded"] == ["8S"] and body["needs_confirmation"] is False
    c = RoundCard.objects.get(round_id=rid)
    assert (c.code, c.source, c.confidence) == ("8S", "scan", pytest.approx(0.97))
    assert c.image_sha256 == hashlib.sha256(data).hexdigest()
    assert Scan.objects.get(round_id=rid).image.read() == data


def test_a_low_confidence_scan_waits_for_the_dealer_who_may_pick_another_card(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    body = ok(post_scan(dealer_api, rid, card_image("8S", 40)))
    assert body["needs_confirmation"] is True and body["recorded"] == []
    assert body["candidates"][0]["code"] == "8S"
    assert not RoundCard.objects.filter(round_id=rid).exists()
    ok(dealer_api.post(f"/api/rounds/{rid}/cards/", {"code": "8C", "scan": body["scan"]}, format="json"))
    c = RoundCard.objects.get(round_id=rid)
    assert (c.code, c.recognised_code, c.corrected_from, c.corrected_by.username) == ("8C", "8S", "8S", "dealer")
    again = dealer_api.post(f"/api/rounds/{rid}/cards/", {"code": "8C", "scan": body["scan"]}, format="json")
    assert again.status_code == 409  # a scan's card is recorded once


def test_a_retried_scan_upload_records_the_card_once(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    data = card_image("8S", 97)
    a = post_scan(dealer_api, rid, data, HTTP_IDEMPOTENCY_KEY="scan-1")
    b = post_scan(dealer_api, rid, data, HTTP_IDEMPOTENCY_KEY="scan-1")
    assert a.status_code == b.status_code == 200 and a.json() == b.json()
    assert RoundCard.objects.filter(round_id=rid).count() == 1
    assert Scan.objects.filter(round_id=rid).count() == 1


def test_an_impossible_scanned_card_is_not_recorded_but_offered_for_confirmation(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    body = ok(post_scan(dealer_api, rid, card_image("JK", 99)))  # no Jokers in a blackjack shoe
    assert body["needs_confirmation"] is True
    assert not RoundCard.objects.filter(round_id=rid).exists()


def test_the_dealer_corrects_a_card_before_settlement(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    ok(dealer_api.post(f"/api/rounds/{rid}/cards/", {"code": "8S"}, format="json"))
    body = ok(dealer_api.post(f"/api/rounds/{rid}/cards/1/correct/", {"code": "8D", "reason": "misread"}, format="json"))
    assert body["cards"][0]["code"] == "8D" and body["cards"][0]["corrected_from"] == "8S"
