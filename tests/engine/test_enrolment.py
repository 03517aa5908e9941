"""Deck enrolment's naming (pure): the deck being enrolled is the witness of each scan."""

from __future__ import annotations

import pytest

from tables.engine.cards import parse_card, parse_cards
from tables.engine.enrolment import (
    DECKS,
    card_words,
    check_namable,
    deck_cards,
    deck_for_game,
    name_scan,
    remaining,
)
from tables.engine.errors import InvalidInput
from tables.engine.games import GAMES

JOKERS, STANDARD = DECKS["jokers"], DECKS["standard"]


def test_a_sure_read_of_a_card_still_missing_is_named():
    naming = name_scan([("7H", 0.97), ("7D", 0.02)], JOKERS, [], 0.9)
    assert naming.outcome == "named" and naming.card == parse_card("7H") and naming.confidence >= 0.9


def test_cards_already_named_are_excluded_from_the_guesses_and_an_unsure_read_asks():
    named = parse_cards("7H 8H")
    naming = name_scan([("7H", 0.55), ("7D", 0.3), ("8H", 0.1)], JOKERS, named, 0.9)
    assert naming.outcome == "ask" and naming.card is None
    assert [w.card.code for w in naming.guesses] == ["7D"]  # neither 7H nor 8H: they are named


def test_the_next_candidate_is_named_only_when_the_reader_is_itself_sure_of_it():
    # 7H is named: its copy is gone, so 7D takes the belief; the reader gave 7D 0.93 of its own.
    assert name_scan([("7H", 0.95), ("7D", 0.93)], JOKERS, [parse_card("7H")], 0.9).card == parse_card("7D")
    # ... at 0.6 it is only a guess: ask.
    assert name_scan([("7H", 0.95), ("7D", 0.6)], JOKERS, [parse_card("7H")], 0.9).outcome != "named"


def test_a_sure_read_of_a_card_named_already_is_a_card_scanned_twice():
    naming = name_scan([("7H", 0.98)], JOKERS, parse_cards("7H 2S"), 0.9)
    assert naming.outcome == "duplicate" and naming.card == parse_card("7H")
    assert card_words(naming.card) == "the 7 of hearts"


def test_a_joker_deck_holds_two_jokers_and_a_52_card_deck_none():
    assert name_scan([("JK", 0.99)], JOKERS, [parse_card("JK")], 0.9).outcome == "named"
    assert name_scan([("JK", 0.99)], JOKERS, parse_cards("JK JK"), 0.9).outcome == "duplicate"
    assert name_scan([("JK", 0.99)], STANDARD, [], 0.9).outcome == "ask"  # no Joker in this deck: asked
    with pytest.raises(InvalidInput, match="not in a deck of 52 cards"):
        check_namable(STANDARD, [], "JK")
    with pytest.raises(InvalidInput) as err:
        check_namable(JOKERS, [], "ZZ")
    assert err.value.field == "code"


def test_the_grid_and_what_is_missing():
    assert len(deck_cards(STANDARD)) == 52 and len(deck_cards(JOKERS)) == 53
    assert DECKS["finnish"].spec.size == 54 and DECKS["finnish"].finnish_indices
    left = remaining(JOKERS, parse_cards("AS JK"))
    assert left[parse_card("AS")] == 0 and left[parse_card("JK")] == 1 and sum(left.values()) == 52


def test_each_game_suggests_the_deck_it_is_dealt_from():
    decks = {slug: deck_for_game(spec).slug for slug, spec in GAMES.items()}
    assert decks == {"finnish-27": "finnish", "unlimited-blackjack": "standard", "mini-blackjack": "standard",
                     "bluffjack": "standard", "contract-rummy": "jokers"}
