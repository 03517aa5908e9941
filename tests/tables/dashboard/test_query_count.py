"""The dashboard's polled endpoints cost a fixed number of queries, however many tables and rounds."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.services.audits import gaming_day_of
from tables.tasks.audit import audit_today
from tests.factories import TableFactory, game
from tests.tables.dashboard.conftest import client_for, make_mismatch
from tests.tables.tasks.builders import FloorBuilder, at, set_theory

pytestmark = pytest.mark.django_db

# session + user, the user's permissions (user and group), the user's floor scope, the newest event's id
# (what pushes the read may not hold yet), then the floor's reads: tables, open sessions, rounds this hour, open rounds, open shoes, today's hold as stored, and the tables
# with an open alert (rounds, findings).
FLOOR_QUERIES = 4 + 1 + 1 + 8
# session + user, permissions, the scope, then mismatches, approvals waiting, decisions on them, open
# findings; and the roles of the user (can_decide).
ALERT_QUERIES = 4 + 1 + 4 + 1


def _busy_floor(demo_casino, dealer, extra_tables: int) -> None:
    now = timezone.now()
    for t in list(demo_casino.tables.values())[:3]:
        set_theory(t, {"main": (0.01, 1.3)})
        b = FloorBuilder(t, dealer)
        b.shuffle(now - timedelta(minutes=50))
        b.deal_rounds(now - timedelta(minutes=45), 5, 4)
    for k in range(extra_tables):
        t = TableFactory(game=game("mini-blackjack"), pit=demo_casino.pit, number=50 + k)
        b = FloorBuilder(t, dealer)
        b.shuffle(now - timedelta(minutes=30))
        b.deal_rounds(now - timedelta(minutes=20), 3, 4)
    make_mismatch(demo_casino.tables["finnish-27"], dealer)


@pytest.mark.parametrize("extra_tables", [0, 6])
def test_the_floor_costs_a_fixed_number_of_queries(extra_tables, demo_casino, dealer, pit_boss,
                                                   django_assert_num_queries):
    _busy_floor(demo_casino, dealer, extra_tables)
    c = client_for(pit_boss)
    with django_assert_num_queries(FLOOR_QUERIES):
        data = c.get("/dashboard/api/floor/").json()
    assert len(data["tables"]) == 5 + extra_tables
    busy = [t for t in data["tables"] if t["rounds_this_hour"]]
    assert len(busy) == 3 + extra_tables


@pytest.mark.parametrize("extra_tables", [0, 6])
def test_the_alerts_cost_a_fixed_number_of_queries(extra_tables, demo_casino, dealer, pit_boss,
                                                   django_assert_num_queries):
    _busy_floor(demo_casino, dealer, extra_tables)
    c = client_for(pit_boss)
    with django_assert_num_queries(ALERT_QUERIES):
        data = c.get("/dashboard/api/alerts/").json()
    assert [a["kind"] for a in data["alerts"]] == ["payout-mismatch"]


def test_todays_hold_on_the_floor_is_the_running_audits(demo_casino, dealer, pit_boss):
    table = demo_casino.tables["finnish-27"]
    set_theory(table, {"main": (0.02, 1.5)})
    b = FloorBuilder(table, dealer)
    today = gaming_day_of(timezone.now())
    b.shuffle(at(0.01, today))
    b.round(at(0.02, today), ["2S"], nets={"main": "-10.00"})
    b.round(at(0.03, today), ["3S"], nets={"main": "-10.00"}, wagers={"main": "10.00"})
    audit_today.apply().get()  # the beat runs it every five minutes
    row = next(t for t in client_for(pit_boss).get("/dashboard/api/floor/").json()["tables"] if t["id"] == table.pk)
    assert row["hold"]["handle"] == "20.00" and row["hold"]["win"] == "20.00"
    assert row["hold"]["hold_pct"] == pytest.approx(100.0) and row["hold"]["theo_hold_pct"] == pytest.approx(2.0)
    assert row["rounds_today"] == 2 and row["shoe"] == 1 and row["hold_as_of"]
