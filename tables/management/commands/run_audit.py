"""``manage.py run_audit [--date YYYY-MM-DD]``: the nightly audit, synchronously, in this process.

Audits every table for the gaming day (default: the last complete one), builds the report and prints
where its files are.  The same functions the Celery tasks call, without a broker or a worker.
"""

from __future__ import annotations

import time
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.services.audits import audit_floor_day, last_complete_gaming_day
from tables.services.reports import build_report, reports_root


class Command(BaseCommand):
    help = "Run the nightly audit of a gaming day synchronously and print the report's paths."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--date", help="gaming day YYYY-MM-DD (default: the last complete one)")
        parser.add_argument("--no-email", action="store_true", help="do not e-mail the report")

    def handle(self, *args: Any, **o: Any) -> None:
        try:
            day = date.fromisoformat(o["date"]) if o["date"] else last_complete_gaming_day()
        except ValueError:
            raise CommandError(f"--date must be YYYY-MM-DD, got {o['date']!r}") from None
        t0 = time.perf_counter()
        results = audit_floor_day(day)
        t1 = time.perf_counter()
        report = build_report(day, email=not o["no_email"])
        t2 = time.perf_counter()
        findings = sum(sum(r["shuffle"]["by_rule"].values()) for r in results)
        flagged = sum(1 for r in results for h in r["hold"].values() if h["flagged"])
        self.stderr.write(f"gaming day {day}: {len(results)} tables audited in {t1 - t0:.2f} s, report in "
                          f"{t2 - t1:.2f} s; {findings} shuffle/card findings, {flagged} hold periods flagged")
        root = reports_root()
        for path in (report.html_path, report.pdf_path, report.csv_path):
            self.stdout.write(str(root / path))
