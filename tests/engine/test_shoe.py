"""Shoes: composition, cards dealt and left, penetration, shuffle points, impossible cards."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine.cards import JOKER, parse_card
from tables.engine.errors import InvalidCard, InvalidInput
from tables.engine.rulesets import Finnish27Rules
from tables.engine.shoe import Shoe, ShoeSpec, ShuffleRule, joker_count

FINNISH = Finnish27Rules().shoe


def test_the_finnish_27_shoe_is_six_decks_and_twelve_jokers() -> None:
    assert FINNISH.size == 324
    comp = FINNISH.composition()
    assert comp[JOKER] == 12 and comp[parse_card("AS")] == 6 and sum(comp.values()) == 324


def test_cards_dealt_left_and_penetration() -> None:
    shoe = Shoe.from_dealt(FINNISH, [parse_card(c) for c in ("AS", "JK", "9H")])
    assert shoe.cards_dealt == 3 and shoe.cards_left == 321
    assert shoe.penetration == pytest.approx(3 / 324)
    assert shoe.remaining()[parse_card("AS")] == 5


def test_the_finnish_27_shoe_is_shuffled_after_about_four_and_a_half_decks() -> None:
    shoe = Shoe(FINNISH)
    cards = FINNISH.shuffled(random.Random(1))
    for card in cards[:242]:
        shoe.deal(card)
    assert not shoe.shuffle_due
    shoe.deal(cards[242])
    assert shoe.shuffle_due  # the cut card at 243 came out: shuffle after this round


def test_a_dealt_count_rule_shuffles_at_n_or_more() -> None:
    spec = ShoeSpec(4, 0, ShuffleRule.CARDS_DEALT, 60)
    shoe = Shoe(spec)
    cards = spec.shuffled(random.Random(2))
    for card in cards[:59]:
        shoe.deal(card)
    assert not shoe.shuffle_due
    shoe.deal(cards[59])
    assert shoe.shuffle_due


def test_reshuffle_is_an_event_and_empties_the_discard() -> None:
    shoe = Shoe.from_dealt(FINNISH, FINNISH.shuffled(random.Random(3))[:250])
    event = shoe.reshuffle()
    assert event.cards_dealt == 250 and event.penetration == pytest.approx(250 / 324)
    assert shoe.cards_dealt == 0 and not shoe.shuffle_due


def test_a_seventh_copy_of_a_card_is_impossible_in_six_decks() -> None:
    shoe = Shoe.from_dealt(FINNISH, [parse_card("QH")] * 6)
    with pytest.raises(InvalidCard, match="impossible card QH"):
        shoe.deal(parse_card("QH"))
    assert shoe.cards_dealt == 6  # refused card leaves the shoe unchanged


def test_a_thirteenth_joker_is_impossible() -> None:
    shoe = Shoe.from_dealt(FINNISH, [JOKER] * 12)
    with pytest.raises(InvalidCard):
        shoe.deal(JOKER)


def test_a_joker_in_a_game_without_jokers_is_impossible() -> None:
    with pytest.raises(InvalidCard, match="without Jokers"):
        Shoe(ShoeSpec(8)).deal(JOKER)


@pytest.mark.parametrize("decks", [0, 17, -1])
def test_a_shoe_spec_refuses_a_bad_deck_count(decks: int) -> None:
    with pytest.raises(InvalidInput):
        ShoeSpec(decks)


def test_joker_count() -> None:
    assert joker_count([JOKER, parse_card("AS"), JOKER]) == 2


@settings(max_examples=50)
@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=324))
def test_a_shoe_never_deals_more_copies_of_a_card_than_it_holds(rng: random.Random, n: int) -> None:
    shoe = Shoe(FINNISH)
    cards = FINNISH.shuffled(rng)
    for card in cards[:n]:
        shoe.deal(card)
    comp = FINNISH.composition()
    assert all(shoe.remaining()[c] + shoe.dealt.count(c) == comp[c] for c in comp)
    # whatever is exhausted is refused
    for card in comp:
        if shoe.remaining()[card] == 0:
            with pytest.raises(InvalidCard):
                shoe.deal(card)
