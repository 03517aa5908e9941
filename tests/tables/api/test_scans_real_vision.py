"""Scans through the real recogniser (no stand-in): a generated card image posted to the API."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tables.models import RoundCard, Scan
from tests.tables.api.test_live_rounds_property import confident_scan
from tests.tables.api.test_round_commands import ok, open_round

pytestmark = pytest.mark.django_db


def jpeg(img: np.ndarray) -> bytes:
    good, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert good
    return bytes(buf)


def post_scan(api, rid, data: bytes):
    upload = SimpleUploadedFile("scan.jpg", data, content_type="image/jpeg")
    return api.post(f"/api/rounds/{rid}/scans/", {"image": upload}, format="multipart")


@pytest.mark.parametrize("code", ["8S", "KD", "AH"])
def test_a_scanned_card_is_read_by_vision_and_recorded(bj_table, dealer_api, code):
    rid = open_round(dealer_api, bj_table)["id"]
    # A scan the recogniser reads surely (how often one does is vision's own tests' measure; a court
    # card's art can leave the corner CNN split between two ranks, and such a scan is asked, rightly).
    data = confident_scan(code)
    assert data is not None
    body = ok(post_scan(dealer_api, rid, data))
    assert body["needs_confirmation"] is False and body["recorded"] == [code]
    c = RoundCard.objects.get(round_id=rid)
    assert (c.code, c.source) == (code, "scan") and c.confidence >= 0.85
    assert Scan.objects.filter(round_id=rid).count() == 1


def test_a_scan_of_empty_felt_records_nothing_and_asks_the_dealer(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table)["id"]
    felt = np.zeros((400, 300, 3), np.uint8) + np.array([40, 110, 30], np.uint8)
    body = ok(post_scan(dealer_api, rid, jpeg(felt)))
    assert body["recorded"] == [] and body["needs_confirmation"] is True
    assert not RoundCard.objects.filter(round_id=rid).exists()
