"""The dealer scans a seat's cards in one image and the reader is unsure of one: the tablet records the
cards before it, asks about that card alone (cut out of the scan and outlined, its place named) and the
answer records the rest; a region that is not a card is dropped with "Not a card" and the scan goes on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tables.models import RoundCard
from tests.tables.api.test_scan_card_by_card import cards_image, fake_recognise
from tests.tables.tablet.test_tablet_rounds import needs, take_table


def _scan(page: Any, tmp_path: Path, *cards: tuple[str, int]) -> None:
    f = tmp_path / ("-".join(f"{c}{n}" for c, n in cards) + ".png")
    f.write_bytes(cards_image(*cards))
    page.set_input_files("#scan-input", str(f))


def _codes(table: Any) -> list[str]:
    return [c.code for c in RoundCard.objects.filter(round__table=table).order_by("seq")]


def _two_seats_open(browser: Any, live_server: Any, demo_casino: Any, dealer: Any, monkeypatch: Any) -> tuple[Any, Any]:
    """The Unlimited Blackjack table taken, seats 1 and 2 bet and the round opened, scans read by
    ``fake_recognise``: the table and the tablet's page."""
    from tables import services

    monkeypatch.setattr(services.scans, "recognise", fake_recognise)
    table = demo_casino.tables["unlimited-blackjack"]
    page = take_table(browser, live_server, table, dealer)
    page.click("[data-chip='1-main-500']")
    page.click("[data-chip='2-main-500']")
    page.click("#btn-open")
    return table, page


def test_a_scan_of_several_cards_asks_about_the_unsure_one_alone(
        browser, live_server, demo_casino, dealer, monkeypatch, tmp_path):
    table, page = _two_seats_open(browser, live_server, demo_casino, dealer, monkeypatch)
    needs(page, "card")
    _scan(page, tmp_path, ("8S", 97), ("TS", 60), ("9C", 97))
    page.wait_for_selector("#scan-confirm [data-confirm='TS']")
    ask = page.inner_text("#scan-confirm")
    assert "Unsure read of card 2 of 3 in the scan" in ask
    assert page.locator("#scan-confirm [data-confirm]").count() == 1  # the 10♠'s guess alone, not the 8♠ or 9♣
    assert page.inner_text("#toast").startswith("Read 8♠")
    assert _codes(table) == ["8S"]
    # The card asked about is cut out of the scan: the image scaled up, the outline drawn over it.
    crop = page.locator("#scan-confirm .scan-crop")
    page.wait_for_function("() => { const i = document.querySelector('#scan-confirm .scan-crop img');"
                           " return i && i.complete && i.style.width; }")
    frame, img = crop.bounding_box(), page.locator("#scan-confirm .scan-crop img").bounding_box()
    assert img["width"] > frame["width"]  # the whole scan is wider than the thumbnail: cut, not shrunk
    assert page.locator("#scan-confirm .scan-outline polygon").count() == 1
    page.click("#scan-confirm .scan-look")
    page.wait_for_selector("#scan-dialog[open] .scan-outline polygon")
    page.click("#scan-dialog [data-cmd='scan-close']")
    page.click("[data-confirm='TS']")
    page.wait_for_selector(".hands .playing-card[data-code='9C']")
    page.wait_for_selector("#toast:has-text('Then read 9♣ (97%)')")
    assert _codes(table) == ["8S", "TS", "9C"]
    assert page.is_hidden("#scan-confirm")
    # Seat 1's second card, a chip read as "unknown", and seat 2's second card.
    _scan(page, tmp_path, ("8H", 97), ("?", 30), ("7C", 97))  # (the chip's guess: a Q♥ at 30%)
    page.wait_for_selector("[data-drop-scan='not a card']")
    # Not recognised, perhaps no card: said so, its guess no surer than the reader is that a card lies there.
    assert page.inner_text("#scan-confirm .scan-ask p") == ("Card 2 of 3 in the scan was not recognised, perhaps not a "
                                                             "card: tap Not a card, or the card it is")  # fmt: skip
    assert page.inner_text("[data-confirm='QH'] .conf") == "30%"
    page.click("[data-drop-scan='not a card']")
    page.wait_for_selector(".hands .playing-card[data-code='7C']")
    assert _codes(table) == ["8S", "TS", "9C", "8H", "7C"]
    assert page.is_hidden("#scan-confirm")
    page.wait_for_selector("#toast:has-text('Then read 7♣ (97%)')")  # the card recorded after the answer, said
    needs(page, "card")  # the dealer's hole card


def test_a_joker_read_at_a_game_without_jokers_says_the_game_uses_none(
        browser, live_server, demo_casino, dealer, monkeypatch, tmp_path):
    # The walk-through's Mini Blackjack table said "the shoe holds no more of it" of a Joker.
    from tables import services

    monkeypatch.setattr(services.scans, "recognise", fake_recognise)
    table = demo_casino.tables["unlimited-blackjack"]
    page = take_table(browser, live_server, table, dealer)
    page.click("[data-chip='1-main-500']")
    page.click("#btn-open")
    needs(page, "card")
    _scan(page, tmp_path, ("8S", 97), ("JK", 97))
    page.wait_for_selector("#scan-confirm .scan-ask p")
    assert page.inner_text("#scan-confirm .scan-ask p") == (
        "Card 2 of 2 in the scan read as a Joker, but this game uses no Jokers: pick the card it is, or tap Not a card")
    assert _codes(table) == ["8S"]
    # Unsure too (60%): it said "tap the card it is" with no guess to tap (a Joker is none at this game).
    page.click("[data-drop-scan='not a card']")
    page.wait_for_selector("#scan-confirm", state="hidden")
    _scan(page, tmp_path, ("JK", 60))
    page.wait_for_selector("#scan-confirm .scan-ask p")
    assert page.locator("#scan-confirm [data-confirm]").count() == 0
    assert page.inner_text("#scan-confirm .scan-ask p") == (
        "The card looks like a Joker, but this game uses no Jokers: pick the card it is below, or tap No card was dealt")
    assert _codes(table) == ["8S"]


def test_an_unsure_scan_with_many_hands_drawn_keeps_the_question_and_the_picker_on_screen(
        browser, live_server, demo_casino, dealer, monkeypatch, tmp_path):
    # The walk-through at 1280x800: the question pushed the picker below the fold while saying "pick it below".
    from tables import services

    monkeypatch.setattr(services.scans, "recognise", fake_recognise)
    table = demo_casino.tables["unlimited-blackjack"]
    page = take_table(browser, live_server, table, dealer)
    for seat in range(1, 8):
        page.click(f"[data-chip='{seat}-main-500']")
    page.click("#btn-open")
    needs(page, "card")
    _scan(page, tmp_path, ("8S", 97), ("TS", 60))
    page.wait_for_selector("#scan-confirm [data-confirm='TS']")
    page.wait_for_timeout(300)  # the scroll waits for the next frame
    box = page.evaluate("""() => ['scan-confirm', 'picker'].map((id) => {
        const r = document.getElementById(id).getBoundingClientRect(); return [r.top, r.bottom]; })""")
    assert all(0 <= top and bottom <= 801 for top, bottom in box), box  # (sub-pixel)
    page.click("[data-rank='T']")
    page.click("[data-suit='S']")
    page.wait_for_selector("#scan-confirm", state="hidden")
    assert _codes(table) == ["8S", "TS"]


def test_a_scans_card_the_round_takes_no_card_for_is_asked_about_on_screen(
        browser, live_server, demo_casino, dealer, monkeypatch, tmp_path):
    # Found playing a fresh clone: a table photo of two cards where the dealer's one hit was wanted. Its
    # second card waited for an answer inside the scan area, which the page hides when no card is wanted
    # (only Stand, or Settle, left): the question was never on screen, and every tap was refused with
    # "Answer the unsure read ... first" although the read was sure.
    table, page = _two_seats_open(browser, live_server, demo_casino, dealer, monkeypatch)
    for k, code in enumerate(["8S", "9S", "6D", "8H", "7C", "TD"]):  # seat 1 8-8, seat 2 9-7, the dealer 6, the hole card
        needs(page, "card")
        _scan(page, tmp_path, (code, 97))
        page.wait_for_function("n => document.querySelectorAll('.hands .playing-card').length >= n", arg=k + 1)
    for seat in (1, 2):  # (each stand once its seat is asked: a click on the button just gone stood seat 1 twice)
        page.wait_for_selector(f"#prompt:has-text('Seat {seat}')")
        page.click("[data-action='stand']")
    needs(page, "card")  # the dealer draws to 16
    _scan(page, tmp_path, ("5C", 97), ("4C", 97))  # the 5♣ makes 21: the round takes no further card
    page.wait_for_selector(".hands .playing-card[data-code='5C']")
    page.wait_for_selector("#scan-confirm [data-drop-scan='not a card']")
    assert page.inner_text("#scan-confirm .scan-ask p") == (
        "Card 2 of 2 in the scan read 4♣, but the round takes no card now: tap Not a card or Scan the rest again")
    assert page.is_hidden("#scan-input >> xpath=..") and page.is_hidden("#picker")  # no card to scan or pick now
    assert page.locator("#scan-confirm [data-confirm]").count() == 0  # nor the read card to tap: it was refused
    page.click("#btn-settle")  # refused until it is answered, and said so as it is
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == "Card 2 of 2 in the scan read 4♣, but the round takes no card now: tap Not a card first."
    page.click("[data-drop-scan='not a card']")
    page.wait_for_selector("#scan-confirm", state="hidden")
    assert _codes(table) == ["8S", "9S", "6D", "8H", "7C", "TD", "5C"]
    page.click("#btn-settle")
    page.wait_for_selector("#settlement:not([hidden])")
