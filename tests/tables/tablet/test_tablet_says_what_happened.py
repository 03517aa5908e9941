"""The tablet says what happened and offers only what the user may do (Playwright, headless Chromium at
1280x800): a push or a surrender refund is not "the house collected"; a face-down card is never named;
a dealer who does not hold the table reads the payment, without the controls to make it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group

from tables import services
from tables.access import DEALER
from tables.models import Round
from tests.factories import UserFactory
from tests.tables.tablet.test_tablet_rounds import (
    fake_recognise,
    needs,
    open_bluffjack_hand,
    pick,
    scan,
    sign_in,
)
from tests.tables.tablet.test_tablet_trust import open_blackjack

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _settle_and_read_pay_panel(page: Any) -> str:
    needs(page, "settle")
    page.click("#btn-settle")
    page.wait_for_selector("#btn-paid")
    return page.inner_text("#pay")


def test_a_push_is_said_as_a_push_in_the_pay_panel_and_when_the_round_closes(browser, live_server, demo_casino,
                                                                              dealer):
    page = open_blackjack(browser, live_server, demo_casino.tables["unlimited-blackjack"], dealer, ["1-main-500"])
    for code in ["TS", "9D", "8C", "9C"]:  # seat 1: 18 against the dealer's 9, hole 9: 18
        pick(page, code)
    needs(page, "decision")
    page.click("[data-action='stand']")
    pay = _settle_and_read_pay_panel(page)
    assert "push" in page.inner_text("[data-bet='1/main']")
    assert "house collects" not in pay, pay
    assert "Seat 1 main bet 5.00 pushed: the stake stays with the player" in pay, pay
    page.click("#btn-paid")
    closed = page.locator("#closed-flag")
    closed.wait_for()
    assert "house collected" not in closed.inner_text()
    assert closed.inner_text() == "Round closed: nothing to pay, the bet pushed (stake 5.00 returned)"


def test_a_surrender_refund_is_said_as_a_refund_when_the_round_closes(browser, live_server, demo_casino, dealer):
    page = open_blackjack(browser, live_server, demo_casino.tables["unlimited-blackjack"], dealer,
                          ["1-main-500", "1-main-500"])  # 10.00: half of it, 5.00, is handed back
    for code in ["TS", "AD", "6C", "7S"]:  # seat 1: 16 against the dealer's Ace
        pick(page, code)
    needs(page, "decision")
    page.click("[data-action='surrender']")
    pay = _settle_and_read_pay_panel(page)
    assert "house collects the other bets" not in pay, pay
    assert "Hand back the surrender refund" in pay and "5.00" in page.inner_text("[data-pay-seat='1'] .pay-row.refund")
    page.click("#btn-paid")
    closed = page.locator("#closed-flag")
    closed.wait_for()
    assert closed.inner_text() == ("Round closed: nothing to pay, surrender refund handed back (5.00); "
                                   "the house collected the rest (5.00)")


def test_a_hole_card_scanned_is_not_named_in_the_toast(browser, live_server, demo_casino, dealer, monkeypatch,
                                                       tmp_path):
    monkeypatch.setattr(services.scans, "recognise", fake_recognise)
    page = open_blackjack(browser, live_server, demo_casino.tables["unlimited-blackjack"], dealer, ["1-main-500"])
    scan(page, tmp_path, "9S")
    page.wait_for_selector("#toast:has-text('9♠')")  # a face-up card is named
    for code in ["5H", "9H"]:
        scan(page, tmp_path, code)
    scan(page, tmp_path, "6D")  # the hole card, face down
    page.wait_for_selector("#hands [data-hole='1']")
    toast = page.inner_text("#toast")
    assert toast == "Hole card read (97%)", toast
    assert "6♦" not in page.inner_text("body") and page.locator("[title*='6♦'], [aria-label*='6♦']").count() == 0


def test_an_unsure_scan_takes_the_last_scans_toast_away(browser, live_server, demo_casino, dealer, monkeypatch,
                                                        tmp_path):
    # "Read 9♠ (97%)" beside "Unsure read: tap the card it is" would say two things of one scan.
    monkeypatch.setattr(services.scans, "recognise", fake_recognise)
    page = open_blackjack(browser, live_server, demo_casino.tables["unlimited-blackjack"], dealer, ["1-main-500"])
    scan(page, tmp_path, "9S")
    page.wait_for_selector("#toast:has-text('9♠')")
    scan(page, tmp_path, "5H", confidence=60)  # unsure: the tablet asks
    page.wait_for_selector("#scan-confirm:not([hidden])")
    assert page.locator("#toast").is_hidden()
    page.click("[data-confirm='5H']")
    page.wait_for_function("document.querySelectorAll('.hands .playing-card').length === 2")


def test_a_bluffjack_private_card_scanned_is_not_named_in_the_toast(browser, live_server, demo_casino, dealer,
                                                                    monkeypatch, tmp_path):
    monkeypatch.setattr(services.scans, "recognise", fake_recognise)
    page = open_bluffjack_hand(browser, live_server, demo_casino.tables["bluffjack"], dealer)
    scan(page, tmp_path, "TS")  # the first player's private card, face down
    page.wait_for_selector("#hands [data-private='1']")
    assert page.inner_text("#toast") == "Private card read (97%)"
    assert "10♠" not in page.inner_text("body")


def test_a_dealer_who_does_not_hold_the_table_sees_the_payment_read_only(browser, live_server, demo_casino,
                                                                         dealer, pit_boss):
    table = demo_casino.tables["unlimited-blackjack"]
    page = open_blackjack(browser, live_server, table, dealer, ["1-main-500"])
    for code in ["TS", "9D", "QC", "7C"]:  # seat 1: 20 against 16; the dealer draws a 2: 18
        pick(page, code)
    needs(page, "decision")
    page.click("[data-action='stand']")
    pick(page, "2C")
    _settle_and_read_pay_panel(page)
    relief = UserFactory(username="relief")
    relief.groups.add(Group.objects.get(name=DEALER))
    services.table_open(table=table, actor=pit_boss, dealer=relief)  # the pit boss hands the table over
    page.reload()
    page.wait_for_selector("#pay-readonly")
    assert page.locator("#btn-paid").count() == 0 and page.locator("[data-paid]").count() == 0
    assert page.locator("[data-seat-paid], [data-as-due]").count() == 0
    assert page.inner_text("#pay-readonly") == "Held by relief: only relief or a pit boss pays this round."
    assert "5.00" in page.inner_text("[data-pay-seat='1']")  # what is due, read-only
    assert Round.objects.get(table=table).state == "settled"


def test_paying_an_older_open_round_shows_that_round_closed_not_the_latest_one(browser, live_server, demo_casino,
                                                                                dealer):
    """The demo's table 1: an older round left "paid differs from due" while later rounds closed."""
    from tests.tables.api.conftest import client_for
    from tests.tables.api.test_round_commands import DUE, ok, play_split_round

    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    api = client_for(dealer)
    later = play_split_round(api, table)["id"]
    ok(api.post(f"/api/rounds/{later}/settle/", {}, format="json"))
    ok(api.post(f"/api/rounds/{later}/paid/", {"paid": DUE}, format="json"))
    older = play_split_round(api, table)["id"]
    ok(api.post(f"/api/rounds/{older}/settle/", {}, format="json"))
    ok(api.post(f"/api/rounds/{older}/paid/", {"paid": {**DUE, "5": {"main": "15.00"}}}, format="json"))
    Round.objects.filter(pk=older).update(number=Round.objects.get(pk=later).number - 1)  # older by number
    older_number = Round.objects.get(pk=older).number

    page = sign_in(browser, live_server, dealer)
    page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    page.wait_for_selector("[data-as-due='5/main']")
    assert page.inner_text("#round-title") == f"Round {older_number}"
    page.click("[data-as-due='5/main']")
    page.click("#btn-paid")
    page.wait_for_selector("#closed-flag")
    page.wait_for_timeout(3500)  # a poll later: still the round just paid
    assert page.inner_text("#round-title") == f"Round {older_number}"
    assert page.inner_text("#closed-flag") == "Round closed: paid as due"
    page.reload()
    page.wait_for_selector("#closed-flag")
    assert page.inner_text("#round-title") == f"Round {older_number}"


def test_a_dealer_who_does_not_hold_the_table_follows_the_round_with_no_control_to_play_it(
        browser, live_server, demo_casino, dealer, pit_boss):
    table = demo_casino.tables["unlimited-blackjack"]
    page = open_blackjack(browser, live_server, table, dealer, ["1-main-500"])
    for code in ["TS", "9D", "QC", "7C"]:
        pick(page, code)
    needs(page, "decision")
    assert page.locator("[data-action='stand']").count() == 1 and page.is_visible("#capture")

    def follows_only() -> None:
        assert page.locator("#actions [data-action]").count() == 0  # no Hit, Stand, Double... to be refused
        for hidden in ("#capture", "#btn-pause", "#btn-cancel", "#new-round"):
            assert not page.is_visible(hidden), hidden
        assert "Seat 1" in page.inner_text("#hands")  # the round is still shown
        assert page.is_disabled("#btn-shuffle")

    # The dealer moves to another table: nobody holds this one.
    services.table_open(table=demo_casino.tables["mini-blackjack"], actor=dealer)
    page.reload()
    page.wait_for_selector("#play-readonly:not([hidden])")
    assert page.inner_text("#play-readonly") == "Nobody holds this table: take the table first to play this round."
    follows_only()
    assert page.inner_text("#btn-take") == "Take this table"
    # A pit boss hands it to another dealer: the holder flag says who (once, not again in the round).
    relief = UserFactory(username="relief")
    relief.groups.add(Group.objects.get(name=DEALER))
    services.table_open(table=table, actor=pit_boss, dealer=relief)
    page.reload()
    page.wait_for_selector("#holder-flag:not([hidden])")
    assert page.inner_text("#holder-flag") == "Held by relief: only relief or a pit boss deals here"
    assert not page.is_visible("#play-readonly")
    follows_only()
    assert Round.objects.get(table=table).state == "in_play"
