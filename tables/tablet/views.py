"""The dealer tablet pages: sign in, pick a table, and the table page (a touch app over the tablet API).

The pages are thin: the table page is a shell whose script (static/tablet/tablet.js) reads and
writes everything through ``/api/`` with the session cookie, so the tablet and any other client
go through the same services, checks and audit trail.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse_lazy
from django.views.decorators.csrf import ensure_csrf_cookie

from tables import selectors
from tables.access import DEALER_ROLE, is_pit_boss, roles_of
from tables.engine.games import game as game_spec
from tables.engine.games import live_games
from tables.models import Table
from tables.services.decks import ASSIGN_RIGHTS, ENROL_RIGHT

LOGIN_URL = reverse_lazy("tablet-login")
LIVE_GAMES = live_games()


class TabletLoginView(auth_views.LoginView):
    """The one sign-in page (tablet, dashboard, landing page).  Without a ``next`` it goes to the landing
    page, which sends each role to its place (a pit boss to the floor, not to the dealer's table picker)."""

    template_name = "tablet/login.html"
    redirect_authenticated_user = True

    def get_default_redirect_url(self) -> str:
        return str(reverse_lazy("landing"))


def _context(request: HttpRequest) -> dict[str, Any]:
    roles = roles_of(request.user)
    return {"roles": sorted(roles), "is_pit_boss": is_pit_boss(request.user),
            "may_enrol": request.user.has_perm(ENROL_RIGHT)}


@login_required(login_url=LOGIN_URL)
def tablet_home(request: HttpRequest) -> HttpResponse:
    """Pick a table: every table with its game, limits, who holds it and whether a round is open."""
    try:
        tables = [selectors.table_document(t) for t in selectors.table_list(user=request.user)]
    except PermissionDenied:
        return render(request, "tablet/no_role.html", status=403)
    # Only a dealer or a pit boss takes a table: an auditor read "free: tap to take it" on every one.
    may_take = DEALER_ROLE in roles_of(request.user) or is_pit_boss(request.user)
    return render(request, "tablet/home.html", {"tables": tables, "live_games": LIVE_GAMES, "may_take": may_take,
                                                **_context(request)})


@ensure_csrf_cookie
@login_required(login_url=LOGIN_URL)
def tablet_table(request: HttpRequest, pk: int) -> HttpResponse:
    """The table page: the live round, driven by the tablet API (survives reloads: state is on the server)."""
    try:
        selectors.check_can_read(request.user)
    except PermissionDenied:
        return render(request, "tablet/no_role.html", status=403)
    table = get_object_or_404(Table.objects.select_related("game", "pit", "rule_set"), pk=pk)
    return render(request, "tablet/table.html", {
        "table": table, "live": table.game.slug in LIVE_GAMES, "seats": selectors.seat_count(table),
        # What the tablet offers for this game comes from the registry; the page checks no game slugs.
        "capabilities": " ".join(sorted(game_spec(table.game.slug).capabilities)),
        "rated": game_spec(table.game.slug).house_banked,  # players are rated where the house banks the game
        "may_deal": DEALER_ROLE in roles_of(request.user),
        "players_per_round": game_spec(table.game.slug).players_per_round,
        "username": request.user.get_username(), **_context(request),
    })  # fmt: skip


@ensure_csrf_cookie
@login_required(login_url=LOGIN_URL)
def tablet_enrol(request: HttpRequest, pk: int) -> HttpResponse:
    """Enrol a new deck at this table (games managers): scan it card by card in any order; the page is a
    shell over ``/api/tables/<pk>/enrolments/`` (static/tablet/enrol.js), so a reload picks the session up."""
    if not request.user.has_perm(ENROL_RIGHT):  # before anything else is looked at
        return render(request, "tablet/enrol_refused.html", {**_context(request)}, status=403)
    table = get_object_or_404(Table.objects.select_related("game", "pit__casino", "deck_design"), pk=pk)
    return render(request, "tablet/enrol.html", {
        "table": table, "may_assign": request.user.has_perms(ASSIGN_RIGHTS), **_context(request),
    })  # fmt: skip
