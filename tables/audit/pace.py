"""Dealer and pace: rounds per hour by table and dealer, mismatch and correction rates."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class RoundPace:
    """What the pace audit needs of one round."""

    table: str
    dealer: str
    started: datetime
    ended: datetime
    mismatch: bool  # the dealer paid something other than what was due
    corrected: bool  # a card or payout was corrected after the fact


@dataclass(frozen=True, slots=True)
class PaceRow:
    """Pace of one (table, dealer) pair."""

    table: str
    dealer: str
    rounds: int
    hours: float
    rounds_per_hour: float
    mismatch_rate: float
    correction_rate: float


def pace(rounds: Iterable[RoundPace]) -> list[PaceRow]:
    """Rounds per hour (over the time between each pair's first start and last end) and error rates."""
    groups: dict[tuple[str, str], list[RoundPace]] = defaultdict(list)
    for r in rounds:
        groups[(r.table, r.dealer)].append(r)
    rows = []
    for (table, dealer), rs in sorted(groups.items()):
        rows.append(pace_row(table, dealer, len(rs), min(r.started for r in rs), max(r.ended for r in rs),
                             sum(r.mismatch for r in rs), sum(r.corrected for r in rs)))
    return rows


def pace_row(table: str, dealer: str, rounds: int, started: datetime, ended: datetime, mismatches: int,
             corrections: int) -> PaceRow:
    """One pair's pace from its counts (what SQL aggregates give): rounds per hour over [started, ended]."""
    span = (ended - started).total_seconds() / 3600
    hours = max(span, 1 / 60)  # a single quick round still counts over at least a minute
    return PaceRow(
        table, dealer, rounds, round(hours, 4), round(rounds / hours, 2),
        mismatches / rounds if rounds else 0.0, corrections / rounds if rounds else 0.0,
    )
