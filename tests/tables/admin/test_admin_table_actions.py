"""The back office opens and closes tables through the services: same checks as the API, audited, sessions ended."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from tables import services
from tables.models import AuditEvent, Round, RoundState, Table, TableSession, TableStatus
from tests.factories import PASSWORD, TableFactory

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:tables_table_changelist"


def _client(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def _action(client: Client, action: str, *tables: Table) -> list[str]:
    response = client.post(reverse(CHANGELIST), {"action": action, "_selected_action": [t.pk for t in tables]})
    assert response.status_code == 302
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.fixture
def table_in_play(demo_casino: Any, dealer: Any) -> Table:
    """The demo Unlimited Blackjack table, held by the dealer, with a round open."""
    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    services.round_open(table=table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    return table


def test_the_close_action_refuses_a_table_with_a_round_open(pit_boss, table_in_play) -> None:
    texts = _action(_client(pit_boss), "close_tables", table_in_play)
    table_in_play.refresh_from_db()
    assert table_in_play.status == TableStatus.OPEN
    assert any("was not closed" in t and "a round is still open" in t for t in texts), texts
    assert TableSession.objects.filter(table=table_in_play, closed_at__isnull=True).exists()
    assert not AuditEvent.objects.filter(action="table.close", table=table_in_play).exists()


def test_the_close_action_audits_and_ends_the_dealers_session(pit_boss, table_in_play) -> None:
    rnd = Round.objects.get(table=table_in_play, state=RoundState.IN_PLAY)
    services.round_cancel(round=rnd, reason="test", actor=pit_boss)
    texts = _action(_client(pit_boss), "close_tables", table_in_play)
    assert "1 table(s) closed." in texts
    table_in_play.refresh_from_db()
    assert table_in_play.status == TableStatus.CLOSED
    assert not TableSession.objects.filter(table=table_in_play, closed_at__isnull=True).exists()
    event = AuditEvent.objects.get(action="table.close", table=table_in_play)
    assert event.actor == pit_boss


def test_once_the_back_office_closed_the_table_its_dealer_deals_no_more(pit_boss, dealer, table_in_play) -> None:
    # The hole: the admin's close wrote the status behind the services, the dealer's session stayed open
    # and the tablet kept dealing at a closed table.
    from tests.tables.api.conftest import client_for

    rnd = Round.objects.get(table=table_in_play, state=RoundState.IN_PLAY)
    services.round_cancel(round=rnd, reason="test", actor=pit_boss)
    assert _action(_client(pit_boss), "close_tables", table_in_play) == ["1 table(s) closed."]
    tablet = client_for(dealer)
    response = tablet.post(f"/api/tables/{table_in_play.pk}/rounds/",
                           {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]}, format="json")  # fmt: skip
    assert response.status_code == 403, response.content
    assert not Round.objects.filter(table=table_in_play, state=RoundState.IN_PLAY).exists()


def test_the_open_action_audits(pit_boss) -> None:
    table = TableFactory(status=TableStatus.CLOSED)
    assert _action(_client(pit_boss), "open_tables", table) == ["1 table(s) opened."]
    table.refresh_from_db()
    assert table.status == TableStatus.OPEN
    assert AuditEvent.objects.get(action="table.open", table=table).actor == pit_boss


def test_a_games_manager_is_refused_like_on_the_api(games_manager) -> None:
    table = TableFactory(status=TableStatus.OPEN)
    texts = _action(_client(games_manager), "close_tables", table)
    assert any("was not closed" in t for t in texts), texts
    table.refresh_from_db()
    assert table.status == TableStatus.OPEN


def test_the_change_form_does_not_close_a_table_behind_the_services(pit_boss, games_manager, table_in_play) -> None:
    for user in (pit_boss, games_manager):
        client = _client(user)
        url = reverse("admin:tables_table_change", args=[table_in_play.pk])
        page = client.get(url)
        assert page.status_code == 200
        assert "status" not in page.context["adminform"].form.fields
        client.post(url, {"status": TableStatus.CLOSED})
        table_in_play.refresh_from_db()
        assert table_in_play.status == TableStatus.OPEN
