"""A database that is down (refused, unreachable, timed out) answers 503, never an HTML 500.

``DatabaseUnavailableMiddleware.process_exception`` catches what a view raises; ``server_error`` (the
project's ``handler500``) catches what a middleware raises (a session saved after the view, say).
Under ``/api/`` (or when the client asks for JSON) the answer is the API's error format,
``{"error": "...database unavailable...", "code": "database_unavailable"}``; pages get a short plain
page.  Both carry ``Retry-After``.  Only *unavailability* becomes a 503: a deadlock, a constraint or a
missing table is a bug and stays a 500.

A request never waits on a silent database for long: the middleware gives every PostgreSQL round trip
of the request ``DB_QUERY_DEADLINE`` seconds (``casino.db_deadline``), and a new connection gives up
after ``DB_CONNECT_TIMEOUT``.  And once a worker found the database *unreachable* (no connection, no
answer, the server shutting down) it answers 503 at once, without trying again, for the
``DB_UNAVAILABLE_RETRY_AFTER`` seconds it told the client to wait: else every request would hold a
worker for a deadline, a few workers serve a few requests a second, and the requests queued behind
them would wait far longer than any deadline.  The next request after that tries the database again.
``/healthz`` always tries (a health check measures, it does not remember).
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.db.backends.signals import connection_created
from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.views.defaults import server_error as django_server_error

from casino.db_deadline import QueryDeadlineExceeded, query_deadline, watch_connection, watch_open_connections

log = logging.getLogger("casino.database")

MESSAGE = "database unavailable: try again shortly"

# SQLSTATE classes and codes meaning "the server cannot serve now" (PostgreSQL appendix A):
# 08 connection exception, 53 insufficient resources (too many connections), 57014 query_canceled
# (statement_timeout), 57P01-57P03 admin/crash shutdown, cannot connect now.
_UNAVAILABLE_CLASSES = ("08", "53")
_UNAVAILABLE_CODES = ("57014", "57P01", "57P02", "57P03")
# Of those, the ones where the server cannot be reached or is going away (not: a statement it
# cancelled, too many connections): they start the hold-off below.
_UNREACHABLE_CLASSES = ("08",)
_UNREACHABLE_CODES = ("57P01", "57P02", "57P03")


def database_unavailable(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database cannot be reached or answer now (as opposed to a bug)."""
    if isinstance(exc, InterfaceError):  # the connection is closed or unusable
        return True
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    if isinstance(cause, QueryDeadlineExceeded):  # no answer within DB_QUERY_DEADLINE
        return True
    sqlstate = getattr(cause, "sqlstate", None)
    if sqlstate:
        return sqlstate.startswith(_UNAVAILABLE_CLASSES) or sqlstate in _UNAVAILABLE_CODES
    if cause is not None and type(cause).__module__.startswith("psycopg"):
        # libpq failed before any server answer (refused, unreachable, timed out, connection lost):
        # psycopg raises its base OperationalError without an SQLSTATE.
        return True
    text = str(exc).lower()
    # SQLite: another process holds the write lock past the busy timeout, or the file cannot be opened.
    return "database is locked" in text or "unable to open database file" in text


# A server that is up but full (its connection limit, or this process's pool all in use): the next
# request may well get in, so no hold-off.  libpq reports the limit before any SQLSTATE exists.
_BUSY_TEXTS = ("too many clients", "remaining connection slots are reserved", "couldn't get a connection")


def database_unreachable(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the server could not be reached or did not answer (starts the hold-off)."""
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    if any(text in str(exc).lower() for text in _BUSY_TEXTS):
        return False
    if isinstance(cause, QueryDeadlineExceeded):
        return True
    sqlstate = getattr(cause, "sqlstate", None)
    if sqlstate:
        return sqlstate.startswith(_UNREACHABLE_CLASSES) or sqlstate in _UNREACHABLE_CODES
    return cause is not None and type(cause).__module__.startswith("psycopg")


class DatabaseHoldOff:
    """Per worker process: until when requests are answered 503 without trying the database."""

    until = 0.0  # time.monotonic()

    @classmethod
    def start(cls, exc: BaseException | None) -> None:
        if database_unreachable(exc):
            cls.until = time.monotonic() + settings.DB_UNAVAILABLE_RETRY_AFTER
            log.warning("database unreachable: answering 503 without trying it for %s s",
                        settings.DB_UNAVAILABLE_RETRY_AFTER)  # fmt: skip

    @classmethod
    def active(cls) -> bool:
        return time.monotonic() < cls.until

    @classmethod
    def clear(cls) -> None:
        cls.until = 0.0


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or "json" in request.headers.get("Accept", "")


def unavailable_response(request: HttpRequest) -> HttpResponse:
    """The 503 answer: JSON for the API, a plain page otherwise; both with ``Retry-After``."""
    response: HttpResponse
    if _wants_json(request):
        response = JsonResponse({"error": MESSAGE, "code": "database_unavailable"}, status=503)
    else:
        response = HttpResponse(
            "<!doctype html><title>Service unavailable</title><h1>Service unavailable</h1>"
            "<p>The database is unavailable. Try again shortly.</p>",
            status=503, content_type="text/html; charset=utf-8",
        )  # fmt: skip
    response["Retry-After"] = str(settings.DB_UNAVAILABLE_RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    """A deadline on each database round trip of a request; a database-unavailable error is a 503
    (see the module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        connection_created.connect(watch_connection, dispatch_uid="casino.db_deadline")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if DatabaseHoldOff.active() and request.path != "/healthz":
            return unavailable_response(request)
        watch_open_connections()  # persistent ones opened before this middleware was loaded
        with query_deadline(settings.DB_QUERY_DEADLINE):
            return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not database_unavailable(exception):
            return None
        log.error("database unavailable on %s %s: %s", request.method, request.path, exception)
        DatabaseHoldOff.start(exception)
        return unavailable_response(request)


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponse:
    """``handler500``: a database-unavailable error raised outside a view is a 503 too."""
    exc = sys.exc_info()[1]
    if database_unavailable(exc):
        DatabaseHoldOff.start(exc)
        return unavailable_response(request)
    if _wants_json(request):
        return JsonResponse({"error": "internal server error", "code": "server_error"}, status=500)
    try:
        return django_server_error(request, template_name)
    except Exception:  # the 500 template itself may need what is broken
        return HttpResponseServerError("<h1>Server Error (500)</h1>", content_type="text/html")
