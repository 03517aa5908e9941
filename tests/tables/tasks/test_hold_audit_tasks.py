"""The hold audit through the Celery task: handle, win, theory, the variance band, drop, periods."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest

from tables.models import AuditFinding, AuditKind, AuditResult, DropCount
from tables.tasks.audit import audit_table
from tests.tables.tasks.builders import DAY, at

pytestmark = pytest.mark.django_db
D = Decimal


def hold(table, period: str) -> dict:
    return AuditResult.objects.get(kind=AuditKind.HOLD, table=table, period=period).summary


def play(b, n: int, house_net: str, hour: float = 1.0):
    """``n`` rounds of 10.00 where the house wins ``house_net`` each (negative: the player won)."""
    b.shuffle(at(hour))
    deck = [r + s for s in "SHDC" for r in "23456789TJQKA"]
    for i in range(n):
        b.round(at(hour) + timedelta(seconds=30 * i), [deck[i % 52]], nets={"main": str(-D(house_net))})


def test_a_hold_inside_the_confidence_band_is_not_flagged(f27):
    play(f27, 100, "0.50")  # win 50 on a handle of 1,000; theory 20, sigma sqrt(1.5 * 100 * 10^2) = 122
    audit_table.apply(args=[f27.table.pk, DAY.isoformat()]).get()
    h = hold(f27.table, f"day:{DAY}")
    assert (h["rounds"], h["handle"], h["win"], h["theo_win"]) == (100, "1000.00", "50.00", "20.00")
    assert h["hold_pct"] == pytest.approx(5.0) and h["theo_hold_pct"] == pytest.approx(2.0)
    assert h["sigma"] == pytest.approx(122.474, rel=1e-4)
    assert not h["flagged"] and not AuditFinding.objects.filter(rule="hold.anomaly").exists()


def test_a_hold_outside_the_confidence_band_is_flagged_with_its_z_score(f27):
    play(f27, 100, "10.00")  # the house won every round: win 1,000 against a theory of 20
    audit_table.apply(args=[f27.table.pk, DAY.isoformat()]).get()
    h = hold(f27.table, f"day:{DAY}")
    assert h["flagged"] and h["z"] == pytest.approx((1000 - 20) / 122.474, rel=1e-4)
    finding = AuditFinding.objects.get(rule="hold.anomaly", result__period=f"day:{DAY}")
    assert "σ" in finding.message and finding.table == f27.table


def test_the_band_follows_the_games_variance_not_a_flat_threshold(f27, settings):
    play(f27, 100, "1.00")  # hold 10% against 2%: eight points off, but only 0.65 sigma
    settings.AUDIT_FLAT_THRESHOLD_POINTS = None
    audit_table.apply(args=[f27.table.pk, DAY.isoformat()]).get()
    assert not hold(f27.table, f"day:{DAY}")["flagged"]
    settings.AUDIT_FLAT_THRESHOLD_POINTS = 5  # the regulators' flat style, as an option
    audit_table.apply(args=[f27.table.pk, DAY.isoformat()]).get()
    h = hold(f27.table, f"day:{DAY}")
    assert h["flagged"] and "points from theory" in h["reason"]


def test_side_bets_enter_with_their_own_edge_and_variance(bj):
    bj.shuffle(at(1))
    bj.round(at(1.1), ["2S"], wagers={"main": "10.00", "perfect-pairs": "5.00"},
             nets={"main": "-10.00", "perfect-pairs": "-5.00"})
    audit_table.apply(args=[bj.table.pk, DAY.isoformat()]).get()
    h = hold(bj.table, f"day:{DAY}")
    assert h["handle"] == "15.00" and h["win"] == "15.00"
    # The main bet's edge is the one its pay table shows (one house edge everywhere); the side bet's
    # edge and both variances are the audit's own: 10 x edge + 5 x 0.04.
    from tables.services.theory import theory_for as pay_table_theory

    edge = pay_table_theory(bj.table.pay_table, bj.table.rule_set, enqueue=False)["house_edge"]
    assert D(h["theo_win"]) == (D(10) * D(str(edge)) + D("0.20")).quantize(D("0.01"))
    assert h["sigma"] == pytest.approx((1.3 * 100 + 15.6 * 25) ** 0.5)


def test_win_to_drop_when_the_drop_is_counted(f27):
    play(f27, 10, "3.00")
    DropCount.objects.create(table=f27.table, gaming_day=DAY, amount=D("150.00"))
    audit_table.apply(args=[f27.table.pk, DAY.isoformat()]).get()
    h = hold(f27.table, f"day:{DAY}")
    assert h["drop"] == "150.00" and h["win_to_drop_pct"] == pytest.approx(20.0)


def test_shifts_and_month_to_date_split_and_sum_the_rounds(f27):
    play(f27, 4, "10.00", hour=1)  # day shift
    play(f27, 6, "10.00", hour=9)  # swing shift
    earlier = DAY - timedelta(days=1)
    f27.shuffle(at(3, earlier))
    f27.round(at(3, earlier), ["2S"], nets={"main": "-10.00"})
    audit_table.apply(args=[f27.table.pk, DAY.isoformat()]).get()
    assert hold(f27.table, f"shift:{DAY}/day")["rounds"] == 4
    assert hold(f27.table, f"shift:{DAY}/swing")["rounds"] == 6
    assert hold(f27.table, f"shift:{DAY}/graveyard")["rounds"] == 0
    assert hold(f27.table, f"day:{DAY}")["rounds"] == 10
    assert hold(f27.table, f"mtd:{DAY}")["rounds"] == 11


def test_cancelled_and_open_rounds_are_not_counted(f27):
    f27.shuffle(at(1))
    f27.round(at(1.1), ["2S"], nets={"main": "-10.00"})
    f27.round(at(1.2), ["3S"], nets={}, state="cancelled")
    f27.round(at(1.3), ["4S"], nets={}, state="in_play")
    audit_table.apply(args=[f27.table.pk, DAY.isoformat()]).get()
    assert hold(f27.table, f"day:{DAY}")["rounds"] == 1
