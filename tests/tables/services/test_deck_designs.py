"""Deck designs: a games manager enrols a deck from a ZIP of scans (our own generator's cards), the
design is given to a table, and that table's scans are read with it."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tables import services
from tables.engine.errors import InvalidInput
from tables.models import AuditEvent, DeckDesign, RoundCard
from tables.services import decks
from tests.factories import PASSWORD
from tests.tables.api.conftest import client_for
from vision.tools.synth import generate

pytestmark = pytest.mark.django_db
DESIGN, COURT = 7, "VDR"  # court cards lettered V, D, R: no J, Q, K to the generic reader
COURTS = [r + s for s in "SHDC" for r in "JQK"]


@pytest.fixture(scope="module")
def scans(tmp_path_factory: Any) -> Path:
    root = tmp_path_factory.mktemp("design")
    generate(root / "enrol", "shoe", 54, seed=501, design=DESIGN, court=COURT)
    generate(root / "read", "shoe", 54, seed=500, design=DESIGN, court=COURT)
    return root


def _zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return out.getvalue()


def _labelled_zip(folder: Path) -> bytes:
    labels = json.loads((folder / "labels.json").read_text())
    files = {item["file"]: (folder / item["file"]).read_bytes() for item in labels["images"]}
    return _zip({**files, "labels.json": json.dumps(labels).encode()})


def _named_zip(folder: Path, codes: list[str]) -> bytes:
    labels = json.loads((folder / "labels.json").read_text())
    return _zip({f"deck/{i['code']}.png": (folder / i["file"]).read_bytes() for i in labels["images"]
                 if i["code"] in codes})  # fmt: skip


def test_a_games_manager_enrols_a_deck_and_the_design_is_stored_with_its_audit_event(scans, demo_casino,
                                                                                     games_manager):
    design = services.decks.deck_design_enrol(casino=demo_casino.casino, name="House deck 2026",
                                              archive=_labelled_zip(scans / "enrol"), actor=games_manager)
    assert sum(design.cards.values()) == 54 and design.glyph_samples > 100
    assert design.profile.read()[:2] == b"PK"  # the profile as vision.profile saves it (an .npz)
    event = AuditEvent.objects.get(action="deck.enrol")
    assert event.payload["name"] == "House deck 2026" and event.payload["sha256"] == design.profile_sha256


def test_scans_named_by_their_card_code_enrol_too(scans, demo_casino, games_manager):
    design = decks.deck_design_enrol(casino=demo_casino.casino, name="Courts", actor=games_manager,
                                     archive=_named_zip(scans / "enrol", COURTS))  # fmt: skip
    assert sorted(design.cards) == sorted(COURTS)


@pytest.mark.parametrize(("archive", "message"), [
    (b"", "empty"),
    (b"not a zip at all", "not a readable ZIP"),
    (_zip({"notes.txt": b"hello"}), "no PNG or JPEG scans"),
    (_zip({"queen.png": b"\x89PNG"}), "queen.png: name the scan by its card code"),
    (_zip({"8S.png": b"\x89PNG\r\n\x1a\n broken"}), "8S.png: the file is not a readable image"),
    (_zip({"labels.json": b'{"images": [{"file": "../../etc/passwd", "code": "8S"}]}'}), "not in the archive"),
    (_zip({f"{i}.png": b"x" for i in range(decks.MAX_MEMBERS + 1)}), "at most"),
])  # fmt: skip
def test_a_bad_archive_is_refused_naming_what_is_wrong(demo_casino, games_manager, archive, message):
    with pytest.raises(InvalidInput, match=message) as err:
        decks.deck_design_enrol(casino=demo_casino.casino, name="Bad", archive=archive, actor=games_manager)
    assert err.value.field == "archive" and not DeckDesign.objects.exists()


def test_only_a_games_manager_enrols_and_before_any_work(demo_casino, dealer, monkeypatch):
    monkeypatch.setattr(decks, "deck_profile_build", lambda archive: pytest.fail("enrolled for a dealer"))
    with pytest.raises(PermissionDenied):
        decks.deck_design_enrol(casino=demo_casino.casino, name="X", archive=b"PK", actor=dealer)


def test_the_back_office_enrols_from_an_upload_and_refuses_an_auditor(scans, demo_casino, games_manager, auditor):
    url = "/admin/tables/deckdesign/add/"
    upload = SimpleUploadedFile("courts.zip", _named_zip(scans / "enrol", COURTS), content_type="application/zip")
    for user in (games_manager, auditor):  # the demo casino may have made these users with passwords of its own
        user.set_password(PASSWORD)
        user.save()
    manager = Client()
    assert manager.login(username=games_manager.username, password=PASSWORD)
    response = manager.post(url, {"casino": demo_casino.casino.pk, "name": "Courts", "archive": upload})
    assert response.status_code == 302 and "/login/" not in response["Location"], response
    assert DeckDesign.objects.get(name="Courts").created_by == games_manager
    bad = manager.post(url, {"casino": demo_casino.casino.pk, "name": "Junk",
                             "archive": SimpleUploadedFile("junk.zip", b"junk")})  # fmt: skip
    assert bad.status_code == 200 and "not a readable ZIP" in bad.content.decode()
    watcher = Client()
    assert watcher.login(username=auditor.username, password=PASSWORD)
    assert watcher.get(url).status_code == 403


def test_a_table_given_the_design_reads_its_court_letters_the_generic_reader_does_not(scans, demo_casino,
                                                                                     games_manager, dealer):
    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    api = client_for(dealer)
    labels = json.loads((scans / "read" / "labels.json").read_text())
    courts = [(i["code"], (scans / "read" / i["file"]).read_bytes()) for i in labels["images"] if i["code"] in COURTS]

    def read_all() -> tuple[int, int, int]:
        """How many court cards were recorded right; read right (recorded, or asked with the right card
        first: an unsure read the dealer confirms with one tap); and recorded as another card."""
        services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
        right = recorded_right = wrong = 0
        for code, data in courts:
            setup = {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]}
            rid = api.post(f"/api/tables/{table.pk}/rounds/", setup, format="json").json()["id"]
            upload = SimpleUploadedFile("scan.png", data, content_type="image/png")
            answer = api.post(f"/api/rounds/{rid}/scans/", {"image": upload}, format="multipart").json()
            recorded = list(RoundCard.objects.filter(round_id=rid).values_list("code", flat=True))
            first = answer["candidates"][0]["code"] if answer.get("candidates") else None
            recorded_right += recorded == [code]
            right += recorded == [code] or not recorded and first == code
            wrong += bool(recorded) and recorded != [code]
            api.post(f"/api/rounds/{rid}/cancel/", {"reason": "test"}, format="json")
        return recorded_right, right, wrong

    generic, _, _ = read_all()
    table.deck_design = decks.deck_design_enrol(casino=demo_casino.casino, name="VDR", actor=games_manager,
                                                archive=_labelled_zip(scans / "enrol"))  # fmt: skip
    table.save(update_fields=["deck_design"])
    _, enrolled, wrong = read_all()
    assert generic <= 6 and enrolled >= 11 and wrong == 0, (generic, enrolled, wrong)
