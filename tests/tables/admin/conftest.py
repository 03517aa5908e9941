"""Fixtures of the back-office tests: a second games manager (the checker of the maker-checker)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def second_manager(db: None) -> Any:
    """Another games manager: approves what the first asked to publish."""
    from tables.access import GAMES_MANAGER
    from tests.conftest import _persona

    return _persona("manager2", GAMES_MANAGER, staff=True)
