"""One theo win in every section of the nightly report: the exact sum, rounded once, half up (audit/theo.py).

The case that used to differ: a theo of 0.375 in each of the three shifts.  The accounting section added
the three shifts rounded (0.38 × 3 = 1.14) while the hold section rounded the day's float sum half to even
(1.125 → 1.12): two theo wins of one table and day, two cents apart.  Now both say 1.13.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from tables import services
from tables.audit.theo import theo_cents, theo_exact
from tables.models import TableSession
from tables.selectors.accounting import SHIFT_NAMES, shift_bounds, shift_of
from tables.services.accounting import drop_record, slip_create, slip_sign
from tables.services.audits import audit_table_day
from tables.services.floor_sim import simulated_clock
from tables.services.reports import gather, groups, render_csv
from tests.tables.tasks.builders import FloorBuilder, set_theory

pytestmark = pytest.mark.django_db
D = Decimal
FLOAT = {"100": 50, "25": 100, "5": 200}


def test_theo_rounds_the_exact_sum_once_half_up() -> None:
    exact = theo_exact([(D("10.00"), 0.0375)] * 3)
    assert exact == D("1.125") and theo_cents(exact) == D("1.13")
    assert sum((theo_cents(theo_exact([(D("10.00"), 0.0375)])) for _ in range(3)), D(0)) == D("1.14")  # the old way


def test_the_hold_and_accounting_sections_give_one_theo_win_to_the_cent(demo_casino, dealer, pit_boss, counter) -> None:
    table = demo_casino.tables["unlimited-blackjack"]
    set_theory(table, {"main": (0.005, 1.3), "perfect-pairs": (0.0375, 15.6)})
    services.table_open(table=table, actor=dealer)
    day = shift_of(timezone.now())[0] - timedelta(days=1)
    b = FloorBuilder(table, dealer)
    for shift in SHIFT_NAMES:  # one counted shift each: a 10.00 Perfect Pairs bet (theo 0.375), the house wins it
        start, end = shift_bounds(day, shift)
        with simulated_clock(TableSession):
            TableSession.objects.create(table=table, dealer=dealer, opened_by=dealer, opened_at=start, closed_at=end)
        b.round(start + timedelta(hours=1), ["TS", "7H"], wagers={"perfect-pairs": "10.00"},
                nets={"perfect-pairs": "-10.00"})
        kw = {"gaming_day": day, "shift": shift}
        for kind in ("opener", "closer"):
            slip = slip_create(table=table, kind=kind, chips=FLOAT, actor=pit_boss, **kw)
            slip_sign(slip=slip, step="supervisor", actor=pit_boss)
            slip_sign(slip=slip, step="dealer", actor=dealer)
        drop_record(table=table, amount="10.00", actor=counter, **kw)
    audit_table_day(table.pk, day)

    data = gather(day)
    hold_theo = D(data.tables[0]["hold"]["theo_win"])
    accounting_theo = D(next(h for h in data.accounting["holds"] if h["period"] == "day")["theo_win"])
    assert hold_theo == accounting_theo == D("1.13")
    assert data.totals["theo_win"] == groups(data)[0]["theo_win"] == D("1.13")
    rows = list(csv.DictReader(io.StringIO(render_csv(data))))
    in_csv = {(r["section"], r["period"]): r["theo_win"] for r in rows if r["period"] == "day"}
    assert in_csv == {("hold", "day"): "1.13", ("win-drop", "day"): "1.13"}


@pytest.fixture
def counter(db: None) -> object:
    from django.contrib.auth.models import Group

    from tables.access import COUNT_TEAM
    from tests.factories import UserFactory

    user = UserFactory(username="counter")
    user.groups.add(Group.objects.get(name=COUNT_TEAM))
    return user
