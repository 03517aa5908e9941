"""Fixtures of the tables tests.

The theory tests (``pytest.mark.usefixtures("tiny_simulation", "queued", "_empty_cache")``) run a tiny
simulation and record the queued theory tasks instead of sending them."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def tiny_simulation(settings: Any) -> None:
    """A few thousand rounds under the rule text's strategy (the improved one takes seconds to compute)."""
    settings.THEORY_SIMULATION_ROUNDS = 20_000
    settings.THEORY_STRATEGY = "rule-text"


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Result ids the services queued (``compute_theory.delay``), instead of a message to the broker."""
    from tables.tasks.theory import compute_theory

    sent: list[int] = []
    monkeypatch.setattr(compute_theory, "delay", lambda result_id: sent.append(result_id))
    return sent


@pytest.fixture
def _empty_cache() -> None:
    """Each test starts without cached exact figures (they are keyed by content, so only counts differ)."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def asgi_server(transactional_db: None) -> Any:
    """The ASGI application (what production serves with uvicorn) on a free port, in this process.

    The push channel streams server-sent events, which the WSGI ``live_server`` cannot; in one process
    an event published by a service called in the test reaches the stream (in-process delivery)."""
    import socket
    import threading
    import time

    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(ASGIStaticFilesHandler(get_asgi_application()), log_level="warning",
                                           lifespan="off", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=5)
    sock.close()
