"""The accounting page writes its days as the rest of the dashboard does ("Wed 25 Nov 2026"), its day box
included (a date picker showed the browser's 11/25/2026); a typed day is read back the same way."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from tables.days import day_text, parse_day
from tables.selectors.accounting import shift_of
from tables.templatetags.floor_words import day
from tests.tables.dashboard.conftest import client_for

IMG = Path(__file__).resolve().parents[3] / "docs" / "img"


def test_a_day_in_words_and_read_back() -> None:
    assert day_text(date(2026, 11, 25)) == "Wed 25 Nov 2026" == day("2026-11-25")
    today = date(2026, 11, 25)
    for typed in ("Wed 25 Nov 2026", "25 Nov 2026", "25 nov", "2026-11-25", "25 November 2026"):
        assert parse_day(typed, today) == today, typed
    assert parse_day("11/25/2026", today) is None and parse_day("soon", today) is None


@pytest.mark.django_db
def test_the_page_writes_every_day_in_the_dashboards_words(pit_boss) -> None:
    html = client_for(pit_boss).get("/dashboard/accounting/?day=2026-11-25").content.decode()
    assert "gaming day Wed 25 Nov 2026" in html and 'value="Wed 25 Nov 2026"' in html
    assert "Tue 24 Nov 2026" in html and "Thu 26 Nov 2026" in html  # the days before and after
    assert 'type="date"' not in html and "2026-11-25</" not in html
    again = client_for(pit_boss).get("/dashboard/accounting/?day=Tue+24+Nov+2026").content.decode()
    assert "gaming day Tue 24 Nov 2026" in again
    wrong = client_for(pit_boss).get("/dashboard/accounting/?day=11/25/2026").content.decode()
    assert "is not a day such as" in wrong


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_pit_boss_sees_and_types_days_as_the_dashboard_writes_them(browser, live_server, pit_boss) -> None:
    client = Client()
    client.force_login(pit_boss)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/dashboard/accounting/")
    today = shift_of(timezone.now())[0]
    us = f"{today.month}/{today.day}/{today.year}"
    assert page.locator("h1").inner_text() == f"Table accounting — gaming day {day_text(today)}"
    assert page.locator("#day").input_value() == day_text(today)  # what the box shows, in an en-US browser
    assert us not in page.locator("body").inner_text()
    page.screenshot(path=str(IMG / "accounting-dates.png"))
    yesterday = today - timedelta(days=1)
    page.fill("#day", f"{yesterday.day} {yesterday:%b}")
    page.click("form.day button")
    page.wait_for_url("**day=*")
    assert page.locator("h1").inner_text().endswith(day_text(yesterday))
    page.click("#next-day")
    page.wait_for_load_state()
    assert page.locator("h1").inner_text().endswith(day_text(today))
    assert page.locator("#next-day").count() == 0  # no link to a gaming day not started yet
    context.close()


def test_audit_periods_read_in_words():
    from tables.days import period_words

    assert period_words("day:2026-11-25") == "gaming day Wed 25 Nov 2026"
    assert period_words("shift:2026-11-25/swing") == "swing shift of Wed 25 Nov 2026"
    assert period_words("mtd:2026-11-25") == "month to Wed 25 Nov 2026"
    assert period_words("year:2026") == "year:2026"  # a key of another form is shown as it is
