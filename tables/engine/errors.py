"""Errors of the rules engine.

Two kinds, kept apart on purpose (shared/DESIGN.md):
- ``InvalidInput`` (a ``ValueError``): malformed input — a bad card code, an impossible card, a
  missing or non-positive wager, a wrong type.  Over HTTP it is a 400 naming the field.
- ``RuleViolation``: a well-formed action the rules forbid (hit on a forced stand, double on three
  cards, a bet behind one's own seat).  In the live flow it refuses the action; in verification of a
  finished round the same breach is reported as a violation, not raised.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class InvalidInput(EngineError, ValueError):
    """Malformed input; ``field`` names what was wrong (a JSON path such as ``seats[0].wagers.main``)."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


class InvalidCard(InvalidInput):
    """A card code that cannot be parsed, or a card the shoe cannot hold."""


class RuleViolation(EngineError):
    """An action the rules forbid; ``rule`` is a stable identifier such as ``finnish27.forced-stand``."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message

    def as_dict(self) -> dict[str, str]:
        """The JSON form used in verification answers."""
        return {"rule": self.rule, "message": self.message}
