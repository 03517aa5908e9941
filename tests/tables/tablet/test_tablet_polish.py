"""The tablet says what it does: taking a table releases the one held before (asked first, said after); the
pay panel's count of ticked seats reads naturally; a surrender's half stake shows in the pay panel as a refund
to hand back, seat by seat.  Screenshots to docs/img/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tables import services
from tables.models import TableSession
from tests.tables.tablet.test_tablet_rounds import needs, pick, shuffle, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
IMG = Path(__file__).resolve().parents[3] / "docs" / "img"


def _held(dealer) -> list[int]:
    return list(TableSession.objects.filter(dealer=dealer, closed_at__isnull=True).values_list("table__number", flat=True))


def test_taking_a_table_asks_before_releasing_the_one_held_and_says_so(browser, live_server, demo_casino, dealer):
    first, second = demo_casino.tables["unlimited-blackjack"], demo_casino.tables["finnish-27"]
    services.table_open(table=first, actor=dealer)
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{second.pk}/")
    page.click("#btn-take")
    dialog = page.locator("#take-dialog[open]")
    dialog.wait_for()
    text = dialog.inner_text()
    assert f"You are the dealer at table {first.number}" in text
    assert f"Taking table {second.number} releases table {first.number}" in text
    page.screenshot(path=str(IMG / "tablet-take-releases.png"))
    page.click("#take-no")  # staying: nothing changes
    assert _held(dealer) == [first.number]
    page.click("#btn-take")
    page.click("#take-yes")
    page.wait_for_selector(f"#toast:has-text('Table {first.number} is released')")
    assert f"You now deal at table {second.number}" in page.inner_text("#toast")
    assert _held(dealer) == [second.number]


def test_a_free_dealer_takes_a_table_without_a_question(browser, live_server, demo_casino, dealer):
    table = demo_casino.tables["finnish-27"]
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.click("#btn-take")
    page.wait_for_selector("#btn-take", state="hidden")
    assert page.locator("#take-dialog[open]").count() == 0 and _held(dealer) == [table.number]


def test_a_surrender_refund_is_in_the_pay_panel_and_the_tick_count_reads_naturally(browser, live_server,
                                                                                   demo_casino, dealer):
    table = demo_casino.tables["unlimited-blackjack"]
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.click("#btn-take")
    shuffle(page)
    page.click("[data-chip='1-main-500']")  # seat 1: 5.00, will surrender against the Ace
    page.click("[data-chip='2-main-500']")  # seat 2: 5.00, will win
    page.click("#btn-open")
    needs(page, "card")
    for code in ["TS", "TH", "AD", "6C", "QH"]:
        pick(page, code)
    page.click("[data-rank='7']")
    page.click("[data-suit='S']")  # the hole card, face down
    needs(page, "decision")
    page.click("[data-action='surrender']")
    page.wait_for_selector("#prompt:has-text('Seat 2')")
    page.click("[data-action='decline']")
    page.wait_for_selector("[data-action='stand']")
    page.click("[data-action='stand']")  # seat 2 stands on 20; the dealer's A, 7 is a soft 18 and stands
    needs(page, "settle")
    page.click("#btn-settle")
    refund = page.locator("[data-pay-seat='1'] .pay-row.refund")
    refund.wait_for()
    assert "surrendered, half of 5.00 back" in refund.inner_text() and "2.50" in refund.inner_text()
    assert page.inner_text("[data-pay-seat='1'] h4") == "Seat 1: hand back 2.50"
    assert page.inner_text("[data-pay-seat='2'] h4") == "Seat 2: pay 5.00"
    assert page.inner_text("#btn-paid") == "Confirm paid (2 seats, none ticked yet)"
    assert page.inner_text("[data-seat-paid='1']") == "Seat 1 handed back"  # a refund only: nothing is paid
    assert page.inner_text("[data-seat-paid='2']") == "Seat 2 paid"
    page.click("[data-seat-paid='1']")
    assert page.inner_text("[data-seat-paid='1']") == "Seat 1 handed back ✓"
    assert page.inner_text("#btn-paid") == "Confirm paid (1 of 2 seats ticked)"
    page.locator("#pay").scroll_into_view_if_needed()
    page.screenshot(path=str(IMG / "tablet-pay-surrender-refund.png"))
    page.click("[data-seat-paid='2']")
    page.click("#btn-paid")
    page.click("#btn-next")
    # One seat to pay: "1 seat, not ticked yet", not "0 of 1 seats ticked".
    page.click("[data-chip='1-main-500']")
    page.click("#btn-open")
    needs(page, "card")
    for code in ["TC", "9D", "QD", "7C"]:
        pick(page, code)
    needs(page, "decision")
    page.click("[data-action='stand']")
    pick(page, "2C")  # the dealer's 16 takes a card: 18
    needs(page, "settle")
    page.click("#btn-settle")
    page.wait_for_selector("#btn-paid")
    assert page.inner_text("#btn-paid") == "Confirm paid (1 seat, not ticked yet)"


def test_the_last_rounds_open_at_the_newest_round_with_its_time_in_the_dashboards_words(browser, live_server,
                                                                                        demo_casino, dealer):
    """Ten rounds do not fit the dialog: it opens at the newest (not scrolled to the oldest at the bottom,
    where the focused Close button is), and says when each opened as the dashboard does ("Wed 25 Nov 22:00"
    on the casino's clock), not ISO UTC."""
    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer)
    # The oldest of the ten lost: 17 against the dealer's 19.
    lost = services.round_open(table=table, actor=dealer, seats=[{"seat": 1, "wagers": {"main": "10.00"}}])
    for code in ["TC", "9D", "7C", "TD"]:
        services.round_add_card(round=lost, code=code, actor=dealer)
    services.round_decide(round=lost, action="stand", actor=dealer)
    services.round_settle(round=lost, actor=dealer)
    services.round_record_paid(round=lost, paid={}, actor=dealer)
    for i in range(9):
        rnd = services.round_open(table=table, actor=dealer, seats=[{"seat": 1, "wagers": {"main": "5.00"}}])
        for code in [f"{'23456789TJ'[i]}{suit}" for suit in "SHDC"]:
            services.round_add_card(round=rnd, code=code, actor=dealer)
        services.round_cancel(round=rnd, reason="card exposed by mistake", actor=dealer)
    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.click("#btn-recall")
    page.wait_for_selector("#recall-dialog[open]")
    newest = page.locator("#recall-list h4").first
    assert newest.get_attribute("data-recall-round") == str(rnd.number)
    assert page.evaluate("document.getElementById('recall-dialog').scrollHeight > innerHeight")  # it does scroll
    box = newest.bounding_box()
    assert box is not None and 0 <= box["y"] < 800, box  # in sight
    text = newest.inner_text()
    assert re.fullmatch(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2} \d\d:\d\d", text.split(" · ")[-1]), text
    # Scrolled to the oldest, the title and Close stay in sight (Close was at the bottom, 2,300 px down).
    page.evaluate("document.getElementById('recall-dialog').scrollTop = 1e6")
    assert page.inner_text(f"[data-recall-lines='{lost.number}']") == "Seat 1 Main bet: lose 10.00"  # not "lose -10.00"
    assert page.inner_text(f"[data-recall-decisions='{lost.number}']") == "Seat 1 stand"
    for sel in ("#recall-title", "[data-cmd='recall-close']"):
        box = page.locator(sel).bounding_box()
        assert box is not None and 0 <= box["y"] < 800, (sel, box)
    assert page.inner_text("#recall-title") == "Last 10 rounds at this table, newest first"
    page.click("[data-cmd='recall-close']")
    page.wait_for_selector("#recall-dialog", state="hidden")
