"""Reads of the live floor for the pit-boss dashboard: the user's scope, the tiles, the alerts, rounds search.

Every read here costs a fixed number of queries whatever the number of tables or rounds (grouped
queries, no per-table loop that queries); the dashboard's tests pin the counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from tables.access import is_pit_boss
from tables.engine.money import fmt
from tables.engine.settlement import bet_words
from tables.models import (
    AlertDecision,
    Approval,
    ApprovalKind,
    AuditEvent,
    AuditFinding,
    AuditKind,
    AuditResult,
    FloorScope,
    Round,
    RoundState,
    Shoe,
    Table,
    TableSession,
    TableStatus,
)

ALERT_DAYS = 2  # findings older than this are in the reports, not on the live board
TILE_STATES = ("closed", "open", "in_round", "waiting_payment", "alert")
TILE_LABELS = {"closed": "closed", "open": "open, no round", "in_round": "in a round",
               "waiting_payment": "waiting for payment", "alert": "alert"}  # fmt: skip
ALERT_LABELS = {"payout-mismatch": "Payout mismatch", "approval-waiting": "Approval waiting",
                "shuffle": "Shuffle violation", "card": "Impossible card", "hold": "Hold anomaly",
                "accounting": "Table accounting"}  # fmt: skip
# Each audit finding's rule in words (the rule id stays in exports and the trail for reference).
RULE_WORDS = {
    "shuffle.early": "Shuffled before the shuffle point", "shuffle.late": "Shuffled after the shuffle point",
    "shuffle.not-notified": "Reshuffle without notifying the players",
    "shuffle.preferential-pattern": "Shuffles that follow the count (preferential shuffling)",
    "card.impossible": "A card the shoe cannot hold", "card.joker-without-jokers": "A Joker at a game without Jokers",
    "hold.anomaly": "Hold outside the theory band", "accounting.win-mismatch": "Counted win differs from tracked win",
    "accounting.hold-anomaly": "Win/drop hold outside the theory band",
}  # fmt: skip


def rule_words(rule: str) -> str:
    """A finding's rule in words (an unknown rule as it is, so nothing is hidden)."""
    return RULE_WORDS.get(rule, rule)


def gaming_day_start(now: datetime) -> tuple[date, datetime]:
    """The gaming day of ``now`` and when it began (the audits' definition, read without importing services)."""
    from tables import conf

    local = timezone.localtime(now)
    start = local.replace(hour=conf.gaming_day_start_hour(), minute=0, second=0, microsecond=0)
    if local < start:
        start -= timedelta(days=1)
    return start.date(), start


# ---------------------------------------------------------------------------------------------
# Scope


@dataclass(frozen=True)
class Scope:
    """What part of the floor a user watches: ``casino`` None for every casino, ``pit`` None for every pit."""

    casino: int | None = None
    pit: int | None = None

    def tables(self) -> QuerySet[Table]:
        qs = Table.objects.all()
        if self.casino is not None:
            qs = qs.filter(pit__casino_id=self.casino)
        if self.pit is not None:
            qs = qs.filter(pit_id=self.pit)
        return qs

    def allows_casino(self, casino_id: int) -> bool:
        return self.casino is None or self.casino == casino_id


def scope_of(user: Any) -> Scope:
    """The user's scope: their ``FloorScope`` if they have one, else the whole floor."""
    row = FloorScope.objects.filter(user_id=user.pk).values("casino_id", "pit_id").first() if user.pk else None
    return Scope(row["casino_id"], row["pit_id"]) if row else Scope()


def casinos_of(user: Any) -> list[int]:
    """The casinos whose floor channel the user may follow."""
    from tables.models import Casino

    scope = scope_of(user)
    if scope.casino is not None:
        return [scope.casino]
    return list(Casino.objects.order_by("pk").values_list("pk", flat=True))


def can_follow_table(user: Any, table_id: int) -> bool:
    """A table's push channel: its dealer now, and pit bosses whose scope holds the table."""
    if not getattr(user, "is_authenticated", False):
        return False
    if is_pit_boss(user):
        return scope_of(user).tables().filter(pk=table_id).exists()
    return TableSession.objects.filter(table_id=table_id, dealer=user, closed_at__isnull=True).exists()


# ---------------------------------------------------------------------------------------------
# The floor's tiles


def _open_alert_tables(table_ids: list[int], now: datetime) -> set[int]:
    """Tables with an open alert: a mismatch, a payout waiting for approval, an unacknowledged finding."""
    approved = Approval.objects.filter(round=OuterRef("pk"), kind=ApprovalKind.LARGE_PAYOUT)
    rounds = set(Round.objects.filter(table_id__in=table_ids).filter(
        Q(state=RoundState.MISMATCH) | (Q(state=RoundState.SETTLED, approval_required=True) & ~Exists(approved)))
        .values_list("table_id", flat=True).distinct())  # fmt: skip
    findings = set(AuditFinding.objects.filter(table_id__in=table_ids, acknowledged_at__isnull=True,
                                               created_at__gte=now - timedelta(days=ALERT_DAYS))
                   .exclude(severity="info").values_list("table_id", flat=True).distinct())  # fmt: skip
    return rounds | findings


def newest_event_id() -> int:
    """The newest audit event's id (0 before any): read before a floor read, it tells a client which pushed
    events the read may not show yet (by the primary key's index: one cheap query)."""
    return AuditEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def tile_state(status: str, round_state: str | None, alert: bool) -> str:
    """A tile's state: a payout mismatch first (the round waits for the pit boss), then the round in
    progress, then an open alert of the table (an audit finding), then the table.  A table with an older
    alert still shows its round as it goes (the tile carries the alert as a mark, ``alert`` in its row)."""
    if round_state == RoundState.MISMATCH:
        return "alert"
    if status != TableStatus.CLOSED and round_state in (RoundState.IN_PLAY, RoundState.PAUSED):
        return "in_round"
    if status != TableStatus.CLOSED and round_state == RoundState.SETTLED:
        return "waiting_payment"
    if alert:
        return "alert"
    if status == TableStatus.CLOSED:
        return "closed"
    return "open"


def floor_tiles(scope: Scope, *, table_ids: list[int] | None = None, now: datetime | None = None,
                ) -> list[dict[str, Any]]:
    """The tiles of the floor in scope (or only ``table_ids``): state, dealer, rounds/hour, hold vs theory."""
    now = now or timezone.now()
    day, _ = gaming_day_start(now)
    tables_qs = scope.tables().select_related("game", "pit")
    if table_ids is not None:
        tables_qs = tables_qs.filter(pk__in=table_ids)
    tables = list(tables_qs.order_by("pit__name", "number"))
    ids = [t.pk for t in tables]
    dealers = dict(TableSession.objects.filter(table_id__in=ids, closed_at__isnull=True)
                   .values_list("table_id", "dealer__username"))  # fmt: skip
    hour = dict(Round.objects.filter(table_id__in=ids, opened_at__gte=now - timedelta(hours=1), opened_at__lte=now)
                .values("table_id").annotate(n=Count("id")).order_by().values_list("table_id", "n"))  # fmt: skip
    current: dict[int, Mapping[str, Any]] = {}
    for r in (Round.objects.filter(table_id__in=ids, state__in=(RoundState.IN_PLAY, RoundState.PAUSED,
                                                                 RoundState.SETTLED, RoundState.MISMATCH))
              .order_by("table_id", "number").values("table_id", "id", "number", "state")):  # fmt: skip
        current[r["table_id"]] = r  # the latest open round of each table wins
    shoes: dict[int, Mapping[str, Any]] = {}
    for s in (Shoe.objects.filter(table_id__in=ids, ended_at__isnull=True).order_by("table_id", "number")
              .values("table_id", "number", "cards_dealt", "spec")):  # fmt: skip
        shoes[s["table_id"]] = s
    holds = {r.table_id: r for r in AuditResult.objects.filter(kind=AuditKind.HOLD, period=f"day:{day.isoformat()}",
                                                              table_id__in=ids)
             .only("table_id", "summary", "computed_at")}  # fmt: skip
    alerting = _open_alert_tables(ids, now)
    tiles = []
    for t in tables:
        cur = current.get(t.pk)
        shoe = shoes.get(t.pk)
        penetration = None
        if shoe:
            spec = shoe["spec"]
            size = spec.get("size") or spec["decks"] * 52 + (spec.get("total_jokers") or
                                                             spec["decks"] * spec.get("jokers_per_deck", 0))
            penetration = round(shoe["cards_dealt"] / size, 3) if size else None
        stored = holds.get(t.pk)
        hold = None
        if stored is not None and stored.summary.get("rounds"):
            h = stored.summary
            hold = {k: h.get(k) for k in ("rounds", "handle", "win", "hold_pct", "theo_hold_pct", "theo_win",
                                          "band_low", "band_high", "z", "flagged")}  # fmt: skip
        state = tile_state(t.status, cur["state"] if cur else None, t.pk in alerting)
        tiles.append({
            "id": t.pk, "number": t.number, "pit": t.pit.name, "pit_id": t.pit_id, "game": t.game.slug,
            "game_name": t.game.name, "status": t.status, "state": state, "state_label": TILE_LABELS[state],
            "dealer": dealers.get(t.pk), "min_bet": fmt(t.min_bet), "max_bet": fmt(t.max_bet),
            "rounds_this_hour": hour.get(t.pk, 0), "round": cur["id"] if cur else None,
            "round_number": cur["number"] if cur else None, "round_state": cur["state"] if cur else None,
            "shoe": shoe["number"] if shoe else None, "penetration": penetration,
            "hold": hold, "hold_as_of": stored.computed_at.isoformat() if stored is not None else None,
        })  # fmt: skip
    return tiles


# ---------------------------------------------------------------------------------------------
# Alerts


def alert_kind_of(rule: str) -> str:
    """The alert filter's kind of a finding rule (``shuffle.late`` → ``shuffle``)."""
    return rule.split(".")[0]


def open_alerts(scope: Scope, now: datetime | None = None, limit: int = 200) -> list[dict[str, Any]]:
    """Open alerts in scope, newest first: time, table, round, dealer, kind, message."""
    now = now or timezone.now()
    tables = scope.tables()
    out: list[dict[str, Any]] = []
    approved = Approval.objects.filter(round=OuterRef("pk"), kind=ApprovalKind.LARGE_PAYOUT)
    base = Round.objects.filter(table__in=tables).select_related("table", "table__pit", "opened_by")
    waiting = (list(base.filter(state=RoundState.MISMATCH).order_by("-updated_at")[:limit])
               + list(base.filter(state=RoundState.SETTLED, approval_required=True).exclude(Exists(approved))
                      .order_by("-updated_at")[:limit]))  # fmt: skip
    decided = set(AlertDecision.objects.filter(round_id__in=[r.pk for r in waiting])
                  .values_list("round_id", "round_version"))  # fmt: skip
    for r in waiting:
        if (r.pk, r.version) in decided:
            continue  # rejected at this version: back when the dealer records a new payment
        if r.state == RoundState.MISMATCH:
            text = "; ".join(f"seat {d.get('seat')} {bet_words(d.get('bet'))}: paid {d.get('paid')}, due {d.get('due')}"
                             for d in r.discrepancies)  # fmt: skip
            kind = "payout-mismatch"
        else:
            text, kind = r.approval_reason, "approval-waiting"
        out.append({"id": f"round:{r.pk}:{r.version}", "kind": kind, "group": kind, "kind_label": ALERT_LABELS[kind],
                    "severity": "critical", "title": f"{ALERT_LABELS[kind]} — table {r.table.number}, round {r.number}",
                    "message": text, "table": r.table_id, "table_number": r.table.number, "pit": r.table.pit.name,
                    "round": r.pk, "round_number": r.number, "dealer": r.opened_by.get_username(),
                    "version": r.version, "at": r.updated_at.isoformat(), "actions": ["approve", "reject"]})  # fmt: skip
    findings = (AuditFinding.objects.filter(table__in=tables, acknowledged_at__isnull=True,
                                            created_at__gte=now - timedelta(days=ALERT_DAYS))
                .exclude(severity="info").select_related("table", "table__pit", "round", "round__opened_by")
                .order_by("-created_at", "-id")[:limit])  # fmt: skip
    for f in findings:
        kind = alert_kind_of(f.rule)
        label = RULE_WORDS.get(f.rule) or ALERT_LABELS.get(kind, f.rule)
        rnd = f.round
        out.append({"id": f"finding:{f.pk}", "kind": f.rule, "group": kind, "kind_label": label, "rule": f.rule,
                    "severity": f.severity, "title": f"{label} — table {f.table.number}", "message": f.message,
                    "table": f.table_id, "table_number": f.table.number, "pit": f.table.pit.name,
                    "round": f.round_id, "round_number": rnd.number if rnd else None,
                    "dealer": rnd.opened_by.get_username() if rnd else None,
                    "at": (f.found_at or f.created_at).isoformat(), "found_by_audit_at": f.created_at.isoformat(),
                    "actions": ["acknowledge"]})  # fmt: skip
    out.sort(key=lambda a: a["at"], reverse=True)
    return out


def alert_history(scope: Scope, limit: int = 200) -> list[dict[str, Any]]:
    """Decisions taken on alerts, newest first: approvals, rejections, acknowledgements, with who, when, why."""
    tables = scope.tables()
    rows: list[dict[str, Any]] = []
    for d in (AlertDecision.objects.filter(Q(round__table__in=tables) | Q(finding__table__in=tables))
              .select_related("by", "round", "round__table", "finding", "finding__table")
              .order_by("-at")[:limit]):  # fmt: skip
        rnd, finding = d.round, d.finding
        table = rnd.table if rnd is not None else finding.table if finding is not None else None
        what = (f"round {rnd.number}" if rnd is not None else
                f"{rule_words(finding.rule)}: {finding.message}" if finding is not None else "")  # fmt: skip
        rows.append({"at": d.at, "decision": d.decision, "by": d.by.get_username(), "reason": d.reason,
                     "table": table.number if table else None, "round": d.round_id, "what": what})  # fmt: skip
    for a in (Approval.objects.filter(round__table__in=tables).select_related("approved_by", "round", "round__table")
              .order_by("-approved_at")[:limit]):  # fmt: skip
        rows.append({"at": a.approved_at, "decision": f"approve ({a.get_kind_display()})",
                     "by": a.approved_by.get_username(), "reason": a.reason, "table": a.round.table.number,
                     "round": a.round_id, "what": f"round {a.round.number}"})  # fmt: skip
    rows.sort(key=lambda r: r["at"], reverse=True)
    return rows[:limit]


# ---------------------------------------------------------------------------------------------
# Hold over time


def _pct(amount: Decimal, handle: Decimal) -> float | None:
    return float(amount / handle * 100) if handle else None


def hold_history(scope: Scope, *, days: int, group: str, now: datetime | None = None) -> list[dict[str, Any]]:
    """Daily hold per table, pit or game over the last ``days`` gaming days, with the theory band.

    Reads the stored ``day:`` hold results (one query); pits and games add up their tables' handle,
    win, theoretical win and band (band half-widths add in quadrature: independent tables)."""
    now = now or timezone.now()
    today, _ = gaming_day_start(now)
    first = today - timedelta(days=days - 1)
    rows = (AuditResult.objects.filter(kind=AuditKind.HOLD, table__in=scope.tables(), gaming_day__gte=first,
                                       gaming_day__lte=today, period__startswith="day:")
            .select_related("table", "table__pit", "table__game").order_by("gaming_day"))  # fmt: skip
    series: dict[str, dict[str, Any]] = {}
    for r in rows:
        s = r.summary
        if not s.get("rounds"):
            continue
        key = {"table": f"table {r.table.number}", "pit": r.table.pit.name, "game": r.table.game.name}[group]
        ser = series.setdefault(key, {"name": key, "days": {}})
        d = ser["days"].setdefault(r.gaming_day, {"handle": Decimal(0), "win": Decimal(0), "theo": Decimal(0),
                                                  "var": Decimal(0), "rounds": 0})  # fmt: skip
        d["handle"] += Decimal(s["handle"])
        d["win"] += Decimal(s["win"])
        d["theo"] += Decimal(s["theo_win"])
        half = (Decimal(s["band_high"]) - Decimal(s["band_low"])) / 2
        d["var"] += half * half
        d["rounds"] += s["rounds"]
    out = []
    for ser in sorted(series.values(), key=lambda x: x["name"]):
        points = []
        for day_, d in sorted(ser["days"].items()):
            half = d["var"].sqrt() if d["var"] else Decimal(0)
            handle = d["handle"]
            points.append({"day": day_, "rounds": d["rounds"], "handle": fmt(handle), "win": fmt(d["win"]),
                           "hold_pct": _pct(d["win"], handle), "theo_pct": _pct(d["theo"], handle),
                           "band_low_pct": _pct(d["theo"] - half, handle),
                           "band_high_pct": _pct(d["theo"] + half, handle),
                           "outside": not (d["theo"] - half <= d["win"] <= d["theo"] + half)})  # fmt: skip
        out.append({"name": ser["name"], "points": points})
    return out
