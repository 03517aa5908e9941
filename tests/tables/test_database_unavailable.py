"""A database that refuses connections or never answers: 503 with Retry-After (JSON for the API), fast.

The server runs in a subprocess whose ``DATABASE_URL`` points at a closed port (refused) or at a
socket that accepts and never answers (a hung server), whatever database the suite itself uses.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import InterfaceError, OperationalError

from casino.middleware import database_unavailable

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, os, time
import django
django.setup()
from django.test import Client
client = Client(raise_request_exception=False)
out = {}
def probe(name, path, **headers):
    start = time.monotonic()
    r = client.get(path, **headers)
    out[name] = {"status": r.status_code, "type": r.get("Content-Type", ""), "retry": r.get("Retry-After"),
                 "body": r.content.decode()[:500], "seconds": time.monotonic() - start}
probe("api", "/api/tables/", HTTP_AUTHORIZATION="Token 0123456789abcdef")
client.cookies["sessionid"] = "x" * 32
probe("page", "/dashboard/")
client.cookies.clear()
probe("health", "/healthz")
print("PROBE" + json.dumps(out))
"""


def _probe(tmp_path: Path, database_url: str, **env: str) -> dict[str, dict]:
    environ = {**os.environ, "DATABASE_URL": database_url, "CASINO_VAR_DIR": str(tmp_path),
               "DJANGO_SETTINGS_MODULE": "casino.settings", "CACHE_URL": "locmemcache://",
               "CELERY_BROKER_URL": "memory://", **env}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=environ, capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("PROBE")), None)
    assert line, done.stdout + done.stderr
    return json.loads(line[len("PROBE"):])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _assert_unavailable(out: dict[str, dict]) -> None:
    api, page, health = out["api"], out["page"], out["health"]
    assert api["status"] == 503 and api["type"].startswith("application/json"), api
    assert "database unavailable" in json.loads(api["body"])["error"] and api["retry"], api
    assert page["status"] == 503 and page["retry"] and "unavailable" in page["body"], page
    assert health["status"] == 503, health
    checks = json.loads(health["body"])["checks"]
    assert checks["database"]["ok"] is False and checks["cache"]["ok"] is True and checks["broker"]["ok"] is True


def test_a_refused_database_connection_answers_503_json_with_retry_after(tmp_path) -> None:
    _assert_unavailable(_probe(tmp_path, f"postgres://postgres@127.0.0.1:{_free_port()}/casino"))


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A TCP server that accepts connections and never says a word (a hung database host)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for s in accepted:
        s.close()
    server.close()


def test_a_database_that_never_answers_gives_up_after_the_connect_timeout(tmp_path, silent_server) -> None:
    start = time.monotonic()
    out = _probe(tmp_path, f"postgres://postgres@127.0.0.1:{silent_server}/casino", DB_CONNECT_TIMEOUT="2")
    _assert_unavailable(out)
    # Three requests, each giving up after ~2 s (not the 30 s a worker used to hang).
    assert out["api"]["seconds"] < 8 and time.monotonic() - start < 60, out


def test_only_unavailability_is_a_503_a_bug_stays_a_500() -> None:
    import sqlite3

    import psycopg

    def wrapped(cause: Exception, cls: type[Exception] = OperationalError) -> Exception:
        exc = cls(str(cause))
        exc.__cause__ = cause
        return exc

    assert database_unavailable(wrapped(psycopg.OperationalError("connection refused")))
    assert database_unavailable(wrapped(psycopg.errors.QueryCanceled("canceling statement due to statement timeout")))
    assert database_unavailable(wrapped(psycopg.errors.AdminShutdown("terminating connection")))
    assert database_unavailable(InterfaceError("connection already closed"))
    assert database_unavailable(wrapped(sqlite3.OperationalError("database is locked")))
    assert not database_unavailable(wrapped(psycopg.errors.DeadlockDetected("deadlock detected")))
    assert not database_unavailable(wrapped(sqlite3.OperationalError("no such table: tables_round")))
    assert not database_unavailable(ValueError("not a database error"))
