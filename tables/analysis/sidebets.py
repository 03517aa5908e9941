"""Exact RTP of the blackjack side bets by combinatorial enumeration over the shoe.

The outcome of each hand comes from the engine's own classifiers
(``tables.engine.sidebets.perfect_pairs_kind`` and ``twenty_one_plus_three_kind``), so the math
settles exactly what the tables settle.  Probabilities are exact fractions: every ordered deal of
``k`` cards is weighted ``n_1 (n_2 - [same]) ... / (N (N-1) ...)`` (drawing without replacement).

Speed: Perfect Pairs enumerates all ordered pairs of distinct card faces (53 x 53 with a Joker).
21+3 uses two symmetries: the four suits (a 21+3 hand's category only asks which cards share a
suit), so for each triple of ranks only one suit pattern per partition is classified, weighted by
the number of suit assignments with that pattern; and the order of the three cards (a poker hand),
so each multiset of ranks stands for all its orderings.  A test checks this against a brute-force
enumeration of every triple of a one-deck shoe.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations_with_replacement, permutations
from math import perm
from typing import Any

from tables.engine.cards import JOKER, Card, Rank, Suit
from tables.engine.paytable import PayLine, PayTable
from tables.engine.sidebets import (
    PERFECT_PAIRS_KINDS,
    TWENTY_ONE_PLUS_THREE_KINDS,
    perfect_pairs_kind,
    twenty_one_plus_three_kind,
)

SUITS = tuple(Suit)


@dataclass(frozen=True)
class Outcome:
    """One outcome of a bet: its probability and what it pays per unit wagered (stake not included)."""

    name: str
    probability: Fraction
    pays: Fraction  # winnings per unit wager; -1 for a lost bet

    @property
    def contribution(self) -> Fraction:
        return self.probability * self.pays


@dataclass(frozen=True)
class BetReturn:
    """Exact return of one bet: outcomes with probability, pay and contribution; RTP and house edge."""

    game: str
    bet: str
    decks: int
    jokers: int
    outcomes: tuple[Outcome, ...]
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def ev(self) -> Fraction:
        return sum((o.contribution for o in self.outcomes), Fraction(0))

    @property
    def rtp(self) -> Fraction:
        return 1 + self.ev

    @property
    def house_edge(self) -> Fraction:
        return -self.ev

    def as_json(self) -> dict[str, Any]:
        """The ``analyse rtp --json`` answer: ``rtp`` as a fraction of the wager, and each outcome."""
        return {
            "game": self.game,
            "bet": self.bet,
            "decks": self.decks,
            "jokers": self.jokers,
            "rtp": float(self.rtp),
            "house_edge": float(self.house_edge),
            "rtp_exact": f"{self.rtp.numerator}/{self.rtp.denominator}",
            "outcomes": {
                o.name: {
                    "probability": float(o.probability),
                    "pays": float(o.pays),
                    "contribution": float(o.contribution),
                }
                for o in self.outcomes
            },
            "notes": list(self.notes),
        }


def line_pays(line: PayLine) -> Fraction:
    """Winnings per unit wager of a pay line; a table-minimum line is valued at a wager of one minimum."""
    if line.odds is not None:
        return line.odds
    assert line.table_minimum is not None
    return Fraction(line.table_minimum)


def _faces(jokers: int) -> list[Card]:
    faces = [Card(r, s) for r in Rank for s in Suit]
    return faces + [JOKER] if jokers else faces


def _count(card: Card, decks: int, jokers: int) -> int:
    return jokers if card.is_joker else decks


def _check_shoe(decks: int, jokers: int) -> None:
    from tables.engine.errors import InvalidInput

    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 16:
        raise InvalidInput(f"must be a whole number from 1 to 16, got {decks!r}", field="decks")
    if isinstance(jokers, bool) or not isinstance(jokers, int) or not 0 <= jokers <= 64:
        raise InvalidInput(f"must be a whole number from 0 to 64, got {jokers!r}", field="jokers")


def _result(game: str, bet: str, decks: int, jokers: int, counts: Mapping[str | None, int], total: int,
            kinds: Sequence[str], table: PayTable, prefix: str, notes: tuple[str, ...] = ()) -> BetReturn:
    outcomes = []
    for kind in kinds:
        outcomes.append(Outcome(f"{prefix}/{kind}", Fraction(counts.get(kind, 0), total),
                                line_pays(table[f"{prefix}/{kind}"])))
    outcomes.append(Outcome("lose", Fraction(counts.get(None, 0), total), Fraction(-1)))
    return BetReturn(game, bet, decks, jokers, tuple(outcomes), notes)


def perfect_pairs_return(decks: int = 8, *, jokers: int = 0, pay_table: PayTable | None = None,
                         game: str = "unlimited-blackjack",
                         classify: Callable[[Card, Card], str | None] = perfect_pairs_kind) -> BetReturn:
    """Exact return of Perfect Pairs on the player's first two cards from a fresh shoe."""
    _check_shoe(decks, jokers)
    table = pay_table or PayTable.published(game)
    faces = _faces(jokers)
    counts: dict[str | None, int] = {}
    for c1 in faces:
        n1 = _count(c1, decks, jokers)
        for c2 in faces:
            n2 = _count(c2, decks, jokers) - (c1 == c2)
            if n2 <= 0:
                continue
            kind = classify(c1, c2)
            counts[kind] = counts.get(kind, 0) + n1 * n2
    total = perm(52 * decks + jokers, 2)
    return _result(game, "perfect-pairs", decks, jokers, counts, total, PERFECT_PAIRS_KINDS, table, "perfect-pairs")


def _suit_patterns(m: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Canonical suit patterns of ``m`` cards (restricted growth strings) and how many assignments each has."""
    def grow(prefix: tuple[int, ...], top: int) -> Iterator[tuple[int, ...]]:
        if len(prefix) == m:
            yield prefix
            return
        for s in range(min(top + 2, len(SUITS))):
            yield from grow(prefix + (s,), max(top, s))

    for pattern in grow((), -1):
        distinct = len(set(pattern))
        yield pattern, perm(len(SUITS), distinct)


def three_card_counts(decks: int, jokers: int,
                      classify: Callable[[Card, Card, Card], str | None]) -> tuple[dict[str | None, int], int]:
    """Ordered three-card deals by category (suit symmetry used); returns (counts, total deals)."""
    ranks: list[Rank | None] = list(Rank) + ([None] if jokers else [])
    patterns = {m: list(_suit_patterns(m)) for m in range(4)}
    face = {(r, i): Card(r, s) for r in Rank for i, s in enumerate(SUITS)}
    counts: dict[str | None, int] = {}
    order = {r: i for i, r in enumerate(ranks)}
    for rank_triple in combinations_with_replacement(ranks, 3):
        # The category and the weight of a deal do not depend on the order of its three cards, so
        # each multiset of ranks stands for all its distinct orderings.
        orderings = len(set(permutations(order[r] for r in rank_triple)))
        real = [i for i, r in enumerate(rank_triple) if r is not None]
        for pattern, mult in patterns[len(real)]:
            suit_of = dict(zip(real, pattern, strict=True))
            cards = [JOKER if r is None else face[(r, suit_of[i])] for i, r in enumerate(rank_triple)]
            c0, c1, c2 = cards
            # Without replacement: each repeat of an identical card finds one copy fewer.
            n0 = _count(c0, decks, jokers)
            n1 = _count(c1, decks, jokers) - (c1 == c0)
            n2 = _count(c2, decks, jokers) - (c2 == c0) - (c2 == c1)
            if n1 <= 0 or n2 <= 0:
                continue
            kind = classify(c0, c1, c2)
            counts[kind] = counts.get(kind, 0) + n0 * n1 * n2 * mult * orderings
    return counts, perm(52 * decks + jokers, 3)


def twenty_one_plus_three_return(decks: int = 8, *, jokers: int = 0, pay_table: PayTable | None = None,
                                 game: str = "unlimited-blackjack",
                                 classify: Callable[[Card, Card, Card], str | None] = twenty_one_plus_three_kind,
                                 ) -> BetReturn:
    """Exact return of 21+3 (player's first two cards and the dealer's up card) from a fresh shoe."""
    _check_shoe(decks, jokers)
    table = pay_table or PayTable.published(game)
    counts, total = three_card_counts(decks, jokers, classify)
    return _result(game, "21+3", decks, jokers, counts, total, TWENTY_ONE_PLUS_THREE_KINDS, table, "21+3")


def insurance_return(decks: int = 8, *, pay_table: PayTable | None = None,
                     game: str = "unlimited-blackjack") -> BetReturn:
    """Exact return of insurance against an Ace up, averaged over the player hands it is offered to.

    Insurance is offered to every player without a blackjack, so the player's own two cards (not
    Ace + ten) are removed from the shoe; the dealer's hole card then comes from what is left.
    """
    _check_shoe(decks, 0)
    table = pay_table or PayTable.published(game)
    n = [4 * decks] * 9 + [16 * decks]  # classes Ace, 2..9, ten-valued
    n[0] -= 1  # the dealer's Ace
    total = sum(n)
    win = Fraction(0)
    offered = Fraction(0)
    for a in range(10):
        for b in range(10):
            pab = Fraction(n[a] * (n[b] - (a == b)), total * (total - 1))
            if pab == 0 or {a, b} == {0, 9}:
                continue
            offered += pab
            win += pab * Fraction(n[9] - (a == 9) - (b == 9), total - 2)
    p_bj = win / offered
    pays = line_pays(table["insurance"])
    notes = ("dealer shows an Ace; player's two cards (not a blackjack) removed; averaged over offered hands",)
    return BetReturn(game, "insurance", decks, 0,
                     (Outcome("insurance", p_bj, pays), Outcome("lose", 1 - p_bj, Fraction(-1))), notes)
