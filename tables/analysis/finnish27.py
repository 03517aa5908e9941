"""No-Bust Finnish 27: house edge by a compiled simulation of a real shoe, and exact bonus rates.

The rules come from the engine (``tables.engine.finnish27``), turned into lookup tables once:
card values, the two-card totals, the initial 27s, the forced plays (``player_play`` for every
player total against every dealer two-card total), the dealer's drawing rule, the three-card bonus
candidates and which line the pay table pays.  The numba kernel plays rounds with those tables; the
only rule arithmetic it does itself is adding card values, the soft/hard switch of the Ace and the
five-card poker category (``_poker_category``), and a test plays a fixed-seed sample round by round
through the engine and requires the same cards, results and bonus lines.

Shoe: ``decks`` x (52 + Jokers), shuffled (Fisher-Yates, splitmix64, reproducible per seed and shoe
number), rounds dealt player, dealer, player, dealer, then draws; a round starts only while the cut
card (``shuffle_at``) is still in the shoe, and the shoe is shuffled after the round in which it
came out.  The wager is one table minimum, so "N times the table minimum" lines pay N units.

Strategies for the free choices:
* ``rule-text``: the text's two tables; "two low cards" are an initial hand whose hard total (Ace
  counted 1) is 14 or less, any other hand uses the "two high cards" table;
* ``improved``: one step of policy improvement over the rule text, computed by the engine's own
  simulation: at every free decision both choices are played out on the same remaining cards (the
  rest of the hand by the rule text), and the better one is kept per (dealer two-card total, player
  total, soft/hard, number of cards held, low/high initial hand, whether the hand already holds a
  pair or better).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from tables.engine.cards import JOKER, Card, Rank, Suit
from tables.engine.finnish27 import (
    best_bonus,
    bonus_candidates,
    card_value,
    dealer_must_hit,
    hand_value,
    initial_27,
    initial_winner,
)
from tables.engine.finnish27.values import INITIAL_27_RANK, player_play
from tables.engine.paytable import PayTable
from tables.engine.poker import FINNISH
from tables.engine.rulesets import Finnish27Rules

PUBLISHED = Finnish27Rules()
SUITS = tuple(Suit)
JK = 52  # card code of the Joker; 0..51 are rank (c // 4 + 2) and suit (c % 4)
NCODES = 53
MAXT = 64  # totals table size
NMAX = 12  # cards held, capped, in the strategy tables
MAX_ROUND_CARDS = 60  # a round never uses more; a round is started only with this many cards left

I8 = npt.NDArray[np.int8]
I64 = npt.NDArray[np.int64]
Ints = npt.NDArray[np.integer[Any]]  # compact lookup tables (int8/int16) as well as int64
F64 = npt.NDArray[np.float64]


def code_card(code: int) -> Card:
    """The engine Card of a simulation card code."""
    return JOKER if code == JK else Card(Rank(code // 4 + 2), SUITS[code % 4])


CARDS = [code_card(c) for c in range(NCODES)]


def card_code(card: Card) -> int:
    """The simulation card code of an engine Card."""
    if card.is_joker:
        return JK
    assert card.rank is not None and card.suit is not None
    return (int(card.rank) - 2) * 4 + SUITS.index(card.suit)


# ------------------------------------------------------------------------------------------------
# Tables from the engine


@dataclass(frozen=True)
class Tables:
    """Engine rules as arrays for the kernel (one per rule set and pay table)."""

    value: Ints  # (53,) card value, Ace 1, Joker 0 (a Joker past the first two cards)
    is_ace: Ints  # (53,)
    rank: Ints  # (53,) poker rank 2..14, 0 for the Joker
    suit: Ints  # (53,) 0..3, -1 for the Joker
    init_total: Ints  # (53, 53) two-card total (engine hand_value)
    init_soft: Ints  # (53, 53)
    init_27: Ints  # (53, 53) 0 none, else the engine's INITIAL_27_RANK
    init_line: Ints  # (53, 53) line paid when this initial 27 wins (-1: none)
    forced: Ints  # (MAXT, 2, MAXT, 2): 0 free, 1 hit, 2 stand (engine player_play)
    dealer_hit: Ints  # (MAXT, 2) 1 if the dealer must hit on (total, soft)
    bonus3: Ints  # (53, 53, 53, 2) line paid for a 3-card winning hand; last axis: dealer 9-9
    poker_line: Ints  # (10,) line paid per Finnish poker category index (-1: none)
    pays: F64  # (L,) units won per line on a wager of one table minimum
    main_pays: float
    lose_over_hard: int
    lines: tuple[str, ...]
    low_hand: Ints  # (53, 53) 1 if the initial hand uses the "two low cards" table


def _representative(total: int, soft: bool) -> list[Card]:
    """Real cards (no Joker in the first two) whose engine value is (total, soft)."""
    cards: list[Card] = []
    rest = total - 14 if soft else total
    if soft:
        cards.append(Card(Rank.ACE, Suit.SPADES))
    while rest > 0:
        v = min(rest, 13)
        if rest - v == 1:
            v -= 1
        if v == 1:
            cards.append(Card(Rank.ACE, Suit.HEARTS))
        else:
            cards.append(Card(Rank(v), Suit.CLUBS))
        rest -= v
    return cards


@lru_cache(maxsize=8)
def _candidates3() -> dict[tuple[int, int, int, int], tuple[str, ...]]:
    """Engine bonus candidates of every three-card hand (with and without a dealer 9-9)."""
    nine_nine = [Card(Rank.NINE, Suit.SPADES), Card(Rank.NINE, Suit.HEARTS)]
    other = [Card(Rank.TWO, Suit.SPADES), Card(Rank.THREE, Suit.HEARTS)]
    out: dict[tuple[int, int, int, int], tuple[str, ...]] = {}
    for a in range(NCODES):
        for b in range(NCODES):
            for c in range(NCODES):
                hand = [CARDS[a], CARDS[b], CARDS[c]]
                for d99, dealer in ((0, other), (1, nine_nine)):
                    found = bonus_candidates(hand, dealer)
                    if found:
                        out[(a, b, c, d99)] = found
    return out


@lru_cache(maxsize=32)
def _tables_cached(rules: Finnish27Rules, table_key: tuple[tuple[str, str], ...]) -> Tables:
    table = PayTable.from_json("finnish-27", {"lines": [{"name": n, "pays": _pays_json(p)} for n, p in table_key]})
    lines = tuple(n for n in table if n != "main")
    index = {n: i for i, n in enumerate(lines)}
    unit = Decimal("1.00")

    def best(cands: Sequence[str]) -> int:
        found = best_bonus(cands, table, unit, unit)
        return -1 if found is None else index[found[0]]

    value = np.array([card_value(c) for c in CARDS], dtype=np.int64)
    is_ace = np.array([1 if c.rank is Rank.ACE else 0 for c in CARDS], dtype=np.int64)
    rank = np.array([0 if c.rank is None else int(c.rank) for c in CARDS], dtype=np.int64)
    suit = np.array([-1 if c.suit is None else SUITS.index(c.suit) for c in CARDS], dtype=np.int64)
    init_total = np.zeros((NCODES, NCODES), dtype=np.int16)
    init_soft = np.zeros((NCODES, NCODES), dtype=np.int16)
    init_27 = np.zeros((NCODES, NCODES), dtype=np.int16)
    init_line = np.full((NCODES, NCODES), -1, dtype=np.int16)
    low = np.zeros((NCODES, NCODES), dtype=np.int16)
    for a in range(NCODES):
        for b in range(NCODES):
            pair = [CARDS[a], CARDS[b]]
            t, s = hand_value(pair)
            init_total[a, b], init_soft[a, b] = t, int(s)
            kind = initial_27(pair)
            if kind is not None:
                init_27[a, b] = INITIAL_27_RANK[kind]
                init_line[a, b] = best(bonus_candidates(pair, pair))
            low[a, b] = int(value[a] + value[b] <= 14)
    forced = np.zeros((MAXT, 2, MAXT, 2), dtype=np.int8)
    for pt in range(2, MAXT):
        for ps in (0, 1):
            for dt in range(2, 28):
                for ds in (0, 1):
                    play = player_play(pt, bool(ps), dt, bool(ds))[0]
                    forced[pt, ps, dt, ds] = 0 if play is None else (1 if play == "hit" else 2)
    dealer_hit = np.zeros((MAXT, 2), dtype=np.int8)
    for t in range(2, MAXT):
        dealer_hit[t, 0] = int(dealer_must_hit(_representative(t, False), rules))
        if 15 <= t <= 27:
            dealer_hit[t, 1] = int(dealer_must_hit(_representative(t, True), rules))
    bonus3 = np.full((NCODES, NCODES, NCODES, 2), -1, dtype=np.int8)
    for (a, b, c, d99), cands in _candidates3().items():
        bonus3[a, b, c, d99] = best(cands)
    poker_line = np.array([index.get("poker/" + cat, -1) for cat in FINNISH.low_to_high], dtype=np.int64)
    pays = np.array([_units(table[n]) for n in lines], dtype=np.float64)
    return Tables(value, is_ace, rank, suit, init_total, init_soft, init_27, init_line, forced, dealer_hit,
                  bonus3, poker_line, pays, _units(table["main"]), rules.player_loses_over_hard, lines, low)


def _pays_json(p: str) -> dict[str, Any]:
    return {"table_minimum": int(p[3:])} if p.startswith("tm:") else {"odds": p}


def _units(line: Any) -> float:
    return float(line.odds) if line.odds is not None else float(line.table_minimum)


def tables_for(rules: Finnish27Rules, pay_table: PayTable) -> Tables:
    """The kernel tables for a rule set and pay table (cached)."""
    key = tuple((n, f"{pl.odds.numerator}:{pl.odds.denominator}" if pl.odds is not None else f"tm:{pl.table_minimum}")
                for n, pl in pay_table.items())
    return _tables_cached(rules, key)


# ------------------------------------------------------------------------------------------------
# Strategies: stand[low, dt, ds, pt, ps, ncards, made] == 1 means stand on a free choice

STRATEGY_SHAPE = (2, 28, 2, MAXT, 2, NMAX + 1, 2)


def rule_text_strategy() -> npt.NDArray[np.int8]:
    """The rule text's two basic-strategy tables as a stand/hit array over free choices."""
    stand = np.zeros(STRATEGY_SHAPE, dtype=np.int8)
    for low in (0, 1):
        for dt in range(2, 28):
            for ds in (0, 1):
                for pt in range(2, MAXT):
                    for ps in (0, 1):
                        stand[low, dt, ds, pt, ps, :, :] = _rule_text_stands(bool(low), dt, bool(ds), pt, bool(ps))
    return stand


def _rule_text_stands(low: bool, dt: int, ds: bool, pt: int, ps: bool) -> bool:
    """"Hit to target": stand once the target for the dealer's total is reached."""
    if (ds and dt >= 25) or (not ds and dt >= 24):
        return pt > dt  # "greater than the dealer's hand total"
    if ds:
        hard_t, soft_t = 25, 26  # soft 15-24: 25/AQ
    elif low:
        hard_t, soft_t = (25, 27) if dt == 23 else (25, 26)  # hard 23: 25/AK, else 25/AQ
    else:
        hard_t, soft_t = (24, 25) if 20 <= dt <= 23 else (25, 26)  # 20-23: 24/AJ, else 25/AQ
    return pt >= (soft_t if ps else hard_t)


# ------------------------------------------------------------------------------------------------
# The kernel


@njit(cache=True, inline="always")
def _total(hard: int, ace: int) -> tuple[int, int]:
    # An Ace plays high (14, i.e. +13) when that keeps the total at 27 or under: the engine's rule.
    if ace and hard + 13 <= 27:
        return hard + 13, 1
    return hard, 0


@njit(cache=True)
def _poker_category(cards: I64, n: int, rank: I64, suit: I64) -> int:  # noqa: C901  (complexity ratchet: existing, to be split)
    """Finnish-order category index (0 high card .. 9 five of a kind) of the best five of n cards."""
    # Fixed-size counters in one small array (no per-call allocations in the hot loop):
    # [0:15] count by rank, [15:19] count by suit, [19:79] count by suit x rank.
    w = np.zeros(80, dtype=np.int64)
    j = 0
    for i in range(n):
        c = cards[i]
        r = rank[c]
        if r == 0:
            j += 1
        else:
            w[r] += 1
            w[15 + suit[c]] += 1
            w[19 + suit[c] * 15 + r] += 1
    cnt = w[0:15]
    scount = w[15:19]
    c1 = 0
    c2 = 0
    for r in range(2, 15):
        x = cnt[r]
        if x > c1:
            c2 = c1
            c1 = x
        elif x > c2:
            c2 = x
    if c1 + j >= 5:
        return 9
    # straight flush: a window of five ranks, Ace high or low, in one suit
    for s in range(4):
        if scount[s] + j >= 5:
            for top in range(14, 4, -1):
                have = 0
                for k in range(5):
                    r = top - k
                    if r == 1:
                        r = 14
                    if w[19 + s * 15 + r] > 0:
                        have += 1
                if have + j >= 5:
                    return 8
    for s in range(4):
        if scount[s] + j >= 5:
            return 7  # flush (Finnish order: above four of a kind)
    if c1 + j >= 4:
        return 6
    need = max(0, 3 - c1) + max(0, 2 - c2)
    if need <= j:
        return 5
    for top in range(14, 4, -1):
        have = 0
        for k in range(5):
            r = top - k
            if r == 1:
                r = 14
            if cnt[r] > 0:
                have += 1
        if have + j >= 5:
            return 4
    if c1 + j >= 3:
        return 3
    if max(0, 2 - c1) + max(0, 2 - c2) <= j:
        return 2
    if c1 + j >= 2:
        return 1
    return 0


@njit(cache=True)
def _made(cards: I64, n: int, rank: I64) -> int:
    """1 if the hand already holds a pair (or a Joker), the poker feature of the improved strategy."""
    for i in range(n):
        if rank[cards[i]] == 0:
            return 1
        for k in range(i):
            if rank[cards[k]] == rank[cards[i]]:
                return 1
    return 0


@njit(cache=True, inline="always")
def _finish(shoe: I64, pos: int, pc: I64, n: int, hard: int, ace: int, low: int, d1: int, d2: int,
            stand: npt.NDArray[np.int8], first: int,
            value: I64, is_ace: I64, rank: I64, suit: I64, init_total: I64, init_soft: I64, forced: I64,
            dealer_hit: I64, bonus3: I64, poker_line: I64, pays: F64, main_pays: float, lose_over: int
            ) -> tuple[float, int, int, int]:
    """Play the player's hand from ``pc[:n]`` on, then the dealer; returns (net, line, pos, player cards).

    ``first`` forces the first free choice: -1 use the strategy, 0 stand, 1 hit.
    """
    dt = init_total[d1, d2]
    ds = init_soft[d1, d2]
    pt, ps = _total(hard, ace)
    while True:
        f = forced[pt, ps, dt, ds]
        if f == 0:
            if first >= 0:
                hit = first == 1
                first = -1
            else:
                nn = n if n < 12 else 12
                hit = stand[low, dt, ds, pt, ps, nn, _made(pc, n, rank)] == 0
        else:
            hit = f == 1
        if not hit:
            break
        c = shoe[pos]
        pos += 1
        pc[n] = c
        n += 1
        hard += value[c]
        if is_ace[c]:
            ace = 1
        pt, ps = _total(hard, ace)
    win = False
    if pt == 27:
        win = True
    elif ps == 0 and pt > lose_over:
        win = False
    else:
        dhard = value[d1] + value[d2]
        dace = 1 if (is_ace[d1] or is_ace[d2]) else 0
        while dealer_hit[dt, ds] == 1:
            c = shoe[pos]
            pos += 1
            dhard += value[c]
            if is_ace[c]:
                dace = 1
            dt, ds = _total(dhard, dace)
        win = abs(27 - pt) < abs(27 - dt)
    if not win:
        return -1.0, -1, pos, n
    line = -1
    if n == 3:
        d99 = 1 if (rank[d1] == 9 and rank[d2] == 9) else 0
        line = bonus3[pc[0], pc[1], pc[2], d99]
    elif n >= 5:
        line = poker_line[_poker_category(pc, n, rank, suit)]
    net = main_pays
    if line >= 0:
        net += pays[line]
    return net, line, pos, n


@njit(cache=True, inline="always")
def _round(shoe: I64, pos: int, pc: I64, stand: npt.NDArray[np.int8],
           value: I64, is_ace: I64, rank: I64, suit: I64, init_total: I64, init_soft: I64, init_27: I64,
           init_line: I64, low_hand: I64, forced: I64, dealer_hit: I64, bonus3: I64, poker_line: I64,
           pays: F64, main_pays: float, lose_over: int) -> tuple[float, int, int, int]:
    """One round from ``pos``: (net, line, new pos, initial-27 code: 0 none, +k player wins, -k dealer)."""
    p1 = shoe[pos]
    d1 = shoe[pos + 1]
    p2 = shoe[pos + 2]
    d2 = shoe[pos + 3]
    pos += 4
    pk = init_27[p1, p2]
    dk = init_27[d1, d2]
    if pk > 0 or dk > 0:
        if pk > dk:
            line = init_line[p1, p2]
            net = main_pays + (pays[line] if line >= 0 else 0.0)
            return net, line, pos, pk
        return -1.0, -1, pos, -dk
    pc[0] = p1
    pc[1] = p2
    hard = value[p1] + value[p2]
    ace = 1 if (is_ace[p1] or is_ace[p2]) else 0
    net, line, pos, n = _finish(shoe, pos, pc, 2, hard, ace, low_hand[p1, p2], d1, d2, stand, -1,
                                value, is_ace, rank, suit, init_total, init_soft, forced, dealer_hit, bonus3,
                                poker_line, pays, main_pays, lose_over)
    return net, line, pos, 0


@njit(cache=True, inline="always")
def _splitmix(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True)
def _shuffle(shoe: I64, state: np.uint64) -> np.uint64:
    for i in range(shoe.shape[0] - 1, 0, -1):
        state, r = _splitmix(state)
        # multiply-shift: a uniform index below i + 1 without a 64-bit division
        k = np.int64(((r >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
        t = shoe[i]
        shoe[i] = shoe[k]
        shoe[k] = t
    return state


@njit(cache=True)
def _fresh_shoe(decks: int, jokers_per_deck: int) -> I64:
    shoe = np.empty(decks * (52 + jokers_per_deck), dtype=np.int64)
    k = 0
    for _ in range(decks):
        for c in range(52):
            shoe[k] = c
            k += 1
        for _ in range(jokers_per_deck):
            shoe[k] = 52
            k += 1
    return shoe


@njit(cache=True)
def _shoe_seed(seed: int, shoe_no: int) -> np.uint64:
    s = np.uint64(seed) * np.uint64(0x2545F4914F6CDD1D) + np.uint64(shoe_no) * np.uint64(0x9E3779B97F4A7C15)
    s, z = _splitmix(s)
    return z


# Per block: sums over shoes of x, x^2, y, y^2, xy, 1, z, z^2, zy (x: net of a shoe, y: its rounds,
# z: its net without the lines whose rates are known exactly, see ``exact_lines``).
NSTATS = 9


@njit(cache=True, parallel=True)
def _simulate_blocks(seed: int, first_shoe: int, nblocks: int, shoes_per_block: int, decks: int,
                     jokers: int, cut: int, stand: npt.NDArray[np.int8],
                     value: I64, is_ace: I64, rank: I64, suit: I64, init_total: I64, init_soft: I64,
                     init_27: I64, init_line: I64, low_hand: I64, forced: I64, dealer_hit: I64, bonus3: I64,
                     poker_line: I64, pays: F64, main_pays: float, lose_over: int, exact_line: I64
                     ) -> tuple[F64, I64, I64]:
    nlines = pays.shape[0]
    stats = np.zeros((nblocks, NSTATS), dtype=np.float64)
    line_counts = np.zeros((nblocks, nlines), dtype=np.int64)
    initial = np.zeros((nblocks, 8), dtype=np.int64)  # index 4 + code: -3..3
    for b in prange(nblocks):
        pc = np.zeros(64, dtype=np.int64)
        shoe = _fresh_shoe(decks, jokers)
        size = shoe.shape[0]
        for s in range(shoes_per_block):
            state = _shoe_seed(seed, first_shoe + b * shoes_per_block + s)
            _shuffle(shoe, state)
            pos = 0
            x = 0.0
            z = 0.0
            y = 0
            while pos < cut and pos + MAX_ROUND_CARDS <= size:
                net, line, pos, ik = _round(shoe, pos, pc, stand, value, is_ace, rank, suit, init_total,
                                            init_soft, init_27, init_line, low_hand, forced, dealer_hit,
                                            bonus3, poker_line, pays, main_pays, lose_over)
                x += net
                z += net
                y += 1
                if line >= 0:
                    line_counts[b, line] += 1
                    if exact_line[line]:
                        z -= pays[line]
                initial[b, 4 + ik] += 1
            stats[b, 0] += x
            stats[b, 1] += x * x
            stats[b, 2] += y
            stats[b, 3] += y * y
            stats[b, 4] += x * y
            stats[b, 5] += 1
            stats[b, 6] += z
            stats[b, 7] += z * z
            stats[b, 8] += z * y
    return stats, line_counts, initial


@njit(cache=True, parallel=True)
def _improve_blocks(seed: int, first_shoe: int, nblocks: int, shoes_per_block: int, decks: int,
                    jokers: int, cut: int, stand: npt.NDArray[np.int8],
                    value: I64, is_ace: I64, rank: I64, suit: I64, init_total: I64, init_soft: I64,
                    init_27: I64, init_line: I64, low_hand: I64, forced: I64, dealer_hit: I64, bonus3: I64,
                    poker_line: I64, pays: F64, main_pays: float, lose_over: int) -> tuple[F64, F64]:
    """At every free choice, play both choices out on the same cards: sum of (hit - stand) per state."""
    diff = np.zeros((nblocks, 2, 28, 2, MAXT, 2, NMAX + 1, 2), dtype=np.float64)
    count = np.zeros((nblocks, 2, 28, 2, MAXT, 2, NMAX + 1, 2), dtype=np.float64)
    for b in prange(nblocks):
        pc = np.zeros(64, dtype=np.int64)
        scratch = np.zeros(64, dtype=np.int64)
        shoe = _fresh_shoe(decks, jokers)
        size = shoe.shape[0]
        for s in range(shoes_per_block):
            state = _shoe_seed(seed, first_shoe + b * shoes_per_block + s)
            _shuffle(shoe, state)
            pos = 0
            while pos < cut and pos + MAX_ROUND_CARDS <= size:
                start = pos
                p1 = shoe[pos]
                d1 = shoe[pos + 1]
                p2 = shoe[pos + 2]
                d2 = shoe[pos + 3]
                if init_27[p1, p2] == 0 and init_27[d1, d2] == 0:
                    # Walk the hand as the strategy plays it; at each free choice compare both.
                    pc[0] = p1
                    pc[1] = p2
                    n = 2
                    hard = value[p1] + value[p2]
                    ace = 1 if (is_ace[p1] or is_ace[p2]) else 0
                    q = pos + 4
                    dt = init_total[d1, d2]
                    ds = init_soft[d1, d2]
                    low = low_hand[p1, p2]
                    while True:
                        pt, ps = _total(hard, ace)
                        f = forced[pt, ps, dt, ds]
                        nn = n if n < 12 else 12
                        made = _made(pc, n, rank)
                        if f == 0:
                            for i in range(n):
                                scratch[i] = pc[i]
                            v_hit = _finish(shoe, q, scratch, n, hard, ace, low, d1, d2, stand, 1, value, is_ace,
                                            rank, suit, init_total, init_soft, forced, dealer_hit, bonus3,
                                            poker_line, pays, main_pays, lose_over)[0]
                            for i in range(n):
                                scratch[i] = pc[i]
                            v_stand = _finish(shoe, q, scratch, n, hard, ace, low, d1, d2, stand, 0, value,
                                              is_ace, rank, suit, init_total, init_soft, forced, dealer_hit,
                                              bonus3, poker_line, pays, main_pays, lose_over)[0]
                            diff[b, low, dt, ds, pt, ps, nn, made] += v_hit - v_stand
                            count[b, low, dt, ds, pt, ps, nn, made] += 1.0
                            hit = stand[low, dt, ds, pt, ps, nn, made] == 0
                        else:
                            hit = f == 1
                        if not hit:
                            break
                        c = shoe[q]
                        q += 1
                        pc[n] = c
                        n += 1
                        hard += value[c]
                        if is_ace[c]:
                            ace = 1
                net, line, pos, ik = _round(shoe, start, pc, stand, value, is_ace, rank, suit, init_total,
                                            init_soft, init_27, init_line, low_hand, forced, dealer_hit,
                                            bonus3, poker_line, pays, main_pays, lose_over)
    return diff.sum(axis=0), count.sum(axis=0)


@njit(cache=True)
def _trace(seed: int, shoe_no: int, decks: int, jokers: int, cut: int, stand: npt.NDArray[np.int8],
           value: I64, is_ace: I64, rank: I64, suit: I64, init_total: I64, init_soft: I64, init_27: I64,
           init_line: I64, low_hand: I64, forced: I64, dealer_hit: I64, bonus3: I64, poker_line: I64,
           pays: F64, main_pays: float, lose_over: int) -> tuple[I64, I64, F64, I64]:
    """One shoe exactly as ``_simulate_blocks`` plays it: the shuffled cards and every round's result."""
    pc = np.zeros(64, dtype=np.int64)
    shoe = _fresh_shoe(decks, jokers)
    size = shoe.shape[0]
    _shuffle(shoe, _shoe_seed(seed, shoe_no))
    starts = np.zeros(size + 1, dtype=np.int64)
    nets = np.zeros(size, dtype=np.float64)
    lines = np.zeros(size, dtype=np.int64)
    pos = 0
    k = 0
    while pos < cut and pos + MAX_ROUND_CARDS <= size:
        starts[k] = pos
        net, line, pos, ik = _round(shoe, pos, pc, stand, value, is_ace, rank, suit, init_total, init_soft,
                                    init_27, init_line, low_hand, forced, dealer_hit, bonus3, poker_line, pays,
                                    main_pays, lose_over)
        nets[k] = net
        lines[k] = line
        k += 1
    starts[k] = pos
    return shoe.copy(), starts[: k + 1].copy(), nets[:k].copy(), lines[:k].copy()


@dataclass(frozen=True)
class TracedRound:
    """One simulated round: the cards it used, what it won (units of the wager) and the bonus line."""

    cards: tuple[Card, ...]
    net: float
    line: str | None


def trace_shoe(rules: Finnish27Rules, strategy: npt.NDArray[np.int8], seed: int, shoe_no: int,
               pay_table: PayTable | None = None) -> list[TracedRound]:
    """The rounds of one simulated shoe (for checking the kernel against the engine round by round)."""
    t = tables_for(rules, pay_table or PayTable.published("finnish-27"))
    shoe, starts, nets, lines = _trace(seed, shoe_no, rules.decks, rules.jokers_per_deck, rules.shuffle_at,
                                       strategy, *_kernel_args(t))
    out = []
    for i in range(len(nets)):
        cards = tuple(CARDS[c] for c in shoe[starts[i]:starts[i + 1]])
        out.append(TracedRound(cards, float(nets[i]), t.lines[lines[i]] if lines[i] >= 0 else None))
    return out


def strategy_play(strategy: npt.NDArray[np.int8], player: Sequence[Card], dealer: Sequence[Card]) -> str:
    """A free choice by ``strategy`` (``rule_text_strategy``, ``improved_strategy``): "stand" or "hit" for the
    player's hand against the dealer's."""
    low = int(card_value(player[0]) + card_value(player[1]) <= 14)
    pt, ps = hand_value(player)
    dt, ds = hand_value(dealer)
    made = int(any(c.is_joker for c in player) or len({c.rank for c in player}) < len(player))
    return "stand" if strategy[low, dt, int(ds), pt, int(ps), min(len(player), NMAX), made] else "hit"


def engine_round(cards: Sequence[Card], strategy: npt.NDArray[np.int8], rules: Finnish27Rules,
                 pay_table: PayTable | None = None) -> tuple[Decimal, str | None, int]:
    """Play one round through the engine from ``cards`` (in dealing order) with ``strategy`` for free choices.

    Returns (net at a wager of one table minimum, bonus line, cards used).  Reference for the kernel.
    """
    from tables.engine.finnish27 import forced_play, player_decided, settle

    table = pay_table or PayTable.published("finnish-27")
    player = [cards[0], cards[2]]
    dealer = [cards[1], cards[3]]
    pos = 4
    if initial_winner(player, dealer) is None:
        while True:
            play = forced_play(player, dealer) or strategy_play(strategy, player, dealer)
            if play == "stand":
                break
            player.append(cards[pos])
            pos += 1
        if player_decided(player, rules) is None:
            while dealer_must_hit(dealer, rules):
                dealer.append(cards[pos])
                pos += 1
    one = Decimal("1.00")
    result = settle(player, dealer, one, table_minimum=one, pay_table=table, rules=rules)
    return result.total_net, result.bonus, pos


def _kernel_args(t: Tables) -> tuple[Any, ...]:
    return (t.value, t.is_ace, t.rank, t.suit, t.init_total, t.init_soft, t.init_27, t.init_line, t.low_hand,
            t.forced, t.dealer_hit, t.bonus3, t.poker_line, t.pays, t.main_pays, t.lose_over_hard)


# ------------------------------------------------------------------------------------------------
# Public API


@lru_cache(maxsize=8)
def improved_strategy(rules: Finnish27Rules = PUBLISHED, shoes: int = 200_000, seed: int = 7) -> npt.NDArray[np.int8]:
    """The rule text improved by one step of policy improvement (see the module docstring)."""
    t = tables_for(rules, PayTable.published("finnish-27"))
    base = rule_text_strategy()
    nblocks = max(1, min(256, shoes // 500))
    per = max(1, shoes // nblocks)
    diff, count = _improve_blocks(seed, 10**9, nblocks, per, rules.decks, rules.jokers_per_deck,
                                  rules.shuffle_at, base, *_kernel_args(t))
    better = base.copy()
    # Change a cell only when the difference is clear (more than 3 standard errors of a +-1..2 payoff).
    mean = np.divide(diff, count, out=np.zeros_like(diff), where=count > 0)
    clear = np.abs(mean) * np.sqrt(count) > 3.0 * 1.5
    better[(mean > 0) & clear] = 0
    better[(mean < 0) & clear] = 1
    return better


def strategy_array(strategy: str, rules: Finnish27Rules) -> npt.NDArray[np.int8]:
    """``rule-text`` or ``improved``."""
    if strategy == "rule-text":
        return rule_text_strategy()
    if strategy == "improved":
        return improved_strategy(rules)
    from tables.engine.errors import InvalidInput

    raise InvalidInput(f"unknown strategy {strategy!r}; use rule-text or improved", field="strategy")


def simulate(rules: Finnish27Rules = PUBLISHED, *, rounds: int = 10_000_000, strategy: str = "improved",
             seed: int = 20261121, threads: int = 0, pay_table_json: object = None,
             progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """House edge of Finnish 27 by simulation, with its 95% confidence interval and each line's share.

    ``rounds`` is approximate: whole shoes are played (about 30 rounds each with the published shoe).
    """
    import numba

    if threads:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
    table = PayTable.from_json("finnish-27", pay_table_json)
    t = tables_for(rules, table)
    stand = strategy_array(strategy, rules)
    exact = exact_lines(rules, table)
    exact_flag = np.array([1 if name in exact else 0 for name in t.lines], dtype=np.int64)
    per_shoe = max(1, int(rules.shuffle_at / 7.0))  # about 7 cards a round
    shoes_total = max(1, math.ceil(rounds / per_shoe))
    shoes_per_block = 64
    blocks_total = max(1, math.ceil(shoes_total / shoes_per_block))
    chunk = max(numba.get_num_threads() * 4, min(4096, blocks_total // 20 or 1))
    stats = np.zeros(NSTATS)
    lines = np.zeros(len(t.lines), dtype=np.int64)
    initial = np.zeros(8, dtype=np.int64)
    # Compile (or load the cached machine code) before the clock starts: rounds/s is the kernel's speed.
    kernel: Any = _simulate_blocks  # numba's Dispatcher is not typed for its arguments
    kernel(seed, 0, 1, 1, rules.decks, rules.jokers_per_deck, rules.shuffle_at, stand, *_kernel_args(t), exact_flag)
    t0 = time.perf_counter()
    done = 0
    while done < blocks_total:
        nb = min(chunk, blocks_total - done)
        s, lc, ini = kernel(seed, done * shoes_per_block, nb, shoes_per_block, rules.decks,
                            rules.jokers_per_deck, rules.shuffle_at, stand, *_kernel_args(t), exact_flag)
        stats += s.sum(axis=0)
        lines += lc.sum(axis=0)
        initial += ini.sum(axis=0)
        done += nb
        if progress is not None:
            progress(int(stats[2]), int(stats[2] / done * blocks_total))
    seconds = time.perf_counter() - t0
    return _summary(stats, lines, initial, t, strategy, seconds, seed, exact)


def _ratio(sx: float, sxx: float, sxy: float, sy: float, syy: float, n: float) -> tuple[float, float]:
    """Mean per round and its standard error by the ratio estimator over shoes."""
    mean = sx / sy
    var_shoe = (sxx - 2 * mean * sxy + mean * mean * syy) / n
    return mean, math.sqrt(max(var_shoe, 0.0) / n) / (sy / n)


def _summary(stats: F64, lines: I64, initial: I64, t: Tables, strategy: str, seconds: float, seed: int,
             exact: dict[str, dict[str, float]]) -> dict[str, Any]:
    sx, sxx, sy, syy, sxy, n, sz, szz, szy = (float(v) for v in stats)
    # Rounds within a shoe share its cards, so whole shoes are the independent units.
    plain, plain_se = _ratio(sx, sxx, sxy, sy, syy, n)
    # Variance reduction: the lines decided by forced play (initial 27s, three-card lines, among them
    # the 999-table-minimum line that dominates the variance) enter at their exact rates.
    reduced, se = _ratio(sz, szz, szy, sy, syy, n)
    mean = reduced + sum(e["contribution"] for e in exact.values())
    rounds = int(sy)
    simulated = {name: float(lines[i] * t.pays[i] / sy) for i, name in enumerate(t.lines)}
    # Each line's contribution per unit wager: exact where the rate is known exactly, else simulated.
    bonus = {name: exact[name]["contribution"] if name in exact else simulated[name] for name in t.lines}
    rates = {name: float(lines[i] / sy) for i, name in enumerate(t.lines)}
    kinds = {1: "joanca", 2: "finnish-27", 3: "jo-jo"}
    init = {f"player-{kinds[k]}-wins": float(initial[4 + k] / sy) for k in (1, 2, 3)}
    init |= {f"dealer-{kinds[k]}-wins": float(initial[4 - k] / sy) for k in (1, 2, 3)}
    return {
        "game": "finnish-27",
        "strategy": strategy,
        "house_edge": float(-mean),
        "rtp": float(1 + mean),
        "ci95": 1.96 * se,
        "house_edge_plain": float(-plain),
        "ci95_plain": 1.96 * plain_se,
        "rounds": rounds,
        "shoes": int(n),
        "seconds": seconds,
        "rounds_per_second": rounds / seconds if seconds > 0 else None,
        "seed": seed,
        "bonus": bonus,
        "bonus_simulated": simulated,
        "line_rates": rates,
        "initial_27": init,
        "method": "simulation of a shuffled shoe with its cut card, whole shoes; lines decided by forced "
                  "play at their exact rates (variance reduction; *_plain without it); 95% CI by the ratio "
                  "estimator over shoes; wager = one table minimum",
    }


# ------------------------------------------------------------------------------------------------
# Exact rates of the lines decided by forced play (fresh shoe)


def _class_counts(rules: Finnish27Rules) -> list[int]:
    return [rules.decks] * 52 + [rules.decks * rules.jokers_per_deck]


def exact_initial_27_rates(rules: Finnish27Rules = PUBLISHED) -> dict[str, Fraction]:
    """Exact probabilities of each initial-27 result from a fresh shoe (the first four cards)."""
    # Only Jokers, Aces, Kings and "other" matter for the initial 27s.
    classes = {"J": [JOKER], "A": [Card(Rank.ACE, Suit.SPADES)], "K": [Card(Rank.KING, Suit.SPADES)],
               "o": [Card(Rank.TWO, Suit.SPADES)]}
    n = {"J": rules.decks * rules.jokers_per_deck, "A": 4 * rules.decks, "K": 4 * rules.decks}
    n["o"] = rules.decks * (52 + rules.jokers_per_deck) - n["J"] - n["A"] - n["K"]
    total = sum(n.values())
    out: dict[str, Fraction] = {}
    names = {"jo-jo": "jo-jo", "finnish-27": "finnish-27", "joanca": "joanca"}
    for p1 in n:
        for d1 in n:
            for p2 in n:
                for d2 in n:
                    left = dict(n)
                    w = 1
                    for k in (p1, d1, p2, d2):
                        w *= left[k]
                        left[k] -= 1
                        if w <= 0:
                            break
                    if w <= 0:
                        continue
                    player = [classes[p1][0], classes[p2][0]]
                    dealer = [classes[d1][0], classes[d2][0]]
                    winner = initial_winner(player, dealer)
                    if winner is None:
                        continue
                    kind = initial_27(player if winner == "player" else dealer)
                    assert kind is not None
                    key = f"{winner}-{names[kind]}-wins"
                    out[key] = out.get(key, Fraction(0)) + Fraction(w, total * (total - 1) * (total - 2) * (total - 3))
    return out


def exact_three_card_rates(rules: Finnish27Rules = PUBLISHED, pay_table: PayTable | None = None
                           ) -> dict[str, Fraction]:
    """Exact probability that a round pays each three-card line (8-9-10, 9-9-9), from a fresh shoe.

    The player's first two cards from 8, 9, T must be hit (the engine's forced play is asked for
    every dealer hand); the third card makes 27, which wins at once unless the dealer's initial hand
    was a 27.  The line paid is the pay table's best among the engine's candidates.
    """
    table = pay_table or PayTable.published("finnish-27")
    unit = Decimal("1.00")
    out: dict[str, Fraction] = {}
    for cands, p in _three_card_candidates(rules).items():
        found = best_bonus(cands, table, unit, unit)
        if found is not None:
            out[found[0]] = out.get(found[0], Fraction(0)) + p
    return out


@lru_cache(maxsize=16)
def _three_card_candidates(rules: Finnish27Rules) -> dict[tuple[str, ...], Fraction]:
    """Probability of each set of engine bonus candidates for a winning three-card hand."""
    from tables.engine.finnish27 import forced_play

    faces = [Card(r, s) for r in (Rank.EIGHT, Rank.NINE, Rank.TEN) for s in SUITS]
    total = rules.decks * (52 + rules.jokers_per_deck)
    # Card classes: the 12 faces one by one (the player's three cards are among them), then for the
    # dealer the Joker, the Ace, the King (the initial 27s) and every other card.
    reps = [*faces, JOKER, Card(Rank.ACE, Suit.SPADES), Card(Rank.KING, Suit.SPADES), Card(Rank.TWO, Suit.SPADES)]
    counts = [rules.decks] * 12 + [rules.decks * rules.jokers_per_deck, 4 * rules.decks, 4 * rules.decks]
    counts.append(total - sum(counts))
    den = total * (total - 1) * (total - 2) * (total - 3) * (total - 4)
    # What the dealer's two cards decide, per class pair: the round ends on a dealer 27 (or the
    # player is not forced to hit), and whether they are two Nines.
    dealer_ok = {}
    for a in range(len(reps)):
        for b in range(len(reps)):
            dealer = [reps[a], reps[b]]
            dealer_ok[(a, b)] = initial_winner(faces[4:6], dealer) is None
    out: dict[tuple[str, ...], Fraction] = {}
    for i1 in range(12):
        for i2 in range(12):
            for i3 in range(12):
                hand = [faces[i1], faces[i2], faces[i3]]
                if not bonus_candidates(hand, [Card(Rank.TWO, Suit.SPADES)] * 2):
                    continue
                for a in range(len(reps)):
                    for b in range(len(reps)):
                        if not dealer_ok[(a, b)]:
                            continue  # a dealer initial 27 ends the round before the third card
                        # Dealt P1, D1, P2, D2, then P3: each draw finds the copies not yet dealt.
                        w = 1
                        seq = (i1, a, i2, b, i3)
                        for k, cls in enumerate(seq):
                            w *= counts[cls] - seq[:k].count(cls)
                            if w <= 0:
                                break
                        if w <= 0:
                            continue
                        dealer = [reps[a], reps[b]]
                        if forced_play([faces[i1], faces[i2]], dealer) != "hit":
                            continue
                        cands = bonus_candidates(hand, dealer)
                        out[cands] = out.get(cands, Fraction(0)) + Fraction(w, den)
    return out


def exact_bonus_return(rules: Finnish27Rules, table: PayTable, bet: str, *, decks: int | None = None
                       ) -> dict[str, Any]:
    """``analyse rtp`` for Finnish 27's exactly computable lines (initial 27s, three-card lines)."""
    from dataclasses import replace

    if decks and decks != rules.decks:
        rules = replace(rules, decks=decks)
    lines = exact_lines(rules, table)
    if bet not in lines and bet != "exact-lines":
        from tables.engine.errors import InvalidInput

        raise InvalidInput(f"no exact rate for {bet!r}; exact lines: {sorted(lines)} (or 'exact-lines')", field="bet")
    chosen = lines if bet == "exact-lines" else {bet: lines[bet]}
    contrib = sum(v["contribution"] for v in chosen.values())
    return {"game": "finnish-27", "bet": bet, "decks": rules.decks, "outcomes": chosen,
            "rtp": contrib, "house_edge": None,
            "notes": ["contribution of the line(s) to the game wager's return, per unit wager of one table "
                      "minimum; the game's full RTP needs the simulation (analyse house-edge)"]}


def exact_lines(rules: Finnish27Rules, table: PayTable) -> dict[str, dict[str, float]]:
    """Probability and contribution (per unit wager) of every line decided by forced play."""
    out: dict[str, dict[str, float]] = {}
    init = exact_initial_27_rates(rules)
    for name, key in (("finnish-27", "player-finnish-27-wins"), ("jo-jo", "player-jo-jo-wins")):
        p = init.get(key, Fraction(0))
        out[name] = {"probability": float(p), "pays": _units(table[name]), "contribution": float(p) * _units(table[name])}
    three = exact_three_card_rates(rules, table)
    for name in ("8-9-10/mixed", "8-9-10/suited", "8-9-10/spades", "9-9-9/mixed", "9-9-9/suited", "9-9-9/dealer-9-9"):
        p = three.get(name, Fraction(0))
        out[name] = {"probability": float(p), "pays": _units(table[name]), "contribution": float(p) * _units(table[name])}
    return out


def paytable_lines(table: PayTable, rules: Finnish27Rules) -> dict[str, Any]:
    """The back-office view of a Finnish 27 pay table: exact lines at once, the rest pending simulation."""
    exact = exact_lines(rules, table)
    lines = []
    for name in table:
        pl = table[name]
        if name in exact:
            e = exact[name]
            lines.append({"name": name, "label": pl.label, "pays": pl.pays_text, "bet": "main",
                          "probability": e["probability"], "contribution": e["contribution"], "method": "exact"})
        else:
            lines.append({"name": name, "label": pl.label, "pays": pl.pays_text, "bet": "main",
                          "probability": None, "contribution": None, "method": "simulated"})
    pending = [x["name"] for x in lines if x["method"] == "simulated"]
    return {"game": "finnish-27", "lines": lines,
            "bets": {"main": {"rtp": None, "house_edge": None, "method": "simulated",
                              "detail": "run tables.analysis.finnish27.simulate (Celery task) for the game's RTP"}},
            "pending": pending}


def default_threads() -> int:
    """Cores the simulation uses by default."""
    return os.cpu_count() or 1
