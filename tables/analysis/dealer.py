"""Blackjack dealer outcome probabilities, exact, by recursion over the remaining shoe.

Method.  The dealer's play depends only on the hard total and whether an Ace is held, which are
functions of the *multiset* of cards drawn, not of their order.  So for each up card we enumerate,
once, every final multiset of cards the dealer can draw (hole card first), with the number of
orderings that reach it without stopping earlier, and its outcome (17..21, bust, blackjack).  The
probability of a multiset drawn without replacement from a shoe ``n`` (``N`` cards) is
``ways * prod(falling(n_i, k_i)) / falling(N, K)``, evaluated for all multisets at once with numpy;
an infinite shoe uses ``prod(p_i ** k_i)``.  This is the exact recursion over the remaining shoe,
re-usable for any shoe composition (after the player's cards are removed, for instance).

Card classes are indexed 0..9 = Ace, 2, ..., 9, ten-valued.  The dealer's hit/stand rule, the
totals and the blackjack test come from the engine (``tables.engine.blackjack.hands``), asked once
per (hard total, Ace held) state on a representative hand, so the math plays the engine's rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from tables.engine.blackjack.hands import dealer_must_hit, hand_total, is_blackjack
from tables.engine.cards import Card, parse_card
from tables.engine.rulesets import BlackjackRules

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")  # card classes, index 0..9
OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
BUST, BLACKJACK = 5, 6

FloatArray = npt.NDArray[np.float64]


def full_shoe(decks: int) -> tuple[int, ...]:
    """Counts of each card class in ``decks`` decks (Jokers play no part in blackjack)."""
    return tuple([4 * decks] * 9 + [16 * decks])


INFINITE_P: tuple[float, ...] = tuple([1 / 13] * 9 + [4 / 13])


def representative(hard: int, ace: bool) -> list[Card]:
    """Real cards with hard total ``hard`` (Aces as 1) holding an Ace or not, to ask the engine about."""
    cards = [_CARD[0]] if ace else []
    rest = hard - (1 if ace else 0)
    while rest > 0:
        v = min(rest, 10)
        if rest - v == 1 and not ace:  # a leftover 1 would be an Ace
            v -= 1
        cards.append(_CARD[v - 1])
        rest -= v
    return cards


_CARD = [parse_card(c) for c in ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS")]


@lru_cache(maxsize=512)
def _engine_total(hard: int, ace: bool) -> int:
    return hand_total(representative(hard, ace))[0]


def soft_total(hard: int, ace: bool) -> int:
    """Best total of a hand with hard total ``hard`` (Aces as 1), by the engine's ``hand_total``."""
    return _engine_total(hard, ace) if hard <= 31 else hard


@dataclass(frozen=True)
class DealerTree:
    """Every final dealer multiset for one up card: draw counts, orderings, outcome index."""

    up: int
    counts: npt.NDArray[np.int64]  # (M, 10) cards drawn after the up card (hole card included)
    ways: FloatArray  # (M,) orderings reaching that multiset
    outcome: npt.NDArray[np.int64]  # (M,) index into OUTCOMES
    drawn: npt.NDArray[np.int64]  # (M,) total cards drawn


@lru_cache(maxsize=64)
def dealer_tree(up: int, hits_soft_17: bool) -> DealerTree:
    """Enumerate the dealer's final hands from up card class ``up`` (0 = Ace .. 9 = ten)."""
    # The engine's drawing rule, asked once per (hard total, Ace held) state.
    rule = BlackjackRules(dealer_hits_soft_17=hits_soft_17)
    hit_table = {(h, a): dealer_must_hit(representative(h, a), rule) for h in range(2, 22) for a in (False, True)}
    finals: dict[tuple[tuple[int, ...], int], float] = {}
    layer: dict[tuple[int, ...], float] = {tuple([0] * 10): 1.0}
    first = True
    while layer:
        nxt: dict[tuple[int, ...], float] = {}
        for drawn, ways in layer.items():
            hard = up + 1 + sum((i + 1) * k for i, k in enumerate(drawn))
            ace = up == 0 or drawn[0] > 0
            for i in range(10):
                new = list(drawn)
                new[i] += 1
                key = tuple(new)
                h2 = hard + i + 1
                a2 = ace or i == 0
                if first and is_blackjack([_CARD[up], _CARD[i]]):
                    finals[(key, BLACKJACK)] = finals.get((key, BLACKJACK), 0.0) + ways
                elif h2 > 21:
                    finals[(key, BUST)] = finals.get((key, BUST), 0.0) + ways
                elif hit_table[(h2, a2)]:
                    nxt[key] = nxt.get(key, 0.0) + ways
                else:
                    o = soft_total(h2, a2) - 17
                    finals[(key, o)] = finals.get((key, o), 0.0) + ways
        layer = nxt
        first = False
    keys = list(finals)
    counts = np.array([k[0] for k in keys], dtype=np.int64)
    return DealerTree(
        up=up,
        counts=counts,
        ways=np.array([finals[k] for k in keys], dtype=np.float64),
        outcome=np.array([k[1] for k in keys], dtype=np.int64),
        drawn=counts.sum(axis=1),
    )


def _multiset_probs(tree: DealerTree, shoe: Sequence[int] | None) -> FloatArray:
    """Probability of each final multiset when drawing from ``shoe`` (None: infinite deck)."""
    if shoe is None:
        p = np.array(INFINITE_P)
        return np.asarray(tree.ways * np.prod(p[None, :] ** tree.counts, axis=1), dtype=np.float64)
    n = np.asarray(shoe, dtype=np.float64)
    total = float(n.sum())
    kmax = int(tree.counts.max())
    # falling factorials n_i (n_i - 1) ... (n_i - k + 1) for k = 0..kmax, per card class
    fall = np.ones((kmax + 1, 10))
    for k in range(1, kmax + 1):
        fall[k] = fall[k - 1] * np.maximum(n - (k - 1), 0)
    num = np.prod(fall[tree.counts, np.arange(10)[None, :]], axis=1)
    dmax = int(tree.drawn.max())
    den = np.ones(dmax + 1)
    for k in range(1, dmax + 1):
        den[k] = den[k - 1] * (total - (k - 1))
    return np.asarray(tree.ways * num / den[tree.drawn], dtype=np.float64)


def dealer_distribution(
    shoe: Sequence[int] | None, up: int, *, hits_soft_17: bool = False, peek: bool = False
) -> FloatArray:
    """Probabilities of OUTCOMES for up card ``up`` drawing from ``shoe`` (up card already removed).

    With ``peek`` the result is conditional on the dealer not holding a blackjack (the player only
    plays on when the peek found none), so its ``blackjack`` entry is 0.
    """
    tree = dealer_tree(up, hits_soft_17)
    probs = _multiset_probs(tree, shoe)
    out = np.bincount(tree.outcome, weights=probs, minlength=len(OUTCOMES)).astype(np.float64)
    if peek and out[BLACKJACK] > 0:
        out[BLACKJACK] = 0.0
    return np.asarray(out / out.sum(), dtype=np.float64)


def blackjack_probability(shoe: Sequence[int] | None, up: int) -> float:
    """Probability that the hole card gives the dealer a blackjack."""
    if up not in (0, 9):
        return 0.0
    other = 9 if up == 0 else 0
    if shoe is None:
        return INFINITE_P[other]
    return shoe[other] / sum(shoe)


def remove(shoe: Sequence[int], *cards: int) -> tuple[int, ...]:
    """The shoe with the given card classes taken out."""
    out = list(shoe)
    for c in cards:
        if out[c] <= 0:
            raise ValueError(f"no {RANKS[c]} left in the shoe")
        out[c] -= 1
    return tuple(out)


def dealer_chart(
    decks: int | None, *, hits_soft_17: bool = False, peek: bool = True
) -> dict[str, dict[str, float]]:
    """Chart keyed by up card ("2".."10", "A"): probabilities of 17..21, blackjack and bust.

    ``decks`` None means an infinite deck.  With ``peek`` the final totals and bust are conditional
    on no dealer blackjack and ``blackjack`` is the probability the peek finds one; without the peek
    all seven outcomes are unconditional and sum to 1.
    """
    chart: dict[str, dict[str, float]] = {}
    for up in (*range(1, 10), 0):
        shoe = None if decks is None else remove(full_shoe(decks), up)
        dist = dealer_distribution(shoe, up, hits_soft_17=hits_soft_17, peek=peek)
        row = {name: float(dist[i]) for i, name in enumerate(OUTCOMES)}
        if peek:
            row["blackjack"] = blackjack_probability(shoe, up)
        chart["A" if up == 0 else RANKS[up]] = row
    return chart
