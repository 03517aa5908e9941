"""The application's errors, in one place: the engine's input and rule errors, and the one ``Conflict``."""

from __future__ import annotations

from tables.engine.errors import InvalidCard, InvalidInput, RuleViolation

__all__ = ["Conflict", "InvalidCard", "InvalidInput", "RuleViolation"]


class Conflict(Exception):
    """The round or table is not in a state that allows the command (HTTP 409)."""
