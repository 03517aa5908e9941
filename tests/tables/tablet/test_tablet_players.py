"""The dealer seats a rated player from the tablet (card number), pauses and closes the rating slip."""

from __future__ import annotations

from pathlib import Path

import pytest

from tables.models import RatingSlip
from tests.tables.tablet.test_tablet_rounds import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DOCS = Path(__file__).resolve().parents[3] / "docs"


def test_a_dealer_seats_a_rated_player_and_closes_the_slip(browser, live_server, demo_casino, dealer):
    from tables import services

    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.wait_for_selector("#players:not([hidden])")
    # A finger's targets, in the page's typeface (they were the browser's 20 px fields).
    for field in ("#players-seat", "#players-card", "#players-name"):
        assert page.locator(field).bounding_box()["height"] >= 48, field
    assert page.evaluate("getComputedStyle(document.querySelector('#players-card')).fontFamily") == \
        page.evaluate("getComputedStyle(document.body).fontFamily")
    page.select_option("#players-seat", "3")
    page.fill("#players-card", "C-31337")
    page.fill("#players-name", "Ada")
    page.click("#players-seat-btn")
    row = page.locator("#players-list li[data-rating]")
    row.wait_for()
    assert "Seat 3: Ada (card C-31337)" in row.inner_text()
    slip = RatingSlip.objects.get()
    assert (slip.seat, slip.player.card_number, slip.state) == (3, "C-31337", "open")
    page.locator("#players").screenshot(path=str(DOCS / "accounting-tablet-players.png"))
    page.fill("#players-card", "C-9")
    page.click("#players-seat-btn")  # the seat is taken
    page.wait_for_selector("#players-error:not([hidden])")
    assert "taken" in page.inner_text("#players-error")
    page.fill("#players-card", "C" * 41)  # too long: the message says which field, in words
    page.click("#players-seat-btn")
    page.wait_for_selector("#players-error:has-text('Card number: ')")
    assert page.inner_text("#players-error") == "Card number: Ensure this field has no more than 40 characters."
    row.get_by_role("button", name="Pause").click()
    page.locator("#players-list li", has_text="paused").wait_for()
    row.get_by_role("button", name="Leaves").click()
    page.locator("#players-list li.none").wait_for()
    slip.refresh_from_db()
    assert slip.state == "closed" and slip.pauses.count() == 1


def test_the_rated_players_come_in_when_the_dealer_takes_the_table_without_a_reload(
        browser, live_server, demo_casino, dealer, pit_boss):
    """A dealer opens a free table's page (not yet allowed to read its players), then takes it: the
    panel shows the seated players at once, and nothing was asked that the server had to refuse."""
    from tables.services import accounting

    table = demo_casino.tables["unlimited-blackjack"]
    accounting.player_seat(table=table, seat=2, card_number="C-77", name="Bo", actor=pit_boss)
    page = sign_in(browser, live_server, dealer)
    refused: list[str] = []
    page.on("response", lambda r: r.status >= 400 and "/players/" in r.url and refused.append(f"{r.status} {r.url}"))
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.wait_for_selector("#btn-take:not([hidden])")
    assert page.locator("#players").is_hidden()
    page.click("#btn-take")
    page.wait_for_selector("#players:not([hidden])")
    page.locator("#players-list li[data-rating]").wait_for()
    assert "Seat 2: Bo (card C-77)" in page.inner_text("#players-list")
    assert not refused, refused


def test_no_rated_players_at_a_pot_game(browser, live_server, demo_casino, dealer):
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{demo_casino.tables['bluffjack'].pk}/")
    page.wait_for_selector("#app")
    assert page.locator("#players").is_hidden()
