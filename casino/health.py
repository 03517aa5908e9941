"""``GET /healthz``: is this web process able to serve?  For load balancers and orchestrators.

Checks, each cheap and bounded in time: the database (``SELECT 1`` on the default connection), the
cache (a set and a get of one key) and the Celery broker (open and close a connection).  No login
(a load balancer has none) and nothing secret in the answer: each component's ``ok`` and how long it
took, plus the error's class name when it failed.  200 when all are up, 503 when one is down.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

BROKER_TIMEOUT = 2.0  # seconds: a broker that does not answer by then is down for the load balancer


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_cache() -> None:
    key, value = f"healthz:{uuid.uuid4().hex}", "1"
    cache.set(key, value, timeout=10)
    try:
        if cache.get(key) != value:
            raise RuntimeError("the cache did not return what was just stored")
    finally:
        cache.delete(key)


def broker_url() -> str:
    """The URL Celery publishes tasks to."""
    from casino.celery import app

    return str(app.conf.broker_write_url or app.conf.broker_url)


def check_broker() -> None:
    from kombu import Connection

    from casino.celery import app

    # A fresh connection (not the producer pool): it must really connect, within BROKER_TIMEOUT.
    with Connection(broker_url(), connect_timeout=BROKER_TIMEOUT,
                    transport_options=dict(app.conf.broker_transport_options or {})) as conn:  # fmt: skip
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=BROKER_TIMEOUT)


CHECKS: dict[str, Callable[[], None]] = {"database": check_database, "cache": check_cache, "broker": check_broker}


def _run(check: Callable[[], None]) -> dict[str, Any]:
    start = time.perf_counter()
    try:
        check()
    except Exception as exc:  # a health check reports every failure rather than raising it
        return {"ok": False, "error": type(exc).__name__, "ms": round(1000 * (time.perf_counter() - start), 1)}
    return {"ok": True, "ms": round(1000 * (time.perf_counter() - start), 1)}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Each component's status; 200 when all are up, 503 (with Retry-After) when one is down."""
    results = {name: _run(check) for name, check in CHECKS.items()}
    healthy = all(r["ok"] for r in results.values())
    response = JsonResponse({"status": "ok" if healthy else "unavailable", "checks": results},
                            status=200 if healthy else 503)  # fmt: skip
    if not healthy:
        response["Retry-After"] = "5"
    return response
