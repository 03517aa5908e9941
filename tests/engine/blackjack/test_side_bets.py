"""Perfect Pairs and 21+3 (Unlimited Blackjack 'SIDE BETS'): categories, pay tables, initial cards only."""

import pytest

from tables.engine import verify_round
from tables.engine.errors import InvalidInput
from tables.engine.sidebets import perfect_pairs_kind, twenty_one_plus_three_kind

from .helpers import MINI, UNLIMITED, cards, hand, one, request, seat


def pp(text):
    return perfect_pairs_kind(*cards(text))


def t3(text):
    return twenty_one_plus_three_kind(*cards(text))


def test_perfect_pair_is_same_rank_same_suit():
    assert pp("AS AS") == "perfect"


def test_coloured_pair_is_same_rank_same_colour_other_suit():
    assert pp("2D 2H") == "coloured" and pp("7S 7C") == "coloured"


def test_mixed_pair_is_same_rank_different_colour():
    assert pp("TH TC") == "mixed"


def test_ten_and_king_are_not_a_pair_for_perfect_pairs():
    assert pp("TH KH") is None


def test_suited_trips_are_three_identical_cards():
    assert t3("QH QH QH") == "suited-trips"


def test_straight_flush_is_a_suited_sequence():
    assert t3("TD JD QD") == "straight-flush"


def test_three_of_a_kind_is_same_rank_not_all_same_suit():
    assert t3("KS KH KD") == "three-of-a-kind" and t3("KS KS KD") == "three-of-a-kind"


def test_straight_is_a_sequence_of_mixed_suits():
    assert t3("2S 3C 4H") == "straight"


def test_ace_low_straight_a_2_3():
    assert t3("AS 2C 3H") == "straight" and t3("3D AD 2D") == "straight-flush"


def test_ace_high_straight_q_k_a():
    assert t3("QS KC AH") == "straight"


def test_straight_does_not_wrap_k_a_2():
    assert t3("KS AC 2H") is None


def test_flush_is_three_of_one_suit():
    assert t3("2C 6C TC") == "flush"


def test_nothing_is_none():
    assert t3("2C 6H TC") is None


def _side_round(first_two, up, wager_key, paytable=None, dealer_rest="7C"):
    h = hand(first_two)
    req = request(UNLIMITED, f"{up} {dealer_rest}", seat(1, "10.00", [h], wagers={wager_key: "5.00"}))
    if paytable:
        req["pay_table"] = paytable
    return verify_round(req)


@pytest.mark.parametrize(("first_two", "kind", "net"), [
    ("8S 8S", "Perfect Pair", "125.00"), ("8D 8H", "Colored Pair", "60.00"), ("8S 8H", "Mixed Pair", "30.00"),
])
def test_perfect_pairs_pays_each_tier_25_12_6(first_two, kind, net):
    line = one(_side_round(first_two, "TC", "perfect-pairs"), "perfect-pairs")
    assert (line["result"], line["net"]) == ("win", net) and kind in line["detail"]


@pytest.mark.parametrize(("first_two", "up", "net"), [
    ("QH QH", "QH", "500.00"), ("TD JD", "QD", "200.00"), ("KS KH", "KD", "125.00"),
    ("2S 3C", "4H", "50.00"), ("2C 6C", "TC", "25.00"), ("AS 2C", "3H", "50.00"), ("QS KC", "AH", "50.00"),
])
def test_21_plus_3_pays_each_category_100_40_25_10_5(first_two, up, net):
    line = one(_side_round(first_two, up, "21+3"), "21+3")
    assert (line["result"], line["net"]) == ("win", net)


def test_21_plus_3_k_a_2_loses():
    line = one(_side_round("KS AC", "2H", "21+3"), "21+3")
    assert (line["result"], line["net"]) == ("lose", "-5.00")


def test_side_bet_pays_from_the_requests_pay_table():
    table = {"lines": [{"name": "perfect-pairs/mixed", "pays": {"odds": "5:1"}}]}
    assert one(_side_round("8S 8H", "TC", "perfect-pairs", table), "perfect-pairs")["net"] == "25.00"


def test_side_bets_settle_independently_of_the_main_hand():
    # The pair of 8s busts the main hand but Perfect Pairs still pays.
    req = request(UNLIMITED, "TC 7C", seat(1, "10.00", [hand("8S 8H TD")], wagers={"perfect-pairs": "5.00"}))
    ans = verify_round(req)
    assert one(ans)["result"] == "lose" and one(ans, "perfect-pairs")["net"] == "30.00"


def test_side_bets_use_the_first_two_cards_after_a_split():
    req = request(UNLIMITED, "6H TC 9S", seat(1, "10.00", [hand("8S 8S"), hand("8S 9C")],
                                               wagers={"perfect-pairs": "5.00", "21+3": "5.00"}))
    ans = verify_round(req)
    # Initial cards 8S 8S (perfect pair), not 8S + the second card of the first split hand.
    assert one(ans, "perfect-pairs")["net"] == "125.00"


def test_mini_blackjack_has_no_side_bets():
    req = request(MINI, "TC 7C", seat(1, "10.00", [hand("8S 8H")], wagers={"perfect-pairs": "5.00"}))
    with pytest.raises(InvalidInput) as err:
        verify_round(req)
    assert err.value.field == "seats[0].wagers.perfect-pairs"


def test_side_bet_only_with_a_main_bet():
    req = request(UNLIMITED, "TC 7C", seat(1, None, [], wagers={"perfect-pairs": "5.00"}))
    with pytest.raises(InvalidInput) as err:
        verify_round(req)
    assert err.value.field == "seats[0].wagers.main"
