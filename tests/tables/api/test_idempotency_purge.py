"""The hourly purge of idempotency records: old first answers go, recent ones and the rounds stay."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from tables.models import AuditEvent, IdempotencyKey, Round, RoundCard
from tables.tasks.rounds import purge_idempotency
from tests.tables.api.test_round_commands import open_round

pytestmark = pytest.mark.django_db


def test_records_older_than_the_keep_hours_are_purged_and_nothing_else(bj_table, dealer_api, settings):
    settings.IDEMPOTENCY_KEEP_HOURS = 24
    rid = open_round(dealer_api, bj_table)["id"]
    for i, code in enumerate(("8S", "9H")):
        r = dealer_api.post(f"/api/rounds/{rid}/cards/", {"code": code}, format="json", HTTP_IDEMPOTENCY_KEY=f"p-{i}")
        assert r.status_code == 200
    IdempotencyKey.objects.filter(key="p-0").update(created_at=timezone.now() - timedelta(hours=25))
    events = AuditEvent.objects.count()

    assert purge_idempotency.apply().get() == {"deleted": 1}

    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["p-1"]
    assert RoundCard.objects.filter(round_id=rid).count() == 2 and Round.objects.filter(pk=rid).exists()
    assert AuditEvent.objects.count() == events
    # A retry within the keep time is still answered from its record.
    again = dealer_api.post(f"/api/rounds/{rid}/cards/", {"code": "9H"}, format="json", HTTP_IDEMPOTENCY_KEY="p-1")
    assert again["Idempotent-Replayed"] == "true"
    assert RoundCard.objects.filter(round_id=rid).count() == 2


def test_the_purge_deletes_in_batches_until_none_is_left(bj_table, dealer_api, settings):
    from tables.services.rounds import purge_idempotency_records

    settings.IDEMPOTENCY_KEEP_HOURS = 1
    rid = open_round(dealer_api, bj_table)["id"]
    for i, code in enumerate(("8S", "9H", "2C", "3D")):
        dealer_api.post(f"/api/rounds/{rid}/cards/", {"code": code}, format="json", HTTP_IDEMPOTENCY_KEY=f"b-{i}")
    IdempotencyKey.objects.update(created_at=timezone.now() - timedelta(hours=2))
    stored = IdempotencyKey.objects.count()
    assert stored >= 4
    assert purge_idempotency_records(batch=3) == stored
    assert not IdempotencyKey.objects.exists()


def test_the_purge_is_in_the_beat_schedule_hourly():
    task = PeriodicTask.objects.get(task="tables.purge_idempotency")
    assert task.enabled and (task.interval.every, task.interval.period) == (1, "hours")
