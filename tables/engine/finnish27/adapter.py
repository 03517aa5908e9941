"""The live round of No-Bust Finnish 27 behind the engine's one live protocol
(``tables.engine.live.LiveAdapter``): one player on one seat; a hit is a decision, its card is dealt next."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from ..cards import Card
from ..errors import InvalidInput, RuleViolation
from ..paytable import PayTable
from ..round import DecisionMade, Prompt
from ..settlement import SettlementLine
from ..shoe import Shoe
from ..strategy import Chart
from . import live as f


def start(game: str, rules: Any, pay_table: PayTable, table_minimum: Decimal, setup: dict[str, Any],
          shoe: Shoe) -> f.Finnish27Round:
    seats = setup["seats"]
    if len(seats) != 1:
        raise InvalidInput("Finnish 27 is played by one player on one seat", field="seats")
    wagers = seats[0]["wagers"]
    if set(wagers) != {"main"}:
        extra = sorted(set(wagers) - {"main"})
        raise InvalidInput("Finnish 27 takes the game wager only (bonuses are paid on it)",
                           field=f"seats[0].wagers.{extra[0] if extra else 'main'}")  # fmt: skip
    state = f.new_round(wagers["main"], table_minimum, pay_table=pay_table, rules=rules, shoe=shoe)
    state.seat_number = seats[0]["seat"]
    return state


def decide(state: f.Finnish27Round, actor: str, action: str, amount: Decimal | None, card: Card | None) -> Any:
    if action == "hit":
        event = f.hit(state, actor)
        return event if card is None else (event, f.deal(state, card))
    if action == "stand":
        return f.stand(state, actor)
    raise RuleViolation("live.unknown-action", f"{action!r} is not an action of Finnish 27 (hit or stand)")


def settle(state: f.Finnish27Round) -> list[tuple[int, list[SettlementLine]]]:
    f.settle_round(state)
    assert state.settlement is not None
    return [(int(state.seat_number), list(state.settlement.lines))]


def next_step(state: f.Finnish27Round) -> Prompt:
    return f.next_step(state)


def hint(state: f.Finnish27Round, chart: Chart | None = None) -> str | None:
    return None


def draws_card(action: str) -> bool:
    return action == "hit"


def deal(state: f.Finnish27Round, card: Card) -> Any:
    return f.deal(state, card)


def cancel(state: Any, reason: str) -> list[tuple[int, list[SettlementLine]]]:
    why = f"round cancelled ({reason}): bet refunded"
    return [(int(state.seat_number), [SettlementLine("main", state.wager, "refund", Decimal("0.00"), why)])]


def pause(state: Any, reason: str, at: datetime) -> None:
    """Nothing in the Finnish 27 rules depends on how long a round was interrupted."""


def resume(state: Any) -> None:
    """Nothing to restore: the round goes on where it stopped."""


def stand_interrupted(state: Any, now: datetime) -> list[DecisionMade]:
    raise RuleViolation("live.no-automatic-settlement",
                        "Finnish 27 rounds are not settled automatically after an interruption: resume or cancel")
