"""Every game played live provides the whole ``LiveAdapter`` protocol, and the registry's lists agree with it."""

from __future__ import annotations

import inspect
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from tables.engine import live
from tables.engine.cards import parse_card
from tables.engine.errors import RuleViolation
from tables.engine.games import GAMES, games_of_engine, house_games, live_games, simulated_games
from tables.engine.shoe import Shoe, ShoeSpec

PROTOCOL = [name for name, _ in inspect.getmembers(live.LiveAdapter, inspect.isfunction) if not name.startswith("_")]


@pytest.mark.parametrize("slug", live_games())
def test_each_live_adapter_provides_every_operation_of_the_protocol(slug: str) -> None:
    adapter = live.adapter(slug)
    missing = [name for name in PROTOCOL if not callable(getattr(adapter, name, None))]
    assert not missing, f"{slug}: {missing}"
    for name in PROTOCOL:
        want = list(inspect.signature(getattr(live.LiveAdapter, name)).parameters)[1:]  # without self
        assert list(inspect.signature(getattr(adapter, name)).parameters) == want, (slug, name)


def test_the_registry_lists_derive_from_each_game_s_entry() -> None:
    assert set(house_games()) == {g.slug for g in GAMES.values() if g.kind == "house-banked"}
    assert set(simulated_games()) <= set(house_games())
    assert set(games_of_engine("blackjack")) == {"unlimited-blackjack", "mini-blackjack"}
    assert all(g.main_edge == "none" for g in GAMES.values() if not g.house_banked)
    assert [g.slug for g in GAMES.values() if g.settles_after_interruption] == ["mini-blackjack"]


def test_a_paused_blackjack_round_resumes_through_the_engine_and_cannot_resume_twice() -> None:
    state = live.start("unlimited-blackjack", {}, None, Decimal("5.00"),
                       {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]}, Shoe(ShoeSpec(decks=6)))  # fmt: skip
    live.pause("unlimited-blackjack", state, "player away", datetime(2026, 11, 25, tzinfo=UTC))
    live.resume("unlimited-blackjack", state)
    with pytest.raises(RuleViolation):
        live.resume("unlimited-blackjack", state)


def _deal_until_decision(state: object, code: str = "5H") -> None:
    while live.next_step("unlimited-blackjack", state).needs == "card":
        live.deal("unlimited-blackjack", state, parse_card(code))


def test_a_card_arriving_while_a_hand_may_hit_is_that_hand_s_hit() -> None:
    state = live.start("unlimited-blackjack", {}, None, Decimal("5.00"),
                       {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]}, Shoe(ShoeSpec(decks=6)))  # fmt: skip
    _deal_until_decision(state)  # 5 5 against the dealer's 5: seat 1 to decide
    prompt = live.next_step("unlimited-blackjack", state)
    arrival = live.arrive("unlimited-blackjack", state, parse_card("2C"))
    assert arrival.implied_hit == prompt and arrival.to == prompt.actor == "seat:1"
    live.decide("unlimited-blackjack", state, "seat:1", "stand")
    _deal_until_decision(state, "TS")  # the dealer draws to 17 or more
    assert live.next_step("unlimited-blackjack", state).needs != "card"
    with pytest.raises(live.NoCardExpected):
        live.arrive("unlimited-blackjack", state, parse_card("3C"))
