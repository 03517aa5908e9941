"""pytest-benchmark runs of the Finnish 27 settlement and the poker evaluator against treys.

Disabled in the default run; run with
``.venv/bin/pytest tests/engine/test_bench_finnish27.py --benchmark-enable -m "slow or not slow"``.
Numbers are reported, never asserted.
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from tables.engine.cards import standard_deck
from tables.engine.finnish27 import dealer_must_hit, forced_play, initial_winner, player_decided, settle
from tables.engine.poker import FINNISH, evaluate
from tables.engine.rulesets import Finnish27Rules

pytestmark = pytest.mark.slow
RULES = Finnish27Rules()


def _rounds(n: int) -> list[tuple[list, list]]:  # type: ignore[type-arg]
    """``n`` played rounds (final hands), dealt from fresh shuffled shoes."""
    rng = random.Random(27)
    out = []
    cards: list = []  # type: ignore[type-arg]
    for _ in range(n):
        if len(cards) < 324 - RULES.shuffle_at:
            cards = RULES.shoe.shuffled(rng)
        p1, d1, p2, d2 = cards.pop(), cards.pop(), cards.pop(), cards.pop()
        player, dealer = [p1, p2], [d1, d2]
        if initial_winner(player, dealer) is None:
            while forced_play(player, dealer) == "hit":  # free choices: stand
                player.append(cards.pop())
            if player_decided(player, RULES) is None:
                while dealer_must_hit(dealer, RULES):
                    dealer.append(cards.pop())
        out.append((player, dealer))
    return out


def test_bench_settle_finnish27_rounds(benchmark) -> None:  # type: ignore[no-untyped-def]
    rounds = _rounds(10_000)
    wager, minimum = Decimal("10.00"), Decimal("10.00")

    def run() -> None:
        for player, dealer in rounds:
            settle(player, dealer, wager, table_minimum=minimum, rules=RULES)

    benchmark(run)
    benchmark.extra_info["rounds_per_call"] = len(rounds)


@pytest.fixture(scope="module")
def seven_card_hands():  # type: ignore[no-untyped-def]
    rng = random.Random(7)
    deck = standard_deck()
    return [rng.sample(deck, 7) for _ in range(10_000)]


def test_bench_poker_ours_7_cards(benchmark, seven_card_hands) -> None:  # type: ignore[no-untyped-def]
    def run() -> None:
        for h in seven_card_hands:
            evaluate(h, FINNISH)

    benchmark(run)


def test_bench_poker_treys_7_cards(benchmark, seven_card_hands) -> None:  # type: ignore[no-untyped-def]
    treys = pytest.importorskip("treys")
    evaluator = treys.Evaluator()
    hands = [[treys.Card.new(c.code[0] + c.code[1].lower()) for c in h] for h in seven_card_hands]

    def run() -> None:
        for h in hands:
            evaluator.evaluate(h[:2], h[2:])

    benchmark(run)
