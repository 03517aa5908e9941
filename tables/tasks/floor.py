"""Celery tasks of the live floor: thin adapters over ``tables.services.hold``."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from .audit import RETRY

__all__ = ["hold_refresh"]


@shared_task(name="tables.hold_refresh", acks_late=True, soft_time_limit=60, time_limit=90, **RETRY)
def hold_refresh(table_id: int) -> dict[str, Any]:
    """Today's hold of one table, recomputed after its rounds settle (safe twice: the result is replaced in place)."""
    from tables.services.hold import hold_refresh_today

    out = hold_refresh_today(table_id)
    return {"table": table_id, "rounds": (out or {}).get("hold", {}).get("rounds")}
