"""The one money column: an exact decimal with two places (the engine counts integer minor units)."""

from __future__ import annotations

from typing import TypedDict


class MoneyDigits(TypedDict):
    """``DecimalField`` keywords of an amount of money (typed, so ``**MONEY`` type-checks)."""

    max_digits: int
    decimal_places: int


MONEY: MoneyDigits = {"max_digits": 14, "decimal_places": 2}
