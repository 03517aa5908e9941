"""Hands not played by the rules are violations of verification (settled as they lie), each with a
stable rule id."""

from tables.engine import verify_round

from .helpers import MINI, UNLIMITED, hand, one, request, rules_ids, seat


def verify(game, dealer, *hands, **seat_extra):
    return verify_round(request(game, dealer, seat(1, "10.00", list(hands), **seat_extra)))


def test_correctly_played_split_has_no_violation():
    assert verify(UNLIMITED, "6H TC 9S", hand("8S 3D QC"), hand("8H 9C"))["violations"] == []


def test_hit_after_split_aces():
    ans = verify(UNLIMITED, "9H 8C", hand("AS 5D 4C"), hand("AH 9C"))
    assert rules_ids(ans) == ["blackjack.hit-after-split-aces"]
    assert ans["violations"][0]["hand"] == 0


def test_double_on_three_cards():
    ans = verify(UNLIMITED, "9H 8C", hand("2S 3D 4C 9H", doubled=True))
    assert rules_ids(ans) == ["blackjack.double-on-three-cards"]
    assert one(ans)["wager"] == "20.00"  # settled as it lies


def test_unequal_split():
    ans = verify(UNLIMITED, "9H 8C", hand("9S 9D"), hand("TH 8C"))
    assert rules_ids(ans) == ["blackjack.unequal-split"]


def test_more_than_one_split():
    ans = verify(UNLIMITED, "9H 8C", hand("8S TD"), hand("8H TC"), hand("8D TH"))
    assert "blackjack.too-many-splits" in rules_ids(ans)


def test_double_after_split_where_the_rule_set_forbids_it():
    ans = verify(MINI, "9H 8C", hand("8S 3D TC", doubled=True), hand("8H 9C"))
    assert rules_ids(ans) == ["blackjack.double-after-split"]


def test_double_after_split_is_fine_in_unlimited():
    ans = verify(UNLIMITED, "9H 8C", hand("8S 3D TC", doubled=True), hand("8H 9C"))
    assert ans["violations"] == []


def test_double_without_its_card():
    assert rules_ids(verify(UNLIMITED, "9H 8C", hand("5S 6D", doubled=True))) == ["blackjack.double-without-card"]


def test_double_on_split_aces():
    ans = verify(UNLIMITED, "9H 8C", hand("AS 5D", doubled=True), hand("AH 9C"))
    assert rules_ids(ans) == ["blackjack.double-on-split-aces"]


def test_hit_after_bust():
    assert rules_ids(verify(UNLIMITED, "9H 8C", hand("TS 6D 9C 2H"))) == ["blackjack.hit-after-bust"]


def test_hit_on_21_where_the_hand_stands_automatically():
    assert rules_ids(verify(MINI, "9H 8C", hand("5S 6D TC 2H"))) == ["blackjack.hit-on-21"]


def test_hit_on_21_is_allowed_in_unlimited():
    assert verify(UNLIMITED, "9H 8C", hand("5S 6D TC"))["violations"] == []


def test_played_on_a_blackjack():
    ans = verify(UNLIMITED, "9H 8C", hand("AS KD 5C"))
    assert rules_ids(ans) == ["blackjack.played-on-blackjack"]
    assert one(ans)["result"] == "lose"  # settled as it lies: 16 against 17
