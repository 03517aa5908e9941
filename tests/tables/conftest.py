"""Fixtures of the tables tests.

The theory tests (``pytest.mark.usefixtures("tiny_simulation", "queued", "_empty_cache")``) run a tiny
simulation and record the queued theory tasks instead of sending them."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def tiny_simulation(settings: Any) -> None:
    """A few thousand rounds under the rule text's strategy (the improved one takes seconds to compute)."""
    settings.THEORY_SIMULATION_ROUNDS = 20_000
    settings.THEORY_STRATEGY = "rule-text"


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Result ids the services queued (``compute_theory.delay``), instead of a message to the broker."""
    from tables.tasks.theory import compute_theory

    sent: list[int] = []
    monkeypatch.setattr(compute_theory, "delay", lambda result_id: sent.append(result_id))
    return sent


@pytest.fixture
def _empty_cache() -> None:
    """Each test starts without cached exact figures (they are keyed by content, so only counts differ)."""
    from django.core.cache import cache

    cache.clear()
