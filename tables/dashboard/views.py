"""The pit-boss dashboard: the floor at a glance, live alerts with approve/reject, drill-down, reports.

Who sees it: whoever holds ``tables.view_floor_dashboard`` — the pit boss, the games manager and the
auditor (read-only) through their roles' ``tables.view_*``; dealers do not.  Who decides on alerts:
pit bosses only (``tables.access.is_pit_boss``), as for every approval.

Live without a reload: the page polls two small JSON endpoints (alerts every 2 s, the floor every
10 s).  Polling keeps it working through any proxy and with the plain WSGI server of the embedded
run; each poll costs a fixed, small number of queries (pinned by tests).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from csp.decorators import csp_update
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Exists, OuterRef
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from tables import selectors, services
from tables.access import is_pit_boss
from tables.engine.errors import InvalidInput
from tables.engine.money import fmt
from tables.models import (
    AlertDecision,
    Approval,
    ApprovalKind,
    AuditFinding,
    AuditKind,
    AuditReport,
    AuditResult,
    Round,
    RoundState,
    Shoe,
    Table,
    TableSession,
)
from tables.services.audits import gaming_day_of
from tables.services.reports import reports_root

PERMISSION = "tables.view_floor_dashboard"
ALERT_DAYS = 2  # findings older than this are in the reports, not on the live board


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


def floor_rows(now: Any = None) -> list[dict[str, Any]]:
    """Every table: game, status, dealer, limits, rounds this hour, shoe penetration, today's hold vs theory.

    A fixed number of queries whatever the number of tables and rounds (each read is one grouped query).
    """
    now = now or timezone.now()
    day = gaming_day_of(now)
    tables = list(Table.objects.select_related("game", "pit").order_by("pit__name", "number"))
    dealers = dict(TableSession.objects.filter(closed_at__isnull=True).values_list("table_id", "dealer__username"))
    hour = dict(Round.objects.filter(opened_at__gte=now - timedelta(hours=1), opened_at__lte=now).values("table_id")
                .annotate(n=Count("id")).order_by().values_list("table_id", "n"))  # fmt: skip
    shoes: dict[int, Mapping[str, Any]] = {}
    for s in (Shoe.objects.filter(ended_at__isnull=True).order_by("table_id", "number")
              .values("table_id", "number", "cards_dealt", "spec")):  # fmt: skip
        shoes[s["table_id"]] = s  # the latest open shoe of each table wins
    # Today's hold comes from the running audit of the gaming day (beat: every five minutes, and at
    # each run of the audit), so a poll costs one read of one row per table however busy the day was.
    holds = {r.table_id: r for r in AuditResult.objects.filter(kind=AuditKind.HOLD, period=f"day:{day.isoformat()}")
             .only("table_id", "summary", "computed_at")}  # fmt: skip
    rows = []
    for t in tables:
        shoe = shoes.get(t.pk)
        penetration = None
        if shoe:
            spec = shoe["spec"]
            size = spec.get("size") or spec["decks"] * 52 + (spec.get("total_jokers") or
                                                             spec["decks"] * spec.get("jokers_per_deck", 0))
            penetration = round(shoe["cards_dealt"] / size, 3) if size else None
        hold, as_of = None, None
        stored = holds.get(t.pk)
        if stored is not None and stored.summary.get("rounds"):
            h = stored.summary
            hold = {k: h[k] for k in ("rounds", "handle", "win", "hold_pct", "theo_hold_pct", "theo_win", "band_low",
                                      "band_high", "z", "flagged")}  # fmt: skip
            as_of = stored.computed_at.isoformat()
        rows.append({
            "id": t.pk, "number": t.number, "pit": t.pit.name, "game": t.game.slug, "game_name": t.game.name,
            "status": t.status, "dealer": dealers.get(t.pk), "min_bet": fmt(t.min_bet), "max_bet": fmt(t.max_bet),
            "rounds_this_hour": hour.get(t.pk, 0), "rounds_today": hold["rounds"] if hold else 0,
            "shoe": shoe["number"] if shoe else None, "penetration": penetration,
            "shuffle_at": shoe["spec"].get("shuffle_at") if shoe else None,
            "hold": hold, "hold_as_of": as_of,
        })  # fmt: skip
    return rows


def alerts(now: Any = None) -> list[dict[str, Any]]:
    """Open alerts, newest first: payout mismatches, approvals waiting, and the audits' unacknowledged findings."""
    now = now or timezone.now()
    out: list[dict[str, Any]] = []
    approved = Approval.objects.filter(round=OuterRef("pk"), kind=ApprovalKind.LARGE_PAYOUT)
    waiting = (
        list(Round.objects.filter(state=RoundState.MISMATCH).select_related("table").order_by("-updated_at")[:200])
        + list(Round.objects.filter(state=RoundState.SETTLED, approval_required=True).exclude(Exists(approved))
               .select_related("table").order_by("-updated_at")[:200])
    )  # fmt: skip
    decided = set(AlertDecision.objects.filter(round_id__in=[r.pk for r in waiting])
                  .values_list("round_id", "round_version"))  # fmt: skip
    for r in waiting:
        if (r.pk, r.version) in decided:
            continue  # rejected at this version: back when the dealer records a new payment
        if r.state == RoundState.MISMATCH:
            text = "; ".join(f"seat {d.get('seat')} {d.get('bet')}: paid {d.get('paid')}, due {d.get('due')}"
                             for d in r.discrepancies)  # fmt: skip
            kind, title = "payout-mismatch", f"Payout mismatch — table {r.table.number}, round {r.number}"
        else:
            text = r.approval_reason
            kind, title = "approval-waiting", f"Approval waiting — table {r.table.number}, round {r.number}"
        out.append({"id": f"round:{r.pk}:{r.version}", "kind": kind, "severity": "critical", "title": title,
                    "message": text, "table": r.table_id, "table_number": r.table.number, "round": r.pk,
                    "version": r.version, "at": r.updated_at.isoformat(), "actions": ["approve", "reject"]})  # fmt: skip
    labels = {"shuffle": "Shuffle violation", "card": "Impossible card", "hold": "Hold anomaly"}
    for f in (AuditFinding.objects.filter(acknowledged_at__isnull=True, created_at__gte=now - timedelta(days=ALERT_DAYS))
              .exclude(severity="info").select_related("table").order_by("-created_at", "-id")[:200]):  # fmt: skip
        prefix = f.rule.split(".")[0]
        out.append({"id": f"finding:{f.pk}", "kind": f.rule, "severity": f.severity,
                    "title": f"{labels.get(prefix, f.rule)} — table {f.table.number}", "message": f.message,
                    "table": f.table_id, "table_number": f.table.number, "round": f.round_id,
                    "at": f.created_at.isoformat(), "actions": ["acknowledge"]})  # fmt: skip
    out.sort(key=lambda a: a["at"], reverse=True)
    return out


@require_GET
@dashboard_view
def floor(request: HttpRequest) -> HttpResponse:
    """The dashboard page (its live parts fill in from the JSON endpoints)."""
    rows = floor_rows()
    return render(request, "dashboard/floor.html", {
        "rows": rows, "alerts": alerts(), "can_decide": is_pit_boss(request.user),
        "reports": AuditReport.objects.order_by("-gaming_day")[:5],
    })  # fmt: skip


@require_GET
@dashboard_view
def floor_json(request: HttpRequest) -> JsonResponse:
    """The floor rows as JSON."""
    return JsonResponse({"tables": floor_rows(), "at": timezone.now().isoformat()})


@require_GET
@dashboard_view
def alerts_json(request: HttpRequest) -> JsonResponse:
    """The open alerts as JSON (polled every few seconds)."""
    return JsonResponse({"alerts": alerts(), "can_decide": is_pit_boss(request.user),
                         "at": timezone.now().isoformat()})  # fmt: skip


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
    """A table: its gauge, today's hold, recall of the last rounds, open findings."""
    table = get_object_or_404(Table.objects.select_related("game", "pit", "rule_set", "pay_table"), pk=pk)
    row = next((r for r in floor_rows() if r["id"] == table.pk), None)
    findings = AuditFinding.objects.filter(table=table).select_related("round").order_by("-created_at")[:30]
    return render(request, "dashboard/table.html", {
        "table": table, "row": row, "gauge": selectors.shoe_gauge(table),
        "recall": selectors.round_recall(table=table, count=15), "findings": findings,
    })  # fmt: skip


@require_GET
@dashboard_view
def round_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A round in full and its audit trail (who did what, when)."""
    rnd = get_object_or_404(Round.objects.select_related("table", "table__game", "rule_set", "pay_table", "shoe"),
                            pk=pk)  # fmt: skip
    trail = list(selectors.round_trail(rnd))
    decisions = AlertDecision.objects.filter(round=rnd).select_related("by")
    return render(request, "dashboard/round.html", {
        "round": rnd, "doc": selectors.round_document(rnd), "trail": trail, "decisions": decisions,
        "can_decide": is_pit_boss(request.user),
    })  # fmt: skip


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
def report_file(request: HttpRequest, pk: int, kind: str) -> FileResponse:
    """Download one file of a report (the path comes from the row, never from the request)."""
    report = get_object_or_404(AuditReport, pk=pk)
    rel = {"html": report.html_path, "pdf": report.pdf_path, "csv": report.csv_path}.get(kind)
    if not rel:
        raise Http404("no such file")
    root = reports_root().resolve()
    path = (root / rel).resolve()
    if root not in path.parents or not path.is_file():
        raise Http404("the report file is missing")
    return FileResponse(open(path, "rb"), as_attachment=kind != "html", filename=Path(rel).name,  # noqa: SIM115
                        content_type=CONTENT_TYPES[kind])  # fmt: skip

