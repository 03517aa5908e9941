"""Reads of rounds: a stored round and its shoe as the engine sees them (the services replay these and store what
the engine returns); one round as a document with its cards, decisions, settlement, payments, approvals and the
tablet's view in words; the recall of a table's last rounds; a round's trail; scans.  Nothing here writes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction
from django.db.models import Prefetch, QuerySet
from django.urls import reverse
from django.utils import timezone

from tables import conf
from tables.access import check_can_read
from tables.days import moment_text
from tables.engine import live, witness
from tables.engine.cards import card_face, parse_card
from tables.engine.money import fmt
from tables.engine.shoe import Shoe as EngineShoe
from tables.engine.shoe import ShoeSpec, ShuffleRule
from tables.models import (
    AlertDecision,
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
    Table,
)
from tables.selectors import round_view


def current_shoe(table: Table) -> Shoe | None:
    """The shoe being dealt at the table (the latest one), or None before the first shuffle."""
    return Shoe.objects.filter(table=table, ended_at__isnull=True).order_by("-number").first()


def engine_shoe_spec(shoe: Shoe) -> ShoeSpec:
    """The engine's spec of a stored shoe."""
    return ShoeSpec(
        decks=shoe.spec["decks"], jokers_per_deck=shoe.spec.get("jokers_per_deck", 0),
        shuffle_rule=ShuffleRule(shoe.spec.get("shuffle_rule", "cut_card")),
        shuffle_at=shoe.spec.get("shuffle_at", 0), total_jokers=shoe.spec.get("total_jokers"),
    )  # fmt: skip


def engine_shoe(shoe: Shoe) -> EngineShoe:
    """The engine's shoe with every card dealt from this shoe so far, in order."""
    spec = engine_shoe_spec(shoe)
    codes = RoundCard.objects.filter(round__shoe=shoe).order_by("shoe_position", "id").values_list("code", flat=True)
    return EngineShoe.from_dealt(spec, [parse_card(c) for c in codes])


def _shoe_before(round: Round) -> EngineShoe | None:
    """The round's shoe as it stood when the round opened (cards of the earlier rounds only)."""
    shoe = round.shoe
    if shoe is None:
        return None
    spec = engine_shoe_spec(shoe)
    codes = (RoundCard.objects.filter(round__shoe=shoe, round__number__lt=round.number)
             .order_by("round__number", "seq").values_list("code", flat=True))  # fmt: skip
    return EngineShoe.from_dealt(spec, [parse_card(c) for c in codes])


def round_state(round: Round, cards: list[RoundCard] | None = None,
                decisions: list[Decision] | None = None) -> Any:
    """The engine's live state of the round: its setup, then every card and decision in order (``cards``
    and ``decisions``: the round's rows when the caller has just read them)."""
    state = live.start(round.game, round.rules, round.pay_table_lines, round.table_minimum, round.setup,
                       _shoe_before(round))  # fmt: skip
    events: list[tuple[int, int, Any]] = sorted(
        [(c.seq, 1, c) for c in (RoundCard.objects.filter(round=round) if cards is None else cards)]
        + [(d.seq, 0, d) for d in (Decision.objects.filter(round=round) if decisions is None else decisions)],
        key=lambda e: (e[0], e[1]),
    )
    # A hit or double is stored as its decision followed by its card, whichever route the card took
    # (with the decision, picked after it, or scanned): the engine takes the decision first and the
    # next dealt card completes it, so replaying the rows in order rebuilds the same state.
    for _, kind, ev in events:
        if kind == 1:
            live.deal(round.game, state, parse_card(ev.code))
        else:
            live.decide(round.game, state, ev.actor, ev.action, ev.amount)
    if round.state == RoundState.PAUSED and round.paused_at is not None:
        live.pause(round.game, state, "interrupted", round.paused_at)
    return state


RECALL_ROUNDS = 10


def round_get(*, user: Any, pk: int) -> Round:
    """One round, readable by the user."""
    check_can_read(user)
    return Round.objects.select_related("table", "table__game", "rule_set", "pay_table", "shoe").get(pk=pk)


@contextmanager
def one_moment() -> Iterator[None]:
    """Run a read made of several queries against the database as of one moment.

    Outside a transaction every query sees the database as it is when that query runs: a card committed
    between the round's row and its cards would show in the document beside the version before it, and
    the tablet's next command, carrying that version, would be refused as a conflict (a shoe feed posting
    while the tablet polled did exactly that).  On PostgreSQL the block is one REPEATABLE READ, READ ONLY
    transaction (one snapshot, no locks); on SQLite one transaction, which holds writers off while it
    reads.  Inside a transaction already (a command's answer under its lock) the block runs as it is."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def round_read(pk: int, *, user: Any = None) -> dict[str, Any]:
    """The round's document as of one moment (``one_moment``); readable by ``user`` when one is given."""
    if user is not None:
        check_can_read(user)
    with one_moment():
        return round_document(round_fresh(pk))


def round_fresh(pk: int) -> Round:
    """The round as stored now, with the rows its document reads (rule set, pay table, shoe) in the same
    query: what a command answers after its write."""
    return Round.objects.select_related("rule_set", "pay_table", "shoe").get(pk=pk)


def scan_image_url(scan_id: int) -> str:
    """Where a scan's image is served to those who may read its round (never public media)."""
    return reverse("api-scan-image", args=[scan_id])


def read_candidates(read: dict[str, Any]) -> list[tuple[str, float]]:
    """A scanned card's candidates for ``tables.engine.witness``: the code read, then the reader's guesses."""
    return [(str(g.get("code", "")), float(g.get("confidence", 0.0))) for g in [read, *(read.get("guesses") or [])]]


def scan_guesses(found: list[dict[str, Any]], shoe: EngineShoe | None, limit: int = 4) -> list[dict[str, Any]]:
    """The reader's best guesses for an unsure scan: cards the shoe can still deal, best first, with the
    belief once weighed by the shoe (``tables.engine.witness``; a read code counts as a guess, an
    "unknown" one brings its guesses)."""
    candidates = [candidate for c in found for candidate in read_candidates(c)]
    possible = [w for w in witness.weigh(candidates, shoe) if shoe is None or shoe.remaining()[w.card] > 0]
    return [{"code": w.card.code, "confidence": round(w.weighed, 4)} for w in possible[:limit]]


# What happens at a round while an unsure read waits and leaves the question standing: a pause and its
# resumption (the round takes nothing meanwhile).  Every other write at the round is refused while it
# waits, or answers it (``tables.services.rounds.require_no_pending_scan``).
_QUIET_ACTIONS = ("round.pause", "round.resume")
# The writes after which a scan may still ask about one of its cards: the scan itself (its sure cards before
# the unsure one recorded), and the dealer's answer or "not a card" for an earlier card of the same scan.
_ASKING_ACTIONS = {"round.scan": "sha256", "round.shoe_feed": "sha256", "round.scan.skip": "sha256",
                   "round.card": "scan"}  # fmt: skip


def pending_scan_row(rnd: Round) -> Scan | None:
    """The scan the round waits on, or None: the dealer was asked to confirm or pick one of its cards
    (``Scan.asking``) and nothing happened at the round since but that scan and the answers to its earlier
    cards (a pause aside).  One query when nothing waits."""
    if rnd.state != RoundState.IN_PLAY:
        return None
    last = (AuditEvent.objects.filter(round=rnd).exclude(action__in=_QUIET_ACTIONS).order_by("-pk")
            .only("action", "payload").first())  # fmt: skip
    if last is None or last.action not in _ASKING_ACTIONS:
        return None
    sha = last.payload.get(_ASKING_ACTIONS[last.action])
    if not sha:
        return None
    return rnd.scans.filter(sha256=sha, asking__isnull=False).order_by("-pk").first()


def asked_card(scan: Scan) -> dict[str, Any]:
    """The card of a waiting scan the dealer is asked about (as vision read it: code, confidence, corners,
    guesses); an empty read when vision found no card at all."""
    found = list(scan.recognised or [])
    at = scan.asking or 0
    return dict(found[at]) if at < len(found) else {}


def asked_guesses(scan: Scan, shoe: EngineShoe | None) -> list[dict[str, Any]]:
    """The reader's best guesses for the card a waiting scan asks about (``scan_guesses``)."""
    asked = asked_card(scan)
    return scan_guesses([asked] if asked else [], shoe)


def asked_why(scan: Scan, shoe: EngineShoe | None) -> str:
    """Why the dealer is asked about the scan's card: ``none`` (the scan shows no card), ``unknown`` (the
    reader did not recognise it: perhaps no card at all, a chip or a shadow), ``shoe`` (read surely as a
    card the shoe cannot hold: dealt already, or a Joker without Jokers), ``round`` (read surely, but the
    round takes no card now), or ``unsure`` (read below the threshold)."""
    asked = asked_card(scan)
    if not asked:
        return "none"
    code, confidence = str(asked.get("code", "")), float(asked.get("confidence", 0.0))
    if code == "unknown":
        return "unknown"
    threshold = conf.scan_confidence()
    if witness.choose(read_candidates(asked), shoe, threshold) is not None:
        return "round"  # sure, weighed by the shoe too, and not recorded: the round refused it
    held = [w for w in witness.weigh([(code, confidence)], shoe) if shoe is None or shoe.remaining()[w.card] > 0]
    return "shoe" if confidence >= threshold and not held else "unsure"


def pending_scan(rnd: Round) -> dict[str, Any] | None:
    """The unsure scan the round waits on (``pending_scan_row``), part of the round, so a reload or another
    tablet asks again: ``{"scan", "image", "candidates", "card", "of", "corners", "guesses", "question"}``:
    every card the scan found (``candidates``), the one asked about (``card``, its place left to right, of
    ``of``; ``corners`` where it lies in the image; ``why`` it is asked: ``asked_why``) and the reader's
    guesses for it."""
    scan = pending_scan_row(rnd)
    if scan is None:
        return None
    found = list(scan.recognised or [])
    shoe = engine_shoe(rnd.shoe) if rnd.shoe is not None else None
    guesses = asked_guesses(scan, shoe)
    why = asked_why(scan, shoe)
    return {"scan": scan.pk, "image": scan_image_url(scan.pk), "candidates": found, "card": scan.asking,
            "of": len(found), "corners": asked_card(scan).get("corners") or [], "why": why,
            "guesses": guesses, "question": pending_scan_question(rnd, guesses, scan, why)}  # fmt: skip


def pending_scan_question(rnd: Round, guesses: list[dict[str, Any]], scan: Scan | None = None,
                          why: str = "unsure") -> str:
    """What the dealer is asked about the unsure read: "Answer the unsure read of seat 2's card first: 10♠?"
    (whose card: the round's prompt, which is the asked card's place: the scan's cards before it are recorded),
    "... of seat 2's card (card 2 of 3 in the scan) first: 10♠?" when the scan found several.  A card read
    surely that the round takes no card for (``why`` "round": a scan of two cards where one was wanted) is
    not an unsure read: "Card 2 of 2 in the scan read 2♥, but the round takes no card now: tap Not a card
    first"."""
    if why == "round" and scan is not None and guesses:
        found = len(scan.recognised or [])
        which = f"Card {(scan.asking or 0) + 1} of {found} in the scan" if found > 1 else "The scan"
        drop = "Not a card" if found > 1 else "No card was dealt"
        return f"{which} read {card_face(guesses[0]['code'])}, but the round takes no card now: tap {drop} first"
    who = round_view.actor_label((rnd.prompt or {}).get("actor"), rnd.setup, rnd.game)
    whose = f" of {'the dealer' if who == 'Dealer' else who[:1].lower() + who[1:]}'s card" if who else ""
    found = len(scan.recognised or []) if scan is not None else 0
    if found > 1 and scan is not None:
        whose += f" (card {(scan.asking or 0) + 1} of {found} in the scan)"
    best = f"{card_face(guesses[0]['code'])}?" if guesses else "which card is it?"
    return f"Answer the unsure read{whose} first: {best}"


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
        "corrected_by": c.corrected_by.get_username() if c.corrected_by is not None else None,
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
    doc["rejections"] = round_rejections(rnd)
    doc["pending_scan"] = pending_scan(rnd)
    doc["shoe_cards"] = shoe_cards(rnd)
    _add_view(rnd, doc, cards, decisions)
    return doc


def shoe_cards(rnd: Round) -> list[str] | None:
    """The card codes the round's shoe can hold (the engine's composition of its spec, the one that refuses
    "a Joker cannot come from this shoe"), for the pickers: a correction offers only these.  None when the
    round has no shoe."""
    if rnd.shoe is None:
        return None
    return sorted(card.code for card in engine_shoe_spec(rnd.shoe).composition())


def round_rejections(rnd: Round) -> list[dict[str, Any]]:
    """The pit boss's rejections of the round's payment, oldest first: who, why, when, and the round's
    version then (a rejection stands until the dealer records a new payment: a later version)."""
    rows = AlertDecision.objects.filter(round=rnd, decision="reject").select_related("by").order_by("at", "pk")
    return [{"by": r.by.get_username(), "reason": r.reason, "at": r.at.isoformat(), "version": r.round_version,
             "current": r.round_version == rnd.version} for r in rows]  # fmt: skip


def _add_view(rnd: Round, doc: dict[str, Any], cards: list[RoundCard] | None = None,
              decisions: list[Decision] | None = None) -> None:
    """What the tablet shows in words, derived from the engine's live state (the services' replay):
    ``view`` (hands with totals, split hands labelled, the hole card face down until the dealer
    plays), each card's ``hand``/``face_up``, and ``next.text``/``next.labels``."""
    try:
        state = round_state(rnd, cards, decisions)
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
        "rule_set": {"id": rnd.rule_set_id, "version": rnd.rule_set.version if rnd.rule_set is not None else None},
        "pay_table": {"id": rnd.pay_table_id, "version": rnd.pay_table.version if rnd.pay_table is not None else None},
        "shoe": rnd.shoe.number if rnd.shoe is not None else None,
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
        "opened_words": moment_text(timezone.localtime(rnd.opened_at)),
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
