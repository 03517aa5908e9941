"""The back office's home page: the publish requests waiting for this games manager's approval."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from tables.models import PayTable, RuleSet
from tables.models.publishing import PublishRequest, PublishStatus

register = template.Library()


@register.inclusion_tag("admin/tables/waiting_approval.html", takes_context=True)
def waiting_approval(context: Any) -> dict[str, Any]:
    """Requests another manager made that this user may approve (nothing told the second manager before)."""
    user = context["request"].user
    rows = []
    for model, field in ((RuleSet, "rule_set"), (PayTable, "pay_table")):
        if not user.has_perm(model.publish_permission):
            continue
        pending = (PublishRequest.objects.filter(status=PublishStatus.PENDING, **{f"{field}__isnull": False})
                   .exclude(requested_by=user).select_related(field, f"{field}__game", "requested_by")
                   .order_by("requested_at"))  # fmt: skip
        for req in pending:
            version = getattr(req, field)
            rows.append({"version": str(version), "by": req.requested_by.get_username(), "at": req.requested_at,
                         "note": req.note, "warnings": len(req.warnings),
                         "url": reverse(f"admin:tables_{model._meta.model_name}_approve", args=[version.pk])})
    return {"rows": rows}
