"""Bluffjack resolution: closest to 21, busts, splits and the odd chip, Charlies, best-hand ranking."""

from __future__ import annotations

import pytest

from tables.engine import bluffjack as bj
from tables.engine.cards import parse_cards
from tables.engine.rulesets import BluffjackRules

from ._helpers import play, stacks, table

ALL_STAND = "bob stand; cy stand; ann stand; bob call; cy call; ann call"


def test_closest_to_21_without_going_over_wins():
    s = play(table(), {"ann": "9S 7H", "bob": "8S 5C", "cy": "KD 9D"}, "bob raise 1; cy call; ann call; " + ALL_STAND)
    events = bj.settle(s)
    assert stacks(s) == {"ann": 98, "bob": 98, "cy": 104}
    assert "cy wins 6" in s.last_pots[0].detail
    assert events[0].lines[0]["lines"][0]["result"] == "lose"


def test_all_remaining_players_bust_the_pot_goes_to_the_house():
    cards = {"ann": "9S 7H", "bob": "8S 5C TH", "cy": "KD 6D 9C"}
    script = "bob raise 1; cy call; ann fold; bob hit; cy hit; bob call; cy call"
    s = play(table(), cards, script)
    bj.settle(s)
    assert s.house == 5 and stacks(s) == {"ann": 99, "bob": 98, "cy": 98}
    assert s.last_pots[0].result == "house" and "over 21" in s.last_pots[0].detail
    assert s.chips_in_play == s.total_chips


def test_no_house_sets_bust_pot_aside_for_the_last_remaining_player():
    cards = {"ann": "9S 7H", "bob": "8S 5C TH", "cy": "KD 6D 9C"}
    s = play(table(no_house=True), cards, "bob raise 1; cy call; ann fold; bob hit; cy hit; bob call; cy call")
    bj.settle(s)
    assert s.house == 0 and s.set_aside == 5 and s.phase == "ready"
    # bob and cy both go all-in (ante + forced raise) and bust again: ann is the last one left
    s = play(table(no_house=True, stacks={"ann": 10, "bob": 2, "cy": 2}), cards,
             "bob raise 1; cy call; ann fold; bob hit; cy hit")
    events = bj.settle(s)
    assert stacks(s) == {"ann": 9 + 5, "bob": 0, "cy": 0}
    assert s.phase == "over" and s.winner == "ann" and s.set_aside == 0
    assert events[-1] == bj.GameWon("ann", 5)
    assert [e.player for e in events if isinstance(e, bj.PlayerEliminated)] == ["bob", "cy"]


def test_lone_remaining_player_wins_even_if_over_21():
    cards = {"ann": "9S 7H", "bob": "8S 5C TH", "cy": "KD 6D"}
    s = play(table(), cards, "bob raise 1; cy call; ann call; bob hit; cy stand; ann stand; bob raise 3; cy fold; ann fold")
    bj.settle(s)
    assert bj.is_bust(s.players[s.player("bob")].cards)
    assert stacks(s)["bob"] == 100 + 4
    assert "even if over 21" in s.last_pots[0].detail


@pytest.mark.parametrize(
    ("odd_chip", "bob", "cy", "house", "carry"),
    [("first_left_of_dealer", 101, 100, 0, 0), ("house", 100, 100, 1, 0), ("next_pot", 100, 100, 0, 1)],
)
def test_split_pot_with_an_odd_chip(odd_chip, bob, cy, house, carry):
    # antes 3 + bob's forced raise 1 + cy's call 1 = 5 chips; ann folds; bob and cy tie on 19
    cards = {"ann": "9S 7H", "bob": "TS 9C", "cy": "KD 9D"}
    s = play(table(odd_chip=odd_chip), cards, "bob raise 1; cy call; ann fold; bob stand; cy stand; bob call; cy call")
    bj.settle(s)
    pot = s.last_pots[0]
    assert pot.result == "split" and pot.amount == 5 and pot.remainder == 1
    assert (stacks(s)["bob"], stacks(s)["cy"], s.house, s.carry) == (bob, cy, house, carry)
    assert s.chips_in_play == s.total_chips


def test_odd_chip_carried_to_the_next_pot_is_in_the_next_hand():
    cards = {"ann": "9S 7H", "bob": "TS 9C", "cy": "KD 9D"}
    s = play(table(odd_chip="next_pot"), cards, "bob raise 1; cy call; ann fold; bob stand; cy stand; bob call; cy call")
    bj.settle(s)
    bj.start_hand(s)
    assert s.carry == 0 and s.pot_extra == 1 and s.pot == 4


def test_odd_chip_under_no_house_with_house_option_is_set_aside():
    cards = {"ann": "9S 7H", "bob": "TS 9C", "cy": "KD 9D"}
    s = play(table(odd_chip="house", no_house=True), cards,
             "bob raise 1; cy call; ann fold; bob stand; cy stand; bob call; cy call")
    bj.settle(s)
    assert s.set_aside == 1 and s.house == 0


def test_five_card_charlie_beats_a_20():
    cards = {"ann": "9S 7H", "bob": "2S 3C 4H 2D 3D", "cy": "KD QD"}
    script = ("bob raise 1; cy call; ann fold; bob hit; cy stand; bob hit; bob hit; bob stand; bob call; cy call")
    s = play(table(charlie=5), cards, script)
    assert bj.describe_hand(s.players[s.player("bob")].cards, s.rules) == "5-card Charlie 14"
    bj.settle(s)
    assert s.last_pots[0].winners == ["bob"]
    # without the Charlie variant the 20 wins
    s = play(table(), cards, script)
    bj.settle(s)
    assert s.last_pots[0].winners == ["cy"]


def _key(codes: str, **rules: object) -> tuple[int, ...]:
    return bj.hand_key(parse_cards(codes), BluffjackRules(**rules))  # type: ignore[arg-type]


def test_a_21_beats_a_charlie():
    assert _key("9S 5C 7D", charlie=5) > _key("2S 3C 4H 2D 3D", charlie=5)


def test_higher_charlie_beats_lower_charlie_and_equal_charlies_tie():
    assert _key("2S 3C 4H 2D 8D", charlie=5) > _key("2S 3C 4H 2D 3D", charlie=5)
    assert _key("2S 3C 4H 2D 8D", charlie=5) == _key("AS 2C 2H 3D 3S 8C", charlie=5)


def test_minimum_charlie_tiebreak_longer_charlie_wins_a_tie_on_total():
    assert _key("AS 2C 2H 3D 3S 8C", charlie=5, charlie_minimum_tiebreak=True) > _key(
        "2S 3C 4H 2D 8D", charlie=5, charlie_minimum_tiebreak=True)


def test_seven_card_charlie_needs_seven_cards():
    assert _key("2S 3C 4H 2D 3D", charlie=7) == (1, 14)
    assert _key("AS 2C 2H 3D 3S 2D AC", charlie=7)[0] == 2


def test_best_hand_ranking_order():
    order = ["AS KS", "AH KD", "AS QS", "AH QD", "AD JD", "AC JS", "AC TC", "AD TS", "7S 7H 7D",
             "2S 3C 4H 2D 3D", "KS QD", "TS 2C", "2S 3C", "KS QD 5C"]
    keys = [_key(h, best_hand_ranking=True, charlie=5) for h in order]
    assert keys == sorted(keys, reverse=True)
    assert len(set(keys)) == len(keys)


def test_without_best_hand_ranking_all_21s_tie():
    assert _key("AS KS") == _key("7S 7H 7D") == _key("AH TD")


def test_best_hand_describes_a_suited_ace_king():
    assert bj.describe_hand(parse_cards("AS KS"), BluffjackRules(best_hand_ranking=True)) == "21 (A-K suited)"


def test_side_pot_short_stack_can_only_win_what_he_matched():
    cards = {"ann": "9S 7H", "bob": "8S 5C", "cy": "KD QD"}
    s = play(table(stacks={"ann": 50, "bob": 50, "cy": 3}), cards,
             "bob raise 1; cy call; ann raise 10; bob call; cy call; bob stand; cy stand; ann stand; bob call; ann call")
    bj.settle(s)
    main, side = s.last_pots
    assert (main.amount, main.winners) == (9, ["cy"])  # 3 chips from each of the three
    assert (side.amount, side.winners, side.in_contention) == (18, ["ann"], ["bob", "ann"])
    assert stacks(s) == {"ann": 50 - 12 + 18, "bob": 38, "cy": 9}


def test_ten_card_charlie_needs_ten_cards():
    ten = "AS AC AD AH 2S 2C 2D 2H 3S 3C"  # 10 cards, total 18
    assert _key(ten, charlie=10)[0] == 2 and _key(ten, charlie=10) > _key("KS QD", charlie=10)
    assert _key("AS AC AD AH 2S 2C 2D 2H 3S", charlie=10) == (1, 15)
