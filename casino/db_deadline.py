"""A client-side deadline on every answer a web request waits for from PostgreSQL.

Why a client-side deadline: a server that stops answering while its machine still acknowledges TCP
(backends stopped or frozen, a paused VM, a proxy holding bytes) is never noticed by libpq.  The
server-side ``statement_timeout`` cannot fire on a frozen server; TCP keepalives and
``tcp_user_timeout`` only notice a peer whose kernel stops acknowledging; libpq has no read timeout,
so psycopg waits on the socket for as long as it takes.  A cancel request (psycopg's ``cancel()``) is
sent to that same frozen server and changes nothing; gunicorn's worker ``timeout`` kills the whole
worker (the client gets a reset, not a 503).  The one thing that frees the request is to give up the
connection from our side, as psycopg itself does when a cancelled query is not terminated.

How: each PostgreSQL connection's ``wait`` (psycopg's single funnel for every round trip: a query, a
fetch, COMMIT, ROLLBACK) arms a per-process watchdog thread for ``DB_QUERY_DEADLINE`` seconds while a
request is being served (``query_deadline``, entered by ``casino.middleware``).  When an answer is
later than that, the watchdog shuts the socket down (``shutdown(2)``, not ``close``: the descriptor
stays psycopg's).  libpq then reads end of file, psycopg raises, this module raises
``QueryDeadlineExceeded`` in its place, Django rolls back and drops the connection, and the request
answers 503 with ``Retry-After`` (``casino.middleware``).  Celery tasks and management commands do
not enter ``query_deadline``: they keep the server-side ``statement_timeout`` only.

No half-written data: every write runs in a transaction, and PostgreSQL rolls back a transaction whose
client went away before its COMMIT was read.  A COMMIT already read by the server when the deadline
fired is ambiguous, as after any lost connection: the request answers 503 and the tablet's retry with
the same ``Idempotency-Key`` finds the stored answer (``tables/api/idempotency.py``).
"""

from __future__ import annotations

import itertools
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from django.db import connections


class QueryDeadlineExceeded(psycopg.OperationalError):
    """The database sent no answer within the deadline, so the connection was dropped from our side."""


class _Watchdog:
    """One daemon thread per process that shuts down the sockets of round trips past their deadline."""

    def __init__(self) -> None:
        self._reset()
        # A forked child (a gunicorn worker of a preloaded app) has the state but not the thread.
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._cond = threading.Condition()
        self._armed: dict[int, tuple[float, int]] = {}  # ticket -> (deadline on time.monotonic(), our dup of the fd)
        self._fired: dict[int, int] = {}  # ticket -> fd of a round trip past its deadline (shut down)
        self._tickets = itertools.count()
        self._wake_at = float("inf")
        self._thread: threading.Thread | None = None

    def arm(self, fd: int, seconds: float) -> int:
        """Watch the socket ``fd`` for ``seconds``; the ticket to ``disarm`` it with.

        The watchdog keeps a duplicate of the descriptor until ``disarm``: libpq closes its own when
        the connection ends, and the number must not be reused for another socket while watched."""
        deadline = time.monotonic() + seconds
        own_fd = os.dup(fd)
        with self._cond:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="db-query-deadline", daemon=True)
                self._thread.start()
            ticket = next(self._tickets)
            self._armed[ticket] = (deadline, own_fd)
            if deadline < self._wake_at:  # only then: most round trips end long before the watchdog wakes
                self._cond.notify()
            return ticket

    def disarm(self, ticket: int) -> bool:
        """Stop watching; whether the deadline had passed (the socket was shut down)."""
        with self._cond:
            entry = self._armed.pop(ticket, None)
            own_fd = entry[1] if entry else self._fired.pop(ticket)
        os.close(own_fd)
        return entry is None

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                for ticket, (deadline, fd) in list(self._armed.items()):
                    if deadline <= now:
                        del self._armed[ticket]
                        self._fired[ticket] = fd
                        _shut_down(fd)
                self._wake_at = min((deadline for deadline, _ in self._armed.values()), default=float("inf"))
                self._cond.wait(timeout=None if self._wake_at == float("inf") else max(self._wake_at - now, 0.0))


def _shut_down(fd: int) -> None:
    """End both directions of the socket ``fd`` (the watchdog's duplicate) without closing it.

    shutdown(2) acts on the socket, so libpq's own descriptor reads end of file at once."""
    try:
        sock = socket.socket(fileno=fd)
    except OSError:
        return
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already shut down or closed by the peer: the wait ends anyway
    finally:
        sock.detach()


WATCHDOG = _Watchdog()
_local = threading.local()


@contextmanager
def query_deadline(seconds: float | None) -> Iterator[None]:
    """Within this block (one request), every PostgreSQL round trip of this thread gets ``seconds``."""
    previous = getattr(_local, "seconds", None)
    _local.seconds = seconds
    try:
        yield
    finally:
        _local.seconds = previous


def watch_open_connections() -> None:
    """Watch the connections this thread opened before the ``connection_created`` receiver was connected."""
    for conn in connections.all(initialized_only=True):
        if conn.connection is not None:
            watch_connection(None, conn)


def watch_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created`` receiver: route the new psycopg connection's waits through the watchdog."""
    if connection.vendor != "postgresql" or getattr(connection.connection, "_casino_deadline", False):
        return
    raw = connection.connection
    original: Callable[..., Any] = raw.wait

    def wait(gen: Any, *args: Any, **kw: Any) -> Any:
        seconds = getattr(_local, "seconds", None)
        if not seconds:
            return original(gen, *args, **kw)
        try:
            fd = raw.pgconn.socket
        except psycopg.Error:  # the connection is already lost: psycopg says so at once
            return original(gen, *args, **kw)
        ticket: int | None = WATCHDOG.arm(fd, seconds)
        try:
            return original(gen, *args, **kw)
        except psycopg.Error as exc:
            assert ticket is not None
            fired, ticket = WATCHDOG.disarm(ticket), None
            if fired:
                # Close it the way Django closes a connection lost inside a transaction: the atomic
                # blocks being left then roll back nothing and, above all, do not reconnect (which
                # would wait DB_CONNECT_TIMEOUT more on the same silent server).
                connection.close()
                raise QueryDeadlineExceeded(
                    f"no answer from the database within {seconds:g} s (DB_QUERY_DEADLINE): connection dropped"
                ) from exc
            raise
        finally:
            if ticket is not None:
                WATCHDOG.disarm(ticket)

    raw.wait = wait
    raw._casino_deadline = True
