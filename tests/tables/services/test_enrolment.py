"""Deck enrolment at the tablet (services): a new deck scanned in any order is named by the generic reader
with the deck as the witness, the person answers where it is unsure, and the finished session stores the
design through the same path as a ZIP upload.  Scans are our own generator's (``vision.tools.synth``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from tables import services
from tables.engine.errors import InvalidInput
from tables.errors import Conflict
from tables.models import AuditEvent, Casino, DeckDesign, EnrolmentScan, EnrolmentStatus, Pit
from tables.services import decks, enrolment
from tables.services.scans import scan_read
from tests.factories import TableFactory
from vision.tools.synth import generate

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def deck(tmp_path_factory: Any) -> list[tuple[str, bytes]]:
    """A whole deck of one design (52 cards and two Jokers), as the generator renders it: (code, image)."""
    return deck_scans(tmp_path_factory.mktemp("enrol"), seed=11, design=3)


def deck_scans(root: Path, *, seed: int, design: int) -> list[tuple[str, bytes]]:
    """The 52 cards and two Jokers of one generated design (the generator deals its 53 codes in turn: the
    second Joker is the 106th scan)."""
    generate(root / "deck", "shoe", 106, seed=seed, design=design)
    labels = json.loads((root / "deck" / "labels.json").read_text())["images"]
    return [(i["code"], (root / "deck" / i["file"]).read_bytes()) for i in [*labels[:53], labels[105]]]


@pytest.fixture(scope="module")
def readings(deck: list[tuple[str, bytes]]) -> list[tuple[str, services.ScanReading]]:
    return [(code, scan_read(image)) for code, image in deck]


def _start(table: Any, actor: Any, name: str = "House deck", deck_slug: str = "jokers") -> Any:
    return enrolment.enrolment_start(table=table, name=name, deck_slug=deck_slug, actor=actor)


def _code(code: str) -> str:
    return "T" + code[2:] if code.startswith("10") else code


def test_a_whole_deck_in_any_order_is_named_asked_where_unsure_and_enrolled_as_a_zip_is(
        demo_casino, games_manager, readings, monkeypatch):  # fmt: skip
    table = demo_casino.tables["contract-rummy"]
    session = _start(table, games_manager)
    built = []
    real = decks.deck_profile_enrol
    monkeypatch.setattr(decks, "deck_profile_enrol", lambda *a, **k: built.append(k) or real(*a, **k))
    asked = 0
    for code, reading in reversed(readings):  # any order
        scan = enrolment.enrolment_scan(session=session, reading=reading, actor=games_manager)
        if scan.code:
            assert scan.code == _code(code) and scan.named_by == "reader" and scan.confidence >= 0.9
        else:
            asked += 1
            named = {s.code for s in session.scans.all()} - {""}
            assert not {g["code"] for g in scan.guesses} & named  # the cards named already are never offered
            enrolment.enrolment_name(session=session, seq=scan.seq, code=code, actor=games_manager)
    assert 0 < asked < 15  # the reader names most cards by itself; the person answers the rest
    design = enrolment.enrolment_finish(session=session, actor=games_manager)
    assert built and built[0]["meta"]["deck"] == "jokers"  # the one profile builder the ZIP path uses
    assert design.cards["JK"] == 2 and sum(design.cards.values()) == 54 and design.glyph_samples > 100
    session.refresh_from_db()
    assert session.status == EnrolmentStatus.FINISHED and session.design == design
    assert AuditEvent.objects.filter(action="deck.enrol", payload__design=design.pk).exists()  # as for a ZIP
    assert AuditEvent.objects.filter(action="deck.enrolment.finish").count() == 1
    assert AuditEvent.objects.filter(action="deck.enrolment.name").count() == asked
    with pytest.raises(Conflict, match="finished"):
        enrolment.enrolment_scan(session=session, reading=readings[0][1], actor=games_manager)
    # A second finish (a double tap, a retry whose answer was lost) answers the same design, writes nothing.
    designs = DeckDesign.objects.count()
    assert enrolment.enrolment_finish(session=session, actor=games_manager) == design
    assert len(built) == 1 and AuditEvent.objects.filter(action="deck.enrolment.finish").count() == 1
    assert DeckDesign.objects.count() == designs
    # The design goes to the table with the back office's rights: not the pit boss's.
    enrolment.enrolment_assign(session=session, table=table, actor=games_manager)
    table.refresh_from_db()
    assert table.deck_design == design and table.history.first().history_user == games_manager
    assert AuditEvent.objects.filter(action="table.deck_design", table=table).exists()


def test_a_card_scanned_twice_is_said_plainly_and_may_replace_the_first_or_be_dropped(demo_casino, games_manager,
                                                                                     readings):  # fmt: skip
    session = _start(demo_casino.tables["contract-rummy"], games_manager)
    code, reading = next((c, r) for c, r in readings if r.found and r.found[0]["confidence"] >= 0.99)
    first = enrolment.enrolment_scan(session=session, reading=reading, actor=games_manager)
    again = enrolment.enrolment_scan(session=session, reading=reading, actor=games_manager)
    assert first.code == _code(code) and again.code == "" and again.duplicate_of == _code(code)
    with pytest.raises(Conflict, match=r"you already scanned the .* \(scan 1\)"):
        enrolment.enrolment_name(session=session, seq=again.seq, code=code, actor=games_manager)
    enrolment.enrolment_name(session=session, seq=again.seq, code=code, replace=True, actor=games_manager)
    assert list(session.scans.values_list("seq", "code")) == [(2, _code(code))]  # the first one dropped
    third = enrolment.enrolment_scan(session=session, reading=reading, actor=games_manager)
    enrolment.enrolment_drop(session=session, seq=third.seq, actor=games_manager)
    assert list(session.scans.values_list("seq", flat=True)) == [2]


def test_undo_drops_the_last_scan_and_abandoning_ends_the_session(demo_casino, games_manager, readings,
                                                                  django_capture_on_commit_callbacks):
    session = _start(demo_casino.tables["contract-rummy"], games_manager)
    for _, reading in readings[:3]:
        enrolment.enrolment_scan(session=session, reading=reading, actor=games_manager)
    enrolment.enrolment_drop(session=session, actor=games_manager)
    assert list(session.scans.values_list("seq", flat=True)) == [1, 2]
    with pytest.raises(Conflict, match="52 cards are still missing"):
        enrolment.enrolment_finish(session=session, actor=games_manager)
    images = [(s.image.storage, s.image.name) for s in session.scans.all()]
    assert images and all(storage.exists(name) for storage, name in images)
    with django_capture_on_commit_callbacks(execute=True):
        enrolment.enrolment_abandon(session=session, actor=games_manager)
    session.refresh_from_db()
    assert session.status == EnrolmentStatus.ABANDONED and not DeckDesign.objects.exists()
    # No design will be made of an abandoned session's scans: their images are not kept.
    assert not session.scans.exists() and not any(storage.exists(name) for storage, name in images)
    assert AuditEvent.objects.get(action="deck.enrolment.abandon").payload["scans"] == 2
    with pytest.raises(Conflict, match="abandoned"):
        enrolment.enrolment_drop(session=session, actor=games_manager)
    _start(demo_casino.tables["contract-rummy"], games_manager, name="Second go")  # the table is free again


def test_bad_names_and_cards_are_refused_naming_the_field(demo_casino, games_manager, readings):
    table = demo_casino.tables["unlimited-blackjack"]
    with pytest.raises(InvalidInput) as err:
        _start(table, games_manager, deck_slug="tarot")
    assert err.value.field == "deck"
    with pytest.raises(InvalidInput) as err:
        _start(table, games_manager, name="  ")
    assert err.value.field == "name"
    session = _start(table, games_manager, deck_slug="standard")
    with pytest.raises(Conflict, match="already open"):
        _start(table, games_manager, name="Another")
    scan = enrolment.enrolment_scan(session=session, reading=readings[0][1], actor=games_manager)
    for code, message in (("ZZ", "bad card code"), ("JK", "not in a deck of 52 cards")):
        with pytest.raises(InvalidInput, match=message) as err:
            enrolment.enrolment_name(session=session, seq=scan.seq, code=code, actor=games_manager)
        assert err.value.field == "code"
    with pytest.raises(InvalidInput, match="no scan 9") as err:
        enrolment.enrolment_name(session=session, seq=9, code="2S", actor=games_manager)


@pytest.mark.parametrize("who", ["dealer", "pit_boss", "auditor"])
def test_only_a_games_manager_enrols_and_before_anything_is_read(demo_casino, games_manager, readings, who, request):
    actor = request.getfixturevalue(who)
    table = demo_casino.tables["unlimited-blackjack"]
    with pytest.raises(PermissionDenied, match="needs a games manager"):
        _start(table, actor)
    session = _start(table, games_manager)
    for call in (lambda: enrolment.enrolment_precheck(session=session, actor=actor),
                 lambda: enrolment.enrolment_scan(session=session, reading=readings[0][1], actor=actor),
                 lambda: enrolment.enrolment_drop(session=session, actor=actor),
                 lambda: enrolment.enrolment_abandon(session=session, actor=actor),
                 lambda: enrolment.enrolment_finish(session=session, actor=actor)):  # fmt: skip
        with pytest.raises(PermissionDenied):
            call()
    assert not EnrolmentScan.objects.exists()


def test_a_design_goes_only_to_a_table_of_its_casino_and_with_the_back_office_rights(demo_casino, games_manager,
                                                                                    pit_boss, tmp_path: Path):  # fmt: skip
    design = DeckDesign.objects.create(casino=demo_casino.casino, name="D", profile="x.profile", profile_sha256="0",
                                       created_by=games_manager)  # fmt: skip
    table = demo_casino.tables["bluffjack"]
    with pytest.raises(PermissionDenied):
        decks.table_deck_design_set(table=table, design=design, actor=pit_boss)
    other = TableFactory(pit=Pit.objects.create(casino=Casino.objects.create(name="Other casino"), name="P"))
    with pytest.raises(InvalidInput, match="belongs to") as err:
        decks.table_deck_design_set(table=other, design=design, actor=games_manager)
    assert err.value.field == "design"
    decks.table_deck_design_set(table=table, design=design, actor=games_manager)
    table.refresh_from_db()
    assert table.deck_design == design


def _complete(session: Any, actor: Any, image: bytes) -> None:
    """Every card of the session's deck named, straight in the database (one image for all: the profile
    builder is replaced where this is used)."""
    from django.core.files.base import ContentFile

    from tables.selectors.enrolment import missing_cards

    for seq, card in enumerate(missing_cards(session), start=1):
        scan = EnrolmentScan(session=session, seq=seq, sha256=f"{seq:064d}", code=card.code, named_by="person",
                             uploaded_by=actor)  # fmt: skip
        scan.image.save(f"{seq}.png", ContentFile(image), save=False)
        scan.save()


def test_the_readers_complaint_about_one_scan_is_said_of_that_scan_and_card(demo_casino, games_manager, deck,
                                                                            monkeypatch):  # fmt: skip
    session = _start(demo_casino.tables["bluffjack"], games_manager, deck_slug="standard")
    _complete(session, games_manager, deck[0][1])
    seven = session.scans.get(code="7H")

    def complaint(files: Any, labels: Any, **kwargs: Any) -> Any:
        name = next(i["file"] for i in labels["images"] if i["code"] == "7H")
        raise InvalidInput(f"{name}: no card found (give its corners in labels.json)", field="archive")

    monkeypatch.setattr(decks, "deck_profile_enrol", complaint)
    with pytest.raises(InvalidInput) as err:
        enrolment.enrolment_finish(session=session, actor=games_manager)
    assert err.value.field == "scans"
    assert err.value.message == (f"scan {seven.seq} (the 7 of hearts): no card found; drop it and scan that card "
                                 "again")  # fmt: skip
    session.refresh_from_db()
    assert session.status == EnrolmentStatus.OPEN and not DeckDesign.objects.exists()


def test_a_name_in_use_is_refused_at_the_start_and_a_clash_at_the_end_leaves_the_session_open(
        demo_casino, games_manager, deck, monkeypatch):  # fmt: skip
    session = _start(demo_casino.tables["bluffjack"], games_manager, name="Red back", deck_slug="standard")
    with pytest.raises(InvalidInput, match="already open at Table") as err:
        _start(demo_casino.tables["finnish-27"], games_manager, name="Red back")
    assert err.value.field == "name"
    _complete(session, games_manager, deck[0][1])
    fake = decks.EnrolledProfile(b"profile", "ab" * 32, {"2S": 1}, 3)
    monkeypatch.setattr(decks, "deck_profile_enrol", lambda *a, **k: fake)
    DeckDesign.objects.create(casino=demo_casino.casino, name="Red back", profile="x", profile_sha256="0",
                              created_by=games_manager)  # made meanwhile in the back office  # fmt: skip
    with pytest.raises(Conflict, match="already has a deck design named"):
        enrolment.enrolment_finish(session=session, actor=games_manager)
    session.refresh_from_db()
    assert session.status == EnrolmentStatus.OPEN
    with pytest.raises(InvalidInput, match="already has a deck design named"):
        _start(demo_casino.tables["finnish-27"], games_manager, name="Red back")
    design = enrolment.enrolment_finish(session=session, actor=games_manager, name="Red back, second")
    assert design.name == "Red back, second" and session.scans.count() == 52


def test_a_deck_with_finnish_indices_and_jokers_without_index_is_enrolled_as_such(demo_casino, games_manager,
                                                                                 tmp_path):  # fmt: skip
    from vision.profile import load_profile

    generate(tmp_path / "deck", "shoe", 106, seed=23, design=1, finnish=True)
    labels = json.loads((tmp_path / "deck" / "labels.json").read_text())["images"]
    table = demo_casino.tables["finnish-27"]
    session = _start(table, games_manager, name="Finnish deck", deck_slug="finnish")
    for item in [*labels[:53], labels[105]]:
        scan = enrolment.enrolment_scan(session=session, reading=scan_read((tmp_path / "deck" / item["file"]).read_bytes()),
                                        actor=games_manager)  # fmt: skip
        if scan.code:
            assert scan.code == _code(item["code"])
        else:
            enrolment.enrolment_name(session=session, seq=scan.seq, code=item["code"], actor=games_manager)
    design = enrolment.enrolment_finish(session=session, actor=games_manager)
    meta = load_profile(design.profile.path).meta
    assert meta["deck"] == "finnish" and meta["finnish_indices"] is True and meta["cards"]["JK"] == 2
