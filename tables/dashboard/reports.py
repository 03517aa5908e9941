"""The reports page's "Run the audit" button: an auditor runs the audit of a chosen gaming day, with progress.

POST ``reports/run/`` marks the day's report queued (``tables.services.reports.request_audit_run``,
an audit event) and enqueues the nightly audit task for that day (the same fan-out the beat
schedule runs); GET ``reports/run/<day>/`` answers its progress as JSON, which
``static/dashboard/report_run.js`` polls into a progress bar and turns into the report's links when done.
"""

from __future__ import annotations

from datetime import date

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from tables.access import AUDITOR_ROLE, roles_of
from tables.dashboard.views import dashboard_view
from tables.days import day_text, parse_day
from tables.errors import Conflict, InvalidInput
from tables.selectors.reports import audit_run_progress
from tables.services.audits import last_complete_gaming_day
from tables.services.reports import request_audit_run


def may_run_audit(user: object) -> bool:
    """Auditors (and superusers) run the audit of a day from the reports page."""
    return bool(getattr(user, "is_superuser", False) or AUDITOR_ROLE in roles_of(user))


def run_context(request: HttpRequest) -> dict[str, object]:
    """What the button needs on the reports page (``dashboard/report_run.html``)."""
    return {"may_run_audit": may_run_audit(request.user), "default_day": last_complete_gaming_day().isoformat()}


def _progress(day: date) -> dict[str, object]:
    out = audit_run_progress(day)
    out["day_words"] = day_text(day)
    if out["report"] is not None and out["status"] == "done":
        out["files"] = {kind: reverse("dashboard:report-file", args=[out["report"], kind])
                        for kind in ("html", "pdf", "csv")}
    return out


@require_POST
@dashboard_view
def run_audit(request: HttpRequest) -> HttpResponse:
    """Queue the audit of the posted ``day``; JSON for the page's script, a redirect without it."""
    from tables.tasks.audit import audit_nightly

    wants_json = "application/json" in request.headers.get("Accept", "")
    raw = request.POST.get("day", "").strip()
    latest = last_complete_gaming_day()
    day = parse_day(raw, latest)
    if day is None:
        return JsonResponse({"error": f"day: “{raw}” is not a day such as {day_text(latest)}"}, status=400)
    try:
        request_audit_run(day, actor=request.user)
    except PermissionDenied as exc:
        return JsonResponse({"error": str(exc)}, status=403)
    except InvalidInput as exc:
        return JsonResponse({"error": f"{exc.field}: {exc.message}"}, status=400)
    except Conflict as exc:
        return JsonResponse({**_progress(day), "error": str(exc), "progress_url": _progress_url(day)}, status=409)
    audit_nightly.delay(day.isoformat())
    if not wants_json:
        return HttpResponseRedirect(reverse("dashboard:reports"))
    return JsonResponse({**_progress(day), "progress_url": _progress_url(day)}, status=202)


def _progress_url(day: date) -> str:
    return reverse("dashboard:report-run-progress", args=[day.isoformat()])


@require_GET
@dashboard_view
def run_progress(request: HttpRequest, day: str) -> JsonResponse:
    """The progress of the audit of ``day`` (polled every second while it runs)."""
    try:
        d = date.fromisoformat(day)
    except ValueError:
        return JsonResponse({"error": "day: a date YYYY-MM-DD"}, status=400)
    return JsonResponse(_progress(d))
