"""The push channel's endpoints (server-sent events, django-eventstream) and who may follow what.

``GET /api/events/floor/``: the casino channels of the user's scope (dashboard users).
``GET /api/events/tables/<id>/``: one table's channel (its dealer now, and pit bosses in scope).
The contract (channels, event body, reconnecting) is in docs/push.md.
"""

from __future__ import annotations

from typing import Any

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET
from django_eventstream import views as _es_views
from django_eventstream.channelmanager import ChannelManagerBase
from django_eventstream.views import events

from tables.selectors import floor_live as floor_sel
from tables.services.push import casino_channel, table_channel

DASHBOARD_PERMISSION = "tables.view_floor_dashboard"

# django-eventstream queues at most 10 events per channel for a stream between two writes to it and
# drops the rest (no event store to re-read them from): a casino channel carries every table's events
# (500 tables: some 40 a second), so a stream whose loop stalls for a moment lost events in the load
# test (bench/floor_load.py).  A deeper queue costs a few kilobytes per stream.
_es_views.MAX_PENDING = 500


class ChannelManager(ChannelManagerBase):
    """Authorises every channel a stream asks for (django-eventstream asks again on each read)."""

    def get_channels_for_request(self, request: Any, view_kwargs: dict[str, Any]) -> set[str]:
        return set(view_kwargs.get("channels", []))

    def can_read_channel(self, user: Any, channel: str) -> bool:
        if user is None or not user.is_authenticated:
            return False
        kind, _, raw = channel.partition("-")
        if not raw.isdigit():
            return False
        if kind == "casino":
            return user.has_perm(DASHBOARD_PERMISSION) and floor_sel.scope_of(user).allows_casino(int(raw))
        if kind == "table":
            return floor_sel.can_follow_table(user, int(raw))
        return False

    def is_channel_reliable(self, channel: str) -> bool:
        return False  # no event store: a reconnecting client reloads its view (docs/push.md)


def _not_asgi(request: HttpRequest) -> JsonResponse | None:
    """A stream needs the ASGI server: under WSGI (``manage.py runserver``, gunicorn's sync workers) it would
    hold a worker for ever, so answer 501 at once and the client polls instead."""
    if isinstance(request, ASGIRequest):
        return None
    return JsonResponse({"error": "the push channel needs the ASGI server (uvicorn casino.asgi:application); "
                                  "poll instead"}, status=501)


def _refused(request: HttpRequest, message: str) -> JsonResponse:
    status = 401 if not request.user.is_authenticated else 403
    return JsonResponse({"error": message}, status=status)


@require_GET
def floor_events(request: HttpRequest) -> HttpResponse:
    """The floor's event stream: every casino channel in the user's scope."""
    if not request.user.is_authenticated or not request.user.has_perm(DASHBOARD_PERMISSION):
        return _refused(request, "the floor's events are for dashboard users")
    channels = [casino_channel(c) for c in floor_sel.casinos_of(request.user)]
    return _not_asgi(request) or events(request, channels=channels)


@require_GET
def table_events(request: HttpRequest, pk: int) -> HttpResponse:
    """One table's event stream: its dealer, and pit bosses whose scope holds it."""
    if not floor_sel.can_follow_table(request.user, pk):
        return _refused(request, "only the table's dealer and its pit bosses follow this table")
    return _not_asgi(request) or events(request, channels=[table_channel(pk)])
