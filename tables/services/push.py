"""The push channel's one publisher: after a write commits, tell the floor and the table what changed.

Every write of the services records an ``AuditEvent`` in its transaction; ``connect_signals`` hooks
its ``post_save`` and publishes a small event *after commit* (a rolled-back write publishes nothing)
on two channels: ``casino-<id>`` (the dashboards of that casino) and ``table-<id>`` (the table's
tablet and its pit bosses).  The contract is in docs/push.md.  Publishing never fails a write: an
error is logged and the clients' fallback poll catches up.
"""

from __future__ import annotations

import logging
import time
from functools import lru_cache
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save

log = logging.getLogger(__name__)

EVENT_TYPE = "floor"
# Actions that change nothing a floor or a tablet shows (sign-ins, tokens) are not pushed.
SILENT_PREFIXES = ("auth.",)


def casino_channel(casino_id: int) -> str:
    return f"casino-{casino_id}"


def table_channel(table_id: int) -> str:
    return f"table-{table_id}"


@lru_cache(maxsize=4096)
def casino_of_table(table_id: int) -> int | None:
    """The casino of a table (cached in the process: a table moving to another casino is a rare back-office edit)."""
    from tables.models import Table

    return Table.objects.filter(pk=table_id).values_list("pit__casino_id", flat=True).first()


def publish(*, table_id: int, kind: str, data: dict[str, Any]) -> None:
    """Send one event to the table's channel and its casino's; never raises."""
    from django_eventstream import send_event

    body = {"kind": kind, "table": table_id, "sent": time.time(), **data}
    try:
        channels = [table_channel(table_id)]
        casino = casino_of_table(table_id)
        if casino is not None:
            channels.append(casino_channel(casino))
        for channel in channels:
            send_event(channel, EVENT_TYPE, body)
    except Exception:  # noqa: BLE001 - a push lost is caught up by the poll; the write stands
        log.exception("push of %s at table %s failed", kind, table_id)


def event_body(event: Any) -> dict[str, Any]:
    """What a client needs to redraw a tile or a round without a read: from the rows already in memory."""
    data: dict[str, Any] = {"event": event.pk, "action": event.action,
                            "at": event.at.isoformat() if event.at else None,
                            "actor": event.actor.get_username() if event.actor_id and event.actor else None}
    rnd = event.round if event.round_id else None
    if rnd is not None:
        data.update({"round": rnd.pk, "round_number": rnd.number, "round_state": rnd.state,
                     "round_version": rnd.version, "approval_required": bool(rnd.approval_required)})
    table = event.table if event.table_id else None
    if table is not None:
        data["table_status"] = table.status
        data["table_number"] = table.number
    if event.action == "table.open":
        data["dealer"] = (event.payload or {}).get("dealer")
    return data


def on_audit_event(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    """post_save of AuditEvent: publish after the transaction commits."""
    if not created or not instance.table_id or instance.action.startswith(SILENT_PREFIXES):
        return
    body = event_body(instance)
    table_id = instance.table_id
    transaction.on_commit(lambda: publish(table_id=table_id, kind="event", data=body))
    if instance.action.startswith(("round.settle", "round.paid", "round.approve", "round.cancel",
                                   "round.card.correct")):
        from tables.services.hold import schedule_hold_refresh

        schedule_hold_refresh(table_id)


def connect_signals() -> None:
    """Hook the publisher to the audit events (called once from TablesConfig.ready)."""
    from tables.models import AuditEvent

    post_save.connect(on_audit_event, sender=AuditEvent, dispatch_uid="tables.push.audit_event")
