"""The shoe as a witness of a scan: impossible reads give way only to a confident candidate; the
remaining composition weighs the reader's confidence."""

from __future__ import annotations

import pytest

from tables.engine.cards import parse_card
from tables.engine.shoe import Shoe, ShoeSpec
from tables.engine.witness import choose, weigh


def shoe_with(dealt: list[str], decks: int = 1, jokers: int = 0) -> Shoe:
    return Shoe.from_dealt(ShoeSpec(decks=decks, jokers_per_deck=jokers), [parse_card(c) for c in dealt])


def test_without_a_shoe_the_reader_s_confidence_stands() -> None:
    assert choose([("8S", 0.97)], None, 0.9) == parse_card("8S")
    assert choose([("8S", 0.85)], None, 0.9) is None
    assert [w.weighed for w in weigh([("8S", 0.6), ("8C", 0.3)], None)] == [0.6, 0.3]


def test_a_card_whose_copies_are_all_dealt_is_never_chosen_and_its_confidence_goes_to_zero() -> None:
    shoe = shoe_with(["AS"])  # one deck: the only ace of spades is gone
    ranked = weigh([("AS", 0.95), ("AH", 0.04)], shoe)
    assert ranked[0].card == parse_card("AH") and ranked[-1].weighed == 0.0
    assert choose([("AS", 0.95), ("AH", 0.04)], shoe, 0.9) is None  # the next candidate is not confident: ask


def test_an_impossible_top_read_gives_way_to_a_candidate_the_reader_is_itself_confident_of() -> None:
    shoe = shoe_with(["AS"])
    assert choose([("AS", 0.97), ("AH", 0.93)], shoe, 0.9) == parse_card("AH")


def test_a_joker_read_at_a_table_without_jokers_is_impossible() -> None:
    assert choose([("JK", 0.99)], shoe_with([]), 0.9) is None
    assert choose([("JK", 0.99)], shoe_with([], jokers=1), 0.9) is not None


def test_few_copies_left_lower_a_borderline_read_below_the_threshold() -> None:
    # Six decks; five of the six kings of hearts dealt: one copy left against about six of the average card.
    shoe = shoe_with(["KH"] * 5, decks=6)
    assert weigh([("KH", 0.95)], shoe)[0].weighed == pytest.approx(0.95 * (1 / 6.02) / (0.95 * (1 / 6.02) + 0.05), rel=0.01)
    assert choose([("KH", 0.95)], shoe, 0.9) is None  # the dealer is asked
    assert choose([("KH", 0.999)], shoe, 0.9) == parse_card("KH")  # a sure read stands


def test_codes_that_are_not_cards_are_dropped_and_duplicates_keep_their_best_confidence() -> None:
    ranked = weigh([("unknown", 0.5), ("8S", 0.2), ("8S", 0.4), ("ZZ", 0.9)], None)
    assert [(w.card.code, w.read) for w in ranked] == [("8S", 0.4)]
