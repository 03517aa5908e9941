"""A round screen a dealer trusts (Playwright, headless Chromium at 1280x800): hands drawn as hands
(split hands side by side, labelled, with totals and marks), the hole card face down until the
dealer plays, the prompt and the buttons in words, errors in words, bet limits checked as entered,
unsure scans confirmed from the reader's guesses, shuffle and cancel confirmed with a reason."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from tables.models import Round, RoundCard, RoundState, ShuffleEvent
from tests.tables.tablet.test_tablet_rounds import (
    CODES,
    card_image,
    needs,
    open_finnish_round,
    pick,
    shuffle,
    sign_in,
    take_table,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("TABLET_SCREENSHOTS")  # a folder: the tests also save the screens docs/tablet.md shows


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.evaluate("() => { document.getElementById('toast').hidden = true; }")
        page.screenshot(path=str(Path(SHOTS) / name))


def unsure_recognise(image: Any) -> list[dict[str, Any]]:
    """The scan stand-in, unsure below 50%: "unknown" with the reader's guesses (the card, then the next code)."""
    b, g, _ = (int(v) for v in image[0, 0])
    corners = [[0, 0], [89, 0], [89, 119], [0, 119]]
    if g >= 50:
        return [{"code": CODES[b], "confidence": g / 100, "corners": corners}]
    guesses = [
        {"code": CODES[b], "confidence": g / 100},
        {"code": "JK", "confidence": g / 300},
        {"code": "XX", "confidence": 0.01},
    ]  # an invalid code is never offered
    return [{"code": "unknown", "confidence": g / 100, "corners": corners, "guesses": guesses}]


def open_blackjack(browser: Any, live_server: Any, table: Any, dealer: Any, chips: list[str]) -> Any:
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.click("#btn-take")
    shuffle(page)
    for chip in chips:
        page.click(f"[data-chip='{chip}']")
    page.click("#btn-open")
    needs(page, "card")
    return page


def test_split_hands_side_by_side_with_labels_totals_and_marks_and_the_hole_card_face_down_until_the_dealer_plays(
    browser, live_server, demo_casino, dealer
):
    table = demo_casino.tables["unlimited-blackjack"]
    page = open_blackjack(browser, live_server, table, dealer, ["3-main-500", "3-behind-500"])
    for code in ["8S", "6H", "8H", "TC"]:
        pick(page, code)
    needs(page, "decision")
    # The hole card is face down: a card back, its code nowhere on the hands; the dealer "shows 6".
    assert page.locator("#hands [data-hole='1']").is_visible()
    assert page.locator("#hands [data-code='TC']").count() == 0
    assert page.inner_text("[data-total='dealer']") == "shows 6"
    assert page.inner_text("#prompt") == "Seat 3: 16 against the dealer's 6 — hit, stand, double or split"
    assert [page.inner_text(f"[data-action='{a}']") for a in ("hit", "stand", "double", "split")] == [
        "Hit",
        "Stand",
        "Double",
        "Split",
    ]
    assert "behind 5.00, doubles along, follows both hands" in page.inner_text("[data-hand='seat:3']")
    # The shoe counter follows each card at once.
    page.wait_for_selector("#shoe-text:has-text(' 4 of ')")

    page.click("[data-action='split']")
    needs(page, "card")
    assert page.inner_text("#prompt") == "Seat 3, hand 1: deal the second card of the split hand"
    pick(page, "3D")
    page.click("[data-action='hit']")
    needs(page, "card")
    pick(page, "QC")
    page.click("[data-action='stand']")
    pick(page, "3C")
    assert page.inner_text("#prompt") == "Seat 3, hand 2: 11 against the dealer's 6 — hit, stand or double"
    page.click("[data-action='double']")
    needs(page, "card")
    assert page.inner_text("#prompt") == "Seat 3, hand 2: deal the card for the double"
    pick(page, "KD")
    needs(page, "card")  # the dealer's turn: the hole card turns over
    h1, h2 = page.locator("[data-sub='seat:3/hand:0']"), page.locator("[data-sub='seat:3/hand:1']")
    assert (
        h1.locator(".hand-label").inner_text() == "Hand 1"
        and h2.locator(".hand-label").inner_text() == "Hand 2"
    )
    assert [c.get_attribute("data-code") for c in h1.locator(".playing-card").all()] == ["8S", "3D", "QC"]
    assert [c.get_attribute("data-code") for c in h2.locator(".playing-card").all()] == ["8H", "3C", "KD"]
    assert h1.locator(".total").inner_text() == "21" and h2.locator(".total").inner_text() == "21"
    assert h2.locator(".mark.doubled").is_visible() and h1.locator(".mark.doubled").count() == 0
    # Both boxes in one evaluation: a poll may redraw the hands between two separate reads.
    b1, b2 = page.evaluate("""() => ['seat:3/hand:0', 'seat:3/hand:1'].map((k) => {
        const r = document.querySelector(`[data-sub='${k}']`).getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width }; })""")
    assert abs(b1["y"] - b2["y"]) < 2 and b2["x"] >= b1["x"] + b1["width"]  # side by side
    assert "hand:" not in page.inner_text("#round")
    assert page.locator("#hands [data-code='TC']").is_visible()
    assert page.inner_text("[data-total='dealer']") == "16"
    assert page.inner_text("#prompt") == "Dealer must hit: 16"
    pick(page, "9S")
    needs(page, "settle")
    assert page.inner_text("[data-total='dealer']") == "bust 25"

    doc = json.loads(
        page.evaluate(f"() => fetch('/api/rounds/{Round.objects.get(table=table).pk}/').then(r => r.text())")
    )
    hole = [c for c in doc["cards"] if c.get("hole")]
    assert (
        len(hole) == 1 and hole[0]["code"] == "TC" and hole[0]["face_up"] is True
    )  # revealed once the dealer plays


def test_the_round_document_says_the_hole_card_is_face_down(browser, live_server, demo_casino, dealer):
    table = demo_casino.tables["unlimited-blackjack"]
    page = open_blackjack(browser, live_server, table, dealer, ["1-main-500"])
    for code in ["9S", "5H", "9H"]:
        pick(page, code)
    assert page.inner_text("#prompt") == "Deal the dealer's hole card, face down"
    pick(page, "KC")
    page.wait_for_selector("#hands [data-hole='1']")
    assert page.locator("#hands [data-code='KC']").count() == 0
    doc = json.loads(
        page.evaluate(f"() => fetch('/api/rounds/{Round.objects.get(table=table).pk}/').then(r => r.text())")
    )
    hole = [c for c in doc["cards"] if c.get("hole")]
    assert hole and hole[0]["face_up"] is False and hole[0]["to"] == "dealer"
    assert doc["view"]["dealer"]["hole_face_down"] is True
    # Nor does the game recall show it while the round is open.
    page.click("#btn-recall")
    page.wait_for_selector("#recall-dialog[open] [data-hole='1']")
    assert page.locator("#recall-list [data-code='KC']").count() == 0


def test_an_unsure_scan_is_confirmed_from_the_readers_guesses(
    browser, live_server, demo_casino, dealer, monkeypatch, tmp_path
):
    from tables import services

    monkeypatch.setattr(services.scans, "recognise", unsure_recognise)
    table = demo_casino.tables["finnish-27"]
    page = open_finnish_round(browser, live_server, table, dealer)
    f = tmp_path / "unsure.png"
    f.write_bytes(card_image("9S", 30))
    page.set_input_files("#scan-input", str(f))
    page.wait_for_selector("#scan-confirm [data-confirm='9S']")
    box = page.inner_text("#scan-confirm")
    assert "undefined" not in box and "unknow" not in box and "XX" not in box
    guess = page.locator("[data-confirm='9S']")
    # The reader's 30%, weighed by what the shoe still holds (tables.engine.witness): about as likely.
    percent = re.search(r"(\d+)%", guess.inner_text())
    assert "9♠" in guess.inner_text() and percent is not None and 20 <= int(percent.group(1)) <= 40
    assert page.locator("[data-confirm='JK']").is_visible()  # Finnish 27 plays with Jokers
    shot(page, "tablet-unsure-scan.png")
    guess.click()
    page.wait_for_selector("#hands [data-code='9S']")
    assert page.is_hidden("#scan-confirm") and page.is_hidden("#error")
    card = RoundCard.objects.get(round__table=table)
    assert card.code == "9S" and card.scan is not None and card.recognised_code == ""


def test_a_joker_is_drawn_as_the_word_inside_its_card_and_read_out_in_words(browser, live_server, demo_casino, dealer):
    """Finnish 27 deals Jokers: the card says "Joker" (an emoji joker is a blank box or a speck where
    the tablet has no emoji font), and it fits its card."""
    from tests.tables.tablet.test_tablet_rounds import open_finnish_round

    page = open_finnish_round(browser, live_server, demo_casino.tables["finnish-27"], dealer)
    page.click("[data-rank='JK']")
    card = page.locator(".hands .playing-card[data-code='JK']")
    card.wait_for()
    assert card.inner_text().strip() == "Joker"
    box = card.bounding_box()
    assert card.evaluate("e => e.scrollWidth <= e.clientWidth"), box  # the word does not spill out of the card


def test_errors_are_shown_in_words_and_bet_limits_are_checked_as_entered(
    browser, live_server, demo_casino, dealer
):
    table = demo_casino.tables["unlimited-blackjack"]
    table.side_bet_max = 20
    table.save()
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.click("#btn-take")
    shuffle(page)
    assert "5 – 20" in page.inner_text("[data-seat='3'] .chip-row:nth-of-type(2)")  # (whole amounts: one line)
    page.click("[data-chip='3-main-500']")
    page.click("[data-chip='3-pp-2500']")
    assert page.inner_text("[data-limit='3-pp']") == "Perfect Pairs 25.00: above the table maximum of 20.00"
    assert page.is_disabled("#btn-open")

    # A tablet that believed a wider limit: the server refuses, and the dealer reads a sentence.
    def wider(route: Any) -> None:
        response = route.fetch()
        body = response.json()
        if isinstance(body, dict) and "limits" in body:
            body["limits"]["perfect-pairs"]["max"] = "1000.00"
        route.fulfill(response=response, json=body)

    page.route("**/api/tables/*/", wider)
    page.reload()
    page.click("[data-chip='3-main-500']")
    page.click("[data-chip='3-pp-2500']")
    page.click("#btn-open")
    page.wait_for_selector("#error:not([hidden])")
    text = page.inner_text("#error")
    assert text == "Seat 3 Perfect Pairs bet must be between 5.00 and 20.00 at this table."
    assert "seats[" not in text and "[" not in text
    assert page.get_attribute("#error", "data-field") == "seats[0].wagers.perfect-pairs"
    box = page.locator("#error").bounding_box()
    assert 0 <= box["y"] < 800  # in sight, though the dealer tapped Start round at the bottom of the page
    shot(page, "tablet-error.png")


def test_a_bet_behind_or_side_bet_at_a_seat_with_no_main_bet_is_flagged_not_dropped(
    browser, live_server, demo_casino, dealer
):
    # Found playing the tablet: 5.00 behind seat 4, which had no main bet, went nowhere: the round took
    # seats 2 and 6 and said nothing of it.
    table = demo_casino.tables["unlimited-blackjack"]
    page = take_table(browser, live_server, table, dealer)
    page.click("[data-chip='2-main-2500']")
    page.click("[data-chip='4-behind-500']")
    page.click("[data-chip='6-pp-500']")
    assert page.inner_text("[data-limit='4-behind']") == "Bet behind 5.00: no main bet at seat 4 to bet behind"
    assert page.inner_text("[data-limit='6-pp']") == "Perfect Pairs 5.00: no main bet at seat 6"
    assert page.is_disabled("#btn-open")
    page.click("[data-chip='6-main-2500']")  # a main bet at seat 6; seat 4's bet behind cleared
    page.click("[aria-label='clear Bet behind'] >> nth=3")
    assert page.locator("[data-limit]").count() == 0 and page.is_enabled("#btn-open")
    page.click("#btn-open")
    page.wait_for_selector("#prompt")
    doc = Round.objects.filter(table=table).latest("pk")
    assert sorted(w.seat for w in doc.wagers.all() if w.kind == "main" and w.behind is None) == [2, 6]


def test_shuffle_and_cancel_ask_for_confirmation_and_a_reason(browser, live_server, demo_casino, dealer):
    table = demo_casino.tables["unlimited-blackjack"]
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.click("#btn-take")
    page.wait_for_selector("#btn-take", state="hidden")
    shuffles = ShuffleEvent.objects.filter(table=table).count()
    page.click("#btn-shuffle")
    page.wait_for_selector("#shuffle-dialog[open]")
    page.click("[data-cmd='shuffle-close']")  # thought better of it: nothing happens
    page.wait_for_selector("#shuffle-dialog", state="hidden")
    assert ShuffleEvent.objects.filter(table=table).count() == shuffles
    shuffle(page, "cards exposed or dropped")
    assert ShuffleEvent.objects.filter(table=table).latest("at").reason == "cards exposed or dropped"

    page.click("[data-chip='2-main-500']")
    page.click("#btn-open")
    needs(page, "card")
    pick(page, "5S")
    page.click("#btn-cancel")
    page.wait_for_selector("#cancel-dialog[open]")
    page.click("[data-cmd='cancel-close']")  # keep playing
    page.wait_for_selector("#cancel-dialog", state="hidden")
    assert Round.objects.get(table=table).state == RoundState.IN_PLAY
    page.click("#btn-cancel")
    page.click("[data-cancel-reason='misdeal']")
    page.wait_for_selector("#round-state[data-state='cancelled']")
    assert Round.objects.get(table=table).state == RoundState.CANCELLED


def test_the_home_page_says_who_holds_each_table(browser, live_server, demo_casino, dealer):
    page = sign_in(browser, live_server, dealer)
    tiles = page.locator(".table-tile .holder")
    assert tiles.count() == len(demo_casino.tables)
    assert all("free" in t for t in tiles.all_inner_texts())
    # Limits in money where the house banks the game; Bluffjack is played in chips and Rummy for points
    # (they showed 1.00 – 100.00).
    limits = {slug: page.inner_text(f"[data-table='{t.pk}'] .limits") for slug, t in demo_casino.tables.items()}
    assert limits["bluffjack"] == "played in chips" and limits["contract-rummy"] == "scored in points"
    t = demo_casino.tables["mini-blackjack"]
    assert limits["mini-blackjack"] == f"{t.min_bet:.2f} – {t.max_bet:.2f}"
    page.click(f"[data-table='{demo_casino.tables['mini-blackjack'].pk}']")
    page.click("#btn-take")
    page.wait_for_selector("#btn-take", state="hidden")
    page.goto(f"{live_server.url}/tablet/")
    holder = page.locator(f"[data-table='{demo_casino.tables['mini-blackjack'].pk}'] .holder").inner_text()
    assert holder == f"held by {dealer.username} (you)"


def blurred_scan(code: str) -> bytes:
    """A generated photo of ``code`` (vision's synthetic shoe scan), heavily blurred: what an unsure read looks like."""
    import cv2
    import numpy as np

    from vision.tools.synth import random_style, shoe_image

    img, _ = shoe_image(code, np.random.default_rng(3), random_style(np.random.default_rng(3), finnish=True))
    ok, buf = cv2.imencode(".jpg", cv2.GaussianBlur(img, (0, 0), 3), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return bytes(buf)


def joker_or_king(image: Any) -> list[dict[str, Any]]:
    """The reader, unsure: "unknown", a Joker at 63% (what a blurred K♥ was offered as), then K♥."""
    corners = [[0, 0], [89, 0], [89, 119], [0, 119]]
    guesses = [{"code": "JK", "confidence": 0.63}, {"code": "KH", "confidence": 0.3}]
    return [{"code": "unknown", "confidence": 0.63, "corners": corners, "guesses": guesses}]


# Loaded whole: a JPEG's naturalWidth is known from its header, before the rest has arrived (complete).
SCAN_LOADED = (
    "() => { const i = document.querySelector('#scan-confirm img.scan-thumb'); return i && i.complete && i.naturalWidth > 0; }"
)


def scan_shown(page: Any) -> dict[str, Any]:
    """The unsure question's scan image: loaded or not, its size and where it and the guesses sit."""
    return page.evaluate("""() => {
        const img = document.querySelector('#scan-confirm img.scan-thumb');
        const box = (n) => { const r = n.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, height: r.height }; };
        return { src: img.getAttribute('src'), loaded: img.complete && img.naturalWidth > 0, image: box(img),
                 guesses: [...document.querySelectorAll('#scan-confirm [data-confirm]')].map(box),
                 drops: [...document.querySelectorAll('#scan-confirm [data-drop-scan]')].map(box),
                 ranks: [...document.querySelectorAll('#ranks [data-rank]')].map(box),
                 screen: window.innerHeight }; }""")


def test_the_unsure_question_shows_the_scan_beside_the_guesses_and_a_tap_enlarges_it(
    browser, live_server, demo_casino, dealer, monkeypatch, tmp_path
):
    from tables import services
    from tables.models import Scan

    monkeypatch.setattr(services.scans, "recognise", joker_or_king)
    table = demo_casino.tables["finnish-27"]
    page = open_finnish_round(browser, live_server, table, dealer)
    f = tmp_path / "blurred-kh.jpg"
    f.write_bytes(blurred_scan("KH"))
    page.set_input_files("#scan-input", str(f))
    page.wait_for_selector("#scan-confirm [data-confirm='JK']")
    page.wait_for_function(SCAN_LOADED)
    scan = Scan.objects.get(round__table=table)
    shown = scan_shown(page)
    # The stored scan, through the endpoint the pit boss's round detail uses (the dealer reads the round).
    assert shown["src"] == f"/api/scans/{scan.pk}/image/" and shown["loaded"]
    assert 160 <= shown["image"]["height"] <= 200  # the index corner can be seen
    # All on the 1280x800 screen: the scan, every guess and the ways out, nothing scrolled off.
    page.evaluate("() => document.getElementById('scan-confirm').scrollIntoView({ block: 'nearest' })")
    shown = scan_shown(page)
    assert len(shown["guesses"]) == 2 and len(shown["drops"]) == 2
    # And the picker's ranks below it, as before the scan was shown (the dealer picks there when no guess fits).
    for b in [shown["image"], *shown["guesses"], *shown["drops"], *shown["ranks"]]:
        assert 0 <= b["top"] and b["bottom"] <= shown["screen"]
    shot(page, "tablet-unsure-scan-image.png")
    # A tap shows it large; a tap on it (or Close) puts it away.
    page.click("#scan-confirm .scan-look")
    page.wait_for_selector("#scan-dialog[open]")
    width, height = page.locator("#scan-dialog-image").evaluate("i => [i.naturalWidth, i.height]")
    assert width > 0 and height > 300
    shot(page, "tablet-unsure-scan-large.png")
    page.click("#scan-dialog-image")
    page.wait_for_selector("#scan-dialog", state="hidden")
    page.click("#scan-confirm .scan-look")
    page.click("#scan-dialog [data-cmd='scan-close']")
    page.wait_for_selector("#scan-dialog", state="hidden")
    page.click("[data-confirm='KH']")
    page.wait_for_selector("#hands [data-code='KH']")
    assert page.is_hidden("#scan-confirm")
    assert RoundCard.objects.get(round__table=table).scan_id == scan.pk


def test_an_unsure_hole_card_shows_its_scan_in_the_question_and_stays_face_down_once_confirmed(
    browser, live_server, demo_casino, dealer, monkeypatch, tmp_path
):
    from tables import services

    table = demo_casino.tables["unlimited-blackjack"]
    page = open_blackjack(browser, live_server, table, dealer, ["1-main-500"])
    for code in ["9S", "5H", "9H"]:
        pick(page, code)
    assert page.inner_text("#prompt") == "Deal the dealer's hole card, face down"
    monkeypatch.setattr(services.scans, "recognise", joker_or_king)
    f = tmp_path / "hole.jpg"
    f.write_bytes(blurred_scan("KH"))
    page.set_input_files("#scan-input", str(f))
    page.wait_for_selector("#scan-confirm [data-confirm='KH']")
    page.wait_for_function(SCAN_LOADED)
    page.click("[data-confirm='KH']")
    page.wait_for_selector("#hands [data-hole='1']")
    assert page.is_hidden("#scan-confirm")
    # Otherwise the page keeps the hole card unnamed: face down on the hands, not in the toast.
    assert page.locator("#hands [data-code='KH']").count() == 0
    assert "K♥" not in page.inner_text("#toast")


def test_a_card_picked_offline_is_shown_as_sending_and_a_second_tap_records_it_once(
    browser, live_server, demo_casino, dealer
):
    # The walk-through's Mini Blackjack table: offline, K♦ tapped, nothing seemed to happen, K♦ tapped again;
    # back online both were recorded, the copy given to the next seat.
    table = demo_casino.tables["unlimited-blackjack"]
    page = open_blackjack(browser, live_server, table, dealer, ["3-main-500", "4-main-500"])
    page.context.set_offline(True)
    page.click("[data-rank='K']")
    page.click("[data-suit='D']")
    page.wait_for_selector("#net.bad")
    assert page.inner_text("#sending") == ("Sending K♦… the next card can be picked or scanned once it is "
                                           "recorded")  # fmt: skip
    assert page.locator("#scan-input").is_disabled()  # nor scanned: the scan would have queued behind it
    shot(page, "tablet-offline-sending.png")
    # The picker waits: the ranks, suits and the reader's guesses take no tap while the card is on its way.
    assert page.locator("[data-rank='K']").is_disabled() and page.locator("[data-suit='D']").is_disabled()
    page.locator("[data-rank='K']").dispatch_event("click")
    page.locator("[data-suit='D']").dispatch_event("click")  # a tap that lands anyway changes nothing
    page.context.set_offline(False)
    page.wait_for_selector("#sending", state="hidden", timeout=15_000)
    page.wait_for_function("document.querySelectorAll('.hands .playing-card').length === 1")
    r = Round.objects.get(table=table, state=RoundState.IN_PLAY)
    assert list(RoundCard.objects.filter(round=r).values_list("code", flat=True)) == ["KD"]
    # The next card goes on as usual.
    pick(page, "5C")
    assert list(RoundCard.objects.filter(round=r).order_by("seq").values_list("code", flat=True)) == ["KD", "5C"]


def test_a_scan_sent_offline_holds_the_picker_so_the_same_card_picked_is_not_recorded_twice(
    browser, live_server, demo_casino, dealer, monkeypatch, tmp_path
):
    # The walk-through: offline, K♦ scanned (nothing said), then K♦ picked; back online both were recorded.
    from tables import services
    from tests.tables.api.test_scan_card_by_card import cards_image, fake_recognise

    monkeypatch.setattr(services.scans, "recognise", fake_recognise)
    table = demo_casino.tables["unlimited-blackjack"]
    page = open_blackjack(browser, live_server, table, dealer, ["3-main-500", "4-main-500"])
    f = tmp_path / "kd.png"
    f.write_bytes(cards_image(("KD", 97)))
    page.context.set_offline(True)
    page.set_input_files("#scan-input", str(f))
    page.wait_for_selector("#net.bad")
    assert page.inner_text("#sending") == "Sending the scan… the next card can be picked or scanned once it is read"
    assert page.locator("[data-rank='K']").is_disabled() and page.locator("[data-suit='D']").is_disabled()
    page.locator("[data-rank='K']").dispatch_event("click")
    assert page.locator("#scan-input").is_disabled()
    page.locator("[data-suit='D']").dispatch_event("click")  # a tap that lands anyway changes nothing
    page.context.set_offline(False)
    page.wait_for_selector("#sending", state="hidden", timeout=15_000)
    page.wait_for_selector("#toast:has-text('Read K♦')")
    # No rank left chosen by a tap while it was sending: one suit tap recorded the card again.
    assert page.locator(".pick.rank.on").count() == 0 and page.locator("[data-suit='D']").is_disabled()
    r = Round.objects.get(table=table, state=RoundState.IN_PLAY)
    assert list(RoundCard.objects.filter(round=r).values_list("code", flat=True)) == ["KD"]
    # The same image chosen again is scanned again (it was dropped: the input still held it): the next card.
    page.set_input_files("#scan-input", str(f))
    page.wait_for_function("document.querySelectorAll('.hands .playing-card').length === 2")
    assert list(RoundCard.objects.filter(round=r).order_by("seq").values_list("code", flat=True)) == ["KD", "KD"]


def test_a_reader_who_does_not_deal_is_told_no_round_is_open_not_shown_a_blank_page(
    browser, live_server, demo_casino, dealer, auditor
):
    # The walk-through: the auditor's table picker said "free: tap to take it" on every table, and a table
    # without a round showed nothing below the shoe bar.
    from tables import services

    page = sign_in(browser, live_server, auditor)
    holders = page.locator("[data-holder]").all_inner_texts()
    assert holders and not [h for h in holders if "tap to take it" in h]
    table = demo_casino.tables["mini-blackjack"]
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.wait_for_selector("#idle:not([hidden])")
    assert page.inner_text("#idle") == "No round open at this table: the next round shows here as it opens."
    services.table_open(table=table, actor=dealer)
    page.reload()
    page.wait_for_selector("#idle:has-text('Held by')")
    assert page.inner_text("#idle") == f"No round open. Held by {dealer.username}: the next round shows here as it opens."
