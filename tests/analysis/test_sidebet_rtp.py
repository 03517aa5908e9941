"""Exact side-bet returns: the published RTPs, and small shoes checked by brute force."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest

from tables.analysis.sidebets import (
    insurance_return,
    perfect_pairs_return,
    twenty_one_plus_three_return,
)
from tables.engine.blackjack.hands import is_blackjack, is_ten_value
from tables.engine.cards import parse_card, standard_deck
from tables.engine.paytable import PayTable
from tables.engine.sidebets import twenty_one_plus_three_kind


def test_perfect_pairs_25_12_6_with_8_decks_returns_the_published_95_9_percent() -> None:
    assert round(float(perfect_pairs_return(8).rtp) * 100, 1) == 95.9


def test_21_plus_3_100_40_25_10_5_with_8_decks_returns_the_published_93_71_percent() -> None:
    assert round(float(twenty_one_plus_three_return(8).rtp) * 100, 2) == 93.71


def test_perfect_pairs_one_deck_by_hand() -> None:
    # One deck: no perfect pair; after any first card 1 coloured and 2 mixed partners of 51 cards.
    r = {o.name: o.probability for o in perfect_pairs_return(1).outcomes}
    assert r["perfect-pairs/perfect"] == 0
    assert r["perfect-pairs/coloured"] == Fraction(1, 51)
    assert r["perfect-pairs/mixed"] == Fraction(2, 51)
    assert r["lose"] == Fraction(48, 51)


def test_21_plus_3_one_deck_matches_brute_force_over_every_ordered_triple() -> None:
    deck = standard_deck()
    counts: dict[str | None, int] = {}
    for a, b, c in permutations(deck, 3):
        k = twenty_one_plus_three_kind(a, b, c)
        counts[k] = counts.get(k, 0) + 1
    total = 52 * 51 * 50
    got = {o.name.removeprefix("21+3/"): o.probability for o in twenty_one_plus_three_return(1).outcomes}
    for kind, n in counts.items():
        assert got["lose" if kind is None else kind] == Fraction(n, total)
    # and the textbook three-card counts of one deck (unordered): 48 straight flushes, 52 trips,
    # 720 straights, 1096 flushes out of 22100
    assert got["straight-flush"] == Fraction(48, 22100)
    assert got["three-of-a-kind"] == Fraction(52, 22100)
    assert got["straight"] == Fraction(720, 22100)
    assert got["flush"] == Fraction(1096, 22100)


def test_21_plus_3_three_decks_matches_brute_force_over_faces() -> None:
    # Three decks hold suited trips; every ordered triple of faces weighted without replacement.
    deck = standard_deck()
    counts: dict[str | None, int] = {}
    for a in deck:
        for b in deck:
            for c in deck:
                w = 3 * (3 - (b == a)) * (3 - (c == a) - (c == b))
                if w > 0:
                    kind = twenty_one_plus_three_kind(a, b, c)
                    counts[kind] = counts.get(kind, 0) + w
    total = 156 * 155 * 154
    got = {o.name.removeprefix("21+3/"): o.probability for o in twenty_one_plus_three_return(3).outcomes}
    assert got["suited-trips"] == Fraction(counts["suited-trips"], total) > 0
    for kind, n in counts.items():
        assert got["lose" if kind is None else kind] == Fraction(n, total)


def test_a_pay_table_change_moves_the_rtp_by_exactly_that_line() -> None:
    base = perfect_pairs_return(6)
    table = PayTable.from_json("unlimited-blackjack",
                               {"lines": [{"name": "perfect-pairs/perfect", "pays": {"odds": "30:1"}}]})
    changed = perfect_pairs_return(6, pay_table=table)
    p = {o.name: o.probability for o in base.outcomes}["perfect-pairs/perfect"]
    assert changed.rtp - base.rtp == 5 * p


def test_insurance_with_one_deck_by_brute_force() -> None:
    # Dealer Ace up from one deck; insurance is offered on every player hand but a blackjack.
    deck = [c for c in standard_deck() if c != parse_card("AS")]
    offered = wins = 0
    for i, a in enumerate(deck):
        for j, b in enumerate(deck):
            if i == j or is_blackjack([a, b]):
                continue
            rest = [c for k, c in enumerate(deck) if k not in (i, j)]
            offered += len(rest)
            wins += sum(1 for c in rest if is_ten_value(c))
    r = insurance_return(1)
    assert r.outcomes[0].probability == Fraction(wins, offered)
    assert r.rtp == 1 + 2 * Fraction(wins, offered) - (1 - Fraction(wins, offered))


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_outcome_probabilities_sum_to_one(decks: int) -> None:
    for r in (perfect_pairs_return(decks), twenty_one_plus_three_return(decks), insurance_return(decks)):
        assert sum(o.probability for o in r.outcomes) == 1


def test_jokers_in_the_shoe_never_make_a_pair_or_a_21_plus_3_hand() -> None:
    # The engine's classifiers settle a Joker as no hand; the math follows them.
    with_jokers = perfect_pairs_return(1, jokers=2)
    assert {o.name: o.probability for o in with_jokers.outcomes}["perfect-pairs/coloured"] == Fraction(52 * 1, 54 * 53)
    assert sum(o.probability for o in twenty_one_plus_three_return(1, jokers=2).outcomes) == 1
