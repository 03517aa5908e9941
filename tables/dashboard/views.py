"""The pit-boss dashboard: the floor at a glance, live alerts with approve/reject, drill-down, reports.

Who sees it: whoever holds ``tables.view_floor_dashboard`` — the pit boss, the games manager and the
auditor (read-only) through their roles' ``tables.view_*``; dealers do not.  Who decides on alerts:
pit bosses only (``tables.access.is_pit_boss``), as for every approval.

Live without a reload: the page follows its casino's push channel (server-sent events, docs/push.md)
and redraws a tile from each event; it reads the alerts again when an event says they changed, and
polls the two JSON endpoints only as a fallback (every PUSH_FALLBACK_POLL_SECONDS, and at once after
the stream reconnects).  Each read costs a fixed, small number of queries (pinned by tests).

Scope: a user with a ``FloorScope`` sees their casino (and pit) only: tiles, alerts, rounds, tables.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from csp.decorators import csp_update
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from tables import selectors, services
from tables.access import is_pit_boss
from tables.engine.errors import InvalidInput
from tables.models import AlertDecision, AuditFinding, AuditReport, Round, RoundState
from tables.selectors import floor_live as floor_sel
from tables.selectors import trail as trail_sel
from tables.services.reports import reports_root

PERMISSION = "tables.view_floor_dashboard"


def _check(request: HttpRequest) -> None:
    if not request.user.has_perm(PERMISSION):
        raise PermissionDenied("the dashboard is for pit bosses, games managers and auditors")


def dashboard_view(fn: Any) -> Any:
    """Login required (redirect), then the dashboard permission (403)."""

    @login_required
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        _check(request)
        return fn(request, *args, **kwargs)

    wrapped.__name__ = fn.__name__
    wrapped.__doc__ = fn.__doc__
    return wrapped


# ---------------------------------------------------------------------------------------------
# The floor


def _scope(request: HttpRequest) -> floor_sel.Scope:
    scope = getattr(request, "_floor_scope", None)
    if scope is None:
        scope = floor_sel.scope_of(request.user)
        request._floor_scope = scope  # type: ignore[attr-defined]
    return scope


def floor_rows(now: Any = None, scope: floor_sel.Scope | None = None,
               table_ids: list[int] | None = None) -> list[dict[str, Any]]:
    """The floor's tiles (``tables.selectors.floor_live.floor_tiles``) with ``rounds_today``."""
    rows = floor_sel.floor_tiles(scope or floor_sel.Scope(), table_ids=table_ids, now=now)
    for r in rows:
        r["rounds_today"] = r["hold"]["rounds"] if r["hold"] else 0
    return rows


def alerts(now: Any = None, scope: floor_sel.Scope | None = None) -> list[dict[str, Any]]:
    """Open alerts in scope, newest first (``tables.selectors.floor_live.open_alerts``)."""
    return floor_sel.open_alerts(scope or floor_sel.Scope(), now=now)


def _pits(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    pits: dict[str, dict[str, Any]] = {}
    for r in rows:
        pits.setdefault(r["pit"], {"name": r["pit"], "tiles": []})["tiles"].append(r)
    return list(pits.values())


@ensure_csrf_cookie
@require_GET
@dashboard_view
def floor(request: HttpRequest) -> HttpResponse:
    """The floor map: tiles by pit, live by push; the alerts with filters (their JSON fills in the numbers)."""
    scope = _scope(request)
    rows = floor_rows(scope=scope)
    games = sorted({(r["game"], r["game_name"]) for r in rows})
    return render(request, "dashboard/floor.html", {
        "pits": _pits(rows), "rows": rows, "alerts": alerts(scope=scope), "games": games,
        "states": [(s, floor_sel.TILE_LABELS[s]) for s in floor_sel.TILE_STATES],
        "alert_kinds": sorted(floor_sel.ALERT_LABELS.items()), "can_decide": is_pit_boss(request.user),
        "fallback_poll": settings.PUSH_FALLBACK_POLL_SECONDS, "scope": scope,
    })  # fmt: skip


@require_GET
@dashboard_view
def floor_json(request: HttpRequest) -> JsonResponse:
    """The floor's tiles as JSON (``?tables=1,2`` for some of them only)."""
    ids = None
    if request.GET.get("tables"):
        try:
            ids = [int(x) for x in request.GET["tables"].split(",")[:500]]
            if any(not 0 < i < 2**63 for i in ids):
                raise ValueError("a table id out of range")  # the database's integers hold no more
        except ValueError:
            return JsonResponse({"error": "tables: comma-separated table ids", "field": "tables"}, status=400)
    # The newest audit event before the read: a tile that has drawn a pushed event newer than this keeps
    # it (a slow read must not put back what a push already moved on; docs/push.md).
    upto = floor_sel.newest_event_id()
    return JsonResponse({"tables": floor_rows(scope=_scope(request), table_ids=ids), "events_upto": upto,
                         "at": timezone.now().isoformat()})


@require_GET
@dashboard_view
def alerts_json(request: HttpRequest) -> JsonResponse:
    """The open alerts as JSON (fetched when a push says they changed, and by the fallback poll)."""
    return JsonResponse({"alerts": alerts(scope=_scope(request)), "can_decide": is_pit_boss(request.user),
                         "at": timezone.now().isoformat()})  # fmt: skip


@require_GET
@dashboard_view
def alert_history(request: HttpRequest) -> HttpResponse:
    """The decisions taken on alerts: approvals, rejections, acknowledgements; who, when and why."""
    return render(request, "dashboard/alert_history.html", {"rows": floor_sel.alert_history(_scope(request))})


@require_POST
@dashboard_view
def alert_decide(request: HttpRequest) -> JsonResponse:
    """Approve or reject a round's alert, or acknowledge a finding; pit bosses only, with a reason."""
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        return JsonResponse({"error": "the body must be JSON", "field": "body"}, status=400)
    alert, decision = str(body.get("alert", "")), str(body.get("decision", ""))
    reason = str(body.get("reason", "")).strip()
    if not is_pit_boss(request.user):
        return JsonResponse({"error": "only a pit boss decides on alerts"}, status=403)
    if not reason:
        return JsonResponse({"error": "a decision needs a reason", "field": "reason"}, status=400)
    parts = alert.split(":")
    try:
        if parts[0] == "round" and len(parts) == 3 and decision in ("approve", "reject"):
            rnd = get_object_or_404(Round, pk=int(parts[1]))
            version = int(parts[2])
            if decision == "approve":
                services.round_approve(round=rnd, reason=reason, actor=request.user, expected_version=version)
            else:
                services.round_reject(round=rnd, reason=reason, actor=request.user, expected_version=version)
        elif parts[0] == "finding" and len(parts) == 2 and decision == "acknowledge":
            services.finding_acknowledge(finding=int(parts[1]), reason=reason, actor=request.user)
        else:
            return JsonResponse({"error": f"cannot {decision!r} alert {alert!r}", "field": "alert"}, status=400)
    except services.Conflict as exc:
        return JsonResponse({"error": str(exc)}, status=409)
    except InvalidInput as exc:
        return JsonResponse({"error": exc.message, "field": exc.field}, status=400)
    except ValueError:
        return JsonResponse({"error": f"bad alert id {alert!r}", "field": "alert"}, status=400)
    return JsonResponse({"ok": True, "alert": alert, "decision": decision})


# ---------------------------------------------------------------------------------------------
# Drill-down


@require_GET
@dashboard_view
def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A table: its gauge, today's hold, recall of the last rounds, open findings (404 outside the user's scope)."""
    scope = _scope(request)
    table = get_object_or_404(scope.tables().select_related("game", "pit", "rule_set", "pay_table"), pk=pk)
    row = next(iter(floor_rows(scope=scope, table_ids=[table.pk])), None)
    findings = AuditFinding.objects.filter(table=table).select_related("round").order_by("-created_at")[:30]
    return render(request, "dashboard/table.html", {
        "table": table, "row": row, "gauge": selectors.shoe_gauge(table),
        "recall": selectors.round_recall(table=table, count=15), "findings": findings,
    })  # fmt: skip


@require_GET
@dashboard_view
def round_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A round in full and its trail in words: cards with their scans, decisions, payments, approvals."""
    with selectors.one_moment():  # the round's row and its cards as of one moment
        rnd = get_object_or_404(Round.objects.select_related("table", "table__game", "table__pit", "rule_set",
                                                             "pay_table", "shoe", "opened_by")
                                .filter(table__in=_scope(request).tables()), pk=pk)  # fmt: skip
        doc = selectors.round_document(rnd)
    decisions = AlertDecision.objects.filter(round=rnd).select_related("by")
    return render(request, "dashboard/round.html", {
        "round": rnd, "doc": doc, "trail": trail_sel.round_trail_words(rnd), "decisions": decisions,
        "scans": trail_sel.round_scans(rnd), "can_decide": is_pit_boss(request.user),
        "opened_at": rnd.opened_at, "settled_at": rnd.settled_at,
    })  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Rounds search and export (surveillance)

ROUNDS_PAGE = 100
SEARCH_LABELS = {"from": "From", "to": "To", "table": "Table", "dealer": "Dealer", "min": "Wagered from",
                 "max": "Wagered to", "state": "State"}  # fmt: skip
MAX_PAGE = 100_000  # a page number beyond this is read as the last one (its offset would overflow the database)
CSV_LIMIT = 100_000


@require_GET
@dashboard_view
def rounds_search(request: HttpRequest) -> HttpResponse:
    """Search rounds by gaming day, table, dealer, amount wagered and state; export what is found as CSV."""
    q, errors = trail_sel.RoundQuery.from_params(request.GET)
    qs = trail_sel.rounds_search(_scope(request), q)
    try:
        page = min(MAX_PAGE, max(1, int(request.GET.get("page", "1"))))
    except ValueError:
        page = 1
    found = list(qs[(page - 1) * ROUNDS_PAGE: page * ROUNDS_PAGE + 1])
    params = request.GET.copy()
    params.pop("page", None)
    return render(request, "dashboard/rounds.html", {
        "rows": [trail_sel.round_row(r) for r in found[:ROUNDS_PAGE]], "q": request.GET,
        # Each error under the label of its box ("Wagered from"), not the parameter's name ("min").
        "errors": [{"label": SEARCH_LABELS.get(k, k), "message": v} for k, v in errors.items()],
        "states": RoundState.choices, "page": page, "more": len(found) > ROUNDS_PAGE, "query": params.urlencode(),
    })  # fmt: skip


@require_GET
@dashboard_view
def rounds_csv(request: HttpRequest) -> StreamingHttpResponse:
    """The rounds search as CSV for surveillance (streamed; at most CSV_LIMIT rows)."""
    q, _ = trail_sel.RoundQuery.from_params(request.GET)
    qs = trail_sel.rounds_search(_scope(request), q)[:CSV_LIMIT]
    header = ["round id", "opened", "pit", "table", "round", "game", "dealer", "state", "wagered", "due", "paid",
              "discrepancies", "settled"]

    class Echo:
        def write(self, value: str) -> str:
            return value

    writer = csv.writer(Echo())

    def rows() -> Any:
        yield writer.writerow(header)
        for r in qs.iterator(chunk_size=2000):
            d = trail_sel.round_row(r)
            yield writer.writerow([d["id"], d["opened_at"].strftime("%Y-%m-%d %H:%M:%S"), d["pit"], d["table"],
                                   d["round"], d["game"], d["dealer"], d["state"], d["wagered"], d["due"], d["paid"],
                                   d["discrepancies"],
                                   d["settled_at"].strftime("%Y-%m-%d %H:%M:%S") if d["settled_at"] else ""])

    response = StreamingHttpResponse(rows(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="rounds.csv"'
    return response


# ---------------------------------------------------------------------------------------------
# Hold over time

HOLD_GROUPS = ("table", "pit", "game")


@require_GET
@dashboard_view
def hold(request: HttpRequest) -> HttpResponse:
    """Daily hold per table, pit or game against the theory band, drawn as small charts."""
    group = request.GET.get("group", "pit")
    if group not in HOLD_GROUPS:
        group = "pit"
    try:
        days = min(90, max(2, int(request.GET.get("days", "14"))))
    except ValueError:
        days = 14
    series = floor_sel.hold_history(_scope(request), days=days, group=group)
    return render(request, "dashboard/hold.html", {"series": [hold_chart(s) for s in series], "group": group,
                                                   "groups": HOLD_GROUPS, "days": days})  # fmt: skip


def hold_chart(series: dict[str, Any], width: int = 360, height: int = 140) -> dict[str, Any]:
    """An SVG-ready chart of one series: the band as a polygon, theory and hold as lines, a labelled y axis."""
    pts = [p for p in series["points"] if p["hold_pct"] is not None]
    values = [v for p in pts for v in (p["hold_pct"], p["band_low_pct"], p["band_high_pct"]) if v is not None]
    lo, hi = (min(values + [0.0]), max(values + [0.0])) if values else (0.0, 1.0)
    if hi - lo < 1e-9:
        hi = lo + 1
    pad_l, pad_b = 46, 18
    n = max(1, len(pts) - 1)

    def x(i: int) -> float:
        return round(pad_l + (width - pad_l - 24) * (i / n if len(pts) > 1 else 0.5), 1)

    def y(v: float) -> float:
        return round(6 + (height - pad_b - 12) * (1 - (v - lo) / (hi - lo)), 1)

    band = [(x(i), y(p["band_high_pct"])) for i, p in enumerate(pts)] + \
           [(x(i), y(p["band_low_pct"])) for i, p in reversed(list(enumerate(pts)))]
    ticks = [lo + (hi - lo) * k / 4 for k in range(5)]
    return {
        "name": series["name"], "width": width, "height": height, "points": series["points"],
        "band": " ".join(f"{a},{b}" for a, b in band),
        "hold": " ".join(f"{x(i)},{y(p['hold_pct'])}" for i, p in enumerate(pts)),
        "theo": " ".join(f"{x(i)},{y(p['theo_pct'])}" for i, p in enumerate(pts)),
        "dots": [{"x": x(i), "y": y(p["hold_pct"]), "outside": p["outside"], "day": p["day"],
                  "hold": p["hold_pct"]} for i, p in enumerate(pts)],
        "yticks": [{"y": y(t), "label": f"{t:.1f}%"} for t in ticks], "zero": y(0.0) if lo <= 0 <= hi else None,
        "xlabels": [{"x": x(i), "label": p["day"].strftime("%d %b")} for i, p in enumerate(pts)
                    if len(pts) <= 8 or i % max(1, len(pts) // 6) == 0],
        "axis_x": pad_l, "axis_bottom": height - pad_b + 2,
    }


# ---------------------------------------------------------------------------------------------
# Reports


@require_GET
@dashboard_view
def reports(request: HttpRequest) -> HttpResponse:
    """The nightly reports, newest first, with their files."""
    return render(request, "dashboard/reports.html", {"reports": AuditReport.objects.order_by("-gaming_day")[:120]})


CONTENT_TYPES = {"html": "text/html; charset=utf-8", "pdf": "application/pdf", "csv": "text/csv; charset=utf-8"}


# The HTML report is a self-contained archive file (its stylesheet and charts inside it): its inline
# <style> is allowed here, styles only; scripts stay 'self' (it has none).
@csp_update({"style-src": ["'unsafe-inline'"]})
@require_GET
@dashboard_view
def report_file(request: HttpRequest, pk: int, kind: str, n: int | None = None) -> FileResponse:
    """Download one file of a report, or of its ``n``-th earlier version (the path comes from the row,
    never from the request)."""
    report = get_object_or_404(AuditReport, pk=pk)
    paths: dict[str, Any] = {"html_path": report.html_path, "pdf_path": report.pdf_path, "csv_path": report.csv_path}
    if n is not None:
        if not 0 <= n < len(report.earlier):
            raise Http404("no such earlier version")
        paths = report.earlier[n]  # the same keys, as _keep_earlier stores them
    rel = paths.get(f"{kind}_path")
    if kind not in CONTENT_TYPES or not rel or not isinstance(rel, str):
        raise Http404("no such file")
    root = reports_root().resolve()
    path = (root / rel).resolve()
    if root not in path.parents or not path.is_file():
        raise Http404("the report file is missing")
    return FileResponse(open(path, "rb"), as_attachment=kind != "html", filename=Path(rel).name,  # noqa: SIM115
                        content_type=CONTENT_TYPES[kind])  # fmt: skip

