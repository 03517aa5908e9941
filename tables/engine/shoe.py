"""Shoes: composition, cards dealt and left, penetration, the shuffle point, impossible cards.

A shoe is described by a ``ShoeSpec`` (decks, Jokers per deck, shuffle rule) taken from the rule
set, and followed card by card by a ``Shoe``.  The shuffle rule is one of:

- ``cut_card``: a cut card sits ``position`` cards from the front; the shoe is shuffled at the end
  of the round in which it came out (Unlimited Blackjack: about half way; Finnish 27: after about
  4.5 decks);
- ``cards_dealt``: shuffle between rounds once ``position`` or more cards have been dealt (Mini
  Blackjack: 60 or more).

A card the shoe cannot hold — a Joker in a shoe without Jokers, or one copy more than the shoe
holds — is refused with ``InvalidCard``; the shoe's state is then unchanged.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from .cards import JOKER, Card, standard_deck
from .errors import InvalidCard, InvalidInput


class ShuffleRule(StrEnum):
    CUT_CARD = "cut_card"
    CARDS_DEALT = "cards_dealt"


@dataclass(frozen=True, slots=True)
class ShoeSpec:
    """What a shoe holds and when it is shuffled."""

    decks: int
    jokers_per_deck: int = 0
    shuffle_rule: ShuffleRule = ShuffleRule.CUT_CARD
    shuffle_at: int = 0  # cut-card position, or the dealt-cards threshold
    total_jokers: int | None = None  # Jokers per shoe rather than per deck (Contract Rummy: 2 decks + 1 Joker)

    def __post_init__(self) -> None:
        if not isinstance(self.decks, int) or not 1 <= self.decks <= 16:
            raise InvalidInput(f"decks must be a whole number from 1 to 16, got {self.decks!r}", field="decks")
        if not isinstance(self.jokers_per_deck, int) or not 0 <= self.jokers_per_deck <= 4:
            raise InvalidInput(
                f"jokers per deck must be 0 to 4, got {self.jokers_per_deck!r}", field="jokers_per_deck"
            )
        if not 0 <= self.shuffle_at <= self.size:
            raise InvalidInput(
                f"shuffle point {self.shuffle_at} is outside the shoe of {self.size} cards", field="shuffle_at"
            )

    @property
    def jokers(self) -> int:
        """Jokers in the whole shoe."""
        return self.decks * self.jokers_per_deck if self.total_jokers is None else self.total_jokers

    @property
    def size(self) -> int:
        return self.decks * 52 + self.jokers

    def composition(self) -> Counter[Card]:
        """How many copies of each card the full shoe holds."""
        counts: Counter[Card] = Counter()
        for card in standard_deck():
            counts[card] += self.decks
        if self.jokers:
            counts[JOKER] = self.jokers
        return counts

    def copies(self, card: Card) -> int:
        """How many copies of ``card`` the full shoe holds."""
        return self.jokers if card.is_joker else self.decks

    def shuffled(self, rng: random.Random | None = None) -> list[Card]:
        """A freshly shuffled shoe (for simulation and demos)."""
        cards = [c for _ in range(self.decks) for c in standard_deck()] + [JOKER] * self.jokers
        (rng or random.Random()).shuffle(cards)
        return cards


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """Event: the shoe was shuffled; ``cards_dealt`` is how far it had gone (penetration)."""

    cards_dealt: int
    penetration: float
    reason: str


@dataclass(slots=True)
class Shoe:
    """A shoe followed card by card."""

    spec: ShoeSpec
    dealt: list[Card] = field(default_factory=list)
    cut_card_out: bool = False
    _seen: Counter[Card] = field(default_factory=Counter)

    @classmethod
    def from_dealt(cls, spec: ShoeSpec, cards: Iterable[Card]) -> Shoe:
        """A shoe with ``cards`` already dealt (each checked)."""
        shoe = cls(spec)
        for card in cards:
            shoe.deal(card)
        return shoe

    @property
    def cards_dealt(self) -> int:
        return len(self.dealt)

    @property
    def cards_left(self) -> int:
        return self.spec.size - len(self.dealt)

    @property
    def penetration(self) -> float:
        """Fraction of the shoe dealt (0.0–1.0)."""
        return len(self.dealt) / self.spec.size

    def remaining(self) -> Counter[Card]:
        """Copies of each card still in the shoe."""
        left = self.spec.composition()
        left.subtract(self._seen)
        return +left

    def verify_deal(self, card: Card) -> None:
        """Raise ``InvalidCard`` if ``card`` cannot come from this shoe now."""
        if card.is_joker and self.spec.jokers == 0:
            raise InvalidCard("a Joker cannot come from this shoe: the game is played without Jokers")
        copies = self.spec.copies(card)
        if self._seen[card] >= copies:
            raise InvalidCard(
                f"impossible card {card.code}: the shoe holds {copies} "
                f"{'copy' if copies == 1 else 'copies'} and all have been dealt since the shuffle"
            )

    def deal(self, card: Card) -> None:
        """Record ``card`` as dealt; refuse an impossible card and leave the shoe unchanged."""
        self.verify_deal(card)
        self.dealt.append(card)
        self._seen[card] += 1
        if self.spec.shuffle_rule is ShuffleRule.CUT_CARD and len(self.dealt) >= self.spec.shuffle_at > 0:
            self.cut_card_out = True

    @property
    def shuffle_due(self) -> bool:
        """Whether the shoe must be shuffled before the next round."""
        if self.spec.shuffle_at <= 0:
            return False
        if self.spec.shuffle_rule is ShuffleRule.CUT_CARD:
            return self.cut_card_out
        return len(self.dealt) >= self.spec.shuffle_at

    def reshuffle(self, reason: str = "shuffle point reached") -> Reshuffled:
        """Shuffle all cards back; returns the event (the player is notified of every reshuffle)."""
        event = Reshuffled(len(self.dealt), self.penetration, reason)
        self.dealt.clear()
        self._seen.clear()
        self.cut_card_out = False
        return event


def joker_count(cards: Iterable[Card]) -> int:
    """How many Jokers are among ``cards``."""
    return sum(1 for c in cards if c == JOKER)
