"""Blackjack side bets settled on the initial cards: Perfect Pairs and 21+3.

Both classifiers are pure and fast (the game math enumerates every combination with them); the
amounts come from the pay table lines ``perfect-pairs/<kind>`` and ``21+3/<kind>``.

- Perfect Pairs (shared/rules/unlimited-blackjack.txt): the player's first two cards are a pair of
  the same *rank* (a Ten and a King are not a pair): same suit = ``perfect``; same colour, other
  suit = ``coloured``; different colours = ``mixed``.
- 21+3: the player's first two cards plus the dealer's up card as a three-card poker hand.  Highest
  category only: ``suited-trips`` (three identical cards), ``straight-flush``, ``three-of-a-kind``,
  ``straight``, ``flush``.  The Ace is high or low (Q-K-A and A-2-3 are straights) but a straight
  never wraps (K-A-2 is not one).
"""

from __future__ import annotations

from .cards import Card, Suit

PERFECT_PAIRS_KINDS = ("perfect", "coloured", "mixed")
TWENTY_ONE_PLUS_THREE_KINDS = ("suited-trips", "straight-flush", "three-of-a-kind", "straight", "flush")

_RED = frozenset({Suit.HEARTS, Suit.DIAMONDS})


def perfect_pairs_kind(c1: Card, c2: Card) -> str | None:
    """``perfect``, ``coloured``, ``mixed`` or ``None`` for the player's first two cards."""
    if c1.rank != c2.rank or c1.rank is None:
        return None
    if c1.suit == c2.suit:
        return "perfect"
    if (c1.suit in _RED) == (c2.suit in _RED):
        return "coloured"
    return "mixed"


def _is_straight(a: int, b: int, c: int) -> bool:
    """Three distinct ranks in sequence, the Ace (14) high or low, no wrap round."""
    lo, mid, hi = sorted((a, b, c))
    if lo == mid or mid == hi:
        return False
    if hi - lo == 2:
        return True
    return (lo, mid, hi) == (2, 3, 14)  # A-2-3 with the Ace low


def twenty_one_plus_three_kind(c1: Card, c2: Card, up: Card) -> str | None:
    """The 21+3 category of the player's first two cards and the dealer's up card, or ``None``."""
    r1, r2, r3 = c1.rank, c2.rank, up.rank
    if r1 is None or r2 is None or r3 is None:
        return None
    flush = c1.suit == c2.suit == up.suit
    if r1 == r2 == r3:
        return "suited-trips" if flush else "three-of-a-kind"
    straight = _is_straight(int(r1), int(r2), int(r3))
    if straight:
        return "straight-flush" if flush else "straight"
    if flush:
        return "flush"
    return None
