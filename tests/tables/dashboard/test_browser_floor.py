"""In a real browser (Playwright + the system Chromium) on the ASGI server: a table's tile changes as the
dealer plays, pushed without a reload; the alert filters; the landing page per role.  Screenshots of
the surfaces go to docs/img/ (kept in the repository as the pages' pictures)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tables import services
from tables.services.audits import audit_table_day
from tests.tables.dashboard.conftest import browser_page, make_mismatch
from tests.tables.tasks.builders import FloorBuilder, at, set_theory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IMG = Path(__file__).resolve().parents[3] / "docs" / "img"


def shot(page, name: str) -> None:
    IMG.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IMG / name), full_page=True)


def test_a_tile_follows_the_table_by_push_without_a_reload(browser, asgi_server, pit_boss, dealer, demo_casino,
                                                          settings):
    settings.PUSH_FALLBACK_POLL_SECONDS = 600  # no poll during the test: what changes came by push
    table = demo_casino.tables["unlimited-blackjack"]
    page = browser_page(browser, asgi_server, pit_boss)
    page.goto(f"{asgi_server}/dashboard/")
    page.wait_for_selector("#live.on", timeout=10_000)
    reloads: list[str] = []
    page.on("framenavigated", lambda frame: reloads.append(frame.url) if frame == page.main_frame else None)
    tile = page.locator(f"#tile-{table.pk}")

    # The demo casino's history may hold a round of this table in the last hour (by the time of day the
    # test runs): the tile counts one more than it showed.
    before = int(re.search(r"(\d+) rounds/h", tile.inner_text()).group(1))
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    t0 = time.monotonic()
    services.round_open(table=table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    page.wait_for_selector(f'#tile-{table.pk}[data-state="in_round"]', timeout=5_000)
    latency = time.monotonic() - t0
    assert "dealer" in tile.inner_text() and f"{before + 1} rounds/h" in tile.inner_text()
    assert latency < 2.0, f"the push took {latency:.2f} s"

    make_mismatch(demo_casino.tables["finnish-27"], dealer)  # another table: a mismatch turns it red
    page.wait_for_selector(f'#tile-{demo_casino.tables["finnish-27"].pk}[data-state="alert"]', timeout=5_000)
    page.wait_for_selector("#alerts li.alert", timeout=5_000)
    assert reloads == []
    shot(page, "dashboard-floor.png")
    page.context.close()
    time.sleep(0.3)


def test_a_slow_floor_read_does_not_put_back_what_a_push_moved_on(browser, asgi_server, pit_boss, dealer,
                                                                  demo_casino, settings):
    """The floor is read again when the stream opens; a read taken before the dealer acted that answers
    after the pushes (a slow server) must not turn the tile back (it did: "open, no round" in a round)."""
    settings.PUSH_FALLBACK_POLL_SECONDS = 600
    table = demo_casino.tables["unlimited-blackjack"]
    page = browser_page(browser, asgi_server, pit_boss)
    held: list = []

    def hold_later_reads(route):  # the first read answers; later ones are taken now and answered late
        response = route.fetch()
        if getattr(hold_later_reads, "answered", False):
            held.append((route, response))
        else:
            hold_later_reads.answered = True
            route.fulfill(response=response)

    page.route("**/dashboard/api/floor/*", hold_later_reads)
    page.goto(f"{asgi_server}/dashboard/")
    page.wait_for_selector("#live.on", timeout=10_000)
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the stream's read of the floor was not made"
    tile = page.locator(f"#tile-{table.pk}")

    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    services.round_open(table=table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    page.wait_for_selector(f'#tile-{table.pk}[data-state="in_round"]', timeout=5_000)
    for route, response in held:  # the old snapshot arrives now
        route.fulfill(response=response)
    page.wait_for_timeout(300)
    assert tile.get_attribute("data-state") == "in_round"
    text = tile.inner_text()
    assert "dealer" in text and "no dealer" not in text and "1 rounds/h" in text
    page.context.close()
    time.sleep(0.3)


def test_the_alert_filters(browser, asgi_server, pit_boss, dealer, demo_casino):
    ub = demo_casino.tables["unlimited-blackjack"]
    set_theory(ub, {"main": (0.005, 1.3)})
    from django.utils import timezone

    from tables.services.audits import gaming_day_of

    today = gaming_day_of(timezone.now())
    b = FloorBuilder(ub, dealer)
    b.shuffle(at(0.01, today))
    b.round(at(0.02, today), ["AS"] * 9)  # an impossible card: an audit finding at this table
    audit_table_day(ub.pk, today)
    rnd = make_mismatch(demo_casino.tables["finnish-27"], dealer)  # a payout mismatch at the other

    page = browser_page(browser, asgi_server, pit_boss)
    page.goto(f"{asgi_server}/dashboard/")
    items = page.locator("#alerts li.alert")
    page.locator("#alerts li.alert .head time").nth(1).wait_for(timeout=10_000)  # drawn by the script
    assert items.count() == 2
    first = items.first.inner_text()
    assert "table" in first and ":" in first  # a time, a table

    page.select_option("#a-kind", "payout-mismatch")
    visible = page.locator("#alerts li.alert:not([hidden])")
    assert visible.count() == 1 and f"round {rnd.number}" in visible.inner_text()
    assert "dealer dealer" in visible.inner_text()
    assert page.locator("#alert-count").inner_text() == "1"
    page.select_option("#a-kind", "card")
    assert visible.count() == 1 and f"table {ub.number}" in visible.inner_text()
    page.select_option("#a-kind", "")
    page.fill("#a-table", str(rnd.table.number))
    assert visible.count() == 1 and "Payout mismatch" in visible.inner_text()
    page.fill("#a-table", "")
    page.select_option("#f-state", "alert")  # the floor's own filter: only the two alerting tables
    assert page.locator(".tile:not([hidden])").count() == 2
    page.select_option("#f-state", "")
    shot(page, "dashboard-alerts.png")

    page.goto(f"{asgi_server}/dashboard/rounds/{rnd.pk}/")
    assert "recorded the payment" in page.content()
    shot(page, "dashboard-round.png")
    page.goto(f"{asgi_server}/dashboard/rounds/?dealer=dealer")
    shot(page, "dashboard-rounds.png")
    page.context.close()
    time.sleep(0.3)


@pytest.mark.parametrize("persona, password_user, place", [
    ("dealer", "dealer", "/tablet/"), ("pit_boss", "pitboss", "/dashboard/"), ("games_manager", "manager", "/admin/"),
    ("auditor", "auditor", "/dashboard/"),
])
def test_the_landing_page_sends_each_role_to_its_place(browser, live_server, request, persona, password_user, place):
    user = request.getfixturevalue(persona)
    user.set_password("a-long-test-password-1")
    user.save()
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    if persona == "dealer":
        shot(page, "landing.png")
    page.click("a.button")
    page.fill("input[name=username]", user.get_username())
    page.fill("input[name=password]", "a-long-test-password-1")
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(f"{live_server.url}{place}**", timeout=10_000)
    context.close()


@pytest.mark.parametrize("persona, place", [("pit_boss", "/dashboard/"), ("auditor", "/dashboard/"),
                                            ("games_manager", "/admin/"), ("dealer", "/tablet/")])
def test_signing_in_at_the_sign_in_page_itself_goes_to_the_roles_place(browser, live_server, request, persona, place):
    """Straight to /tablet/login/ (a bookmark, the README's sign-in page): a pit boss lands on the floor,
    not on the dealer's table picker."""
    user = request.getfixturevalue(persona)
    user.set_password("a-long-test-password-1")
    user.save()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{live_server.url}/tablet/login/")
    page.fill("input[name=username]", user.get_username())
    page.fill("input[name=password]", "a-long-test-password-1")
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(f"{live_server.url}{place}", timeout=10_000)
    context.close()


def test_hold_over_time_against_the_theory_band(browser, asgi_server, pit_boss, dealer, demo_casino):
    from datetime import timedelta

    from django.utils import timezone

    from tables.services.audits import gaming_day_of

    today = gaming_day_of(timezone.now())
    rng = __import__("random").Random(4)
    for slug in ("finnish-27", "unlimited-blackjack", "mini-blackjack"):
        table = demo_casino.tables[slug]
        set_theory(table, {"main": (0.02, 1.3)})
        b = FloorBuilder(table, dealer)
        for back in range(6, -1, -1):
            day = today - timedelta(days=back)
            b.shuffle(at(0.5, day))
            for k in range(12):
                net = rng.choice(["-10.00", "-10.00", "10.00", "-10.00", "10.00", "15.00"])
                b.round(at(1 + k * 0.05, day), ["2S"], nets={"main": net})
            audit_table_day(table.pk, day)
    page = browser_page(browser, asgi_server, pit_boss, viewport={"width": 1300, "height": 800})
    page.goto(f"{asgi_server}/dashboard/hold/?group=table&days=7")
    charts = page.locator("figure.chart")
    assert charts.count() == 3
    assert charts.first.locator("svg circle").count() == 7 and "%" in charts.first.locator("svg text").first.text_content()
    shot(page, "dashboard-hold.png")
    page.context.close()
