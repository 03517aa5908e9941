"""Contract Rummy scoring of the cards left in hand, and its variants."""

from __future__ import annotations

import pytest

from tables.engine import rummy
from tables.engine.cards import parse_cards
from tables.engine.errors import InvalidCard
from tables.engine.rulesets import ContractRummyRules

HAND = "KD AS JK 2C 9H TC"


@pytest.mark.parametrize(("card", "points"), [("2S", 2), ("5H", 5), ("9D", 9), ("TC", 10), ("JC", 10), ("QS", 10),
                                               ("KH", 10), ("AD", 15), ("JK", 25)])
def test_card_values_follow_the_score_table(card, points):
    assert rummy.score_hand([card]) == points


def test_score_is_the_sum_of_the_cards_left_in_hand():
    assert rummy.score_hand(HAND.split()) == 10 + 15 + 25 + 2 + 9 + 10
    assert rummy.score_detail(parse_cards("KD AS"), ContractRummyRules()) == "KD 10 + AS 15 = 25"
    assert rummy.score_hand([]) == 0


def test_deuces_wild_variant_scores_deuces_25():
    assert rummy.score_hand(HAND.split(), ContractRummyRules(deuces_wild=True)) == 10 + 15 + 25 + 25 + 9 + 10


def test_numbers_score_five_variant():
    assert rummy.score_hand(HAND.split(), ContractRummyRules(numbers_score_five=True)) == 10 + 15 + 25 + 5 + 5 + 10


def test_deuces_wild_wins_over_numbers_score_five_for_a_deuce():
    rules = ContractRummyRules(deuces_wild=True, numbers_score_five=True)
    assert rummy.score_hand(HAND.split(), rules) == 10 + 15 + 25 + 25 + 5 + 10


def test_club_score_table_is_data():
    club = ContractRummyRules(card_scores={**ContractRummyRules().card_scores, "A": 20, "JK": 50})
    assert rummy.score_hand(["AS", "JK"], club) == 70


def test_scoring_a_bad_card_code_names_it():
    with pytest.raises(InvalidCard) as exc:
        rummy.score_hand(["KD", "1X"])
    assert "1X" in str(exc.value)
