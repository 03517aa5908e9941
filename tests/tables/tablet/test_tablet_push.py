"""The tablet follows its table by push (server-sent events on the ASGI server, docs/push.md): what
another device does — a round opened, a pit boss's rejection with its reason — shows at once, not at the
next poll (which, with the stream live, comes only every 15 s)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tables import services
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _sign_in(browser: Any, base: str, user: Any) -> Any:
    user.set_password(PASSWORD)
    user.save()
    page = browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True, bypass_csp=True).new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{base}/tablet/")  # the tablet's own address: its sign-in comes back to it
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/tablet/")
    return page


def test_a_round_opened_elsewhere_and_a_rejection_reach_the_tablet_by_push(browser, asgi_server, demo_casino,
                                                                           dealer, pit_boss):
    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    page = _sign_in(browser, asgi_server, dealer)
    page.goto(f"{asgi_server}/tablet/tables/{table.pk}/")
    page.wait_for_function("window.TabletPush && window.TabletPush.live", timeout=10_000)
    time.sleep(3.5)  # past the poll that may have been due: what follows can only come by push

    t0 = time.monotonic()
    rnd = services.round_open(table=table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    page.wait_for_selector("#btn-pause:visible", timeout=4_000)
    opened = time.monotonic() - t0

    cards = iter(["TS", "TH", "9D", "7C"])  # seat 10 9 = 19 stands; the dealer's 10 7 = 17
    while True:
        rnd.refresh_from_db()
        step = rnd.prompt
        if step.get("needs") == "card":
            services.round_add_card(round=rnd, code=next(cards), actor=dealer)
        elif step.get("needs") == "decision":
            services.round_decide(round=rnd, action="stand", actor=dealer)
        else:
            break
    if rnd.state == "in_play":
        services.round_settle(round=rnd, actor=dealer)
    services.round_record_paid(round=rnd, paid={"1": {"main": "5.00"}}, actor=dealer)  # short: a mismatch
    t1 = time.monotonic()
    services.round_reject(round=rnd, reason="pay the full 10.00 win", actor=pit_boss)
    page.wait_for_selector("text=pay the full 10.00 win", timeout=4_000)
    rejected = time.monotonic() - t1
    assert opened < 2.5 and rejected < 2.5, (opened, rejected)
    page.context.close()
