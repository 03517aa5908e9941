"""Today's hold of a table, kept up to date as its rounds settle (not only by the running audit job).

A settled, paid, approved, cancelled or corrected round schedules one refresh of its table's hold for
the current gaming day (``schedule_hold_refresh``, after commit).  Refreshes are coalesced per table:
the first write claims a short window in the cache and enqueues the refresh to run at its end, so a
busy table costs one recomputation every ``HOLD_REFRESH_SECONDS`` however many rounds settle in it,
and the refresh reads every round committed by then.  The refresh stores the same ``AuditResult``
row the audit job writes (``day:<date>``, replaced in place: safe to run twice) and pushes it.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from tables.audit.theory import HOUSE_GAMES
from tables.days import period_words
from tables.models import AuditKind, Severity, Table
from tables.services.audits import (
    _drop_for,
    _store,
    day_bounds,
    gaming_day_of,
    hold_buckets,
    hold_json,
    hold_verdict,
)
from tables.services.common import celery_task
from tables.services.push import publish

log = logging.getLogger(__name__)

HOLD_REFRESH_SECONDS = 5


def schedule_hold_refresh(table_id: int) -> None:
    """After commit, enqueue one coalesced refresh of the table's hold today (never fails the write)."""

    def enqueue() -> None:
        try:
            if not cache.add(f"tables:hold-refresh:{table_id}", 1, timeout=HOLD_REFRESH_SECONDS):
                return  # a refresh is already due within the window and will read this round too
            celery_task("tables.hold_refresh").apply_async(args=[table_id], countdown=HOLD_REFRESH_SECONDS)
        except Exception:  # noqa: BLE001 - the running audit job refreshes it anyway within minutes
            log.exception("could not schedule the hold refresh of table %s", table_id)

    transaction.on_commit(enqueue)


def hold_refresh_today(table_id: int, now: datetime | None = None) -> dict[str, Any] | None:
    """Recompute and store the table's hold for the current gaming day; push it.  None for pot games, and
    for a table that is not there (a message left in the broker by another database: nothing to refresh,
    logged rather than raised and retried)."""
    table = Table.objects.select_related("game").filter(pk=table_id).first()
    if table is None:
        log.warning("hold refresh of table %s skipped: no such table", table_id)
        return None
    if table.game.slug not in HOUSE_GAMES:
        return None
    now = now or timezone.now()
    day = gaming_day_of(now)
    start, end = day_bounds(day)
    period = f"day:{day.isoformat()}"
    totals = hold_buckets(table, start, [end])[0]
    h = hold_verdict(totals, drop=_drop_for(table, period, day))
    findings = []
    if h.flagged:
        findings.append({"rule": "hold.anomaly", "severity": Severity.WARNING,
                         "message": f"table {table.number}, {period_words(period)}: {h.reason}", "data": {"z": h.z}})  # fmt: skip
    result = _store(AuditKind.HOLD, table, period, day, start, end, hold_json(h), findings)
    out = {"hold": result.summary, "as_of": result.computed_at.isoformat()}
    transaction.on_commit(lambda: publish(table_id=table_id, kind="hold", data=out))
    return out
