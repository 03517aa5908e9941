"""Fixtures of the dashboard tests: a logged-in browser client per persona, a mismatched round."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client


def client_for(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def mismatch_round(demo_casino: Any, dealer: Any) -> Any:
    """A Finnish 27 round played through the services, paid 5.00 where 10.00 was due."""
    return make_mismatch(demo_casino.tables["finnish-27"], dealer)


def make_mismatch(table: Any, dealer: Any, paid: str = "5.00") -> Any:
    """Open the table, shuffle, play a Joanca (Joker + 4 = 27, an initial win) and pay it wrongly."""
    from tables import services
    from tables.models import TableSession

    if not TableSession.objects.filter(table=table, closed_at__isnull=True).exists():
        services.table_open(table=table, actor=dealer)
        services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    rnd = services.round_open(table=table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    for code in ("JK", "5C", "4H", "6D"):  # player, dealer, player, dealer
        services.round_add_card(round=rnd, code=code, actor=dealer)
    services.round_settle(round=rnd, actor=dealer)
    return services.round_record_paid(round=rnd, paid={"1": {"main": paid}}, actor=dealer)


def browser_page(browser: Any, base_url: str, user: Any, viewport: dict[str, int] | None = None) -> Any:
    """A page of a new browser context signed in as ``user`` (the session cookie of a test client)."""
    client = client_for(user)
    context = browser.new_context(viewport=viewport or {"width": 1400, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base_url}])
    return context.new_page()
