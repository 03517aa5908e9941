"""Celery tasks of the live rounds: thin adapters over ``tables.services``.

``settle_interrupted_rounds`` runs every 15 minutes (beat schedule, migration 0009): it finds Mini
Blackjack rounds paused longer than the rule set's ``interrupted_settle_hours`` (48) and settles each
as the rules say (the player's hands stand).  Safe to run twice: the service locks the round and
does nothing unless it is still paused and overdue.  Any other interrupted round waits for a pit boss.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

RETRY = {"autoretry_for": (OperationalError,), "retry_backoff": 5, "retry_jitter": True, "max_retries": 3}


@shared_task(name="tables.settle_interrupted_round", acks_late=True, soft_time_limit=60, time_limit=90, **RETRY)
def settle_interrupted_round(round_id: int) -> dict[str, Any]:
    """Settle one interrupted Mini Blackjack round if it is still overdue."""
    from tables.services import round_settle_interrupted

    return {"round": round_id, "outcome": round_settle_interrupted(round=round_id)}


@shared_task(name="tables.settle_interrupted_rounds", acks_late=True, soft_time_limit=300, time_limit=360, **RETRY)
def settle_interrupted_rounds() -> dict[str, Any]:
    """Find overdue interrupted Mini Blackjack rounds and settle each (one small transaction per round)."""
    from tables.engine.games import GAMES
    from tables.models import Round, RoundState
    from tables.services import round_settle_interrupted

    # The shortest rule a Mini Blackjack rule set may have is 1 hour: pick candidates paused that long,
    # the service checks each round's own rule set.
    candidates = Round.objects.filter(
        game__in=[g.slug for g in GAMES.values() if g.settles_after_interruption], state=RoundState.PAUSED, paused_at__lte=timezone.now() - timedelta(hours=1)
    ).values_list("pk", flat=True)
    outcomes: dict[str, int] = {}
    for pk in candidates:
        outcome = round_settle_interrupted(round=pk)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return {"rounds": sum(outcomes.values()), **outcomes}


@shared_task(name="tables.purge_idempotency", acks_late=True, soft_time_limit=300, time_limit=360, **RETRY)
def purge_idempotency() -> dict[str, Any]:
    """Drop the stored first answers of writes older than ``IDEMPOTENCY_KEEP_HOURS`` (beat: hourly)."""
    from tables.services.rounds import purge_idempotency_records

    return {"deleted": purge_idempotency_records()}
