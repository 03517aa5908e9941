"""The Django side of the audits: read the floor in aggregate (SQL), call the pure audit logic, store results.

Everything that counts rounds, sums money or groups cards is done by the database (GROUP BY), so
the nightly audit costs a handful of queries per table whatever the number of rounds; Python only
sees totals, plus the cards of the few shoes the SQL pre-checks single out for the card-by-card
shuffle audit (``tables.audit.shuffle.audit_shoe``, which stays the authority on findings).

Gaming day: from ``GAMING_DAY_START_HOUR`` (default 6:00 local time) to the same hour the next day,
in three eight-hour shifts (day, swing, graveyard).  A round belongs to the period it was opened in.
Hold: handle is the initial wagers (main, side bets, bets behind, insurance; not doubles or splits,
since the edges are per initial unit), win is the house's result by the settlement lines (what was
due; a paid-vs-due difference is reported apart as discrepancies).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field, replace
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Case, Count, Exists, F, IntegerField, Max, Min, OuterRef, Q, Sum, Value, When
from django.utils import timezone

from tables import conf
from tables.audit.hold import BetTotals, HoldSummary, hold_from_totals
from tables.audit.pace import pace_row
from tables.audit.shuffle import (
    Finding,
    RoundCards,
    ShoeSegment,
    audit_shoe,
    finnish_richness,
    hi_lo_true_count,
)
from tables.audit.theory import HOUSE_GAMES, bet_theory
from tables.days import period_words
from tables.engine.cards import parse_card
from tables.engine.shoe import ShoeSpec, ShuffleRule
from tables.models import (
    Approval,
    ApprovalKind,
    AuditEvent,
    AuditFinding,
    AuditKind,
    AuditResult,
    BetTheory,
    DropCount,
    Round,
    RoundCard,
    RoundState,
    SettlementLine,
    Severity,
    Shoe,
    ShuffleEvent,
    Table,
    Wager,
)

log = logging.getLogger(__name__)

SHIFTS: tuple[tuple[str, int, int], ...] = (("day", 0, 8), ("swing", 8, 16), ("graveyard", 16, 24))
COUNTED_STATES = (RoundState.SETTLED, RoundState.MISMATCH, RoundState.CLOSED)


# ---------------------------------------------------------------------------------------------
# Periods


def gaming_day_start_hour() -> int:
    """The hour (local) a gaming day starts (``GAMING_DAY_START_HOUR``, default 6)."""
    return conf.gaming_day_start_hour()


def day_bounds(day: date) -> tuple[datetime, datetime]:
    """[start, end) of a gaming day, aware, in the current time zone."""
    start = timezone.make_aware(datetime.combine(day, time(gaming_day_start_hour())))
    return start, start + timedelta(days=1)


def gaming_day_of(moment: datetime) -> date:
    """The gaming day a moment belongs to."""
    local = timezone.localtime(moment)
    return (local - timedelta(hours=gaming_day_start_hour())).date()


def last_complete_gaming_day(now: datetime | None = None) -> date:
    """The latest gaming day that has ended (what the nightly audit audits by default)."""
    return gaming_day_of(now or timezone.now()) - timedelta(days=1)


def periods(day: date) -> list[tuple[str, datetime, datetime]]:
    """The periods audited for a gaming day: the day, its shifts, and the month to date."""
    start, end = day_bounds(day)
    out = [(f"day:{day.isoformat()}", start, end)]
    for name, a, b in SHIFTS:
        out.append((f"shift:{day.isoformat()}/{name}", start + timedelta(hours=a), start + timedelta(hours=b)))
    month_start, _ = day_bounds(day.replace(day=1))
    out.append((f"mtd:{day.isoformat()}", month_start, end))
    return out


# ---------------------------------------------------------------------------------------------
# Theory


# The theory of a (rule set, pay table) pair read during one audit run (``theory_memo``): a table's
# audit asks for it once per period and bet kind, and a floor's tables share a few pairs.  Only within
# a run: a pay table's edge may become known (its simulation finishing) between two runs.
_theory_run: ContextVar[dict[tuple[int, int], dict[str, dict[str, Any]]] | None] = ContextVar(
    "audit_theory_run", default=None)


@contextmanager
def theory_memo() -> Iterator[None]:
    """Within the block, ``theory_for`` reads each (rule set, pay table) pair once (an audit run)."""
    if _theory_run.get() is not None:
        yield
        return
    token = _theory_run.set({})
    try:
        yield
    finally:
        _theory_run.reset(token)


def theory_for(rule_set_id: int, pay_table_id: int) -> dict[str, dict[str, Any]]:
    """Edge and variance per bet kind of a (rule set, pay table) pair, computed once and kept."""
    memo = _theory_run.get()
    if memo is None:
        return _theory_for(rule_set_id, pay_table_id)
    key = (rule_set_id, pay_table_id)
    if key not in memo:
        memo[key] = _theory_for(rule_set_id, pay_table_id)
    return memo[key]


def _theory_for(rule_set_id: int, pay_table_id: int) -> dict[str, dict[str, Any]]:
    found = BetTheory.objects.filter(rule_set_id=rule_set_id, pay_table_id=pay_table_id).first()
    if found is not None:
        return _published_edge(found.bets, rule_set_id, pay_table_id)
    from tables.models import PayTable, RuleSet

    rs = RuleSet.objects.select_related("game").get(pk=rule_set_id)
    pt = PayTable.objects.get(pk=pay_table_id)
    game = rs.game.slug
    if game not in HOUSE_GAMES:
        bets: dict[str, dict[str, Any]] = {}
    else:
        rounds = conf.audit_theory_rounds()[0]
        bj_rounds = conf.audit_theory_rounds()[1]
        bets = {k: t.as_json() for k, t in
                bet_theory(game, rs.params, pt.as_engine_json(), f27_rounds=rounds, bj_rounds=bj_rounds).items()}
    try:
        with transaction.atomic():
            BetTheory.objects.create(rule_set_id=rule_set_id, pay_table_id=pay_table_id, game=game, bets=bets)
    except IntegrityError:
        pass  # computed meanwhile by another worker: both computed the same thing
    return _published_edge(bets, rule_set_id, pay_table_id)


def _published_edge(bets: dict[str, dict[str, Any]], rule_set_id: int, pay_table_id: int) -> dict[str, dict[str, Any]]:
    """The main wager's edge is the one the pay table shows (tables.services.theory: exact, or its long simulation),
    so the back office, the dashboard and the hold audit give one house edge per pay table; the audit's
    own shorter simulation gives the variance, and the edge only until the pay table's figure is known."""
    if "main" not in bets:
        return bets
    from tables.models import PayTable, RuleSet
    from tables.services.theory import theory_for as pay_table_theory

    pay_table = PayTable.objects.select_related("game").get(pk=pay_table_id)
    shown = pay_table_theory(pay_table, RuleSet.objects.get(pk=rule_set_id), enqueue=False)
    if shown.get("house_edge") is None:
        return bets
    return {**bets, "main": {**bets["main"], "edge": float(shown["house_edge"])}}


# ---------------------------------------------------------------------------------------------
# Hold


def _counted(table_id: int, start: datetime, end: datetime) -> Any:
    return Round.objects.filter(table_id=table_id, opened_at__gte=start, opened_at__lt=end, state__in=COUNTED_STATES)


@dataclass
class HoldTotals:
    """SQL totals of a set of rounds: count, house win, and handle per bet with its theory."""

    rounds: int = 0
    win: Decimal = Decimal("0.00")
    bets: list[BetTotals] = field(default_factory=list)

    def add(self, other: HoldTotals) -> None:
        """Add another set of rounds (the sums are additive: handle, win, theory and variance)."""
        self.rounds += other.rounds
        self.win += other.win
        self.bets += other.bets


def hold_buckets(table: Table, start: datetime, bounds: list[datetime]) -> list[HoldTotals]:
    """Totals of [start, bounds[-1]) split at ``bounds`` (bucket i ends at bounds[i]): three grouped queries."""
    rounds = _counted(table.pk, start, bounds[-1])

    def bucket(prefix: str) -> Case:
        return Case(*(When(**{f"{prefix}opened_at__lt": b}, then=Value(i)) for i, b in enumerate(bounds)),
                    output_field=IntegerField())  # fmt: skip

    out = [HoldTotals() for _ in bounds]
    for r in rounds.annotate(b=bucket("")).values("b").annotate(n=Count("id")).order_by():
        out[r["b"]].rounds = r["n"]
    for r in (SettlementLine.objects.filter(round__in=rounds, superseded=False).annotate(b=bucket("round__"))
              .values("b").annotate(s=Sum("net")).order_by()):  # fmt: skip
        out[r["b"]].win = -Decimal(r["s"] or 0).quantize(Decimal("0.01"))
    rows = (Wager.objects.filter(round__in=rounds, refunded=False).annotate(b=bucket("round__"))
            .values("b", "round__rule_set_id", "round__pay_table_id", "kind")
            .annotate(h=Sum("amount"), h2=Sum(F("amount") * F("amount"))).order_by())  # fmt: skip
    for r in rows:
        theory = theory_for(r["round__rule_set_id"], r["round__pay_table_id"]) if r["round__rule_set_id"] else {}
        t = theory.get(r["kind"])
        if t is not None:  # a bet the house does not bank (pot games) has no handle for the hold
            out[r["b"]].bets.append(BetTotals(Decimal(r["h"]), Decimal(r["h2"]), float(t["edge"]),
                                              float(t["variance"])))  # fmt: skip
    return out


def hold_verdict(totals: HoldTotals, drop: Decimal | None = None) -> HoldSummary:
    """The hold audit's verdict on totals, with the configured confidence and optional flat threshold."""
    return hold_from_totals(
        rounds=totals.rounds, win=totals.win, bets=totals.bets,
        confidence=conf.audit_hold_confidence(), drop=drop,
        flat_threshold_points=conf.audit_flat_threshold_points(),
    )


def hold_json(s: HoldSummary) -> dict[str, Any]:
    """A hold summary as JSON (money as strings)."""
    out = asdict(s)
    for k, v in out.items():
        if isinstance(v, Decimal):
            out[k] = str(v)
    return out


def _drop_for(table: Table, period: str, day: date,
              drops: dict[tuple[date, str], Decimal] | None = None) -> Decimal | None:
    """The counted drop of a period (day, shift or month to date); ``drops``: the month's counts, read once."""
    if drops is None:
        drops = month_drops(table, day)
    kind, _, rest = period.partition(":")
    if kind == "day":
        return drops.get((day, ""))
    if kind == "shift":
        return drops.get((day, rest.split("/")[1]))
    days = [amount for (d, shift), amount in drops.items() if shift == "" and d <= day]
    return sum(days, Decimal("0")) if days else None


def month_drops(table: Table, day: date) -> dict[tuple[date, str], Decimal]:
    """The table's drop counts from the first of the month to ``day``, by (gaming day, shift; "" = the day)."""
    rows = DropCount.objects.filter(table=table, gaming_day__gte=day.replace(day=1), gaming_day__lte=day)
    return {(d, shift): amount for d, shift, amount in rows.values_list("gaming_day", "shift", "amount")}


# ---------------------------------------------------------------------------------------------
# Shuffle


def _spec(shoe_spec: dict[str, Any]) -> ShoeSpec:
    return ShoeSpec(decks=shoe_spec["decks"], jokers_per_deck=shoe_spec.get("jokers_per_deck", 0),
                    shuffle_rule=ShuffleRule(shoe_spec.get("shuffle_rule", "cut_card")),
                    shuffle_at=shoe_spec.get("shuffle_at", 0), total_jokers=shoe_spec.get("total_jokers"))  # fmt: skip


def suspicious_shoes(table: Table, start: datetime, end: datetime) -> tuple[list[int], int]:
    """Shoes shuffled in [start, end) that the SQL pre-checks cannot clear, and how many shoes there were.

    A shoe is cleared when it was shuffled at or after its shuffle point with the player notified
    (not early), its last round started before the point (no late round: positions only grow, so
    the last round starts latest), and no card appears more often than the fewest decks of the
    table's shoes nor any Joker appears.  The rest go through the card-by-card audit.
    """
    shoes = {s["id"]: s for s in Shoe.objects.filter(table=table, shuffled_at__gte=start, shuffled_at__lt=end)
             .values("id", "spec").order_by()}  # fmt: skip
    if not shoes:
        return [], 0
    bad: set[int] = set()
    for ev in ShuffleEvent.objects.filter(previous_shoe_id__in=shoes).values(
            "previous_shoe_id", "cards_dealt_before", "shuffle_at", "players_notified"):
        if ev["cards_dealt_before"] < ev["shuffle_at"] or not ev["players_notified"]:
            bad.add(ev["previous_shoe_id"])
    rt, rct = Round._meta.db_table, RoundCard._meta.db_table
    shoe_filter = f"r.table_id = %s AND r.shoe_id IN (SELECT id FROM {Shoe._meta.db_table} WHERE table_id = %s " \
                  "AND shuffled_at >= %s AND shuffled_at < %s)"
    # Raw SQL: the datetimes in the backend's own stored form (SQLite keeps naive UTC text).
    params = [table.pk, table.pk, connection.ops.adapt_datetimefield_value(start),
              connection.ops.adapt_datetimefield_value(end)]
    fewest = min(int(s["spec"]["decks"]) for s in shoes.values())
    with connection.cursor() as cur:
        cur.execute(
            f"SELECT fp.shoe_id, MAX(fp.first_pos) FROM (SELECT r.shoe_id AS shoe_id, MIN(c.shoe_position) AS first_pos "
            f"FROM {rct} c JOIN {rt} r ON r.id = c.round_id WHERE {shoe_filter} GROUP BY r.shoe_id, c.round_id) fp "
            "GROUP BY fp.shoe_id", params)
        for shoe_id, last_start in cur.fetchall():
            spec = shoes[shoe_id]["spec"]
            if last_start is not None and spec.get("shuffle_at", 0) > 0 and last_start - 1 >= spec["shuffle_at"]:
                bad.add(shoe_id)
        cur.execute(
            f"SELECT r.shoe_id, c.code, COUNT(*) FROM {rct} c JOIN {rt} r ON r.id = c.round_id WHERE {shoe_filter} "
            "GROUP BY r.shoe_id, c.code HAVING COUNT(*) > %s OR c.code = 'JK'", [*params, fewest])
        for shoe_id, code, count in cur.fetchall():
            spec = _spec(shoes[shoe_id]["spec"])
            if count > spec.copies(parse_card(code)):
                bad.add(shoe_id)
    return sorted(bad), len(shoes)


# The findings about a shuffle itself (not a round's cards): when it was made and why.
SHUFFLE_FINDINGS = ("shuffle.early", "shuffle.not-notified")


def shuffle_findings(table: Table, shoe_ids: Iterable[int]) -> list[tuple[Finding, int]]:
    """The pure shoe audit over the given shoes; each finding (``round_id``: the round's id) with its shoe's id."""
    ids = list(shoe_ids)
    if not ids:
        return []
    shoes = {s.pk: s for s in Shoe.objects.filter(pk__in=ids)}
    shuffled = {e["previous_shoe_id"]: e for e in ShuffleEvent.objects.filter(previous_shoe_id__in=ids).values(
        "previous_shoe_id", "players_notified", "reason")}  # fmt: skip
    notified = {pk: e["players_notified"] for pk, e in shuffled.items()}
    cards: dict[int, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    round_pk: dict[int, int] = {}
    for shoe_id, number, round_id, code in (RoundCard.objects.filter(round__shoe_id__in=ids)
                                    .order_by("round__shoe_id", "shoe_position", "round__number", "seq")
                                    .values_list("round__shoe_id", "round__number", "round_id", "code")):  # fmt: skip
        # The pure audit names rounds by their number at the table (what people read); the id is kept
        # alongside to link the finding to its round.
        cards[shoe_id][number].append(code)
        round_pk[number] = round_id
    richness = finnish_richness if table.game.slug == "finnish-27" else hi_lo_true_count
    by_spec: dict[str, list[int]] = defaultdict(list)
    for pk in sorted(ids, key=lambda p: shoes[p].number):
        by_spec[repr(sorted(shoes[pk].spec.items()))].append(pk)
    out: list[tuple[Finding, int]] = []
    for group in by_spec.values():
        spec = _spec(shoes[group[0]].spec)
        segments = [
            ShoeSegment(
                rounds=tuple(RoundCards(rid, tuple(parse_card(c) for c in codes)) for rid, codes in cards[pk].items()),
                ended_by_shuffle=pk in notified, notified=notified.get(pk, True),
            )
            for pk in group
        ]
        for f in audit_shoe(spec, segments, richness=richness,
                            early_tolerance=conf.audit_early_shuffle_tolerance()):
            if isinstance(f.round_id, int):
                f = replace(f, round_id=round_pk[f.round_id])
            shoe_id = group[f.segment] if f.segment >= 0 else group[-1]
            reason = shuffled[shoe_id]["reason"] if shoe_id in shuffled else ""
            if f.rule in SHUFFLE_FINDINGS and reason:  # the shuffle's own finding says why the dealer shuffled
                f = replace(f, message=f"{f.message}; the dealer's reason: {reason}", data={**f.data, "reason": reason})
            out.append((f, shoe_id))
    return out


# ---------------------------------------------------------------------------------------------
# Pace


def pace_for(table: Table, start: datetime, end: datetime) -> list[dict[str, Any]]:
    """Rounds per hour, mismatch and correction rates per dealer (SQL counts; one row per dealer)."""
    rounds = Round.objects.filter(table=table, opened_at__gte=start, opened_at__lt=end).exclude(
        state=RoundState.CANCELLED)
    mismatch = Q(state=RoundState.MISMATCH) | Q(had_mismatch=True)
    rows = (rounds.annotate(
        had_mismatch=Exists(Approval.objects.filter(round=OuterRef("pk"), kind=ApprovalKind.MISMATCH)),
        had_correction=Exists(AuditEvent.objects.filter(round=OuterRef("pk"), action="round.card.correct")),
    ).values("opened_by__username").annotate(
        n=Count("id"), first=Min("opened_at"), last=Max("opened_at"), last_closed=Max("closed_at"),
        mismatches=Count("id", filter=mismatch), corrections=Count("id", filter=Q(had_correction=True)),
    ).order_by("opened_by__username"))  # fmt: skip
    out = []
    for r in rows:
        ended = max(x for x in (r["last"], r["last_closed"]) if x is not None)
        row = pace_row(str(table.number), r["opened_by__username"], r["n"], r["first"], ended,
                       r["mismatches"], r["corrections"])
        out.append(asdict(row))
    return out


# ---------------------------------------------------------------------------------------------
# Storing results (idempotent)


def _lock_results(table: Table, keys: Iterable[tuple[str, str]]) -> dict[tuple[str, str], AuditResult]:
    """The table's stored results of these (kind, period) pairs, locked, with their findings (two queries
    instead of two per result); a pair not stored yet is missing and ``_store`` creates it."""
    wanted = set(keys)
    rows = (AuditResult.objects.select_for_update(of=("self",))
            .filter(table=table, kind__in={k for k, _ in wanted}, period__in={p for _, p in wanted})
            .prefetch_related("findings"))  # fmt: skip
    return {(r.kind, r.period): r for r in rows if (r.kind, r.period) in wanted}


def _store(kind: str, table: Table, period: str, day: date, start: datetime, end: datetime,
           summary: dict[str, Any], findings: list[dict[str, Any]],
           locked: dict[tuple[str, str], AuditResult] | None = None) -> AuditResult:
    """Create or replace the result of (kind, table, period) with its findings; acknowledgements survive.
    ``locked``: the table's results already locked by ``_lock_results`` (in the same transaction)."""
    with transaction.atomic(savepoint=False):
        found = locked.get((kind, period)) if locked is not None else None
        if found is not None:
            result, created = found, False
        else:
            result, created = AuditResult.objects.select_for_update().get_or_create(
                kind=kind, table=table, period=period,
                defaults={"gaming_day": day, "starts": start, "ends": end, "summary": summary,
                          "flagged": bool(findings)},
            )  # fmt: skip
        if not created:
            now = timezone.now()
            AuditResult.objects.filter(pk=result.pk).update(
                gaming_day=day, starts=start, ends=end, summary=summary, flagged=bool(findings),
                runs=F("runs") + 1, computed_at=now,
            )  # fmt: skip
            # The row as written (the caller reads it back; the row is locked, so ``runs`` is exact).
            result.gaming_day, result.starts, result.ends, result.summary = day, start, end, summary
            result.flagged, result.runs, result.computed_at = bool(findings), result.runs + 1, now
        # A re-run keeps the findings it finds again (same rule, shoe and round): their row, so the
        # dashboard's alert ids stay, their first-found time and their acknowledgement; it refreshes
        # their text and drops the ones no longer found.
        old = {(f.rule, f.shoe_id, f.round_id): f for f in result.findings.all()}
        found_at = _found_times(findings, min(end, timezone.now()))
        rows, kept = [], set()
        for f in findings:
            key = (f["rule"], f.get("shoe_id"), f.get("round_id"))
            prev = old.get(key)
            if prev is not None and prev.pk not in kept:
                kept.add(prev.pk)
                if (prev.severity, prev.message, prev.data) == (f["severity"], f["message"][:500], f.get("data", {})) \
                        and prev.found_at is not None:
                    continue  # found again as it was: nothing to write
                AuditFinding.objects.filter(pk=prev.pk).update(
                    severity=f["severity"], message=f["message"][:500], data=f.get("data", {}),
                    found_at=prev.found_at or found_at(f))  # fmt: skip
                continue
            rows.append(AuditFinding(
                result=result, table=table, rule=f["rule"], severity=f["severity"], message=f["message"][:500],
                shoe_id=f.get("shoe_id"), round_id=f.get("round_id"), data=f.get("data", {}), found_at=found_at(f),
            ))  # fmt: skip
        if len(kept) < len(old):
            result.findings.exclude(pk__in=kept).delete()
        created_rows = AuditFinding.objects.bulk_create(rows)
        if created_rows:
            from tables.services.push import publish

            tid = table.pk
            transaction.on_commit(lambda: publish(table_id=tid, kind="findings", data={"new": len(created_rows)}))
        return result


def _found_times(findings: list[dict[str, Any]], default: datetime) -> Any:
    """When what each finding found happened: its round's opening; a shuffle's finding, the shuffle (an early
    shuffle's alert once bore the time of the shoe's last round); else its shoe's last round; else ``default``."""
    rounds = {f["round_id"] for f in findings if f.get("round_id")}
    shoes = {f["shoe_id"] for f in findings if f.get("shoe_id") and not f.get("round_id")}
    at = dict(Round.objects.filter(pk__in=rounds).values_list("pk", "opened_at")) if rounds else {}
    shoe_at = (dict(Round.objects.filter(shoe_id__in=shoes).values("shoe_id").annotate(m=Max("opened_at"))
                    .order_by().values_list("shoe_id", "m")) if shoes else {})  # fmt: skip
    shuffled_at = (dict(ShuffleEvent.objects.filter(previous_shoe_id__in=shoes).values_list("previous_shoe_id", "at"))
                   if shoes else {})  # fmt: skip

    def found_at(f: dict[str, Any]) -> datetime:
        shoe = f.get("shoe_id") or 0
        if f["rule"] in SHUFFLE_FINDINGS and shoe in shuffled_at:
            return shuffled_at[shoe]
        return at.get(f.get("round_id") or 0) or shoe_at.get(shoe) or default

    return found_at


def audit_table_day(table_id: int, day: date) -> dict[str, Any]:
    """Run the shuffle, hold and pace audits of one table for one gaming day; store and summarise them."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # One table's day is a thin slice of big tables: with the default random_page_cost (4, for
            # spinning disks) PostgreSQL scans every settlement line instead of following the round
            # index; on SSDs 1.1 is the usual setting.  SET LOCAL: this transaction only.
            with connection.cursor() as cur:
                cur.execute("SET LOCAL random_page_cost = %s",
                            [conf.audit_pg_random_page_cost()])
        with theory_memo():
            return _audit_table_day(table_id, day)


def _audit_table_day(table_id: int, day: date) -> dict[str, Any]:
    table = Table.objects.select_related("game").get(pk=table_id)
    start, end = day_bounds(day)
    summary: dict[str, Any] = {"table": table.pk, "number": table.number, "game": table.game.slug,
                               "day": day.isoformat()}  # fmt: skip

    ps = periods(day)
    locked = _lock_results(table, [(AuditKind.SHUFFLE, ps[0][0]), (AuditKind.PACE, ps[0][0]),
                                   *((AuditKind.HOLD, p) for p, _, _ in ps)])

    # Shuffle points.
    bad, shoes = suspicious_shoes(table, start, end)
    found = shuffle_findings(table, bad)
    findings: list[dict[str, Any]] = [{"rule": f.rule, "severity": f.severity, "message": f.message, "shoe_id": shoe_id,
                 "round_id": f.round_id if isinstance(f.round_id, int) else None,
                 "data": f.data} for f, shoe_id in found]  # fmt: skip
    by_rule: dict[str, int] = defaultdict(int)
    for f in findings:
        by_rule[f["rule"]] += 1
    shuffles = ShuffleEvent.objects.filter(table=table, at__gte=start, at__lt=end).count()
    s_summary = {"shoes": shoes, "shuffles": shuffles, "checked_card_by_card": len(bad), "by_rule": dict(by_rule)}
    _store(AuditKind.SHUFFLE, table, f"day:{day.isoformat()}", day, start, end, s_summary, findings, locked)
    summary["shuffle"] = s_summary

    # Hold, per period (house-banked games only: in pot and scoring games the house holds nothing).
    summary["hold"] = {}
    if table.game.slug in HOUSE_GAMES:
        # One pass from the first of the month, split at the day's start and its shifts' ends: the day
        # and the month to date are sums of those buckets (every total is additive).
        before, *shifts = hold_buckets(table, ps[4][1], [start, *(b for _, _, b in ps[1:4])])
        day_totals = HoldTotals()
        for t in shifts:
            day_totals.add(t)
        mtd = before
        mtd.add(day_totals)
        drops = month_drops(table, day)
        for (period, a, b), totals in zip(ps, [day_totals, *shifts, mtd], strict=True):
            h = hold_verdict(totals, drop=_drop_for(table, period, day, drops))
            hj = hold_json(h)
            hf = []
            if h.flagged:
                hf.append({"rule": "hold.anomaly", "severity": Severity.WARNING,
                           "message": f"table {table.number}, {period_words(period)}: {h.reason}", "data": {"z": h.z}})  # fmt: skip
            _store(AuditKind.HOLD, table, period, day, a, b, hj, hf, locked)
            summary["hold"][period] = hj

    # Dealer and pace, with the day's discrepancies.
    rows = pace_for(table, start, end)
    day_rounds = Round.objects.filter(table=table, opened_at__gte=start, opened_at__lt=end)
    counts = day_rounds.aggregate(n=Count("id"), mismatch_open=Count("id", filter=Q(state=RoundState.MISMATCH)),
                                  cancelled=Count("id", filter=Q(state=RoundState.CANCELLED)))
    p_summary = {
        "dealers": rows, "rounds": counts["n"], "mismatch_open": counts["mismatch_open"],
        "cancelled": counts["cancelled"],
        "approvals": {k: n for k, n in Approval.objects.filter(round__in=day_rounds).values_list("kind")
                      .annotate(n=Count("id")).order_by()},
    }  # fmt: skip
    _store(AuditKind.PACE, table, f"day:{day.isoformat()}", day, start, end, p_summary, [], locked)
    summary["pace"] = p_summary

    # Table accounting: counted against tracked win per shift, win/drop hold (docs/accounting.md).
    from tables.services.accounting import accounting_table_day

    summary["accounting"] = accounting_table_day(table, day)
    return summary


def audit_floor_day(day: date, table_ids: Iterable[int] | None = None) -> list[dict[str, Any]]:
    """The audits of every table for a gaming day, in this process (what ``run_audit`` does)."""
    ids = list(table_ids) if table_ids is not None else list(Table.objects.order_by("pk").values_list("pk", flat=True))
    with theory_memo():
        return [audit_table_day(pk, day) for pk in ids]
