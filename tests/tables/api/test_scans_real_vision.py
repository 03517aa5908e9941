"""Scans through the real recogniser (no stand-in): a generated card image posted to the API."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tables.models import RoundCard, Scan
from tests.tables.api.test_round_commands import ok, open_round
from vision import recognize
from vision.tools.synth import shoe_image

pytestmark = pytest.mark.django_db


def jpeg(img: np.ndarray) -> bytes:
    good, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert good
    return bytes(buf)


def post_scan(api, rid, data: bytes):
    upload = SimpleUploadedFile("scan.jpg", data, content_type="image/jpeg")
    return api.post(f"/api/rounds/{rid}/scans/", {"image": upload}, format="multipart")


def sure_scan(code: str) -> bytes:
    """A generated JPEG scan of ``code`` that the recogniser itself reads as ``code`` at 0.9 or more:
    the first of a few seeded draws (how often a scan reads surely is vision's own tests' measure;
    here it is the API's handling of a sure read).  A court card's art can leave the corner CNN
    split between two ranks, and such a scan is asked, rightly."""
    for k in range(6):
        img, _ = shoe_image(code, np.random.default_rng([100 + ord(code[0]), k]))
        data = jpeg(img)
        reads = recognize(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR))
        if [(r["code"], r["confidence"] >= 0.9) for r in reads] == [(code, True)]:
            return data
    raise AssertionError(f"none of six generated scans of {code} read surely")


@pytest.mark.parametrize("code", ["8S", "KD", "AH"])
def test_a_scanned_card_is_read_by_vision_and_recorded(bj_table, dealer_api, code):
    rid = open_round(dealer_api, bj_table)["id"]
    body = ok(post_scan(dealer_api, rid, sure_scan(code)))
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
