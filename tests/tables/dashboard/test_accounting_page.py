"""The dashboard's accounting page: who sees it, the reconciliation with its finding, the ratings; and in a
real browser (Playwright), the page a pit boss reads after a simulated floor (screenshot in docs/)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from tables.access import CAGE_CASHIER
from tables.services.audits import audit_table_day, day_bounds, gaming_day_of
from tables.services.floor_sim import Mishaps, simulate_floor
from tests.factories import UserFactory
from tests.tables.dashboard.conftest import client_for
from tests.tables.tasks.builders import set_theory

DOCS = Path(__file__).resolve().parents[3] / "docs"


def _floor(demo_casino):
    for t in demo_casino.tables.values():
        set_theory(t, {"main": (0.01, 1.3), "perfect-pairs": (0.04, 15.6), "21+3": (0.06, 14.4)})
    day = gaming_day_of(timezone.now()) - timedelta(days=1)
    until = day_bounds(day)[0] + timedelta(hours=17)
    r = simulate_floor(tables=3, days=1, rounds_per_hour=8, seed=4, until=until, mishaps=Mishaps(mispay=0, missing_chips=0.5))
    for pk in r.tables:
        audit_table_day(pk, day)
    return day, r


@pytest.mark.django_db
def test_the_page_shows_the_shift_whose_chips_went_missing_and_the_ratings(demo_casino, pit_boss, dealer):
    day, r = _floor(demo_casino)
    assert r.accounting.missing
    page = client_for(pit_boss).get(f"/dashboard/accounting/?day={day.isoformat()}")
    assert page.status_code == 200
    html = page.content.decode()
    for table_pk, _, shift, lost in r.accounting.missing:
        number = demo_casino.tables[next(s for s, t in demo_casino.tables.items() if t.pk == table_pk)].number
        assert f'class="flagged" data-table="{number}" data-shift="{shift}"' in html
        assert f"short by {lost}" in html
    assert "Guest" in html and "estimate" in html
    assert client_for(dealer).get("/dashboard/accounting/").status_code == 403


@pytest.mark.django_db
def test_the_cage_and_the_auditor_read_it_and_a_stranger_signs_in_first(auditor, client):
    cage = UserFactory(username="cage")
    cage.groups.add(Group.objects.get(name=CAGE_CASHIER))
    assert client_for(cage).get("/dashboard/accounting/").status_code == 200
    assert client_for(auditor).get("/dashboard/accounting/?day=not-a-day").status_code == 200
    assert client.get("/dashboard/accounting/").status_code == 302


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_pit_boss_reads_the_accounting_page_in_a_browser(browser, live_server, pit_boss, demo_casino):
    from django.test import Client

    day, r = _floor(demo_casino)
    client = Client()
    client.force_login(pit_boss)
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/dashboard/accounting/?day={day.isoformat()}")
    flagged = page.locator("#reconciliation tr.flagged")
    assert flagged.count() == len(r.accounting.missing) > 0
    assert "short by" in flagged.first.inner_text()
    assert page.locator("#ratings tbody tr").count() > 0
    page.screenshot(path=str(DOCS / "accounting-dashboard.png"), full_page=True)
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_pit_writes_signs_and_voids_a_slip_and_seats_a_player_from_the_page(browser, live_server, pit_boss,
                                                                                dealer, demo_casino):
    from django.test import Client

    from tables import services
    from tables.models import RatingSlip, Slip
    from tables.services.accounting import slip_sign

    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    client = Client()
    client.force_login(pit_boss)
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url},
                         {"name": "csrftoken", "value": "x" * 32, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/dashboard/accounting/")
    form = page.locator("#slip-form")
    form.locator("select[name=table]").select_option(str(table.pk))
    form.locator("select[name=kind]").select_option("opener")
    form.locator("input[name='chips.25']").fill("40")
    form.locator("input[name='chips.100']").fill("12")
    form.locator("button").click()
    row = page.locator("#slips tr[data-slip]")
    row.first.wait_for(timeout=10_000)
    slip = Slip.objects.get()
    assert slip.total == Decimal("2200.00") and slip.created_by == pit_boss
    assert "awaiting dealer" in row.first.inner_text()
    row.first.locator("button[name=step]").click()  # the pit boss is not the table's dealer
    row.first.locator(".status.flag").wait_for(timeout=10_000)
    assert "only a dealer" in row.first.inner_text()
    slip_sign(slip=slip, step="dealer", actor=dealer)  # at the table, on the tablet
    page.reload()
    page.locator("#slips button[name=step][value=supervisor]").click()
    page.locator("#slips tr[data-slip]", has_text="complete").wait_for(timeout=10_000)
    seat = page.locator("#seat-form")
    seat.locator("select[name=table]").select_option(str(table.pk))
    seat.locator("input[name=seat]").fill("2")
    seat.locator("input[name=card_number]").fill("C-4242")
    seat.locator("button").click()
    page.locator("#seated td", has_text="C-4242").wait_for(timeout=10_000)
    assert RatingSlip.objects.get().player.card_number == "C-4242"
    page.screenshot(path=str(DOCS / "accounting-pit-forms.png"), full_page=True)
    page.locator("#slips input[name=reason]").fill("recount: the 25s were stacked twice")
    page.locator("#slips form", has=page.locator("input[name=reason]")).locator("button").click()
    page.locator("#slips tr[data-slip]", has_text="recount").wait_for(timeout=10_000)
    assert slip.void.reason == "recount: the 25s were stacked twice"
    context.close()


@pytest.mark.django_db
def test_each_reader_is_offered_only_the_controls_their_role_may_use(demo_casino, pit_boss, auditor):
    # The walk-through: the auditor read Write slip, Enter drop, Seat player, void, pause and close, each a
    # 403 when pressed.
    from tables.access import COUNT_TEAM

    day, _ = _floor(demo_casino)
    url = f"/dashboard/accounting/?day={day.isoformat()}"
    cage = UserFactory(username="cage")
    cage.groups.add(Group.objects.get(name=CAGE_CASHIER))
    count = UserFactory(username="count")
    count.groups.add(Group.objects.get(name=COUNT_TEAM))
    pages = {who: client_for(user).get(url).content.decode()
             for who, user in (("pit", pit_boss), ("auditor", auditor), ("cage", cage), ("count", count))}
    assert all(f'id="{f}"' in pages["pit"] for f in ("slip-form", "seat-form")) and "/void/" in pages["pit"]
    auditor_page = pages["auditor"]
    for control in ('id="slip-form"', 'id="drop-form"', 'id="seat-form"', "/void/", "/sign/", "/ratings/"):
        assert control not in auditor_page, control
    assert "Read only" in auditor_page
    assert 'id="drop-form"' in pages["count"] and 'id="slip-form"' not in pages["count"]
    assert 'id="slip-form"' not in pages["cage"]
