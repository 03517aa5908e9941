"""Small layout points at 1280x800 (Playwright, headless Chromium): a four-digit bet keeps its clear button
on its line; the closed round's message and "Next round" do not touch; a toast does not cover the rated
players' "Seat player" button; the card picker does not move when the decision buttons go, and keeps its suits (and a Joker) on the ranks' line.  Screenshots under /tmp/wt-tablet when TABLET_LAYOUT_SHOTS is set."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.tables.tablet.test_tablet_rounds import open_finnish_round, pick, shuffle, sign_in
from tests.tables.tablet.test_tablet_trust import open_blackjack

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("TABLET_LAYOUT_SHOTS")


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / name))


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or
                a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def test_a_four_digit_bet_keeps_the_clear_button_on_its_line(browser, live_server, demo_casino, dealer):
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{demo_casino.tables['unlimited-blackjack'].pk}/")
    page.click("#btn-take")
    shuffle(page)
    for _ in range(11):
        page.click("[data-chip='1-main-10000']")
    assert page.inner_text("[data-amount='1-main']") == "1100.00"
    _shot(page, "bet-1100.png")
    amount, clear = _box(page, "[data-amount='1-main']"), _box(page, "[aria-label='clear Main']")
    assert abs((clear["y"] + clear["height"] / 2) - (amount["y"] + amount["height"] / 2)) < 12, (amount, clear)
    editor = _box(page, "[data-seat='1'].seat-editor")
    assert clear["x"] + clear["width"] <= editor["x"] + editor["width"], (clear, editor)


def test_the_closed_round_message_and_next_round_do_not_touch(browser, live_server, demo_casino, dealer):
    page = open_blackjack(browser, live_server, demo_casino.tables["unlimited-blackjack"], dealer, ["1-main-500"])
    for code in ["TS", "9D", "QC", "7C"]:
        pick(page, code)
    page.click("[data-action='stand']")
    pick(page, "2C")
    page.click("#btn-settle")
    page.click("#btn-paid")
    page.wait_for_selector("#btn-next")
    # A poll may draw the closed round again (a new button) between two steps: scroll to the button
    # and measure both boxes in one step of the page.
    flag, nxt = page.evaluate("""() => {
        document.getElementById('btn-next').scrollIntoView({block: 'center'});
        const box = id => { const b = document.getElementById(id).getBoundingClientRect();
                            return {x: b.x, y: b.y, width: b.width, height: b.height}; };
        return [box('closed-flag'), box('btn-next')];
    }""")
    _shot(page, "closed-next.png")
    gap_y = nxt["y"] - (flag["y"] + flag["height"])
    gap_x = nxt["x"] - (flag["x"] + flag["width"])
    assert gap_y >= 8 or gap_x >= 8, (flag, nxt)


def test_a_toast_does_not_cover_the_seat_player_button(browser, live_server, demo_casino, dealer):
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{demo_casino.tables['unlimited-blackjack'].pk}/")
    page.click("#btn-take")
    shuffle(page)  # its toast: "Shoe shuffled: tell the players of the reshuffle"
    page.wait_for_selector("#players-seat-btn")
    page.locator("#players-seat-btn").scroll_into_view_if_needed()
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.evaluate("() => { const t = document.getElementById('toast'); t.hidden = false; "
                  "t.textContent = 'Shoe shuffled: tell the players of the reshuffle'; }")
    _shot(page, "toast-seat-player.png")
    assert not _overlap(_box(page, "#toast"), _box(page, "#players-seat-btn"))


def test_a_seats_chips_run_from_the_smallest_up(browser, live_server, demo_casino, dealer):
    # Finnish 27's table minimum is a chip of its own: the row once read +10, +5, +25, +100.
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{demo_casino.tables['finnish-27'].pk}/")
    page.click("#btn-take")
    shuffle(page)
    page.wait_for_selector("[data-chip^='1-main-']")
    values = [int(v.split("-")[-1]) for v in
              page.eval_on_selector_all("[data-chip^='1-main-']", "els => els.map(e => e.dataset.chip)")]
    assert values == sorted(values) and len(values) >= 3, values


def test_the_card_picker_stays_put_when_the_decision_buttons_go(browser, live_server, demo_casino, dealer):
    """A rank tapped just after Stand must land on the rank under the finger: the actions row keeps its height
    while the round is played, so the picker does not move up as Stand's answer takes the buttons away."""
    page = open_blackjack(browser, live_server, demo_casino.tables["unlimited-blackjack"], dealer, ["1-main-500"])
    before_deal = _box(page, "[data-rank='2']")
    for code in ["TS", "9D", "QC", "7C"]:  # seat 1: 20 against the dealer's 16, who must draw
        pick(page, code)
    page.wait_for_selector("[data-action='stand']")
    _shot(page, "picker-decision.png")
    at_decision = _box(page, "[data-rank='2']")
    page.click("[data-action='stand']")
    page.wait_for_selector("#prompt[data-needs='card']:has-text('Dealer')")
    _shot(page, "picker-dealer-draws.png")
    after = _box(page, "[data-rank='2']")
    assert page.locator("[data-action]").count() == 0
    ys = [before_deal["y"], at_decision["y"], after["y"]]  # within a pixel: the hands' rows round differently
    assert max(ys) - min(ys) < 1, (before_deal, at_decision, after)


def test_the_picker_keeps_suits_and_joker_on_the_ranks_line_at_a_table_with_jokers(browser, live_server,
                                                                                    demo_casino, dealer):
    """Finnish 27 deals Jokers: its picker has a Joker key, after the suits, and all of it stays on one line at
    1280 (the Joker among the ranks pushed the suits onto a line of their own near the screen's foot)."""
    page = open_finnish_round(browser, live_server, demo_casino.tables["finnish-27"], dealer)
    _shot(page, "picker-finnish.png")
    ace, king, spade, club, joker = (_box(page, f"[data-{k}]") for k in
                                     ("rank='A'", "rank='K'", "suit='S'", "suit='C'", "rank='JK'"))
    assert ace["y"] == king["y"] == spade["y"] == club["y"] == joker["y"], (ace, spade, joker)
    assert king["x"] < spade["x"] < club["x"] < joker["x"]
    assert joker["x"] + joker["width"] <= 1280 - 16
