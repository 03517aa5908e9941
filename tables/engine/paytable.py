"""Pay tables as data: the published tables of each game, and parsing of the ``pay_table`` JSON.

A line pays either odds ``a:b`` on the wager or a fixed multiple of the table minimum.  The back
office stores the same line names; the engine never hard-codes an amount elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from .errors import InvalidInput
from .money import at_odds, parse_odds


@dataclass(frozen=True, slots=True)
class PayLine:
    """One line: ``odds`` (a fraction, pays odds×wager) or ``table_minimum`` (pays N×table minimum)."""

    name: str
    label: str
    odds: Fraction | None = None
    table_minimum: int | None = None

    def pays(self, wager: Decimal, table_minimum: Decimal) -> Decimal:
        """Winnings of this line (stake not included)."""
        if self.odds is not None:
            return at_odds(wager, self.odds)
        assert self.table_minimum is not None
        return (table_minimum * self.table_minimum).quantize(Decimal("0.01"))

    @property
    def pays_text(self) -> str:
        if self.odds is not None:
            return f"{self.odds.numerator}:{self.odds.denominator}"
        return f"{self.table_minimum}x table minimum"

    def as_json(self) -> dict[str, Any]:
        pays: dict[str, Any]
        if self.odds is not None:
            pays = {"odds": f"{self.odds.numerator}:{self.odds.denominator}"}
        else:
            pays = {"table_minimum": self.table_minimum}
        return {"name": self.name, "label": self.label, "pays": pays}


def _o(name: str, label: str, odds: str) -> PayLine:
    return PayLine(name, label, odds=parse_odds(odds, field=name))


def _m(name: str, label: str, n: int) -> PayLine:
    return PayLine(name, label, table_minimum=n)


# The published pay tables of shared/rules/, line by line.
PUBLISHED: dict[str, tuple[PayLine, ...]] = {
    "finnish-27": (
        _o("main", "Game wager", "1:1"),
        _o("finnish-27", "Finnish 27 (an Ace and a King)", "1:2"),
        _o("jo-jo", "Jo Jo (a pair of Jokers)", "1:1"),
        _o("8-9-10/mixed", "8-9-10 mixed suits", "1:2"),
        _o("8-9-10/suited", "8-9-10 hearts, clubs, or diamonds", "1:1"),
        _o("8-9-10/spades", "8-9-10 spades", "2:1"),
        _m("9-9-9/mixed", "9-9-9 mixed suits", 9),
        _m("9-9-9/suited", "9-9-9 same suit", 99),
        _m("9-9-9/dealer-9-9", "9-9-9 and any 9-9 initial dealer's hand", 999),
        _o("poker/two-pair", "Two Pair", "1:1"),
        _o("poker/three-of-a-kind", "Three of a Kind", "2:1"),
        _o("poker/straight", "Straight", "3:1"),
        _o("poker/full-house", "Full House", "4:1"),
        _o("poker/four-of-a-kind", "Four of a Kind", "5:1"),
        _o("poker/flush", "Flush", "6:1"),
        _o("poker/straight-flush", "Straight Flush", "7:1"),
        _o("poker/five-of-a-kind", "Five of a Kind", "8:1"),
    ),
    "unlimited-blackjack": (
        _o("main/blackjack", "Blackjack", "3:2"),
        _o("main/win", "Player wins", "1:1"),
        _o("insurance", "Insurance", "2:1"),
        _o("perfect-pairs/perfect", "Perfect Pair", "25:1"),
        _o("perfect-pairs/coloured", "Colored Pair", "12:1"),
        _o("perfect-pairs/mixed", "Mixed Pair", "6:1"),
        _o("21+3/suited-trips", "Suited Trips", "100:1"),
        _o("21+3/straight-flush", "Straight Flush", "40:1"),
        _o("21+3/three-of-a-kind", "Three of a Kind", "25:1"),
        _o("21+3/straight", "Straight", "10:1"),
        _o("21+3/flush", "Flush", "5:1"),
    ),
    "mini-blackjack": (
        _o("main/blackjack", "Blackjack Win (Player's Hand)", "3:2"),
        _o("main/win", "Non-Blackjack Win (Player's Hand)", "1:1"),
        _o("insurance", "Insurance - Dealer has Blackjack", "2:1"),
    ),
    "bluffjack": (),
    "contract-rummy": (),
}

# Other spellings accepted on input, mapped to the canonical line name.
ALIASES = {
    "perfect-pairs/colored": "perfect-pairs/coloured",
    "perfect-pairs/color": "perfect-pairs/coloured",
    "21+3/three-of-kind": "21+3/three-of-a-kind",
    "finnish27": "finnish-27",
    "jojo": "jo-jo",
}


class PayTable(Mapping[str, PayLine]):
    """The lines of one pay table by name; missing lines fall back to nothing (a line must exist)."""

    def __init__(self, game: str, lines: Mapping[str, PayLine]) -> None:
        self.game = game
        self._lines = dict(lines)

    def __getitem__(self, name: str) -> PayLine:
        try:
            return self._lines[name]
        except KeyError:
            raise InvalidInput(f"pay table of {self.game} has no line {name!r}", field="pay_table") from None

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._lines)

    def __len__(self) -> int:
        return len(self._lines)

    @classmethod
    def published(cls, game: str) -> PayTable:
        """The pay table printed in the game's rule text."""
        if game not in PUBLISHED:
            raise InvalidInput(f"unknown game {game!r}", field="game")
        return cls(game, {line.name: line for line in PUBLISHED[game]})

    @classmethod
    def from_json(cls, game: str, data: object, *, field: str = "pay_table") -> PayTable:
        """Parse ``{"lines": [{"name", "pays": {"odds": "a:b"} | {"table_minimum": N}}]}``.

        Lines not given keep the published value, so a client may send only the lines it changed.
        """
        table = cls.published(game)
        if data is None:
            return table
        if not isinstance(data, dict) or not isinstance(data.get("lines"), list):
            raise InvalidInput('expected {"lines": [...]}', field=field)
        lines = dict(table._lines)
        known = {line.name for line in PUBLISHED[game]}
        for i, raw in enumerate(data["lines"]):
            f = f"{field}.lines[{i}]"
            if not isinstance(raw, dict):
                raise InvalidInput("expected an object with name and pays", field=f)
            name = ALIASES.get(str(raw.get("name")), raw.get("name"))
            if not isinstance(name, str) or name not in known:  # a list name is unhashable: refuse it first
                raise InvalidInput(f"unknown line {raw.get('name')!r} for {game}; known: {sorted(known)}", field=f"{f}.name")
            pays = raw.get("pays")
            label = lines[name].label
            if isinstance(pays, dict) and set(pays) == {"odds"}:
                lines[name] = PayLine(name, label, odds=parse_odds(pays["odds"], field=f"{f}.pays.odds"))
            elif isinstance(pays, dict) and set(pays) == {"table_minimum"}:
                n = pays["table_minimum"]
                if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
                    raise InvalidInput(f"table_minimum must be a positive whole number, got {n!r}", field=f"{f}.pays.table_minimum")
                lines[name] = PayLine(name, label, table_minimum=n)
            else:
                raise InvalidInput('pays must be {"odds": "a:b"} or {"table_minimum": N}', field=f"{f}.pays")
        return cls(game, lines)
