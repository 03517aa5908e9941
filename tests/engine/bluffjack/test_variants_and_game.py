"""Bluffjack variants (two initial bets, betting after each card) and the game: button, elimination, end."""

from __future__ import annotations

import pytest

from tables.engine import bluffjack as bj
from tables.engine.cards import parse_card
from tables.engine.errors import InvalidInput, RuleViolation

from ._helpers import play, stacks, table


def test_two_initial_bets_bet_after_the_down_card_and_again_after_the_up_card():
    s = table(two_initial_bets=True)
    bj.start_hand(s)
    for code in "8S KD 9S".split():
        bj.deal(s, parse_card(code))
    assert s.phase == "bet" and bj.next_step(s).forced == "raise"  # forced raise in the first round only
    bj.raise_(s, "bob", 1)
    bj.call(s, "cy")
    bj.call(s, "ann")
    assert s.phase == "deal" and bj.next_step(s).reason.endswith("face up")
    for code in "5C 9D 7H".split():
        bj.deal(s, parse_card(code))
    prompt = bj.next_step(s)
    assert s.street == "second" and prompt.actor == "player:bob" and prompt.forced is None
    assert "fold" not in prompt.allowed and "call" in prompt.allowed  # nothing owed: check or raise
    bj.call(s, "bob")
    bj.raise_(s, "cy", 2)
    bj.fold(s, "ann")
    bj.call(s, "bob")
    assert s.phase == "draw" and s.pot == 3 + 3 + 2 + 2  # antes, round one, round two


def test_bet_after_each_card_player_who_held_must_still_call_or_raise():
    s = play(table(bet_after_each_card=True), {"ann": "9S 7H", "bob": "8S 5C 2D", "cy": "KD 9D"},
             "bob raise 1; cy call; ann call")
    bj.hit(s, "bob")
    bj.deal(s, parse_card("2D"))
    prompt = bj.next_step(s)
    assert prompt.actor == "player:bob" and set(prompt.allowed) == {"call", "raise"}
    bj.raise_(s, "bob", 2)
    bj.stand(s, "cy")
    assert bj.next_step(s).actor == "player:cy" and "fold" in bj.next_step(s).allowed
    bj.call(s, "cy")
    bj.stand(s, "ann")
    bj.call(s, "ann")
    # bob has not stood: his drawing turn; after he stands, all have stood -> final betting round
    bj.stand(s, "bob")
    assert bj.next_step(s).actor == "player:bob" and s.phase == "draw"  # his betting turn after holding
    bj.call(s, "bob")
    assert s.street == "final"


def test_bet_after_each_card_a_stood_player_gets_a_betting_turn_when_play_passes_him():
    s = play(table(bet_after_each_card=True), {"ann": "9S 7H", "bob": "8S 5C", "cy": "KD 9D 2D"},
             "bob raise 1; cy call; ann call; bob stand; bob call; cy hit")
    bj.raise_(s, "cy", 1)
    bj.stand(s, "ann")
    bj.call(s, "ann")
    prompt = bj.next_step(s)
    assert prompt.actor == "player:bob" and "must still call or raise" in prompt.reason
    with pytest.raises(RuleViolation):
        bj.hit(s, "bob")


def test_without_the_variant_there_is_no_betting_during_the_drawing():
    s = play(table(), {"ann": "9S 7H", "bob": "8S 5C", "cy": "KD 9D"}, "bob raise 1; cy call; ann call")
    with pytest.raises(RuleViolation) as exc:
        bj.raise_(s, "bob", 1)
    assert exc.value.rule == "bluffjack.no-bet-now"


def test_a_dead_hand_takes_no_more_cards():
    s = play(table(), {"ann": "9S 7H", "bob": "8S 5C KH", "cy": "KD 9D"}, "bob raise 1; cy call; ann call; bob hit")
    assert s.players[s.player("bob")].stood
    assert bj.next_step(s).actor == "player:cy"


def test_dealer_button_passes_to_the_left():
    s = play(table(), {"ann": "9S 7H", "bob": "8S 5C", "cy": "KD 9D"}, "bob raise 1; cy fold; ann fold")
    bj.settle(s)
    assert s.players[s.button].name == "bob"
    bj.start_hand(s)
    assert [s.players[i].name for i in s.order] == ["cy", "ann", "bob"]


def test_players_without_chips_are_eliminated_and_skipped_by_the_button():
    s = table("ann bob cy dee", stacks={"ann": 10, "bob": 2, "cy": 10, "dee": 10})
    play(s, {"ann": "9S 7H", "bob": "8S 5C", "cy": "KD 9D", "dee": "2C 3C"},
         "bob raise 1; cy call; dee fold; ann fold; bob stand; cy stand")
    events = bj.settle(s)
    assert bj.PlayerEliminated("bob") in events
    assert s.players[s.button].name == "cy"  # bob, left of ann, is out: the button skips him
    bj.start_hand(s)
    assert [s.players[i].name for i in s.order] == ["dee", "ann", "cy"]


def test_game_ends_when_one_player_holds_all_the_chips():
    s = table("ann bob", stacks={"ann": 5, "bob": 2})
    # ann deals; bob (left of dealer) antes 1 and must raise 1: all-in
    play(s, {"ann": "KS QS", "bob": "8S 5C"}, "bob raise 1; ann call; bob stand; ann stand")
    events = bj.settle(s)
    assert s.phase == "over" and s.winner == "ann" and stacks(s) == {"ann": 7, "bob": 0}
    assert isinstance(events[-1], bj.GameWon)
    assert not bj.can_start_hand(s)
    assert bj.next_step(s).phase == "over"


def test_a_game_needs_two_players_with_chips():
    with pytest.raises(InvalidInput) as exc:
        bj.new_game(None, ["ann"])
    assert exc.value.field == "players"


def test_settle_before_the_hand_is_over_is_refused():
    s = play(table(), {"ann": "9S 7H", "bob": "8S 5C", "cy": "KD 9D"})
    before = s.snapshot()
    with pytest.raises(RuleViolation) as exc:
        bj.settle(s)
    assert exc.value.rule == "bluffjack.hand-not-over" and s == before


def test_everyone_busting_their_last_chips_ends_the_game_without_a_winner():
    s = table("ann bob", stacks={"ann": 2, "bob": 2})
    play(s, {"ann": "KS QS 5D", "bob": "8S 5C KH"}, "bob raise 1; ann call; bob hit; ann hit")
    events = bj.settle(s)
    assert s.house == 4 and s.phase == "over" and s.winner is None
    assert events[-1] == bj.GameWon(None, 0)


def test_no_house_everyone_busting_their_last_chips_shares_the_set_aside_and_play_goes_on():
    s = table("ann bob", stacks={"ann": 2, "bob": 2}, no_house=True)
    play(s, {"ann": "KS QS 5D", "bob": "8S 5C KH"}, "bob raise 1; ann call; bob hit; ann hit")
    bj.settle(s)  # the 4 chips set aside are shared: 2 each
    assert s.set_aside == 0 and s.phase == "ready"
    assert stacks(s) == {"ann": 2, "bob": 2} and s.chips_in_play == s.total_chips


def test_no_house_the_last_player_with_chips_collects_the_set_aside():
    s = table("ann bob", stacks={"ann": 3, "bob": 2}, no_house=True)
    play(s, {"ann": "KS QS 5D", "bob": "8S 5C KH"}, "bob raise 1; ann call; bob hit; ann hit")
    events = bj.settle(s)
    assert s.phase == "over" and s.winner == "ann" and stacks(s) == {"ann": 5, "bob": 0}
    assert events[-1] == bj.GameWon("ann", 4)
