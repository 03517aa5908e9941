"""In a real browser (Playwright + the system Chromium): a new payout mismatch appears on the open
dashboard without a reload, and the pit boss approves it from the alert."""

from __future__ import annotations

import time

import pytest

from tables.models import RoundState
from tests.tables.dashboard.conftest import make_mismatch

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]




def test_a_new_mismatch_shows_up_live_and_the_pit_boss_approves_it(browser, live_server, pit_boss, dealer,
                                                                   demo_casino):
    from django.test import Client

    client = Client()
    client.force_login(pit_boss)
    context = browser.new_context()
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/dashboard/")
    page.wait_for_selector("#alerts li.none")  # the board is quiet
    reloads: list[str] = []
    page.on("framenavigated", lambda frame: reloads.append(frame.url) if frame == page.main_frame else None)

    rnd = make_mismatch(demo_casino.tables["finnish-27"], dealer)  # the dealer pays 5.00 of 10.00 due

    alert = page.locator(f'#alerts li[data-id="round:{rnd.pk}:{rnd.version}"]')
    alert.wait_for(timeout=20_000)  # the WSGI live server refuses the stream (501): the 10 s fallback poll
    assert "Payout mismatch" in alert.inner_text() and "paid 5.00, due 10.00" in alert.inner_text()
    assert reloads == []  # it came by polling, not by a reload
    alert.locator("input[name=reason]").fill("short-paid by 5; paid the player the difference")
    alert.locator("button.approve").click()
    page.wait_for_selector("#alerts li.none", timeout=10_000)
    context.close()  # stops the polling
    time.sleep(0.5)  # a poll still in flight finishes (and closes its database connection) before teardown
    rnd.refresh_from_db()
    assert rnd.state == RoundState.CLOSED
    assert rnd.approvals.get().approved_by == pit_boss
