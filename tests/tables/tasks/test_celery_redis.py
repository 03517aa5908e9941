"""Integration: a real Celery worker consuming from Redis runs the nightly fan-out, the join and the report.

Skipped when Redis is not reachable (``CELERY_TEST_REDIS_URL``, default redis://127.0.0.1:6379/15).
The worker runs in a thread of this process (``celery.contrib.testing.worker``): it is Celery's own
consumer, reading the messages from Redis and acknowledging them late, and shares the test database.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from tables.models import AuditFinding, AuditKind, AuditReport, AuditResult, ReportStatus
from tests.tables.tasks.builders import DAY, at

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

URL = os.environ.get("CELERY_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def redis_app() -> Any:
    import redis

    try:
        redis.Redis.from_url(URL, socket_connect_timeout=1).ping()
    except Exception:  # noqa: BLE001 - any failure to reach it means: no Redis here
        pytest.skip(f"Redis is not reachable at {URL}")
    redis.Redis.from_url(URL).flushdb()
    from casino.celery import app

    keys = ("broker_url", "result_backend", "task_always_eager", "broker_transport_options")
    saved = {k: app.conf.get(k) for k in keys}
    app.conf.update(broker_url=URL, result_backend=URL, task_always_eager=False, broker_transport_options={})
    _reset_pools(app)
    yield app
    app.conf.update(saved)
    _reset_pools(app)


def _reset_pools(app: Any) -> None:
    # Connections made for the previous broker must not be reused for the new one.  Dropped, not
    # force-closed: a producer made earlier may still hold the old pool, and acquiring from a closed
    # pool raises (seen when the whole suite runs with CELERY_BROKER_URL pointing at Redis).
    app._pool = None
    app.amqp._producer_pool = None


def test_a_real_worker_on_redis_runs_the_nightly_audit_to_its_report(redis_app, bj, tmp_path, settings):
    from celery.contrib.testing.worker import start_worker

    from tables.tasks.audit import audit_nightly

    settings.REPORTS_ROOT = tmp_path
    bj.shuffle(at(1))
    bj.deal_rounds(at(1.1), 42, 5)
    bj.round(at(2), ["2S", "3S"])  # one late round
    from celery.signals import task_postrun

    def close_connection(**kwargs: Any) -> None:
        # The worker thread's own database connection: closed after each task (as Celery's Django
        # fixup does in a real worker), so the test database can be dropped afterwards.
        from django.db import connection

        connection.close()

    task_postrun.connect(close_connection, weak=False)
    with start_worker(redis_app, pool="solo", perform_ping_check=False, shutdown_timeout=20):
        audit_nightly.delay(DAY.isoformat())
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            report = AuditReport.objects.filter(gaming_day=DAY, status=ReportStatus.DONE).first()
            if report is not None:
                break
            time.sleep(0.3)
        else:
            pytest.fail("the worker did not finish the nightly audit within 90 s")
    task_postrun.disconnect(close_connection)
    assert report.joined_at is not None and (tmp_path / report.pdf_path).is_file()
    assert AuditResult.objects.filter(kind=AuditKind.PACE, gaming_day=DAY).count() == 5
    assert AuditFinding.objects.filter(rule="shuffle.late").count() == 1
