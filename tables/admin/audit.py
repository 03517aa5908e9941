"""Back-office pages of the audits: drop counts (entered by the count team), results, findings, reports.

The beat schedule (nightly audit, today's running audit) is edited in django-celery-beat's own admin
pages ("Periodic tasks").
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from tables.models import AuditFinding, AuditReport, AuditResult, BetTheory, DropCount


@admin.register(DropCount)
class DropCountAdmin(admin.ModelAdmin):
    list_display = ("gaming_day", "table", "shift", "amount", "entered_by", "entered_at")
    list_filter = ("gaming_day", "shift")
    fields = ("table", "gaming_day", "shift", "amount")

    def save_model(self, request: Any, obj: DropCount, form: Any, change: bool) -> None:
        obj.entered_by = request.user  # who counted is part of the record
        super().save_model(request, obj, form, change)


class ReadOnly(admin.ModelAdmin):
    """Audit output is written by the audit jobs only."""

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(AuditResult)
class AuditResultAdmin(ReadOnly):
    list_display = ("gaming_day", "kind", "table", "period", "flagged", "runs", "computed_at")
    list_filter = ("kind", "flagged", "gaming_day")


@admin.register(AuditFinding)
class AuditFindingAdmin(ReadOnly):
    list_display = ("created_at", "table", "rule", "severity", "message", "acknowledged_at")
    list_filter = ("rule", "severity")


@admin.register(AuditReport)
class AuditReportAdmin(ReadOnly):
    list_display = ("gaming_day", "status", "finished_at", "pdf_path", "emailed_to")


@admin.register(BetTheory)
class BetTheoryAdmin(ReadOnly):
    list_display = ("game", "rule_set", "pay_table", "computed_at")
