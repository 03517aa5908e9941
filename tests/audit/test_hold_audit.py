"""Hold audit: theory, the variance band and the flat threshold."""

from decimal import Decimal

import pytest

from tables.audit.hold import RoundResult, hold_summary

D = Decimal


def rounds(n, handle, win, edge=0.013, variance=1.3):
    return [RoundResult(D(handle), D(win), edge, variance) for _ in range(n)]


def test_handle_win_and_hold_percentage():
    s = hold_summary(rounds(100, "10.00", "0.50"))
    assert (s.rounds, s.handle, s.win) == (100, D("1000.00"), D("50.00"))
    assert s.hold_pct == pytest.approx(5.0)
    assert s.theo_win == D("13.00")
    assert s.theo_hold_pct == pytest.approx(1.3)


def test_a_hold_within_the_band_is_not_flagged():
    # 100 rounds of 10: sigma = sqrt(100 * 1.3 * 100) = 114; a win of 50 against 13 is well inside.
    s = hold_summary(rounds(100, "10.00", "0.50"))
    assert s.sigma == pytest.approx(114.0175, rel=1e-4)
    assert not s.flagged
    assert s.band_low < s.win < s.band_high


def test_a_hold_outside_the_band_is_flagged_with_its_z_score():
    # 10,000 rounds of 10 with the house winning 1.00 each: theory 1,300, sigma 1,140, win 10,000.
    s = hold_summary(rounds(10_000, "10.00", "1.00"))
    assert s.z == pytest.approx((10_000 - 1_300) / 1140.175, rel=1e-4)
    assert s.flagged and "σ" in s.reason


def test_a_volatile_game_tolerates_more_than_a_flat_threshold():
    # Same hold far from theory: inside the band of a high-variance game, outside a flat 2-point rule.
    s = hold_summary(rounds(1_000, "10.00", "0.60", variance=50.0), flat_threshold_points=2.0)
    assert abs(s.z) < 2.58
    assert s.flagged and "points from theory" in s.reason


def test_win_to_drop():
    s = hold_summary(rounds(10, "10.00", "1.00"), drop=D("400.00"))
    assert s.win_to_drop_pct == pytest.approx(2.5)


def test_no_rounds_gives_an_empty_summary():
    s = hold_summary([])
    assert (s.rounds, s.hold_pct, s.z, s.flagged) == (0, None, None, False)


def test_confidence_out_of_range_is_refused():
    with pytest.raises(ValueError, match="confidence"):
        hold_summary([], confidence=1.5)
