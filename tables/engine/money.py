"""Money: exact decimal amounts with two places; never floats.

Payouts at odds are computed exactly with ``Fraction`` and rounded *down* to the cent (the casino's
usual breakage rule: a 3:2 blackjack on 5.01 pays 7.51, not 7.515).  Every amount the engine returns
is a ``Decimal`` quantised to two places.
"""

from __future__ import annotations

import re
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from fractions import Fraction

from .errors import InvalidInput

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def to_money(value: Decimal | int | str) -> Decimal:
    """An exact amount quantised to the cent (no validation beyond exactness)."""
    return Decimal(value).quantize(CENT, rounding=ROUND_DOWN)


_AMOUNT = re.compile(r"[+-]?[0-9]{1,15}(\.[0-9]{1,15})?|[+-]?\.[0-9]{1,15}", re.ASCII)


def parse_amount(value: object, *, field: str, positive: bool = True, allow_zero: bool = False) -> Decimal:
    """Parse a wager or amount from JSON (a decimal string, or an int); floats are refused.

    The error names ``field``.  ``positive`` refuses negatives; zero only if ``allow_zero``.
    """
    if isinstance(value, bool) or value is None:
        raise InvalidInput(f"expected an amount such as \"10.00\", got {value!r}", field=field)
    if isinstance(value, float):
        # Floats cannot hold cents exactly; a JSON client must send "10.25", not 10.25.
        if value != value or value in (float("inf"), float("-inf")):
            raise InvalidInput(f"amount must be a finite decimal, got {value!r}", field=field)
        value = repr(value)
    if isinstance(value, Decimal):
        amount = value
    elif isinstance(value, int | str):
        text = str(value).strip(" ")  # plain spaces only: a no-break space is no part of an amount
        # Decimal() also takes "1_000", "١٠" and "𝟏": an amount is written with ASCII digits only.
        if not _AMOUNT.fullmatch(text):
            raise InvalidInput(f"amount must be a decimal number such as \"10.00\", got {value!r}", field=field)
        try:
            amount = Decimal(text)
        except InvalidOperation:
            raise InvalidInput(f"amount must be a decimal number such as \"10.00\", got {value!r}", field=field) from None
    else:
        raise InvalidInput(f"amount must be a decimal string, got {type(value).__name__}", field=field)
    if not amount.is_finite():
        raise InvalidInput(f"amount must be finite, got {value!r}", field=field)
    if amount.adjusted() > 12:
        # Checked before quantize: "1e300" would make quantize raise decimal.InvalidOperation,
        # which is not a ValueError.
        raise InvalidInput(f"amount is implausibly large: {value!r}", field=field)
    if amount != amount.quantize(CENT, rounding=ROUND_DOWN):
        raise InvalidInput(f"amount has more than two decimal places: {value!r}", field=field)
    if amount.adjusted() > 12:
        raise InvalidInput(f"amount is implausibly large: {value!r}", field=field)
    if positive and (amount < 0 or (amount == 0 and not allow_zero)):
        raise InvalidInput(
            f"amount must be {'zero or more' if allow_zero else 'positive'}, got {value!r}", field=field
        )
    return amount.quantize(CENT)


def parse_odds(value: object, *, field: str) -> Fraction:
    """Parse odds ``"a:b"`` (pays a for every b wagered) into a positive ``Fraction``."""
    if not isinstance(value, str) or value.count(":") != 1:
        raise InvalidInput(f"odds must be a string \"a:b\", got {value!r}", field=field)
    a, b = value.split(":")
    try:
        fa, fb = Fraction(Decimal(a.strip())), Fraction(Decimal(b.strip()))
    except (InvalidOperation, ValueError):
        raise InvalidInput(f"odds must be numbers \"a:b\", got {value!r}", field=field) from None
    if fa <= 0 or fb <= 0:
        raise InvalidInput(f"odds must be positive, got {value!r}", field=field)
    return fa / fb


def at_odds(wager: Decimal, odds: Fraction) -> Decimal:
    """What a winning wager is paid at ``odds`` (stake not included), rounded down to the cent."""
    exact = Fraction(wager) * odds
    cents = (exact * 100).numerator // (exact * 100).denominator
    return (Decimal(cents) / 100).quantize(CENT)


def fmt(amount: Decimal) -> str:
    """The two-place decimal string used in JSON answers (``"-10.00"``, ``"0.00"``)."""
    q = amount.quantize(CENT)
    return str(q + 0) if q != 0 else "0.00"
