"""The push channel's publisher: after commit, on the table's channel and its casino's; never for sign-ins."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from tables import services
from tables.services import push

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch: Any) -> list[tuple[str, str, dict[str, Any]]]:
    out: list[tuple[str, str, dict[str, Any]]] = []
    import django_eventstream

    monkeypatch.setattr(django_eventstream, "send_event", lambda ch, typ, data: out.append((ch, typ, data)))
    return out


def test_a_table_opened_is_published_after_commit_to_the_table_and_its_casino(
        sent, demo_casino, dealer, django_capture_on_commit_callbacks):
    table = demo_casino.tables["finnish-27"]
    with django_capture_on_commit_callbacks(execute=True):
        services.table_open(table=table, actor=dealer)
        assert sent == []  # nothing before the commit
    channels = {ch for ch, _, _ in sent}
    assert channels == {f"table-{table.pk}", f"casino-{demo_casino.casino.pk}"}
    body = sent[0][2]
    assert body["kind"] == "event" and body["action"] == "table.open" and body["dealer"] == "dealer"
    assert body["table"] == table.pk and body["table_status"] == "open" and body["sent"] > 0


def test_a_round_event_carries_its_state(sent, demo_casino, dealer, django_capture_on_commit_callbacks):
    table = demo_casino.tables["finnish-27"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    with django_capture_on_commit_callbacks(execute=True):
        rnd = services.round_open(table=table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    [body] = {d["action"]: d for _, _, d in sent}.values()
    assert body["round"] == rnd.pk and body["round_state"] == "in_play" and body["round_number"] == rnd.number


def test_a_rolled_back_write_publishes_nothing(sent, demo_casino, dealer, django_capture_on_commit_callbacks):
    table = demo_casino.tables["finnish-27"]
    with django_capture_on_commit_callbacks(execute=True):
        try:
            with transaction.atomic():
                services.table_open(table=table, actor=dealer)
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
    assert sent == []


def test_sign_ins_are_not_published(sent):
    body = {"action": "auth.token.create"}
    assert push.SILENT_PREFIXES and body["action"].startswith(push.SILENT_PREFIXES)


def test_a_failing_publish_never_fails_the_write(monkeypatch, demo_casino, dealer, django_capture_on_commit_callbacks):
    import django_eventstream

    def boom(*args: Any) -> None:
        raise ConnectionError("redis is down")

    monkeypatch.setattr(django_eventstream, "send_event", boom)
    table = demo_casino.tables["finnish-27"]
    with django_capture_on_commit_callbacks(execute=True):
        services.table_open(table=table, actor=dealer)
    table.refresh_from_db()
    assert table.status == "open"
