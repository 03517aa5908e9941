"""Reads of the live floor for the tablet and the API: tables, rounds, recall.  Nothing here writes."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, QuerySet
from django.urls import reverse

from tables.access import AUDITOR_ROLE as AUDITOR
from tables.access import DEALER_ROLE as DEALER
from tables.access import GAMES_MANAGER_ROLE as GAMES_MANAGER
from tables.access import PIT_BOSS_ROLE as PIT_BOSS
from tables.access import roles_of
from tables.engine.games import game as game_spec
from tables.engine.money import fmt
from tables.models import (
    Approval,
    AuditEvent,
    Decision,
    Payment,
    Round,
    RoundCard,
    RoundState,
    Scan,
    SettlementLine,
    Shoe,
    ShuffleEvent,
    Table,
    TableSession,
)
from tables.selectors import round_view
from tables.selectors.rounds import current_shoe, engine_shoe, round_state

READ_ROLES = {DEALER, PIT_BOSS, AUDITOR, GAMES_MANAGER, "shift_manager"}
RECALL_ROUNDS = 10


def check_can_read(user: Any) -> None:
    """Any of the casino roles may read the floor; other accounts may not."""
    if not roles_of(user) & READ_ROLES:
        raise PermissionDenied("you have no role at this casino")


def table_list(*, user: Any) -> QuerySet[Table]:
    """Tables the user may see, with what the tablet's table picker shows."""
    check_can_read(user)
    return Table.objects.select_related("game", "pit", "pit__casino", "rule_set", "pay_table").order_by(
        "pit__name", "number"
    )


def table_get(*, user: Any, pk: int) -> Table:
    """One table, readable by the user (404 if absent)."""
    return table_list(user=user).get(pk=pk)


def held_by(table: Table) -> Any | None:
    """The dealer holding the table now, if any."""
    s = TableSession.objects.filter(table=table, closed_at__isnull=True).select_related("dealer").first()
    return s.dealer if s else None


def shoe_gauge(table: Table) -> dict[str, Any] | None:
    """The shoe gauge: cards dealt and left, penetration, shuffle point, whether a shuffle is due."""
    shoe = current_shoe(table)
    if shoe is None:
        return None
    es = engine_shoe(shoe)
    last = ShuffleEvent.objects.filter(shoe=shoe).first()
    return {
        "number": shoe.number,
        "size": es.spec.size,
        "cards_dealt": es.cards_dealt,
        "cards_left": es.cards_left,
        "penetration": round(es.penetration, 4),
        "shuffle_at": es.spec.shuffle_at,
        "shuffle_rule": es.spec.shuffle_rule.value,
        "shuffle_due": es.shuffle_due,
        "shuffled_at": shoe.shuffled_at.isoformat(),
        "shuffled_by": shoe.shuffled_by.get_username(),
        "players_notified": bool(last and last.players_notified),
    }


def current_round(table: Table) -> Round | None:
    """The open round of the table (in play, paused, or awaiting payment), if any."""
    return Round.objects.filter(
        table=table, state__in=(RoundState.IN_PLAY, RoundState.PAUSED, RoundState.SETTLED, RoundState.MISMATCH)
    ).order_by("-number").first()


def table_document(table: Table) -> dict[str, Any]:
    """What the tablet needs about a table: game, limits, holder, shoe gauge, open round."""
    dealer = held_by(table)
    rnd = current_round(table)
    return {
        "id": table.pk,
        "number": table.number,
        "pit": str(table.pit),
        "game": table.game.slug,
        "game_name": table.game.name,
        "status": table.status,
        "min_bet": fmt(table.min_bet),
        "max_bet": fmt(table.max_bet),
        "rule_set": {"id": table.rule_set_id, "name": table.rule_set.name, "version": table.rule_set.version},
        "pay_table": {"id": table.pay_table_id, "name": table.pay_table.name, "version": table.pay_table.version},
        "dealer": dealer.get_username() if dealer else None,
        "shoe": shoe_gauge(table),
        "round": rnd.pk if rnd else None,
        "limits": table_limits(table),
    }


def table_limits(table: Table) -> dict[str, Any]:
    """The table's limits per bet kind (``main``, ``perfect-pairs``, ``21+3``, ``behind``) and the cap on bets behind."""
    out: dict[str, Any] = {}
    for kind in ("main", "perfect-pairs", "21+3", "behind"):
        lo, hi = table.limits(kind)
        out[kind] = {"min": fmt(lo), "max": fmt(hi)}
    out["max_bets_behind"] = table.max_bets_behind
    return out


def round_get(*, user: Any, pk: int) -> Round:
    """One round, readable by the user."""
    check_can_read(user)
    return Round.objects.select_related("table", "table__game", "rule_set", "pay_table", "shoe").get(pk=pk)


def scan_image_url(scan_id: int) -> str:
    """Where a scan's image is served to those who may read its round (never public media)."""
    return reverse("api-scan-image", args=[scan_id])


def scan_get(*, user: Any, pk: int) -> Scan:
    """A scan whose image the user may see: whoever may read its round (``round_get``)."""
    scan = Scan.objects.get(pk=pk)
    round_get(user=user, pk=scan.round_id)
    return scan


def _card_json(c: RoundCard) -> dict[str, Any]:
    return {
        "seq": c.seq,
        "to": c.to,
        "code": c.code,
        "source": c.source,
        "image": scan_image_url(c.scan_id) if c.scan_id else None,
        "image_sha256": c.image_sha256 or None,
        "recognised_code": c.recognised_code or None,
        "confidence": c.confidence,
        "corrected_from": c.corrected_from or None,
        "corrected_by": c.corrected_by.get_username() if c.corrected_by_id else None,
        "correction_reason": c.correction_reason or None,
        "recorded_by": c.recorded_by.get_username(),
        "recorded_at": c.recorded_at.isoformat(),
    }


def round_document(rnd: Round) -> dict[str, Any]:
    """The full round: state, what comes next, seats and wagers, cards, decisions, settlement, payment."""
    cards = list(rnd.cards.select_related("recorded_by", "corrected_by").order_by("seq"))
    decisions = list(rnd.decisions.select_related("recorded_by").order_by("seq"))
    lines = list(rnd.lines.filter(superseded=False).order_by("seat", "id"))
    payments = list(rnd.payments.select_related("recorded_by").order_by("id"))
    approvals = list(rnd.approvals.select_related("approved_by").order_by("approved_at"))
    doc = _document(rnd, cards, decisions, lines, payments, approvals)
    _add_view(rnd, doc)
    return doc


def _add_view(rnd: Round, doc: dict[str, Any]) -> None:
    """What the tablet shows in words, derived from the engine's live state (the services' replay):
    ``view`` (hands with totals, split hands labelled, the hole card face down until the dealer
    plays), each card's ``hand``/``face_up``, and ``next.text``/``next.labels``."""
    try:
        state = round_state(rnd)
    except Exception:  # noqa: BLE001 - a round the engine cannot rebuild is still shown, without the view
        state = None
    setup = rnd.setup or {}
    doc["view"] = round_view.table_view(rnd.game, state, setup, doc["cards"])
    nxt = dict(doc["next"] or {})
    if nxt:
        try:
            nxt["text"] = round_view.prompt_text(rnd.game, nxt, state, setup)
        except Exception:  # noqa: BLE001
            nxt["text"] = nxt.get("reason", "")
        nxt["labels"] = round_view.action_labels(rnd.game, nxt)
        nxt["actor_label"] = round_view.actor_label(nxt.get("actor"), setup, rnd.game)
    doc["next"] = nxt


def _document(rnd: Round, cards: list[RoundCard], decisions: list[Decision], lines: list[SettlementLine],
              payments: list[Payment], approvals: list[Approval]) -> dict[str, Any]:
    large_approved = any(a.kind == "large_payout" for a in approvals)
    card_docs = [_card_json(c) for c in cards]
    _hole_card(rnd, card_docs)
    return {
        "id": rnd.pk,
        "table": rnd.table_id,
        "number": rnd.number,
        "game": rnd.game,
        "state": rnd.state,
        "state_label": RoundState(rnd.state).label,
        "version": rnd.version,
        "table_minimum": fmt(rnd.table_minimum),
        "rule_set": {"id": rnd.rule_set_id, "version": rnd.rule_set.version if rnd.rule_set_id else None},
        "pay_table": {"id": rnd.pay_table_id, "version": rnd.pay_table.version if rnd.pay_table_id else None},
        "shoe": rnd.shoe.number if rnd.shoe_id else None,
        "next": rnd.prompt,
        "seats": rnd.setup.get("seats", []),
        "cards": card_docs,
        "decisions": [
            {"seq": d.seq, "actor": d.actor, "action": d.action, "amount": fmt(d.amount) if d.amount is not None else None,
             "forced": d.forced, "recorded_by": d.recorded_by.get_username(), "recorded_at": d.recorded_at.isoformat()}
            for d in decisions
        ],
        "settlement": [
            {"seat": ln.seat, "bet": ln.bet, "wager": fmt(ln.wager), "result": ln.result, "net": fmt(ln.net),
             "detail": ln.detail, "hand": ln.hand, "behind": ln.behind}
            for ln in lines
        ],
        "due": rnd.due,
        "paid": rnd.paid,
        "payments": [
            {"seat": p.seat, "kind": p.kind, "amount": fmt(p.amount), "superseded": p.superseded,
             "recorded_by": p.recorded_by.get_username(), "recorded_at": p.recorded_at.isoformat()}
            for p in payments
        ],
        "discrepancies": rnd.discrepancies,
        "approval_required": rnd.approval_required and not large_approved,
        "approval_reason": rnd.approval_reason,
        "approvals": [
            {"kind": a.kind, "reason": a.reason, "approved_by": a.approved_by.get_username(),
             "approved_at": a.approved_at.isoformat()}
            for a in approvals
        ],
        "opened_at": rnd.opened_at.isoformat(),
        "settled_at": rnd.settled_at.isoformat() if rnd.settled_at else None,
        "closed_at": rnd.closed_at.isoformat() if rnd.closed_at else None,
    }


def _hole_card(rnd: Round, cards: list[dict[str, Any]]) -> None:
    """Every card ``face_up``; a blackjack dealer's second card (the hole card) face down until the
    dealer plays, as the stored prompt says (the recall too: game protection while a round is open)."""
    for c in cards:
        c["face_up"] = True
    if rnd.game not in round_view.BLACKJACK:
        return
    dealer = [c for c in cards if c["to"] == "dealer"]
    if len(dealer) >= 2:
        over = rnd.state in (RoundState.SETTLED, RoundState.MISMATCH, RoundState.CLOSED, RoundState.CANCELLED)
        dealer[1]["hole"] = True
        dealer[1]["face_up"] = over or (rnd.prompt or {}).get("phase") in ("dealer", "settle", "settled")


def round_recall(*, table: Table, count: int = RECALL_ROUNDS) -> list[dict[str, Any]]:
    """Game recall: the last ``count`` rounds of a table, newest first, in full (a fixed number of queries)."""
    rounds = list(
        Round.objects.filter(table=table)
        .select_related("table", "rule_set", "pay_table", "shoe")
        .prefetch_related(
            Prefetch("cards", RoundCard.objects.select_related("recorded_by", "corrected_by").order_by("seq")),
            Prefetch("decisions", Decision.objects.select_related("recorded_by").order_by("seq")),
            Prefetch("lines", SettlementLine.objects.filter(superseded=False).order_by("seat", "id")),
            Prefetch("payments", Payment.objects.select_related("recorded_by").order_by("id")),
            Prefetch("approvals", Approval.objects.select_related("approved_by").order_by("approved_at")),
        )
        .order_by("-number")[:count]
    )
    return [
        _document(r, list(r.cards.all()), list(r.decisions.all()), list(r.lines.all()), list(r.payments.all()),
                  list(r.approvals.all()))
        for r in rounds
    ]


def round_trail(rnd: Round) -> QuerySet[AuditEvent]:
    """The audit trail of a round, oldest first."""
    return AuditEvent.objects.filter(round=rnd).select_related("actor").order_by("at", "id")


def shoes_of(table: Table) -> QuerySet[Shoe]:
    """The shoes of a table, newest first."""
    return Shoe.objects.filter(table=table).order_by("-number")


def seat_count(table: Table) -> int:
    """How many seats the table's game has (the rule set's ``seats``; one for one-seat games)."""
    spec = game_spec(table.game.slug)
    params = table.rule_set.params or {}
    # A blackjack rule set may set its own seat count; otherwise the rules' seats.
    return int(params.get("seats", spec.seats)) if spec.house_banked and spec.seats > 1 else spec.seats
