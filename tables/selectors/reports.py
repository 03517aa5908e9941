"""Reads of the audit reports: the progress of a gaming day's audit run (polled by the reports page)."""

from __future__ import annotations

from datetime import date
from typing import Any

from tables.models import AuditKind, AuditReport, AuditResult, ReportStatus


def audit_run_progress(day: date) -> dict[str, Any]:
    """Where the audit of ``day`` stands: ``{"day", "status", "tables", "tables_done", "progress", "stage", ...}``.

    ``status`` is the report's ("none" before any run); ``progress`` a fraction: the tables audited
    (each table's last step, pace, written since the run started: the join's own test) take it to
    90%, the report's files the rest.  Three queries whatever the number of tables.
    """
    report = AuditReport.objects.filter(gaming_day=day).first()
    out: dict[str, Any] = {"day": day.isoformat(), "status": "none", "tables": 0, "tables_done": 0,
                           "progress": 0.0, "stage": "not run yet", "report": None, "error": ""}
    if report is None:
        return out
    expected = list(report.expected_tables or [])
    done = 0
    if expected and report.run_started_at is not None:
        done = AuditResult.objects.filter(kind=AuditKind.PACE, gaming_day=day, table_id__in=expected,
                                          computed_at__gte=report.run_started_at).count()
    out.update(status=report.status, tables=len(expected), tables_done=done, report=report.pk, error=report.error)
    if report.status == ReportStatus.DONE:
        out.update(progress=1.0, stage="done")
    elif report.status == ReportStatus.FAILED:
        out.update(stage="failed")
    elif not report.run:
        out.update(progress=0.0, stage="queued")
    elif expected and done < len(expected):
        out.update(progress=0.9 * done / len(expected), stage=f"auditing tables: {done} of {len(expected)}")
    else:
        out.update(progress=0.9, stage="writing the report")
    return out
