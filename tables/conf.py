"""Typed accessors of the application's settings (each declared in casino/settings.py and read from
the environment there, a bad value failing at start).  Read at call time, so tests may override them."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings


def payout_approval_amount() -> Decimal:
    """A settlement line paying this much or more waits for a pit boss's approval."""
    return Decimal(str(settings.PAYOUT_APPROVAL_AMOUNT))


def payout_approval_multiple() -> Decimal:
    """A line paying this many times its wager or more waits for a pit boss's approval."""
    return Decimal(str(settings.PAYOUT_APPROVAL_MULTIPLE))


def scan_confidence() -> float:
    """A scanned card read below this confidence is confirmed by the dealer."""
    return float(settings.SCAN_CONFIDENCE_THRESHOLD)


def theory_simulation_rounds() -> int:
    return int(settings.THEORY_SIMULATION_ROUNDS)


def theory_strategy() -> str:
    return str(settings.THEORY_STRATEGY)


def gaming_day_start_hour() -> int:
    """The hour (local time) at which a gaming day begins."""
    return int(settings.GAMING_DAY_START_HOUR)


def audit_theory_rounds() -> tuple[int, int]:
    """Simulated rounds for the audit's theory figures: (Finnish 27, blackjack)."""
    return int(settings.AUDIT_THEORY_F27_ROUNDS), int(settings.AUDIT_THEORY_BJ_ROUNDS)


def audit_hold_confidence() -> float:
    return float(settings.AUDIT_HOLD_CONFIDENCE)


def audit_flat_threshold_points() -> float | None:
    value = settings.AUDIT_FLAT_THRESHOLD_POINTS
    return None if value is None else float(value)


def audit_early_shuffle_tolerance() -> int:
    return int(settings.AUDIT_EARLY_SHUFFLE_TOLERANCE)


def audit_pg_random_page_cost() -> float:
    return float(settings.AUDIT_PG_RANDOM_PAGE_COST)


def audit_report_recipients() -> list[str]:
    return list(settings.AUDIT_REPORT_RECIPIENTS or [])


def accounting_win_tolerance() -> Decimal:
    """How far a shift's counted win may lie from its tracked win before it is a reconciliation finding."""
    return Decimal(str(settings.ACCOUNTING_WIN_TOLERANCE))


def publish_needs_second_approval() -> bool:
    """Publishing a rule set or pay table waits for a second games manager (maker-checker)."""
    return bool(settings.PUBLISH_NEEDS_SECOND_APPROVAL)


def idempotency_keep_hours() -> int:
    """How long a write's stored first answer is kept for retries before the hourly purge drops it."""
    return int(settings.IDEMPOTENCY_KEEP_HOURS)
