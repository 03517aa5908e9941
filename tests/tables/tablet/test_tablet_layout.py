"""The seven-seat bet entry of Unlimited Blackjack fits a 1280×800 tablet: every seat's bets and Start
round in view without scrolling."""

from __future__ import annotations

import pytest

from tests.tables.tablet.test_tablet_rounds import shuffle, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_seven_seat_bet_entry_fits_the_screen_without_scrolling(browser, live_server, demo_casino, dealer):
    table = demo_casino.tables["unlimited-blackjack"]
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.click("#btn-take")
    shuffle(page)
    page.wait_for_selector("#btn-open")
    assert page.locator("#seat-editors .seat-editor").count() == 7
    start = page.locator("#btn-open").bounding_box()
    last = page.locator("#seat-editors .seat-editor").last.bounding_box()
    assert start is not None and last is not None
    assert start["y"] + start["height"] <= 800 and last["y"] + last["height"] <= 800, (start, last)
    page.click("[data-chip='7-main-500']")  # the seventh seat's chips take a tap where they are
    assert page.inner_text("[data-amount='7-main']") == "5.00"
