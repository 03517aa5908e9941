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
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Count, Q, Sum
from django.template.loader import render_to_string
from django.utils import timezone

from tables import conf
from tables.audit.theo import theo_cents
from tables.days import day_text
from tables.engine.games import house_games
from tables.engine.settlement import bet_words
from tables.errors import Conflict, InvalidInput
from tables.models import (
    Approval,
    AuditFinding,
    AuditKind,
    AuditReport,
    AuditResult,
    Casino,
    ReportStatus,
    Round,
    RoundState,
    SettlementLine,
    Wager,
)
from tables.selectors.floor_live import rule_words
from tables.services.audits import COUNTED_STATES, day_bounds

log = logging.getLogger(__name__)


@dataclass
class ReportData:
    """Everything the report shows, gathered once for the three formats."""

    day: date
    casino: str = ""
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


def _theo(hold: dict[str, Any]) -> Decimal:
    """A stored hold's exact theo (a result stored before it was kept: its rounded one)."""
    return _d(hold.get("theo_win_exact", hold["theo_win"]))


def gather(day: date) -> ReportData:
    """Read the day's stored audit results, findings, discrepancies and approvals."""
    data = ReportData(day)
    key = f"day:{day.isoformat()}"
    results = (AuditResult.objects.filter(gaming_day=day).select_related("table__game", "table__pit__casino")
               .order_by("table__number", "kind"))  # fmt: skip
    per_table: dict[int, dict[str, Any]] = {}
    for r in results:
        row = per_table.setdefault(r.table_id, {"table": r.table.number, "table_id": r.table_id,
                                                "pit": r.table.pit.name, "casino": r.table.pit.casino.name,
                                                "game": r.table.game.slug, "game_name": r.table.game.name,
                                                "hold": None, "mtd": None,
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
    data.tables = sorted(per_table.values(), key=lambda t: (t["pit"], t["table"]))
    data.casino = ", ".join(sorted({t["casino"] for t in data.tables})) or ", ".join(
        Casino.objects.order_by("name").values_list("name", flat=True))
    handle = win = theo = Decimal("0")
    rounds = 0
    for t in data.tables:
        h = t["hold"]
        if h:
            handle += _d(h["handle"])
            win += _d(h["win"])
            theo += _theo(h)
            rounds += int(h["rounds"])
    data.totals = {
        "rounds": rounds, "handle": handle, "win": win, "theo_win": theo_cents(theo),
        "hold_pct": float(win / handle * 100) if handle else None,
        "theo_hold_pct": float(theo / handle * 100) if handle else None,
        "flagged_holds": sum(1 for t in data.tables if t["hold"] and t["hold"]["flagged"]),
        "shoes": sum((t["shuffle"] or {}).get("shoes", 0) for t in data.tables),
    }  # fmt: skip
    for f in (AuditFinding.objects.filter(result__gaming_day=day).select_related("table__pit", "round")
              .order_by("table__pit__name", "table__number", "rule", "id")):  # fmt: skip
        data.findings.append({"table": f.table.number, "pit": f.table.pit.name, "rule": f.rule,
                              "severity": f.severity, "message": f.message,
                              "round": f.round.number if f.round else None, "shoe": f.shoe_id})  # fmt: skip
    start, end = day_bounds(day)
    day_rounds = Round.objects.filter(opened_at__gte=start, opened_at__lt=end)
    for rnd in (day_rounds.exclude(discrepancies=[]).select_related("table__pit").order_by("table__number", "number")
                .only("number", "table__number", "table__pit__name", "discrepancies", "state")):  # fmt: skip
        for d in rnd.discrepancies:
            data.discrepancies.append({"table": rnd.table.number, "pit": rnd.table.pit.name, "round": rnd.number,
                                       "state": rnd.state, **d})  # fmt: skip
    for a in (Approval.objects.filter(round__in=day_rounds).select_related("round", "round__table__pit", "approved_by")
              .order_by("approved_at")):  # fmt: skip
        data.approvals.append({"table": a.round.table.number, "pit": a.round.table.pit.name, "round": a.round.number,
                               "kind": a.kind,
                               "kind_label": a.get_kind_display(),
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
#
# A floor has hundreds of tables: one tick per table does not read.  The charts aggregate by pit and
# game (one bar per pair, at most MAX_GROUPS, the rest summed as "other"), and the tables that need a
# look are named in a "top flagged tables" chart of their own (at most TOP_TABLES).

MAX_GROUPS = 30
TOP_TABLES = 15


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return buf.getvalue()


def groups(data: ReportData) -> list[dict[str, Any]]:
    """The day's tables summed by (pit, game): tables, rounds, handle, win, theoretical win, holds,
    flagged holds, shuffle findings by rule, clean shoes, discrepancies and approvals; largest handle
    first, past ``MAX_GROUPS`` summed into one "other" group."""
    by: dict[tuple[str, str], dict[str, Any]] = {}
    number_to_key: dict[int, tuple[str, str]] = {}
    for t in data.tables:
        key = (t["pit"], t["game"])
        number_to_key[t["table"]] = key
        g = by.setdefault(key, {"pit": t["pit"], "game": t["game"], "game_name": t.get("game_name", t["game"]),
                                "tables": 0, "rounds": 0, "handle": Decimal(0),
                                "win": Decimal(0), "theo_win": Decimal(0), "flagged": 0, "clean_shoes": 0,
                                "by_rule": {}, "discrepancies": 0, "approvals": 0})  # fmt: skip
        g["tables"] += 1
        h = t["hold"]
        if h:
            g["rounds"] += int(h["rounds"])
            g["handle"] += _d(h["handle"])
            g["win"] += _d(h["win"])
            g["theo_win"] += _theo(h)  # exact; rounded once below
            g["flagged"] += 1 if h["flagged"] else 0
        sh = t["shuffle"]
        if sh:
            g["clean_shoes"] += max(sh["shoes"] - sh["checked_card_by_card"], 0)
            for rule, n in sh["by_rule"].items():
                g["by_rule"][rule] = g["by_rule"].get(rule, 0) + n
    # Discrepancies and approvals carry the table's number only; a number is unique within a pit, so
    # they are placed through the tables of the day (a table with none of its own audit rows is "other").
    for kind, items in (("discrepancies", data.discrepancies), ("approvals", data.approvals)):
        for x in items:
            found = number_to_key.get(x["table"])
            if found is not None:
                by[found][kind] += 1
    out = sorted(by.values(), key=lambda g: (-g["handle"], g["pit"], g["game"]))
    if len(out) > MAX_GROUPS:
        rest = out[MAX_GROUPS - 1:]
        other: dict[str, Any] = {"pit": "other", "game": f"{len(rest)} groups", "game_name": f"{len(rest)} groups",
                                 "by_rule": {}}
        for g in rest:
            for k, v in g.items():
                if isinstance(v, (int, Decimal)) and not isinstance(v, bool):
                    other[k] = other.get(k, 0) + v
            for rule, n in g["by_rule"].items():
                other["by_rule"][rule] = other["by_rule"].get(rule, 0) + n
        out = out[:MAX_GROUPS - 1] + [other]
    for g in out:
        g["hold_pct"] = float(g["win"] / g["handle"] * 100) if g["handle"] else None
        g["theo_hold_pct"] = float(g["theo_win"] / g["handle"] * 100) if g["handle"] else None
        g["theo_win"] = theo_cents(g["theo_win"])
        g["label"] = f"{g['pit']} · {g['game_name']}"  # the game's name: the charts are read by people
    return out


def top_flagged(data: ReportData, n: int = TOP_TABLES) -> list[dict[str, Any]]:
    """The tables that most need a look: flagged holds by |z|, then the most shuffle findings."""
    scored = []
    for t in data.tables:
        h = t["hold"] or {}
        findings = sum((t["shuffle"] or {}).get("by_rule", {}).values())
        z = h.get("z")
        if not h.get("flagged") and not findings:
            continue
        scored.append({"table": t["table"], "pit": t["pit"], "game": t["game"], "game_name": t.get("game_name"), "z": z,
                       "flagged": bool(h.get("flagged")), "findings": findings,
                       "label": f"table {t['table']} · {t['pit']} · {t.get('game_name', t['game'])}"})
    scored.sort(key=lambda x: (not x["flagged"], -abs(x["z"] or 0.0), -x["findings"], x["table"]))
    return scored[:n]


SHUFFLE_RULES = (("shuffle.late", "#c33"), ("shuffle.early", "#e93"), ("shuffle.not-notified", "#cc4"),
                 ("card.impossible", "#a2a"), ("shuffle.preferential-pattern", "#600"))


def _height(n: int) -> float:
    return min(max(2.2, 0.28 * n + 1.0), 11.0)


def charts(data: ReportData) -> dict[str, bytes]:
    """The charts: hold against theory by pit and game, top flagged tables, shuffle compliance and
    discrepancies by pit and game, and the spread of dealers' pace.  Each stays readable at hundreds of tables."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out: dict[str, bytes] = {}
    gs = groups(data)
    ys = list(range(len(gs)))[::-1]
    labels = [g["label"] for g in gs]

    fig, ax = plt.subplots(figsize=(8, _height(len(gs))))
    held = [(y, g) for y, g in zip(ys, gs, strict=True) if g["hold_pct"] is not None]
    if held:
        ax.barh([y for y, _ in held], [g["hold_pct"] for _, g in held],
                color=["#c33" if g["flagged"] else "#4a7" for _, g in held], label="actual hold %")
        ax.scatter([g["theo_hold_pct"] for _, g in held], [y for y, _ in held], marker="|", s=200, color="#222",
                   zorder=3, label="theoretical hold %")  # fmt: skip
        ax.axvline(0, color="#aaa", lw=0.8)
        ax.legend(fontsize=7, loc="lower right")
    ax.set_yticks(ys, labels, fontsize=7)
    ax.set_xlabel("hold % of handle (red: a table of the group is flagged)", fontsize=7)
    ax.set_title("Hold against theory by pit and game", fontsize=9)
    out["hold"] = _png(fig)

    top = top_flagged(data)
    fig, ax = plt.subplots(figsize=(8, _height(len(top))))
    if top:
        ty = list(range(len(top)))[::-1]
        ax.barh(ty, [t["z"] or 0.0 for t in top], color=["#c33" if t["flagged"] else "#e93" for t in top])
        for y, t in zip(ty, top, strict=True):
            ax.text(0, y, f"  {t['findings']} finding{'s' if t['findings'] != 1 else ''}" if t["findings"] else "",
                    va="center", fontsize=6)
        ax.set_yticks(ty, [t["label"] for t in top], fontsize=7)
        ax.axvline(0, color="#aaa", lw=0.8)
    else:
        ax.text(0.5, 0.5, "no table flagged", ha="center", va="center", transform=ax.transAxes)
        ax.set_yticks([])
    ax.set_xlabel("z of the day's win against theory (red: hold flagged; orange: shuffle findings only)", fontsize=7)
    ax.set_title(f"Top flagged tables (at most {TOP_TABLES})", fontsize=9)
    out["flagged"] = _png(fig)

    fig, ax = plt.subplots(figsize=(8, _height(len(gs))))
    left = [float(g["clean_shoes"]) for g in gs]
    ax.barh(ys, left, color="#7b9", label="clean shoes")
    for rule, colour in SHUFFLE_RULES:
        vals = [float(g["by_rule"].get(rule, 0)) for g in gs]
        if any(vals):
            ax.barh(ys, vals, left=left, color=colour, label=rule_words(rule))
            left = [a + b for a, b in zip(left, vals, strict=True)]
    ax.set_yticks(ys, labels, fontsize=7)
    ax.legend(fontsize=6, loc="lower right")
    ax.set_title("Shuffle compliance by pit and game: clean shoes and findings", fontsize=9)
    out["shuffle"] = _png(fig)

    fig, ax = plt.subplots(figsize=(8, _height(len(gs))))
    ax.barh([y + 0.2 for y in ys], [g["discrepancies"] for g in gs], height=0.4, color="#c33", label="discrepancies")
    ax.barh([y - 0.2 for y in ys], [g["approvals"] for g in gs], height=0.4, color="#36a", label="approvals")
    ax.set_yticks(ys, labels, fontsize=7)
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("Discrepancies and approvals by pit and game", fontsize=9)
    out["discrepancies"] = _png(fig)

    fig, ax = plt.subplots(figsize=(8, 2.8))
    pace = [float(p["rounds_per_hour"]) for p in data.pace if p.get("rounds_per_hour") is not None]
    if pace:
        ax.hist(pace, bins=min(30, max(5, len(pace) // 5)), color="#68a")
        ax.axvline(sum(pace) / len(pace), color="#222", lw=1, label=f"mean {sum(pace) / len(pace):.1f}")
        ax.legend(fontsize=7)
    ax.set_xlabel("rounds per hour", fontsize=7)
    ax.set_ylabel("dealer shifts at a table", fontsize=7)
    ax.set_title(f"Pace: spread over {len(pace)} dealer shifts (each one in the CSV and the HTML)", fontsize=9)
    out["pace"] = _png(fig)
    return out


# ---------------------------------------------------------------------------------------------
# Formats


def render_html(data: ReportData) -> str:
    """The report as one self-contained HTML page (charts inline as PNG data)."""
    images = {k: base64.b64encode(v).decode() for k, v in data.charts.items()}
    return render_to_string("dashboard/report.html", {"r": data, "images": images, "groups": groups(data),
                                                      "top": top_flagged(data)})


CSV_FIELDS = ("section", "table", "pit", "game", "period", "rounds", "handle", "win", "hold_pct", "theo_win",
              "theo_hold_pct", "z", "band_low", "band_high", "drop", "win_to_drop_pct", "flagged", "rule",
              "severity", "round", "message")
# Rounding of the CSV: money to the cent, percentages and z to two places (the stored figures keep
# their precision; a spreadsheet wants what a person reads).
CSV_MONEY = ("handle", "win", "theo_win", "band_low", "band_high", "drop")
CSV_TWO_PLACES = ("hold_pct", "theo_hold_pct", "win_to_drop_pct", "z")
CENT = Decimal("0.01")


def _csv_value(name: str, value: Any) -> Any:
    if value in (None, ""):
        return ""
    if isinstance(value, bool):  # a spreadsheet reader's words, not Python's
        return "yes" if value else "no"
    if name in CSV_MONEY or name in CSV_TWO_PLACES:
        return str(_d(value).quantize(CENT))
    return value


def _csv_row(row: dict[str, Any]) -> dict[str, Any]:
    return {k: _csv_value(k, v) for k, v in row.items() if k in CSV_FIELDS}


def render_csv(data: ReportData) -> str:
    """One row per table and period of the hold audit, then one per finding, discrepancy and approval."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_FIELDS, extrasaction="ignore")
    w.writeheader()
    for t in data.tables:
        for period, h in (("day", t["hold"]), ("month-to-date", t["mtd"])):
            if h:
                w.writerow(_csv_row({**h, "section": "hold", "pit": t["pit"], "table": t["table"], "game": t["game"],
                                     "period": period, "message": h.get("reason", "")}))  # fmt: skip
    for f in data.findings:
        w.writerow(_csv_row({"section": "finding", **f}))
    for d in data.discrepancies:
        w.writerow(_csv_row({"section": "discrepancy", "table": d["table"], "pit": d.get("pit", ""), "round": d["round"],
                             "message": f"seat {d.get('seat')} {d.get('bet')}: paid {d.get('paid')}, due {d.get('due')}"}))  # fmt: skip
    for a in data.approvals:
        w.writerow(_csv_row({"section": "approval", "table": a["table"], "pit": a.get("pit", ""), "round": a["round"],
                             "rule": a["kind"],
                             "message": f"{a['by']}: {a['reason']}"}))  # fmt: skip
    from tables.services.accounting import report_csv_rows

    w.writerows(_csv_row(r) for r in report_csv_rows(data.accounting))
    return buf.getvalue()


def _pct(x: Any) -> str:
    return "—" if x is None else f"{float(x):.2f}%"


def _money(x: Any) -> str:
    return "—" if x in (None, "") else f"{_d(x).quantize(CENT):,}"


PDF_ROWS = 300


def _numbered_canvas(casino: str, day: date) -> Any:
    """A reportlab canvas that prints the header and "page N of M" on every page (M known at the end)."""
    from reportlab.lib.units import cm
    from reportlab.pdfgen import canvas

    class NumberedCanvas(canvas.Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []

        def showPage(self) -> None:  # noqa: N802  (reportlab's name)
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            printed = timezone.localtime()
            for state in self._pages:
                self.__dict__.update(state)
                width, height = self._pagesize
                self.setFont("Helvetica", 7.5)
                self.setFillGray(0.35)
                self.drawString(1.5 * cm, height - 1.0 * cm, f"{casino} — nightly audit report")
                self.drawRightString(width - 1.5 * cm, height - 1.0 * cm, f"gaming day {day_text(day)}")
                self.drawString(1.5 * cm, 0.8 * cm, f"printed {day_text(printed.date())} {printed:%H:%M}")
                self.drawRightString(width - 1.5 * cm, 0.8 * cm, f"page {self._pageNumber} of {total}")
                super().showPage()
            super().save()

    return NumberedCanvas


def render_pdf(data: ReportData) -> bytes:  # noqa: C901  (one story, section after section)
    """The report as print-grade PDF (reportlab): header with the casino and gaming day, page N of M,
    summary, charts by pit and game, top flagged tables, hold, findings with wrapped text in set
    column widths, discrepancies, approvals, and a sign-off block."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
    from reportlab.lib.units import cm
    from reportlab.platypus import (
        Image,
        KeepTogether,
        Paragraph,
        SimpleDocTemplate,
        Spacer,
        Table,
        TableStyle,
    )

    styles = getSampleStyleSheet()
    styles["Heading3"].keepWithNext = 1  # a section's title goes to the next page with its table, never alone at the foot
    cell = ParagraphStyle("cell", parent=styles["BodyText"], fontSize=7, leading=8.5)
    head = ParagraphStyle("head", parent=cell, fontName="Helvetica-Bold")
    buf = io.BytesIO()
    casino = data.casino or "Casino"
    doc = SimpleDocTemplate(buf, pagesize=A4, leftMargin=1.5 * cm, rightMargin=1.5 * cm, topMargin=1.6 * cm,
                            bottomMargin=1.5 * cm, title=f"{casino} — audit report {day_text(data.day)}",
                            author="tables audit", subject=f"Nightly audit, gaming day {day_text(data.day)}")  # fmt: skip
    width = A4[0] - 3 * cm

    def p(text: Any, style: Any = cell) -> Any:
        from xml.sax.saxutils import escape

        return Paragraph(escape("" if text is None else str(text)), style)

    def table(header: list[str], rows: list[list[Any]], widths: list[float], numeric: tuple[int, ...] = ()) -> Any:
        # Fractions of the page width; every cell a Paragraph, so long text wraps inside its column.
        body = [[p(h, head) for h in header]] + [[c if hasattr(c, "wrap") else p(c) for c in r] for r in rows]
        tb = Table(body, colWidths=[w * width for w in widths], repeatRows=1)
        style = [("GRID", (0, 0), (-1, -1), 0.25, colors.grey), ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
                 ("VALIGN", (0, 0), (-1, -1), "TOP"), ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                 ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5), ("LEFTPADDING", (0, 0), (-1, -1), 3),
                 ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                 ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.Color(0.96, 0.96, 0.96)])]
        tb.setStyle(TableStyle(style))
        return tb

    t = data.totals
    story: list[Any] = [
        Paragraph(f"{casino}", styles["Title"]),
        Paragraph(f"Nightly audit report — gaming day {data.day:%A} {data.day.day} {data.day:%B %Y}", styles["Heading2"]),
        table(["rounds", "handle", "win", "hold", "theoretical win", "theoretical hold", "hold anomalies", "findings",
               "discrepancies", "approvals"],
              [[t["rounds"], _money(t["handle"]), _money(t["win"]), _pct(t["hold_pct"]), _money(t["theo_win"]),
                _pct(t["theo_hold_pct"]), t["flagged_holds"], len(data.findings), t["discrepancies"], t["approvals"]]],
              [0.07, 0.12, 0.11, 0.07, 0.12, 0.1, 0.1, 0.08, 0.12, 0.1]),
    ]
    for name, title in (("hold", "Hold against theory by pit and game"), ("flagged", "Top flagged tables"),
                        ("shuffle", "Shuffle compliance"), ("discrepancies", "Discrepancies and approvals"),
                        ("pace", "Pace")):  # fmt: skip
        if name in data.charts:
            img = Image(io.BytesIO(data.charts[name]))
            scale = min(width / img.imageWidth, 11 * cm / img.imageHeight)
            img.drawWidth, img.drawHeight = img.imageWidth * scale, img.imageHeight * scale
            story.append(KeepTogether([Spacer(1, 8), Paragraph(title, styles["Heading3"]), img]))

    gs = groups(data)
    if gs:
        story += [Spacer(1, 8), Paragraph("Hold by pit and game", styles["Heading3"]), table(
            ["pit", "game", "tables", "rounds", "handle", "win", "hold", "theory", "flagged"],
            [[g["pit"], g["game_name"], g["tables"], g["rounds"], _money(g["handle"]), _money(g["win"]), _pct(g["hold_pct"]),
              _pct(g["theo_hold_pct"]), g["flagged"]] for g in gs],
            [0.16, 0.19, 0.07, 0.08, 0.13, 0.12, 0.09, 0.09, 0.07])]
    rows = []
    for tb in data.tables:
        h = tb["hold"]
        if h:
            z = "—" if h["z"] is None else f"{h['z']:+.2f}"
            rows.append([tb["pit"], tb["table"], tb.get("game_name", tb["game"]), h["rounds"], _money(h["handle"]), _money(h["win"]),
                         _pct(h["hold_pct"]), _pct(h["theo_hold_pct"]), z,
                         f"{_money(h['band_low'])} … {_money(h['band_high'])}", _money(h["drop"]),
                         "FLAG" if h["flagged"] else "ok"])  # fmt: skip
    if rows:
        story += [Spacer(1, 8), Paragraph("Hold by table (gaming day)", styles["Heading3"]), table(
            ["pit", "table", "game", "rounds", "handle", "win", "hold", "theory", "z", "band", "drop", "verdict"],
            # drop as wide as win: "2,200.00" and "1,234,567.00" on one line, not broken after a digit
            rows[:PDF_ROWS], [0.08, 0.05, 0.12, 0.06, 0.11, 0.1, 0.07, 0.07, 0.05, 0.13, 0.1, 0.06])]
        if len(rows) > PDF_ROWS:
            story.append(Paragraph(f"… and {len(rows) - PDF_ROWS} more tables (see the CSV).", styles["Italic"]))

    def section(title: str, items: list[dict[str, Any]], header: list[str], widths: list[float], row: Any) -> None:
        # The PDF is for reading: past PDF_ROWS the rest is counted, and the CSV has every row.
        if not items:
            story.extend([Spacer(1, 8), Paragraph(title, styles["Heading3"]), Paragraph("None.", styles["BodyText"])])
            return
        story.extend([Spacer(1, 8), Paragraph(f"{title} ({len(items)})", styles["Heading3"]),
                      table(header, [row(x) for x in items[:PDF_ROWS]], widths)])
        if len(items) > PDF_ROWS:
            story.append(Paragraph(f"… and {len(items) - PDF_ROWS} more (see the CSV).", styles["Italic"]))

    section("Findings", data.findings, ["pit", "table", "round", "rule", "severity", "finding"],
            [0.11, 0.06, 0.07, 0.2, 0.09, 0.47],
            lambda f: [f.get("pit", ""), f["table"], f["round"] or "—", rule_words(f["rule"]), f["severity"],
                       f["message"]])
    section("Discrepancies", data.discrepancies, ["table", "round", "seat", "bet", "paid", "due", "state"],
            [0.1, 0.1, 0.08, 0.22, 0.15, 0.15, 0.2],
            lambda d: [d["table"], d["round"], d.get("seat"), bet_words(d.get("bet")), _money(d.get("paid")), _money(d.get("due")),
                       d["state"]])
    section("Approvals", data.approvals, ["table", "round", "kind", "by", "at", "reason"],
            [0.08, 0.08, 0.14, 0.14, 0.08, 0.48],
            lambda a: [a["table"], a["round"], a.get("kind_label", a["kind"]), a["by"], a["at"], a["reason"]])

    from tables.services.accounting import report_pdf_story

    story += report_pdf_story(data.accounting, styles, lambda rows, widths: table(rows[0], rows[1:], widths))

    sign = [["", "name", "signature", "date"],
            ["Prepared by (auditor)", "", "", ""],
            ["Reviewed by (compliance)", "", "", ""],
            ["Accepted by (casino manager)", "", "", ""]]
    sign_table = Table(sign, colWidths=[0.3 * width, 0.25 * width, 0.3 * width, 0.15 * width],
                       rowHeights=[0.6 * cm] + [1.2 * cm] * 3)
    sign_table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black), ("FONTSIZE", (0, 0), (-1, -1), 8),
                                    ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
                                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
    story.append(KeepTogether([Spacer(1, 14), Paragraph("Sign-off", styles["Heading3"]), Paragraph(
        f"We have reviewed this report of gaming day {day_text(data.day)} at {casino}, its findings and the "
        "actions taken on them.", styles["BodyText"]), Spacer(1, 6), sign_table]))
    doc.build(story, canvasmaker=_numbered_canvas(casino, data.day))
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# Building and storing


def reports_root() -> Path:
    """Where report files live."""
    return Path(settings.REPORTS_ROOT)


def build_report(day: date, *, email: bool = True) -> AuditReport:
    """Gather, render and store the report of ``day``; e-mail it if configured.

    A report of the day already there is replaced only when the same: one that differs (the day's rounds
    or findings changed since) is kept as an earlier version, its files renamed (``earlier``), and the new
    one is e-mailed again as a revision."""
    before = AuditReport.objects.filter(gaming_day=day, status=ReportStatus.DONE).exclude(csv_path="").first()
    report, _ = AuditReport.objects.update_or_create(
        gaming_day=day, defaults={"status": ReportStatus.RUNNING, "error": "", "finished_at": None})
    revised = False
    try:
        data = gather(day)
        data.charts = charts(data)
        rel = Path(f"{day:%Y}/{day:%m}")
        folder = reports_root() / rel
        folder.mkdir(parents=True, exist_ok=True)
        stem = f"audit-{day.isoformat()}"
        html, text, pdf = render_html(data), render_csv(data), render_pdf(data)
        if before is not None and _differs(before, text):
            _keep_earlier(before)
            revised = True
        (folder / f"{stem}.html").write_text(html, encoding="utf-8")
        (folder / f"{stem}.csv").write_text(text, encoding="utf-8")
        (folder / f"{stem}.pdf").write_bytes(pdf)
    except Exception as exc:
        AuditReport.objects.filter(pk=report.pk).update(status=ReportStatus.FAILED, error=repr(exc)[:2000])
        raise
    summary = {k: str(v) if isinstance(v, Decimal) else v for k, v in data.totals.items()}
    summary["findings"] = len(data.findings)
    with transaction.atomic():
        AuditReport.objects.filter(pk=report.pk).update(
            status=ReportStatus.DONE, finished_at=timezone.now(), summary=summary,
            html_path=str(rel / f"{stem}.html"), pdf_path=str(rel / f"{stem}.pdf"), csv_path=str(rel / f"{stem}.csv"),
            **({"emailed_to": ""} if revised else {}),  # a revision goes to the recipients again
        )  # fmt: skip
    report.refresh_from_db()
    recipients = conf.audit_report_recipients()
    if email and recipients and not report.emailed_to:
        send_report(report, recipients)
    return report


def _differs(before: AuditReport, text: str) -> bool:
    """Whether the new report's data (its CSV: every figure and finding, no clock) differs from the stored one."""
    try:
        return (reports_root() / before.csv_path).read_bytes() != text.encode("utf-8")
    except OSError:
        return False  # its files are gone: nothing left to keep


def _keep_earlier(before: AuditReport) -> None:
    """Rename the stored report's files after the time it was made and list them in ``earlier``."""
    root = reports_root()
    stamp = f"{timezone.localtime(before.finished_at or timezone.now()):%Y%m%dT%H%M%S}"
    entry: dict[str, Any] = {"finished_at": before.finished_at.isoformat() if before.finished_at else None,
                             "summary": before.summary, "emailed_to": before.emailed_to}  # fmt: skip
    for kind in ("html", "pdf", "csv"):
        rel = Path(getattr(before, f"{kind}_path"))
        kept = rel.with_name(f"{rel.stem}.{stamp}{rel.suffix}")
        if (root / rel).is_file():
            (root / rel).replace(root / kept)
        entry[f"{kind}_path"] = str(kept)
    AuditReport.objects.filter(pk=before.pk).update(earlier=[*before.earlier, entry])


def send_report(report: AuditReport, recipients: list[str]) -> None:
    """E-mail the PDF and CSV through Django's mail settings; remember who got it (sent once)."""
    root = reports_root()
    revision = f" (revision {len(report.earlier) + 1})" if report.earlier else ""
    msg = EmailMessage(
        subject=f"Audit report {report.gaming_day.isoformat()}{revision}",
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


# ---------------------------------------------------------------------------------------------
# An audit run asked for from the reports page


RUN_STALE_AFTER = timedelta(minutes=15)  # a run this old without its report lost its worker: allow another


def request_audit_run(day: date, *, actor: Any) -> AuditReport:
    """An auditor asks for the audit of ``day``: the report row marked queued, an audit event; the caller enqueues.

    Refused while a run of that day is under way (started less than ``RUN_STALE_AFTER`` ago), and for a
    gaming day not started yet.
    """
    from tables import services
    from tables.access import AUDITOR_ROLE, roles_of
    from tables.services.audits import gaming_day_of

    if not (actor.is_superuser or AUDITOR_ROLE in roles_of(actor)):
        raise PermissionDenied("running the audit is for auditors")
    if day > gaming_day_of(timezone.now()):
        raise InvalidInput(f"the gaming day {day_text(day)} has not started yet", field="day")
    with transaction.atomic():
        report = AuditReport.objects.select_for_update().filter(gaming_day=day).first()
        started = report.run_started_at if report is not None else None
        if (report is not None and report.status == ReportStatus.RUNNING and started is not None
                and timezone.now() - started < RUN_STALE_AFTER):
            raise Conflict(f"the audit of {day_text(day)} is already running (started "
                                    f"{timezone.localtime(started):%H:%M})")
        report, _ = AuditReport.objects.update_or_create(gaming_day=day, defaults={
            "status": ReportStatus.RUNNING, "error": "", "run": "", "run_started_at": timezone.now(),
            "expected_tables": [], "joined_at": None})  # fmt: skip
        services.audit(actor=actor, action="audit.run_requested", payload={"day": day.isoformat()})
    return report
