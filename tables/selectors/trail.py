"""A round's trail in words (for pit bosses and surveillance) and the rounds search with its CSV rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db.models import DecimalField, OuterRef, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from tables.days import day_text, parse_day
from tables.engine.cards import card_face
from tables.engine.games import game as game_spec
from tables.engine.settlement import NOT_STAKES, bet_words
from tables.models import ApprovalKind, AuditEvent, Round, RoundState, Scan, SettlementLine, Wager
from tables.selectors.floor_live import Scope
from tables.selectors.round_view import place_words

ROLE_WORDS = {"dealer": "the dealer", "player": "the player"}


def _who(to: str | None) -> str:
    """``seat:3/hand:1`` → ``seat 3, hand 2`` (counted from 1, as the tablet says it); ``dealer`` → ``the dealer``."""
    if to in ROLE_WORDS:
        return ROLE_WORDS[to]
    return place_words(to)


def _reads(found: Any) -> str:
    """What the reader found on a scan: ``8S (100%), 7D (42%)`` (not the reader's raw dictionaries)."""
    parts = []
    for x in found or []:
        if isinstance(x, dict):
            conf = x.get("confidence")
            parts.append(card_face(x.get("code", "?")) + (f" ({round(100 * float(conf))}%)" if isinstance(conf, int | float) else ""))
        else:
            parts.append(str(x))
    return ", ".join(parts) or "nothing"


def _money_map(m: Any) -> str:
    """``{"1": {"main": "20.00"}}`` → ``seat 1 main 20.00``."""
    if not isinstance(m, dict) or not m:
        return "nothing"
    parts = []
    for seat, bets in sorted(m.items(), key=lambda kv: str(kv[0])):
        if isinstance(bets, dict):
            parts.append(f"seat {seat} " + ", ".join(f"{bet_words(bet)} {amount}" for bet, amount in bets.items()))
        else:
            parts.append(f"{seat} {bets}")
    return "; ".join(parts)


def _wagers(setup: Any) -> str:
    seats = (setup or {}).get("seats") or []
    parts = []
    for s in seats:
        w = ", ".join(f"{bet_words(k)} {v}" for k, v in (s.get("wagers") or {}).items())
        if not w and "stack" in s:  # a pot game (Bluffjack): the seat brings chips, no wager of its own
            w = f"stack {s['stack']} chips"
        behind = s.get("behind") or []
        who = f"seat {s.get('seat')}" + (f" ({s['player']})" if s.get("player") else "")
        parts.append(who + (f": {w}" if w else "") + (f" (+{len(behind)} behind)" if behind else ""))
    return "; ".join(parts) or "no wagers"


def event_sentence(action: str, p: dict[str, Any]) -> str:
    """One audit event of a round, said in words."""
    p = p or {}
    if action == "round.open":
        return f"opened the round with {_wagers(p)}"
    if action == "round.card":
        how = " from a scan" if p.get("scan") else " by code"
        return f"dealt {card_face(p.get('code'))} to {_who(p.get('to'))}{how}"
    if action == "round.scan":
        rec = ", ".join(card_face(c) for c in p.get("recorded") or [])
        return f"scanned an image: read {_reads(p.get('recognised'))}; " + (f"recorded {rec}" if rec else
                                                                          "no card recorded (the dealer was asked)")
    if action == "round.decision":
        amount = f" {p['amount']}" if p.get("amount") else ""
        card = f" (card {card_face(p['card'])})" if p.get("card") else ""
        return f"{_who(p.get('who'))}: {p.get('action')}{amount}{card}"
    if action == "round.settle":
        extra = f"; needs approval: {p['approval_required']}" if p.get("approval_required") else ""
        return f"settled: due {_money_map(p.get('due'))}{extra}"
    if action == "round.paid":
        disc = p.get("discrepancies") or []
        tail = (" — differs: " + "; ".join(f"seat {d.get('seat')} {bet_words(d.get('bet'))} paid {d.get('paid')}, due {d.get('due')}"
                                 for d in disc)) if disc else "; matches what is due"  # fmt: skip
        return f"recorded the payment: {_money_map(p.get('paid'))}{tail}"
    if action.startswith("round.approve."):
        kind = action.split(".", 2)[2]
        words = ApprovalKind(kind).label if kind in ApprovalKind.values else kind.replace("_", " ")
        return f"approved ({words}): {p.get('reason', '')}"
    if action == "round.reject":
        return f"rejected the payment: {p.get('reason', '')}"
    if action == "round.cancel":
        return f"cancelled the round: {p.get('reason', '')}; refunds {_money_map(p.get('refunds'))}"
    if action == "round.card.correct":
        return (f"corrected card {p.get('seq')} from {card_face(p.get('from'))} to {card_face(p.get('to'))}: "
                f"{p.get('reason', '')}")
    if action == "round.pause":
        return f"paused the round: {p.get('reason', '')}"
    if action == "round.resume":
        return "resumed the round"
    if action == "bluffjack.carry":
        stacks = p.get("stacks") or {}
        said = ", ".join(f"{k} {v}" for k, v in sorted(stacks.items(), key=lambda kv: str(kv[0])))
        won = f"; {p['winner']} won the game" if p.get("winner") else ""
        return f"Bluffjack game {p.get('game')}: stacks after the hand {said or 'none'} chips; carried to the next pot {p.get('carry', 0)}{won}"
    if action == "round.interrupted":
        return f"settled the interrupted round ({p.get('rule', '')}): {p.get('outcome', '')}"
    return action.replace(".", " ").replace("_", " ")


def round_trail_words(rnd: Round) -> list[dict[str, Any]]:
    """The round's audit events, oldest first, each as when, who and a sentence."""
    events = AuditEvent.objects.filter(round=rnd).select_related("actor").order_by("at", "id")
    return [{"at": e.at, "who": e.actor.get_username() if e.actor is not None else "system", "action": e.action,
             "text": event_sentence(e.action, e.payload)} for e in events]  # fmt: skip


def round_scans(rnd: Round) -> list[Scan]:
    """The round's scans, in order (their images are served by /api/scans/<id>/image/)."""
    return list(Scan.objects.filter(round=rnd).order_by("id"))


# ---------------------------------------------------------------------------------------------
# Search


@dataclass(frozen=True)
class RoundQuery:
    """The rounds search: every field optional; amounts are the round's total due."""

    day_from: date | None = None
    day_to: date | None = None
    table: int | None = None  # the table's number
    dealer: str = ""
    state: str = ""
    min_amount: Decimal | None = None
    max_amount: Decimal | None = None

    @classmethod
    def from_params(cls, params: Any) -> tuple[RoundQuery, dict[str, str]]:
        """Parse query parameters; bad values are reported per field (and ignored)."""
        errors: dict[str, str] = {}

        def day(name: str) -> date | None:
            raw = (params.get(name) or "").strip()
            if not raw:
                return None
            found = parse_day(raw, timezone.localdate())
            if found is None:
                errors[name] = f"“{raw}” is not a day such as {day_text(timezone.localdate())}"
            return found

        def amount(name: str) -> Decimal | None:
            raw = (params.get(name) or "").strip()
            if not raw:
                return None
            try:
                value = Decimal(raw)
            except InvalidOperation:
                value = None
            if value is None or not value.is_finite():  # "NaN" and "Infinity" parse, but are no amounts
                errors[name] = "an amount such as 100.00"
                return None
            return value

        table = None
        raw_table = (params.get("table") or "").strip()
        if raw_table:
            try:
                table = int(raw_table)
            except ValueError:
                errors["table"] = "a table number"
        state = (params.get("state") or "").strip()
        if state and state not in RoundState.values:
            errors["state"] = "one of: " + "; ".join(str(label) for label in RoundState.labels)
            state = ""
        return cls(day("from"), day("to"), table, (params.get("dealer") or "").strip(), state,
                   amount("min"), amount("max")), errors


_MONEY = DecimalField(max_digits=14, decimal_places=2)


def with_staked(qs: QuerySet[Round]) -> QuerySet[Any]:  # annotated: staked, staked_lines
    """The rounds with ``staked`` (what the dashboard calls "wagered": every stake the round took) and
    ``staked_lines`` (the settlement lines' part; None until the round is settled, so the figure is the
    opening bets so far), in SQL (two subqueries).

    The one home of that figure.  A settled round's stakes are its current settlement lines' wagers, as the
    engine settled them: each split hand, a doubled stake at its doubled amount, insurance, side bets, bets
    behind (doubled along, following a split), Bluffjack's contributions to the pot; not a line paid on
    another's stake (``tables.engine.settlement.NOT_STAKES``: No-Bust Finnish 27's bonus, whose line
    carries the game wager it pays on, counted twice before).  A round not settled
    yet has only its opening bets (the ``Wager`` rows); a cancelled round refunded every stake: 0.

    Not the hold's handle: the hold audit and the accounting's theo take the initial wagers (the edges are
    per initial unit, docs/audit.md "Hold"), so hold % is win / handle, never win / staked."""
    lines = (SettlementLine.objects.filter(round=OuterRef("pk"), superseded=False)
             .exclude(round__state=RoundState.CANCELLED).exclude(bet__in=NOT_STAKES).order_by().values("round")
             .annotate(s=Sum("wager")).values("s"))  # fmt: skip
    opening = (Wager.objects.filter(round=OuterRef("pk"), refunded=False).order_by().values("round")
               .annotate(s=Sum("amount")).values("s"))  # fmt: skip
    return qs.annotate(
        staked_lines=Subquery(lines, output_field=_MONEY),
        staked=Coalesce("staked_lines", Subquery(opening, output_field=_MONEY), Value(Decimal(0)),
                        output_field=_MONEY),
    )  # fmt: skip


def rounds_search(scope: Scope, q: RoundQuery) -> QuerySet[Round]:
    """Rounds in scope matching the query, newest first, with ``staked`` annotated (``with_staked``)."""
    from tables.selectors.floor_live import gaming_day_start

    qs = Round.objects.filter(table__in=scope.tables())
    if q.day_from:
        _, start = gaming_day_start(timezone.make_aware(datetime.combine(q.day_from, datetime.min.time())
                                                        + timedelta(hours=12)))  # fmt: skip
        qs = qs.filter(opened_at__gte=start)
    if q.day_to:
        _, start = gaming_day_start(timezone.make_aware(datetime.combine(q.day_to, datetime.min.time())
                                                        + timedelta(hours=12)))  # fmt: skip
        qs = qs.filter(opened_at__lt=start + timedelta(days=1))
    if q.table is not None:
        qs = qs.filter(table__number=q.table)
    if q.dealer:
        qs = qs.filter(opened_by__username__iexact=q.dealer)
    if q.state:
        qs = qs.filter(state=q.state)
    staked = with_staked(qs)
    if q.min_amount is not None:
        staked = staked.filter(staked__gte=q.min_amount)
    if q.max_amount is not None:
        staked = staked.filter(staked__lte=q.max_amount)
    return staked.select_related("table", "table__pit", "opened_by").order_by("-opened_at", "-id")


def _total(m: Any) -> Decimal:
    total = Decimal(0)
    for bets in (m or {}).values():
        if isinstance(bets, dict):
            for v in bets.values():
                try:
                    total += Decimal(str(v))
                except InvalidOperation:
                    pass
    return total


def round_row(r: Round) -> dict[str, Any]:
    """One line of the search results and of the CSV export."""
    return {"id": r.pk, "opened_at": timezone.localtime(r.opened_at), "pit": r.table.pit.name,
            "table": r.table.number, "round": r.number, "game": game_spec(r.game).name,
            "dealer": r.opened_by.get_username(),
            "state": RoundState(r.state).label, "wagered": f"{(getattr(r, 'staked', None) or Decimal(0)):.2f}",
            "wagered_so_far": getattr(r, "staked_lines", None) is None and r.state != RoundState.CANCELLED,
            "due": f"{_total(r.due):.2f}", "paid": f"{_total(r.paid):.2f}",
            "discrepancies": len(r.discrepancies or []),
            "settled_at": timezone.localtime(r.settled_at) if r.settled_at else None}  # fmt: skip
