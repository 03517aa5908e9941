"""The nightly audit report of a gaming day: HTML (charts inline), PDF (reportlab) and CSV.

Built from the stored audit results of the day (``tables.services.audits``) plus the day's discrepancies
and approvals read from the rounds.  Files go under ``settings.REPORTS_ROOT/YYYY/MM/``; the
``AuditReport`` row of the day (unique) is created or replaced, so building twice gives one report.
"""

from __future__ import annotations

import base64
import csv
import io
import logging
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Count, Q, Sum
from django.template.loader import render_to_string
from django.utils import timezone

from tables import conf
from tables.engine.games import house_games
from tables.models import (
    Approval,
    AuditFinding,
    AuditKind,
    AuditReport,
    AuditResult,
    ReportStatus,
    Round,
    RoundState,
    SettlementLine,
    Wager,
)
from tables.services.audits import COUNTED_STATES, day_bounds

log = logging.getLogger(__name__)


@dataclass
class ReportData:
    """Everything the report shows, gathered once for the three formats."""

    day: date
    tables: list[dict[str, Any]] = field(default_factory=list)
    totals: dict[str, Any] = field(default_factory=dict)
    findings: list[dict[str, Any]] = field(default_factory=list)
    discrepancies: list[dict[str, Any]] = field(default_factory=list)
    approvals: list[dict[str, Any]] = field(default_factory=list)
    pace: list[dict[str, Any]] = field(default_factory=list)
    charts: dict[str, bytes] = field(default_factory=dict)
    accounting: dict[str, Any] = field(default_factory=dict)  # tables.services.accounting.report_section


def _d(x: Any) -> Decimal:
    return Decimal(str(x)) if x not in (None, "") else Decimal("0")


def gather(day: date) -> ReportData:
    """Read the day's stored audit results, findings, discrepancies and approvals."""
    data = ReportData(day)
    key = f"day:{day.isoformat()}"
    results = (AuditResult.objects.filter(gaming_day=day).select_related("table", "table__game")
               .order_by("table__number", "kind"))  # fmt: skip
    per_table: dict[int, dict[str, Any]] = {}
    for r in results:
        row = per_table.setdefault(r.table_id, {"table": r.table.number, "table_id": r.table_id,
                                                "game": r.table.game.slug, "hold": None, "mtd": None,
                                                "shuffle": None, "pace": None})  # fmt: skip
        if r.kind == AuditKind.HOLD and r.period == key:
            row["hold"] = r.summary
        elif r.kind == AuditKind.HOLD and r.period.startswith("mtd:"):
            row["mtd"] = r.summary
        elif r.kind == AuditKind.SHUFFLE:
            row["shuffle"] = r.summary
        elif r.kind == AuditKind.PACE:
            row["pace"] = r.summary
            for p in r.summary.get("dealers", []):
                data.pace.append({"table": r.table.number, **p})
    data.tables = sorted(per_table.values(), key=lambda t: t["table"])
    handle = win = theo = Decimal("0")
    rounds = 0
    for t in data.tables:
        h = t["hold"]
        if h:
            handle += _d(h["handle"])
            win += _d(h["win"])
            theo += _d(h["theo_win"])
            rounds += int(h["rounds"])
    data.totals = {
        "rounds": rounds, "handle": handle, "win": win, "theo_win": theo,
        "hold_pct": float(win / handle * 100) if handle else None,
        "theo_hold_pct": float(theo / handle * 100) if handle else None,
        "flagged_holds": sum(1 for t in data.tables if t["hold"] and t["hold"]["flagged"]),
        "shoes": sum((t["shuffle"] or {}).get("shoes", 0) for t in data.tables),
    }  # fmt: skip
    for f in (AuditFinding.objects.filter(result__gaming_day=day).select_related("table", "round")
              .order_by("table__number", "rule", "id")):  # fmt: skip
        data.findings.append({"table": f.table.number, "rule": f.rule, "severity": f.severity, "message": f.message,
                              "round": f.round.number if f.round else None, "shoe": f.shoe_id})  # fmt: skip
    start, end = day_bounds(day)
    day_rounds = Round.objects.filter(opened_at__gte=start, opened_at__lt=end)
    for rnd in (day_rounds.exclude(discrepancies=[]).select_related("table").order_by("table__number", "number")
                .only("number", "table__number", "discrepancies", "state")):  # fmt: skip
        for d in rnd.discrepancies:
            data.discrepancies.append({"table": rnd.table.number, "round": rnd.number, "state": rnd.state, **d})
    for a in (Approval.objects.filter(round__in=day_rounds).select_related("round", "round__table", "approved_by")
              .order_by("approved_at")):  # fmt: skip
        data.approvals.append({"table": a.round.table.number, "round": a.round.number, "kind": a.kind,
                               "by": a.approved_by.get_username(), "reason": a.reason,
                               "at": timezone.localtime(a.approved_at).strftime("%H:%M")})  # fmt: skip
    data.totals["discrepancies"] = len(data.discrepancies)
    data.totals["approvals"] = len(data.approvals)
    from tables.services.accounting import report_section  # table accounting and ratings (docs/accounting.md)

    data.accounting = report_section(day)
    return data


def database_totals(day: date) -> dict[str, Any]:
    """Rounds, handle and win of the day straight from the rounds (what the report must agree with)."""
    start, end = day_bounds(day)
    rounds = Round.objects.filter(opened_at__gte=start, opened_at__lt=end, state__in=COUNTED_STATES,
                                  game__in=house_games())
    handle = Wager.objects.filter(round__in=rounds, refunded=False).aggregate(s=Sum("amount"))["s"] or Decimal("0")
    net = SettlementLine.objects.filter(round__in=rounds, superseded=False).aggregate(s=Sum("net"))["s"] or Decimal("0")
    cent = Decimal("0.01")
    return {"rounds": rounds.count(), "handle": Decimal(handle).quantize(cent), "win": -Decimal(net).quantize(cent),
            "mismatch_rounds": Round.objects.filter(opened_at__gte=start, opened_at__lt=end)
            .filter(Q(state=RoundState.MISMATCH) | Q(approvals__kind="mismatch")).distinct().count(),
            "approvals": Approval.objects.filter(round__opened_at__gte=start, round__opened_at__lt=end)
            .aggregate(n=Count("id"))["n"]}  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Charts (matplotlib, rendered off-screen)


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return buf.getvalue()


def charts(data: ReportData) -> dict[str, bytes]:
    """The four charts: hold vs theory with its band, shuffle compliance, discrepancies and approvals, pace."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out: dict[str, bytes] = {}
    held = [t for t in data.tables if t["hold"] and int(t["hold"]["rounds"]) > 0]
    fig, ax = plt.subplots(figsize=(8, 3.4))
    if held:
        xs = range(len(held))
        theo = [float(t["hold"]["theo_win"]) for t in held]
        lo = [float(t["hold"]["band_low"]) for t in held]
        hi = [float(t["hold"]["band_high"]) for t in held]
        win = [float(t["hold"]["win"]) for t in held]
        ax.errorbar(xs, theo, yerr=[[t - a for t, a in zip(theo, lo, strict=True)],
                                    [b - t for t, b in zip(theo, hi, strict=True)]],
                    fmt="_", color="#555", ecolor="#9ab", elinewidth=10, capsize=0, label="theory ± band")  # fmt: skip
        ax.scatter(xs, win, color=["#c33" if t["hold"]["flagged"] else "#274" for t in held], zorder=3,
                   label="actual win")  # fmt: skip
        ax.set_xticks(list(xs), [f"T{t['table']}\n{t['game']}" for t in held], fontsize=7)
        ax.axhline(0, color="#ccc", lw=0.8)
        ax.legend(fontsize=7)
    ax.set_title("Win against theory (band at the audit confidence)", fontsize=9)
    out["hold"] = _png(fig)

    fig, ax = plt.subplots(figsize=(8, 2.8))
    rules = ("shuffle.late", "shuffle.early", "shuffle.not-notified", "card.impossible", "shuffle.preferential-pattern")
    tabs = [t for t in data.tables if t["shuffle"]]
    bottom = [0.0] * len(tabs)
    ok = [max(t["shuffle"]["shoes"] - t["shuffle"]["checked_card_by_card"], 0) for t in tabs]
    ax.bar(range(len(tabs)), ok, color="#7b9", label="shoes clean")
    bottom = [float(v) for v in ok]
    for rule, colour in zip(rules, ("#c33", "#e93", "#cc4", "#a2a", "#600"), strict=True):
        vals = [float(t["shuffle"]["by_rule"].get(rule, 0)) for t in tabs]
        if any(vals):
            ax.bar(range(len(tabs)), vals, bottom=bottom, color=colour, label=rule)
            bottom = [a + b for a, b in zip(bottom, vals, strict=True)]
    ax.set_xticks(range(len(tabs)), [f"T{t['table']}" for t in tabs], fontsize=7)
    ax.legend(fontsize=6)
    ax.set_title("Shuffle compliance: clean shoes and findings", fontsize=9)
    out["shuffle"] = _png(fig)

    fig, ax = plt.subplots(figsize=(8, 2.6))
    numbers = sorted({t["table"] for t in data.tables})
    disc = [sum(1 for d in data.discrepancies if d["table"] == n) for n in numbers]
    appr = [sum(1 for a in data.approvals if a["table"] == n) for n in numbers]
    xs = range(len(numbers))
    ax.bar([x - 0.2 for x in xs], disc, width=0.4, color="#c33", label="discrepancies")
    ax.bar([x + 0.2 for x in xs], appr, width=0.4, color="#36a", label="approvals")
    ax.set_xticks(list(xs), [f"T{n}" for n in numbers], fontsize=7)
    ax.legend(fontsize=7)
    ax.set_title("Discrepancies and approvals", fontsize=9)
    out["discrepancies"] = _png(fig)

    fig, ax = plt.subplots(figsize=(8, min(max(2.6, 0.14 * len(data.pace)), 24)))
    labels = [f"T{p['table']} {p['dealer']}" for p in data.pace]
    ax.barh(range(len(labels)), [p["rounds_per_hour"] for p in data.pace], color="#68a")
    ax.set_yticks(range(len(labels)), labels, fontsize=6)
    ax.set_xlabel("rounds per hour", fontsize=7)
    ax.set_title("Pace by table and dealer", fontsize=9)
    out["pace"] = _png(fig)
    return out


# ---------------------------------------------------------------------------------------------
# Formats


def render_html(data: ReportData) -> str:
    """The report as one self-contained HTML page (charts inline as PNG data)."""
    images = {k: base64.b64encode(v).decode() for k, v in data.charts.items()}
    return render_to_string("dashboard/report.html", {"r": data, "images": images})


CSV_FIELDS = ("section", "table", "game", "period", "rounds", "handle", "win", "hold_pct", "theo_win",
              "theo_hold_pct", "z", "band_low", "band_high", "drop", "win_to_drop_pct", "flagged", "rule",
              "severity", "round", "message")


def render_csv(data: ReportData) -> str:
    """One row per table and period of the hold audit, then one per finding, discrepancy and approval."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_FIELDS, extrasaction="ignore")
    w.writeheader()
    for t in data.tables:
        for period, h in (("day", t["hold"]), ("month-to-date", t["mtd"])):
            if h:
                w.writerow({"section": "hold", "table": t["table"], "game": t["game"], "period": period, **h,
                            "message": h.get("reason", "")})  # fmt: skip
    for f in data.findings:
        w.writerow({"section": "finding", **f})
    for d in data.discrepancies:
        w.writerow({"section": "discrepancy", "table": d["table"], "round": d["round"],
                    "message": f"seat {d.get('seat')} {d.get('bet')}: paid {d.get('paid')}, due {d.get('due')}"})  # fmt: skip
    for a in data.approvals:
        w.writerow({"section": "approval", "table": a["table"], "round": a["round"], "rule": a["kind"],
                    "message": f"{a['by']}: {a['reason']}"})  # fmt: skip
    from tables.services.accounting import report_csv_rows

    w.writerows(report_csv_rows(data.accounting))
    return buf.getvalue()


def _pct(x: Any) -> str:
    return "—" if x is None else f"{float(x):.2f}%"


PDF_ROWS = 300


def render_pdf(data: ReportData) -> bytes:
    """The report as PDF (reportlab): summary, charts, per-table hold, findings, discrepancies, approvals."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import cm
    from reportlab.platypus import Image, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    styles = getSampleStyleSheet()
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, leftMargin=1.5 * cm, rightMargin=1.5 * cm, topMargin=1.5 * cm,
                            bottomMargin=1.5 * cm, title=f"Audit report {data.day}")  # fmt: skip
    story: list[Any] = [Paragraph(f"Nightly audit report — gaming day {data.day.isoformat()}", styles["Title"])]
    t = data.totals
    story.append(Paragraph(
        f"{t['rounds']} rounds; handle {t['handle']}; win {t['win']} (hold {_pct(t['hold_pct'])}); theoretical win "
        f"{t['theo_win']} ({_pct(t['theo_hold_pct'])}); {t['flagged_holds']} hold anomalies; {len(data.findings)} "
        f"findings; {t['discrepancies']} discrepancies; {t['approvals']} approvals.", styles["Normal"]))
    style = TableStyle([("FONTSIZE", (0, 0), (-1, -1), 7), ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                        ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey)])  # fmt: skip

    def table(rows: list[list[Any]]) -> Any:
        tb = Table(rows, repeatRows=1)
        tb.setStyle(style)
        return tb

    for name, title in (("hold", "Hold against theory"), ("shuffle", "Shuffle compliance"),
                        ("discrepancies", "Discrepancies and approvals"), ("pace", "Pace")):  # fmt: skip
        if name in data.charts:
            story += [Spacer(1, 8), Paragraph(title, styles["Heading3"]),
                      Image(io.BytesIO(data.charts[name]), width=17 * cm, height=6.5 * cm, kind="proportional")]
    rows = [["table", "game", "rounds", "handle", "win", "hold", "theory", "z", "band", "drop", "verdict"]]
    for tb in data.tables:
        h = tb["hold"]
        if h:
            z = "—" if h["z"] is None else f"{h['z']:+.2f}"
            rows.append([tb["table"], tb["game"], h["rounds"], h["handle"], h["win"], _pct(h["hold_pct"]),
                         _pct(h["theo_hold_pct"]), z, f"{h['band_low']} … {h['band_high']}", h["drop"] or "—",
                         "FLAG" if h["flagged"] else "ok"])  # fmt: skip
    story += [Spacer(1, 8), Paragraph("Hold by table (gaming day)", styles["Heading3"]), table(rows)]
    def section(title: str, items: list[dict[str, Any]], head: list[str], row: Any) -> None:
        # The PDF is for reading: past PDF_ROWS the rest is counted, and the CSV has every row.
        if not items:
            return
        rows = [head] + [row(x) for x in items[:PDF_ROWS]]
        story.extend([Spacer(1, 8), Paragraph(title, styles["Heading3"]), table(rows)])
        if len(items) > PDF_ROWS:
            story.append(Paragraph(f"… and {len(items) - PDF_ROWS} more (see the CSV).", styles["Italic"]))

    section("Findings", data.findings, ["table", "rule", "severity", "message"],
            lambda f: [f["table"], f["rule"], f["severity"], Paragraph(f["message"], styles["BodyText"])])
    section("Discrepancies", data.discrepancies, ["table", "round", "seat", "bet", "paid", "due", "state"],
            lambda d: [d["table"], d["round"], d.get("seat"), d.get("bet"), d.get("paid"), d.get("due"), d["state"]])
    section("Approvals", data.approvals, ["table", "round", "kind", "by", "at", "reason"],
            lambda a: [a["table"], a["round"], a["kind"], a["by"], a["at"], a["reason"][:60]])
    from tables.services.accounting import report_pdf_story

    story += report_pdf_story(data.accounting, styles, table)
    doc.build(story)
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# Building and storing


def reports_root() -> Path:
    """Where report files live."""
    return Path(settings.REPORTS_ROOT)


def build_report(day: date, *, email: bool = True) -> AuditReport:
    """Gather, render and store the report of ``day``; replace an earlier one; e-mail it if configured."""
    report, _ = AuditReport.objects.update_or_create(
        gaming_day=day, defaults={"status": ReportStatus.RUNNING, "error": "", "finished_at": None})
    try:
        data = gather(day)
        data.charts = charts(data)
        rel = Path(f"{day:%Y}/{day:%m}")
        folder = reports_root() / rel
        folder.mkdir(parents=True, exist_ok=True)
        stem = f"audit-{day.isoformat()}"
        (folder / f"{stem}.html").write_text(render_html(data), encoding="utf-8")
        (folder / f"{stem}.csv").write_text(render_csv(data), encoding="utf-8")
        (folder / f"{stem}.pdf").write_bytes(render_pdf(data))
    except Exception as exc:
        AuditReport.objects.filter(pk=report.pk).update(status=ReportStatus.FAILED, error=repr(exc)[:2000])
        raise
    summary = {k: str(v) if isinstance(v, Decimal) else v for k, v in data.totals.items()}
    summary["findings"] = len(data.findings)
    with transaction.atomic():
        AuditReport.objects.filter(pk=report.pk).update(
            status=ReportStatus.DONE, finished_at=timezone.now(), summary=summary,
            html_path=str(rel / f"{stem}.html"), pdf_path=str(rel / f"{stem}.pdf"), csv_path=str(rel / f"{stem}.csv"),
        )  # fmt: skip
    report.refresh_from_db()
    recipients = conf.audit_report_recipients()
    if email and recipients and not report.emailed_to:
        send_report(report, recipients)
    return report


def send_report(report: AuditReport, recipients: list[str]) -> None:
    """E-mail the PDF and CSV through Django's mail settings; remember who got it (sent once)."""
    root = reports_root()
    msg = EmailMessage(
        subject=f"Audit report {report.gaming_day.isoformat()}",
        body=(f"The nightly audit report of gaming day {report.gaming_day.isoformat()}: "
              f"{report.summary.get('rounds')} rounds, {report.summary.get('findings')} findings, "
              f"{report.summary.get('flagged_holds')} hold anomalies."),
        to=recipients,
    )  # fmt: skip
    msg.attach_file(str(root / report.pdf_path), "application/pdf")
    msg.attach_file(str(root / report.csv_path), "text/csv")
    msg.send()
    AuditReport.objects.filter(pk=report.pk).update(emailed_to=", ".join(recipients))
    report.emailed_to = ", ".join(recipients)
