"""Independent review of Finnish 27 verification against the rule text and the README readings.

Every expected answer here is worked out by hand from shared/rules/finnish-27-no-bust.txt and
shared/rules/README.md (the arithmetic is written next to each case); nothing is computed by the
engine's own helpers.  Table minimum 10.00 and wager 10.00 unless a case says otherwise.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tables.engine import verify_round

PLAYER_FORCED_HIT = "finnish27.player-forced-hit"
PLAYER_FORCED_STAND = "finnish27.player-forced-stand"
DEALER_DREW_AFTER_DECIDED = "finnish27.dealer-drew-after-decided"
PLAYER_DREW_AFTER_DECIDED = "finnish27.player-drew-after-decided"
DEALER_STOOD_BELOW_24 = "finnish27.dealer-stood-below-24"
DEALER_STOOD_BELOW_SOFT_25 = "finnish27.dealer-stood-below-soft-25"
DEALER_HIT_ON_24 = "finnish27.dealer-hit-on-24-or-more"
DEALER_HIT_ON_SOFT_25 = "finnish27.dealer-hit-on-soft-25-or-more"


def request(player: str, dealer: str, wager: str = "10.00", tmin: str = "10.00", **extra: Any) -> dict[str, Any]:
    seat: dict[str, Any] = {"seat": 1, "wagers": {"main": wager}, "hands": [{"cards": player.split()}]}
    if "paid" in extra:
        seat["paid"] = extra.pop("paid")
    return {"game": "finnish-27", "table_minimum": tmin, "dealer": {"cards": dealer.split()}, "seats": [seat], **extra}


def lines(answer: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(ln["bet"], ln["wager"], ln["net"]) for ln in answer["seats"][0]["lines"]]


def rules(answer: dict[str, Any]) -> set[str]:
    return {v["rule"] for v in answer["violations"]}


def check(answer: dict[str, Any], expected: list[tuple[str, str, str]], total: str, violations: set[str] = frozenset()) -> None:  # type: ignore[assignment]
    assert lines(answer) == expected
    assert answer["seats"][0]["total_net"] == total
    assert rules(answer) == set(violations)
    for v in answer["violations"]:
        assert v["message"]


# --- Jokers and the initial 27s -----------------------------------------------------------------

@pytest.mark.parametrize("player", ["JK 5S", "5S JK", "JK AS", "KS JK"])
def test_player_joker_in_the_initial_hand_is_a_joanca_and_wins_at_once_without_bonus(player):
    # Joker first or second card: the hand is 27 (Joanca), dealer 9-9 has no 27 -> player wins 1:1; no Joanca bonus line.
    check(verify_round(request(player, "9C 9D")), [("main", "10.00", "10.00")], "10.00")


@pytest.mark.parametrize("dealer", ["JK 5S", "5S JK"])
def test_dealer_joker_in_the_initial_hand_beats_a_plain_player_hand(dealer):
    check(verify_round(request("9S 9H", dealer)), [("main", "10.00", "-10.00")], "-10.00")


def test_two_jokers_beat_ace_king_and_pay_the_jo_jo_bonus():
    # Jo Jo outranks Finnish 27: 1:1 on the game wager + Jo Jo 1:1 = 10 + 10.
    ans = verify_round(request("JK JK", "AS KD"))
    check(ans, [("main", "10.00", "10.00"), ("bonus", "10.00", "10.00")], "20.00")
    assert "jo-jo" in ans["seats"][0]["lines"][1]["detail"]


def test_ace_king_beats_a_dealer_joanca_and_pays_half_the_wager():
    # Finnish 27 outranks Joanca: 10 + 1:2 of 10 = 5.
    check(verify_round(request("AS KD", "JK 7C")), [("main", "10.00", "10.00"), ("bonus", "10.00", "5.00")], "15.00")


def test_ace_king_beats_a_plain_dealer_hand_with_the_bonus():
    check(verify_round(request("KD AS", "9C 9D")), [("main", "10.00", "10.00"), ("bonus", "10.00", "5.00")], "15.00")


@pytest.mark.parametrize(("player", "dealer"), [("AS KD", "KC AH"), ("JK 3S", "QC JK"), ("JK JK", "JK JK")])
def test_equal_initial_27s_go_to_the_dealer_with_no_bonus(player, dealer):
    check(verify_round(request(player, dealer)), [("main", "10.00", "-10.00")], "-10.00")


def test_ace_king_loses_to_two_jokers_and_no_bonus_is_paid():
    check(verify_round(request("AS KD", "JK JK")), [("main", "10.00", "-10.00")], "-10.00")


def test_dealer_draw_after_an_initial_27_is_a_violation():
    ans = verify_round(request("AS KD", "9C 9D 5C"))
    check(ans, [("main", "10.00", "10.00"), ("bonus", "10.00", "5.00")], "15.00", {DEALER_DREW_AFTER_DECIDED})


def test_player_draw_after_an_initial_27_is_a_violation_and_the_27_still_decides():
    ans = verify_round(request("JK 5S 3C", "9C 9D"))
    check(ans, [("main", "10.00", "10.00")], "10.00", {PLAYER_DREW_AFTER_DECIDED})


def test_joker_as_third_card_counts_zero_and_eight_nine_joker_ten_is_not_the_8_9_10_bonus():
    # 9+8 = hard 17 (must hit vs dealer hard 18), Joker 0 -> 17 (must hit), Ten -> 27 wins at once.
    # Four cards: the 8-9-10 lines need a three-card hand of exactly those cards.
    check(verify_round(request("9S 8H JK TD", "9C 9D")), [("main", "10.00", "10.00")], "10.00")


def test_player_who_stands_after_a_third_card_joker_below_21_broke_a_forced_hit():
    # 9+8+Joker = hard 17 against dealer hard 18 (below): must hit.  Dealer 18 -> +5 = 23 -> +2 = 25.
    # Player 17 (10 away) vs dealer 25 (2 away): dealer wins.
    check(verify_round(request("9S 8H JK", "9C 9D 5C 2C")), [("main", "10.00", "-10.00")], "-10.00",
          {PLAYER_FORCED_HIT})


def test_dealer_joker_as_third_card_counts_zero_and_the_dealer_draws_on():
    # Player K+T = hard 23 vs dealer hard 18 (below): free choice, stands.  Dealer 18 + Joker = 18,
    # must hit again, + 6 = 24, stands.  23 is 4 away, 24 is 3 away: dealer wins.
    check(verify_round(request("KS TH", "9C 9D JK 6C")), [("main", "10.00", "-10.00")], "-10.00")


def test_dealer_standing_on_18_after_a_joker_broke_the_drawing_rule():
    # Dealer 9+9+Joker = hard 18 < 24 must hit.  As the hands lie: player 23 (4 away) vs 18 (9 away).
    check(verify_round(request("KS TH", "9C 9D JK")), [("main", "10.00", "10.00")], "10.00", {DEALER_STOOD_BELOW_24})


# --- The player's forced plays at the boundaries ---------------------------------------------------

def test_player_hard_20_must_hit_against_dealer_hard_23():
    # Dealer K+T = hard 23 < 24: "dealer below"; hard 20 < 21 must hit.  Dealer 23 +2 = 25.
    check(verify_round(request("KH 7H", "KS TS 2C")), [("main", "10.00", "-10.00")], "-10.00", {PLAYER_FORCED_HIT})


def test_player_hard_21_may_stand_against_dealer_hard_23():
    check(verify_round(request("KH 8H", "KS TS 2C")), [("main", "10.00", "-10.00")], "-10.00")


def test_player_hard_24_may_hit_against_dealer_hard_23():
    # Q+Q = 24, free; + 3 = 27 wins at once, dealer draws nothing.
    check(verify_round(request("QH QD 3C", "KS TS")), [("main", "10.00", "10.00")], "10.00")


def test_player_hard_25_must_stand_against_dealer_hard_23():
    # K+Q = 25 must stand; the hit to 27 is a violation but the hand is settled as it lies (27 wins).
    check(verify_round(request("KH QH 2C", "KS TS")), [("main", "10.00", "10.00")], "10.00", {PLAYER_FORCED_STAND})


def test_player_hard_24_must_hit_against_dealer_hard_24():
    # Dealer K+J = hard 24: "dealer above"; 24 is not greater than 24: must hit.  Dealer stands on 24.
    # As the hands lie: 24 vs 24, equally close: dealer.
    check(verify_round(request("QH QD", "KS JS")), [("main", "10.00", "-10.00")], "-10.00", {PLAYER_FORCED_HIT})


def test_player_hard_20_must_hit_against_dealer_hard_24_even_though_it_is_below_21():
    check(verify_round(request("KH 7H", "KS JS")), [("main", "10.00", "-10.00")], "-10.00", {PLAYER_FORCED_HIT})


def test_player_hard_25_stands_against_dealer_hard_24_and_wins_by_distance():
    # 25 > 24 and hard: must stand.  Dealer stands on hard 24.  25 is 2 away, 24 is 3 away.
    check(verify_round(request("KH QH", "KS JS")), [("main", "10.00", "10.00")], "10.00")


def test_player_soft_23_must_hit_against_dealer_soft_24():
    # Dealer A+T = soft 24 < 25: "dealer below"; player A+9 = soft 23 < 24 must hit.
    # Dealer soft 24 must hit: +2 -> soft 26, stands.  23 (4 away) vs 26 (1 away): dealer.
    check(verify_round(request("AH 9H", "AS TS 2C")), [("main", "10.00", "-10.00")], "-10.00", {PLAYER_FORCED_HIT})


def test_player_soft_24_may_stand_against_dealer_soft_24():
    # Dealer A+T soft 24 hits: +7 -> A low, hard 18; hits: +K -> hard 31 (4 away).  Player soft 24 is 3 away.
    check(verify_round(request("AH TH", "AS TS 7C KD")), [("main", "10.00", "10.00")], "10.00")


def test_player_hard_25_must_hit_against_dealer_soft_25_raw_totals():
    # Dealer A+J = soft 25: "dealer above"; player K+Q = hard 25, not greater than 25: must hit.
    check(verify_round(request("KH QH", "AS JS")), [("main", "10.00", "-10.00")], "-10.00", {PLAYER_FORCED_HIT})


def test_player_soft_26_may_stand_against_dealer_soft_25():
    check(verify_round(request("AH QH", "AS JS")), [("main", "10.00", "10.00")], "10.00")


def test_player_hard_26_must_stand_against_dealer_soft_25():
    # K+K = hard 26 > 25: must stand.  The hit to 28 is a violation; as it lies 28 (1 away) beats 25 (2 away).
    check(verify_round(request("KH KD 2C", "AS JS")), [("main", "10.00", "10.00")], "10.00", {PLAYER_FORCED_STAND})


def test_player_soft_27_of_three_cards_wins_at_once_and_must_stand():
    # A+5 = soft 19 (must hit vs dealer hard 18), + 8 = soft 27: wins at once.
    check(verify_round(request("AH 5D 8C", "9C 9D")), [("main", "10.00", "10.00")], "10.00")
    ans = verify_round(request("AH 5D 8C 2S", "9C 9D"))
    # Hitting soft 27 breaks the forced stand; A turns low: 1+5+8+2 = hard 16, must hit but stood.
    # As it lies: 16 (11 away); the dealer drew nothing although the player's hand was not decided.
    assert PLAYER_FORCED_STAND in rules(ans)


def test_player_above_dealer_with_a_raw_total_over_27_must_stand():
    # Dealer K+Q = hard 25 (above).  Player J+T = 21 <= 25 must hit; + 9 = 30 > 25 hard: must stand.
    # Dealer stands on 25.  30 is 3 away, 25 is 2 away: dealer wins (raw totals decide the forced play,
    # distance decides the outcome).
    check(verify_round(request("JH TH 9C", "KS QS")), [("main", "10.00", "-10.00")], "-10.00")


# --- The dealer's drawing rule ---------------------------------------------------------------------

def test_dealer_must_not_stand_on_hard_23():
    check(verify_round(request("KH 8H", "KS TS")), [("main", "10.00", "-10.00")], "-10.00", {DEALER_STOOD_BELOW_24})


def test_dealer_must_not_draw_on_hard_24():
    # Player Q+Q 24 vs dealer 24: must hit; +2 = 26 > 24, hard: stands.  Dealer draws on 24 (violation) +3 = 27.
    # As it lies: dealer 27 (0 away) beats 26.
    check(verify_round(request("QH QD 2C", "KS JS 3C")), [("main", "10.00", "-10.00")], "-10.00", {DEALER_HIT_ON_24})


def test_dealer_must_not_stand_on_soft_24():
    # Player K+T = hard 23 (free vs dealer soft 24, below), stands.  Dealer soft 24 stands: violation.
    # As it lies: 23 (4 away) vs soft 24 (3 away): dealer.
    check(verify_round(request("KH TH", "AS TS")), [("main", "10.00", "-10.00")], "-10.00", {DEALER_STOOD_BELOW_SOFT_25})


def test_dealer_must_not_draw_on_soft_25():
    # Player A+Q soft 26 stands (free vs soft 25).  Dealer soft 25 draws (violation) a 2: soft 27.
    check(verify_round(request("AH QH", "AS JS 2C")), [("main", "10.00", "-10.00")], "-10.00", {DEALER_HIT_ON_SOFT_25})


def test_dealer_soft_hand_turning_hard_keeps_drawing_below_24():
    # Player K+T 23 stands (free vs dealer soft 19).  Dealer A+5 soft 19 -> +K: A low, hard 19 -> +5 = 24.
    # 23 (4 away) vs 24 (3 away): dealer.
    check(verify_round(request("KH TH", "AS 5S KC 5C")), [("main", "10.00", "-10.00")], "-10.00")


# --- 27 and over hard 35 end the round -------------------------------------------------------------

def test_over_hard_35_loses_at_once_even_when_the_dealer_is_further_from_27():
    # Dealer 2+2 = hard 4 (below).  Player Q+Q = 24 free, hits Q = 36 > 35: loses at once, the dealer
    # draws nothing.  (By distance the player, 9 away, would beat the dealer's 4, 23 away.)
    check(verify_round(request("QH QD QC", "2S 2H")), [("main", "10.00", "-10.00")], "-10.00")


def test_dealer_draw_after_the_player_went_over_hard_35_is_a_violation():
    check(verify_round(request("QH QD QC", "2S 2H KC 9C")), [("main", "10.00", "-10.00")], "-10.00",
          {DEALER_DREW_AFTER_DECIDED})


def test_hard_35_does_not_lose_at_once_and_a_dealer_36_is_just_far():
    # Player Q+Q 24 hits J = 35 (not over 35).  Dealer 2+2 -> 9 = 13 -> T = 23 -> K = 36, stands.
    # 35 is 8 away, 36 is 9 away: player wins (the dealer has no over-35 rule; distance only).
    check(verify_round(request("QH QD JC", "2S 2H 9C TC KC")), [("main", "10.00", "10.00")], "10.00")


def test_equal_distance_on_both_sides_of_27_goes_to_the_dealer():
    # Player J+T 21 hits (must: 21 <= dealer 25), + 8 = 29 > 25 stands.  Dealer K+Q 25 stands.  Both 2 away.
    check(verify_round(request("JH TH 8C", "KS QS")), [("main", "10.00", "-10.00")], "-10.00")


def test_player_27_ends_the_round_so_a_dealer_draw_after_it_is_a_violation():
    # The DESIGN example with the dealer drawing: 9-9-9 with a dealer 9-9 still pays 999 x 10.
    ans = verify_round(request("9S 9H 9D", "9C 9D 5C"))
    check(ans, [("main", "10.00", "10.00"), ("bonus", "10.00", "9990.00")], "10000.00", {DEALER_DREW_AFTER_DECIDED})


# --- Bonus lines -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("player", "bonus"), [
    ("8S 9H TD", "5.00"),  # mixed suits 1:2
    ("8H 9H TH", "10.00"),  # hearts 1:1
    ("TC 8C 9C", "10.00"),  # clubs 1:1, any order
    ("9D 8D TD", "10.00"),  # diamonds 1:1
    ("8S TS 9S", "20.00"),  # spades 2:1
    ("8S 9S TH", "5.00"),  # two spades and a heart: mixed
])
def test_8_9_10_lines(player, bonus):
    check(verify_round(request(player, "9C 7D")), [("main", "10.00", "10.00"), ("bonus", "10.00", bonus)],
          str(Decimal("10.00") + Decimal(bonus)))


def test_the_design_example_9_9_9_with_dealer_9_9_pays_999_table_minimums():
    ans = verify_round(request("9S 9H 9D", "9C 9D", paid={"main": "10.00", "bonus": "9990.00"}))
    check(ans, [("main", "10.00", "10.00"), ("bonus", "10.00", "9990.00")], "10000.00")
    assert ans["discrepancies"] == []


def test_9_9_9_same_suit_with_dealer_9_9_takes_the_highest_line_999():
    check(verify_round(request("9S 9S 9S", "9H 9D")), [("main", "10.00", "10.00"), ("bonus", "10.00", "9990.00")],
          "10000.00")


def test_9_9_9_same_suit_without_dealer_9_9_pays_99_table_minimums():
    check(verify_round(request("9S 9S 9S", "TC 8D")), [("main", "10.00", "10.00"), ("bonus", "10.00", "990.00")],
          "1000.00")


def test_9_9_9_needs_the_dealers_first_two_cards_to_be_nines():
    # Dealer 9 + 8 (first two) -> line 9-9-9 mixed (9 x 10), even if a later dealer card is a 9 (it is not drawn here).
    check(verify_round(request("9S 9H 9D", "9C 8D")), [("main", "10.00", "10.00"), ("bonus", "10.00", "90.00")], "100.00")


def test_table_minimum_lines_ignore_the_wager_and_odds_lines_follow_it():
    # Wager 25, table minimum 10: 9-9-9 mixed pays 9 x 10 = 90; the game wager pays 25.
    check(verify_round(request("9S 9H 9D", "TC 8D", wager="25.00")),
          [("main", "25.00", "25.00"), ("bonus", "25.00", "90.00")], "115.00")
    # 8-9-10 spades 2:1 on 25 = 50.
    check(verify_round(request("8S 9S TS", "TC 8D", wager="25.00")),
          [("main", "25.00", "25.00"), ("bonus", "25.00", "50.00")], "75.00")


def test_odd_cents_are_rounded_down_on_a_1_to_2_bonus():
    # 1:2 of 5.01 = 2.505 -> 2.50 (breakage down to the cent).
    check(verify_round(request("AS KD", "9C 7D", wager="5.01", tmin="5.00")),
          [("main", "5.01", "5.01"), ("bonus", "5.01", "2.50")], "7.51")


def test_custom_pay_table_is_used_for_the_bonus():
    pay_table = {"lines": [{"name": "finnish-27", "pays": {"table_minimum": 5}},
                           {"name": "9-9-9/mixed", "pays": {"odds": "3:1"}}]}
    check(verify_round(request("AS KD", "9C 7D", pay_table=pay_table)),
          [("main", "10.00", "10.00"), ("bonus", "10.00", "50.00")], "60.00")
    check(verify_round(request("9S 9H 9D", "TC 8D", wager="20.00", pay_table=pay_table)),
          [("main", "20.00", "20.00"), ("bonus", "20.00", "60.00")], "80.00")


def test_custom_game_wager_odds():
    pay_table = {"lines": [{"name": "main", "pays": {"odds": "2:1"}}]}
    check(verify_round(request("KH QH", "KS JS", pay_table=pay_table)), [("main", "10.00", "20.00")], "20.00")


# Poker lines: the dealer 9+9 = 18 draws 4 -> 22, then K -> 35 (8 away) unless a case says otherwise.
DEALER_35 = "9C 9D 4C KC"


def test_four_of_a_kind_plus_a_joker_is_five_of_a_kind():
    # 2+2 = 4 (must hit) ... 2,2 -> 8, Joker 0 -> 8, K -> 21 (free, stands).  21 is 6 away: wins.
    # Five of a kind 8:1 = 80.
    check(verify_round(request("2S 2H 2D 2C JK KS", DEALER_35)),
          [("main", "10.00", "10.00"), ("bonus", "10.00", "80.00")], "90.00")


def test_five_of_a_kind_from_four_threes_and_a_joker():
    # 3+3+3+3 = 12, Joker -> 12, 9 -> 21, stands.
    check(verify_round(request("3S 3H 3D 3C JK 9S", DEALER_35)),
          [("main", "10.00", "10.00"), ("bonus", "10.00", "80.00")], "90.00")


def test_a_joker_flush_outranks_the_full_house_in_the_finnish_order():
    # 2H 2H 3H 3H + Joker: a full house (3-3-Jk-2-2) or a heart flush; the Finnish order puts the
    # flush above the full house: 6:1 = 60.  Total 2+2+3+3+0+13 = 23, free, stands.
    check(verify_round(request("2H 2H 3H 3H JK KS", DEALER_35)),
          [("main", "10.00", "10.00"), ("bonus", "10.00", "60.00")], "70.00")


def test_a_joker_completes_a_straight_flush():
    # 2H 3H 4H 5H + Joker = straight flush 7:1 = 70; 14 + 7 = 21 stands.
    check(verify_round(request("2H 3H 4H 5H JK 7S", DEALER_35)),
          [("main", "10.00", "10.00"), ("bonus", "10.00", "70.00")], "80.00")


def test_ace_low_straight():
    # A,2 soft 16 -> 3 soft 19 -> 4 soft 23 -> 5 hard 15 -> 8 hard 23 (free, stands): A-2-3-4-5 straight 3:1.
    check(verify_round(request("AS 2H 3D 4C 5S 8H", DEALER_35)),
          [("main", "10.00", "10.00"), ("bonus", "10.00", "30.00")], "40.00")


def test_two_pair_pays_and_one_pair_does_not():
    # 2,2,3,3 = 10, K -> 23 stands: two pair 1:1.
    check(verify_round(request("2S 2H 3S 3H KC", DEALER_35)),
          [("main", "10.00", "10.00"), ("bonus", "10.00", "10.00")], "20.00")
    # 2,2,3,4 = 11, K -> 24 stands: one pair qualifies but has no line: nothing.
    check(verify_round(request("2S 2H 3S 4H KC", DEALER_35)), [("main", "10.00", "10.00")], "10.00")


def test_no_bonus_when_the_player_loses():
    # Five of a kind at 21 against a dealer who reaches 24 (9+9+3+3): 6 away vs 3 away, lose, no bonus.
    check(verify_round(request("2S 2H 2D 2C JK KS", "9C 9D 3C 3D")), [("main", "10.00", "-10.00")], "-10.00")


def test_four_card_hands_have_no_bonus_line():
    # 5,5,5,5 = 20 (must hit vs 18) -> four cards are no poker hand; 20 + 4 = 24 five cards: four of a kind 5:1.
    check(verify_round(request("5S 5H 5D 5C 4S", DEALER_35)),
          [("main", "10.00", "10.00"), ("bonus", "10.00", "50.00")], "60.00")


# --- paid and discrepancies -------------------------------------------------------------------------

def test_paid_absent_means_no_discrepancies():
    assert verify_round(request("AS KD", "9C 7D"))["discrepancies"] == []


def test_short_paid_bonus_is_a_discrepancy_of_the_bonus_kind_only():
    ans = verify_round(request("AS KD", "9C 7D", paid={"main": "10.00"}))
    assert [(d["bet"], d["paid"], d["due"]) for d in ans["discrepancies"]] == [("bonus", "0.00", "5.00")]


def test_paying_a_losing_hand_is_a_discrepancy():
    ans = verify_round(request("KH 8H", "KS TS 2C", paid={"main": "10.00"}))
    assert [(d["bet"], d["paid"], d["due"]) for d in ans["discrepancies"]] == [("main", "10.00", "0.00")]


def test_exact_paid_has_no_discrepancy_and_zero_paid_on_a_loss_is_fine():
    assert verify_round(request("8S 9H TD", "9C 7D", paid={"main": "10.00", "bonus": "5.00"}))["discrepancies"] == []
    assert verify_round(request("KH 8H", "KS TS 2C", paid={"main": "0.00"}))["discrepancies"] == []
    assert verify_round(request("KH 8H", "KS TS 2C", paid={}))["discrepancies"] == []


# --- malformed input -------------------------------------------------------------------------------

def _base() -> dict[str, Any]:
    return request("9S 9H 9D", "9C 9D")


def _mutations() -> list[tuple[str, Any]]:
    def set_(path: list[Any], value: Any) -> Any:
        def apply(r: dict[str, Any]) -> None:
            obj: Any = r
            for k in path[:-1]:
                obj = obj[k]
            if value is _DELETE:
                del obj[path[-1]]
            else:
                obj[path[-1]] = value
        return apply

    return [
        ("unknown game", set_(["game"], "finnish-28")),
        ("game missing", set_(["game"], _DELETE)),
        ("table minimum missing", set_(["table_minimum"], _DELETE)),
        ("table minimum zero", set_(["table_minimum"], "0.00")),
        ("table minimum words", set_(["table_minimum"], "ten")),
        ("bad card code", set_(["seats", 0, "hands", 0, "cards"], ["9S", "1H"])),
        ("bad card type", set_(["seats", 0, "hands", 0, "cards"], ["9S", 9])),
        ("lower-case junk", set_(["dealer", "cards"], ["9C", "ZZ"])),
        ("seven aces of spades", set_(["seats", 0, "hands", 0, "cards"], ["AS"] * 7)),
        ("thirteen jokers", set_(["seats", 0, "hands", 0, "cards"], ["JK"] * 13)),
        ("one card", set_(["seats", 0, "hands", 0, "cards"], ["9S"])),
        ("cards not a list", set_(["seats", 0, "hands", 0, "cards"], {"a": 1})),
        ("cards null", set_(["seats", 0, "hands", 0, "cards"], None)),
        ("dealer missing", set_(["dealer"], _DELETE)),
        ("dealer a list", set_(["dealer"], ["9C", "9D"])),
        ("seats missing", set_(["seats"], _DELETE)),
        ("seats empty", set_(["seats"], [])),
        ("seats not a list", set_(["seats"], "1")),
        ("two seats", lambda r: r["seats"].append(dict(r["seats"][0]))),
        ("seat not an object", set_(["seats", 0], 7)),
        ("wagers missing", set_(["seats", 0, "wagers"], _DELETE)),
        ("main missing", set_(["seats", 0, "wagers"], {})),
        ("main zero", set_(["seats", 0, "wagers", "main"], "0.00")),
        ("main negative", set_(["seats", 0, "wagers", "main"], "-10.00")),
        ("main three places", set_(["seats", 0, "wagers", "main"], "10.005")),
        ("main a list", set_(["seats", 0, "wagers", "main"], ["10"])),
        ("main null", set_(["seats", 0, "wagers", "main"], None)),
        ("main bool", set_(["seats", 0, "wagers", "main"], True)),
        ("main NaN", set_(["seats", 0, "wagers", "main"], "NaN")),
        ("hands missing", set_(["seats", 0, "hands"], _DELETE)),
        ("hands empty", set_(["seats", 0, "hands"], [])),
        ("paid a list", set_(["seats", 0, "paid"], ["10.00"])),
        ("paid negative", set_(["seats", 0, "paid"], {"main": "-1.00"})),
        ("pay table junk", set_(["pay_table"], {"lines": [{"name": "royal", "pays": {"odds": "1:1"}}]})),
        ("pay table bad odds", set_(["pay_table"], {"lines": [{"name": "jo-jo", "pays": {"odds": "x"}}]})),
        ("pay table not an object", set_(["pay_table"], "published")),
    ]


_DELETE = object()


@pytest.mark.parametrize(("name", "mutate"), _mutations(), ids=[n for n, _ in _mutations()])
def test_malformed_input_raises_a_value_error_naming_a_field(name, mutate):
    req = _base()
    mutate(req)
    with pytest.raises(ValueError) as exc:
        verify_round(req)
    assert getattr(exc.value, "field", None), f"{name}: the error names no field"


def test_request_that_is_not_an_object_raises_a_value_error():
    for junk in (None, [], "finnish-27", 3):
        with pytest.raises(ValueError):
            verify_round(junk)  # type: ignore[arg-type]


# --- the poker evaluator on hands the verify flow cannot reach legally -------------------------------

@pytest.mark.parametrize(("cards", "category"), [
    ("9S 9H 9D 9C JK", "five-of-a-kind"),  # four Nines and a Joker
    ("9S 9H JK JK 2C", "four-of-a-kind"),
    ("9H 9S JK JK 2H 5H", "flush"),  # four 9s are possible, but a flush (2H 5H 9H + 2 Jokers) ranks higher here
    ("AS 2H 3D JK 5C", "straight"),  # the Joker fills the wheel
    ("QS KH AD 2C 3S", "high-card"),  # no wrap round
    ("JK JK JK JK JK", "five-of-a-kind"),
    ("2H 2H 3H 3H JK", "flush"),  # flush above full house in the Finnish order
    ("5S 5H 5D 9C 9S", "full-house"),
    ("TH JH QH KH AH", "straight-flush"),
])
def test_finnish_poker_categories(cards, category):
    from tables.engine.cards import parse_cards
    from tables.engine.poker import FINNISH, evaluate

    assert evaluate(parse_cards(cards), FINNISH).category == category


@pytest.mark.parametrize(("field", "value"), [
    ("main", "1e300"), ("main", 1e300), ("main", "1E+13"),
])
def test_huge_amounts_are_refused_as_invalid_input(field, value):
    req = _base()
    req["seats"][0]["wagers"][field] = value
    with pytest.raises(ValueError) as exc:
        verify_round(req)
    assert getattr(exc.value, "field", None) == "seats[0].wagers.main"


def test_a_pay_table_line_name_that_is_not_a_string_is_invalid_input():
    req = _base()
    req["pay_table"] = {"lines": [{"name": ["jo-jo"], "pays": {"odds": "1:1"}}]}
    with pytest.raises(ValueError) as exc:
        verify_round(req)
    assert exc.value.field == "pay_table.lines[0].name"  # type: ignore[attr-defined]


def test_a_rules_key_that_is_not_a_string_is_invalid_input():
    req = _base()
    req["rules"] = {0: 2}
    with pytest.raises(ValueError):
        verify_round(req)
