"""Pure blackjack hand arithmetic: card points, totals, blackjacks and the dealer's drawing rule.

These functions take plain lists of ``Card`` (no Jokers: the blackjack shoes hold none, and the
round code checks every card through the ``Shoe`` first) and are kept small and fast because the
game-math package calls them millions of times.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..cards import Card, Rank

# Points by rank value (Rank is an IntEnum 2..14): 2-9 face value, T J Q K ten, the Ace one (the
# extra ten of a soft hand is added by ``hand_total``).  A list indexed by rank is the fastest lookup.
_POINTS: tuple[int, ...] = (0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1)


# Rank codes by rank value: ``Card.code`` goes through two enum properties, too slow for the
# settlement details of a simulation; the suit is a StrEnum, so ``rank code + suit`` is the code.
_RANK_CODES: tuple[str, ...] = ("", "", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")


def code_of(card: Card) -> str:
    """The card's code (``8S``), built without enum property lookups."""
    if card.rank is None:
        return card.code
    return _RANK_CODES[card.rank] + card.suit  # type: ignore[operator]


class DealerRule(Protocol):
    """What ``dealer_must_hit`` needs from a rule set (``BlackjackRules`` has it)."""

    @property
    def dealer_hits_soft_17(self) -> bool: ...


def card_points(card: Card) -> int:
    """Blackjack points of one card: 2-9 face value, ten-value cards 10, the Ace 1 (soft 11 in totals)."""
    return _POINTS[card.rank]  # type: ignore[index]


def is_ace(card: Card) -> bool:
    """Whether ``card`` is an Ace."""
    return card.rank is Rank.ACE


def is_ten_value(card: Card) -> bool:
    """Whether ``card`` counts ten (T, J, Q, K)."""
    return _POINTS[card.rank] == 10  # type: ignore[index]


def same_value(a: Card, b: Card) -> bool:
    """Whether two cards have the same points, the test for a split (T-Q splits, A-A splits)."""
    return _POINTS[a.rank] == _POINTS[b.rank]  # type: ignore[index]


def hand_total(cards: Sequence[Card]) -> tuple[int, bool]:
    """``(total, soft)``: the best total of ``cards``; soft when an Ace counts 11 in it."""
    total = 0
    ace = False
    for card in cards:
        p = _POINTS[card.rank]  # type: ignore[index]
        total += p
        if p == 1:
            ace = True
    # At most one Ace can count 11 (two would make 22), so one extra ten is all there is to add.
    if ace and total <= 11:
        return total + 10, True
    return total, False


def is_blackjack(cards: Sequence[Card], *, after_split: bool = False) -> bool:
    """An Ace and a ten-value card as a hand's first two cards; never after a split (that is 21)."""
    if after_split or len(cards) != 2:
        return False
    a, b = _POINTS[cards[0].rank], _POINTS[cards[1].rank]  # type: ignore[index]
    return (a == 1 and b == 10) or (a == 10 and b == 1)


def dealer_must_hit(cards: Sequence[Card], rules: DealerRule) -> bool:
    """The dealer's drawing rule: hit below 17, and on soft 17 when the rule set hits soft 17."""
    total, soft = hand_total(cards)
    return total < 17 or (total == 17 and soft and rules.dealer_hits_soft_17)


def describe_total(cards: Sequence[Card], *, after_split: bool = False) -> str:
    """A total in words a dealer can read out: ``blackjack``, ``soft 18``, ``16``, ``bust 25``."""
    if is_blackjack(cards, after_split=after_split):
        return "blackjack"
    total, soft = hand_total(cards)
    if total > 21:
        return f"bust {total}"
    return f"soft {total}" if soft else str(total)
