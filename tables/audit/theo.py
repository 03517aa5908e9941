"""Theoretical win: one rule, in one place.

The theo of a set of wagers is Σ handle × house edge.  It is kept exact (``Decimal``) through every sum —
bet kinds, shifts, days, months, tables, pits and games — and rounded once, to the cent, half up, where it
is shown or judged as money (``theo_cents``).  Rounding each part and adding the parts gave a cent more or
less than rounding the whole (the day's theo of a table read 26.34 in the hold section of the nightly report
and 26.33 in its accounting section, the sum of three rounded shifts).

An edge comes from the theory store as a float; it enters the sum as the shortest decimal that reads back
as that float (``Decimal(repr(edge))``), so the same edge gives the same theo wherever it is used.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def edge_decimal(edge: float | Decimal) -> Decimal:
    """A house edge as an exact decimal (a float by its shortest repr)."""
    return edge if isinstance(edge, Decimal) else Decimal(repr(float(edge)))


def theo_exact(parts: Iterable[tuple[Decimal, float | Decimal]]) -> Decimal:
    """Σ handle × edge over ``(handle, edge)`` pairs, exact (not rounded)."""
    return sum((Decimal(handle) * edge_decimal(edge) for handle, edge in parts), Decimal(0))


def theo_cents(exact: Decimal | str) -> Decimal:
    """An exact theo as money: rounded once, to the cent, half up."""
    return Decimal(exact).quantize(CENT, rounding=ROUND_HALF_UP)
