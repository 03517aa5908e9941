"""Bluffjack invariants under random play: chips are conserved at every step, refusals change nothing."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine import bluffjack as bj
from tables.engine.errors import RuleViolation
from tables.engine.rulesets import BluffjackRules

rule_sets = st.builds(
    BluffjackRules,
    ante=st.integers(1, 3),
    minimum_raise=st.integers(1, 4),
    two_initial_bets=st.booleans(),
    bet_after_each_card=st.booleans(),
    no_house=st.booleans(),
    charlie=st.sampled_from([0, 5, 7, 10]),
    charlie_minimum_tiebreak=st.booleans(),
    best_hand_ranking=st.booleans(),
    odd_chip=st.sampled_from(["first_left_of_dealer", "house", "next_pot"]),
)


def _random_action(state: bj.BluffjackState, rng: random.Random) -> None:
    """Take one legal step chosen at random (cards come from a shuffled deck)."""
    prompt = bj.next_step(state)
    if prompt.needs == "start_hand":
        bj.start_hand(state)
        state._deck = state.rules.shoe.shuffled(rng)  # type: ignore[attr-defined]
        return
    if prompt.needs == "settle":
        bj.settle(state)
        return
    if prompt.needs == "card":
        bj.deal(state, state._deck.pop())  # type: ignore[attr-defined]
        return
    assert prompt.actor is not None
    name = prompt.actor.split(":", 1)[1]
    choice = rng.choice(prompt.allowed)
    if choice == "raise":
        seat = state.player(name)
        room = state.players[seat].stack - state.to_call(seat)
        by = state.rules.minimum_raise if prompt.forced else rng.randint(1, max(1, room))
        by = min(by, room) if by > room else by
        if not bj.can_raise(state, name, by):
            by = min(state.rules.minimum_raise, room)
        bj.raise_(state, name, by)
    elif choice in ("hit", "stand"):
        # lean towards standing so hands end
        getattr(bj, "hit" if choice == "hit" and rng.random() < 0.6 else "stand")(state, name)
    else:
        getattr(bj, choice)(state, name)


def _try_illegal(state: bj.BluffjackState, rng: random.Random) -> None:
    """Attempt an action by someone whose turn it is not (or an oversized raise): must change nothing."""
    prompt = bj.next_step(state)
    others = [p.name for p in state.players if prompt.actor != f"player:{p.name}"]
    before = state.snapshot()
    name = rng.choice(others)
    for attempt in (lambda: bj.call(state, name), lambda: bj.raise_(state, name, 1),
                    lambda: bj.hit(state, name), lambda: bj.fold(state, name)):
        try:
            attempt()
        except RuleViolation:
            pass
        else:  # pragma: no cover - would be a bug
            raise AssertionError(f"{name} acted out of turn: {prompt}")
        assert state == before
    if prompt.actor and prompt.needs == "decision" and "raise" in prompt.allowed:
        actor = prompt.actor.split(":", 1)[1]
        seat = state.player(actor)
        too_much = state.players[seat].stack - state.to_call(seat) + 1
        try:
            bj.raise_(state, actor, too_much)
        except RuleViolation as exc:
            assert exc.rule in ("bluffjack.raise-exceeds-stack", "bluffjack.forced-raise")
        assert state == before


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets, players=st.integers(2, 6), chips=st.integers(1, 12), seed=st.integers(0, 2**32 - 1))
def test_chips_are_conserved_at_every_step(rules, players, chips, seed):
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
    state = bj.new_game(rules, names, stacks={n: rng.randint(1, chips) for n in names})
    total = state.chips_in_play
    for step in range(600):
        if state.phase == "over":
            break
        if step % 7 == 3:
            _try_illegal(state, rng)
        _random_action(state, rng)
        assert state.chips_in_play == total
        assert all(p.stack >= 0 and p.committed >= 0 for p in state.players)
    if state.phase == "over" and state.winner is not None:
        # the winner holds every chip the house did not take
        assert state.players[state.player(state.winner)].stack == total - state.house
