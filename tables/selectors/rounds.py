"""Reads of a stored round and its shoe as the engine sees them (imported by the services, which store
what the engine returns; nothing here writes)."""

from __future__ import annotations

from typing import Any

from tables.engine import live
from tables.engine.cards import parse_card
from tables.engine.shoe import Shoe as EngineShoe
from tables.engine.shoe import ShoeSpec, ShuffleRule
from tables.models import Decision, Round, RoundCard, RoundState, Shoe, Table


def current_shoe(table: Table) -> Shoe | None:
    """The shoe being dealt at the table (the latest one), or None before the first shuffle."""
    return Shoe.objects.filter(table=table, ended_at__isnull=True).order_by("-number").first()


def engine_shoe_spec(shoe: Shoe) -> ShoeSpec:
    """The engine's spec of a stored shoe."""
    return ShoeSpec(
        decks=shoe.spec["decks"], jokers_per_deck=shoe.spec.get("jokers_per_deck", 0),
        shuffle_rule=ShuffleRule(shoe.spec.get("shuffle_rule", "cut_card")),
        shuffle_at=shoe.spec.get("shuffle_at", 0), total_jokers=shoe.spec.get("total_jokers"),
    )  # fmt: skip


def engine_shoe(shoe: Shoe) -> EngineShoe:
    """The engine's shoe with every card dealt from this shoe so far, in order."""
    spec = engine_shoe_spec(shoe)
    codes = RoundCard.objects.filter(round__shoe=shoe).order_by("shoe_position", "id").values_list("code", flat=True)
    return EngineShoe.from_dealt(spec, [parse_card(c) for c in codes])


def _shoe_before(round: Round) -> EngineShoe | None:
    """The round's shoe as it stood when the round opened (cards of the earlier rounds only)."""
    shoe = round.shoe
    if shoe is None:
        return None
    spec = engine_shoe_spec(shoe)
    codes = (RoundCard.objects.filter(round__shoe=shoe, round__number__lt=round.number)
             .order_by("round__number", "seq").values_list("code", flat=True))  # fmt: skip
    return EngineShoe.from_dealt(spec, [parse_card(c) for c in codes])


def round_state(round: Round) -> Any:
    """The engine's live state of the round: its setup, then every card and decision in order."""
    state = live.start(round.game, round.rules, round.pay_table_lines, round.table_minimum, round.setup,
                       _shoe_before(round))  # fmt: skip
    events: list[tuple[int, int, Any]] = sorted(
        [(c.seq, 1, c) for c in RoundCard.objects.filter(round=round)]
        + [(d.seq, 0, d) for d in Decision.objects.filter(round=round)],
        key=lambda e: (e[0], e[1]),
    )
    # A hit or double is stored as its decision followed by its card, whichever route the card took
    # (with the decision, picked after it, or scanned): the engine takes the decision first and the
    # next dealt card completes it, so replaying the rows in order rebuilds the same state.
    for _, kind, ev in events:
        if kind == 1:
            live.deal(round.game, state, parse_card(ev.code))
        else:
            live.decide(round.game, state, ev.actor, ev.action, ev.amount)
    if round.state == RoundState.PAUSED and round.paused_at is not None:
        live.pause(round.game, state, "interrupted", round.paused_at)
    return state
