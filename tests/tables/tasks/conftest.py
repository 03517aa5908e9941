"""Fixtures of the audit tests: a constructed floor on the demo casino, Celery run in-process."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tables.tasks.builders import FloorBuilder, set_theory


@pytest.fixture
def eager() -> Any:
    """Celery tasks (and the groups and joins they start) run in this process, synchronously."""
    from casino.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = before


@pytest.fixture
def bj(demo_casino: Any, dealer: Any) -> FloorBuilder:
    """The demo Unlimited Blackjack table (8 decks, cut card at 208), theory fixed for the test."""
    table = demo_casino.tables["unlimited-blackjack"]
    set_theory(table, {"main": (0.005, 1.3), "perfect-pairs": (0.04, 15.6)})
    return FloorBuilder(table, dealer)


@pytest.fixture
def f27(demo_casino: Any, dealer: Any) -> FloorBuilder:
    """The demo Finnish 27 table (6 decks with 12 Jokers, cut card at 243), theory fixed for the test."""
    table = demo_casino.tables["finnish-27"]
    set_theory(table, {"main": (0.02, 1.5)})
    return FloorBuilder(table, dealer)


@pytest.fixture
def reports_dir(tmp_path: Any, settings: Any) -> Any:
    """Report files in a temporary folder."""
    settings.REPORTS_ROOT = tmp_path / "reports"
    return settings.REPORTS_ROOT
