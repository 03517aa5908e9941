"""The dealer's drawing rule: hit hard < 24 and soft < 25, stand otherwise (rule text "Form The
Dealer's Complete Hand")."""

from __future__ import annotations

import pytest

from tables.engine.finnish27 import dealer_must_hit
from tables.engine.rulesets import Finnish27Rules

from .helpers import C


@pytest.mark.parametrize("codes", ["KS TD", "2S 3D", "KS 5D 3C", "9S 8D JK"])
def test_dealer_hits_hard_below_24(codes: str) -> None:
    assert dealer_must_hit(C(codes))


@pytest.mark.parametrize("codes", ["KS JD", "KS KD", "KS QD 9C", "9S 9D 9H"])
def test_dealer_stands_on_hard_24_or_more(codes: str) -> None:
    assert not dealer_must_hit(C(codes))


@pytest.mark.parametrize("codes", ["AS 9D", "AS 2D", "AS 4D 5C"])
def test_dealer_hits_soft_below_25(codes: str) -> None:
    assert dealer_must_hit(C(codes))


@pytest.mark.parametrize("codes", ["AS JD", "AS QD", "AS 5D 6C"])
def test_dealer_stands_on_soft_25_or_more(codes: str) -> None:
    assert not dealer_must_hit(C(codes))


def test_a_joker_drawn_by_the_dealer_counts_0_and_the_dealer_draws_on() -> None:
    assert dealer_must_hit(C("KS 7D JK"))


def test_the_drawing_limits_come_from_the_rule_set() -> None:
    rules = Finnish27Rules(dealer_stands_hard=23, dealer_stands_soft=26)
    assert not dealer_must_hit(C("KS TD"), rules)
    assert dealer_must_hit(C("AS JD"), rules)
