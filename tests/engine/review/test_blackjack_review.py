"""Independent review of Unlimited and Mini Blackjack verification against the rule texts.

Expected answers are worked out by hand from shared/rules/unlimited-blackjack.txt,
mini-blackjack.txt and the readings of shared/rules/README.md (arithmetic next to each case); the
engine's helpers are not used to compute them.  Main bet 10.00, side bets 5.00 unless stated.
"""

from __future__ import annotations

from typing import Any

import pytest

from tables.engine import verify_round

UNL = "unlimited-blackjack"
MINI = "mini-blackjack"


def hand(cards: str, doubled: bool = False, surrendered: bool = False) -> dict[str, Any]:
    return {"cards": cards.split(), "doubled": doubled, "surrendered": surrendered}


def seat(n: int, hands: list[dict[str, Any]] | None, main: str | None = "10.00", **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": n}
    wagers = dict(kw.pop("wagers", {}))
    if main is not None:
        wagers = {"main": main, **wagers}
    if wagers:
        out["wagers"] = wagers
    if hands is not None:
        out["hands"] = hands
    out.update(kw)
    return out


def req(game: str, dealer: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"game": game, "table_minimum": "5.00", "dealer": {"cards": dealer.split()}, "seats": seats, **extra}


def lines_of(answer: dict[str, Any], i: int = 0) -> list[tuple[Any, ...]]:
    return [(ln["bet"], ln["wager"], ln["net"], ln.get("hand"), ln.get("behind")) for ln in answer["seats"][i]["lines"]]


def rules_of(answer: dict[str, Any]) -> set[str]:
    return {v["rule"] for v in answer["violations"]}


def main(wager: str, net: str, hand_index: int | None = None) -> tuple[Any, ...]:
    return ("main", wager, net, hand_index, None)


def behind(wager: str, net: str, j: int = 0, hand_index: int | None = None, bet: str = "behind") -> tuple[Any, ...]:
    return (bet, wager, net, hand_index, j)


def side(bet: str, net: str, wager: str = "5.00") -> tuple[Any, ...]:
    return (bet, wager, net, None, None)


def single(game: str, dealer: str, hands: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    return verify_round(req(game, dealer, [seat(1, hands, **kw)]))


# --- Unlimited: no peek, a dealer blackjack takes everything -------------------------------------

def test_no_peek_dealer_blackjack_takes_the_doubled_bet():
    # 5+6 doubled, 9 -> 20; dealer A-K blackjack: the doubled stake 20 is lost.
    ans = single(UNL, "AS KH", [hand("5H 6D 9C", doubled=True)])
    assert lines_of(ans) == [main("20.00", "-20.00")]
    assert ans["seats"][0]["total_net"] == "-20.00" and ans["violations"] == []


def test_no_peek_dealer_blackjack_takes_both_split_hands_and_a_double_after_split():
    # Split 8s: 8-3 doubled + 9 = 20 (stake 20), 8-9 = 17 (stake 10); dealer T-A blackjack: -30.
    ans = single(UNL, "TS AH", [hand("8S 3D 9C", doubled=True), hand("8H 9C")])
    assert lines_of(ans) == [main("20.00", "-20.00", 0), main("10.00", "-10.00", 1)]
    assert ans["seats"][0]["total_net"] == "-30.00" and ans["violations"] == []


def test_blackjack_against_dealer_blackjack_pushes():
    ans = single(UNL, "AS KH", [hand("AD QC")])
    assert lines_of(ans) == [main("10.00", "0.00")] and ans["seats"][0]["lines"][0]["result"] == "push"


def test_blackjack_beats_a_dealer_21_of_three_cards_at_3_to_2():
    ans = single(UNL, "9S 5H 7C", [hand("AS KD")])
    assert lines_of(ans) == [main("10.00", "15.00")]


def test_blackjack_3_to_2_is_rounded_down_to_the_cent():
    ans = single(UNL, "9S 5H 7C", [hand("AS KD")], main="5.01")
    assert lines_of(ans) == [main("5.01", "7.51")]  # 1.5 x 5.01 = 7.515


def test_split_aces_with_a_ten_is_21_paid_even_money():
    # Split Aces: A-K = 21 (not a blackjack) and A-9 = soft 20 against dealer 17: +10 +10.
    ans = single(UNL, "9S 8H", [hand("AS KD"), hand("AH 9C")])
    assert lines_of(ans) == [main("10.00", "10.00", 0), main("10.00", "10.00", 1)]
    assert ans["violations"] == []


def test_split_aces_21_only_pushes_a_dealer_21_and_loses_to_a_dealer_blackjack():
    ans = single(UNL, "9S 5H 7C", [hand("AS KD"), hand("AH 9C")])
    assert lines_of(ans) == [main("10.00", "0.00", 0), main("10.00", "-10.00", 1)]
    ans = single(UNL, "TS AC", [hand("AS KD"), hand("AH 9C")])
    assert lines_of(ans) == [main("10.00", "-10.00", 0), main("10.00", "-10.00", 1)]


def test_ten_and_queen_split_as_cards_of_the_same_value():
    ans = single(UNL, "9S 8H", [hand("TS 9D"), hand("QH 8C")])
    assert lines_of(ans) == [main("10.00", "10.00", 0), main("10.00", "10.00", 1)]
    assert ans["violations"] == []


def test_hit_after_split_aces_is_a_violation():
    ans = single(UNL, "9S 8H", [hand("AS 5D 4C"), hand("AH 9C")])
    assert "blackjack.hit-after-split-aces" in rules_of(ans)
    assert lines_of(ans) == [main("10.00", "10.00", 0), main("10.00", "10.00", 1)]  # as the hands lie: 20, 20


def test_unequal_split_and_second_split_are_violations():
    assert "blackjack.unequal-split" in rules_of(single(UNL, "9S 8H", [hand("9S 9D"), hand("8C 9C")]))
    three = single(UNL, "9S 8H", [hand("8S 9D"), hand("8C 9C"), hand("8D TC")])
    assert "blackjack.too-many-splits" in rules_of(three)


def test_double_on_three_cards_is_a_violation():
    ans = single(UNL, "9S 8H", [hand("2S 3D 5C 9H", doubled=True)])
    assert "blackjack.double-on-three-cards" in rules_of(ans)
    assert lines_of(ans) == [main("20.00", "20.00")]  # 19 beats 17, stake 20


def test_push_on_equal_totals():
    ans = single(UNL, "9S 9H", [hand("TS 8D")])
    assert lines_of(ans) == [main("10.00", "0.00")] and ans["seats"][0]["total_net"] == "0.00"


def test_bust_player_loses_even_when_the_dealer_busts():
    ans = single(UNL, "6H TC 9S", [hand("TS 6D 8C")])
    assert lines_of(ans) == [main("10.00", "-10.00")]


# --- Dealer drawing rule -----------------------------------------------------------------------------

def test_dealer_stands_on_soft_17_by_default():
    ans = single(UNL, "6H AS", [hand("TS 8D")])
    assert lines_of(ans) == [main("10.00", "10.00")] and ans["violations"] == []
    drew = single(UNL, "6H AS 4C", [hand("TS 8D")])
    assert "blackjack.dealer-drew-on-17-or-more" in rules_of(drew)
    assert lines_of(drew) == [main("10.00", "-10.00")]  # as it lies: 21 beats 18


def test_dealer_hits_soft_17_when_the_rule_set_says_so():
    h17 = {"dealer_hits_soft_17": True}
    ans = verify_round(req(UNL, "6H AS 4C", [seat(1, [hand("TS 8D")])], rules=h17))
    assert lines_of(ans) == [main("10.00", "-10.00")] and ans["violations"] == []
    stood = verify_round(req(UNL, "6H AS", [seat(1, [hand("TS 8D")])], rules=h17))
    assert "blackjack.dealer-stood-on-soft-17" in rules_of(stood)
    assert lines_of(stood) == [main("10.00", "10.00")]


def test_dealer_must_draw_on_16_and_stand_on_hard_17():
    assert "blackjack.dealer-stood-below-17" in rules_of(single(UNL, "TH 6C", [hand("TS 5D")]))
    assert "blackjack.dealer-drew-on-17-or-more" in rules_of(single(UNL, "TH 7C 2D", [hand("TS 8D")]))


def test_dealer_draw_when_every_hand_is_bust_is_a_violation():
    ans = single(UNL, "TH 6C 5D", [hand("TS 6D 8C")])
    assert "blackjack.dealer-drew-after-decided" in rules_of(ans)


# --- Insurance and surrender ------------------------------------------------------------------------

def test_insurance_pays_2_to_1_on_half_the_bet_when_the_dealer_has_blackjack():
    # Main lost (-10), insurance 5 at 2:1 (+10): even.
    ans = single(UNL, "AS KH", [hand("9S 7D")], wagers={"insurance": "5.00"})
    assert lines_of(ans) == [main("10.00", "-10.00"), side("insurance", "10.00")]
    assert ans["seats"][0]["total_net"] == "0.00" and ans["violations"] == []


def test_insurance_is_lost_without_a_dealer_blackjack():
    ans = single(UNL, "AS 7H", [hand("TS 9D")], wagers={"insurance": "5.00"})
    assert lines_of(ans) == [main("10.00", "10.00"), side("insurance", "-5.00")]
    assert ans["seats"][0]["total_net"] == "5.00"


def test_insurance_not_half_the_bet_or_not_against_an_ace_is_a_violation():
    assert "blackjack.insurance-not-half" in rules_of(single(UNL, "AS 7H", [hand("TS 9D")], wagers={"insurance": "4.00"}))
    assert "blackjack.insurance-not-offered" in rules_of(single(UNL, "KS 7H", [hand("TS 9D")], wagers={"insurance": "5.00"}))


def test_surrender_against_an_ace_returns_half_the_bet():
    ans = single(UNL, "AS 6H", [hand("TS 6D", surrendered=True)])
    assert lines_of(ans) == [main("10.00", "-5.00")]
    assert ans["seats"][0]["lines"][0]["result"] == "surrender"
    assert ans["violations"] == []  # nothing left to play for: the dealer only turns the hole card


def test_surrender_is_made_before_the_hole_card_so_it_stands_against_a_dealer_blackjack():
    # Unlimited offers surrender with the insurance, when the Ace shows and before the (unpeeked)
    # hole card is known: the half bet is returned even though the dealer then shows blackjack.
    ans = single(UNL, "AS KH", [hand("TS 6D", surrendered=True)])
    assert lines_of(ans) == [main("10.00", "-5.00")] and ans["violations"] == []


def test_surrender_against_a_ten_is_not_offered():
    ans = single(UNL, "TS 6H 2C", [hand("TS 6D", surrendered=True)])
    assert "blackjack.surrender-not-offered" in rules_of(ans)


def test_surrender_of_the_seat_surrenders_the_bets_behind():
    ans = single(UNL, "AS 6H", [hand("TS 6D", surrendered=True)], behind=[{"wagers": {"main": "20.00"}}])
    assert lines_of(ans) == [main("10.00", "-5.00"), behind("20.00", "-10.00")]
    assert ans["seats"][0]["total_net"] == "-15.00"


# --- Side bets ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("player", "net"), [
    ("8S 8S", "125.00"),  # perfect 25:1
    ("8H 8D", "60.00"),  # coloured (both red) 12:1
    ("8S 8C", "60.00"),  # coloured (both black) 12:1
    ("8S 8H", "30.00"),  # mixed 6:1
    ("TS KS", "-5.00"),  # same value, not the same rank: no pair
])
def test_perfect_pairs(player, net):
    ans = single(UNL, "9S 8H", [hand(player)], wagers={"perfect-pairs": "5.00"})
    assert lines_of(ans)[1] == side("perfect-pairs", net)


@pytest.mark.parametrize(("player", "dealer", "net"), [
    ("AS 2D", "3C TH 5S", "50.00"),  # A-2-3 straight 10:1
    ("QS KD", "AH 7C", "50.00"),  # Q-K-A straight
    ("KS AD", "2C 9H 8S", "-5.00"),  # K-A-2 does not wrap
    ("7H 7H", "7H TC", "500.00"),  # suited trips 100:1
    ("9D TD", "JD 7S", "200.00"),  # straight flush 40:1
    ("7H 7S", "7D TC", "125.00"),  # three of a kind 25:1
    ("2C 6C", "TC 7H", "25.00"),  # flush 5:1
    ("2C 6H", "TC 7H", "-5.00"),  # nothing
])
def test_21_plus_3_on_the_first_two_cards_and_the_up_card(player, dealer, net):
    ans = single(UNL, dealer, [hand(player)], wagers={"21+3": "5.00"})
    assert lines_of(ans)[1] == side("21+3", net)


def test_side_bets_after_a_split_use_the_first_two_cards():
    # The DESIGN example: split 8S/8H (mixed pair 6:1 = 30), 8-8-6 no 21+3.
    ans = single(UNL, "6H TC 9S", [hand("8S 3D QC"), hand("8H 9C")], wagers={"perfect-pairs": "5.00", "21+3": "5.00"})
    assert lines_of(ans) == [main("10.00", "10.00", 0), main("10.00", "10.00", 1), side("perfect-pairs", "30.00"),
                             side("21+3", "-5.00")]


# --- Bets behind -------------------------------------------------------------------------------------

def test_bet_behind_without_double_along_keeps_its_single_stake_when_the_seat_doubles():
    # Seat 5+6 doubled + 9 = 20 against a dealer bust (6-T-9 = 25): seat +20 on 20, behind +10 on 10.
    b = [{"wagers": {"main": "10.00"}, "double_along": False}]
    ans = single(UNL, "6H TC 9S", [hand("5S 6D 9C", doubled=True)], behind=b)
    assert lines_of(ans) == [main("20.00", "20.00"), behind("10.00", "10.00")]
    b = [{"wagers": {"main": "10.00"}, "double_along": True}]
    ans = single(UNL, "6H TC 9S", [hand("5S 6D 9C", doubled=True)], behind=b)
    assert lines_of(ans) == [main("20.00", "20.00"), behind("20.00", "20.00")]


def test_double_along_defaults_to_false():
    ans = single(UNL, "6H TC 9S", [hand("5S 6D 9C", doubled=True)], behind=[{"wagers": {"main": "10.00"}}])
    assert lines_of(ans)[1] == behind("10.00", "10.00")


def test_follow_split_first_keeps_only_the_first_split_hand():
    # Dealer 6-T = 16 draws 3 = 19.  Split 8s: 8-9 = 17 loses, 8-3-Q = 21 wins.
    hands = [hand("8S 9C"), hand("8H 3D QC")]
    first = single(UNL, "6H TC 3S", hands, behind=[{"wagers": {"main": "5.00"}, "follow_split": "first"}])
    assert lines_of(first) == [main("10.00", "-10.00", 0), main("10.00", "10.00", 1), behind("5.00", "-5.00", 0, 0)]
    assert first["seats"][0]["total_net"] == "-5.00"
    both = single(UNL, "6H TC 3S", hands, behind=[{"wagers": {"main": "5.00"}, "follow_split": "both"}])
    assert lines_of(both)[2:] == [behind("5.00", "-5.00", 0, 0), behind("5.00", "5.00", 0, 1)]
    assert both["seats"][0]["total_net"] == "0.00"


def test_bettor_behind_takes_insurance_on_their_own():
    # Dealer blackjack: seat (no insurance) -10; behind -10 and behind insurance 5 x 2 = +10.
    b = [{"wagers": {"main": "10.00", "insurance": "5.00"}}]
    ans = single(UNL, "AS KH", [hand("TS 9D")], behind=b)
    assert lines_of(ans) == [main("10.00", "-10.00"), behind("10.00", "-10.00"),
                             behind("5.00", "10.00", bet="behind-insurance")]
    assert ans["seats"][0]["total_net"] == "-10.00" and ans["violations"] == []


def test_bets_behind_a_seat_that_does_not_play_are_refunded():
    seats = [seat(1, [hand("TS 8D")]), seat(4, None, main=None, behind=[{"wagers": {"main": "10.00"}}])]
    ans = verify_round(req(UNL, "9S 8H", seats))
    assert lines_of(ans, 0) == [main("10.00", "10.00")]
    assert lines_of(ans, 1) == [behind("10.00", "0.00")]
    assert ans["seats"][1]["lines"][0]["result"] == "refund" and ans["seats"][1]["total_net"] == "0.00"


def test_bet_behind_own_seat_is_a_violation():
    ans = single(UNL, "9S 8H", [hand("TS 8D")], player="p1", behind=[{"wagers": {"main": "10.00"}, "player": "p1"}])
    assert "blackjack.bet-behind-own-seat" in rules_of(ans)


# --- paid and discrepancies ----------------------------------------------------------------------------

DESIGN_SEAT = {
    "seat": 3,
    "wagers": {"main": "10.00", "perfect-pairs": "5.00", "21+3": "5.00"},
    "hands": [hand("8S 3D QC"), hand("8H 9C")],
    "behind": [{"wagers": {"main": "5.00"}, "double_along": True, "follow_split": "both"}],
}


def design(paid: dict[str, str] | None) -> dict[str, Any]:
    s = dict(DESIGN_SEAT)
    if paid is not None:
        s["paid"] = paid
    return verify_round(req(UNL, "6H TC 9S", [s]))


def test_design_example_paid_sums_over_hands_and_bets_behind():
    ans = design({"main": "20.00", "behind": "10.00", "perfect-pairs": "30.00"})
    assert ans["discrepancies"] == [] and ans["violations"] == []
    assert ans["seats"][0]["total_net"] == "55.00"  # 10 + 10 + 30 - 5 + 5 + 5
    assert design(None)["discrepancies"] == []


def test_discrepancies_are_per_bet_kind():
    ans = design({"main": "10.00", "behind": "10.00", "perfect-pairs": "25.00", "21+3": "5.00"})
    got = {(d["bet"], d["paid"], d["due"]) for d in ans["discrepancies"]}
    assert got == {("main", "10.00", "20.00"), ("perfect-pairs", "25.00", "30.00"), ("21+3", "5.00", "0.00")}
    for d in ans["discrepancies"]:
        assert d["seat"] == 3


def test_a_kind_not_listed_in_paid_was_paid_nothing():
    ans = design({"main": "20.00", "perfect-pairs": "30.00"})
    assert [(d["bet"], d["paid"], d["due"]) for d in ans["discrepancies"]] == [("behind", "0.00", "10.00")]


def test_insurance_paid_is_checked_as_its_own_kind():
    s = seat(1, [hand("9S 7D")], wagers={"insurance": "5.00"}, paid={"insurance": "5.00"})
    ans = verify_round(req(UNL, "AS KH", [s]))
    assert [(d["bet"], d["paid"], d["due"]) for d in ans["discrepancies"]] == [("insurance", "5.00", "10.00")]


# --- Mini Blackjack: peek, one player, no side bets ------------------------------------------------

def test_mini_peeked_dealer_blackjack_takes_only_the_bet_and_pays_insurance():
    ans = single(MINI, "AS KH", [hand("9S 7D")], wagers={"insurance": "5.00"})
    assert lines_of(ans) == [main("10.00", "-10.00"), side("insurance", "10.00")]
    assert ans["seats"][0]["total_net"] == "0.00" and ans["violations"] == []


def test_mini_ten_up_dealer_blackjack_found_by_the_peek():
    ans = single(MINI, "KH AS", [hand("9S 7D")])
    assert lines_of(ans) == [main("10.00", "-10.00")] and ans["violations"] == []
    assert lines_of(single(MINI, "KH AS", [hand("AD QC")])) == [main("10.00", "0.00")]


def test_mini_playing_on_after_a_peeked_blackjack_is_a_violation():
    ans = single(MINI, "AS KH", [hand("9S 2D 5C")])
    assert "blackjack.played-after-dealer-blackjack" in rules_of(ans)
    assert lines_of(ans) == [main("10.00", "-10.00")]


def test_mini_hand_reaching_21_stands_automatically():
    assert "blackjack.hit-on-21" in rules_of(single(MINI, "9S 8H", [hand("5S 6D TC 2C")]))


def test_mini_no_double_after_split():
    ans = single(MINI, "9S 8H", [hand("8S 3D 9C", doubled=True), hand("8H 9C")])
    assert "blackjack.double-after-split" in rules_of(ans)


def test_mini_double_on_the_initial_two_cards_pays_on_the_doubled_stake():
    ans = single(MINI, "6H TC 9S", [hand("5S 6D 9C", doubled=True)])
    assert lines_of(ans) == [main("20.00", "20.00")] and ans["violations"] == []


def test_mini_has_no_surrender():
    assert "blackjack.surrender-not-offered" in rules_of(single(MINI, "AS 6H", [hand("TS 6D", surrendered=True)]))


def test_mini_dealer_stands_on_soft_17():
    ans = single(MINI, "6H AS", [hand("TS 8D")])
    assert lines_of(ans) == [main("10.00", "10.00")] and ans["violations"] == []


# --- malformed input --------------------------------------------------------------------------------

def _unl() -> dict[str, Any]:
    return req(UNL, "6H TC 9S", [dict(DESIGN_SEAT, hands=[hand("8S 3D QC"), hand("8H 9C")],
                                      behind=[{"wagers": {"main": "5.00"}}])])


_DELETE = object()


def _set(path: list[Any], value: Any) -> Any:
    def apply(r: dict[str, Any]) -> None:
        obj: Any = r
        for k in path[:-1]:
            obj = obj[k]
        if value is _DELETE:
            del obj[path[-1]]
        else:
            obj[path[-1]] = value
    return apply


MALFORMED = [
    ("unknown game", _set(["game"], "blackjack")),
    ("table minimum missing", _set(["table_minimum"], _DELETE)),
    ("bad card", _set(["seats", 0, "hands", 0, "cards"], ["8S", "3D", "QX"])),
    ("joker in blackjack", _set(["seats", 0, "hands", 0, "cards"], ["8S", "3D", "JK"])),
    ("nine aces of spades in eight decks", _set(["seats", 0, "hands", 0, "cards"], ["AS"] * 9)),
    ("one-card hand", _set(["seats", 0, "hands", 1, "cards"], ["8H"])),
    ("cards a number", _set(["seats", 0, "hands", 1, "cards"], 8)),
    ("dealer one card", _set(["dealer", "cards"], ["6H"])),
    ("dealer missing", _set(["dealer"], _DELETE)),
    ("dealer cards missing", _set(["dealer"], {})),
    ("seats empty", _set(["seats"], [])),
    ("seat 8 of 7", _set(["seats", 0, "seat"], 8)),
    ("seat a string", _set(["seats", 0, "seat"], "3")),
    ("main zero", _set(["seats", 0, "wagers", "main"], "0")),
    ("main negative", _set(["seats", 0, "wagers", "main"], "-10.00")),
    ("main text", _set(["seats", 0, "wagers", "main"], "ten")),
    ("main missing with hands", _set(["seats", 0, "wagers"], {"perfect-pairs": "5.00"})),
    ("unknown side bet", _set(["seats", 0, "wagers", "lucky-ladies"], "5.00")),
    ("wagers a list", _set(["seats", 0, "wagers"], ["10.00"])),
    ("hands a dict", _set(["seats", 0, "hands"], {"cards": ["8S", "9C"]})),
    ("hands missing with a main bet", _set(["seats", 0, "hands"], _DELETE)),
    ("doubled a string", _set(["seats", 0, "hands", 0, "doubled"], "yes")),
    ("behind without main", _set(["seats", 0, "behind"], [{"wagers": {}}])),
    ("behind a dict", _set(["seats", 0, "behind"], {"wagers": {"main": "5.00"}})),
    ("follow_split unknown", _set(["seats", 0, "behind"], [{"wagers": {"main": "5.00"}, "follow_split": "second"}])),
    ("double_along a string", _set(["seats", 0, "behind"], [{"wagers": {"main": "5.00"}, "double_along": "no"}])),
    ("paid not an object", _set(["seats", 0, "paid"], "20.00")),
    ("paid negative", _set(["seats", 0, "paid"], {"main": "-1.00"})),
    ("rules unknown key", _set(["rules"], {"dealer_peeks_twice": True})),
    ("rules wrong type", _set(["rules"], {"dealer_hits_soft_17": "yes"})),
    ("pay table bad line", _set(["pay_table"], {"lines": [{"name": "main/blackjack", "pays": {"odds": "3-2"}}]})),
]


@pytest.mark.parametrize(("name", "mutate"), MALFORMED, ids=[n for n, _ in MALFORMED])
def test_malformed_unlimited_input_raises_a_value_error_naming_a_field(name, mutate):
    r = _unl()
    mutate(r)
    with pytest.raises(ValueError) as exc:
        verify_round(r)
    assert getattr(exc.value, "field", None), f"{name}: the error names no field"


def test_the_seat_given_twice_is_malformed():
    r = req(UNL, "9S 8H", [seat(1, [hand("TS 8D")]), seat(1, [hand("9D 8C")])])
    with pytest.raises(ValueError):
        verify_round(r)


@pytest.mark.parametrize(("name", "r"), [
    ("two seats", req(MINI, "9S 8H", [seat(1, [hand("TS 8D")]), seat(2, [hand("9D 8C")])])),
    ("seat 4 of 3", req(MINI, "9S 8H", [seat(4, [hand("TS 8D")])])),
    ("21+3 at Mini", req(MINI, "9S 8H", [seat(1, [hand("TS 8D")], wagers={"21+3": "5.00"})])),
    ("perfect pairs at Mini", req(MINI, "9S 8H", [seat(1, [hand("TS 8D")], wagers={"perfect-pairs": "5.00"})])),
    ("five aces of spades in four decks", req(MINI, "AS 8H", [seat(1, [hand("AS AS AS AS")])])),
])
def test_malformed_mini_input_raises_a_value_error_naming_a_field(name, r):
    with pytest.raises(ValueError) as exc:
        verify_round(r)
    assert getattr(exc.value, "field", None)


# --- custom pay tables --------------------------------------------------------------------------------

def test_custom_blackjack_and_side_bet_lines():
    pay = {"lines": [{"name": "main/blackjack", "pays": {"odds": "6:5"}},
                     {"name": "perfect-pairs/mixed", "pays": {"odds": "5:1"}},
                     {"name": "insurance", "pays": {"table_minimum": 3}}]}
    s = seat(1, [hand("AS KD")], wagers={"perfect-pairs": "5.00"})
    ans = verify_round(req(UNL, "9S 5H 7C", [s], pay_table=pay))
    assert lines_of(ans) == [main("10.00", "12.00"), side("perfect-pairs", "-5.00")]  # 6:5 of 10
    s = seat(1, [hand("8S 8H")], wagers={"perfect-pairs": "5.00"})
    ans = verify_round(req(UNL, "9S 8H", [s], pay_table=pay))
    assert lines_of(ans)[1] == side("perfect-pairs", "25.00")  # mixed 5:1
    s = seat(1, [hand("9S 7D")], wagers={"insurance": "5.00"})
    ans = verify_round(req(UNL, "AS KH", [s], pay_table=pay))
    assert lines_of(ans)[1] == side("insurance", "15.00")  # 3 x the table minimum 5.00


def test_a_seat_that_did_not_play_may_also_be_given_with_empty_wagers_and_hands():
    seats = [seat(1, [hand("TS 8D")]),
             {"seat": 4, "wagers": {}, "hands": [], "behind": [{"wagers": {"main": "10.00", "insurance": "5.00"}}]}]
    ans = verify_round(req(UNL, "9S 8H", seats))
    assert lines_of(ans, 1) == [behind("10.00", "0.00"), behind("5.00", "0.00", bet="behind-insurance")]
