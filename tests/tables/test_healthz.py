"""``GET /healthz`` for load balancers: no login, cheap, 200 when database, cache and broker answer."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_it_answers_200_with_each_component_without_logging_in(django_assert_max_num_queries) -> None:
    with django_assert_max_num_queries(1):  # SELECT 1, nothing heavier
        response = Client().get("/healthz")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok"
    assert {name: c["ok"] for name, c in body["checks"].items()} == {"database": True, "cache": True, "broker": True}
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_a_broker_that_refuses_makes_it_503_naming_the_component(monkeypatch) -> None:
    from casino import health

    monkeypatch.setattr(health, "broker_url", lambda: "redis://127.0.0.1:1/0")
    response = Client().get("/healthz")
    assert response.status_code == 503 and response["Retry-After"]
    checks = response.json()["checks"]
    assert checks["broker"]["ok"] is False and checks["database"]["ok"] is True and checks["cache"]["ok"] is True


def test_a_cache_that_fails_makes_it_503(monkeypatch) -> None:
    from django.core.cache import cache

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "set", broken)
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["cache"] == {"ok": False, "error": "ConnectionError", "ms": pytest.approx(0, abs=1000)}


def test_it_only_answers_get(django_db_blocker) -> None:
    assert Client().post("/healthz").status_code == 405
