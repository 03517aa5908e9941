"""Deck enrolment at the tablet: a new deck scanned card by card in any order, each scan named by the reader.

The deck itself is the witness.  A deck holds each card once (a Joker deck two Jokers), so a scan's
candidates are weighed as a one-deck shoe from which the cards already named have been dealt
(``witness.weigh`` and ``witness.choose``, the same weighing the scan service uses at a table): a card
already named cannot be this one, and the next candidate is named only when the reader is itself sure of
it; otherwise the person is asked, with the best guesses among the cards still missing.  A sure read of a
card already named is a card scanned twice, said as such rather than asked.

Pure: no Django.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import JOKER, Card, Rank, Suit, parse_card, standard_deck
from .errors import InvalidInput
from .games import GameSpec
from .shoe import Shoe, ShoeSpec
from .witness import Weighed, choose, weigh


@dataclass(frozen=True, slots=True)
class DeckKind:
    """A deck a casino enrols: what it holds, and the words the tablet uses for it."""

    slug: str
    label: str
    spec: ShoeSpec
    finnish_indices: bool
    games: str  # the games dealt from it, in words


DECKS: dict[str, DeckKind] = {
    d.slug: d
    for d in (
        DeckKind("standard", "52 cards", ShoeSpec(decks=1), False, "Unlimited and Mini Blackjack, Bluffjack"),
        DeckKind("jokers", "52 cards and 2 Jokers", ShoeSpec(decks=1, jokers_per_deck=2), False, "Contract Rummy"),
        DeckKind("finnish", "Finnish indices (1, 11, 12, 13): 52 cards and 2 Jokers",
                 ShoeSpec(decks=1, jokers_per_deck=2), True, "No-Bust Finnish 27"),
    )
}  # fmt: skip


def deck_for_game(spec: GameSpec) -> DeckKind:
    """The deck a game is dealt from: Finnish 27's cards bear Finnish indices (its rules), a game with
    Jokers (the registry's "jokers") a deck with them, the others 52 cards."""
    if spec.slug == "finnish-27":
        return DECKS["finnish"]
    return DECKS["jokers" if "jokers" in spec.capabilities else "standard"]


def deck_kind(slug: object, *, field: str = "deck") -> DeckKind:
    """The deck of ``slug``; an unknown one is ``InvalidInput`` naming the field and the known decks."""
    if not isinstance(slug, str) or slug not in DECKS:
        raise InvalidInput(f"unknown deck {slug!r}; expected one of {sorted(DECKS)}", field=field)
    return DECKS[slug]


_RANK_WORDS = {
    Rank.ACE: "ace", Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5", Rank.SIX: "6",
    Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10", Rank.JACK: "jack", Rank.QUEEN: "queen",
    Rank.KING: "king",
}  # fmt: skip
_SUIT_WORDS = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds", Suit.CLUBS: "clubs"}


def card_words(card: Card) -> str:
    """A card in words: "the 7 of hearts", "the queen of spades", "a Joker"."""
    if card.rank is None or card.suit is None:
        return "a Joker"
    return f"the {_RANK_WORDS[card.rank]} of {_SUIT_WORDS[card.suit]}"


def deck_cards(kind: DeckKind) -> list[Card]:
    """Every card of the deck once, in the progress grid's order (suit by suit, ace to king; Jokers last)."""
    order = [Rank.ACE, *[r for r in Rank if r is not Rank.ACE]]
    cards = sorted(standard_deck(), key=lambda c: ("SHDC".index(c.suit or "S"), order.index(c.rank or Rank.ACE)))
    return cards + ([JOKER] if kind.spec.jokers else [])


def remaining(kind: DeckKind, named: Iterable[Card]) -> Counter[Card]:
    """Copies of each card of the deck not named yet (a card named more often than the deck holds it is
    ``InvalidInput``)."""
    try:
        return Shoe.from_dealt(kind.spec, named).remaining()
    except InvalidInput as exc:
        raise InvalidInput(f"the deck cannot hold these cards: {exc.message}", field="code") from None


def check_namable(kind: DeckKind, named: Iterable[Card], code: object) -> Card:
    """The card ``code`` names, when the deck holds it; ``InvalidInput`` for a bad code or a card of no
    such deck (a Joker in a 52-card deck).  Whether it is named already is the caller's question."""
    card = parse_card(code, field="code")
    if card not in kind.spec.composition():
        raise InvalidInput(f"{card_words(card)} is not in a deck of {kind.label}", field="code")
    return card


@dataclass(frozen=True, slots=True)
class Naming:
    """What the reader's candidates for one scan come to in the deck being enrolled.

    ``named``: the card is named without asking (``card``, belief ``confidence``); ``duplicate``: the
    reader is sure of ``card`` but every copy of it is named already (scanned twice); ``ask``: the
    person names it, offered ``guesses`` (cards still missing, best first)."""

    outcome: Literal["named", "duplicate", "ask"]
    card: Card | None
    confidence: float
    guesses: tuple[Weighed, ...]


def name_scan(candidates: Sequence[tuple[str, float]], kind: DeckKind, named: Iterable[Card],
              threshold: float, *, limit: int = 4) -> Naming:  # fmt: skip
    """Name one scan of the deck from the reader's candidates (code, confidence), the cards already named
    having left the deck: weighed by ``witness`` as a one-deck shoe."""
    shoe = Shoe.from_dealt(kind.spec, named)
    left = shoe.remaining()
    ranked = weigh(candidates, shoe)
    guesses = tuple(w for w in ranked if left[w.card] > 0)[:limit]
    card = choose(candidates, shoe, threshold)
    if card is not None:
        top = next(w for w in ranked if w.card == card)
        return Naming("named", card, top.weighed, guesses)
    raw = weigh(candidates, None)
    if raw and raw[0].read >= threshold and raw[0].card in kind.spec.composition() and left[raw[0].card] == 0:
        return Naming("duplicate", raw[0].card, raw[0].read, guesses)
    return Naming("ask", None, guesses[0].weighed if guesses else 0.0, guesses)
