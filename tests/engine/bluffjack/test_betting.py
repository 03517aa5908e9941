"""Bluffjack betting: antes, the forced raise, calls, raises, folds, and refused actions."""

from __future__ import annotations

import pytest

from tables.engine import bluffjack as bj
from tables.engine.cards import parse_card
from tables.engine.errors import InvalidCard, InvalidInput, RuleViolation

from ._helpers import play, stacks, table

DEAL = {"ann": "9S 7H", "bob": "8S 5C", "cy": "KD 9D"}


def test_every_player_antes_when_the_hand_starts():
    s = table(ante=2)
    events = bj.start_hand(s)
    assert [e.action for e in events] == ["ante"] * 3
    assert s.pot == 6 and stacks(s) == {"ann": 98, "bob": 98, "cy": 98}


def test_cards_are_dealt_down_then_up_starting_left_of_the_dealer():
    s = table()
    events = []
    bj.start_hand(s)
    for code in "2S 3S 4S 5S 6S 7S".split():
        events += bj.deal(s, parse_card(code))
    assert [(e.to, e.face_up) for e in events] == [
        ("player:bob", False), ("player:cy", False), ("player:ann", False),
        ("player:bob", True), ("player:cy", True), ("player:ann", True)]


def test_player_left_of_dealer_must_raise_by_the_minimum():
    s = play(table(minimum_raise=5), DEAL)
    prompt = bj.next_step(s)
    assert prompt.actor == "player:bob" and prompt.forced == "raise" and prompt.allowed == ("raise",)
    assert not bj.can_call(s, "bob") and not bj.can_fold(s, "bob")
    with pytest.raises(RuleViolation) as exc:
        bj.raise_(s, "bob", 6)
    assert exc.value.rule == "bluffjack.forced-raise"
    bj.raise_(s, "bob", 5)
    assert s.to_call(s.player("cy")) == 5


def test_betting_round_closes_when_everyone_has_matched_the_highest_bet():
    s = play(table(), DEAL, "bob raise 1; cy raise 3; ann call")
    assert bj.next_step(s).actor == "player:bob"  # bob owes 3 after cy's raise
    bj.call(s, "bob")
    assert s.phase == "draw" and s.pot == 15


def test_a_raise_reopens_the_betting_for_everyone():
    s = play(table(), DEAL, "bob raise 1; cy call; ann raise 2")
    assert bj.next_step(s).actor == "player:bob"
    bj.call(s, "bob")
    assert bj.next_step(s).actor == "player:cy"


def test_lone_remaining_player_wins_the_pot_at_once():
    s = play(table(), DEAL, "bob raise 1; cy fold; ann fold")
    assert s.phase == "showdown"
    bj.settle(s)
    assert stacks(s) == {"ann": 99, "bob": 102, "cy": 99}


def test_raising_more_chips_than_held_is_refused_and_state_unchanged():
    s = play(table(stacks={"ann": 10, "bob": 10, "cy": 10}), DEAL, "bob raise 1")
    before = s.snapshot()
    with pytest.raises(RuleViolation) as exc:
        bj.raise_(s, "cy", 9)  # owes 1, holds 9: at most a raise of 8
    assert exc.value.rule == "bluffjack.raise-exceeds-stack" and "holds 9 chips" in exc.value.message
    assert s == before
    assert bj.can_raise(s, "cy", 8)


def test_out_of_turn_action_is_refused_and_state_unchanged():
    s = play(table(), DEAL, "bob raise 1")
    before = s.snapshot()
    for action in (lambda: bj.call(s, "ann"), lambda: bj.fold(s, "ann"), lambda: bj.raise_(s, "ann", 1),
                   lambda: bj.hit(s, "cy")):
        with pytest.raises(RuleViolation) as exc:
            action()
        assert exc.value.rule in ("bluffjack.out-of-turn", "bluffjack.no-hit-now")
        assert s == before


def test_raise_below_the_minimum_is_refused_unless_all_in():
    s = play(table(minimum_raise=5, stacks={"ann": 100, "bob": 100, "cy": 8}), DEAL, "bob raise 5")
    with pytest.raises(RuleViolation) as exc:
        bj.raise_(s, "cy", 1)
    assert exc.value.rule == "bluffjack.minimum-raise"
    bj.raise_(s, "cy", 2)  # owes 5, holds 7: all-in for a raise of 2
    assert s.players[s.player("cy")].stack == 0


def test_fold_with_nothing_owed_is_refused():
    s = play(table(), DEAL, "bob raise 1; cy call; ann call; bob stand; cy stand; ann stand")
    assert s.street == "final"
    with pytest.raises(RuleViolation) as exc:
        bj.fold(s, "bob")
    assert exc.value.rule == "bluffjack.fold-with-nothing-owed"


def test_an_impossible_card_is_refused_and_state_unchanged():
    s = table()
    bj.start_hand(s)
    bj.deal(s, parse_card("AS"))
    before = s.snapshot()
    with pytest.raises(InvalidCard):
        bj.deal(s, parse_card("AS"))  # one deck: only one Ace of spades
    assert s == before


def test_a_non_integer_raise_is_invalid_input_naming_the_field():
    s = play(table(), DEAL)
    with pytest.raises(InvalidInput) as exc:
        bj.raise_(s, "bob", "1")  # type: ignore[arg-type]
    assert exc.value.field == "by"


def test_short_stack_calls_all_in_for_less():
    s = play(table(stacks={"ann": 100, "bob": 100, "cy": 3}), DEAL, "bob raise 1; cy call; ann raise 10")
    bj.call(s, "bob")
    bj.call(s, "cy")  # owes 10, holds 1: all-in
    assert s.players[s.player("cy")].stack == 0 and s.players[s.player("cy")].committed == 3
    assert s.phase == "draw"


def test_ante_all_in_player_left_of_dealer_has_no_forced_raise():
    s = play(table(stacks={"ann": 100, "bob": 1, "cy": 100}), DEAL)
    prompt = bj.next_step(s)
    assert prompt.actor == "player:cy" and prompt.forced is None


def test_the_card_a_player_asked_for_is_prompted_without_a_pronoun():
    s = play(table(), DEAL, "bob raise 1; cy call; ann call")
    prompt = bj.next_step(s)
    assert prompt.needs == "decision" and prompt.allowed == ("hit", "stand"), prompt
    who = prompt.actor.split(":", 1)[1]
    bj.hit(s, who)
    assert bj.next_step(s).reason == f"deal {who} the card they asked for"
