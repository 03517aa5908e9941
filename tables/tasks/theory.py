"""Celery task of the back office's theory: a thin adapter over ``tables.services.theory.run_theory``.

Safe to run twice (``acks_late`` redelivery, a second queueing): the run claims its ``TheoryResult``
row with a conditional update (pending, or running but stale) and stops when that changed no row,
so a done row is never recomputed and two workers never simulate the same row at once.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import OperationalError

__all__ = ["compute_theory"]


# Soft limit: the simulation is stopped and the row recorded as failed with the error; the hard
# limit is the backstop if the compiled kernel does not return to Python in time.
@shared_task(name="tables.compute_theory", acks_late=True, soft_time_limit=300, time_limit=360,
             autoretry_for=(OperationalError,), retry_backoff=5, max_retries=3)
def compute_theory(result_id: int) -> dict[str, Any]:
    """Simulate the pay-table version of one ``TheoryResult`` row and store its figures."""
    from tables.services.theory import run_theory

    return run_theory(result_id)
