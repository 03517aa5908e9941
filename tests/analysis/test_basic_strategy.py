"""Computed basic strategy and the house edge of the blackjack rule sets."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tables.analysis.blackjack import compute_strategy, house_edge, strategy_chart
from tables.engine.rulesets import PUBLISHED_RULES, BlackjackRules

UNLIMITED = PUBLISHED_RULES["unlimited-blackjack"]
MINI = PUBLISHED_RULES["mini-blackjack"]
assert isinstance(UNLIMITED, BlackjackRules) and isinstance(MINI, BlackjackRules)
STANDARD_6D = BlackjackRules(decks=6, dealer_peeks=True, surrender="none")


def test_unlimited_blackjack_returns_the_published_99_79_percent_with_early_surrender_vs_ace() -> None:
    # No peek, so the surrender offered against an Ace comes before the dealer looks: early surrender.
    assert round(house_edge(UNLIMITED).rtp * 100, 2) == 99.79


def test_unlimited_without_the_early_surrender_falls_well_short_of_99_79() -> None:
    assert house_edge(replace(UNLIMITED, surrender="none")).rtp * 100 < 99.5


def test_mini_blackjack_comes_within_0_04_points_of_the_published_99_51_percent() -> None:
    # Documented difference: our computed basic strategy gives 99.476%.
    rtp = house_edge(MINI).rtp * 100
    assert 99.47 < rtp < 99.51


def test_six_deck_standard_rules_house_edge_is_close_to_the_published_basic_strategy_figure() -> None:
    # 6 decks, S17, DAS, peek, no surrender, no resplit: published analyses give about 0.45%.
    edge = house_edge(STANDARD_6D).house_edge * 100
    assert 0.42 < edge < 0.50


def test_fewer_decks_favour_the_player() -> None:
    edges = [house_edge(replace(STANDARD_6D, decks=d)).house_edge for d in (1, 2, 6, 8)]
    assert edges == sorted(edges)


def test_computed_strategy_has_the_textbook_cells() -> None:
    chart = strategy_chart(compute_strategy(STANDARD_6D))
    assert chart["hard"]["16"]["10"] == "H"
    assert chart["hard"]["12"]["4"] == "S" and chart["hard"]["12"]["3"] == "H"
    assert chart["hard"]["11"]["6"] == "D/H"
    assert chart["soft"]["18"]["9"] == "H" and chart["soft"]["18"]["2"] == "S"
    assert chart["pairs"]["8"]["A"] == "P" and chart["pairs"]["10"]["6"] == "-"
    assert chart["pairs"]["9"]["7"] == "-" and chart["pairs"]["9"]["8"] == "P"


def test_early_surrender_vs_ace_surrenders_hard_16_and_hits_it_otherwise() -> None:
    chart = strategy_chart(compute_strategy(UNLIMITED))
    assert chart["hard"]["16"]["A"] == "R/H"
    assert chart["hard"]["16"]["10"] == "H"  # surrender is only offered against an Ace


def test_no_double_after_split_stops_splitting_small_pairs_against_2_and_3() -> None:
    das = strategy_chart(compute_strategy(STANDARD_6D))
    no_das = strategy_chart(compute_strategy(replace(STANDARD_6D, double_after_split=False)))
    assert das["pairs"]["2"]["2"] == "P" and no_das["pairs"]["2"]["2"] == "-"


def test_surrender_and_double_are_never_worse_than_the_plays_they_replace() -> None:
    strat = compute_strategy(UNLIMITED)
    for up, rows in strat.ev.items():
        for row, ev in rows.items():
            chosen = max(ev.values())
            assert chosen >= ev["S"] - 1e-12, (up, row)


@pytest.mark.parametrize("decks", [None, 4])
def test_house_edge_of_an_infinite_or_finite_shoe_is_between_zero_and_one_percent(decks: int | None) -> None:
    assert 0.0 < house_edge(STANDARD_6D, decks).house_edge < 0.01
