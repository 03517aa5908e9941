"""Alerts: the pit boss's decisions (a payout refused, an audit finding acknowledged)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from tables.access import check_pit_boss
from tables.errors import Conflict
from tables.models import (
    AlertDecision,
    AuditFinding,
    Round,
    RoundState,
)
from tables.services.common import (
    _lock_round,
    audit,
    required_reason,
)


def round_reject(*, round: Round | int, reason: str, actor: Any, expected_version: int | None = None) -> Round:
    """A pit boss refuses a payout as it stands (the dealer must pay again, or not pay); audited."""
    check_pit_boss(actor)
    reason = required_reason(reason, "a rejection")
    with transaction.atomic():
        locked = _lock_round(round, expected_version)  # the one lock order: table, game, round
        if locked.state not in (RoundState.MISMATCH, RoundState.SETTLED):
            raise Conflict(f"nothing to reject: round {locked.number} is {RoundState(locked.state).label}")
        AlertDecision.objects.create(round=locked, decision="reject", reason=reason[:300], by=actor,
                                     round_version=locked.version)  # fmt: skip
        audit(actor=actor, action="round.reject", table=locked.table, round=locked,
              payload={"reason": reason, "state": locked.state, "discrepancies": locked.discrepancies})
        return locked


def finding_acknowledge(*, finding: int, reason: str, actor: Any) -> AuditFinding:
    """A pit boss acknowledges an audit finding, once, with a reason; audited."""
    check_pit_boss(actor)
    reason = required_reason(reason, "an acknowledgement")
    with transaction.atomic():
        claimed = AuditFinding.objects.filter(pk=finding, acknowledged_at__isnull=True).update(
            acknowledged_by=actor, acknowledged_at=timezone.now(), acknowledgement=reason[:300])
        if not claimed:
            raise Conflict("this finding is already acknowledged")
        f = AuditFinding.objects.select_related("table").get(pk=finding)
        AlertDecision.objects.create(finding=f, decision="acknowledge", reason=reason[:300], by=actor)
        audit(actor=actor, action="audit.finding.acknowledge", table=f.table,
              payload={"finding": f.pk, "rule": f.rule, "reason": reason})
        return f
