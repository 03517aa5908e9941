"""Reads the dealer tablet needs beside the round document: the dealers a pit boss may hand a table to."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from tables.access import DEALER
from tables.models import TableSession


def handover_dealers() -> list[dict[str, Any]]:
    """Active dealers, each with the table they hold now (if any): whom a pit boss may hand a table to."""
    holding = dict(TableSession.objects.filter(closed_at__isnull=True).values_list("dealer_id", "table__number"))
    users = get_user_model().objects.filter(is_active=True, groups__name=DEALER).order_by("username").distinct()
    return [{"username": u.get_username(), "table": holding.get(u.pk)} for u in users]
