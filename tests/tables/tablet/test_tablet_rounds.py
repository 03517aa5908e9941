"""The dealer tablet in a real browser (Playwright driving the system Chromium, headless, 1280x800).

Card recognition here is a stand-in keyed by the image's pixels (``fake_recognise``): these tests pin
the tablet's scan flow — upload, stored image and hash, confidence shown, low-confidence
confirmation — while ``vision`` itself is tested in tests/vision.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tables.models import Round, RoundCard, RoundState, Scan
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CODES = [r + s for r in "A23456789TJQK" for s in "SHDC"] + ["JK"]


def card_image(code: str, confidence: int = 97) -> bytes:
    """A PNG whose first pixel encodes the card (B = index, G = confidence %)."""
    import cv2
    import numpy as np

    img = np.full((120, 90, 3), 255, dtype=np.uint8)
    img[0, 0] = (CODES.index(code), confidence, 0)
    ok, buf = cv2.imencode(".png", img)
    assert ok
    return bytes(buf)


def fake_recognise(image: Any) -> list[dict[str, Any]]:
    b, g, _ = (int(v) for v in image[0, 0])
    return [{"code": CODES[b], "confidence": g / 100, "corners": [[0, 0], [89, 0], [89, 119], [0, 119]]}]



def sign_in(browser: Any, live_server: Any, user: Any, locale: str | None = None) -> Any:
    user.set_password(PASSWORD)  # the demo casino may have made this user with its own password
    user.save()
    username = user.username
    # bypass_csp: Playwright's string predicates (wait_for_function) are eval'd in the page, which the
    # site's CSP forbids; the pages' own compliance is tests/tables/test_csp_browser.py's.
    context = browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True, bypass_csp=True,
                                  **({"locale": locale} if locale else {}))
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("requestfailed", lambda r: print("REQFAILED", r.method, r.url, r.failure))
    page.goto(f"{live_server.url}/tablet/")  # the tablet's own address: its sign-in comes back to it
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/tablet/")
    return page


def scan(page: Any, tmp_path: Path, code: str, confidence: int = 97) -> None:
    before = page.locator(".playing-card").count()
    f = tmp_path / f"{code}-{confidence}-{before}.png"
    f.write_bytes(card_image(code, confidence))
    page.set_input_files("#scan-input", str(f))
    if confidence >= 85:
        page.wait_for_function(f"document.querySelectorAll('.hands .playing-card').length > {before}")


def shuffle(page: Any, reason: str = "shuffle point reached") -> None:
    """Shuffle: the tablet asks for confirmation and a reason first."""
    page.click("#btn-shuffle")
    page.wait_for_selector("#shuffle-dialog[open]")
    page.click(f"[data-shuffle-reason='{reason}']")
    page.wait_for_selector("#toast:has-text('reshuffle')")


def pick(page: Any, code: str) -> None:
    """Tap the rank, then the suit.  A tap that lands while the previous command's answer redraws the page
    (a Stand's answer moves the picker up as the decision buttons go) hits what was there before and is
    lost, as a finger's would be: the rank is tapped again until the picker shows it chosen."""
    before = page.locator(".hands .playing-card").count()
    for attempt in range(3):
        page.click(f"[data-rank='{code[0]}']")
        try:
            page.wait_for_selector(f"[data-rank='{code[0]}'].on", timeout=3000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    page.click(f"[data-suit='{code[1]}']")
    page.wait_for_function(f"document.querySelectorAll('.hands .playing-card').length > {before}")


def keypad(page: Any, pay: str, typed: str) -> None:
    """The dealer taps the amount paid on one bet and types what was actually handed over."""
    page.click(f"[data-paid='{pay}']")
    page.wait_for_selector("#keypad-dialog[open]")
    page.click("[data-key='clear']")
    for key in typed:
        page.click(f"#keypad-dialog [data-key='{key}']")
    page.click("#keypad-ok")
    page.wait_for_selector("#keypad-dialog", state="hidden")


def needs(page: Any, what: str) -> None:
    page.wait_for_selector(f"#prompt[data-needs='{what}']")


def take_table(browser: Any, live_server: Any, table: Any, user: Any, *, shuffled: bool = True,
               locale: str | None = None) -> Any:
    """``user`` signs in, opens the table's page and takes the table; then shuffles (unless the game deals
    every hand from a fresh shoe, whose shuffle is recorded as each hand opens)."""
    page = sign_in(browser, live_server, user, locale)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.click("#btn-take")
    page.wait_for_selector("#btn-take", state="hidden")
    if shuffled:
        shuffle(page)
    return page


def open_finnish_round(browser: Any, live_server: Any, table: Any, dealer: Any) -> Any:
    """The dealer signs in, takes the Finnish 27 table, shuffles and opens a round of 10.00."""
    page = sign_in(browser, live_server, dealer)
    page.click(f"[data-table='{table.pk}']")
    page.click("#btn-take")
    page.wait_for_selector("#btn-take", state="hidden")
    shuffle(page)
    page.click("[data-chip='1-main-1000']")
    page.click("#btn-open")
    needs(page, "card")
    return page


def settle_a_folded_hand(page: Any) -> None:
    """Deal four cards, the forced raise, a fold; settle."""
    for code in ["TS", "9H", "7D", "8C"]:
        pick(page, code)
    page.click("[data-action='raise-1']")
    page.click("[data-action='fold']")
    needs(page, "settle")
    page.click("#btn-settle")


def open_bluffjack_hand(browser: Any, live_server: Any, table: Any, dealer: Any) -> Any:
    """The dealer signs in, takes the Bluffjack table and opens a hand of two seats of 10.00, seat 1
    dealing (no shuffle asked: every hand is dealt from a fresh shoe)."""
    page = take_table(browser, live_server, table, dealer, shuffled=False)  # a fresh shoe every hand
    page.click("[data-chip='1-main-1000']")
    page.click("[data-dealer='1']")
    page.click("[data-chip='2-main-1000']")
    page.click("#btn-open")
    needs(page, "card")
    return page


def test_a_dealer_plays_a_finnish_27_round_from_scans_and_the_999_bonus_waits_for_the_pit_boss(
    browser, live_server, demo_casino, dealer, pit_boss, monkeypatch, tmp_path
):
    from tables import services

    monkeypatch.setattr(services.scans, "recognise", fake_recognise)
    table = demo_casino.tables["finnish-27"]
    page = open_finnish_round(browser, live_server, table, dealer)
    for code in ["9S", "9C", "9H", "9D"]:
        scan(page, tmp_path, code)
    needs(page, "decision")
    assert "must hit" in page.inner_text("#prompt")
    # Beside the scan button: the card itself may be the hit, "Hit (must)" need not be tapped first.
    assert page.inner_text("#card-hit") == "A card scanned or picked now is the hit"
    page.click("[data-action='hit']")
    needs(page, "card")
    assert page.is_hidden("#card-hit")
    scan(page, tmp_path, "9D", confidence=55)  # low confidence: the dealer confirms
    page.click("[data-confirm='9D']")
    needs(page, "decision")
    page.click("[data-action='stand']")
    needs(page, "settle")
    page.click("#btn-settle")
    page.wait_for_selector("[data-bet='1/bonus']")
    assert "9990.00" in page.inner_text("[data-bet='1/bonus']")
    assert page.is_visible("#approval-flag")
    assert page.is_disabled("#btn-paid")

    boss = sign_in(browser, live_server, pit_boss)
    boss.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    boss.click("[data-reason='verified on camera']")
    boss.click("#btn-approve")
    boss.wait_for_selector("#approval-flag", state="hidden")

    page.wait_for_selector("#btn-paid:not([disabled])")  # the tablet polls and sees the approval
    page.click("#btn-paid")
    page.wait_for_selector("#closed-flag")
    rnd = Round.objects.get(table=table)
    assert rnd.state == RoundState.CLOSED
    assert rnd.paid == {"1": {"main": "10.00", "bonus": "9990.00"}}
    cards = list(RoundCard.objects.filter(round=rnd).order_by("seq"))
    assert [c.code for c in cards] == ["9S", "9C", "9H", "9D", "9D"]
    assert all(c.source == "scan" and len(c.image_sha256) == 64 for c in cards)
    assert cards[-1].confidence == pytest.approx(0.55)
    assert Scan.objects.filter(round=rnd).count() == 5


def test_a_blackjack_round_with_two_seats_a_split_a_bet_behind_and_a_mismatch_blocked_until_approved(
    browser, live_server, demo_casino, dealer, pit_boss
):
    table = demo_casino.tables["unlimited-blackjack"]
    page = take_table(browser, live_server, table, dealer)
    page.click("[data-chip='3-main-500']")
    page.click("[data-chip='3-main-500']")
    page.click("[data-chip='3-pp-500']")
    page.click("[data-chip='3-behind-500']")
    page.click("[data-chip='5-main-500']")
    page.click("[data-chip='5-main-500']")
    page.click("#btn-open")
    needs(page, "card")
    for code in ["8S", "7D", "6H", "8H", "TD", "TC"]:
        pick(page, code)
    needs(page, "decision")
    page.click("[data-action='split']")
    needs(page, "card")
    pick(page, "3D")
    page.click("[data-action='hit']")
    needs(page, "card")  # the hit is recorded; its card comes next
    pick(page, "QC")
    page.click("[data-action='stand']")
    pick(page, "9C")
    page.click("[data-action='stand']")
    page.wait_for_selector("#prompt:has-text('Seat 5')")
    page.click("[data-action='stand']")
    pick(page, "9S")
    needs(page, "settle")
    page.click("#btn-settle")
    page.wait_for_selector("[data-bet='3/perfect-pairs']")
    assert "30.00" in page.inner_text("[data-bet='3/perfect-pairs']")
    # The dealer hands over 5.00 too little on the Perfect Pairs.
    page.click("[data-paid='3/perfect-pairs']")
    assert page.inner_text("#keypad-title") == "Seat 3 Perfect Pairs: due 30.00"  # (it read "perfect pairs")
    page.keyboard.press("Escape")
    keypad(page, "3/perfect-pairs", "25")
    assert page.inner_text("[data-paid='3/perfect-pairs']") == "25.00"
    page.click("#btn-paid")
    page.wait_for_selector("#mismatch:has-text('due 30.00')")
    assert Round.objects.get(table=table).state == RoundState.MISMATCH
    assert page.locator("#btn-next").count() == 0  # blocked: no next round

    boss = sign_in(browser, live_server, pit_boss)
    boss.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    boss.click("[data-reason='player accepted the amount']")
    boss.click("#btn-approve")
    page.wait_for_selector("#closed-flag")
    assert "approved short payment by pitboss: player accepted the amount" in page.inner_text("#closed-flag")
    assert "(Seat 3 Perfect Pairs bet paid 25.00 of 30.00)" in page.inner_text("#closed-flag")  # the seat as everywhere
    rnd = Round.objects.get(table=table)
    assert rnd.state == RoundState.CLOSED
    assert rnd.approvals.get().approved_by == pit_boss


def test_the_picker_stays_in_sight_when_a_split_widens_the_seat(browser, live_server, demo_casino, dealer):
    # Found playing the tablet at 1280x800: seats 1, 3 and 5, seat 1 split 8-8; its two hands widened the seat,
    # seat 5 dropped to a second row, and the rank buttons stood below the screen while the prompt asked
    # for the split hand's card.
    table = demo_casino.tables["unlimited-blackjack"]
    page = take_table(browser, live_server, table, dealer)
    for chip in ("1-main-2500", "1-pp-500", "1-behind-500", "3-main-500", "3-t3-500", "5-main-500"):
        page.click(f"[data-chip='{chip}']")
    page.click("#btn-open")
    needs(page, "card")
    for code in ["8S", "6H", "TC", "7D", "8D", "5C", "9C", "QH"]:  # seats 1, 3, 5, the dealer; again
        pick(page, code)
    page.wait_for_selector("#prompt:has-text('Seat 1')")
    page.click("[data-action='split']")
    needs(page, "card")
    pick(page, "3H")  # the first hand's second card: 11, doubled
    page.click("[data-action='double']")
    needs(page, "card")
    pick(page, "9C")
    page.wait_for_selector("#prompt:has-text('hand 2')")  # the second hand's card is wanted
    page.wait_for_timeout(300)  # the scroll waits for the next frame
    # Both in sight: the prompt and the picker (before, the picker stood below the fold, or, where a tap
    # had scrolled to it, the prompt above the top).
    for sel in ("#prompt", "#picker"):
        box = page.locator(sel).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 801, (sel, box)


def test_double_then_scan_card_doubles_the_bet(browser, live_server, demo_casino, dealer, monkeypatch, tmp_path):
    """The dealer taps Double, then deals and scans the card: a doubled hand, not a hit."""
    from tables import services

    monkeypatch.setattr(services.scans, "recognise", fake_recognise)
    table = demo_casino.tables["unlimited-blackjack"]
    page = take_table(browser, live_server, table, dealer)
    page.click("[data-chip='1-main-500']")
    page.click("[data-chip='1-main-500']")
    page.click("#btn-open")
    needs(page, "card")
    for code in ["5S", "9C", "6H", "TD"]:
        scan(page, tmp_path, code)
    needs(page, "decision")
    page.click("[data-action='double']")
    needs(page, "card")
    assert "double" in page.inner_text("#prompt")
    # The seat says the stake now at risk, as the engine has it (not the main bet as entered).
    assert page.inner_text("[data-hand='seat:1'] .wagers") == "main bet 10.00, doubled to 20.00"
    scan(page, tmp_path, "9D")
    needs(page, "settle")
    assert page.inner_text("[data-hand='seat:1'] .wagers") == "main bet 10.00, doubled to 20.00"
    page.click("#btn-settle")
    page.wait_for_selector("[data-bet='1/main']")
    assert "20.00" in page.inner_text("[data-bet='1/main']")
    rnd = Round.objects.get(table=table)
    assert list(rnd.decisions.values_list("action", flat=True)) == ["double"]
    assert rnd.due == {"1": {"main": "20.00"}}


def test_the_round_survives_a_reload(browser, live_server, demo_casino, dealer):
    table = demo_casino.tables["mini-blackjack"]
    page = take_table(browser, live_server, table, dealer)
    page.click("[data-chip='1-main-500']")
    page.click("#btn-open")
    for code in ["TS", "6D", "7H", "9C"]:
        pick(page, code)
    needs(page, "decision")
    page.reload()
    needs(page, "decision")
    assert page.locator(".hands .playing-card").count() == 4
    assert page.is_visible("#hint")  # Mini Blackjack hints


def test_a_reload_right_after_paying_still_shows_the_round_just_closed_until_the_next(
        browser, live_server, demo_casino, dealer):
    """The dealer pays, then the tablet reloads: the round just closed is still there with its result
    (not only in the recall) until the dealer taps Next round; the recall says when each round opened in
    the dashboard's words, whatever the browser's locale (en-US would write "Thu, Nov 26")."""
    from django.utils import timezone

    from tables.days import moment_text

    table = demo_casino.tables["mini-blackjack"]
    page = take_table(browser, live_server, table, dealer, locale="en-US")
    page.click("[data-chip='1-main-500']")
    page.click("#btn-open")
    for code in ["TS", "6D", "7H", "9C"]:
        pick(page, code)
    page.click("[data-action='stand']")  # 17 against the dealer's 15
    pick(page, "TD")  # the dealer busts
    needs(page, "settle")
    page.click("#btn-settle")
    page.click("#btn-paid")
    page.wait_for_selector("#closed-flag")
    page.reload()
    page.wait_for_selector("#closed-flag")
    assert page.inner_text("#closed-flag") == "Round closed: paid as due"
    assert page.inner_text("#round-title") == "Round 1" and page.locator("[data-bet='1/main']").count() == 1
    assert page.is_visible("#btn-open")  # the next round's bets may be entered at once
    rnd = Round.objects.get(table=table)
    page.click("#btn-recall")
    page.wait_for_selector("#recall-dialog[open]")
    when = moment_text(timezone.localtime(rnd.opened_at))
    assert page.inner_text("[data-recall-round='1']") == f"Round 1 · closed · {when}"
    # The bets in the settlement table's words, not the API's keys ("seat 1 main win 5.00").
    assert page.inner_text("[data-recall-lines='1']") == "Seat 1 Main bet: win 5.00"
    assert page.inner_text("[data-recall-paid='1']") == "Paid seat 1 Main bet 5.00"
    page.click("[data-cmd='recall-close']")
    page.click("#btn-next")  # put away: a reload does not bring it back
    page.wait_for_selector("#round", state="hidden")
    page.reload()
    page.wait_for_selector("#btn-open")
    page.wait_for_timeout(500)
    assert page.is_hidden("#round")


def test_a_bluffjack_hand_on_the_tablet_shows_the_pot_and_resolves_it(browser, live_server, demo_casino, dealer):
    from tables.models import AuditEvent, BluffjackGame

    page = open_bluffjack_hand(browser, live_server, demo_casino.tables["bluffjack"], dealer)
    assert "pot 2" in page.inner_text("#prompt")
    for code in ["TS", "9H", "7D", "8C"]:
        pick(page, code)
    # Each player's first card is private: a card back, counted, its code nowhere on the screen.
    assert page.locator("#hands [data-private='1']").count() == 2
    assert page.locator("#hands [data-code='TS']").count() == 0 and page.locator("#hands [data-code='9H']").count() == 0
    assert page.inner_text("#pot-chips") == "2 chips"
    page.click("[data-action='raise-1']")  # the forced raise left of the dealer
    page.wait_for_selector("[data-action='fold']")
    page.click("[data-action='fold']")
    needs(page, "settle")
    page.click("#btn-settle")
    page.wait_for_selector("[data-bet='2/pot']")
    assert "fold" in page.inner_text("[data-bet='2/pot']")
    # In chips, as the stacks and the pot are (it read 2.00 and 1.00 beside "2 chips").
    assert ".00" not in page.inner_text("#settlement")
    assert page.inner_text("[data-pay-seat='2'] .due") == "1"
    assert page.inner_text("[data-paid='2/pot']") == "1"
    # Paid as due, the round closes; the next hand starts from the stacks this one left.
    page.click("#btn-paid")
    page.wait_for_selector("#bj-game")  # one button deals the next hand: no "Next round" first
    assert page.locator("#btn-next").count() == 0 and page.locator("#btn-next-hand").count() == 1
    # The stacks are redrawn when the server answers: wait for them rather than read at once.
    page.wait_for_function("document.querySelector(\"[data-stack='Seat 1']\")?.innerText.includes('9 chips')")
    assert "9 chips" in page.inner_text("[data-stack='Seat 1']")
    assert "11 chips" in page.inner_text("[data-stack='Seat 2']")
    assert "Seat 2 deals" in page.inner_text("#bj-game")
    page.click("#btn-next-hand")
    needs(page, "card")
    assert "pot 2" in page.inner_text("#prompt")
    # The stacks as they stand: the antes have left them for the pot.
    assert "stack 8 · in the pot 1" in page.inner_text("[data-hand='seat:1']")
    assert "stack 10 · in the pot 1" in page.inner_text("[data-hand='seat:2'] .wagers")
    assert "deals" in page.inner_text("[data-hand='seat:2']")
    assert page.locator("[data-hand='dealer']").count() == 0  # a pot game: no dealer's hand
    # Ending the game is asked first, with a reason: one tap under "Deal next hand" ended it.
    settle_a_folded_hand(page)
    page.wait_for_selector("[data-pay-seat='1']")
    page.click("#btn-paid")
    page.wait_for_selector("#btn-end-game")
    page.click("#btn-end-game")
    page.wait_for_selector("#end-game-dialog[open]")
    page.click("[data-cmd='end-game-close']")
    assert BluffjackGame.objects.get(table=demo_casino.tables["bluffjack"]).state == "playing"
    assert page.locator("#btn-next-hand").count() == 1
    page.click("#btn-end-game")
    page.click("[data-end-reason='table closing']")
    page.wait_for_selector("#btn-end-game", state="detached")
    assert BluffjackGame.objects.get(table=demo_casino.tables["bluffjack"]).state == "ended"
    page.wait_for_selector("#game-over")
    assert re.fullmatch(r"Game 1 ended early: Seat 1 \d+ chips, Seat 2 \d+ chips", page.inner_text("#game-over"))
    assert AuditEvent.objects.filter(action="bluffjack.game.end", payload__reason="table closing").count() == 1


def test_contract_rummy_a_deal_played_on_the_tablet_and_the_score_sheet_across_a_reload(
        browser, live_server, demo_casino, dealer):
    from tables.models import AuditEvent, RummyGame
    from tables.services import rummy as services_rummy
    from tests.tables.api.test_rummy_games import ANN, BOB, CY, UPCARD, shoe_order

    table = demo_casino.tables["contract-rummy"]
    page = take_table(browser, live_server, table, dealer, shuffled=False)  # the game keeps its own stock
    page.click("[data-rummy-count='3']")
    page.click("[data-rummy-first='2']")
    page.click("#rummy-start")
    page.wait_for_selector("[data-rummy-action='start_deal']")
    # The shuffler's read-out of the shoe (known cards) rather than the server's shuffle.
    services_rummy.rummy_deal_start(game=RummyGame.objects.get(table=table), shoe_order=shoe_order(ANN, BOB, CY),
                                    actor=dealer)  # fmt: skip
    page.reload()
    page.wait_for_selector("#rummy-prompt:has-text('Player 1')")
    assert page.is_hidden("#shoe-text") and page.is_hidden("#btn-shuffle")  # no shoe bar: the game keeps its stock
    assert page.inner_text("#rummy-reveal") == "Show Player 1's cards"  # to take the upcard or not: no discard yet
    page.click("[data-rummy-action='take_discard']")
    page.wait_for_selector("#rummy-reveal:has-text('to lay down or discard')")
    assert page.locator("[data-hand-card]").count() == 0  # the hands are face down: counts only
    assert page.inner_text("[data-count='Player 2']") == "Player 2: 10 cards"
    page.click("#rummy-end")  # mid-deal, ending says the deal in play goes unscored; kept playing
    assert "Deal 1 is not finished: it is not scored." in page.inner_text("#rummy-end-dialog")
    page.click("#rummy-end-close")
    page.click("#rummy-reveal")  # the player in turn lays down: the dealer shows that hand
    page.wait_for_selector(f"[data-hand-card='{UPCARD}']")
    # Nothing selected yet: the button says what to do (it read "Lay down the 0 selected"); laying down is
    # the player's choice, not an order.
    assert page.inner_text("[data-rummy-action='lay_down']") == "Lay down: select the cards first"
    assert page.is_disabled("[data-rummy-action='lay_down']")
    assert page.inner_text("#rummy-prompt") == "Player 1: lay down the contract if you can, then discard"
    for i in range(10):  # Player 1's ten cards: two sets of five
        page.click(f"[data-hand-index='{i}']")
    page.click("[data-rummy-action='lay_down']")
    page.wait_for_selector("[data-meld='1']")
    page.click(f"[data-hand-card='{UPCARD}']")
    page.click("[data-rummy-action='discard']")
    page.wait_for_selector("[data-rummy-action='start_deal']")
    assert page.inner_text("[data-sheet='Player 2']").split()[-1] == "67"
    page.reload()
    page.wait_for_selector("[data-sheet='Player 2']")
    assert page.inner_text("[data-sheet='Player 1']").split() == ["Player", "1", "0", "0"]
    assert page.inner_text("[data-sheet='Player 3']").split()[-1] == "67"
    assert "deal 1 of 7" in page.inner_text("#rummy-title") and "Player 1 deals" in page.inner_text("#rummy-title")
    # The players leave after deal 1: the game is ended from the tablet, asked first, with a reason.
    page.click("#rummy-end")
    page.wait_for_selector("#rummy-end-dialog[open]")
    assert "is not scored" not in page.inner_text("#rummy-end-dialog")  # deal 1 is scored, deal 2 not begun
    page.click("#rummy-end-close")
    assert RummyGame.objects.get(table=table).state == "playing"
    page.click("#rummy-end")
    page.click("[data-rummy-end='players left the table']")
    page.wait_for_selector("#rummy-new:not([hidden])")
    game = RummyGame.objects.get(table=table)
    assert game.state == "ended" and game.scores["Player 2"] == [67]
    assert AuditEvent.objects.filter(action="rummy.game.end", payload__reason="players left the table").count() == 1
    assert "ended" in page.inner_text("#rummy-title").lower() and "deals" not in page.inner_text("#rummy-title")
    assert "on" in page.get_attribute("[data-rummy-count='3']", "class").split()  # the next game: 3 players, as this one
    page.reload()
    page.wait_for_selector("#rummy-new:not([hidden])")
    assert "on" in page.get_attribute("[data-rummy-count='3']", "class").split()
    assert page.inner_text("[data-sheet='Player 2']").split()[-1] == "67"  # the sheet so far stays


def test_an_unsure_scan_is_asked_again_after_a_reload_and_the_card_picked_keeps_the_scan(
    browser, live_server, demo_casino, dealer, monkeypatch, tmp_path
):
    """The tablet reloads while the dealer is asked about an unsure read: the question comes back with
    the round (the server's pending_scan), and the card confirmed then is recorded with that scan."""
    from tables import services

    monkeypatch.setattr(services.scans, "recognise", fake_recognise)
    table = demo_casino.tables["finnish-27"]
    page = open_finnish_round(browser, live_server, table, dealer)
    scan(page, tmp_path, "7C", confidence=60)
    page.wait_for_selector("[data-confirm='7C']")
    page.reload()
    page.wait_for_selector("[data-confirm='7C']")
    assert "Unsure read" in page.inner_text("#scan-confirm")
    page.click("[data-confirm='7C']")
    page.wait_for_selector(".hands .playing-card[data-code='7C']")
    assert page.is_hidden("#scan-confirm")
    card = RoundCard.objects.get(round__table=table, code="7C")
    assert card.scan_id == Scan.objects.get(round=card.round).pk
    page.reload()  # answered: nothing waits any more
    needs(page, "card")
    page.wait_for_selector(".hands .playing-card[data-code='7C']")
    assert page.is_hidden("#scan-confirm")


def test_a_scan_while_an_unsure_read_waits_is_refused_and_the_question_stays(
    browser, live_server, demo_casino, dealer, monkeypatch, tmp_path
):
    """The tester's Bluffjack hand: seat 2's 10♠ is read unsure (69%) and the dealer scans the next card
    (9♣) instead of answering.  The server refuses it naming the question; the tablet says so and keeps
    the question, so the 10♠ is not lost and the 9♣ does not land on seat 2.  "Scan it again" drops the
    unsure scan and the card is scanned anew."""
    from tables import services

    monkeypatch.setattr(services.scans, "recognise", fake_recognise)
    table = demo_casino.tables["bluffjack"]
    page = open_bluffjack_hand(browser, live_server, table, dealer)
    scan(page, tmp_path, "TS", confidence=69)
    page.wait_for_selector("[data-confirm='TS']")
    (tmp_path / "9C.png").write_bytes(card_image("9C", 97))
    page.set_input_files("#scan-input", str(tmp_path / "9C.png"))  # not the answer: a further scan
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == "Answer the unsure read of seat 2's card first: 10♠?"
    assert page.is_visible("[data-confirm='TS']")
    assert not RoundCard.objects.filter(round__table=table).exists()
    page.click("[data-drop-scan='scan the card again']")
    page.wait_for_selector("#scan-confirm", state="hidden")
    scan(page, tmp_path, "TS", confidence=97)
    assert [c.code for c in RoundCard.objects.filter(round__table=table).order_by("seq")] == ["TS"]
    assert RoundCard.objects.get(round__table=table).to.endswith("Seat 2")


def test_contract_rummy_a_refused_lay_down_is_told_in_words_without_the_rule_id(browser, live_server, demo_casino, dealer):
    """The dealer lays down cards that do not make the contract: the refusal is a sentence; the rule id
    and the field path are kept for support (data attributes), not printed in the text."""
    table = demo_casino.tables["contract-rummy"]
    page = take_table(browser, live_server, table, dealer, shuffled=False)  # the game keeps its own stock
    page.click("[data-rummy-count='3']")
    page.click("#rummy-start")
    page.click("[data-rummy-action='start_deal']")
    page.click("[data-rummy-action='take_discard']")
    page.click("#rummy-reveal")
    page.click("[data-hand-index='0']")
    page.click("[data-rummy-action='lay_down']")
    page.wait_for_selector("#error:not([hidden])")
    text = page.inner_text("#error")
    assert text.startswith("One card cannot be split into exactly two sets"), text
    assert "[" not in text and "rummy." not in text and text.endswith("."), text
    assert page.get_attribute("#error", "data-rule").startswith("rummy."), page.get_attribute("#error", "data-rule")
    # While a command is on its way the game's buttons are disabled (a tap would be dropped), then back.
    import time

    page.route("**/actions/", lambda route: (time.sleep(1.5), route.continue_()))
    page.click("[data-rummy-action='discard']")
    assert page.locator("[data-rummy-action]:enabled").count() == 0
    page.wait_for_selector("[data-rummy-action]:enabled")
    assert page.locator("#error").is_hidden()


def test_contract_rummy_a_contract_is_checked_without_recording_it(browser, live_server, demo_casino, dealer):
    table = demo_casino.tables["contract-rummy"]
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.click("#rummy summary")
    for code in ["7S", "7H", "7D", "KC", "KD", "KH"]:
        page.click(f"[data-rummy-rank='{code[0]}']")
        page.click(f"[data-rummy-suit='{code[1]}']")
    page.click("#rummy-target-hand")
    page.click("[data-rummy-rank='A']")
    page.click("[data-rummy-suit='S']")
    page.click("#rummy-check")
    page.wait_for_selector("#rummy-result:has-text('contract met')")
    # the cards as faces, as the picker and the hands show them (they read "7S 7H 7D", "AS 15")
    assert page.inner_text("[data-rummy='laid']") == "Laid down: 7♠ 7♥ 7♦ K♣ K♦ K♥"
    assert "Hand: A♠ 15" in page.inner_text("#rummy-result")


def test_a_refused_card_is_named_as_its_face_in_the_error(browser, live_server, demo_casino, dealer):
    # Found playing the tablet: "Card: impossible card QD: the shoe holds ..." (the code, not Q♦).
    page = open_bluffjack_hand(browser, live_server, demo_casino.tables["bluffjack"], dealer)
    pick(page, "TS")
    page.click("[data-rank='T']")
    page.click("[data-suit='S']")  # the one-deck shoe holds no second 10♠
    page.wait_for_selector("#error:not([hidden])")
    text = page.inner_text("#error")
    assert "10♠" in text and "TS" not in text, text


def test_an_unsure_read_of_a_card_the_shoe_holds_no_more_of_says_so(
        browser, live_server, demo_casino, dealer, monkeypatch, tmp_path):
    # Found playing the tablet: an unsure Q♦ when every Q♦ was dealt asked "Unsure read: pick the card it
    # is below" with no guess, and no word of why.
    from tables import services

    monkeypatch.setattr(services.scans, "recognise", fake_recognise)
    page = open_bluffjack_hand(browser, live_server, demo_casino.tables["bluffjack"], dealer)
    pick(page, "QD")
    scan(page, tmp_path, "QD", confidence=60)  # the one-deck shoe holds no second Q♦
    page.wait_for_selector("#scan-confirm .scan-ask p")
    assert page.locator("#scan-confirm [data-confirm]").count() == 0
    assert page.inner_text("#scan-confirm .scan-ask p") == (
        "Unsure read (Q♦?, but the shoe holds no more of it): pick the card it is below")


def test_a_bluffjack_stack_is_entered_in_whole_chips(browser, live_server, demo_casino, dealer):
    table = demo_casino.tables["bluffjack"]
    page = take_table(browser, live_server, table, dealer, shuffled=False)
    page.click("[data-chip='1-main-5000']")
    page.click("[data-chip='1-main-1000']")
    assert page.inner_text("[data-amount='1-main']") == "60"  # chips, not money ("60.00")
    page.click("[data-dealer='1']")
    page.click("[data-chip='2-main-1000']")
    page.click("#btn-open")
    needs(page, "card")
    rnd = Round.objects.get(table=table)
    assert {s["player"]: s["stack"] for s in rnd.setup["seats"]} == {"Seat 1": 60, "Seat 2": 10}


def settle_an_all_in_hand(table: Any, dealer: Any) -> Round:
    """Through the services: the dealer takes the Bluffjack table and plays a hand of Ann and Bob, 2 chips
    each, Ann dealing; Bob's forced raise puts him all in, Ann calls all in, both stand: Bob's 19 beats
    Ann's 17. The hand is settled, not yet paid."""
    from tables import services

    services.table_open(table=table, actor=dealer)
    rnd = services.round_open(table=table, actor=dealer, seats=[
        {"seat": 1, "player": "Ann", "stack": 2, "dealer": True}, {"seat": 2, "player": "Bob", "stack": 2}])
    for code in ["TS", "9H", "9D", "8C"]:  # Bob 19, Ann 17
        services.round_add_card(round=rnd, code=code, actor=dealer)
    services.round_decide(round=rnd, action="raise", amount="1", actor=dealer)
    services.round_decide(round=rnd, action="call", actor=dealer)
    for _ in range(4):
        rnd.refresh_from_db()
        if rnd.prompt.get("needs") != "decision":
            break
        services.round_decide(round=rnd, action="stand", actor=dealer)
    services.round_settle(round=rnd, actor=dealer)
    return rnd


def test_the_bluffjack_hand_that_ends_the_game_says_who_won_it(browser, live_server, demo_casino, dealer):
    """Bob's forced raise puts him all in, Ann calls all in and Bob's 19 beats her 17: once the pot is
    paid the tablet says the game is over and who holds every chip (not only "paid as due")."""
    table = demo_casino.tables["bluffjack"]
    settle_an_all_in_hand(table, dealer)
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.wait_for_selector("[data-pay-seat='2']")
    # The stakes are in the pot: Bob takes the pot's 4 chips (his 2 back, and the 2 he won).
    assert page.inner_text("#pay h3").startswith("Push the pot"), page.inner_text("#pay h3")
    assert page.inner_text("[data-pay-seat='2'] h4") == "Seat 2: takes 4 chips from the pot (wins 2)"
    page.click("#btn-paid")
    page.wait_for_selector("#game-over")
    assert page.inner_text("#game-over") == "Game 1 over: Bob holds every chip (4 chips)"
    assert page.locator("#bj-game").count() == 0  # no next hand of a game that is over


def test_a_pit_boss_corrects_a_card_after_settlement_and_sees_the_re_settlement(
        browser, live_server, demo_casino, dealer, pit_boss):
    from tables.models import AuditEvent

    table = demo_casino.tables["bluffjack"]
    rnd = settle_an_all_in_hand(table, dealer)
    page = sign_in(browser, live_server, pit_boss)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.wait_for_selector("#correct:not([hidden])")
    page.click("[data-fix-seq='3']")
    page.click("[data-fix-rank='6']")
    page.click("[data-fix-suit='D']")
    page.click("[data-fix-reason='misread scan, checked on camera']")
    page.click("#btn-correct")
    page.wait_for_selector("#resettle:not([hidden])")
    text = page.inner_text("#resettle")
    assert "card #3" in text and "seat 1 pot" in text and "→ win" in text, text
    assert AuditEvent.objects.filter(action="round.card.correct", round=rnd,
                                     payload__reason="misread scan, checked on camera").exists()
    # The recall shows the correction with its reason.
    page.click("#btn-recall")
    page.wait_for_selector("#recall-dialog[open]")
    assert "9D→6D by pitboss (misread scan, checked on camera)" in page.inner_text("#recall-list")


def test_a_pit_boss_correcting_a_mini_blackjack_card_is_offered_no_joker(
        browser, live_server, demo_casino, dealer, pit_boss):
    """Mini Blackjack is dealt from 4 decks without Jokers: the correction offers only the cards the round's
    shoe can hold (the server's shoe_cards), not a Joker the server would refuse; Finnish 27's shoe has them."""
    from tables import services

    table = demo_casino.tables["mini-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    rnd = services.round_open(table=table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    cards = iter(["TS", "9H", "7D", "8C", "5S", "6S", "2S"])
    while (rnd.prompt or {}).get("needs") in ("card", "decision"):
        if rnd.prompt["needs"] == "card":
            rnd = services.round_add_card(round=rnd.pk, code=next(cards), actor=dealer)
        else:
            rnd = services.round_decide(round=rnd.pk, action="stand", actor=dealer)
    services.round_settle(round=rnd.pk, actor=dealer)
    page = sign_in(browser, live_server, pit_boss)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.wait_for_selector("#correct:not([hidden])")
    assert page.locator("[data-fix-rank='JK']").count() == 0
    assert page.locator("[data-fix-rank]").count() == 13


def real_scan_image(code: str) -> bytes:
    """A generated photo of ``code`` (vision's synthetic shoe scan) that the real recogniser reads surely.

    The generator is seeded; the first seed whose JPEG, as uploaded, reads as ``code`` with confidence >= 0.9 is
    taken, so the round below is about the tablet's flow, not about vision's accuracy (measured there).
    """
    import cv2
    import numpy as np

    from vision import recognize
    from vision.tools.synth import random_style, shoe_image

    for seed in range(40):
        rng = np.random.default_rng(seed)
        img, _ = shoe_image(code, rng, random_style(rng, finnish=True))
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        cards = recognize(cv2.imdecode(buf, cv2.IMREAD_COLOR))  # as the server will see the upload
        if cards and cards[0]["code"] == code and cards[0]["confidence"] >= 0.9:
            return bytes(buf)
    raise AssertionError(f"no generated image of {code} reads surely")


def test_a_finnish_27_round_from_real_scan_images_through_the_real_recogniser(
    browser, live_server, demo_casino, dealer, tmp_path
):
    table = demo_casino.tables["finnish-27"]
    page = open_finnish_round(browser, live_server, table, dealer)

    def real_scan(code: str) -> None:
        before = page.locator(".hands .playing-card").count()
        f = tmp_path / f"real-{code}-{before}.jpg"
        f.write_bytes(real_scan_image(code))
        page.set_input_files("#scan-input", str(f))
        page.wait_for_function(f"document.querySelectorAll('.hands .playing-card').length > {before}")

    for code in ["9S", "9C", "9H", "9D"]:
        real_scan(code)
    needs(page, "decision")
    assert "must hit" in page.inner_text("#prompt")
    # Beside the scan button: the card itself may be the hit, "Hit (must)" need not be tapped first.
    assert page.inner_text("#card-hit") == "A card scanned or picked now is the hit"
    page.click("[data-action='hit']")
    needs(page, "card")
    assert page.is_hidden("#card-hit")
    real_scan("9D")
    needs(page, "decision")
    page.click("[data-action='stand']")
    needs(page, "settle")
    page.click("#btn-settle")
    page.wait_for_selector("[data-bet='1/bonus']")
    assert "9990.00" in page.inner_text("[data-bet='1/bonus']")
    rnd = Round.objects.get(table=table)
    cards = list(RoundCard.objects.filter(round=rnd).order_by("seq"))
    assert [c.code for c in cards] == ["9S", "9C", "9H", "9D", "9D"]
    assert all(c.source == "scan" and c.recognised_code == c.code and c.confidence >= 0.9 for c in cards)
    assert all(len(c.image_sha256) == 64 for c in cards)


def test_a_poll_that_read_the_round_before_it_was_paid_does_not_undo_the_payment(
    browser, live_server, demo_casino, dealer
):
    # The tablet polls every 3 seconds. A poll that read the round just before "Confirm paid" was
    # answered, and arrives after it, once put the round back to "settled": "Confirm paid" again,
    # with a version the server had left (the next click was refused as a conflict).
    page = open_bluffjack_hand(browser, live_server, demo_casino.tables["bluffjack"], dealer)
    settle_a_folded_hand(page)
    page.wait_for_selector("#btn-paid:not([disabled])")

    held: list[Any] = []  # (route, the answer as the server gave it then)

    def hold(route: Any) -> None:
        if route.request.method == "GET" and not held:
            held.append((route, route.fetch()))  # read now, delivered later
        else:
            route.continue_()

    page.route("**/api/rounds/*/", hold)
    for _ in range(100):  # the next poll reads the round (within 3 s)
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "no poll read the round"
    page.click("#btn-paid")
    page.wait_for_selector("#closed-flag")
    route, stale = held[0]
    route.fulfill(response=stale)  # the poll's answer arrives after the payment's
    page.wait_for_timeout(300)
    assert page.is_visible("#closed-flag")
    assert not page.is_visible("#btn-paid")
    page.unroute("**/api/rounds/*/")


def test_a_double_tap_on_stand_stands_one_seat_not_the_next(browser, live_server, demo_casino, dealer):
    """Taps queue while a command is on its way; a second tap on Stand, landing before the first was answered,
    was sent after it with the version it left and stood the next seat too. A decision is meant for the
    player on screen when tapped: the tablet names them (``who``), so the server cannot apply it to another."""
    import time

    table = demo_casino.tables["unlimited-blackjack"]
    page = take_table(browser, live_server, table, dealer)
    page.click("[data-chip='1-main-500']")
    page.click("[data-chip='3-main-500']")
    page.click("#btn-open")
    for code in ["TS", "9S", "5D", "8H", "7C", "TD"]:  # seat 1: 18, seat 3: 17, dealer 5
        pick(page, code)
    page.wait_for_selector("#prompt:has-text('Seat 1')")
    page.route("**/decisions/", lambda route: (time.sleep(0.8), route.continue_()))
    page.click("[data-action='stand']")
    page.click("[data-action='stand']", force=True)  # the same button, its first tap still on its way
    page.wait_for_selector("#prompt:has-text('Seat 3')")
    page.wait_for_timeout(2500)  # the second tap, if it went, is answered by now
    page.unroute("**/decisions/")
    rnd = Round.objects.get(table=table)
    assert list(rnd.decisions.values_list("actor", "action")) == [("seat:1", "stand")]
    assert rnd.prompt["actor"] == "seat:3" and rnd.prompt["needs"] == "decision"
    assert page.is_hidden("#error")  # a tap meant for a turn already over is dropped, not an error


def test_a_cancelled_bluffjack_hand_hands_the_pot_back_in_words(browser, live_server, demo_casino, dealer):
    # It once read "every wager refunded" over "Pot 2 chips" and an empty settlement table.
    page = open_bluffjack_hand(browser, live_server, demo_casino.tables["bluffjack"], dealer)
    for code in ["TS", "9H", "7D", "8C"]:  # dealt: seat 1 to act (its forced raise) when the hand is cancelled
        pick(page, code)
    page.wait_for_selector(".turn-mark")
    page.click("#btn-cancel")
    page.click("[data-cancel-reason='misdeal']")
    page.wait_for_selector("#round-state[data-state='cancelled']")
    assert page.inner_text("#prompt") == "Hand cancelled: every chip in the pot goes back to who put it in"
    assert page.inner_text("#pot-chips") == "2 chips, handed back"
    assert all(t.startswith("put in ") and ", handed back" in t for t in page.locator(".stack-line").all_inner_texts())
    assert page.locator("#settlement").is_hidden()
    assert page.locator(".turn-mark").count() == 0  # nobody is to act in a cancelled hand


def test_a_bluffjack_tie_says_each_player_takes_back_their_share_of_the_pot(
        browser, live_server, demo_casino, dealer):
    # The walk-through: 17 against 17 read "Nothing to pay from the pot." beside "Pot 4 chips".
    page = open_bluffjack_hand(browser, live_server, demo_casino.tables["bluffjack"], dealer)
    for code in ["TS", "9H", "7D", "8C"]:
        pick(page, code)
    for action in ["raise-1", "call", "stand", "stand", "call", "call"]:  # the last two are "Check"
        before = page.inner_text("#prompt")
        page.click(f"[data-action='{action}']")
        page.wait_for_function("(t) => document.querySelector('#prompt').innerText !== t", arg=before)
    needs(page, "settle")
    page.click("#btn-settle")
    page.wait_for_selector("[data-pay-seat='1']")
    assert page.inner_text("#pay h3") == "Split pot: push each player's share, the chips they put in, back to them"
    assert page.inner_text("[data-pay-seat='1'] h4") == "Seat 1: takes back 2 chips from the pot (wins nothing)"
    assert page.inner_text("[data-pay-seat='2'] h4") == "Seat 2: takes back 2 chips from the pot (wins nothing)"
    page.click("[data-seat-paid='1']")
    page.click("[data-seat-paid='2']")
    assert page.inner_text("#btn-paid") == "Confirm paid"
    page.click("#btn-paid")
    page.wait_for_selector("#btn-next-hand")
    page.wait_for_function("document.querySelector(\"[data-stack='Seat 1']\")?.innerText.includes('10 chips')")
    assert "10 chips" in page.inner_text("[data-stack='Seat 2']")
