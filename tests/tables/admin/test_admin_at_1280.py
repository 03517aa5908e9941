"""The back office at 1280×800: a list with its filters shows every column (nothing scrolled out of
sight), and tables are named by their game's name, not its slug."""

from __future__ import annotations

import pytest

from tables.access import AUDITOR
from tests.conftest import _persona
from tests.tables.dashboard.conftest import browser_page, client_for

pytestmark = pytest.mark.django_db


def test_a_table_is_named_by_its_games_name(demo_casino):
    table = demo_casino.tables["unlimited-blackjack"]
    assert str(table) == f"Table {table.number} (Unlimited Blackjack)"


def test_the_back_office_pages_have_no_app_list_down_the_side(games_manager):
    page = client_for(games_manager).get("/admin/tables/paytable/").content.decode()
    assert 'id="nav-sidebar"' not in page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "path", ["/admin/tables/paytable/", "/admin/tables/ruleset/", "/admin/tables/table/"]
)
def test_a_list_with_filters_shows_every_column_at_1280(browser, live_server, demo_casino, path):
    from tables import services

    services.table_open(
        table=demo_casino.tables["unlimited-blackjack"], actor=_persona("pitboss2", "Pit boss", staff=True)
    )
    page = browser_page(
        browser,
        live_server.url,
        _persona("auditor", AUDITOR, staff=True),
        viewport={"width": 1280, "height": 800},
    )
    page.goto(f"{live_server.url}{path}")
    results = page.locator("#changelist .results")
    results.wait_for()
    hidden = page.evaluate("el => el.scrollWidth - el.clientWidth", results.element_handle())
    assert hidden <= 1, f"{hidden}px of the list scrolled out of sight"
    page.context.close()
