"""Builders for blackjack tests: verify requests, and live rounds driven by a fixed card sequence."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from tables.engine.blackjack import live as L
from tables.engine.cards import Card, parse_cards
from tables.engine.rulesets import PUBLISHED_RULES, BlackjackRules

D = Decimal
UNLIMITED = "unlimited-blackjack"
MINI = "mini-blackjack"


def rules_of(game: str, **changes: Any) -> BlackjackRules:
    rules = PUBLISHED_RULES[game]
    assert isinstance(rules, BlackjackRules)
    if changes:
        from dataclasses import replace

        rules = replace(rules, **changes)
    return rules


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def hand(text: str, doubled: bool = False, surrendered: bool = False) -> dict[str, Any]:
    return {"cards": text.split(), "doubled": doubled, "surrendered": surrendered}


def seat(number: int = 1, main: str | None = "10.00", hands: Iterable[dict[str, Any]] = (), **extra: Any) -> dict[str, Any]:
    wagers = dict(extra.pop("wagers", {}))
    if main is not None:
        wagers["main"] = main
    return {"seat": number, "wagers": wagers, "hands": list(hands), **extra}


def request(game: str, dealer: str, *seats: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"game": game, "table_minimum": "5.00", "dealer": {"cards": dealer.split()}, "seats": list(seats), **extra}


def lines_of(answer: dict[str, Any], seat_no: int | None = None) -> list[dict[str, Any]]:
    return [line for s in answer["seats"] if seat_no is None or s["seat"] == seat_no for line in s["lines"]]


def rules_ids(answer: dict[str, Any]) -> list[str]:
    return [v["rule"] for v in answer["violations"]]


def one(answer: dict[str, Any], bet: str = "main", **where: Any) -> dict[str, Any]:
    found = [line for line in lines_of(answer) if line["bet"] == bet and all(line.get(k) == v for k, v in where.items())]
    assert len(found) == 1, found
    return found[0]


def open_round(game: str, bets: list[L.SeatBet], behind: list[L.BehindBet] | None = None, **kw: Any) -> L.BlackjackRound:
    return L.start_round(game, bets, behind or [], table_minimum=D("5.00"), **kw)


def deal_initial(state: L.BlackjackRound, text: str) -> None:
    """Deal the initial cards in deal order (seat cards, up card, seat cards, hole card)."""
    for c in cards(text):
        assert L.next_step(state).needs == "card", L.next_step(state)
        L.deal(state, c)


def finish_dealer(state: L.BlackjackRound, text: str = "") -> None:
    """Deal the dealer's draws (``text``) and settle."""
    for c in cards(text):
        assert L.next_step(state).phase == "dealer", L.next_step(state)
        L.deal(state, c)
    L.settle(state)
