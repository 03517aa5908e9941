"""Today's hold follows the rounds as they settle: one coalesced refresh per table and window."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from tables import services
from tables.models import AuditKind, AuditResult
from tables.services import hold
from tests.tables.dashboard.conftest import make_mismatch
from tests.tables.tasks.builders import set_theory

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch: Any) -> list[int]:
    from tables.tasks import floor

    out: list[int] = []
    monkeypatch.setattr(floor.hold_refresh, "apply_async", lambda args, countdown: out.append(args[0]))
    cache.clear()
    return out


def test_settling_rounds_schedules_one_refresh_per_table(queued, demo_casino, dealer,
                                                         django_capture_on_commit_callbacks):
    table = demo_casino.tables["finnish-27"]
    with django_capture_on_commit_callbacks(execute=True):
        make_mismatch(table, dealer)  # settle and pay: two writes that change the hold
    with django_capture_on_commit_callbacks(execute=True):
        rnd = services.round_open(table=table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
        for code in ("JK", "5C", "4H", "6D"):
            services.round_add_card(round=rnd, code=code, actor=dealer)
        services.round_settle(round=rnd, actor=dealer)
    assert queued == [table.pk]  # coalesced within the window


def test_the_refresh_stores_todays_hold_and_says_as_of_when(demo_casino, dealer):
    table = demo_casino.tables["finnish-27"]
    set_theory(table, {"main": (0.02, 1.5)})
    make_mismatch(table, dealer)
    out = hold.hold_refresh_today(table.pk)
    assert out is not None and out["hold"]["rounds"] == 1 and out["as_of"]
    stored = AuditResult.objects.get(kind=AuditKind.HOLD, table=table, period__startswith="day:")
    assert stored.summary["win"] == "-10.00"  # the house paid a Joanca 10.00 on 10.00
    assert hold.hold_refresh_today(demo_casino.tables["bluffjack"].pk) is None  # a pot game holds nothing
    # A message naming a table that is not there (left in the broker by another database) refreshes nothing.
    assert hold.hold_refresh_today(10**6) is None
