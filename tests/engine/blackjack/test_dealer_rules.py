"""The dealer's hand in verification: draws to 17, stands on 17s (or hits soft 17), never draws after
every hand is decided; a dealer bust pays every standing hand."""

from tables.engine import verify_round

from .helpers import MINI, UNLIMITED, hand, one, request, rules_ids, seat


def test_dealer_completed_by_the_rule_has_no_violation():
    ans = verify_round(request(UNLIMITED, "6H TC 9S", seat(1, "10.00", [hand("TS 8H")])))
    assert ans["violations"] == []


def test_dealer_stood_below_17_is_a_violation():
    ans = verify_round(request(UNLIMITED, "6H TC", seat(1, "10.00", [hand("TS 8H")])))
    assert rules_ids(ans) == ["blackjack.dealer-stood-below-17"]
    assert one(ans)["result"] == "win"  # settled as the hands lie: 18 beats 16


def test_dealer_drew_on_hard_17_is_a_violation():
    ans = verify_round(request(UNLIMITED, "TH 7C 2S", seat(1, "10.00", [hand("TS 8H")])))
    assert rules_ids(ans) == ["blackjack.dealer-drew-on-17-or-more"]


def test_dealer_drew_on_soft_17_under_stand_on_all_17s_is_a_violation():
    ans = verify_round(request(MINI, "AH 6C 2S", seat(1, "10.00", [hand("TS 8H")])))
    assert rules_ids(ans) == ["blackjack.dealer-drew-on-17-or-more"]


def test_dealer_stood_on_soft_17_when_the_rule_set_hits_soft_17():
    ans = verify_round(request(UNLIMITED, "AH 6C", seat(1, "10.00", [hand("TS 8H")]),
                               rules={"dealer_hits_soft_17": True}))
    assert rules_ids(ans) == ["blackjack.dealer-stood-on-soft-17"]


def test_dealer_drew_after_every_hand_busted():
    ans = verify_round(request(UNLIMITED, "6H TC 9S", seat(1, "10.00", [hand("TS 6H KD")])))
    assert rules_ids(ans) == ["blackjack.dealer-drew-after-decided"]


def test_dealer_drew_after_a_player_blackjack_decided_the_only_hand():
    ans = verify_round(request(UNLIMITED, "6H TC 2S", seat(1, "10.00", [hand("AS KD")])))
    assert rules_ids(ans) == ["blackjack.dealer-drew-after-decided"]
    assert one(ans)["result"] == "blackjack"


def test_dealer_only_turns_the_hole_card_when_every_hand_is_decided():
    ans = verify_round(request(UNLIMITED, "6H TC", seat(1, "10.00", [hand("TS 6H KD")])))
    assert ans["violations"] == []


def test_dealer_bust_pays_every_hand_that_did_not_bust():
    ans = verify_round(request(UNLIMITED, "6H TC 9S", seat(1, "10.00", [hand("TS 2H")]),
                               seat(2, "10.00", [hand("TS 6H KD")])))
    nets = {s["seat"]: s["lines"][0]["net"] for s in ans["seats"]}
    assert nets == {1: "10.00", 2: "-10.00"}


def test_equal_totals_push():
    ans = verify_round(request(MINI, "TH 8C", seat(1, "10.00", [hand("9S 9H")])))
    assert (one(ans)["result"], one(ans)["net"]) == ("push", "0.00")


def test_higher_total_wins_one_to_one_and_lower_loses():
    win = verify_round(request(UNLIMITED, "TH 8C", seat(1, "10.00", [hand("TS 9H")])))
    lose = verify_round(request(UNLIMITED, "TH 8C", seat(1, "10.00", [hand("TS 7H")])))
    assert one(win)["net"] == "10.00" and one(lose)["net"] == "-10.00"


def test_blackjack_pays_3_to_2_and_beats_21_of_three_cards():
    bj = verify_round(request(UNLIMITED, "TH 5C 6D", seat(1, "10.00", [hand("AS KH")])))
    assert (one(bj)["result"], one(bj)["net"]) == ("blackjack", "15.00")


def test_blackjack_pay_rounds_down_to_the_cent():
    bj = verify_round(request(UNLIMITED, "TH 7C", seat(1, "5.01", [hand("AS KH")])))
    assert one(bj)["net"] == "7.51"


def test_blackjack_odds_come_from_the_pay_table():
    req = request(UNLIMITED, "TH 7C", seat(1, "10.00", [hand("AS KH")]),
                  pay_table={"lines": [{"name": "main/blackjack", "pays": {"odds": "6:5"}}]})
    assert one(verify_round(req))["net"] == "12.00"
