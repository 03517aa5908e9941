"""The one registry of games: every other list of games (model choices, verification, the live round,
analysis, theory, seeding, the floor simulator, the tablet's capabilities) derives from it.

Adding a sixth game means a package under ``tables/engine/`` and one line here.  Pure: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Literal

from .errors import InvalidInput

Kind = Literal["house-banked", "pot", "scoring"]
# How the house edge of the main wager is known: computed exactly, by a long simulation (the theory store
# runs it in the background), or not at all (pot and scoring games: the house takes no side).
MainEdge = Literal["exact", "simulated", "none"]


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game as the rules publish it and as the system plays it."""

    slug: str
    name: str
    kind: Kind
    rules_text: str  # the published rules, in shared/rules/
    seats: int  # seats at the table (from the rules)
    players_per_round: int  # players in one round at most (Mini Blackjack: one on one of three seats)
    verify_module: str  # provides verify(request) -> dict
    live_module: str | None  # the live adapter (tables.engine.live.LiveAdapter), None when not played live
    # What the tablet offers for this game (sent by the server; the tablet checks no game slugs).
    # "fresh-shoe": every hand is dealt from a fresh shoe (Bluffjack's engine starts each hand with a
    # new shoe), so the shuffle is implied and recorded as each hand opens, never asked of the dealer.
    capabilities: frozenset[str] = frozenset()
    main_edge: MainEdge = "none"
    # The rules settle a round interrupted this long as if the player stood (Mini Blackjack's 48-hour rule;
    # the rule set may shorten it): the background job looks only at these games.
    settles_after_interruption: bool = False

    @property
    def house_banked(self) -> bool:
        return self.kind == "house-banked"

    @property
    def live(self) -> bool:
        return self.live_module is not None

    def verify(self) -> ModuleType:
        return import_module(self.verify_module)


GAMES: dict[str, GameSpec] = {
    g.slug: g
    for g in (
        GameSpec("finnish-27", "No-Bust Finnish 27", "house-banked", "finnish-27-no-bust.txt", 1, 1,
                 "tables.engine.finnish27", "tables.engine.finnish27.adapter",
                 frozenset({"jokers", "bonus"}), main_edge="simulated"),
        GameSpec("unlimited-blackjack", "Unlimited Blackjack", "house-banked", "unlimited-blackjack.txt", 7, 7,
                 "tables.engine.blackjack", "tables.engine.blackjack.adapter",
                 frozenset({"side-bets", "bets-behind", "insurance", "surrender", "split", "double"}),
                 main_edge="exact"),
        GameSpec("mini-blackjack", "Mini Blackjack", "house-banked", "mini-blackjack.txt", 3, 1,
                 "tables.engine.blackjack", "tables.engine.blackjack.adapter",
                 frozenset({"insurance", "split", "double", "hints"}), main_edge="exact",
                 settles_after_interruption=True),
        GameSpec("bluffjack", "Bluffjack", "pot", "bluffjack.txt", 7, 7,
                 "tables.engine.bluffjack", "tables.engine.bluffjack.adapter",
                 frozenset({"pot", "stacks", "fresh-shoe"})),
        GameSpec("contract-rummy", "Contract Rummy", "scoring", "dealer-upcard-and-contract-rummy.txt", 8, 8,
                 "tables.engine.rummy", None, frozenset({"scoring", "jokers"})),
    )
}  # fmt: skip

SLUGS: tuple[str, ...] = tuple(GAMES)


def game(slug: object, *, field: str = "game") -> GameSpec:
    """The game of ``slug``; an unknown one is ``InvalidInput`` naming the field and the known games."""
    if not isinstance(slug, str) or slug not in GAMES:
        raise InvalidInput(f"unknown game {slug!r}; expected one of {sorted(GAMES)}", field=field)
    return GAMES[slug]


def games_of_engine(package: str) -> tuple[str, ...]:
    """The games one engine package plays (``"blackjack"``: Unlimited and Mini Blackjack)."""
    return tuple(g.slug for g in GAMES.values() if g.verify_module == f"tables.engine.{package}")


def house_games() -> tuple[str, ...]:
    """The house-banked games: the ones with a house edge, a hold and a hold audit."""
    return tuple(g.slug for g in GAMES.values() if g.house_banked)


def simulated_games() -> tuple[str, ...]:
    """The games whose main wager's edge comes from a long simulation (queued by the theory store)."""
    return tuple(g.slug for g in GAMES.values() if g.main_edge == "simulated")


def live_games() -> tuple[str, ...]:
    """The games a tablet plays round by round through the live round API."""
    return tuple(g.slug for g in GAMES.values() if g.live)
