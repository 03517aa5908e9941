"""Tables and shoes: open, hand over, close, shuffle."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from tables.access import DEALER_ROLE as DEALER
from tables.access import check_pit_boss, check_right, is_pit_boss, roles_of
from tables.engine.shoe import ShoeSpec
from tables.errors import Conflict
from tables.models import (
    Round,
    RoundState,
    Shoe,
    ShuffleEvent,
    Table,
    TableSession,
    TableStatus,
)
from tables.selectors.rounds import current_shoe
from tables.services.common import (
    _OPEN,
    _lock_table,
    audit,
)


def _set_status(table: Table, status: str, actor: Any) -> None:
    """Change the locked table's status, saved (not update()) so the table's history keeps who did it."""
    table.status = status
    table._history_user = actor if getattr(actor, "pk", None) else None  # type: ignore[attr-defined]
    table.save(update_fields=["status"])


def table_open(*, table: Table, dealer: Any | None = None, actor: Any) -> TableSession:
    """Open a table for play with ``dealer`` (default: the actor) holding it."""
    dealer = dealer or actor
    with transaction.atomic():
        table = _lock_table(table)
        if DEALER not in roles_of(dealer) and not is_pit_boss(dealer):
            raise PermissionDenied("only a dealer can hold a table")
        if dealer.pk != actor.pk:
            check_pit_boss(actor)
        elif not (DEALER in roles_of(actor) or is_pit_boss(actor)):
            raise PermissionDenied("only a dealer or a pit boss can open a table")
        # A dealer holds one table at a time (unique index one_open_session_per_dealer).  Two opens for
        # the same dealer at two tables lock two different tables, so they serialise on the dealer's row
        # here (below the table in the lock order; FOR NO KEY UPDATE does not block the sessions' and
        # audit events' foreign keys to it): else both saw no session elsewhere, both inserted one, and
        # the second failed the index with a 500 (found by bench/probe.py).
        list(get_user_model().objects.select_for_update(no_key=True).filter(pk=dealer.pk).values_list("pk", flat=True))
        current = TableSession.objects.select_for_update().filter(table=table, closed_at__isnull=True).first()
        if current is not None:
            if current.dealer_id == dealer.pk:
                return current
            if not is_pit_boss(actor):
                raise Conflict(f"{table} is held by another dealer; a pit boss hands it over")
            current.closed_at = timezone.now()
            current.save(update_fields=["closed_at"])
        elsewhere = TableSession.objects.select_for_update().filter(dealer=dealer, closed_at__isnull=True)
        for s in elsewhere:  # a dealer holds one table at a time: moving closes the old session
            s.closed_at = timezone.now()
            s.save(update_fields=["closed_at"])
        session = TableSession.objects.create(table=table, dealer=dealer, opened_by=actor)
        if table.status != TableStatus.OPEN:
            _set_status(table, TableStatus.OPEN, actor)
        audit(actor=actor, action="table.open", table=table, payload={"dealer": dealer.get_username()})
        return session


def table_open_for_play(*, table: Table, actor: Any) -> bool:
    """A pit boss opens a table for play from the back office; a dealer takes it on the tablet.

    Returns whether the table changed (an open table is left as it is, with no audit event).
    """
    with transaction.atomic():
        table = _lock_table(table)
        check_pit_boss(actor)
        if table.status == TableStatus.OPEN:
            return False
        _set_status(table, TableStatus.OPEN, actor)
        audit(actor=actor, action="table.open", table=table, payload={"dealer": None})
        return True


def table_close(*, table: Table, actor: Any) -> None:
    """Close a table: no round may be open; the dealer's session ends."""
    with transaction.atomic():
        table = _lock_table(table)
        check_right(actor, table)
        if Round.objects.filter(table=table, state__in=_OPEN).exists():
            raise Conflict("a round is still open at this table")
        TableSession.objects.filter(table=table, closed_at__isnull=True).update(closed_at=timezone.now())
        if table.status != TableStatus.CLOSED:
            _set_status(table, TableStatus.CLOSED, actor)
        audit(actor=actor, action="table.close", table=table)


def _shoe_spec(table: Table) -> ShoeSpec:
    return table.rule_set.rules().shoe


def shoe_shuffle(*, table: Table, actor: Any, reason: str = "shuffle point reached") -> Shoe:
    """Record a shuffle: the current shoe ends (its penetration kept) and a fresh one starts.

    Refused while a round is in play: the shoe is shuffled between rounds.
    """
    with transaction.atomic():
        table = _lock_table(table)
        check_right(actor, table)
        if Round.objects.filter(table=table, state__in=(RoundState.IN_PLAY, RoundState.PAUSED)).exists():
            raise Conflict("the shoe is shuffled between rounds; a round is in play")
        spec = _shoe_spec(table)
        previous = current_shoe(table)
        now = timezone.now()
        if previous is not None:
            previous.ended_at = now
            previous.save(update_fields=["ended_at"])
        number = (Shoe.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0) + 1
        shoe = Shoe.objects.create(
            table=table, number=number, shuffled_by=actor,
            spec={"decks": spec.decks, "jokers_per_deck": spec.jokers_per_deck,
                  "total_jokers": spec.total_jokers, "shuffle_rule": spec.shuffle_rule.value,
                  "shuffle_at": spec.shuffle_at, "size": spec.size},
        )  # fmt: skip
        dealt = previous.cards_dealt if previous else 0
        size = previous.size if previous else spec.size
        ShuffleEvent.objects.create(
            table=table, previous_shoe=previous, shoe=shoe, by=actor, reason=reason[:200],
            cards_dealt_before=dealt, shuffle_at=spec.shuffle_at,
            penetration=Decimal(dealt) / Decimal(size) if size else Decimal(0), players_notified=True,
        )  # fmt: skip
        audit(actor=actor, action="shoe.shuffle", table=table,
              payload={"shoe": shoe.number, "reason": reason, "cards_dealt_before": dealt})  # fmt: skip
        return shoe
