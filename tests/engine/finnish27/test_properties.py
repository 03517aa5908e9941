"""Invariants (hypothesis): totals against a brute-force definition, money conservation, a live
round replayed and verified from its final hands settles the same."""

from __future__ import annotations

import random
from decimal import Decimal
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine import verify_round
from tables.engine.cards import JOKER, Card, standard_deck
from tables.engine.finnish27 import (
    deal,
    hand_value,
    hit,
    new_round,
    next_step,
    replay,
    settle,
    settle_round,
    stand,
)
from tables.engine.finnish27.settle import PUBLISHED_PAY_TABLE, best_bonus, bonus_candidates
from tables.engine.rulesets import Finnish27Rules

REAL = standard_deck()
ANY = REAL + [JOKER]
SHOE = Finnish27Rules().shoe


def brute_force_total(cards: list[Card]) -> tuple[int, bool]:
    """The rule text literally: every Ace 1 or 14; the highest total not over 27 if there is one
    (that is the Ace "played high"), else all Aces low; Jokers after the first two count 0."""
    values = []
    for c in cards:
        if c.rank is None:
            values.append((0,))
        elif c.rank == 14:
            values.append((1, 14))
        else:
            values.append((int(c.rank),))
    totals = [(sum(v), any(x == 14 for x in v)) for v in product(*values)]
    under = [t for t in totals if t[0] <= 27]
    return max(under) if under else min(totals)


@given(st.lists(st.sampled_from(REAL), min_size=2, max_size=2), st.lists(st.sampled_from(ANY), max_size=8))
def test_totals_and_softness_agree_with_the_brute_force_definition(first: list[Card], rest: list[Card]) -> None:
    cards = first + rest
    assert hand_value(cards) == brute_force_total(cards)


@given(
    st.lists(st.sampled_from(ANY), min_size=2, max_size=9),
    st.lists(st.sampled_from(ANY), min_size=2, max_size=9),
    st.decimals(min_value=Decimal("0.01"), max_value=Decimal("100000"), places=2),
    st.decimals(min_value=Decimal("0.01"), max_value=Decimal("1000"), places=2),
)
def test_money_is_conserved(player: list[Card], dealer: list[Card], wager: Decimal, minimum: Decimal) -> None:
    s = settle(player, dealer, wager, table_minimum=minimum)
    # what the dealer pays out minus what the dealer collects, worked out independently of the lines
    if s.outcome.winner == "player":
        best = best_bonus(bonus_candidates(player, dealer), PUBLISHED_PAY_TABLE, wager, minimum)
        expected = wager + (best[1] if best else 0)
    else:
        expected = -wager
    assert s.total_net == expected == sum(line.net for line in s.lines)
    assert all(line.net == line.net.quantize(Decimal("0.01")) for line in s.lines)
    assert sum(1 for line in s.lines if line.bet == "bonus") <= 1


def play_round(rng: random.Random, choices: list[bool]):  # type: ignore[no-untyped-def]
    """Play one live round from a shuffled shoe, taking forced plays and drawing free choices."""
    cards = SHOE.shuffled(rng)
    s = new_round("10.00", "5.00")
    free = iter(choices)
    while True:
        p = next_step(s)
        if p.needs == "card":
            deal(s, cards.pop())
        elif p.needs == "decision":
            action = p.forced or ("hit" if next(free, False) else "stand")
            (hit if action == "hit" else stand)(s, p.actor)
        elif p.needs == "settle":
            settle_round(s)
        else:
            return s


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.lists(st.booleans(), max_size=6))
def test_a_live_round_replayed_and_verified_from_final_hands_settles_the_same(
    rng: random.Random, choices: list[bool]
) -> None:
    s = play_round(rng, choices)
    lines = [line.as_json() for line in s.settlement.lines]
    request = {
        "game": "finnish-27", "table_minimum": "5.00",
        "dealer": {"cards": [c.code for c in s.dealer]},
        "seats": [{"seat": 1, "wagers": {"main": "10.00"}, "hands": [{"cards": [c.code for c in s.player]}]}],
    }  # fmt: skip
    answer = verify_round(request)
    assert answer["violations"] == []  # a round played by the prompts breaks no rule
    assert answer["seats"][0]["lines"] == lines
    again = replay(s.events, new_round("10.00", "5.00"))
    assert again.settlement == s.settlement
