"""Cross-check of the blackjack house edge by simulation through the engine's own round player."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from tables.analysis.blackjack import house_edge, recommend
from tables.engine.blackjack.live import SeatBet
from tables.engine.blackjack.outcome import Settler
from tables.engine.blackjack.simulate import play_round
from tables.engine.cards import standard_deck
from tables.engine.paytable import PayTable
from tables.engine.rulesets import PUBLISHED_RULES, BlackjackRules


def _simulate(game: str, rounds: int, seed: int) -> tuple[float, float]:
    """Mean net per main bet and its standard error; seven seats, a fresh shoe every round (the
    analysis is for a fresh shoe), the computed strategy deciding, no insurance."""
    rules = PUBLISHED_RULES[game]
    assert isinstance(rules, BlackjackRules)
    pay = PayTable.published(game)
    seats = 7 if not rules.single_player else 1
    bets = [SeatBet(s, Decimal("1.00")) for s in range(1, seats + 1)]
    settler = Settler(rules, pay, Decimal("1.00"))
    shoe = [c for _ in range(rules.decks) for c in standard_deck()]
    rng = random.Random(seed)
    total = total_sq = 0.0
    for _ in range(rounds):
        cards = iter(rng.sample(shoe, 60))
        _, _, lines = play_round(rules, pay, Decimal("1.00"), bets, cards, decide=recommend, settler=settler)
        x = sum(float(ln.net) for seat in lines for ln in seat if ln.bet == "main") / seats
        total += x
        total_sq += x * x
    mean = total / rounds
    var = total_sq / rounds - mean * mean
    return mean, (var / rounds) ** 0.5


@pytest.mark.slow
@pytest.mark.parametrize("game", ["unlimited-blackjack", "mini-blackjack"])
def test_simulated_return_agrees_with_the_computed_house_edge(game: str) -> None:
    mean, se = _simulate(game, 300_000, 6)
    computed = house_edge(PUBLISHED_RULES[game]).ev  # type: ignore[arg-type]
    assert abs(mean - computed) < 4 * se, (mean, se, computed)
