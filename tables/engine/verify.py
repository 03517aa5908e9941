"""``verify_round``: the stateless round verification of shared/DESIGN.md, dispatched by game.

Each game module provides ``verify(request) -> dict``; this module parses what every game shares
(the game slug, the table minimum, the pay table, ``paid``) and routes the request.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from importlib import import_module
from typing import Any

from .errors import InvalidInput
from .games import GAMES as REGISTRY
from .money import parse_amount
from .paytable import PayTable

GAMES: dict[str, str] = {slug: spec.verify_module for slug, spec in REGISTRY.items()}


def game_of(request: object) -> str:
    """The game slug of a request, checked."""
    if not isinstance(request, dict):
        raise InvalidInput("the request must be a JSON object", field="(body)")
    game = request.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise InvalidInput(f"unknown game {game!r}; expected one of {sorted(GAMES)}", field="game")
    return game


def table_minimum_of(request: dict[str, Any]) -> Decimal:
    """The table minimum (required, positive)."""
    if "table_minimum" not in request:
        raise InvalidInput("table_minimum is required", field="table_minimum")
    return parse_amount(request["table_minimum"], field="table_minimum")


def pay_table_of(request: dict[str, Any], game: str) -> PayTable:
    """The pay table of the request, or the game's published one."""
    return PayTable.from_json(game, request.get("pay_table"), field="pay_table")


def paid_of(seat: dict[str, Any], field: str) -> dict[str, Decimal] | None:
    """The optional ``paid`` map of a seat (bet kind → amount handed over), or None if absent."""
    if "paid" not in seat or seat["paid"] is None:
        return None
    paid = seat["paid"]
    if not isinstance(paid, dict):
        raise InvalidInput("paid must be an object mapping bet kind to amount", field=f"{field}.paid")
    return {
        str(k): parse_amount(v, field=f"{field}.paid.{k}", allow_zero=True) for k, v in paid.items()
    }


def verify_round(request: dict[str, Any]) -> dict[str, Any]:
    """Verify a finished round; raises ``InvalidInput`` (a ``ValueError``) for malformed input."""
    game = game_of(request)
    try:
        module = import_module(GAMES[game])
    except ModuleNotFoundError as exc:
        if exc.name != GAMES[game]:
            raise
        # A game whose engine module is not installed is refused, not a server error.
        raise InvalidInput(f"verification of {game} is not available", field="game") from None
    verify: Callable[[dict[str, Any]], dict[str, Any]] | None = getattr(module, "verify", None)
    if verify is None:
        raise InvalidInput(f"verification of {game} is not available", field="game")
    return verify(request)
