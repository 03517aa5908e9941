"""Celery tasks of the audits: thin adapters over ``tables.services.audits`` and ``tables.services.reports``.

Each task takes ids and an ISO date, calls one function, and returns a small JSON summary.  They are
safe to run twice (``acks_late`` redelivery, retries): an audit result is unique per (kind, table,
period) and replaced in place, a report is unique per gaming day, and the nightly join is claimed
by a conditional update that only one task can win.

The nightly audit fans out tasks of a few tables each (a ``group``; one table each on a small floor)
and joins in the database rather than with a chord: the last task to finish claims the report (``AuditReport.joined_at`` set by a
conditional ``update``) and enqueues it.  That works the same on the embedded filesystem broker
(no result backend) and on Redis, and survives a worker dying mid-run: a redelivered table task
recomputes its results and joins again; the claim makes the report build exactly once per run.
"""

from __future__ import annotations

import logging
import uuid
from datetime import date
from typing import Any

from celery import group, shared_task
from django.db import OperationalError
from django.utils import timezone

log = logging.getLogger(__name__)

# Transient database trouble (a lock timeout on SQLite, a dropped connection) is retried; anything
# else is a bug or bad data, and retrying would only repeat it.
RETRY = {"autoretry_for": (OperationalError,), "retry_backoff": 5, "retry_jitter": True, "max_retries": 3}


def _day(value: str | None) -> date:
    from tables.services.audits import last_complete_gaming_day

    return date.fromisoformat(value) if value else last_complete_gaming_day()


@shared_task(name="tables.audit_table", acks_late=True, soft_time_limit=300, time_limit=360, **RETRY)
def audit_table(table_id: int, day: str, run: str | None = None) -> dict[str, Any]:
    """Audit one table for one gaming day; with ``run``, join the nightly run when it is the last one."""
    from tables.services.audits import audit_table_day

    summary = audit_table_day(table_id, date.fromisoformat(day))
    out = {"table": table_id, "day": day, "findings": sum(summary["shuffle"]["by_rule"].values()),
           "hold_flagged": [p for p, h in summary["hold"].items() if h["flagged"]]}  # fmt: skip
    if run:
        out["joined"] = join_nightly(day, run)
    return out


@shared_task(name="tables.audit_tables", acks_late=True, soft_time_limit=600, time_limit=720, **RETRY)
def audit_tables(table_ids: list[int], day: str, run: str | None = None) -> dict[str, Any]:
    """Audit a few tables for one gaming day in one task (the nightly job's unit: a task per table cost
    more in its own start-up and theory reads than a table's audit); then join the run as ``audit_table``."""
    from tables.services.audits import audit_table_day, theory_memo

    findings = 0
    with theory_memo():
        for pk in table_ids:
            summary = audit_table_day(pk, date.fromisoformat(day))
            findings += sum(summary["shuffle"]["by_rule"].values())
    out: dict[str, Any] = {"tables": list(table_ids), "day": day, "findings": findings}
    if run:
        out["joined"] = join_nightly(day, run)
    return out


def nightly_batches(ids: list[int], tasks: int = 50) -> list[list[int]]:
    """The tables split into at most ``tasks`` batches of consecutive ids (one table each on a small floor,
    so the reports page's progress still moves table by table; ten each at 500 tables)."""
    size = max(1, -(-len(ids) // tasks))
    return [ids[i:i + size] for i in range(0, len(ids), size)]


def join_nightly(day: str, run: str) -> bool:
    """If every table of the run has its results, claim the report (once) and enqueue it."""
    from tables.models import AuditKind, AuditReport, AuditResult

    report = AuditReport.objects.filter(gaming_day=day, run=run).first()
    if report is None or report.joined_at is not None:
        return False
    expected = set(report.expected_tables)
    done = set(AuditResult.objects.filter(kind=AuditKind.PACE, gaming_day=day, table_id__in=expected,
                                          computed_at__gte=report.run_started_at).values_list("table_id", flat=True))
    if done != expected:
        return False
    claimed = AuditReport.objects.filter(pk=report.pk, run=run, joined_at__isnull=True).update(joined_at=timezone.now())
    if claimed:
        audit_report.delay(day)
    return bool(claimed)


@shared_task(name="tables.audit_report", acks_late=True, soft_time_limit=600, time_limit=720, **RETRY)
def audit_report(day: str) -> dict[str, Any]:
    """Build (or rebuild) the report of a gaming day from its stored results."""
    from tables.services.reports import build_report

    report = build_report(date.fromisoformat(day))
    return {"report": report.pk, "day": day, "html": report.html_path, "pdf": report.pdf_path, "csv": report.csv_path}


@shared_task(name="tables.audit_nightly", acks_late=True, soft_time_limit=60, time_limit=90, **RETRY)
def audit_nightly(day: str | None = None) -> dict[str, Any]:
    """The nightly audit: one task per table for the gaming day (default: the last complete one), then the report."""
    from tables.models import AuditReport, ReportStatus, Table

    d = _day(day)
    ids = list(Table.objects.order_by("pk").values_list("pk", flat=True))
    run = uuid.uuid4().hex
    AuditReport.objects.update_or_create(gaming_day=d, defaults={
        "run": run, "run_started_at": timezone.now(), "expected_tables": ids, "joined_at": None,
        "status": ReportStatus.RUNNING, "error": ""})  # fmt: skip
    if not ids:
        audit_report.delay(d.isoformat())
    else:
        group(audit_tables.s(batch, d.isoformat(), run) for batch in nightly_batches(ids)).apply_async()
    return {"day": d.isoformat(), "tables": len(ids), "run": run}


@shared_task(name="tables.audit_today", acks_late=True, soft_time_limit=300, time_limit=360, **RETRY)
def audit_today() -> dict[str, Any]:
    """The current gaming day so far, for the dashboard's shuffle and hold alerts (beat: every few minutes)."""
    from tables.services.audits import audit_floor_day, gaming_day_of

    d = gaming_day_of(timezone.now())
    return {"day": d.isoformat(), "tables": len(audit_floor_day(d))}
