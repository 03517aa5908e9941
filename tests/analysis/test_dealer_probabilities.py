"""Dealer outcome probabilities: the article's bust chart, and a brute-force check on a small shoe."""

from __future__ import annotations

import math
from functools import cache

import pytest

from tables.analysis.dealer import OUTCOMES, dealer_chart, dealer_distribution, full_shoe, remove

# shared/rules/dealer-upcard-and-contract-rummy.txt: "accurate for six-deck games where dealers
# abide by the S17 rule".  Reproduced by: 6 decks, S17, the up card removed from the shoe, the
# outcome conditional on no dealer blackjack (a peek game), figures truncated to two decimals.
ARTICLE_BUST = {"3": 37.41, "4": 39.58, "5": 41.84, "6": 42.28, "7": 26.19, "8": 24.36, "A": 16.70}
ARTICLE_ABOUT = {"2": 35, "9": 23, "10": 23}


@pytest.fixture(scope="module")
def six_deck_chart() -> dict[str, dict[str, float]]:
    return dealer_chart(6, hits_soft_17=False, peek=True)


@pytest.mark.parametrize("up", sorted(ARTICLE_BUST))
def test_dealer_bust_chart_reproduces_the_article_to_the_printed_digits(six_deck_chart, up: str) -> None:
    assert math.floor(six_deck_chart[up]["bust"] * 10000) / 100 == ARTICLE_BUST[up]


@pytest.mark.parametrize("up", sorted(ARTICLE_ABOUT))
def test_dealer_bust_chart_matches_the_articles_rounded_figures(six_deck_chart, up: str) -> None:
    assert round(six_deck_chart[up]["bust"] * 100) == ARTICLE_ABOUT[up]


def test_without_the_peek_the_ace_bust_rate_counts_the_blackjacks() -> None:
    # The article's 16.70% for an Ace only holds once blackjacks are taken out (a peek game).
    no_peek = dealer_chart(6, peek=False)
    assert math.floor(no_peek["A"]["bust"] * 10000) / 100 != 16.70
    assert sum(no_peek["A"].values()) == pytest.approx(1.0)


def test_every_chart_row_sums_to_one() -> None:
    for decks in (1, 6, None):
        for h17 in (False, True):
            for up, row in dealer_chart(decks, hits_soft_17=h17, peek=False).items():
                assert sum(row.values()) == pytest.approx(1.0), (decks, h17, up)


def test_hitting_soft_17_removes_all_soft_17_stands_from_an_ace_up() -> None:
    s17 = dealer_chart(6, hits_soft_17=False, peek=False)
    h17 = dealer_chart(6, hits_soft_17=True, peek=False)
    assert h17["A"]["17"] < s17["A"]["17"]
    assert h17["6"]["bust"] > s17["6"]["bust"]


def _brute_force(shoe: tuple[int, ...], up: int, h17: bool) -> list[float]:
    """Independent naive recursion over ordered draws (card classes 0=A .. 9=ten)."""

    @cache
    def go(cards: tuple[int, ...], left: tuple[int, ...]) -> tuple[float, ...]:
        hard = sum(c + 1 for c in cards)
        soft = 0 in cards and hard + 10 <= 21
        total = hard + 10 if soft else hard
        out = [0.0] * 7
        if len(cards) == 2 and total == 21:
            out[6] = 1.0
            return tuple(out)
        if total > 21:
            out[5] = 1.0
            return tuple(out)
        if total >= 17 and not (h17 and soft and total == 17):
            out[total - 17] = 1.0
            return tuple(out)
        n = sum(left)
        for c in range(10):
            if left[c]:
                nxt = list(left)
                nxt[c] -= 1
                sub = go(cards + (c,), tuple(nxt))
                for i in range(7):
                    out[i] += left[c] / n * sub[i]
        return tuple(out)

    return list(go((up,), shoe))


@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize("up", range(10))
def test_dealer_distribution_matches_a_brute_force_recursion_on_a_short_shoe(up: int, h17: bool) -> None:
    # A depleted single deck (few cards) makes removal effects large.
    shoe = remove((3, 2, 2, 3, 4, 4, 2, 3, 2, 10), up)
    got = dealer_distribution(shoe, up, hits_soft_17=h17)
    want = _brute_force(shoe, up, h17)
    for i, name in enumerate(OUTCOMES):
        assert got[i] == pytest.approx(want[i], abs=1e-12), name


def test_peek_conditions_on_no_blackjack() -> None:
    shoe = remove(full_shoe(2), 0)
    no_peek = dealer_distribution(shoe, 0)
    peek = dealer_distribution(shoe, 0, peek=True)
    assert peek[6] == 0
    assert peek[5] == pytest.approx(no_peek[5] / (1 - no_peek[6]))
