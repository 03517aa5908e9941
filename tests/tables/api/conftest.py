"""Fixtures of the tablet API tests: API clients per persona, a held table with a fresh shoe."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings: Any) -> None:
    """The demo users' passwords are hashed with the cheap test hasher (the real one takes ~0.5 s each)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def client_for(user: Any) -> APIClient:
    """An API client authenticated as ``user`` (session-less, as a tablet with a token would be)."""
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def dealer_api(dealer: Any) -> APIClient:
    return client_for(dealer)


@pytest.fixture
def pit_api(pit_boss: Any) -> APIClient:
    return client_for(pit_boss)


@pytest.fixture
def bj_table(demo_casino: Any, dealer: Any) -> Any:
    """The demo Unlimited Blackjack table, held by the dealer, with a freshly shuffled shoe."""
    from tables import services

    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    return table


@pytest.fixture
def mini_table(demo_casino: Any, dealer: Any) -> Any:
    """The demo Mini Blackjack table, held by the dealer, with a freshly shuffled shoe."""
    from tables import services

    table = demo_casino.tables["mini-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    return table


@pytest.fixture
def f27_table(demo_casino: Any, dealer: Any) -> Any:
    """The demo Finnish 27 table, held by the dealer, with a freshly shuffled shoe."""
    from tables import services

    table = demo_casino.tables["finnish-27"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    return table
