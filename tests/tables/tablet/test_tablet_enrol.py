"""Enrol a new deck at the tablet (Playwright, headless Chromium at 1280x800): a games manager uploads every
card of a generated deck (our own renders, ``vision.tools.synth``) in any order through the page; the real
reader names most cards, the page asks where it is unsure and the person answers with one tap; a card
scanned twice is said plainly; at the end the deck is learned and the table reads with it.  A dealer is
refused the page."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from tables.models import DeckDesign, EnrolmentSession, EnrolmentStatus
from tests.tables.services.test_enrolment import deck_scans
from tests.tables.tablet.test_tablet_rounds import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("TABLET_SCREENSHOTS")  # a folder (docs/img): the screens docs/tablet.md shows

# Loaded whole: a JPEG's naturalWidth is known from its header, before the rest has arrived (complete).
QUESTION_LOADED = (
    "() => { const i = document.getElementById('question-image'); return i.complete && i.naturalWidth > 0; }"
)


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / name))


def _upload(page: Any, path: Path, n: int) -> None:
    page.set_input_files("#scan-input", str(path))
    page.wait_for_selector(f"#enrol[data-scans='{n}']", timeout=30_000)


def _code(code: str) -> str:
    return "T" + code[2:] if code.startswith("10") else code


def test_a_games_manager_enrols_a_whole_deck_at_the_tablet_answering_where_the_reader_is_unsure(
        browser, live_server, demo_casino, games_manager, tmp_path):  # fmt: skip
    scans = deck_scans(tmp_path, seed=11, design=3)
    files = []
    for i, (code, image) in enumerate(scans):
        f = tmp_path / f"scan-{i:02d}.jpg"
        f.write_bytes(image)
        files.append((_code(code), f))
    random.Random(4).shuffle(files)  # any order
    table = demo_casino.tables["contract-rummy"]
    page = sign_in(browser, live_server, games_manager)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.click("#link-enrol")
    page.wait_for_selector("#start:not([hidden])")
    assert page.locator("[data-deck='jokers'].deck-option.on").count() == 1  # Contract Rummy's deck: with Jokers
    shot(page, "tablet-enrol-start.png")
    page.fill("#design-name", "Blue back 2026")
    page.click("#btn-start")
    page.wait_for_selector("#session:not([hidden])")
    asked, n, twice = 0, 0, False
    for i, (code, path) in enumerate(files):
        n += 1
        _upload(page, path, n)
        if page.is_visible("#question"):  # the reader is unsure: the person taps the card it is
            asked += 1
            assert page.locator(f"#deck-grid .cell.named[data-code='{code}']").count() == 0
            if asked == 1:
                page.wait_for_function(QUESTION_LOADED)
                shot(page, "tablet-enrol.png")
            guess = page.locator(f"[data-guess='{code}']")
            (guess if guess.count() else page.locator(f"#deck-grid .cell.pickable[data-code='{code}']")).first.click()
            page.wait_for_selector("#question", state="hidden")
        elif not twice and i >= 3:  # a card named surely, scanned again: said plainly, and dropped
            twice = True
            _upload(page, path, n + 1)
            assert page.inner_text("#message").startswith("You already scanned")
            page.wait_for_function(QUESTION_LOADED)
            shot(page, "tablet-enrol-twice.png")
            page.click("#btn-drop")
            page.wait_for_selector(f"#enrol[data-scans='{n}']")
        if i == 20:  # the session survives a reload
            page.reload()
            page.wait_for_selector(f"#enrol[data-scans='{n}']")
    assert asked >= 1
    assert page.inner_text("#progress") == "54 of 54 named · 0 missing"
    page.click("#btn-finish")
    page.wait_for_selector("#enrol[data-status='finished']", timeout=90_000)
    design = DeckDesign.objects.get(name="Blue back 2026")
    assert design.cards["JK"] == 2 and sum(design.cards.values()) == 54
    assert EnrolmentSession.objects.get().status == EnrolmentStatus.FINISHED
    page.click("#btn-assign")
    page.wait_for_selector("#done-text:has-text('now reads its cards with')")
    table.refresh_from_db()
    assert table.deck_design == design
    shot(page, "tablet-enrol-done.png")


def test_a_dealer_is_refused_the_enrolment_page_and_sees_no_link_to_it(browser, live_server, demo_casino, dealer):
    table = demo_casino.tables["unlimited-blackjack"]
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    assert page.locator("#link-enrol").count() == 0
    response = page.goto(f"{live_server.url}/tablet/tables/{table.pk}/enrol/")
    assert response.status == 403 and "needs a games manager" in page.inner_text("#refused")
