"""Whole rounds on the tablet (Playwright, headless Chromium at 1280x800), as a dealer plays them:
a split with a double after the split and a bet behind following it, paid seat by seat across a
reload; insurance and surrender against an ace; a mis-payment a pit boss rejects with a reason the
dealer reads; a hand-over by a pit boss in the middle of a round; a shoe-feed image arriving during a
round."""

from __future__ import annotations

from typing import Any

import pytest

from tables.models import Round, RoundState
from tests.tables.tablet.test_tablet_rounds import (
    card_image,
    fake_recognise,
    keypad,
    needs,
    pick,
    sign_in,
)
from tests.tables.tablet.test_tablet_trust import open_blackjack, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def act(page: Any, action: str) -> None:
    page.click(f"[data-action='{action}']")


def settle(page: Any) -> None:
    needs(page, "settle")
    page.click("#btn-settle")
    page.wait_for_selector("#btn-paid")


def test_a_split_with_a_double_after_split_and_a_bet_behind_following_it_paid_seat_by_seat_across_a_reload(
    browser, live_server, demo_casino, dealer
):
    table = demo_casino.tables["unlimited-blackjack"]
    page = open_blackjack(browser, live_server, table, dealer,
                          ["3-main-500", "3-main-500", "3-behind-500", "5-main-500", "5-main-500"])  # fmt: skip
    for code in ["8S", "7D", "6H", "8H", "TD", "TC"]:
        pick(page, code)
    needs(page, "decision")
    assert "behind 5.00, doubles along, follows both hands" in page.inner_text("[data-hand='seat:3']")
    act(page, "split")
    pick(page, "3D")
    act(page, "double")  # a double after the split: the bet behind doubles along
    needs(page, "card")
    assert page.inner_text("#prompt") == "Seat 3, hand 1: deal the card for the double"
    pick(page, "KD")
    needs(page, "card")
    page.reload()  # mid-round: the round is on the server, the tablet draws it again
    needs(page, "card")
    assert page.inner_text("#prompt") == "Seat 3, hand 2: deal the second card of the split hand"
    assert page.locator("[data-sub='seat:3/hand:0'] .mark.doubled").is_visible()
    pick(page, "9C")
    act(page, "stand")
    page.wait_for_selector("#prompt:has-text('Seat 5')")
    act(page, "stand")
    pick(page, "9S")  # the dealer's 16 draws and busts
    settle(page)
    lines = page.inner_text("#lines")
    assert "Bet behind, hand 1" in lines and "Bet behind, hand 2" in lines  # it followed the split
    rnd = Round.objects.get(table=table)
    due = rnd.due
    assert due["3"]["main"] == "30.00" and due["5"]["main"] == "10.00", due
    assert set(due["3"]) == {"main", "behind"}, due
    total3 = sum(float(v) for v in due["3"].values())
    assert page.inner_text("[data-pay-seat='3'] h4") == f"Seat 3: pay {total3:.2f}"
    assert page.inner_text("[data-pay-seat='5'] h4") == "Seat 5: pay 10.00"
    assert page.inner_text("#btn-paid") == "Confirm paid (2 seats, none ticked yet)"
    page.click("[data-seat-paid='3']")
    page.click("[data-seat-paid='5']")
    assert page.inner_text("#btn-paid") == "Confirm paid"
    shot(page, "tablet-pay.png")
    page.click("#btn-paid")
    page.wait_for_selector("#closed-flag")
    assert page.inner_text("#closed-flag") == "Round closed: paid as due"
    rnd.refresh_from_db()
    assert rnd.state == RoundState.CLOSED and rnd.paid == due


def test_insurance_and_surrender_against_the_dealers_ace(browser, live_server, demo_casino, dealer):
    table = demo_casino.tables["unlimited-blackjack"]
    page = open_blackjack(browser, live_server, table, dealer, ["1-main-500", "1-main-500", "2-main-500", "2-main-500"])
    for code in ["9S", "TH", "AS", "7D", "6C", "KH"]:
        pick(page, code)
    needs(page, "decision")
    assert page.inner_text("[data-action='insurance']") == "Insurance 5.00"
    assert page.locator("[data-action='surrender']").is_visible()
    assert "Seat 1" in page.inner_text("#prompt")
    act(page, "insurance")
    page.wait_for_selector("#prompt:has-text('Seat 2')")
    act(page, "surrender")
    page.wait_for_selector("[data-hand='seat:2'] .mark.surrendered")
    rnd = Round.objects.get(table=table)
    for _ in range(20):  # the peek finds the dealer's blackjack: the round is over, or the seats play on
        if page.get_attribute("#prompt", "data-needs") == "settle":
            break
        if page.locator("[data-action='stand']").count():
            act(page, "stand")
        page.wait_for_timeout(200)
    settle(page)
    assert "insurance" in page.inner_text("#lines").lower()
    rnd.refresh_from_db()
    assert rnd.due["1"] == {"insurance": "10.00"} and not rnd.due.get("2"), rnd.due  # surrendered: half lost
    assert page.inner_text("[data-pay-seat='1'] h4") == "Seat 1: pay 10.00"
    assert "Surrender" in page.inner_text("#lines") or "surrender" in page.inner_text("#lines")
    page.click("#btn-paid")
    page.wait_for_selector("#closed-flag")


def test_an_overpayment_is_said_to_be_one(browser, live_server, demo_casino, dealer):
    # 15.00 handed over of 10.00 due: "overpaid by 5.00", not "the difference is paid" (the dealer would add more).
    table = demo_casino.tables["unlimited-blackjack"]
    page = open_blackjack(browser, live_server, table, dealer, ["1-main-500", "1-main-500", "1-pp-500"])
    for code in ["TS", "7D", "TH", "TC"]:  # 20 against 17; 10♠ 10♥, a mixed pair: Perfect Pairs 5:1 (30.00 back)
        pick(page, code)
    act(page, "stand")
    settle(page)
    keypad(page, "1/main", "15")
    page.click("#btn-paid")
    page.wait_for_selector("#mismatch:has-text('paid 15.00, due 10.00')")
    assert "(overpaid by 5.00)" in page.inner_text("#mismatch")
    assert "short" not in page.inner_text("#mismatch")
    keypad(page, "1/main", "10")
    keypad(page, "1/perfect-pairs", "50")
    page.click("#btn-paid")
    page.wait_for_selector("#mismatch:has-text('paid 50.00')")
    # The bet's own name, as the settlement table says it (it read "Seat 1 perfect pairs").
    assert page.inner_text("#mismatch").startswith("Seat 1 Perfect Pairs: paid 50.00, due 30.00 (overpaid by 20.00)")


def test_a_mis_payment_rejected_by_a_pit_boss_with_a_reason_the_dealer_sees(
    browser, live_server, demo_casino, dealer, pit_boss
):
    table = demo_casino.tables["unlimited-blackjack"]
    page = open_blackjack(browser, live_server, table, dealer, ["1-main-500", "1-main-500"])
    for code in ["TS", "7D", "9H", "TC"]:  # 19 against 17
        pick(page, code)
    act(page, "stand")
    settle(page)
    keypad(page, "1/main", "5")  # 5.00 handed over of 10.00 due
    assert page.inner_text("[data-paid='1/main']") == "5.00"
    assert page.inner_text("#btn-paid") == "Confirm paid (differs from due)"
    page.click("#btn-paid")
    page.wait_for_selector("#mismatch:has-text('paid 5.00, due 10.00')")
    assert page.inner_text("#mismatch") == (
        "Seat 1 main bet: paid 5.00, due 10.00 (short by 5.00) — the round stays open until what is paid matches "
        "what is due (set what you hand over and confirm again) or a pit boss approves.")

    boss = sign_in(browser, live_server, pit_boss)
    boss.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    boss.click("[data-reject-reason='pay the full amount due']")
    boss.click("#btn-reject")
    boss.wait_for_selector("#rejected-flag:not([hidden])")

    page.wait_for_selector("#rejected-flag:not([hidden])")  # the dealer's tablet polls and shows it
    assert page.inner_text("#rejected-flag") == (
        "Pit boss pitboss rejected this payment: pay the full amount due. Set what you hand over and confirm again.")
    shot(page, "tablet-rejected.png")
    page.click("[data-as-due='1/main']")
    page.click("#btn-paid")
    page.wait_for_selector("#closed-flag")
    assert page.inner_text("#closed-flag") == (
        "Round closed: paid as due · first payment rejected by pitboss: pay the full amount due")
    assert Round.objects.get(table=table).state == RoundState.CLOSED


def test_a_pit_boss_hands_the_table_over_mid_round_and_the_new_dealer_finishes_it(
    browser, live_server, demo_casino, dealer, pit_boss
):
    from django.contrib.auth.models import Group

    from tables.access import DEALER
    from tests.factories import UserFactory

    relief = UserFactory(username="relief")
    relief.groups.add(Group.objects.get(name=DEALER))
    table = demo_casino.tables["unlimited-blackjack"]
    page = open_blackjack(browser, live_server, table, dealer, ["1-main-500"])
    for code in ["TS", "7D"]:
        pick(page, code)

    boss = sign_in(browser, live_server, pit_boss)
    boss.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    boss.click("#btn-handover")
    boss.wait_for_selector("#handover-dialog[open]")
    assert "relief (free)" in boss.inner_text("#handover-list")
    boss.click("[data-handover='relief']")
    boss.wait_for_selector("#toast:has-text('handed over to relief')")

    page.wait_for_selector("#holder-flag:not([hidden])")
    assert page.inner_text("#holder-flag") == "A pit boss handed this table to relief: you are no longer the dealer here"

    relief_page = sign_in(browser, live_server, relief)
    relief_page.goto(f"{live_server.url}/tablet/tables/{table.pk}/")
    needs(relief_page, "card")
    for code in ["9H", "TC"]:
        pick(relief_page, code)
    act(relief_page, "stand")
    settle(relief_page)
    relief_page.click("#btn-paid")
    relief_page.wait_for_selector("#closed-flag")
    assert table.sessions.get(closed_at__isnull=True).dealer == relief


def test_a_shoe_feed_image_arriving_during_a_round_shows_on_the_tablet(
    browser, live_server, demo_casino, dealer, pit_boss, monkeypatch
):
    from tables import services
    from tables.services import shoe_feed

    monkeypatch.setattr(services.scans, "recognise", fake_recognise)
    table = demo_casino.tables["unlimited-blackjack"]
    page = open_blackjack(browser, live_server, table, dealer, ["1-main-500"])
    _, key = shoe_feed.shoe_feed_issue(table=table, name="shoe reader", actor=pit_boss)
    device = browser.new_context().request  # the shoe: no session, its key only
    for code in ["9S", "7D"]:
        answer = device.post(f"{live_server.url}/api/tables/{table.pk}/shoe-feed/",
                             headers={"Authorization": f"Device {key}", "Idempotency-Key": f"shoe-{code}"},
                             multipart={"image": {"name": "card.png", "mimeType": "image/png",
                                                  "buffer": card_image(code)}})  # fmt: skip
        assert answer.status == 200 and answer.json()["recorded"] == [code], answer.text()
    page.wait_for_selector("#hands [data-code='9S']")  # the tablet polls: the cards appear as they come
    page.wait_for_selector("#hands [data-code='7D']")
    needs(page, "card")
    pick(page, "TH")  # the dealer goes on by hand
    assert [c.code for c in Round.objects.get(table=table).cards.order_by("seq")] == ["9S", "7D", "TH"]


def test_a_whole_mini_blackjack_round_to_payment_with_the_hint(browser, live_server, demo_casino, dealer):
    table = demo_casino.tables["mini-blackjack"]
    page = open_blackjack(browser, live_server, table, dealer, ["1-main-500", "1-main-500"])
    for code in ["TS", "6D", "9H", "5C"]:  # the player's 19 against the dealer's 6 and 5
        pick(page, code)
    needs(page, "decision")
    assert page.is_visible("#hint") and page.inner_text("#hint").strip()  # Mini Blackjack tells the play
    act(page, "stand")
    page.wait_for_selector("#prompt:not([data-needs='decision'])")
    for code in ["7C", "2D", "2S"]:  # the dealer's 11 draws a 7: 18 stands
        if page.get_attribute("#prompt", "data-needs") != "card":
            break
        pick(page, code)
        page.wait_for_timeout(300)
    settle(page)
    rnd = Round.objects.get(table=table)
    due = rnd.due.get("1", {}).get("main")
    label = page.inner_text("[data-pay-seat='1'] h4") if due else ""
    assert (not due) or label == f"Seat 1: pay {due}", (rnd.due, label)
    page.click("#btn-paid")
    page.wait_for_selector("#closed-flag")
    rnd.refresh_from_db()
    assert rnd.state == RoundState.CLOSED
