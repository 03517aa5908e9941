"""Poker evaluator: best five of five or more cards, wild Jokers, multi-deck hands, category orders."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine.cards import JOKER, Card, parse_cards, standard_deck
from tables.engine.errors import InvalidInput
from tables.engine.poker import FINNISH, STANDARD, CategoryOrder, evaluate

treys = pytest.importorskip("treys")


def ev(codes: str, order: CategoryOrder = FINNISH):  # type: ignore[no-untyped-def]
    return evaluate(parse_cards(codes), order)


@pytest.mark.parametrize(
    ("codes", "category"),
    [
        ("AS KD 9H 5C 2D", "high-card"),
        ("AS AD 9H 5C 2D", "one-pair"),
        ("AS AD 9H 9C 2D", "two-pair"),
        ("AS AD AH 9C 2D", "three-of-a-kind"),
        ("AS 2D 3H 4C 5D", "straight"),
        ("TS JD QH KC AD", "straight"),
        ("AS AD AH 9C 9D", "full-house"),
        ("AS AD AH AC 9D", "four-of-a-kind"),
        ("AS 9S 7S 4S 2S", "flush"),
        ("5S 6S 7S 8S 9S", "straight-flush"),
    ],
)
def test_the_ten_categories_of_the_rule_text(codes: str, category: str) -> None:
    assert ev(codes).category == category


def test_no_wrap_around_straight() -> None:
    assert ev("QS KD AH 2C 3D").category == "high-card"


def test_finnish_order_puts_a_flush_above_four_of_a_kind_and_a_full_house() -> None:
    flush, quads, full = ev("AS 9S 7S 4S 2S"), ev("KS KD KH KC 9D"), ev("KS KD KH 9C 9D")
    assert flush.strength > quads.strength > full.strength


def test_standard_order_puts_a_flush_below_a_full_house() -> None:
    flush, full = ev("AS 9S 7S 4S 2S", STANDARD), ev("2S 2D 2H 3C 3D", STANDARD)
    assert full.strength > flush.strength


def test_with_seven_cards_the_finnish_order_prefers_the_flush_to_the_quads() -> None:
    cards = "KS KD KH KC 2S 7S 9S 4S JS"
    assert ev(cards).category == "flush"
    assert ev(cards, STANDARD).category == "four-of-a-kind"


def test_five_of_a_kind_from_several_decks_tops_both_orders() -> None:
    assert ev("9S 9S 9H 9D 9C").category == "five-of-a-kind"
    assert ev("9S 9S 9H 9D 9C", STANDARD).strength > ev("TS JS QS KS AS", STANDARD).strength


def test_a_multi_deck_flush_may_hold_a_pair() -> None:
    hand = ev("AS AS 9S 4S 2S")
    assert hand.category == "flush"
    assert hand.strength > ev("AS KS 9S 4S 2S").strength  # A-A-9-4-2 beats A-K-9-4-2


def test_a_joker_stands_for_the_card_it_completes_and_is_shown_as_it() -> None:
    hand = ev("5S 6S 7S 8S JK")
    assert hand.category == "straight-flush"
    assert [c.code for c in hand.cards] == ["9S", "8S", "7S", "6S", "5S"]
    assert hand.wild == (True, False, False, False, False)


def test_two_jokers_make_five_of_a_kind_with_trips() -> None:
    hand = ev("7D 7C 7H JK JK 2S")
    assert hand.category == "five-of-a-kind"
    assert sum(hand.wild) == 2 and {c.rank for c in hand.cards} == {hand.cards[0].rank}


def test_jokers_in_a_flush_play_as_aces_of_the_suit() -> None:
    hand = ev("KH 9H 5H 2H JK 3C")
    assert hand.category == "flush"
    assert hand.cards[0].code == "AH" and hand.wild[0]


def test_a_joker_fills_an_inside_straight_and_the_wheel() -> None:
    assert ev("AS 2D 3H 5C JK").strength == ev("AS 2D 3H 4C 5D").strength
    assert ev("9S TD JK QC KD").strength[1:] == (13,)


def test_all_jokers_are_five_aces() -> None:
    hand = evaluate([JOKER] * 5)
    assert hand.category == "five-of-a-kind" and all(c.rank == 14 for c in hand.cards)


def test_the_five_cards_used_are_returned() -> None:
    hand = ev("2C 3D KS KD 9H 9C 4S")
    assert hand.category == "two-pair"
    assert sorted(c.code for c in hand.cards) == sorted(["KS", "KD", "9H", "9C", "4S"])
    assert hand.strength[1:] == (13, 9, 4)


def test_fewer_than_five_cards_is_an_error() -> None:
    with pytest.raises(InvalidInput):
        ev("AS KS QS JS")


def test_a_category_order_must_list_each_category_once() -> None:
    with pytest.raises(InvalidInput):
        CategoryOrder("bad", ["high-card"] * 10)


def _brute(cards: list[Card], order: CategoryOrder) -> tuple[int, ...]:
    """Reference: try every five of the cards and every value of every Joker."""
    real = standard_deck()
    best: tuple[int, ...] = ()
    for five in combinations(cards, 5):
        jokers = [i for i, c in enumerate(five) if c.is_joker]
        if not jokers:
            best = max(best, evaluate(list(five), order).strength)
            continue
        fixed = [c for c in five if not c.is_joker]
        # one Joker in the five: try all 52 stand-ins (duplicates allowed)
        assert len(jokers) == 1
        for sub in real:
            best = max(best, evaluate(fixed + [sub], order).strength)
    return best


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(standard_deck() + [JOKER]), min_size=5, max_size=6), st.sampled_from([FINNISH, STANDARD]))
def test_the_best_hand_is_the_best_of_every_five_and_every_joker_value(cards: list[Card], order: CategoryOrder) -> None:
    if sum(c.is_joker for c in cards) > 1:
        cards = [c for c in cards if not c.is_joker] + [JOKER]
        if len(cards) < 5:
            return
    assert evaluate(cards, order).strength == _brute(cards, order)


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(standard_deck() + [JOKER]), min_size=5, max_size=9),
    st.data(),
    st.sampled_from([FINNISH, STANDARD]),
)
def test_replacing_a_card_by_a_joker_never_lowers_the_hand(cards: list[Card], data: st.DataObject, order: CategoryOrder) -> None:
    i = data.draw(st.integers(min_value=0, max_value=len(cards) - 1))
    before = evaluate(cards, order)
    after = evaluate(cards[:i] + [JOKER] + cards[i + 1 :], order)
    assert after.strength >= before.strength
    assert order.index[after.category] >= order.index[before.category]


@settings(max_examples=200)
@given(st.lists(st.sampled_from(standard_deck() + [JOKER]), min_size=5, max_size=12))
def test_the_five_cards_shown_are_the_hand_they_claim(cards: list[Card]) -> None:
    hand = evaluate(cards, FINNISH)
    assert len(hand.cards) == 5 and len(hand.wild) == 5
    assert evaluate(list(hand.cards), FINNISH).strength == hand.strength
    real = [c for c, w in zip(hand.cards, hand.wild, strict=True) if not w]
    pool = list(cards)
    for c in real:  # every real card shown is one of the hand's cards
        pool.remove(c)
    assert sum(hand.wild) <= sum(c.is_joker for c in cards)


TREYS_CLASS = {1: "straight-flush", 2: "four-of-a-kind", 3: "full-house", 4: "flush", 5: "straight",
               6: "three-of-a-kind", 7: "two-pair", 8: "one-pair", 9: "high-card"}  # fmt: skip


def _treys_pairs(n: int, size: int, seed: int):  # type: ignore[no-untyped-def]
    evaluator = treys.Evaluator()
    deck = standard_deck()
    to_treys = {c: treys.Card.new(c.code[0] + c.code[1].lower()) for c in deck}
    rng = random.Random(seed)
    for _ in range(n):
        a, b = rng.sample(deck, size), rng.sample(deck, size)
        ta = evaluator.evaluate([to_treys[c] for c in a[:2]], [to_treys[c] for c in a[2:]])
        tb = evaluator.evaluate([to_treys[c] for c in b[:2]], [to_treys[c] for c in b[2:]])
        yield a, b, ta, tb, evaluator


@pytest.mark.parametrize("size", [5, 6, 7])
def test_standard_order_agrees_with_treys_on_random_single_deck_hands(size: int) -> None:
    for a, b, ta, tb, evaluator in _treys_pairs(4000, size, seed=size):
        ha, hb = evaluate(a, STANDARD), evaluate(b, STANDARD)
        assert ha.category == TREYS_CLASS[evaluator.get_rank_class(ta)]
        # treys: lower is better
        assert (ha.strength > hb.strength) == (ta < tb) and (ha.strength == hb.strength) == (ta == tb)


def test_finnish_order_agrees_with_treys_except_flush_against_quads_or_full_house() -> None:
    differ = 0
    for a, b, ta, tb, _ in _treys_pairs(6000, 7, seed=11):
        ha, hb = evaluate(a, FINNISH), evaluate(b, FINNISH)
        cats = {ha.category, hb.category}
        if "flush" in cats and cats & {"four-of-a-kind", "full-house"}:
            differ += 1
            assert (ha.strength > hb.strength) == (ha.category == "flush")
            continue
        assert (ha.strength > hb.strength) == (ta < tb) and (ha.strength == hb.strength) == (ta == tb)
    assert differ > 0  # the sample does hit the designed difference


@pytest.mark.slow
def test_standard_order_agrees_with_treys_on_a_large_sample() -> None:
    for a, b, ta, tb, _ in _treys_pairs(100_000, 7, seed=99):
        ha, hb = evaluate(a, STANDARD), evaluate(b, STANDARD)
        assert (ha.strength > hb.strength) == (ta < tb) and (ha.strength == hb.strength) == (ta == tb)


@settings(max_examples=400)
@given(st.lists(st.sampled_from(standard_deck()), min_size=5, max_size=14), st.sampled_from([FINNISH, STANDARD]))
def test_the_fast_no_joker_path_agrees_with_the_general_search(cards: list[Card], order: CategoryOrder) -> None:
    from tables.engine import poker

    cnt = [0] * 15
    for c in cards:
        cnt[c.rank] += 1  # type: ignore[index]
    masks = [sum(1 << r for r in range(15) if cnt[r] >= n) for n in (1, 2, 3, 4, 5)]
    category, key, _ = poker._plain_masks(*masks)
    index, general_key, _ = poker._best_plain(cnt, 0, order)
    assert (order.index[category], key) == (index, general_key)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(standard_deck()), min_size=3, max_size=3), st.sampled_from([FINNISH, STANDARD]))
def test_two_jokers_are_as_good_as_the_best_pair_of_stand_ins(cards: list[Card], order: CategoryOrder) -> None:
    deck = standard_deck()
    best = max(
        evaluate(cards + [a, b], order).strength for i, a in enumerate(deck) for b in deck[i:]
    )
    assert evaluate(cards + [JOKER, JOKER], order).strength == best
