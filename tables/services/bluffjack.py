"""Bluffjack games: the next hand opened from the carried stacks, and the end of a game."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from tables.access import check_right
from tables.errors import Conflict
from tables.models import (
    BluffjackGame,
    GameState,
    Round,
    RoundState,
)
from tables.services.common import (
    _lock_bluffjack,
    audit,
    required_reason,
)
from tables.services.rounds import round_open


def bluffjack_hand_open(*, game: BluffjackGame | int, actor: Any, expected_version: int | None = None) -> Round:
    """Open the game's next hand from the carried stacks; the button has passed left, the broke sit out.

    Every hand is dealt from a fresh shoe: ``round_open`` records its shuffle.
    """
    with transaction.atomic():
        game = _lock_bluffjack(game, expected_version)  # the table, then the game
        table = game.table
        check_right(actor, table)
        if game.state != GameState.PLAYING:
            raise Conflict(f"Bluffjack game {game.number} is {GameState(game.state).label}"
                           + (f": {game.winner} holds every chip" if game.winner else ""))  # fmt: skip
        if game.hands.filter(state__in=(RoundState.IN_PLAY, RoundState.PAUSED)).exists():
            raise Conflict("a hand of this game is in play")
        seats = [{"seat": p["seat"], "player": p["player"], "stack": int(game.stacks.get(p["player"], 0)),
                  "dealer": p["player"] == game.button}
                 for p in game.players if int(game.stacks.get(p["player"], 0)) > 0]  # fmt: skip
        game.version += 1
        game.save(update_fields=["version", "updated_at"])
        return round_open(table=table, seats=seats, actor=actor, bluffjack_game=game)


def bluffjack_game_end(*, game: BluffjackGame | int, reason: str, actor: Any,
                       expected_version: int | None = None) -> BluffjackGame:
    """End a game before one player holds every chip (players leave); the stacks stay on record."""
    reason = required_reason(reason, "ending a game")
    with transaction.atomic():
        game = _lock_bluffjack(game, expected_version)
        check_right(actor, game.table)
        if game.state != GameState.PLAYING:
            raise Conflict(f"Bluffjack game {game.number} is already {GameState(game.state).label}")
        if game.hands.filter(state__in=(RoundState.IN_PLAY, RoundState.PAUSED)).exists():
            raise Conflict("a hand of this game is in play: finish or cancel it first")
        game.state, game.finished_at = GameState.ENDED, timezone.now()
        game.version += 1
        game.save()
        audit(actor=actor, action="bluffjack.game.end", table=game.table,
              payload={"game": game.number, "reason": reason, "stacks": game.stacks})  # fmt: skip
        return game
