"""ASGI entry point."""

import asyncio
import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
django_application = get_asgi_application()


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Django's ASGI application; a push stream (``/api/events/``) cancelled by the server's shutdown ends
    quietly.  A stream never ends by itself: on Ctrl-C the server waits ``--timeout-graceful-shutdown``
    seconds (bin/run: 5) and then cancels it, which it logged as an "Exception in ASGI application"."""
    try:
        await django_application(scope, receive, send)
    except asyncio.CancelledError:
        if scope.get("type") == "http" and str(scope.get("path", "")).startswith("/api/events/"):
            try:  # the stream's end, so the client reconnects to the next server (and no "returned without
                await send({"type": "http.response.body", "body": b"", "more_body": False})  # completing")
            except Exception:  # noqa: BLE001, S110 - the connection may be gone already: nothing to end
                pass
            return
        raise
