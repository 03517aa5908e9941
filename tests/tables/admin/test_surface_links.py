"""The back office links to the other surfaces: the floor and the reports for the games manager and the
auditor (the dashboard is theirs to read too), table accounting for the count team; sign-out stays."""

from __future__ import annotations

import pytest

from tables.access import COUNT_TEAM
from tests.conftest import _persona
from tests.tables.dashboard.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("persona", ["games_manager", "auditor", "pit_boss"])
def test_the_back_office_links_to_the_floor_and_the_reports(request, persona):
    c = client_for(request.getfixturevalue(persona))
    page = c.get("/admin/").content.decode()
    assert 'href="/dashboard/"' in page and 'href="/dashboard/reports/"' in page
    assert c.get("/dashboard/").status_code == 200 and c.get("/dashboard/reports/").status_code == 200
    assert 'id="logout-form"' in page and 'href="/"' in page  # sign-out and "View site" (the landing page)


def test_the_count_team_is_linked_to_table_accounting_not_the_floor():
    c = client_for(_persona("counter", COUNT_TEAM, staff=True))
    page = c.get("/admin/").content.decode()
    assert 'href="/dashboard/accounting/"' in page and 'href="/dashboard/"' not in page
