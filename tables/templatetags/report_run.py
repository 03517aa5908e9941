"""``{% audit_run_button %}``: the reports page's "Run the audit" form for auditors (tables/dashboard/reports.py)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.inclusion_tag("dashboard/report_run.html", takes_context=True)
def audit_run_button(context: Any) -> dict[str, Any]:
    """The form, the progress bar and its script, for a user who may run the audit (nothing otherwise)."""
    from tables.dashboard.reports import run_context

    request = context["request"]
    return {**run_context(request), "csrf_token": context.get("csrf_token"), "request": request}
