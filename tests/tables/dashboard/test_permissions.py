"""Who may see the dashboard: pit bosses, games managers and auditors; dealers and outsiders may not."""

from __future__ import annotations

import pytest

from tests.tables.dashboard.conftest import client_for

pytestmark = pytest.mark.django_db

PAGES = ["/dashboard/", "/dashboard/api/floor/", "/dashboard/api/alerts/", "/dashboard/reports/"]


@pytest.mark.parametrize("persona", ["pit_boss", "games_manager", "auditor"])
def test_the_floor_roles_see_every_dashboard_page(persona, request, demo_casino):
    c = client_for(request.getfixturevalue(persona))
    for page in PAGES + [f"/dashboard/tables/{demo_casino.tables['finnish-27'].pk}/"]:
        assert c.get(page).status_code == 200, page


@pytest.mark.parametrize("persona", ["dealer", "outsider"])
def test_dealers_and_outsiders_are_refused(persona, request, demo_casino):
    c = client_for(request.getfixturevalue(persona))
    for page in PAGES:
        assert c.get(page).status_code == 403, page


def test_an_anonymous_visitor_is_sent_to_log_in(client, db):
    response = client.get("/dashboard/")
    assert response.status_code == 302 and response["Location"].startswith("/tablet/login/")
    assert client.get("/dashboard/api/alerts/").status_code == 302


@pytest.mark.parametrize("persona", ["auditor", "games_manager"])
def test_only_a_pit_boss_decides_on_an_alert(persona, request, mismatch_round):
    c = client_for(request.getfixturevalue(persona))
    body = {"alert": f"round:{mismatch_round.pk}:{mismatch_round.version}", "decision": "approve", "reason": "ok"}
    response = c.post("/dashboard/alerts/decide/", body, content_type="application/json")
    assert response.status_code == 403
    mismatch_round.refresh_from_db()
    assert mismatch_round.state == "mismatch"


def test_the_auditor_sees_the_alerts_without_decision_buttons(auditor, mismatch_round):
    data = client_for(auditor).get("/dashboard/api/alerts/").json()
    assert data["can_decide"] is False
    assert [a["kind"] for a in data["alerts"]] == ["payout-mismatch"]
