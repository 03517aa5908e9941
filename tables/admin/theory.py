"""The back office's theory display: RTP and house edge per line and in total, with a progress poll.

``render_theory`` renders the block shown on a pay table's page (and returned as ``html`` by the
JSON poll, so the page and the poll share one renderer); ``static/admin/theory.js`` polls
``theory_json`` while the simulation runs and swaps the block in when it is done.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, JsonResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from tables.engine.settlement import bet_words
from tables.models import PayLine, PayTable, RuleSet, TheoryResult, TheoryStatus
from tables.models.config import PayLineKind, canonical_line_name
from tables.services.theory import default_rule_set, retry_theory, rule_set_house_edge, theory_for

RUNNING = ("pending", "running")


def pct(value: float | None, places: int = 4) -> str:
    """A fraction as a percentage ("-" when unknown)."""
    return "-" if value is None else f"{value * 100:.{places}f}%"


def probability_text(value: float | None) -> str:
    """A probability per round as a percentage with five significant digits, or "1 in N" when tiny."""
    if value is None:
        return "-"
    if 0 < value < 1e-4:
        return f"{value * 100:.3g}% (1 in {1 / value:,.0f})"
    return f"{value * 100:.5g}%"


def theory_url(pay_table: PayTable, rule_set: RuleSet | None) -> str:
    """The JSON poll of a pay table's theory under a rule set."""
    url = reverse("admin:tables_paytable_theory", args=[pay_table.pk])
    return f"{url}?rule_set={rule_set.pk}" if rule_set is not None else url


def render_theory(theory: dict[str, Any], pay_table: PayTable, rule_set: RuleSet | None, *,
                  preview: bool = False) -> SafeString:
    """The theory block of a pay table's page (``preview``: of the lines as edited, not saved)."""
    lines = [{**line, "probability_text": probability_text(line["probability"]),
              "contribution_text": pct(line["contribution"]),
              "over": line["contribution"] is not None and line["contribution"] > 1} for line in theory["lines"]]
    bets = [{"bet": bet, "rtp": pct(info.get("rtp")), "house_edge": pct(info.get("house_edge")),
             "ci95": pct(info["ci95"], 3) if info.get("ci95") is not None else "",
             "method": info.get("method", ""), "detail": info.get("detail", ""),
             "over": info.get("rtp") is not None and info["rtp"] > 1}
            for bet, info in theory["bets"].items()]
    sim = theory.get("simulation") or {}
    context = {
        "t": theory, "lines": lines, "bets": bets, "sim": sim,
        "running": theory["status"] in RUNNING,
        "progress_pct": f"{(sim.get('progress') or 0.0) * 100:.0f}",
        "rtp": pct(theory["rtp"]), "house_edge": pct(theory["house_edge"]),
        "over": [bet_words(b["bet"]) for b in bets if b["over"]],
        "ci95": pct(theory["ci95"], 3) if theory.get("ci95") is not None else "",
        "rules_label": str(rule_set) if rule_set is not None else "the game's published rules",
        "url": theory_url(pay_table, rule_set), "preview": preview,
        "preview_url": reverse("admin:tables_paytable_theory_preview", args=[pay_table.pk]),
    }
    return mark_safe(render_to_string("admin/tables/theory_block.html", context))  # noqa: S308  (a template)


def pay_table_theory_html(pay_table: PayTable | None) -> SafeString | str:
    """The read-only "theoretical return" field of a pay table's page (queues the simulation if missing)."""
    if pay_table is None or pay_table.pk is None:
        return "Save the pay table to compute its theoretical return."
    rule_set = default_rule_set(pay_table)
    return render_theory(theory_for(pay_table, rule_set), pay_table, rule_set)


def theory_json(request: HttpRequest, pay_table: PayTable, *, can_retry: bool) -> JsonResponse:
    """GET: the theory (with ``html``) for the poll; POST: queue a failed simulation again."""
    rule_set = None
    if request.GET.get("rule_set"):
        rule_set = RuleSet.objects.select_related("game").filter(pk=request.GET["rule_set"],
                                                                 game_id=pay_table.game_id).first()
        if rule_set is None:
            return JsonResponse({"error": "rule_set: not a rule set of this pay table's game"}, status=400)
    else:
        rule_set = default_rule_set(pay_table)
    if request.method == "POST":
        if not can_retry:
            raise PermissionDenied
        failed = TheoryResult.objects.filter(pay_table=pay_table, status=TheoryStatus.FAILED)
        for result in failed:
            retry_theory(result)
    theory = theory_for(pay_table, rule_set)
    return JsonResponse({**theory, "html": str(render_theory(theory, pay_table, rule_set))})


PREVIEW_MAX_LINES = 200
TABLE_MINIMUM_MAX = 1_000_000


def posted_lines(post: Any) -> tuple[dict[str, Any], str]:
    """The pay lines as the page's form holds them (the inline ``lines-N-...`` fields, rows marked for
    deletion and empty rows left out), in the engine's JSON; or a sentence naming the first bad line."""
    try:
        total = min(int(post.get("lines-TOTAL_FORMS", "0")), PREVIEW_MAX_LINES)
    except ValueError:
        return {"lines": []}, "the form's line count is not a number"
    lines: list[dict[str, Any]] = []
    for i in range(max(total, 0)):
        field = f"lines-{i}-"
        name = str(post.get(field + "name") or "").strip()
        if not name or post.get(field + "DELETE"):
            continue
        if post.get(field + "kind") == PayLineKind.TABLE_MINIMUM:
            raw = str(post.get(field + "table_minimum") or "").strip()
            if not raw.isdigit() or not 0 < int(raw) <= TABLE_MINIMUM_MAX:
                return {"lines": []}, f"{name}: the multiple of the table minimum must be a whole number from 1 to {TABLE_MINIMUM_MAX:,}"
            lines.append({"name": canonical_line_name(name), "pays": {"table_minimum": int(raw)}})
            continue
        line = PayLine()
        try:
            line.set_odds(str(post.get(field + "odds") or ""))
        except ValidationError as exc:
            return {"lines": []}, f"{name}: {' '.join(exc.message_dict['odds'])}"
        lines.append({"name": canonical_line_name(name), "pays": {"odds": line.odds_text}})
    return {"lines": lines}, ""


def preview_json(request: HttpRequest, pay_table: PayTable) -> JsonResponse:
    """POST (the change form as it stands): the theory of the lines being edited, not saved, as ``html``."""
    lines, problem = posted_lines(request.POST)
    rule_set = default_rule_set(pay_table)
    if problem:
        theory: dict[str, Any] = {"status": "invalid", "error": problem, "lines": [], "bets": {}, "rtp": None,
                                  "house_edge": None, "simulation": None}  # fmt: skip
    else:
        theory = theory_for(pay_table, rule_set, lines=lines, enqueue=False)
    return JsonResponse({**theory, "html": str(render_theory(theory, pay_table, rule_set, preview=True))})


def rule_set_edge_html(rule_set: RuleSet | None) -> SafeString | str:
    """The read-only "house edge" field of a rule set's page."""
    if rule_set is None or rule_set.pk is None or rule_set.game_id is None:
        return "Save the rule set to compute its house edge."
    edge = rule_set_house_edge(rule_set)
    context = {"e": edge, "rtp": pct(edge["rtp"]), "house_edge": pct(edge["house_edge"]),
               "ci95": pct(edge["ci95"], 3) if edge.get("ci95") is not None else "",
               "running": edge["status"] in RUNNING,
               "progress_pct": f"{(edge.get('progress') or 0.0) * 100:.0f}"}
    return mark_safe(render_to_string("admin/tables/rule_set_edge.html", context))  # noqa: S308  (a template)


@admin.register(TheoryResult)
class TheoryResultAdmin(admin.ModelAdmin):
    """The cached simulations, read-only: written by the theory task only."""

    list_display = ("pay_table", "rule_set", "strategy", "status", "progress", "house_edge_text", "ci95_text", "rounds",
                    "computed_at")
    list_filter = ("status", "game", "strategy")
    list_select_related = ("pay_table__game", "rule_set__game")
    readonly_fields = ("error",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    # As a percentage with the places of the pay table's page: one figure, written one way.
    @admin.display(description="house edge", ordering="house_edge")
    def house_edge_text(self, obj: TheoryResult) -> str:
        return pct(obj.house_edge)

    @admin.display(description="95% CI", ordering="ci95")
    def ci95_text(self, obj: TheoryResult) -> str:
        return f"±{pct(obj.ci95, 3)}" if obj.ci95 is not None else "-"
