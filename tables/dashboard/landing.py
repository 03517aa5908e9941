"""The landing page at ``/``: each role to its place (dealer → tablet, pit boss and auditor → the floor,
games manager → the back office, cage cashier and count team → table accounting); a user with several
places chooses; a visitor signs in first."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from tables.access import (
    AUDITOR_ROLE,
    CAGE_CASHIER_ROLE,
    COUNT_TEAM_ROLE,
    DEALER_ROLE,
    GAMES_MANAGER_ROLE,
    roles_of,
)


def places_of(user: Any) -> list[dict[str, str]]:
    """The surfaces a user works in, in the order of their main role."""
    roles = roles_of(user)
    places = []
    if user.has_perm("tables.view_floor_dashboard") and (roles - {GAMES_MANAGER_ROLE, DEALER_ROLE}
                                                         or AUDITOR_ROLE in roles):  # fmt: skip
        places.append({"name": "Floor", "what": "tables live, alerts, rounds, hold", "url": reverse("dashboard:floor")})
    if DEALER_ROLE in roles:
        places.append({"name": "Tablet", "what": "deal at your table", "url": reverse("tablet-home")})
    if roles & {CAGE_CASHIER_ROLE, COUNT_TEAM_ROLE} and user.has_perm("tables.view_accounting"):
        places.append({"name": "Accounting", "what": "slips, fills and credits, the drop",
                       "url": reverse("dashboard:accounting")})  # fmt: skip
    if GAMES_MANAGER_ROLE in roles or user.is_superuser:
        places.append({"name": "Back office", "what": "games, rule sets, pay tables, tables",
                       "url": reverse("admin:index")})  # fmt: skip
    return places


@require_GET
def landing(request: HttpRequest) -> HttpResponse:
    """Send a signed-in user to their one place, or let them choose; a visitor sees the sign-in link."""
    places = places_of(request.user) if request.user.is_authenticated else []
    if len(places) == 1:
        return redirect(places[0]["url"])
    return render(request, "landing.html", {"places": places})
