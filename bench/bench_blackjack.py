"""Throughput of the blackjack engine: settled 7-seat Unlimited Blackjack rounds per second.

Run: ``.venv/bin/python bench/bench_blackjack.py [--rounds N] [--repeat R]``.  Each measure is the
best of R runs (the machine is shared, so the best run is the least disturbed one); the median is
printed as well.  Measures:

- ``simulate``: ``play_round`` — deal from an 8-deck shoe, basic-strategy decisions, dealer by the
  drawing rule, every settlement line built (``SettlementLine`` objects) — with the shoe shuffled at
  the cut card (half way) and the shuffle time counted;
- ``simulate+side``: the same with Perfect Pairs and 21+3 on every seat (three lines per seat);
- ``live``: the live round state machine (``next_step`` + verify/can/do actions + settle);
Wall-clock and CPU-time rates are both printed: on a shared machine the CPU-time rate (rounds per
CPU-second of this one process) is the stable number.

- ``verify``: ``verify_round`` on the JSON request of a played round (parsing, shoe check, rules
  checks, settlement, discrepancies).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Iterator
from decimal import Decimal

import numpy as np

from tables.engine import verify_round
from tables.engine.blackjack import live as L
from tables.engine.blackjack.outcome import Settler
from tables.engine.blackjack.simulate import play_round
from tables.engine.cards import Card, standard_deck
from tables.engine.paytable import PayTable
from tables.engine.rulesets import PUBLISHED_RULES, BlackjackRules
from tables.engine.shoe import Shoe

GAME = "unlimited-blackjack"
RULES = PUBLISHED_RULES[GAME]
assert isinstance(RULES, BlackjackRules)
PAY = PayTable.published(GAME)
TMIN = Decimal("5.00")


class ShoeFeed:
    """Cards from a shuffled 8-deck shoe, reshuffled at the end of the round the cut card came out."""

    def __init__(self, rng: random.Random) -> None:
        # numpy's permutation shuffles in C; random.shuffle of 416 cards would cost more than the
        # rounds dealt from them and measure Python's shuffle, not the engine.
        self.rng = np.random.default_rng(rng.randrange(2**32))
        self.base = [c for _ in range(RULES.decks) for c in standard_deck()]
        self.cards: list[Card] = []
        self.pos = 0
        self.cut = RULES.shuffle_at
        self.shuffle()

    def shuffle(self) -> None:
        base = self.base
        self.cards = [base[i] for i in self.rng.permutation(len(base)).tolist()]
        self.pos = 0

    def round_cards(self) -> Iterator[Card]:
        if self.pos >= self.cut:
            self.shuffle()
        cards = self.cards
        while True:
            c = cards[self.pos]
            self.pos += 1
            yield c


def bench_simulate(rounds: int, side: bool) -> tuple[float, float]:
    rng = random.Random(7)
    feed = ShoeFeed(rng)
    side_bet = Decimal("5.00") if side else None
    bets = [L.SeatBet(s, Decimal("10.00"), perfect_pairs=side_bet, twenty_one_plus_three=side_bet) for s in range(1, 8)]
    settler = Settler(RULES, PAY, TMIN)
    t, c = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        play_round(RULES, PAY, TMIN, bets, feed.round_cards(), settler=settler)
    return rounds / (time.perf_counter() - t), rounds / (time.process_time() - c)


def _play_live(feed: ShoeFeed, shoe: Shoe) -> L.BlackjackRound:
    if shoe.shuffle_due or feed.pos >= feed.cut:
        shoe.reshuffle()
        feed.shuffle()
    cards = feed.round_cards()
    st = L.start_round(GAME, [L.SeatBet(s, Decimal("10.00")) for s in range(1, 8)], table_minimum=TMIN,
                       shoe=shoe, rules=RULES, pay_table=PAY)
    while True:
        p = L.next_step(st)
        if p.needs == "card":
            L.deal(st, next(cards))
        elif p.needs == "decision":
            act = L.hint(st)
            if p.phase == "offers":
                L.no_decision(st)
            elif act == "hit":
                L.hit(st, next(cards))
            elif act == "double":
                L.double(st, next(cards))
            elif act == "split":
                L.split(st)
            else:
                L.stand(st)
        else:
            L.settle(st)
            return st


def bench_live(rounds: int) -> tuple[float, float]:
    feed = ShoeFeed(random.Random(11))
    shoe = Shoe(RULES.shoe)
    t, c = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        _play_live(feed, shoe)
    return rounds / (time.perf_counter() - t), rounds / (time.process_time() - c)


def bench_verify(rounds: int) -> tuple[float, float]:
    feed = ShoeFeed(random.Random(13))
    shoe = Shoe(RULES.shoe)
    requests = [L.to_request(_play_live(feed, shoe)) for _ in range(min(rounds, 2000))]
    t, c = time.perf_counter(), time.process_time()
    for i in range(rounds):
        verify_round(requests[i % len(requests)])
    return rounds / (time.perf_counter() - t), rounds / (time.process_time() - c)


def measure(name: str, fn: Callable[[], tuple[float, float]], repeat: int) -> None:
    runs = [fn() for _ in range(repeat)]
    wall = [w for w, _ in runs]
    cpu = [c for _, c in runs]
    print(f"{name:>14}: wall best {max(wall):>8,.0f} rounds/s, median {statistics.median(wall):>8,.0f} | "
          f"CPU best {max(cpu):>8,.0f} rounds per CPU-second, median {statistics.median(cpu):>8,.0f}  ({repeat} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    n, r = args.rounds, args.repeat
    measure("simulate", lambda: bench_simulate(n, side=False), r)
    measure("simulate+side", lambda: bench_simulate(n, side=True), r)
    measure("live", lambda: bench_live(max(n // 10, 200)), r)
    measure("verify", lambda: bench_verify(max(n // 10, 200)), r)


if __name__ == "__main__":
    main()
