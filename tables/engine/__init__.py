"""The rules engine: pure Python, no Django.  ``verify_round`` is the contract of shared/DESIGN.md."""

from __future__ import annotations

from typing import Any

from .errors import EngineError, InvalidCard, InvalidInput, RuleViolation

__all__ = ["EngineError", "InvalidCard", "InvalidInput", "RuleViolation", "verify_round"]


def verify_round(request: dict[str, Any]) -> dict[str, Any]:
    """Verify a finished round (shared/DESIGN.md): settlement lines, violations and discrepancies."""
    from .verify import verify_round as _verify

    return _verify(request)
