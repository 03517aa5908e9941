"""Table accounting, pure: chip counts, the win formula, reconciliation, win/drop hold, player ratings.

No Django here: the services read the slips, the drop and the rounds in aggregate and hand the totals in.
Money is ``Decimal`` throughout; only the statistical band (z, sigma) is float, as in ``hold.py``.

The win formula (the reading used; ``docs/accounting.md``):

    counted win = (closer - opener) + credits - fills + drop

for one table and one shift.  Chips players lose come into the tray (closer up), chips they win or
buy leave it (closer down); the cash and markers they buy chips with go into the drop box (drop);
fills are chips the cage added to the tray (not won, so taken out), credits chips the tray sent back
to the cage (won or not, they left the tray, so put back).  When every chip and every payment is
accounted for, the counted win equals the tracked win: the house result of the rounds settled at the
table in that shift.  A difference is chips missing from the tray, a mispayment, a fill or credit not
recorded, or a drop miscounted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from math import sqrt
from statistics import NormalDist

from .theo import theo_cents, theo_exact

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
# The hold periods of a table's day (``AuditResult.summary["hold"]``) in words, for the pages, reports and CSV.
PERIOD_WORDS = {"day": "day", "mtd": "month-to-date", "ytd": "year-to-date"}

# The chip denominations a tray may hold (value as a string, exact).  A count naming another value is
# refused: a typo on a slip is found when it is entered, not at the reconciliation.
DENOMINATIONS: tuple[str, ...] = ("0.25", "0.50", "1", "2.50", "5", "10", "25", "100", "500", "1000", "5000")

# The standard pace the industry's rating estimate assumes, per game (decisions = rounds per hour at a
# typical table; rating systems use a figure like these whatever the real pace was).
STANDARD_DECISIONS_PER_HOUR: dict[str, int] = {
    "unlimited-blackjack": 60,
    "mini-blackjack": 80,
    "finnish-27": 70,
}
MAX_CHIPS_PER_DENOMINATION = 1_000_000


class ChipCountError(ValueError):
    """A chip count that cannot be right (unknown denomination, negative or fractional count)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def parse_chips(chips: object, *, field: str = "chips") -> dict[str, int]:
    """A count by denomination, checked: ``{"25": 40, "5": 100}`` → the same with canonical keys.

    Keys are denominations from ``DENOMINATIONS`` (``"25"``, ``"25.00"`` and ``"25.0"`` are one
    denomination); values whole numbers of chips from 0 to ``MAX_CHIPS_PER_DENOMINATION``.
    """
    if not isinstance(chips, Mapping):
        raise ChipCountError("a chip count is an object: denomination -> number of chips", field)
    canonical = {Decimal(d): d for d in DENOMINATIONS}
    out: dict[str, int] = {}
    for key, count in chips.items():
        where = f"{field}.{str(key)[:20]}"
        try:
            value = Decimal(str(key))
        except InvalidOperation:
            raise ChipCountError(f"{str(key)[:20]!r} is not a denomination", where) from None
        name = canonical.get(value) if value.is_finite() else None
        if name is None:
            raise ChipCountError(f"no chip of {str(key)[:20]}; denominations: {', '.join(DENOMINATIONS)}", where)
        if isinstance(count, bool) or not isinstance(count, int):
            raise ChipCountError("a number of chips is a whole number", where)
        if not 0 <= count <= MAX_CHIPS_PER_DENOMINATION:
            raise ChipCountError(f"a number of chips lies between 0 and {MAX_CHIPS_PER_DENOMINATION}", where)
        if name in out:
            raise ChipCountError(f"denomination {name} given twice", where)
        out[name] = count
    return {d: out[d] for d in sorted(out, key=Decimal)}


def chip_total(chips: Mapping[str, int]) -> Decimal:
    """The value of a count by denomination, exact."""
    return sum((Decimal(d) * n for d, n in chips.items()), ZERO).quantize(CENT)


def make_change(total: Decimal, shares: Mapping[str, float] | None = None) -> dict[str, int]:
    """A plausible tray holding exactly ``total`` (the simulator's counts): big chips by share, the rest small.

    ``total`` must be a multiple of the smallest denomination (0.25).
    """
    smallest = Decimal(DENOMINATIONS[0])
    if total < 0 or total % smallest:
        raise ValueError(f"{total} cannot be made of chips (a multiple of {smallest} is needed)")
    shares = shares or {"500": 0.35, "100": 0.30, "25": 0.20, "5": 0.10, "1": 0.04}
    left = total
    out: dict[str, int] = {}
    for d in sorted(shares, key=Decimal, reverse=True):
        value = Decimal(d)
        n = int((total * Decimal(str(shares[d])) / value).to_integral_value(rounding="ROUND_FLOOR"))
        n = min(n, int(left // value))
        if n:
            out[d] = n
            left -= value * n
    for d in sorted(DENOMINATIONS, key=Decimal, reverse=True):
        value = Decimal(d)
        n = int(left // value)
        if n:
            out[d] = out.get(d, 0) + n
            left -= value * n
    assert left == 0
    return {d: out[d] for d in sorted(out, key=Decimal)}


def counted_win(*, opener: Decimal, closer: Decimal, fills: Decimal, credits: Decimal, drop: Decimal) -> Decimal:
    """Counted win = (closer − opener) + credits − fills + drop."""
    return (closer - opener + credits - fills + drop).quantize(CENT)


@dataclass(frozen=True, slots=True)
class Reconciliation:
    """Counted against tracked win for one table and shift, with the verdict."""

    counted: Decimal | None  # None: the shift's count is incomplete (no opener, closer or drop)
    tracked: Decimal
    mispaid: Decimal  # paid minus due over the shift's rounds (known from the settlement), explains part
    difference: Decimal | None  # counted − tracked
    unexplained: Decimal | None  # difference + mispaid: what no record explains
    tolerance: Decimal
    flagged: bool
    missing: tuple[str, ...]  # what the count lacks: opener, closer, drop
    reason: str


def reconcile(*, counted: Decimal | None, tracked: Decimal, tolerance: Decimal, mispaid: Decimal = ZERO,
              missing: Iterable[str] = ()) -> Reconciliation:
    """Flag when |counted − tracked| exceeds ``tolerance`` (a count that cannot be made is not a finding).

    ``mispaid`` (paid − due over the rounds) is reported beside: an overpayment leaves the tray, so the
    counted win is lower by it; the finding stays (money left the table) but says how much it explains.
    """
    if tolerance < 0:
        raise ValueError(f"tolerance must not be negative, got {tolerance}")
    missing = tuple(missing)
    if counted is None:
        return Reconciliation(None, tracked, mispaid, None, None, tolerance, False, missing,
                              f"not counted: no {', '.join(missing)}" if missing else "not counted")
    difference = (counted - tracked).quantize(CENT)
    unexplained = (difference + mispaid).quantize(CENT)
    flagged = abs(difference) > tolerance
    if not flagged:
        reason = f"counted {counted} agrees with tracked {tracked} (within {tolerance})"
    else:
        side = "short" if difference < 0 else "over"
        reason = f"counted win {counted} vs tracked {tracked}: {side} by {abs(difference)} (tolerance {tolerance})"
        if mispaid and not unexplained:  # money left the table, but every cent of it on record
            reason += f"; all of it paid {mispaid:+} over due on mispaid rounds, nothing unexplained"
        elif mispaid:
            reason += f"; paid {mispaid:+} over due (mispayments), unexplained {unexplained}"
    return Reconciliation(counted, tracked, mispaid, difference, unexplained, tolerance, flagged, missing, reason)


@dataclass(frozen=True, slots=True)
class PeriodTotals:
    """Additive totals of one table over a period (shift, day, month or year to date)."""

    rounds: int = 0
    handle: Decimal = ZERO
    tracked_win: Decimal = ZERO
    counted_win: Decimal = ZERO
    drop: Decimal = ZERO
    theo_win: Decimal = ZERO  # exact (Σ edge × handle, unrounded): rounded once where judged (audit/theo.py)
    variance: float = 0.0  # of the win under theory: Σ unit variance × stake²
    counted_shifts: int = 0  # shifts with a complete count (the win/drop figures cover only these)

    def __add__(self, other: PeriodTotals) -> PeriodTotals:
        return PeriodTotals(
            self.rounds + other.rounds, self.handle + other.handle, self.tracked_win + other.tracked_win,
            self.counted_win + other.counted_win, self.drop + other.drop, self.theo_win + other.theo_win,
            self.variance + other.variance, self.counted_shifts + other.counted_shifts,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class WinDropHold:
    """Win/drop hold of a period against theory, judged with the game's own variance."""

    counted_win: Decimal
    drop: Decimal
    hold_pct: float | None  # counted win / drop
    theo_win: Decimal
    theo_hold_pct: float | None  # theoretical win / drop
    z: float | None  # (counted win − theo) / σ
    band_low: Decimal
    band_high: Decimal
    flagged: bool
    reason: str


def win_drop_hold(t: PeriodTotals, *, confidence: float = 0.99) -> WinDropHold:
    """Win over drop, and whether the counted win lies in the theory band (two-sided, at ``confidence``).

    The band is the hold audit's: theory Σ edge × handle ± z_q σ, σ² = Σ unit variance × stake²
    (``tables.audit.hold``); what differs is the win judged (counted from the tray and the drop box).
    """
    if not 0.5 < confidence < 1:
        raise ValueError(f"confidence must lie between 0.5 and 1, got {confidence}")
    sigma = sqrt(t.variance) if t.variance > 0 else 0.0
    zq = NormalDist().inv_cdf(0.5 + confidence / 2)
    theo = float(t.theo_win)
    theo_win = theo_cents(t.theo_win)
    z = (float(t.counted_win) - theo) / sigma if sigma > 0 else None
    flagged = z is not None and abs(z) > zq
    if flagged and z is not None:
        reason = f"counted win {t.counted_win} is {z:+.2f} σ from theory {theo_win} (band ±{zq:.2f} σ)"
    elif not t.counted_shifts:  # nothing was judged: "within the band" over 0.00 / 0.00 read as a pass
        reason = "not counted: no shift with an opener, a closer and a drop"
    elif z is None:
        reason = "no rounds to judge against theory"
    else:
        reason = "within the band"
    return WinDropHold(
        counted_win=t.counted_win, drop=t.drop,
        hold_pct=float(t.counted_win / t.drop * 100) if t.drop else None,
        theo_win=theo_win, theo_hold_pct=float(t.theo_win / t.drop * 100) if t.drop else None,
        z=z, band_low=Decimal(theo - zq * sigma).quantize(CENT), band_high=Decimal(theo + zq * sigma).quantize(CENT),
        flagged=flagged, reason=reason,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Player ratings


@dataclass(frozen=True, slots=True)
class WagerGroup:
    """The stored wagers of one bet kind under one theory: their sum and the house edge of that kind."""

    kind: str
    amount: Decimal
    edge: Decimal


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating over a slip: measured from the wagers, and the industry's estimate beside it."""

    rounds: int
    seconds: int
    handle: Decimal
    avg_bet: Decimal  # handle / rounds: everything the player put on a round (side bets included)
    theo: Decimal  # Σ wager × edge of its bet kind, to the cent (``theo_cents``)
    actual: Decimal  # the house's result from the player (positive: the player lost)
    estimate: Decimal  # avg bet × hours × standard decisions per hour × main-bet edge
    estimate_pace: int
    estimate_edge: Decimal
    difference_pct: float | None  # (estimate − theo) / theo
    theo_exact: Decimal = ZERO  # unrounded: a total of ratings rounds once


def rating(*, groups: Iterable[WagerGroup], rounds: int, seconds: int, actual: Decimal, game: str,
           main_edge: Decimal | None = None) -> Rating:
    """Rate a player from the wagers stored for their seat while their slip was open."""
    if rounds < 0 or seconds < 0:
        raise ValueError("rounds and seconds must not be negative")
    groups = list(groups)
    handle = sum((g.amount for g in groups), ZERO)
    exact = theo_exact((g.amount, g.edge) for g in groups)
    theo = theo_cents(exact)
    avg_bet = (handle / rounds).quantize(CENT) if rounds else ZERO
    if main_edge is None:
        main = [g for g in groups if g.kind == "main"]
        main_edge = main[0].edge if main else ZERO
    pace = STANDARD_DECISIONS_PER_HOUR.get(game, 60)
    estimate = (avg_bet * Decimal(seconds) / Decimal(3600) * pace * main_edge).quantize(CENT)
    diff = float((estimate - theo) / theo * 100) if theo else None
    return Rating(rounds, seconds, handle.quantize(CENT), avg_bet, theo, actual.quantize(CENT), estimate, pace,
                  main_edge, diff, exact)
