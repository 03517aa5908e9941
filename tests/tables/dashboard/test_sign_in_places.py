"""Signing in at the one sign-in page sends each role to its place (not every role to the dealer's table
picker), the cage and the count team included, and the dashboard's menu offers only pages the user may open."""

from __future__ import annotations

import pytest

from tables.access import CAGE_CASHIER, COUNT_TEAM
from tests.conftest import _persona
from tests.tables.dashboard.conftest import client_for

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password-1"


def sign_in(client, user):
    user.set_password(PASSWORD)
    user.save()
    response = client.post("/tablet/login/", {"username": user.get_username(), "password": PASSWORD})
    assert response.status_code == 302
    return client.get(response.url)


@pytest.mark.parametrize(
    "persona, place",
    [
        ("dealer", "/tablet/"),
        ("pit_boss", "/dashboard/"),
        ("auditor", "/dashboard/"),
        ("games_manager", "/admin/"),
    ],
)
def test_signing_in_at_the_sign_in_page_goes_to_the_roles_place(client, request, persona, place):
    landing = sign_in(client, request.getfixturevalue(persona))
    assert landing.status_code == 302 and landing.url == place


@pytest.mark.parametrize("role", [CAGE_CASHIER, COUNT_TEAM])
def test_the_cage_and_the_count_team_land_on_table_accounting(client, role):
    landing = sign_in(client, _persona("counter", role, staff=True))
    assert landing.status_code == 302 and landing.url == "/dashboard/accounting/"


def test_the_count_teams_menu_holds_only_pages_it_may_open(demo_casino):
    c = client_for(_persona("counter", COUNT_TEAM, staff=True))
    page = c.get("/dashboard/accounting/").content.decode()
    for path in (
        "/dashboard/rounds/",
        "/dashboard/hold/",
        "/dashboard/alerts/history/",
        "/dashboard/reports/",
        "/tablet/",
    ):
        assert f'href="{path}"' not in page, path
        assert c.get(path).status_code == 403, path
    assert 'href="/dashboard/accounting/"' in page and 'action="/logout/"' in page


def test_the_pit_bosss_menu_holds_every_page_of_the_dashboard(pit_boss):
    page = client_for(pit_boss).get("/dashboard/").content.decode()
    for path in (
        "/dashboard/rounds/",
        "/dashboard/hold/",
        "/dashboard/alerts/history/",
        "/dashboard/reports/",
        "/dashboard/accounting/",
        "/tablet/",
        "/admin/",
    ):
        assert f'href="{path}"' in page, path
