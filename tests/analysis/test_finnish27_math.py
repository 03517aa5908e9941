"""Finnish 27 math: the simulation plays the engine's rules round by round; exact bonus rates."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from tables.analysis import finnish27 as f
from tables.engine.paytable import PayTable
from tables.engine.poker import FINNISH, evaluate
from tables.engine.rulesets import Finnish27Rules

RULES = Finnish27Rules()


def _random_strategy(seed: int) -> np.ndarray:
    # A strategy that stands or hits at random on every free choice exercises both branches of the
    # kernel's strategy lookup (the rule text alone rarely stands low).
    rng = np.random.default_rng(seed)
    return (rng.random(f.STRATEGY_SHAPE) < 0.5).astype(np.int8)


@pytest.mark.parametrize("strategy", ["rule-text", "random"])
def test_simulation_and_engine_agree_on_every_round_of_a_fixed_seed_sample(strategy: str) -> None:
    stand = f.rule_text_strategy() if strategy == "rule-text" else _random_strategy(3)
    rounds = 0
    lines = set()
    for shoe_no in range(40):
        for rd in f.trace_shoe(RULES, stand, 20261121, shoe_no):
            net, line, used = f.engine_round(rd.cards, stand, RULES)
            assert (float(net), line, used) == (rd.net, rd.line, len(rd.cards)), [c.code for c in rd.cards]
            rounds += 1
            lines.add(line)
    assert rounds > 1000
    assert {"finnish-27", "poker/two-pair", "poker/three-of-a-kind"} <= lines  # bonuses were exercised


def test_traced_shoe_stops_at_the_cut_card_and_uses_each_card_once() -> None:
    traced = f.trace_shoe(RULES, f.rule_text_strategy(), 1, 0)
    used = sum(len(r.cards) for r in traced)
    assert used >= RULES.shuffle_at
    assert used - len(traced[-1].cards) < RULES.shuffle_at  # the last round began before the cut card
    cards = [c for r in traced for c in r.cards]
    assert max(cards.count(c) for c in set(cards)) <= RULES.decks * max(1, RULES.jokers_per_deck)


def test_compiled_poker_category_matches_the_engine_evaluator() -> None:
    t = f.tables_for(RULES, PayTable.published("finnish-27"))
    rng = random.Random(11)
    for _ in range(3000):
        n = rng.randint(5, 9)
        codes = [rng.randrange(53) if rng.random() < 0.5 else rng.choice([*range(24), 52]) for _ in range(n)]
        arr = np.zeros(64, dtype=np.int64)
        arr[:n] = codes
        want = FINNISH.index[evaluate([f.CARDS[c] for c in codes], FINNISH).category]
        assert f._poker_category(arr, n, t.rank, t.suit) == want, [f.CARDS[c].code for c in codes]


def test_8_9_10_spades_rate_with_one_deck_by_hand() -> None:
    # One deck and two Jokers (54 cards): the player is dealt 8S 9S TS in any of 6 orders (the third
    # card is a forced hit) and the dealer's two cards are not an initial 27: of the 51 x 50 ordered
    # pairs left, 198 hold a Joker and 32 are A-K.
    one = Finnish27Rules(decks=1, shuffle_at=40)
    rates = f.exact_three_card_rates(one)
    assert rates["8-9-10/spades"] == Fraction(6 * (51 * 50 - 198 - 32), 54 * 53 * 52 * 51 * 50)
    assert "9-9-9/dealer-9-9" not in rates  # five Nines from a deck of four


def test_jo_jo_rate_with_one_deck_by_hand() -> None:
    # Both Jokers to the player: the dealer cannot hold a 27 that outranks or ties a Jo Jo.
    one = Finnish27Rules(decks=1, shuffle_at=40)
    assert f.exact_initial_27_rates(one)["player-jo-jo-wins"] == Fraction(2, 54 * 53)


def test_exact_lines_follow_the_pay_table() -> None:
    table = PayTable.from_json("finnish-27", {"lines": [{"name": "9-9-9/dealer-9-9", "pays": {"table_minimum": 5}}]})
    default = f.exact_lines(RULES, PayTable.published("finnish-27"))
    changed = f.exact_lines(RULES, table)
    # 999 x table minimum dropped below 99: a 9-9-9 suited hand against a dealer 9-9 now takes the
    # suited line, so the dealer-9-9 line loses those rounds to it.
    assert changed["9-9-9/dealer-9-9"]["probability"] < default["9-9-9/dealer-9-9"]["probability"]
    assert changed["9-9-9/suited"]["probability"] > default["9-9-9/suited"]["probability"]


def test_paytable_rtp_gives_the_exact_lines_at_once_and_leaves_the_rest_to_the_simulation() -> None:
    from tables.analysis import paytable_rtp

    out = paytable_rtp("finnish-27", None)
    methods = {line["name"]: line["method"] for line in out["lines"]}
    assert methods["8-9-10/spades"] == "exact" and methods["finnish-27"] == "exact"
    assert methods["poker/flush"] == "simulated" and "poker/flush" in out["pending"]


@pytest.mark.slow
def test_simulated_rates_agree_with_the_exact_rates() -> None:
    res = f.simulate(RULES, rounds=20_000_000, strategy="rule-text")
    exact = f.exact_lines(RULES, PayTable.published("finnish-27"))
    for name in ("finnish-27", "jo-jo", "8-9-10/mixed", "8-9-10/suited", "9-9-9/mixed"):
        p = exact[name]["probability"]
        se = (p * (1 - p) / res["rounds"]) ** 0.5
        assert abs(res["line_rates"][name] - p) < 4.5 * se, name
    # the variance-reduced and plain estimates agree within their intervals
    assert abs(res["house_edge"] - res["house_edge_plain"]) < res["ci95_plain"]


@pytest.mark.slow
def test_house_edge_is_about_the_texts_1_3_percent_under_the_improved_strategy() -> None:
    improved = f.simulate(RULES, rounds=30_000_000, strategy="improved")
    rule_text = f.simulate(RULES, rounds=30_000_000, strategy="rule-text")
    assert 0.0120 < improved["house_edge"] < 0.0140
    assert improved["house_edge"] < rule_text["house_edge"]
