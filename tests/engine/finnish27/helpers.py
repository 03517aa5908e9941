"""Small helpers for the Finnish 27 tests."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tables.engine.cards import Card, parse_cards


def C(codes: str) -> list[Card]:
    """Cards from space-separated codes."""
    return parse_cards(codes)


def D(amount: str) -> Decimal:
    return Decimal(amount)


def request(
    player: str, dealer: str, *, wager: str = "10.00", table_minimum: str = "10.00", paid: dict[str, str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A verify request for one Finnish 27 round."""
    seat: dict[str, Any] = {"seat": 1, "wagers": {"main": wager}, "hands": [{"cards": player.split()}]}
    if paid is not None:
        seat["paid"] = paid
    return {"game": "finnish-27", "table_minimum": table_minimum, "dealer": {"cards": dealer.split()},
            "seats": [seat], **extra}  # fmt: skip
