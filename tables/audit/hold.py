"""Hold audit: handle, win, hold % against theory, with a z-score from the game's own variance.

The house's result over n rounds is a sum of independent per-round results.  With a theoretical
edge e_i and a per-unit variance v_i for round i with handle h_i, the expected win is Σ e_i·h_i and
its variance Σ v_i·h_i² (the variance of one unit bet, scaled by the square of the stake).  The
deviation z = (win − theo) / σ is then judged against the normal quantile for the chosen confidence:
the game's own volatility sets the band, not a flat threshold — a 999× bonus game swings far more
than blackjack.  The regulators' flat threshold (hold % outside theory ± k points) is an option.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from math import sqrt
from statistics import NormalDist

from .theo import theo_cents, theo_exact

ZERO = Decimal("0.00")


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One settled round as the audit sees it."""

    handle: Decimal  # total wagered by players (initial bets, doubles, splits, side bets)
    win: Decimal  # house win: what it collected minus what it paid (negative when the players won)
    edge: float  # theoretical house edge per unit of handle under the rule set and pay table in force
    variance: float  # variance per unit bet of the house result for this game


@dataclass(frozen=True, slots=True)
class HoldSummary:
    """Handle, win, hold and theory for a set of rounds, with the verdict."""

    rounds: int
    handle: Decimal
    win: Decimal
    hold_pct: float | None  # win / handle, as a percentage
    theo_win: Decimal
    theo_hold_pct: float | None
    sigma: float  # standard deviation of the win under theory
    z: float | None
    band_low: Decimal  # the confidence band of the win
    band_high: Decimal
    drop: Decimal | None
    win_to_drop_pct: float | None
    flagged: bool
    reason: str
    theo_win_exact: Decimal = ZERO  # Σ edge × handle unrounded: sums of periods or tables round once (audit/theo.py)


def hold_summary(
    results: Iterable[RoundResult],
    *,
    confidence: float = 0.99,
    drop: Decimal | None = None,
    flat_threshold_points: float | None = None,
) -> HoldSummary:
    """Summarise ``results``; flag when the win leaves the ``confidence`` band (two-sided).

    With ``flat_threshold_points`` set, also flag when the hold % is more than that many
    percentage points away from the theoretical hold % (the regulators' flat style).
    """
    if not 0.5 < confidence < 1:
        raise ValueError(f"confidence must lie between 0.5 and 1, got {confidence}")
    n = 0
    handle = win = ZERO
    theo = Decimal(0)
    var = 0.0
    for r in results:
        n += 1
        handle += r.handle
        win += r.win
        h = float(r.handle)
        theo += theo_exact([(r.handle, r.edge)])
        var += r.variance * h * h
    return _verdict(n, handle, win, theo, var, confidence, drop, flat_threshold_points)


@dataclass(frozen=True, slots=True)
class BetTotals:
    """Totals of one bet kind under one theory, as SQL aggregates them (no per-round loop needed).

    ``handle_sq`` is the sum of the squared stakes: the variance of the house result is the unit
    variance times it (each wager's result independent of the others').
    """

    handle: Decimal
    handle_sq: Decimal
    edge: float
    variance: float


def hold_from_totals(
    *,
    rounds: int,
    win: Decimal,
    bets: Iterable[BetTotals],
    confidence: float = 0.99,
    drop: Decimal | None = None,
    flat_threshold_points: float | None = None,
) -> HoldSummary:
    """The same verdict as ``hold_summary`` from aggregated totals: theory Σ e·h, variance Σ v·h²."""
    bets = list(bets)
    handle = sum((b.handle for b in bets), ZERO)
    theo = theo_exact((b.handle, b.edge) for b in bets)
    var = sum(b.variance * float(b.handle_sq) for b in bets)
    return _verdict(rounds, handle, win, theo, var, confidence, drop, flat_threshold_points)


def _verdict(n: int, handle: Decimal, win: Decimal, exact: Decimal, var: float, confidence: float,
             drop: Decimal | None, flat_threshold_points: float | None) -> HoldSummary:
    if not 0.5 < confidence < 1:
        raise ValueError(f"confidence must lie between 0.5 and 1, got {confidence}")
    theo = float(exact)
    sigma = sqrt(var)
    zq = NormalDist().inv_cdf(0.5 + confidence / 2)
    hold_pct = float(win / handle * 100) if handle else None
    theo_hold_pct = theo / float(handle) * 100 if handle else None
    z = (float(win) - theo) / sigma if sigma > 0 else None
    reasons = []
    if z is not None and abs(z) > zq:
        reasons.append(f"win {win} is {z:+.2f} σ from theory {theo_cents(exact)} (band ±{zq:.2f} σ at {confidence:.0%})")
    if flat_threshold_points is not None and hold_pct is not None and theo_hold_pct is not None:
        if abs(hold_pct - theo_hold_pct) > flat_threshold_points:
            reasons.append(
                f"hold {hold_pct:.2f}% is more than {flat_threshold_points} points from theory {theo_hold_pct:.2f}%"
            )
    q = Decimal("0.01")
    return HoldSummary(
        rounds=n, handle=handle, win=win, hold_pct=hold_pct, theo_win=theo_cents(exact),
        theo_hold_pct=theo_hold_pct, sigma=sigma, z=z,
        band_low=Decimal(theo - zq * sigma).quantize(q), band_high=Decimal(theo + zq * sigma).quantize(q),
        drop=drop, win_to_drop_pct=float(win / drop * 100) if drop else None,
        flagged=bool(reasons), reason="; ".join(reasons) or "within the band", theo_win_exact=exact,
    )
