"""Shapes shared by every game's live round: events, and the "what comes next" prompt.

Each game module keeps its own state type and exposes, per action, a triple (shared/STYLE.md):
``verify_<action>(state, ...)`` raises ``RuleViolation`` naming the rule, ``can_<action>(state, ...)``
turns that into a bool for the tablet's button, and ``<action>(state, ...)`` applies it and returns
the event the service stores.  ``next_step(state) -> Prompt`` always says what comes next.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .cards import Card
from .errors import RuleViolation


@dataclass(frozen=True, slots=True)
class CardDealt:
    """Event: ``card`` was dealt to ``to`` (``"dealer"``, ``"seat:3"``, ``"seat:3/hand:1"``, ``"player:2"``)."""

    to: str
    card: Card
    face_up: bool = True


@dataclass(frozen=True, slots=True)
class DecisionMade:
    """Event: ``actor`` took ``action`` (hit, stand, double, split, insurance, fold, raise, ...)."""

    actor: str
    action: str
    amount: str | None = None  # a decimal string where the action carries money
    forced: bool = False


@dataclass(frozen=True, slots=True)
class RoundSettled:
    """Event: the round was settled; ``lines`` are the settlement lines as JSON."""

    lines: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Prompt:
    """What comes next in a live round.

    ``actor`` is whose turn it is (``"dealer"``, ``"seat:3"``, ``"player:2"``), or ``None`` when the
    round is over (``phase == "settled"``).  ``needs`` is what the table waits for: ``"card"`` (the
    dealer must deal a card to ``actor``), ``"decision"`` (the actor chooses among ``allowed``), or
    ``"settle"``.  ``forced`` is the action the rules force, if any, and ``reason`` says why in words
    a dealer can read out (e.g. "player must hit: soft 23 against dealer 26").
    """

    phase: str
    actor: str | None
    needs: str
    allowed: tuple[str, ...] = ()
    forced: str | None = None
    reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "actor": self.actor,
            "needs": self.needs,
            "allowed": list(self.allowed),
            "forced": self.forced,
            "reason": self.reason,
            **({"extra": self.extra} if self.extra else {}),
        }


def can(verify: Callable[..., None], *args: Any, **kwargs: Any) -> bool:
    """Turn a ``verify_*`` check into a bool (the tablet's enabled/disabled button)."""
    try:
        verify(*args, **kwargs)
    except RuleViolation:
        return False
    return True
