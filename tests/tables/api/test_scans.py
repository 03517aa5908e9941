"""Cards from scan images: stored with their hash, recorded when confident, confirmed by the dealer when not."""

from __future__ import annotations

import hashlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tables import services
from tables.models import RoundCard, Scan
from tests.tables.api.test_round_commands import ok, open_round
from tests.tables.tablet.test_tablet_rounds import card_image, fake_recognise

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _recogniser(monkeypatch):
    # A stand-in keyed by the image's pixels: these tests pin the service, vision has its own.
    monkeypatch.setattr(services.scans, "recognise", fake_recognise)


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


def test_a_read_the_reader_is_unsure_of_is_asked_by_default(bj_table, dealer_api):
    # The reader's "sure" is 0.9 (calibrated: 99.9% right from there); what its witness disputes or
    # names it caps at 0.85.  The default threshold asks for both (at 0.85 they were recorded unasked).
    from tables import conf

    assert conf.scan_confidence() == 0.9
    rid = open_round(dealer_api, bj_table)["id"]
    for confidence in (85, 89):
        body = ok(post_scan(dealer_api, rid, card_image("8S", confidence)))
        assert body["needs_confirmation"] is True and body["recorded"] == [], confidence
        ok(dealer_api.post(f"/api/rounds/{rid}/scans/{body['scan']}/dismiss/", {"reason": "scan the card again"},
                           format="json"))
    body = ok(post_scan(dealer_api, rid, card_image("8S", 90)))
    assert body["recorded"] == ["8S"] and body["needs_confirmation"] is False


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


# Image bombs and who may scan: the permission and the size are judged before any pixel is decoded.


def png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` pixels (a few hundred bytes, a bomb once decoded)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 4096)) + chunk(b"IEND", b"")


def test_a_huge_image_is_refused_from_its_header_without_decoding(bj_table, dealer_api, monkeypatch):
    import cv2

    def never(*a, **k):
        raise AssertionError("the image was decoded")

    monkeypatch.setattr(cv2, "imdecode", never)
    rid = open_round(dealer_api, bj_table)["id"]
    response = post_scan(dealer_api, rid, png_header_only(30000, 30000))
    assert response.status_code == 400
    assert response.json()["field"] == "image" and "megapixels" in response.json()["error"]
    assert not Scan.objects.filter(round_id=rid).exists()
    response = post_scan(dealer_api, rid, png_header_only(9000, 3000))
    assert response.status_code == 400 and "9000 x 3000 pixels" in response.json()["error"]


@pytest.mark.parametrize("data, words", [
    (b"", "empty"),
    (b"GIF89a" + b"\0" * 100, "not a readable image"),
    (b"\x89PNG\r\n\x1a\n" + b"\0" * 50, "not a readable image"),
    (png_header_only(2000, 1500), "not a readable image"),  # a header whose pixel data is cut short
])  # fmt: skip
def test_a_malformed_image_is_a_clear_400(bj_table, dealer_api, data, words):
    rid = open_round(dealer_api, bj_table)["id"]
    response = post_scan(dealer_api, rid, data)
    assert response.status_code == 400 and words in response.json()["error"], response.content


@pytest.mark.parametrize("who", ["auditor", "outsider", "other_dealer"])
def test_who_may_not_scan_gets_403_before_the_image_is_read(bj_table, dealer_api, who, request, monkeypatch):
    from tests.factories import UserFactory
    from tests.tables.api.conftest import client_for

    def never(*a, **k):
        raise AssertionError("the image was read")

    monkeypatch.setattr(services, "scan_read", never)
    rid = open_round(dealer_api, bj_table)["id"]
    if who == "other_dealer":
        from django.contrib.auth.models import Group

        from tables.access import DEALER

        user = UserFactory(username="dealer2")
        user.groups.add(Group.objects.get(name=DEALER))
    elif who == "outsider":
        user = UserFactory(username="nobody")
    else:
        user = request.getfixturevalue("auditor")
    response = post_scan(client_for(user), rid, png_header_only(30000, 30000))
    assert response.status_code == 403, response.content


def _reads(monkeypatch, *found):
    monkeypatch.setattr(services.scans, "recognise", lambda image: [dict(c, corners=[]) for c in found])


def test_an_impossible_top_read_gives_way_to_a_candidate_the_reader_is_confident_of(bj_table, dealer_api,
                                                                                     monkeypatch):
    # Unlimited Blackjack is dealt without Jokers: a Joker read cannot be the card.
    _reads(monkeypatch, {"code": "JK", "confidence": 0.97, "guesses": [{"code": "8S", "confidence": 0.93}]})
    rid = open_round(dealer_api, bj_table)["id"]
    body = ok(post_scan(dealer_api, rid, card_image("8S", 97)))
    assert body["recorded"] == ["8S"] and body["needs_confirmation"] is False


def test_an_impossible_top_read_with_an_unsure_runner_up_asks_the_dealer(bj_table, dealer_api, monkeypatch):
    _reads(monkeypatch, {"code": "JK", "confidence": 0.97, "guesses": [{"code": "8S", "confidence": 0.5},
                                                                       {"code": "3S", "confidence": 0.02}]})
    rid = open_round(dealer_api, bj_table)["id"]
    body = ok(post_scan(dealer_api, rid, card_image("8S", 97)))
    assert body["needs_confirmation"] is True and body["recorded"] == []
    assert [g["code"] for g in body["guesses"]] == ["8S", "3S"]  # the Joker is not offered
    assert not RoundCard.objects.filter(round_id=rid).exists()
