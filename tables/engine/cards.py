"""Cards: ranks, suits, the Joker, and the card codes of shared/rules/README.md.

A code is rank then suit (``A 2 3 4 5 6 7 8 9 T J Q K`` and ``S H D C``), ``10`` accepted for
``T``, case-insensitive; the Joker is ``JK``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from functools import total_ordering

from .errors import InvalidCard


class Rank(IntEnum):
    """Card ranks; the value is the poker rank with the Ace high (14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def code(self) -> str:
        return _RANK_CODES[self]


class Suit(StrEnum):
    """Card suits, valued by their one-letter code."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_RANK_CODES = {
    Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5", Rank.SIX: "6",
    Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "T", Rank.JACK: "J",
    Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A",
}  # fmt: skip
_RANK_BY_CODE = {v: k for k, v in _RANK_CODES.items()} | {"10": Rank.TEN}
_SUIT_BY_CODE = {s.value: s for s in Suit}


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """A playing card; ``rank`` and ``suit`` are both ``None`` for the Joker."""

    rank: Rank | None
    suit: Suit | None

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise InvalidCard("a card has both a rank and a suit, or neither (the Joker)")

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def code(self) -> str:
        if self.rank is None or self.suit is None:
            return "JK"
        return self.rank.code + self.suit.value

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __lt__(self, other: object) -> bool:  # Jokers sort last
        if not isinstance(other, Card):
            return NotImplemented
        return _sort_key(self) < _sort_key(other)


def _sort_key(card: Card) -> tuple[int, str]:
    return (99, "") if card.rank is None else (int(card.rank), card.suit.value if card.suit else "")


JOKER = Card(None, None)


def parse_card(token: object, *, field: str | None = None) -> Card:
    """Parse one card code (``AS``, ``th``, ``10h``, ``JK``); an error names the bad token."""
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise InvalidCard(f"card code must be a string, got {type(token).__name__} {token!r}", field=field)
    text = token.strip().upper()
    card = _CARD_CACHE.get(text)
    if card is None:
        raise InvalidCard(
            f"bad card code {token!r}: expected rank (A 2-9 T/10 J Q K) then suit (S H D C), or JK",
            field=field,
        )
    return card


def parse_cards(tokens: object, *, field: str | None = None) -> list[Card]:
    """Parse a list of card codes, or a space/comma separated string of them."""
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    if not isinstance(tokens, list | tuple):
        raise InvalidCard(f"expected a list of card codes, got {type(tokens).__name__}", field=field)
    return [
        parse_card(t, field=f"{field}[{i}]" if field else f"[{i}]") for i, t in enumerate(tokens)
    ]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as space-separated codes."""
    return " ".join(c.code for c in cards)


SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_face(code: object) -> str:
    """A card code as the card prints it: ``8S`` → ``8♠``, ``TH`` → ``10♥``, ``JK`` → ``Joker``; text that
    is not a card code is given back as it is (nothing hidden)."""
    text = str(code or "")
    if text == "JK":
        return "Joker"
    if len(text) == 2 and text[1] in SUIT_SIGNS:
        return ("10" if text[0] == "T" else text[0]) + SUIT_SIGNS[text[1]]
    return text


def standard_deck(jokers: int = 0) -> list[Card]:
    """One deck: 52 cards in rank-then-suit order, plus ``jokers`` Jokers."""
    return [Card(r, s) for r in Rank for s in Suit] + [JOKER] * jokers


_CARD_CACHE: dict[str, Card] = {"JK": JOKER}
for _card in standard_deck():
    assert _card.rank is not None and _card.suit is not None
    _CARD_CACHE[_card.code] = _card
    if _card.rank is Rank.TEN:
        _CARD_CACHE["10" + _card.suit.value] = _card
