"""On Ctrl-C the server cancels an open push stream after its grace period: the stream ends quietly (it
logged "Exception in ASGI application" and the client saw a broken response); anything else still raises."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import casino.asgi


async def _cancelled(scope: Any, receive: Any, send: Any) -> None:
    raise asyncio.CancelledError


def _run(path: str, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    monkeypatch.setattr(casino.asgi, "django_application", _cancelled)
    asyncio.run(casino.asgi.application({"type": "http", "path": path}, None, send))
    return sent


def test_a_push_stream_cancelled_at_shutdown_ends_its_response(monkeypatch):
    assert _run("/api/events/floor/", monkeypatch) == [{"type": "http.response.body", "body": b"", "more_body": False}]


def test_any_other_request_cancelled_still_raises(monkeypatch):
    with pytest.raises(asyncio.CancelledError):
        _run("/api/rounds/1/", monkeypatch)
