"""Benchmarks of the Finnish 27 engine and the poker evaluator (numbers for the issue notes).

Run: ``.venv/bin/python bench/bench_finnish27.py [--rounds N] [--hands N]``

1. Settled rounds per second: rounds dealt from a 6-deck + 12-Joker shoe (reshuffled at the cut
   card), the player's hand played by the forced plays and a simple rule for free choices, the
   dealer's by the drawing rule, then settled to settlement lines (Decimal money, the published
   pay table).  Measured with the pure functions (as the analysis uses them) and through the live
   round API (events, prompts, verify/can/do).
2. The poker evaluator against treys on the same random 7-card single-deck hands, side by side in
   one run: our first pass (memo empty) and a second pass (memo warm), treys with its tables built.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tables.engine.cards import Card, standard_deck  # noqa: E402
from tables.engine.finnish27 import (  # noqa: E402
    deal,
    dealer_must_hit,
    forced_play,
    hand_value,
    hit,
    initial_winner,
    new_round,
    next_step,
    player_decided,
    settle,
    settle_round,
    stand,
)
from tables.engine.poker import FINNISH, evaluate  # noqa: E402
from tables.engine.rulesets import Finnish27Rules  # noqa: E402

RULES = Finnish27Rules()
WAGER, MINIMUM = Decimal("10.00"), Decimal("10.00")


def free_choice(player: list[Card]) -> bool:
    """A simple stand-in for basic strategy: hit a free hand below hard 24 / soft 26."""
    total, soft = hand_value(player)
    return total < (26 if soft else 24)


class ShoeStream:
    """Cards from a shuffled shoe, reshuffled between rounds once the cut card is out."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.full = RULES.shoe.shuffled(rng)
        self.cards: list[Card] = []
        self.dealt = RULES.shoe.size

    def new_round(self) -> None:
        if self.dealt >= RULES.shuffle_at:
            self.cards = list(self.full)
            self.rng.shuffle(self.cards)
            self.dealt = 0

    def draw(self) -> Card:
        self.dealt += 1
        return self.cards.pop()


def play_pure(shoe: ShoeStream) -> Decimal:
    shoe.new_round()
    d = shoe.draw
    player = [d()]
    dealer = [d()]
    player.append(d())
    dealer.append(d())
    if initial_winner(player, dealer) is None:
        while True:
            play = forced_play(player, dealer)
            if play == "hit" or (play is None and free_choice(player)):
                player.append(d())
            else:
                break
        if player_decided(player, RULES) is None:
            while dealer_must_hit(dealer, RULES):
                dealer.append(d())
    return settle(player, dealer, WAGER, table_minimum=MINIMUM, rules=RULES).total_net


def play_live(shoe: ShoeStream) -> Decimal:
    shoe.new_round()
    s = new_round(WAGER, MINIMUM)
    while True:
        p = next_step(s)
        if p.needs == "card":
            deal(s, shoe.draw())
        elif p.needs == "decision":
            go = p.forced == "hit" or (p.forced is None and free_choice(s.player))
            (hit if go else stand)(s, p.actor)
        elif p.needs == "settle":
            settle_round(s)
        else:
            assert s.settlement is not None
            return s.settlement.total_net


def bench_rounds(n: int, play, label: str) -> None:  # type: ignore[no-untyped-def]
    shoe = ShoeStream(random.Random(27))
    net = Decimal(0)
    t = time.perf_counter()
    for _ in range(n):
        net += play(shoe)
    elapsed = time.perf_counter() - t
    print(f"{label:<38} {n:>8} rounds  {n / elapsed:>10,.0f} rounds/s   (player net {net / n / WAGER:+.4f} per unit)")


def bench_poker(n: int) -> None:
    try:
        import treys  # test-only dependency
    except ImportError:
        print("treys not installed: poker comparison skipped")
        return
    evaluator = treys.Evaluator()
    deck = standard_deck()
    to_treys = {c: treys.Card.new(c.code[0] + c.code[1].lower()) for c in deck}
    rng = random.Random(7)
    hands = [rng.sample(deck, 7) for _ in range(n)]
    treys_hands = [[to_treys[c] for c in h] for h in hands]

    def ours() -> None:
        for h in hands:
            evaluate(h, FINNISH)

    def theirs() -> None:
        ev = evaluator.evaluate
        for h in treys_hands:
            ev(h[:2], h[2:])

    # Interleaved, results not kept (treys returns ints; keeping our result objects would time the
    # garbage collector instead); the first pass of ours fills the rank memo, treys built its
    # tables in Evaluator().
    for label, fn in (("ours, first pass (memo empty)", ours), ("treys", theirs),
                      ("ours, second pass (memo warm)", ours), ("treys, again", theirs),
                      ("ours, third pass", ours), ("treys, third pass", theirs)):  # fmt: skip
        gc.collect()
        t = time.perf_counter()
        fn()
        us = (time.perf_counter() - t) / n * 1e6
        print(f"poker 7-card, {label:<32} {us:6.2f} us/hand  {1e6 / us:>10,.0f} hands/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--hands", type=int, default=100_000)
    args = parser.parse_args()
    bench_rounds(args.rounds, play_pure, "Finnish 27 settled, pure functions")
    bench_rounds(max(args.rounds // 4, 1), play_live, "Finnish 27 settled, live round API")
    bench_poker(args.hands)


if __name__ == "__main__":
    main()
