"""Card values, totals, blackjacks and the dealer's drawing rule (both rule texts: 'Card Values')."""

from tables.engine.blackjack import card_points, dealer_must_hit, hand_total, is_blackjack, same_value

from .helpers import MINI, UNLIMITED, cards, rules_of


def test_court_cards_count_ten_and_number_cards_face_value():
    assert [card_points(c) for c in cards("2S 9H TD JC QS KH")] == [2, 9, 10, 10, 10, 10]


def test_ace_counts_eleven_when_that_does_not_bust():
    assert hand_total(cards("AS 6H")) == (17, True)


def test_ace_counts_one_when_eleven_would_bust():
    assert hand_total(cards("AS 6H 9D")) == (16, False)


def test_two_aces_are_soft_12():
    assert hand_total(cards("AS AH")) == (12, True)


def test_hard_total_over_21_is_bust():
    assert hand_total(cards("TS 6H 9D")) == (25, False)


def test_ace_and_ten_value_card_first_two_is_blackjack():
    assert is_blackjack(cards("AS KH")) and is_blackjack(cards("TD AC"))


def test_21_with_three_cards_is_not_blackjack():
    assert not is_blackjack(cards("AS 5H 5D"))


def test_21_after_split_is_not_blackjack():
    assert not is_blackjack(cards("AS KH"), after_split=True)


def test_split_by_value_ten_and_queen_are_a_pair():
    assert same_value(*cards("TS QH")) and not same_value(*cards("9S TH"))


def test_dealer_hits_16_and_stands_on_hard_17():
    rules = rules_of(UNLIMITED)
    assert dealer_must_hit(cards("TS 6H"), rules)
    assert not dealer_must_hit(cards("TS 7H"), rules)


def test_dealer_stands_on_soft_17_in_both_published_rule_sets():
    assert not dealer_must_hit(cards("AS 6H"), rules_of(UNLIMITED))
    assert not dealer_must_hit(cards("AS 6H"), rules_of(MINI))


def test_dealer_hits_soft_17_when_the_rule_set_says_so():
    assert dealer_must_hit(cards("AS 6H"), rules_of(UNLIMITED, dealer_hits_soft_17=True))
    assert not dealer_must_hit(cards("AS 6H TD"), rules_of(UNLIMITED, dealer_hits_soft_17=True))  # hard 17


def test_dealer_stands_on_hard_24():
    assert not dealer_must_hit(cards("TS 4H KD"), rules_of(UNLIMITED))
