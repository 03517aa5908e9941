"""Scan images are served to those who may read the round, never as public media."""

from __future__ import annotations

import pytest
from django.test import Client

from tables import services
from tables.models import Scan
from tests.tables.api.conftest import client_for
from tests.tables.api.test_round_commands import ok, open_round
from tests.tables.api.test_scans import post_scan
from tests.tables.tablet.test_tablet_rounds import card_image, fake_recognise

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _recogniser(monkeypatch):
    monkeypatch.setattr(services.scans, "recognise", fake_recognise)


@pytest.fixture
def scanned(bj_table, dealer_api) -> tuple[int, dict, bytes]:
    """A round whose first card came from a scan: (round id, the scan answer, the image bytes)."""
    rid = open_round(dealer_api, bj_table)["id"]
    data = card_image("8S", 97)
    return rid, ok(post_scan(dealer_api, rid, data)), data


def test_the_round_links_the_card_to_its_scan_image_and_the_tables_dealer_gets_the_bytes(scanned, dealer_api):
    rid, answer, data = scanned
    scan = Scan.objects.get(round_id=rid)
    url = f"/api/scans/{scan.pk}/image/"
    assert answer["image"] == url
    (card,) = ok(dealer_api.get(f"/api/rounds/{rid}/"))["cards"]
    assert card["image"] == url
    response = dealer_api.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert b"".join(response.streaming_content) == data
    assert "private" in response["Cache-Control"] and response["ETag"] == f'"{scan.sha256}"'


def test_pit_bosses_and_auditors_see_it_too(scanned, pit_boss, auditor):
    scan = Scan.objects.get(round_id=scanned[0])
    for user in (pit_boss, auditor):
        assert client_for(user).get(f"/api/scans/{scan.pk}/image/").status_code == 200


def test_an_outsider_is_refused(scanned, outsider):
    scan = Scan.objects.get(round_id=scanned[0])
    response = client_for(outsider).get(f"/api/scans/{scan.pk}/image/")
    assert response.status_code == 403 and "error" in response.json()


def test_anonymous_is_refused_and_the_media_file_is_not_public(scanned):
    scan = Scan.objects.get(round_id=scanned[0])
    assert Client().get(f"/api/scans/{scan.pk}/image/").status_code in (401, 403)
    assert Client().get(f"/media/{scan.image.name}").status_code == 404


def test_an_unknown_scan_is_a_404(scanned, dealer_api):
    assert dealer_api.get("/api/scans/999999/image/").status_code == 404
