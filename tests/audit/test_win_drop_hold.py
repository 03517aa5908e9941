"""Win/drop hold says what it judged: a period with no counted shift is "not counted", not "within the band"."""

from __future__ import annotations

from decimal import Decimal

from tables.audit.accounting import PeriodTotals, win_drop_hold


def test_a_period_without_a_counted_shift_is_not_counted_rather_than_within_the_band():
    # The walk-through: rows of 0.00 counted win over 0.00 drop read "within the band".
    h = win_drop_hold(PeriodTotals(rounds=40, handle=Decimal("400.00"), tracked_win=Decimal("8.00")))
    assert not h.flagged and h.reason == "not counted: no shift with an opener, a closer and a drop"
    assert h.hold_pct is None


def test_a_counted_period_near_theory_is_within_the_band():
    h = win_drop_hold(PeriodTotals(rounds=40, handle=Decimal("400.00"), counted_win=Decimal("6.00"),
                                   drop=Decimal("300.00"), theo_win=Decimal("5.2"), variance=400.0, counted_shifts=1))
    assert not h.flagged and h.reason == "within the band" and h.hold_pct == 2.0


def test_a_counted_period_without_rounds_says_there_was_nothing_to_judge():
    h = win_drop_hold(PeriodTotals(counted_win=Decimal("0.00"), drop=Decimal("50.00"), counted_shifts=1))
    assert h.reason == "no rounds to judge against theory"
