"""What every writing service shares: the settings it reads, the audit event, the reason a pit boss gives, and the
row locks taken in the one lock order (table → game → round)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from tables import conf
from tables.engine.errors import InvalidInput
from tables.errors import Conflict
from tables.models import (
    AuditEvent,
    BluffjackGame,
    Round,
    RoundState,
    Table,
)


# A payout needs a pit boss's approval before the dealer pays when one line wins at least this amount,
# or at least this multiple of its wager (the 999× 9-9-9 bonus always does).  Settings may override.
def celery_task(name: str) -> Any:
    """The Celery task registered under ``name``, to queue after commit.

    Services name the tasks they queue instead of importing them: the task modules are an interface
    over the services (DESIGN.md).  A process that has not loaded them yet (a web worker) runs the
    worker's own discovery of the installed apps' tasks once.
    """
    from celery import current_app

    if name not in current_app.tasks:
        current_app.loader.import_default_modules()
    return current_app.tasks[name]


def approval_amount() -> Decimal:
    """A line winning this much or more needs a pit boss before paying (``PAYOUT_APPROVAL_AMOUNT``)."""
    return conf.payout_approval_amount()


def approval_multiple() -> Decimal:
    """A line winning this multiple of its wager or more needs a pit boss (``PAYOUT_APPROVAL_MULTIPLE``)."""
    return conf.payout_approval_multiple()


def scan_confidence() -> float:
    """Below this recognition confidence the dealer confirms or picks the card before it is recorded."""
    return conf.scan_confidence()





def required_reason(reason: str | None, what: str) -> str:
    """The reason a pit boss or dealer gave, stripped; none is ``InvalidInput`` ("a rejection needs a reason")."""
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(f"{what} needs a reason", field="reason")
    return reason


def audit(*, actor: Any, action: str, table: Table | None = None, round: Round | None = None,
          payload: Mapping[str, Any] | None = None) -> AuditEvent:
    """Write an audit event (call inside the writing transaction)."""
    return AuditEvent.objects.create(
        actor=actor if getattr(actor, "pk", None) else None, action=action, table=table, round=round,
        payload=dict(payload or {}),
    )



# ---------------------------------------------------------------------------------------------
# Tables and shoes


# Lock order.  Every write takes its row locks in ONE order:
#
#     table  →  game (Bluffjack or Contract Rummy)  →  round  →  anything under them (shoe, sessions,
#     the dealer's user row in ``table_open``, ...)
#
# and never locks a row higher in that list after one lower down.  ``_lock_table``, ``_lock_bluffjack``,
# ``_lock_round`` (and ``services_rummy._lock_game``) are the only ways in, and each takes the locks above
# its row first, one statement per row (``of=("self",)``: a join must not lock the joined rows at once in
# whatever order the planner picks).  Why the table first even for a round command: on PostgreSQL an
# INSERT of a row pointing at the table (the audit event, a round) takes a KEY SHARE lock on the table
# row, so a transaction holding a game or round lock would otherwise wait on a table lock held by
# another transaction waiting on that game or round — ``DeadlockDetected`` (ending a Bluffjack game while
# its next hand opens did exactly that).  Writes at one table are serialised; tables stay independent.


def _lock_table(table: Table | int) -> Table:
    pk = table.pk if isinstance(table, Table) else table
    return Table.objects.select_for_update(of=("self",)).select_related("game", "rule_set", "pay_table").get(pk=pk)



_OPEN = (RoundState.IN_PLAY, RoundState.PAUSED, RoundState.SETTLED, RoundState.MISMATCH)


def _lock_round(round: Round | int, expected_version: int | None = None) -> Round:
    """Lock the round for a write, in the lock order: its table, its Bluffjack game (if any), the round."""
    pk = round.pk if isinstance(round, Round) else round
    # A round never changes table or game, so reading them unlocked first is safe.
    table_id, game_id = Round.objects.values_list("table_id", "bluffjack_game_id").get(pk=pk)
    table = _lock_table(table_id)
    if game_id is not None:
        # A settlement or correction carries the stacks into the game: lock it before the round.
        list(BluffjackGame.objects.select_for_update().filter(pk=game_id).values_list("pk", flat=True))
    # Two tablets (or a retry racing the original) serialise here.
    locked = Round.objects.select_for_update().get(pk=pk)
    locked.table = table
    if expected_version is not None and locked.version != expected_version:
        raise Conflict(
            f"the round changed meanwhile (version {locked.version}, you had {expected_version}); reload it"
        )
    return locked


def _require_state(round: Round, *states: str, doing: str) -> None:
    if round.state not in states:
        raise Conflict(f"cannot {doing}: round {round.number} is {RoundState(round.state).label}")


def _bump(round: Round, **fields: Any) -> None:
    """Save the changed fields and bump the version (the tablet's conflict check)."""
    for k, v in fields.items():
        setattr(round, k, v)
    round.version += 1
    round.save(update_fields=[*fields, "version", "updated_at"])



def _lock_bluffjack(game: BluffjackGame | int, expected_version: int | None = None) -> BluffjackGame:
    """Lock a Bluffjack game for a write, in the lock order: its table, then the game."""
    pk = game.pk if isinstance(game, BluffjackGame) else game
    table = _lock_table(BluffjackGame.objects.values_list("table_id", flat=True).get(pk=pk))
    locked = BluffjackGame.objects.select_for_update().get(pk=pk)
    locked.table = table
    if expected_version is not None and locked.version != expected_version:
        raise Conflict(f"the game changed meanwhile (version {locked.version}, you had {expected_version}); reload it")
    return locked
