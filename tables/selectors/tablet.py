"""Reads the dealer tablet needs beside the round document: the pit boss's rejections of a payment
(with their reason, so the dealer sees why) and the dealers a pit boss may hand a table to."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from tables.access import DEALER
from tables.models import AlertDecision, Round, TableSession


def round_rejections(rnd: Round) -> list[dict[str, Any]]:
    """The pit boss's rejections of the round's payment, oldest first: who, why, when, and the round's
    version then (a rejection stands until the dealer records a new payment: a later version)."""
    rows = AlertDecision.objects.filter(round=rnd, decision="reject").select_related("by").order_by("at", "pk")
    return [{"by": r.by.get_username(), "reason": r.reason, "at": r.at.isoformat(), "version": r.round_version,
             "current": r.round_version == rnd.version} for r in rows]  # fmt: skip


def handover_dealers() -> list[dict[str, Any]]:
    """Active dealers, each with the table they hold now (if any): whom a pit boss may hand a table to."""
    holding = dict(TableSession.objects.filter(closed_at__isnull=True).values_list("dealer_id", "table__number"))
    users = get_user_model().objects.filter(is_active=True, groups__name=DEALER).order_by("username").distinct()
    return [{"username": u.get_username(), "table": holding.get(u.pk)} for u in users]
