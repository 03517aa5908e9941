"""The live round of Unlimited and Mini Blackjack behind the engine's one live protocol
(``tables.engine.live.LiveAdapter``): the stored setup to a ``BlackjackRound``, decisions by name."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from ..cards import Card
from ..errors import InvalidInput, RuleViolation
from ..games import game
from ..live import parse_actor
from ..paytable import PayTable
from ..round import DecisionMade, Prompt
from ..settlement import SettlementLine
from ..shoe import Shoe
from ..strategy import Chart
from . import live as bl

_BJ_SETUP_KEYS = {"main", "perfect-pairs", "21+3"}


def start(game: str, rules: Any, pay_table: PayTable, table_minimum: Decimal, setup: dict[str, Any],
              shoe: Shoe) -> Any:
    bets, behind = [], []
    for i, s in enumerate(setup["seats"]):
        w = s["wagers"]
        extra = set(w) - _BJ_SETUP_KEYS
        if extra:
            raise InvalidInput(f"unknown bet {sorted(extra)[0]!r}: insurance is taken when offered",
                               field=f"seats[{i}].wagers.{sorted(extra)[0]}")  # fmt: skip
        if "main" not in w:
            raise InvalidInput("the main bet is required", field=f"seats[{i}].wagers.main")
        bets.append(bl.SeatBet(
            seat=s["seat"], main=Decimal(w["main"]), player=s.get("player"),
            perfect_pairs=Decimal(w["perfect-pairs"]) if "perfect-pairs" in w else None,
            twenty_one_plus_three=Decimal(w["21+3"]) if "21+3" in w else None,
            refuses_behind=bool(s.get("refuses_bets_behind", False)),
        ))  # fmt: skip
        for j, b in enumerate(s.get("behind", [])):
            if set(b["wagers"]) != {"main"}:
                raise InvalidInput("a bet behind holds a main bet only (insurance when offered)",
                                   field=f"seats[{i}].behind[{j}].wagers")  # fmt: skip
            behind.append(bl.BehindBet(
                seat=s["seat"], main=Decimal(b["wagers"]["main"]), player=b.get("player"),
                double_along=bool(b.get("double_along", False)), follow_split=b.get("follow_split", "both"),
            ))  # fmt: skip
    return bl.start_round(game, bets, behind, table_minimum=table_minimum, shoe=shoe, rules=rules,
                          pay_table=pay_table)  # fmt: skip


def decide(state: Any, actor: str, action: str, amount: Decimal | None, card: Card | None) -> None:
    if action in ("insurance", "decline", "surrender"):
        seat, _, behind = parse_actor(actor)
        if action == "insurance":
            bl.insure(state, seat, behind)
        elif action == "decline":
            bl.decline(state, seat, behind)
        else:
            if behind is not None:
                raise RuleViolation("blackjack.surrender-behind", "a bet behind follows the seat's surrender")
            bl.surrender(state, seat)
    elif action in ("hit", "double"):
        if card is None:  # decided first: the next card dealt is this hit's or double's card
            (bl.declare_hit if action == "hit" else bl.declare_double)(state)
        else:
            (bl.hit if action == "hit" else bl.double)(state, card)
    elif action == "stand":
        bl.stand(state)
    elif action == "split":
        bl.split(state)
    else:
        raise RuleViolation("live.unknown-action", f"{action!r} is not an action of this game")


def settle(state: bl.BlackjackRound) -> list[tuple[int, list[SettlementLine]]]:
    bl.settle(state)
    return sorted((int(seat), list(lines)) for seat, lines in state.lines.items())


def next_step(state: bl.BlackjackRound) -> Prompt:
    return bl.next_step(state)


def hint(state: bl.BlackjackRound, chart: Chart | None = None) -> str | None:
    """Basic-strategy hints, where the game's rules publish them (Mini Blackjack: the registry's "hints")."""
    return bl.hint(state, chart) if "hints" in game(state.game).capabilities else None


def draws_card(action: str) -> bool:
    return action in ("hit", "double")


def deal(state: bl.BlackjackRound, card: Card) -> Any:
    return bl.deal(state, card)


def cancel(state: bl.BlackjackRound, reason: str) -> list[tuple[int, list[SettlementLine]]]:
    """Every bet placed is refunded, a double's or insurance's stake included."""
    bl.cancel(state, reason)
    return sorted((int(seat), list(lines)) for seat, lines in state.lines.items())


def pause(state: bl.BlackjackRound, reason: str, at: datetime) -> None:
    bl.pause(state, reason, at)


def resume(state: bl.BlackjackRound) -> None:
    bl.resume(state)


def stand_interrupted(state: bl.BlackjackRound, now: datetime) -> list[DecisionMade]:
    return bl.stand_interrupted(state, now)
