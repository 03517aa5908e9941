"""A database that stops answering mid-request: 503 with Retry-After within DB_QUERY_DEADLINE, nothing half-written.

The frozen server is emulated as the fault probe does it (``bench/faults.py``): the application reaches
PostgreSQL through a TCP proxy that, once paused, accepts bytes and forwards none, so the server can
neither answer nor enforce its own ``statement_timeout`` on what it never received, and the kernel
keeps acknowledging (keepalives see a healthy peer).  The requests run in a subprocess whose
``DATABASE_URL`` points at the proxy in front of this test run's PostgreSQL database; PostgreSQL only
(SQLite has no server to freeze).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.http import HttpResponse
from django.test import RequestFactory

from casino.db_deadline import WATCHDOG, QueryDeadlineExceeded
from casino.middleware import DatabaseUnavailableMiddleware

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, os, socket, sys, threading, time

class Proxy:
    '''127.0.0.1:port -> PostgreSQL; paused: bytes are read and held, nothing is forwarded.'''
    def __init__(self, upstream):
        self.upstream, self.running = upstream, threading.Event()
        self.running.set()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()
    def pause(self): self.running.clear()
    def resume(self): self.running.set()
    def accept(self):
        while True:
            client, _ = self.sock.accept()
            up = socket.create_connection(self.upstream)
            for a, b in ((client, up), (up, client)):
                threading.Thread(target=self.pump, args=(a, b), daemon=True).start()
    def pump(self, src, dst):
        try:
            while data := src.recv(65536):
                self.running.wait()
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try: s.shutdown(socket.SHUT_RDWR)
            except OSError: pass

proxy = Proxy((os.environ["PG_HOST"], int(os.environ["PG_PORT"])))
os.environ["DATABASE_URL"] = (f"postgres://{os.environ['PG_USER']}@127.0.0.1:{proxy.port}/{os.environ['PG_NAME']}"
                              "?application_name=deadline-test")
import django
django.setup()
from django.db import close_old_connections, connection
from django.test import Client
from casino.middleware import DatabaseHoldOff

client = Client(raise_request_exception=False, HTTP_AUTHORIZATION="Token " + os.environ["TOKEN"])
out = {}
def call(name, method, path, **extra):
    start = time.monotonic()
    r = getattr(client, method)(path, content_type="application/json", **extra)
    out[name] = {"status": r.status_code, "type": r.get("Content-Type", ""), "retry": r.get("Retry-After"),
                 "body": r.content.decode()[:300], "seconds": time.monotonic() - start}

# 1. A read on a connection made before the server went silent (CONN_MAX_AGE keeps it for the request);
# a first request loads the URLs and views, so that the timed ones time the database alone.
call("warm", "get", "/api/tables/")
proxy.pause()
call("read", "get", "/api/tables/")
# The worker now knows the database is unreachable: the next request is answered at once.
call("held_off", "get", "/api/tables/")
proxy.resume()
DatabaseHoldOff.clear()
close_old_connections()  # as the WSGI handler does between requests (the test client does not)

# 2. A write whose transaction is half done when the server goes silent (just before its audit event).
def silent_before_the_audit_event(execute, sql, params, many, context):
    if 'INSERT INTO "tables_auditevent"' in sql:
        proxy.pause()
    return execute(sql, params, many, context)

with connection.execute_wrapper(silent_before_the_audit_event):
    call("write", "post", f"/api/tables/{os.environ['TABLE']}/open/", data="{}",
         HTTP_IDEMPOTENCY_KEY="deadline-test-write")
proxy.resume()
connection.close()
print("PROBE" + json.dumps(out))
"""


def _run_probe(tmp_path: Path, token: str, table_id: int, deadline: float) -> dict[str, dict[str, Any]]:
    db = connection.settings_dict
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "casino.settings", "CASINO_VAR_DIR": str(tmp_path),
           "CACHE_URL": "locmemcache://", "CELERY_BROKER_URL": "memory://", "CONN_MAX_AGE": "60",
           "DB_QUERY_DEADLINE": str(deadline), "DB_CONNECT_TIMEOUT": "5", "DB_UNAVAILABLE_RETRY_AFTER": "7",
           "PG_HOST": db["HOST"] or "127.0.0.1", "PG_PORT": str(db["PORT"] or 5432), "PG_USER": db["USER"],
           "PG_NAME": db["NAME"], "TOKEN": token, "TABLE": str(table_id)}  # fmt: skip
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = db["PASSWORD"]
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("PROBE")), None)
    assert line, done.stdout + done.stderr
    return json.loads(line[len("PROBE"):])


def _backends_gone(application_name: str, within: float = 15.0) -> bool:
    """Whether the server has ended every session of ``application_name`` (their transactions rolled back)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [application_name])
            if cursor.fetchone()[0] == 0:
                return True
        time.sleep(0.2)
    return False


@pytest.mark.django_db(transaction=True)
def test_a_database_that_stops_answering_mid_request_is_a_503_within_the_deadline_and_writes_nothing(
    tmp_path, demo_casino, dealer
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("a silent PostgreSQL server: needs PostgreSQL")
    from knox.models import AuthToken

    from tables.models import AuditEvent, IdempotencyKey, TableSession

    table = demo_casino.tables["unlimited-blackjack"]
    _instance, token = AuthToken.objects.create(user=dealer)
    out = _run_probe(tmp_path, token, table.pk, deadline=1.5)

    assert out["warm"]["status"] == 200, out["warm"]
    read, held_off, write = out["read"], out["held_off"], out["write"]
    for answer in (read, held_off, write):
        assert answer["status"] == 503 and answer["type"].startswith("application/json"), answer
        assert json.loads(answer["body"])["code"] == "database_unavailable" and answer["retry"] == "7", answer
    # The deadline (1.5 s), not the 25 s a silent server used to hold a request, and no reconnection
    # afterwards (DB_CONNECT_TIMEOUT is 5 s: a request that tried again would take over 6 s); then at once.
    assert 1.4 < read["seconds"] < 5, read
    assert held_off["seconds"] < 0.5, held_off
    assert 1.4 < write["seconds"] < 5, write
    # Nothing of the half-done write is left once the server has ended the abandoned session.
    assert _backends_gone("deadline-test")
    assert not TableSession.objects.filter(table=table).exists()
    assert not AuditEvent.objects.filter(table=table, action="table.open").exists()
    assert not IdempotencyKey.objects.filter(key="deadline-test-write").exists()


def test_the_watchdog_shuts_a_silent_socket_down_at_its_deadline_and_leaves_answered_ones_alone() -> None:
    ours, theirs = socket.socketpair()
    try:
        got: list[bytes] = []
        reader = threading.Thread(target=lambda: got.append(ours.recv(10)))
        start = time.monotonic()
        ticket = WATCHDOG.arm(ours.fileno(), 0.3)
        reader.start()
        reader.join(5)
        assert got == [b""] and 0.25 < time.monotonic() - start < 5  # end of file at the deadline
        assert WATCHDOG.disarm(ticket) is True
    finally:
        ours.close()
        theirs.close()
    ours, theirs = socket.socketpair()
    try:
        ticket = WATCHDOG.arm(ours.fileno(), 0.3)
        theirs.sendall(b"answer")
        assert ours.recv(10) == b"answer"
        assert WATCHDOG.disarm(ticket) is False
        time.sleep(0.5)
        theirs.sendall(b"still open")
        assert ours.recv(20) == b"still open"
    finally:
        ours.close()
        theirs.close()


def _unreachable() -> OperationalError:
    import psycopg

    exc = OperationalError("no answer")
    exc.__cause__ = QueryDeadlineExceeded("no answer from the database within 5 s")
    assert isinstance(exc.__cause__, psycopg.OperationalError)
    return exc


def _cancelled_by_the_server() -> OperationalError:
    import psycopg

    exc = OperationalError("canceling statement due to statement timeout")
    exc.__cause__ = psycopg.errors.QueryCanceled("canceling statement due to statement timeout")
    return exc


def test_after_finding_the_database_unreachable_a_worker_answers_503_at_once_for_retry_after_seconds(
    settings,
) -> None:
    settings.DB_UNAVAILABLE_RETRY_AFTER = 1
    calls: list[str] = []

    def view(request: Any) -> HttpResponse:
        calls.append(request.path)
        return HttpResponse("ok")

    middleware = DatabaseUnavailableMiddleware(view)
    rf = RequestFactory()
    answer = middleware.process_exception(rf.get("/api/tables/"), _unreachable())
    assert answer is not None and answer.status_code == 503 and answer["Retry-After"] == "1"
    held = middleware(rf.get("/api/tables/"))
    assert held.status_code == 503 and json.loads(held.content)["code"] == "database_unavailable"
    assert calls == []  # answered without trying the database
    assert middleware(rf.get("/healthz")).status_code == 200  # the health check always tries
    time.sleep(1.1)
    assert middleware(rf.get("/api/tables/")).status_code == 200
    assert calls == ["/healthz", "/api/tables/"]


def test_a_statement_the_server_cancelled_is_a_503_but_no_hold_off(settings) -> None:
    middleware = DatabaseUnavailableMiddleware(lambda request: HttpResponse("ok"))
    rf = RequestFactory()
    answer = middleware.process_exception(rf.get("/api/tables/"), _cancelled_by_the_server())
    assert answer is not None and answer.status_code == 503
    assert middleware(rf.get("/api/tables/")).status_code == 200
