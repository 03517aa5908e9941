"""Adapters from the stored round (setup, cards, decisions) to each game's live engine.

The services speak one small vocabulary — start a round, deal the card that is due, apply a
decision, ask what comes next, settle — and this module maps it onto each engine's public
functions (``tables.engine.blackjack.live``, ``tables.engine.finnish27``, ...), which keep their own
state types and verify_/can_/do triples.  Pure: no Django import, so it is testable without a
database.  A decision that draws a card (a blackjack hit or double) takes the card with it.
"""

from __future__ import annotations

from decimal import Decimal
from importlib import import_module
from typing import Any

from tables.engine.cards import Card
from tables.engine.errors import InvalidInput, RuleViolation
from tables.engine.money import parse_amount
from tables.engine.paytable import PayTable
from tables.engine.round import Prompt
from tables.engine.rulesets import rules_from_params
from tables.engine.settlement import SettlementLine
from tables.engine.shoe import Shoe

BLACKJACK = ("unlimited-blackjack", "mini-blackjack")


class GameNotAvailable(InvalidInput):
    """The game's live engine is not installed (yet)."""


def _parse_actor(actor: str) -> tuple[int, int | None, int | None]:
    """``"seat:3/hand:1/behind:0"`` → ``(3, 1, 0)``."""
    seat = hand = behind = None
    for part in (actor or "").split("/"):
        name, _, value = part.partition(":")
        if not value.isdigit():
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


# ---------------------------------------------------------------------------------------------
# Blackjack (Unlimited and Mini): tables.engine.blackjack.live


def _bj() -> Any:
    return import_module("tables.engine.blackjack.live")


_BJ_SETUP_KEYS = {"main", "perfect-pairs", "21+3"}


def _bj_start(game: str, rules: Any, pay_table: PayTable, table_minimum: Decimal, setup: dict[str, Any],
              shoe: Shoe) -> Any:
    bl = _bj()
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


def _bj_decide(state: Any, actor: str, action: str, amount: Decimal | None, card: Card | None) -> None:
    bl = _bj()
    if action in ("insurance", "decline", "surrender"):
        seat, _, behind = _parse_actor(actor)
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


def _bj_settle(state: Any) -> list[tuple[int, list[SettlementLine]]]:
    bl = _bj()
    bl.settle(state)
    return sorted((int(seat), list(lines)) for seat, lines in state.lines.items())


def _bj_hint(state: Any) -> str | None:
    return _bj().hint(state)


# ---------------------------------------------------------------------------------------------
# Finnish 27: tables.engine.finnish27 (live round)


def _f27() -> Any:
    try:
        return import_module("tables.engine.finnish27.live")
    except ModuleNotFoundError:
        raise GameNotAvailable("the Finnish 27 engine is not available", field="game") from None


def _f27_start(rules: Any, pay_table: PayTable, table_minimum: Decimal, setup: dict[str, Any], shoe: Shoe) -> Any:
    seats = setup["seats"]
    if len(seats) != 1:
        raise InvalidInput("Finnish 27 is played by one player on one seat", field="seats")
    wagers = seats[0]["wagers"]
    if set(wagers) != {"main"}:
        extra = sorted(set(wagers) - {"main"})
        raise InvalidInput("Finnish 27 takes the game wager only (bonuses are paid on it)",
                           field=f"seats[0].wagers.{extra[0] if extra else 'main'}")  # fmt: skip
    state = _f27().new_round(wagers["main"], table_minimum, pay_table=pay_table, rules=rules, shoe=shoe)
    # The engine's round has one hand and no seat number; the table's seat is kept alongside.
    state.seat_number = seats[0]["seat"]
    return state


def _f27_decide(state: Any, actor: str, action: str, card: Card | None) -> None:
    f = _f27()
    if action == "hit":
        f.hit(state, actor)
    elif action == "stand":
        f.stand(state, actor)
    else:
        raise RuleViolation("live.unknown-action", f"{action!r} is not an action of Finnish 27 (hit or stand)")


def _f27_settle(state: Any) -> list[tuple[int, list[SettlementLine]]]:
    _f27().settle_round(state)
    return [(int(state.seat_number), list(state.settlement.lines))]


# ---------------------------------------------------------------------------------------------
# Bluffjack: tables.engine.bluffjack (a pot game; one stored round is one hand of the game)


def _bf() -> Any:
    return import_module("tables.engine.bluffjack")


def bluffjack_name(seat: dict[str, Any]) -> str:
    """The player's name at a Bluffjack seat (``"seat N"`` when none was given)."""
    return str(seat.get("player") or f"seat {seat['seat']}")


_bf_name = bluffjack_name


def _bf_start(rules: Any, table_minimum: Decimal, setup: dict[str, Any], shoe: Shoe) -> Any:
    bf = _bf()
    seats = sorted(setup["seats"], key=lambda s: s["seat"])  # seat order is clockwise
    stacks: dict[str, int] = {}
    for i, s in enumerate(seats):
        chips = s.get("stack", rules.starting_chips)
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise InvalidInput("stack must be a whole number of chips", field=f"seats[{i}].stack")
        stacks[_bf_name(s)] = chips
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
    state.seat_of = {_bf_name(s): s["seat"] for s in seats}  # the table's seat numbers, kept alongside
    return state


def _bf_decide(state: Any, actor: str, action: str, amount: Decimal | None) -> None:
    bf = _bf()
    if not actor.startswith("player:"):
        raise InvalidInput(f"bad actor {actor!r}: expected player:NAME", field="who")
    name = actor.split(":", 1)[1]
    if action == "raise":
        if amount is None or amount != amount.to_integral_value():
            raise InvalidInput("a raise is a whole number of chips", field="amount")
        bf.raise_(state, name, int(amount))
    elif action in ("call", "fold", "hit", "stand"):
        getattr(bf, action)(state, name)
    else:
        raise RuleViolation("live.unknown-action", f"{action!r} is not an action of Bluffjack")


def bluffjack_after(state: Any) -> dict[str, Any]:
    """What a settled Bluffjack hand leaves for the next: stacks, button, odd chips, the winner."""
    return {
        "stacks": {p.name: p.stack for p in state.players},
        "button": state.players[state.button].name,
        "house": state.house, "set_aside": state.set_aside, "carry": state.carry,
        "over": state.phase == "over", "winner": state.winner or "",
    }  # fmt: skip


def _bf_settle(state: Any) -> list[tuple[int, list[SettlementLine]]]:
    _bf().settle(state)
    out = []
    for name, lines in state.last_lines.items():
        out.append((int(state.seat_of[name]), [
            SettlementLine(str(ln["bet"]), Decimal(ln["wager"]), str(ln["result"]), Decimal(ln["net"]),
                           str(ln["detail"]))
            for ln in lines
        ]))  # fmt: skip
    return sorted(out, key=lambda x: x[0])


# ---------------------------------------------------------------------------------------------
# Dispatch


def _rules_and_table(game: str, params: dict[str, Any], pay_lines: dict[str, Any] | None) -> tuple[Any, PayTable]:
    rules = rules_from_params(game, params)
    pay_table = PayTable.from_json(game, pay_lines or None, field="pay_table")
    return rules, pay_table


def start(game: str, params: dict[str, Any], pay_lines: dict[str, Any] | None, table_minimum: Decimal,
          setup: dict[str, Any], shoe: Shoe | None = None) -> Any:
    """The engine's live state of a freshly opened round (validates the setup, naming the field)."""
    rules, pay_table = _rules_and_table(game, params, pay_lines)
    shoe = shoe if shoe is not None else Shoe(rules.shoe)
    if game in BLACKJACK:
        return _bj_start(game, rules, pay_table, table_minimum, setup, shoe)
    if game == "finnish-27":
        return _f27_start(rules, pay_table, table_minimum, setup, shoe)
    if game == "bluffjack":
        return _bf_start(rules, table_minimum, setup, shoe)
    raise GameNotAvailable(f"live play of {game} is not available on the tablet yet", field="game")


def next_step(game: str, state: Any) -> Prompt:
    """What the table waits for now."""
    return _module(game).next_step(state)  # type: ignore[no-any-return]


def next_step_json(game: str, state: Any) -> dict[str, Any]:
    """The prompt as JSON, with the Mini Blackjack hint where there is one."""
    out = next_step(game, state).as_json()
    if game == "mini-blackjack" and out.get("needs") == "decision":
        out["hint"] = _bj_hint(state)
    return out


def draws_card(game: str, action: str) -> bool:
    """Whether a decision draws a card: its card may come with it or be dealt after it, by any route."""
    if game in BLACKJACK:
        return action in ("hit", "double")
    return action == "hit" and game in ("finnish-27", "bluffjack")


def deal(game: str, state: Any, card: Card) -> None:
    """Deal the card that is due (the engine refuses one that is not, or that the shoe cannot hold)."""
    _module(game).deal(state, card)


def decide(game: str, state: Any, actor: str, action: str, amount: object = None, card: Card | None = None) -> None:
    """Apply a decision; ``RuleViolation`` names the rule when the rules forbid it."""
    value = None if amount is None else parse_amount(amount, field="amount")
    if game in BLACKJACK:
        _bj_decide(state, actor, action, value, card)
    elif game == "finnish-27":
        _f27_decide(state, actor, action, card)
    elif game == "bluffjack":
        _bf_decide(state, actor, action, value)
    else:
        raise GameNotAvailable(f"live play of {game} is not available", field="game")


def settle(game: str, state: Any) -> list[tuple[int, list[SettlementLine]]]:
    """Settle the finished round: ``[(seat, lines)]``."""
    if game in BLACKJACK:
        return _bj_settle(state)
    if game == "finnish-27":
        return _f27_settle(state)
    if game == "bluffjack":
        return _bf_settle(state)
    raise GameNotAvailable(f"live play of {game} is not available", field="game")


def _module(game: str) -> Any:
    if game in BLACKJACK:
        return _bj()
    if game == "finnish-27":
        return _f27()
    if game == "bluffjack":
        return _bf()
    raise GameNotAvailable(f"live play of {game} is not available", field="game")
