"""The accounting page of the dashboard: reconciliation, win/drop hold, slips, seated players and ratings.

Who sees it: whoever holds ``tables.view_accounting`` — the pit boss, the games manager and the auditor
(through ``tables.view_*``), the cage cashier and the count team.  Read-only: slips are written from the
API (the pit's and the cage's screens) and the back office.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from tables.access import is_cage_cashier, is_count_team, is_pit_boss
from tables.audit.accounting import DENOMINATIONS
from tables.audit.theory import HOUSE_GAMES
from tables.days import day_text, parse_day
from tables.models import AuditKind, AuditResult, Table
from tables.models.accounting import TRANSFER_KINDS
from tables.selectors import accounting as sel
from tables.services import accounting as svc

PERMISSION = "tables.view_accounting"
FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(9000, 12, 31)  # the days a gaming day may be


def _day(request: HttpRequest) -> tuple[date, str | None]:
    """The gaming day asked for (today's by default), and a note when the asked day could not be read."""
    today = sel.shift_of(timezone.now())[0]
    raw = request.GET.get("day", "").strip()
    if not raw:
        return today, None
    found = parse_day(raw, today)
    if found is not None and not FIRST_DAY <= found <= LAST_DAY:
        found = None  # year 1 or 9999: the day's bounds and the links beside it would overflow
    return (found, None) if found is not None else (today, f"“{raw}” is not a day such as {day_text(today)}: "
                                                           "today's gaming day is shown")


@require_GET
@login_required
def accounting(request: HttpRequest) -> HttpResponse:
    """Counted against tracked win per table and shift, win/drop hold, the day's slips, seated players, ratings."""
    if not request.user.has_perm(PERMISSION):
        raise PermissionDenied("table accounting is for the pit, the cage, the count team and auditors")
    day, day_note = _day(request)
    reconciliation = [r for t in sel.accounted_tables(day) for s in sel.SHIFT_NAMES
                      if (r := svc.reconcile_shift(t, day, s))["rounds"] or len(r["missing"]) < 3]  # not idle shifts
    holds: list[dict[str, Any]] = []
    for res in (AuditResult.objects.filter(kind=AuditKind.ACCOUNTING, gaming_day=day, period__startswith="day:")
                .select_related("table").order_by("table__number")):  # fmt: skip
        holds.append({"table": res.table.number, **{k: res.summary["hold"][k] for k in ("day", "mtd", "ytd")}})
    ratings = [svc.rating_of(s) for s in sel.rating_slips(day=day)]
    for r in ratings:
        r["minutes"] = r["seconds"] // 60
    slips = [sel.slip_document(s) for s in sel.slips(day=day)]
    # Only the controls this user may use (the services refuse the rest): an auditor read Write slip, void
    # and close, each a 403 when pressed.
    pit, cage = is_pit_boss(request.user), is_cage_cashier(request.user)
    can = {"slip": pit, "drop": is_count_team(request.user), "seat": pit, "rate": pit, "sign": pit or cage}
    for s in slips:  # the next step to sign, for the row's button
        state = s["state"]
        s["next"] = state.removeprefix("awaiting ") if state.startswith("awaiting ") and (pit or cage) else None
        s["can_void"] = pit or (cage and s["kind"] in TRANSFER_KINDS)
    return render(request, "dashboard/accounting.html", {
        "day": day, "day_note": day_note, "previous_day": day - timedelta(days=1),
        # No link to a gaming day not started yet (it offered tomorrow, with nothing to show).
        "next_day": day + timedelta(days=1) if day < sel.shift_of(timezone.now())[0] else None,
        "reconciliation": reconciliation, "holds": holds, "slips": slips, "can": can,
        "seated": list(sel.seated()), "ratings": ratings,
        "tables": Table.objects.filter(game__slug__in=HOUSE_GAMES).order_by("number"),
        "shifts": sel.SHIFT_NAMES, "current_shift": sel.shift_of(timezone.now())[1],
        "denominations": list(DENOMINATIONS),  # every chip the tray holds, the 0.25 and 0.50 included
    })  # fmt: skip
