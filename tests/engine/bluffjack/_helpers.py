"""Drive a Bluffjack hand from a short script (test helper)."""

from __future__ import annotations

from tables.engine import bluffjack as bj
from tables.engine.cards import parse_cards
from tables.engine.rulesets import BluffjackRules


def table(players: str = "ann bob cy", *, dealer: str = "ann", stacks: dict[str, int] | None = None,
          **rules: object) -> bj.BluffjackState:
    """A new game with the given rule options."""
    return bj.new_game(BluffjackRules(**rules), players.split(), dealer=dealer, stacks=stacks)  # type: ignore[arg-type]


def play(state: bj.BluffjackState, cards: dict[str, str], script: str = "", *, start: bool = True) -> bj.BluffjackState:
    """Start a hand and play ``script`` ("bob raise 1; cy call; ann hit"), dealing from ``cards`` when due."""
    pending = {name: parse_cards(codes) for name, codes in cards.items()}
    if start:
        bj.start_hand(state)
    steps = [s.split() for s in script.split(";") if s.strip()]
    while True:
        prompt = bj.next_step(state)
        if prompt.needs == "card":
            assert prompt.actor is not None
            name = prompt.actor.split(":", 1)[1]
            bj.deal(state, pending[name].pop(0))
            continue
        if not steps:
            return state
        who, action, *arg = steps.pop(0)
        if action == "raise":
            bj.raise_(state, who, int(arg[0]))
        else:
            getattr(bj, action)(state, who)


def stacks(state: bj.BluffjackState) -> dict[str, int]:
    """Each player's chips."""
    return {p.name: p.stack for p in state.players}
