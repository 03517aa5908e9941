"""The live round, whatever the game: one protocol every game's adapter implements, dispatched by the
registry (``tables.engine.games``).  The services speak only this vocabulary — start a round from its
stored setup, deal the card that is due, apply a decision, ask what comes next, settle — and store
the engine's answers.  Pure: no Django import.

A decision that draws a card (a hit, a double) may come first; its card is then the next card dealt,
by whatever route it reaches the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from importlib import import_module
from typing import Any, Protocol, cast

from .cards import Card
from .errors import InvalidInput, RuleViolation
from .games import game
from .money import parse_amount
from .paytable import PayTable
from .round import DecisionMade, Prompt
from .rulesets import rules_from_params
from .settlement import SettlementLine
from .shoe import Shoe
from .strategy import Chart


class GameNotAvailable(InvalidInput):
    """The game is not played round by round on the tablet."""


class LiveAdapter(Protocol):
    """What each game's ``adapter`` module provides (module-level functions)."""

    def start(self, game: str, rules: Any, pay_table: PayTable, table_minimum: Decimal, setup: dict[str, Any],
              shoe: Shoe) -> Any: ...  # fmt: skip

    def next_step(self, state: Any) -> Prompt: ...

    def hint(self, state: Any, chart: Chart | None = None) -> str | None: ...

    def draws_card(self, action: str) -> bool: ...

    def deal(self, state: Any, card: Card) -> Any: ...

    def decide(self, state: Any, actor: str, action: str, amount: Decimal | None, card: Card | None) -> Any: ...

    def settle(self, state: Any) -> list[tuple[int, list[SettlementLine]]]: ...

    def cancel(self, state: Any, reason: str) -> list[tuple[int, list[SettlementLine]]]: ...

    def pause(self, state: Any, reason: str, at: datetime) -> None: ...

    def resume(self, state: Any) -> None: ...

    def stand_interrupted(self, state: Any, now: datetime) -> list[DecisionMade]: ...


def adapter(slug: str) -> LiveAdapter:
    """The live adapter of a game (``GameNotAvailable`` for a game not played live)."""
    spec = game(slug)
    if spec.live_module is None:
        raise GameNotAvailable(f"live play of {spec.name} is not available on the tablet", field="game")
    return cast(LiveAdapter, import_module(spec.live_module))


def start(game: str, params: dict[str, Any], pay_lines: dict[str, Any] | None, table_minimum: Decimal,
          setup: dict[str, Any], shoe: Shoe | None = None) -> Any:
    """The engine's live state of a freshly opened round (validates the setup, naming the field)."""
    live = adapter(game)
    rules = rules_from_params(game, params)
    pay_table = PayTable.from_json(game, pay_lines or None, field="pay_table")
    return live.start(game, rules, pay_table, table_minimum, setup, shoe if shoe is not None else Shoe(rules.shoe))


def next_step(game: str, state: Any) -> Prompt:
    """What the table waits for now."""
    return adapter(game).next_step(state)


def next_step_json(game: str, state: Any, chart: Chart | None = None) -> dict[str, Any]:
    """The prompt as JSON, with the game's hint where it gives one (Mini Blackjack), read from ``chart``
    (the strategy the game math computed for the rule set) when the caller has one."""
    out = next_step(game, state).as_json()
    if out.get("needs") == "decision":
        hint = adapter(game).hint(state, chart)
        if hint is not None:
            out["hint"] = hint
    return out


def draws_card(game: str, action: str) -> bool:
    """Whether a decision draws a card: its card may come with it or be dealt after it, by any route."""
    return adapter(game).draws_card(action)


def deal(game: str, state: Any, card: Card) -> Any:
    """Deal the card that is due (the engine refuses one that is not, or that the shoe cannot hold)."""
    return adapter(game).deal(state, card)


class NoCardExpected(RuleViolation):
    """A card arrived while the table waits for something else (a decision that draws none, settlement)."""


@dataclass(frozen=True, slots=True)
class Arrival:
    """What a card that arrived became: the hit it implied (the prompt it answered), and whose card it is."""

    implied_hit: Prompt | None
    to: str


def arrive(game: str, state: Any, card: Card) -> Arrival:
    """A card arrives at the table, by whatever route (picked, scanned, fed by a shoe).

    A card dealt while a hand is to decide and may hit is that hand's hit: the card says it all (the
    rules still refuse a hit they forbid).  Otherwise it must be the card the table waits for.  The
    caller stores the implied decision (``implied_hit``: who, and whether the rules forced it) and then
    the card, in that order.
    """
    prompt = next_step(game, state)
    implied = None
    if prompt.needs == "decision" and "hit" in prompt.allowed and draws_card(game, "hit"):
        decide(game, state, prompt.actor or "", "hit")
        implied, prompt = prompt, next_step(game, state)
    if prompt.needs != "card":
        raise NoCardExpected("live.no-card-expected", f"no card is expected now: {prompt.reason or prompt.needs}")
    deal(game, state, card)
    return Arrival(implied, prompt.actor or "dealer")


def decide(game: str, state: Any, actor: str, action: str, amount: object = None, card: Card | None = None) -> Any:
    """Apply a decision; ``RuleViolation`` names the rule when the rules forbid it."""
    value = None if amount is None else parse_amount(amount, field="amount")
    return adapter(game).decide(state, actor, action, value, card)


def settle(game: str, state: Any) -> list[tuple[int, list[SettlementLine]]]:
    """Settle the finished round: ``[(seat, lines)]``."""
    return adapter(game).settle(state)


def cancel(game: str, state: Any, reason: str) -> list[tuple[int, list[SettlementLine]]]:
    """Cancel a round that cannot be completed: the refund lines the game's rules give, ``[(seat, lines)]``."""
    return adapter(game).cancel(state, reason)


def pause(game: str, state: Any, reason: str, at: datetime) -> None:
    """The round was interrupted at ``at`` (replaying a paused round)."""
    adapter(game).pause(state, reason, at)


def resume(game: str, state: Any) -> None:
    """A paused round goes on where it stopped (``RuleViolation`` when it is not paused)."""
    adapter(game).resume(state)


def stand_interrupted(game: str, state: Any, now: datetime) -> list[DecisionMade]:
    """An interrupted round the rules settle as if the player stood: the decisions taken for the player.

    ``RuleViolation`` when the game or rule set has no such rule, or it is not due yet.
    """
    return adapter(game).stand_interrupted(state, now)


def parse_actor(actor: str) -> tuple[int, int | None, int | None]:
    """``"seat:3/hand:1/behind:0"`` → ``(3, 1, 0)``."""
    seat = hand = behind = None
    for part in (actor or "").split("/"):
        name, _, value = part.partition(":")
        if not (value.isascii() and value.isdigit()):
            raise InvalidInput(f"bad actor {actor!r}: expected e.g. seat:3 or seat:3/behind:0", field="who")
        if name == "seat":
            seat = int(value)
        elif name == "hand":
            hand = int(value)
        elif name == "behind":
            behind = int(value)
        else:
            raise InvalidInput(f"bad actor {actor!r}", field="who")
    if seat is None:
        raise InvalidInput(f"bad actor {actor!r}: no seat", field="who")
    return seat, hand, behind
