"""The live round of Bluffjack behind the engine's one live protocol (``tables.engine.live.LiveAdapter``):
one stored round is one hand of a game; players are named (``player:NAME``), stacks carried by the game."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from .. import bluffjack as bf
from ..cards import Card
from ..errors import InvalidInput, RuleViolation
from ..paytable import PayTable
from ..round import DecisionMade, Prompt
from ..settlement import SettlementLine
from ..shoe import Shoe
from ..strategy import Chart


def bluffjack_name(seat: dict[str, Any]) -> str:
    """The player's name at a Bluffjack seat (``"seat N"`` when none was given)."""
    return str(seat.get("player") or f"seat {seat['seat']}")


def start(game: str, rules: Any, pay_table: PayTable, table_minimum: Decimal, setup: dict[str, Any],
          shoe: Shoe) -> bf.BluffjackState:
    seats = sorted(setup["seats"], key=lambda s: s["seat"])  # seat order is clockwise
    stacks: dict[str, int] = {}
    for i, s in enumerate(seats):
        chips = s.get("stack", rules.starting_chips)
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise InvalidInput("stack must be a whole number of chips", field=f"seats[{i}].stack")
        stacks[bluffjack_name(s)] = chips
    dealer = setup.get("dealer")
    if dealer is not None and dealer not in stacks:
        raise InvalidInput(f"the dealer {dealer!r} is not seated", field="dealer")
    state = bf.new_game(rules, list(stacks), dealer=dealer, stacks=stacks)
    # A hand of a running game brings what the game carries: odd chips for this pot, the house's
    # take and the chips set aside under no_house (they count in the game's chip total).
    for name in ("carry", "house", "set_aside"):
        chips = setup.get(name, 0)
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise InvalidInput("must be a whole number of chips", field=name)
        setattr(state, name, chips)
    state.total_chips = state.chips_in_play
    state.shoe = shoe
    bf.start_hand(state)  # antes in, the deal begins
    state.seat_of = {bluffjack_name(s): s["seat"] for s in seats}
    return state


def decide(state: bf.BluffjackState, actor: str, action: str, amount: Decimal | None, card: Card | None) -> Any:
    if not actor.startswith("player:"):
        raise InvalidInput(f"bad actor {actor!r}: expected player:NAME", field="who")
    name = actor.split(":", 1)[1]
    if action == "raise":
        if amount is None or amount != amount.to_integral_value():
            raise InvalidInput("a raise is a whole number of chips", field="amount")
        return bf.raise_(state, name, int(amount))
    if action in ("call", "fold", "hit", "stand"):
        event = getattr(bf, action)(state, name)
        return event if card is None or action != "hit" else (event, bf.deal(state, card))
    raise RuleViolation("live.unknown-action", f"{action!r} is not an action of Bluffjack")


def bluffjack_after(state: Any) -> dict[str, Any]:
    """What a settled Bluffjack hand leaves for the next: stacks, button, odd chips, the winner."""
    return {
        "stacks": {p.name: p.stack for p in state.players},
        "button": state.players[state.button].name,
        "house": state.house, "set_aside": state.set_aside, "carry": state.carry,
        "over": state.phase == "over", "winner": state.winner or "",
    }  # fmt: skip


def settle(state: bf.BluffjackState) -> list[tuple[int, list[SettlementLine]]]:
    bf.settle(state)
    out = []
    for name, lines in state.last_lines.items():
        out.append((int(state.seat_of[name]), [
            SettlementLine(str(ln["bet"]), Decimal(ln["wager"]), str(ln["result"]), Decimal(ln["net"]),
                           str(ln["detail"]))
            for ln in lines
        ]))  # fmt: skip
    return sorted(out, key=lambda x: x[0])


def next_step(state: bf.BluffjackState) -> Prompt:
    return bf.next_step(state)


def hint(state: bf.BluffjackState, chart: Chart | None = None) -> str | None:
    return None


def draws_card(action: str) -> bool:
    return action == "hit"


def deal(state: bf.BluffjackState, card: Card) -> Any:
    return bf.deal(state, card)


def cancel(state: Any, reason: str) -> list[tuple[int, list[SettlementLine]]]:
    # The antes and bets of a cancelled hand go back to the stacks the game carries (the game's stacks
    # are not taken from a cancelled hand): there is no house bet to refund.
    return []


def pause(state: Any, reason: str, at: datetime) -> None:
    """Nothing in the Bluffjack rules depends on how long a round was interrupted."""


def resume(state: Any) -> None:
    """Nothing to restore: the hand goes on where it stopped."""


def stand_interrupted(state: Any, now: datetime) -> list[DecisionMade]:
    raise RuleViolation("live.no-automatic-settlement",
                        "Bluffjack rounds are not settled automatically after an interruption: resume or cancel")
