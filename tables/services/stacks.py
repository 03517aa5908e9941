"""Bluffjack games' rows: a new game from its first hand's seats, and the stacks carried after each hand."""

from __future__ import annotations

from typing import Any

from django.db.models import Max
from django.utils import timezone

from tables.engine.bluffjack.adapter import bluffjack_after, bluffjack_name
from tables.errors import Conflict
from tables.models import (
    BluffjackGame,
    GameState,
    Round,
    RoundState,
    Table,
)
from tables.services.common import (
    audit,
)


def _bluffjack_game_new(table: Table, setup: dict[str, Any], rules_params: dict[str, Any], actor: Any) -> BluffjackGame:
    """A new game at the table from the first hand's seats (the stacks the dealer entered)."""
    starting = int(rules_params.get("starting_chips", 100))
    seats = sorted(setup["seats"], key=lambda s: s["seat"])
    players = [{"seat": s["seat"], "player": bluffjack_name(s)} for s in seats]
    stacks = {bluffjack_name(s): int(s.get("stack", starting)) for s in seats}
    number = (BluffjackGame.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0) + 1
    game = BluffjackGame.objects.create(
        table=table, number=number, players=players, starting_stacks=stacks, stacks=stacks,
        button=setup.get("dealer") or players[0]["player"], started_by=actor,
    )  # fmt: skip
    audit(actor=actor, action="bluffjack.game.start", table=table,
          payload={"game": game.number, "stacks": stacks, "button": game.button})  # fmt: skip
    return game


def _bluffjack_carry(round: Round, state: Any) -> None:
    """After a hand is settled (or re-settled by a correction): the game takes its stacks and button.

    The caller holds the round through ``_lock_round``, which locked the table and this game before it.
    """
    if round.bluffjack_game_id is None:
        raise Conflict("this hand belongs to no Bluffjack game")
    game = BluffjackGame.objects.select_for_update().get(pk=round.bluffjack_game_id)
    if game.hands.filter(number__gt=round.number).exclude(state=RoundState.CANCELLED).exists():
        # The next hands were played from these stacks: re-settling this one would rewrite them.
        raise Conflict("a later hand of this Bluffjack game was played from these stacks: cancel or correct it first")
    after = bluffjack_after(state)
    done = game.hands.exclude(pk=round.pk).exclude(
        state__in=(RoundState.IN_PLAY, RoundState.PAUSED, RoundState.CANCELLED)).count()  # fmt: skip
    game.stacks = {**game.stacks, **after["stacks"]}
    game.button, game.house, game.set_aside, game.carry = after["button"], after["house"], after["set_aside"], after["carry"]
    game.hands_played = done + 1
    if after["over"]:
        game.state, game.winner, game.finished_at = GameState.OVER, after["winner"], timezone.now()
    elif game.state == GameState.OVER:  # a correction of the last hand undid the win
        if BluffjackGame.objects.filter(table=game.table_id, state=GameState.PLAYING).exists():
            raise Conflict("another Bluffjack game has started at this table since: this hand cannot change the result")
        game.state, game.winner, game.finished_at = GameState.PLAYING, "", None
    game.version += 1
    game.save()
    audit(actor=None, action="bluffjack.carry", table=round.table, round=round,
          payload={"game": game.number, "stacks": game.stacks, "button": game.button, "carry": game.carry,
                   "house": game.house, "set_aside": game.set_aside, "winner": game.winner or None})  # fmt: skip
