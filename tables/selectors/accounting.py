"""Reads of table accounting and ratings: slips and their state, a shift's counts, seated players.

Imports nothing from the services (the layer rule): the periods are read here from the same setting
(``GAMING_DAY_START_HOUR``) with the same reading as ``tables.services.audits.day_bounds`` — three
eight-hour shifts from the start of the gaming day (day, swing, graveyard).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet, Sum
from django.utils import timezone

from tables import conf
from tables.audit.accounting import CENT, ZERO
from tables.models import (
    DropCount,
    RatingSlip,
    RatingState,
    Round,
    RoundState,
    SettlementLine,
    Slip,
    SlipKind,
    SlipStep,
    Table,
)

SHIFT_NAMES = ("day", "swing", "graveyard")
SHIFT_HOURS = 8
COUNTED_STATES = (RoundState.SETTLED, RoundState.MISMATCH, RoundState.CLOSED)

# The steps that complete a slip, per kind: two people sign an inventory; a fill or credit is
# requested by the pit, issued by the cage and received at the table.
STEPS: dict[str, tuple[str, ...]] = {
    SlipKind.OPENER: (SlipStep.DEALER, SlipStep.SUPERVISOR),
    SlipKind.CLOSER: (SlipStep.DEALER, SlipStep.SUPERVISOR),
    SlipKind.FILL: (SlipStep.REQUESTED, SlipStep.ISSUED, SlipStep.RECEIVED),
    SlipKind.CREDIT: (SlipStep.REQUESTED, SlipStep.ISSUED, SlipStep.RECEIVED),
}


def day_bounds(day: date) -> tuple[datetime, datetime]:
    """[start, end) of a gaming day, aware (the reading of ``services.audits.day_bounds``)."""
    start = timezone.make_aware(datetime.combine(day, time(conf.gaming_day_start_hour())))
    return start, start + timedelta(days=1)


def shift_bounds(day: date, shift: str) -> tuple[datetime, datetime]:
    """[start, end) of a shift of a gaming day."""
    start, _ = day_bounds(day)
    k = SHIFT_NAMES.index(shift)
    return start + timedelta(hours=SHIFT_HOURS * k), start + timedelta(hours=SHIFT_HOURS * (k + 1))


def shift_of(moment: datetime) -> tuple[date, str]:
    """The gaming day and shift a moment belongs to."""
    local = timezone.localtime(moment) - timedelta(hours=conf.gaming_day_start_hour())
    return local.date(), SHIFT_NAMES[min(local.hour // SHIFT_HOURS, len(SHIFT_NAMES) - 1)]


# ---------------------------------------------------------------------------------------------
# Slips


def slip_state(slip: Slip) -> str:
    """``void``, ``complete`` (every step signed) or ``awaiting <step>``."""
    if hasattr(slip, "void"):
        return "void"
    done = {s.step for s in slip.signatures.all()}
    for step in STEPS[slip.kind]:
        if step not in done:
            return f"awaiting {step}"
    return "complete"


def slip_document(slip: Slip) -> dict[str, Any]:
    """A slip as the API and the dashboard show it (prefetch ``signatures__by`` and ``void__by`` for lists)."""
    void = getattr(slip, "void", None)
    return {
        "id": slip.pk, "kind": slip.kind, "number": slip.number, "table": slip.table_id,
        "table_number": slip.table.number, "gaming_day": slip.gaming_day.isoformat(), "shift": slip.shift,
        "chips": slip.chips, "total": str(slip.total), "state": slip_state(slip),
        "created_by": slip.created_by.get_username(), "created_at": slip.created_at.isoformat(),
        "replaces": slip.replaces_id,
        "signatures": [{"step": s.step, "by": s.by.get_username(), "at": s.at.isoformat()}
                       for s in slip.signatures.all()],
        "void": None if void is None else {"reason": void.reason, "by": void.by.get_username(),
                                           "at": void.at.isoformat()},
    }  # fmt: skip


def slips(*, table: Table | None = None, day: date | None = None, shift: str | None = None) -> QuerySet[Slip]:
    """Slips, with what their documents read, newest day first."""
    qs = Slip.objects.select_related("table", "created_by", "void__by").prefetch_related("signatures__by")
    if table is not None:
        qs = qs.filter(table=table)
    if day is not None:
        qs = qs.filter(gaming_day=day)
    if shift is not None:
        qs = qs.filter(shift=shift)
    return qs.order_by("-gaming_day", "table__number", "shift", "kind", "number")


def _effective(qs: QuerySet[Slip], kind: str) -> QuerySet[Slip]:
    """Slips that count: not voided and with every step signed."""
    qs = qs.filter(kind=kind, void__isnull=True)
    for step in STEPS[kind]:
        qs = qs.filter(Q(signatures__step=step))
    return qs


@dataclass(frozen=True)
class ShiftCount:
    """What a table's shift counted (signed, not voided slips; the drop) and what its rounds tracked."""

    opener: Decimal | None
    closer: Decimal | None
    fills: Decimal
    credits: Decimal
    drop: Decimal | None
    tracked: Decimal
    mispaid: Decimal
    rounds: int

    @property
    def missing(self) -> tuple[str, ...]:
        return tuple(n for n, v in (("opener", self.opener), ("closer", self.closer), ("drop", self.drop))
                     if v is None)  # fmt: skip


def _one_total(qs: QuerySet[Slip]) -> Decimal | None:
    totals = list(qs.values_list("total", flat=True)[:2])
    # Two live slips of one kind cannot exist (the service refuses the second under the table's lock).
    return totals[0] if totals else None


def shift_count(table: Table, day: date, shift: str) -> ShiftCount:
    """The counts and tracked win of one table and shift (a handful of queries)."""
    base = Slip.objects.filter(table=table, gaming_day=day, shift=shift)
    transfers = {
        # (SQLite sums decimals as numbers: 500 where PostgreSQL says 500.00; money is shown in cents.)
        kind: (_effective(base, kind).aggregate(s=Sum("total"))["s"] or ZERO).quantize(CENT)
        for kind in (SlipKind.FILL, SlipKind.CREDIT)
    }
    drop_row = DropCount.objects.filter(table=table, gaming_day=day, shift=shift).first()
    start, end = shift_bounds(day, shift)
    rounds = Round.objects.filter(table=table, opened_at__gte=start, opened_at__lt=end, state__in=COUNTED_STATES)
    net = SettlementLine.objects.filter(round__in=rounds, superseded=False).aggregate(s=Sum("net"))["s"]
    n = rounds.count()
    mispaid = ZERO
    for disc in rounds.exclude(discrepancies=[]).values_list("discrepancies", flat=True):  # the few mispaid
        for d in disc or []:
            mispaid += Decimal(str(d.get("paid", "0"))) - Decimal(str(d.get("due", "0")))
    return ShiftCount(
        opener=_one_total(_effective(base, SlipKind.OPENER)), closer=_one_total(_effective(base, SlipKind.CLOSER)),
        fills=transfers[SlipKind.FILL], credits=transfers[SlipKind.CREDIT],
        drop=drop_row.amount if drop_row else None,
        tracked=-(net or ZERO).quantize(CENT), mispaid=mispaid.quantize(CENT), rounds=n,
    )  # fmt: skip


def accounted_tables(day: date) -> list[Table]:
    """Tables with slips or a drop on ``day`` (the ones the reconciliation has something to say about)."""
    return list(Table.objects.filter(Q(slips__gaming_day=day) | Q(drop_counts__gaming_day=day)).distinct()
                .select_related("game").order_by("number"))  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Seated players


def seated(*, table: Table | None = None) -> QuerySet[RatingSlip]:
    """The rating slips open or paused now (who sits where)."""
    qs = RatingSlip.objects.exclude(state=RatingState.CLOSED).select_related("player", "table")
    if table is not None:
        qs = qs.filter(table=table)
    return qs.order_by("table__number", "seat")


def rating_slips(*, day: date | None = None) -> QuerySet[RatingSlip]:
    """Rating slips opened in a gaming day (all when ``day`` is None), with their pauses."""
    qs = RatingSlip.objects.select_related("player", "table", "table__game").prefetch_related("pauses")
    if day is not None:
        start, end = day_bounds(day)
        qs = qs.filter(opened_at__gte=start, opened_at__lt=end)
    return qs.order_by("table__number", "seat", "opened_at")
