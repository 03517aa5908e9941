"""Card codes of shared/rules/README.md: parsing, printing, the Joker, errors naming the token."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.engine.cards import JOKER, Card, Rank, Suit, format_cards, parse_card, parse_cards, standard_deck
from tables.engine.errors import InvalidCard, InvalidInput


@pytest.mark.parametrize(
    ("code", "rank", "suit"),
    [("AS", Rank.ACE, Suit.SPADES), ("TH", Rank.TEN, Suit.HEARTS), ("10h", Rank.TEN, Suit.HEARTS),
     ("9d", Rank.NINE, Suit.DIAMONDS), ("kc", Rank.KING, Suit.CLUBS), (" 2S ", Rank.TWO, Suit.SPADES)],
)  # fmt: skip
def test_card_codes_parse_case_insensitively_with_10_for_t(code: str, rank: Rank, suit: Suit) -> None:
    card = parse_card(code)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize("code", ["JK", "jk", "Jk"])
def test_the_joker_is_jk(code: str) -> None:
    assert parse_card(code) is JOKER
    assert JOKER.is_joker and JOKER.code == "JK"


@pytest.mark.parametrize("token", ["1S", "AX", "11H", "", "A", "JOKER", "TT", "SA"])
def test_a_bad_code_is_an_error_naming_the_token(token: str) -> None:
    with pytest.raises(InvalidCard) as err:
        parse_card(token, field="cards[2]")
    assert repr(token) in str(err.value)
    assert err.value.field == "cards[2]"
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("token", [None, 14, 1.5, ["AS"], {"code": "AS"}])
def test_a_non_string_code_is_an_error(token: object) -> None:
    with pytest.raises(InvalidInput):
        parse_card(token)


def test_printing_gives_the_canonical_code() -> None:
    assert str(parse_card("10d")) == "TD"
    assert format_cards(parse_cards("as, 10h jk")) == "AS TH JK"


def test_parse_cards_names_the_position_of_the_bad_token() -> None:
    with pytest.raises(InvalidCard) as err:
        parse_cards(["AS", "ZZ"], field="dealer.cards")
    assert err.value.field == "dealer.cards[1]"


def test_a_card_has_both_rank_and_suit_or_neither() -> None:
    with pytest.raises(InvalidCard):
        Card(Rank.ACE, None)


def test_cards_are_frozen_and_equal_by_value() -> None:
    a, b = parse_card("QS"), Card(Rank.QUEEN, Suit.SPADES)
    assert a == b and hash(a) == hash(b)
    with pytest.raises(AttributeError):
        a.rank = Rank.KING  # type: ignore[misc]


def test_a_deck_holds_52_distinct_cards_plus_its_jokers() -> None:
    deck = standard_deck(jokers=2)
    assert len(deck) == 54 and len(set(deck)) == 53 and deck.count(JOKER) == 2


@given(st.sampled_from(standard_deck(jokers=1)))
def test_every_code_round_trips(card: Card) -> None:
    assert parse_card(card.code) == card
    assert parse_card(card.code.lower()) == card


def test_jokers_sort_last() -> None:
    assert sorted([JOKER, parse_card("2C"), parse_card("AS")])[-1] is JOKER
