"""Deck enrolment over HTTP: the right to enrol is checked before anything is read, bad input is a 4xx naming
the field, a session is reached only through a table of its casino, and a finished one takes no more scans.

The reader is a stand-in keyed by the image's first pixel (as the tablet tests' ``card_image``): these tests
pin the API; the real reader's naming of a generated deck is tests/tables/services/test_enrolment.py's."""

from __future__ import annotations

import io
from typing import Any

import pytest

from tables.models import Casino, EnrolmentSession, EnrolmentStatus, Pit
from tables.services import scans as scan_service
from tests.factories import TableFactory
from tests.tables.api.conftest import client_for
from tests.tables.api.test_scans import png_header_only
from tests.tables.tablet.test_tablet_rounds import CODES, card_image, fake_recognise

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def reader(monkeypatch: Any) -> None:
    monkeypatch.setattr(scan_service, "recognise", lambda image, profile=None: fake_recognise(image))


@pytest.fixture
def table(demo_casino: Any) -> Any:
    return demo_casino.tables["unlimited-blackjack"]


@pytest.fixture
def manager_api(games_manager: Any) -> Any:
    return client_for(games_manager)


def _base(table: Any) -> str:
    return f"/api/tables/{table.pk}/enrolments/"


@pytest.fixture
def session(manager_api: Any, table: Any) -> dict[str, Any]:
    r = manager_api.post(_base(table), {"name": "House deck", "deck": "standard"}, format="json")
    assert r.status_code == 201, r.json()
    return r.json()


def _scan(api: Any, table: Any, session: dict[str, Any], code: str, confidence: int = 97) -> Any:
    upload = io.BytesIO(card_image(code, confidence))
    upload.name = f"{code}.png"
    return api.post(f"{_base(table)}{session['id']}/scans/", {"image": upload}, format="multipart")


def test_the_reader_names_sure_scans_asks_the_rest_and_a_card_scanned_twice_is_said_plainly(manager_api, table,
                                                                                           session):  # fmt: skip
    page = manager_api.get(_base(table)).json()
    assert page["open"]["id"] == session["id"] and page["suggested_deck"] == "standard"
    sure = _scan(manager_api, table, session, "7H").json()
    assert sure["outcome"] == "named" and sure["message"].startswith("The 7 of hearts")
    assert sure["enrolment"]["named"] == 1 and "7H" not in sure["enrolment"]["missing"]
    unsure = _scan(manager_api, table, session, "8H", confidence=60).json()
    assert unsure["outcome"] == "ask" and unsure["enrolment"]["waiting"] == [2]
    assert [g["code"] for g in unsure["enrolment"]["scans"][1]["guesses"]] == ["8H"]
    again = _scan(manager_api, table, session, "7H").json()
    assert again["outcome"] == "duplicate" and again["message"] == "You already scanned the 7 of hearts"
    url = f"{_base(table)}{session['id']}/scans/"
    refused = manager_api.post(f"{url}3/", {"code": "7H"}, format="json")
    assert refused.status_code == 409 and "you already scanned the 7 of hearts (scan 1)" in refused.json()["error"]
    replaced = manager_api.post(f"{url}3/", {"code": "7H", "replace": True}, format="json").json()
    assert [(s["seq"], s["code"]) for s in replaced["scans"]] == [(2, ""), (3, "7H")]
    named = manager_api.post(f"{url}2/", {"code": "8h"}, format="json").json()
    assert named["waiting"] == [] and named["named"] == 2
    image = manager_api.get(f"{url}2/image/")
    assert image.status_code == 200 and b"".join(image.streaming_content)[:4] == b"\x89PNG"
    undone = manager_api.post(f"{_base(table)}{session['id']}/undo/", {}, format="json").json()
    assert [s["seq"] for s in undone["scans"]] == [2]
    incomplete = manager_api.post(f"{_base(table)}{session['id']}/finish/", {}, format="json")
    assert incomplete.status_code == 409 and "51 cards are still missing" in incomplete.json()["error"]
    gone = manager_api.post(f"{_base(table)}{session['id']}/abandon/", {}, format="json").json()
    assert gone["status"] == "abandoned" and manager_api.get(_base(table)).json()["open"] is None


@pytest.mark.parametrize("who", ["dealer", "pit_boss", "auditor"])
def test_the_right_to_enrol_is_checked_before_any_image_is_read(table, session, who, request, monkeypatch):
    monkeypatch.setattr(scan_service, "decode_image", lambda data: pytest.fail("an image was read"))
    api = client_for(request.getfixturevalue(who))
    base = f"{_base(table)}{session['id']}/"
    for response in (_scan(api, table, session, "7H"), api.get(_base(table)), api.get(base),
                     api.post(_base(table), {"name": "X", "deck": "standard"}, format="json"),
                     api.post(f"{base}finish/", {}, format="json"), api.post(f"{base}undo/", {}, format="json")):  # fmt: skip
        assert response.status_code == 403
        assert response.json()["error"] == "enrolling a deck design needs a games manager"


@pytest.mark.parametrize(("body", "field", "message"), [
    ({}, "name", "required"),
    ({"name": "X", "deck": "tarot"}, "deck", "not a valid choice"),
    ({"name": "X", "deck": "standard", "seats": 3}, "seats", "unknown field"),
    (["name", "deck"], "(body)", "Expected a dictionary"),
    ({"name": " ", "deck": "standard"}, "name", "blank"),
])  # fmt: skip
def test_bad_input_to_start_is_a_400_naming_the_field(manager_api, table, body, field, message):
    r = manager_api.post(_base(table), body, format="json")
    assert r.status_code == 400 and r.json()["field"] == field and message in r.json()["error"], r.json()


def test_odd_json_and_bad_codes_are_refused_naming_the_field(manager_api, table, session):
    _scan(manager_api, table, session, "7H", confidence=60)
    url = f"{_base(table)}{session['id']}/scans/1/"
    odd = manager_api.post(url, b'{"code": "7H"', content_type="application/json")
    assert odd.status_code == 400 and odd.json()["code"] == "parse_error"
    for body, field, message in (({"code": "ZZ"}, "code", "bad card code"), ({"code": "JK"}, "code", "not in a deck"),
                                 ({"code": "7H", "replace": "maybe"}, "replace", "valid boolean"),
                                 ({"code": "7H", "seq": 2}, "seq", "unknown field")):  # fmt: skip
        r = manager_api.post(url, body, format="json")
        assert r.status_code == 400 and r.json()["field"] == field and message in r.json()["error"], r.json()
    missing = manager_api.post(f"{_base(table)}{session['id']}/scans/9/", {"code": "2S"}, format="json")
    assert missing.status_code == 400 and missing.json()["field"] == "scan"


def test_an_image_that_is_none_or_too_large_is_refused_before_it_is_decoded(manager_api, table, session, monkeypatch):
    url = f"{_base(table)}{session['id']}/scans/"
    assert manager_api.post(url, {}, format="multipart").json()["field"] == "image"
    junk = io.BytesIO(b"not an image")
    junk.name = "junk.png"
    r = manager_api.post(url, {"image": junk}, format="multipart")
    assert r.status_code == 400 and "not a readable image" in r.json()["error"]
    big = io.BytesIO(b"\x89PNG" + b"0" * (scan_service.MAX_IMAGE_BYTES + 1))
    big.name = "big.png"
    r = manager_api.post(url, {"image": big}, format="multipart")
    assert r.status_code == 400 and r.json()["field"] == "image" and "larger than 8 MB" in r.json()["error"]
    huge = png_header_only(30000, 30000)  # a header claiming 30000 x 30000 pixels
    upload = io.BytesIO(bytes(huge))
    upload.name = "huge.png"
    r = manager_api.post(url, {"image": upload}, format="multipart")
    assert r.status_code == 400 and "megapixels" in r.json()["error"]
    assert EnrolmentSession.objects.get().scans.count() == 0


def test_a_session_is_reached_only_through_a_table_of_its_casino_and_a_finished_one_takes_no_scans(
        manager_api, table, session):  # fmt: skip
    other = TableFactory(pit=Pit.objects.create(casino=Casino.objects.create(name="Other casino"), name="P"))
    r = manager_api.get(f"{_base(other)}{session['id']}/")
    assert r.status_code == 403 and "belongs to Demo Casino" in r.json()["error"]
    assert manager_api.get(f"{_base(table)}999/").status_code == 404
    EnrolmentSession.objects.filter(pk=session["id"]).update(status=EnrolmentStatus.FINISHED)
    r = _scan(manager_api, table, session, "7H")
    assert r.status_code == 409 and "is finished: start a new one" in r.json()["error"]
    r = manager_api.post(f"{_base(table)}{session['id']}/assign/", {}, format="json")
    assert r.status_code == 409 and "not enrolled yet" in r.json()["error"]


def test_a_second_session_at_the_table_and_a_name_in_use_are_refused(manager_api, table, session):
    r = manager_api.post(_base(table), {"name": "Other", "deck": "standard"}, format="json")
    assert r.status_code == 409 and "already open" in r.json()["error"]
    assert len(CODES) == 53
