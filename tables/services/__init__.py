"""Everything that writes the live floor: tables, shoes, rounds, cards, decisions, settlement, payment.

Each service is ``<noun>_<verb>(*, ..., actor)``: it runs in one transaction, locks the row it changes
with ``select_for_update()`` in the one lock order (table → game → round, see ``_lock_table``), checks the
actor's right to act at that table, calls the rules engine, and writes an ``AuditEvent`` in the same
transaction.  The live round is rebuilt for each command by replaying its stored cards and decisions
through the engine (``tables.engine.live``): the database is the single source of truth, so a tablet that
reloads or loses the network picks the round up exactly where it was.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from PIL import Image, UnidentifiedImageError  # imported at start: a worker's first scan pays no import

from tables import conf
from tables.access import DEALER_ROLE as DEALER
from tables.access import check_pit_boss, check_right, is_pit_boss, roles_of
from tables.engine import live
from tables.engine.bluffjack.adapter import bluffjack_after, bluffjack_name
from tables.engine.cards import parse_card
from tables.engine.errors import InvalidCard, InvalidInput, RuleViolation
from tables.engine.money import fmt, parse_amount
from tables.engine.round import Prompt
from tables.engine.settlement import discrepancies as engine_discrepancies
from tables.engine.shoe import Shoe as EngineShoe
from tables.engine.shoe import ShoeSpec
from tables.errors import Conflict
from tables.models import (
    AlertDecision,
    Approval,
    ApprovalKind,
    AuditEvent,
    AuditFinding,
    BluffjackGame,
    CardSource,
    Decision,
    GameState,
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
    TableStatus,
    Wager,
)
from tables.selectors.rounds import current_shoe, engine_shoe
from tables.selectors.rounds import round_state as _replay

User = AbstractBaseUser

# A payout needs a pit boss's approval before the dealer pays when one line wins at least this amount,
# or at least this multiple of its wager (the 999× 9-9-9 bonus always does).  Settings may override.
def approval_amount() -> Decimal:
    """A line winning this much or more needs a pit boss before paying (``PAYOUT_APPROVAL_AMOUNT``)."""
    return conf.payout_approval_amount()


def approval_multiple() -> Decimal:
    """A line winning this multiple of its wager or more needs a pit boss (``PAYOUT_APPROVAL_MULTIPLE``)."""
    return conf.payout_approval_multiple()


def scan_confidence() -> float:
    """Below this recognition confidence the dealer confirms or picks the card before it is recorded."""
    return conf.scan_confidence()


MAX_IMAGE_BYTES = 8 * 1024 * 1024
# A tablet or document camera's photo is at most about 12-24 megapixels; more is refused before decoding.
MAX_IMAGE_SIDE = 8192
MAX_IMAGE_PIXELS = 24_000_000



def required_reason(reason: str | None, what: str) -> str:
    """The reason a pit boss or dealer gave, stripped; none is ``InvalidInput`` ("a rejection needs a reason")."""
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(f"{what} needs a reason", field="reason")
    return reason


def audit(*, actor: Any, action: str, table: Table | None = None, round: Round | None = None,
          payload: Mapping[str, Any] | None = None) -> AuditEvent:
    """Write an audit event (call inside the writing transaction)."""
    return AuditEvent.objects.create(
        actor=actor if getattr(actor, "pk", None) else None, action=action, table=table, round=round,
        payload=dict(payload or {}),
    )


# ---------------------------------------------------------------------------------------------
# Tables and shoes


# Lock order.  Every write takes its row locks in ONE order:
#
#     table  →  game (Bluffjack or Contract Rummy)  →  round  →  anything under them (shoe, sessions,
#     the dealer's user row in ``table_open``, ...)
#
# and never locks a row higher in that list after one lower down.  ``_lock_table``, ``_lock_bluffjack``,
# ``_lock_round`` (and ``services_rummy._lock_game``) are the only ways in, and each takes the locks above
# its row first, one statement per row (``of=("self",)``: a join must not lock the joined rows at once in
# whatever order the planner picks).  Why the table first even for a round command: on PostgreSQL an
# INSERT of a row pointing at the table (the audit event, a round) takes a KEY SHARE lock on the table
# row, so a transaction holding a game or round lock would otherwise wait on a table lock held by
# another transaction waiting on that game or round — ``DeadlockDetected`` (ending a Bluffjack game while
# its next hand opens did exactly that).  Writes at one table are serialised; tables stay independent.


def _lock_table(table: Table | int) -> Table:
    pk = table.pk if isinstance(table, Table) else table
    return Table.objects.select_for_update(of=("self",)).select_related("game", "rule_set", "pay_table").get(pk=pk)


def _set_status(table: Table, status: str, actor: Any) -> None:
    """Change the locked table's status, saved (not update()) so the table's history keeps who did it."""
    table.status = status
    table._history_user = actor if getattr(actor, "pk", None) else None  # type: ignore[attr-defined]
    table.save(update_fields=["status"])


def table_open(*, table: Table, dealer: Any | None = None, actor: Any) -> TableSession:
    """Open a table for play with ``dealer`` (default: the actor) holding it."""
    dealer = dealer or actor
    with transaction.atomic():
        table = _lock_table(table)
        if DEALER not in roles_of(dealer) and not is_pit_boss(dealer):
            raise PermissionDenied("only a dealer can hold a table")
        if dealer.pk != actor.pk:
            check_pit_boss(actor)
        elif not (DEALER in roles_of(actor) or is_pit_boss(actor)):
            raise PermissionDenied("only a dealer or a pit boss can open a table")
        # A dealer holds one table at a time (unique index one_open_session_per_dealer).  Two opens for
        # the same dealer at two tables lock two different tables, so they serialise on the dealer's row
        # here (below the table in the lock order; FOR NO KEY UPDATE does not block the sessions' and
        # audit events' foreign keys to it): else both saw no session elsewhere, both inserted one, and
        # the second failed the index with a 500 (found by bench/probe.py).
        list(get_user_model().objects.select_for_update(no_key=True).filter(pk=dealer.pk).values_list("pk", flat=True))
        current = TableSession.objects.select_for_update().filter(table=table, closed_at__isnull=True).first()
        if current is not None:
            if current.dealer_id == dealer.pk:
                return current
            if not is_pit_boss(actor):
                raise Conflict(f"{table} is held by another dealer; a pit boss hands it over")
            current.closed_at = timezone.now()
            current.save(update_fields=["closed_at"])
        elsewhere = TableSession.objects.select_for_update().filter(dealer=dealer, closed_at__isnull=True)
        for s in elsewhere:  # a dealer holds one table at a time: moving closes the old session
            s.closed_at = timezone.now()
            s.save(update_fields=["closed_at"])
        session = TableSession.objects.create(table=table, dealer=dealer, opened_by=actor)
        if table.status != TableStatus.OPEN:
            _set_status(table, TableStatus.OPEN, actor)
        audit(actor=actor, action="table.open", table=table, payload={"dealer": dealer.get_username()})
        return session


def table_open_for_play(*, table: Table, actor: Any) -> bool:
    """A pit boss opens a table for play from the back office; a dealer takes it on the tablet.

    Returns whether the table changed (an open table is left as it is, with no audit event).
    """
    with transaction.atomic():
        table = _lock_table(table)
        check_pit_boss(actor)
        if table.status == TableStatus.OPEN:
            return False
        _set_status(table, TableStatus.OPEN, actor)
        audit(actor=actor, action="table.open", table=table, payload={"dealer": None})
        return True


def table_close(*, table: Table, actor: Any) -> None:
    """Close a table: no round may be open; the dealer's session ends."""
    with transaction.atomic():
        table = _lock_table(table)
        check_right(actor, table)
        if Round.objects.filter(table=table, state__in=_OPEN).exists():
            raise Conflict("a round is still open at this table")
        TableSession.objects.filter(table=table, closed_at__isnull=True).update(closed_at=timezone.now())
        if table.status != TableStatus.CLOSED:
            _set_status(table, TableStatus.CLOSED, actor)
        audit(actor=actor, action="table.close", table=table)


def _shoe_spec(table: Table) -> ShoeSpec:
    return table.rule_set.rules().shoe


def shoe_shuffle(*, table: Table, actor: Any, reason: str = "shuffle point reached") -> Shoe:
    """Record a shuffle: the current shoe ends (its penetration kept) and a fresh one starts.

    Refused while a round is in play: the shoe is shuffled between rounds.
    """
    with transaction.atomic():
        table = _lock_table(table)
        check_right(actor, table)
        if Round.objects.filter(table=table, state__in=(RoundState.IN_PLAY, RoundState.PAUSED)).exists():
            raise Conflict("the shoe is shuffled between rounds; a round is in play")
        spec = _shoe_spec(table)
        previous = current_shoe(table)
        now = timezone.now()
        if previous is not None:
            previous.ended_at = now
            previous.save(update_fields=["ended_at"])
        number = (Shoe.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0) + 1
        shoe = Shoe.objects.create(
            table=table, number=number, shuffled_by=actor,
            spec={"decks": spec.decks, "jokers_per_deck": spec.jokers_per_deck,
                  "total_jokers": spec.total_jokers, "shuffle_rule": spec.shuffle_rule.value,
                  "shuffle_at": spec.shuffle_at, "size": spec.size},
        )  # fmt: skip
        dealt = previous.cards_dealt if previous else 0
        size = previous.size if previous else spec.size
        ShuffleEvent.objects.create(
            table=table, previous_shoe=previous, shoe=shoe, by=actor, reason=reason[:200],
            cards_dealt_before=dealt, shuffle_at=spec.shuffle_at,
            penetration=Decimal(dealt) / Decimal(size) if size else Decimal(0), players_notified=True,
        )  # fmt: skip
        audit(actor=actor, action="shoe.shuffle", table=table,
              payload={"shoe": shoe.number, "reason": reason, "cards_dealt_before": dealt})  # fmt: skip
        return shoe


# ---------------------------------------------------------------------------------------------
# Rounds: the live flow

_OPEN = (RoundState.IN_PLAY, RoundState.PAUSED, RoundState.SETTLED, RoundState.MISMATCH)


def _lock_round(round: Round | int, expected_version: int | None = None) -> Round:
    """Lock the round for a write, in the lock order: its table, its Bluffjack game (if any), the round."""
    pk = round.pk if isinstance(round, Round) else round
    # A round never changes table or game, so reading them unlocked first is safe.
    table_id, game_id = Round.objects.values_list("table_id", "bluffjack_game_id").get(pk=pk)
    table = _lock_table(table_id)
    if game_id is not None:
        # A settlement or correction carries the stacks into the game: lock it before the round.
        list(BluffjackGame.objects.select_for_update().filter(pk=game_id).values_list("pk", flat=True))
    # Two tablets (or a retry racing the original) serialise here.
    locked = Round.objects.select_for_update().get(pk=pk)
    locked.table = table
    if expected_version is not None and locked.version != expected_version:
        raise Conflict(
            f"the round changed meanwhile (version {locked.version}, you had {expected_version}); reload it"
        )
    return locked


def _require_state(round: Round, *states: str, doing: str) -> None:
    if round.state not in states:
        raise Conflict(f"cannot {doing}: round {round.number} is {RoundState(round.state).label}")


def _bump(round: Round, **fields: Any) -> None:
    """Save the changed fields and bump the version (the tablet's conflict check)."""
    for k, v in fields.items():
        setattr(round, k, v)
    round.version += 1
    round.save(update_fields=[*fields, "version", "updated_at"])


def _setup_of(seats: object) -> dict[str, Any]:
    """Validate and normalise the seats of a new round (wagers as decimal strings)."""
    if not isinstance(seats, list) or not seats:
        raise InvalidInput("at least one seat with wagers is required", field="seats")
    out = []
    for i, seat in enumerate(seats):
        f = f"seats[{i}]"
        if not isinstance(seat, dict):
            raise InvalidInput("a seat must be an object", field=f)
        number = seat.get("seat")
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 99:
            raise InvalidInput("seat must be a whole number from 1 to 99", field=f"{f}.seat")
        wagers = seat.get("wagers")
        if wagers is None and "stack" in seat:
            wagers = {}  # a pot game (Bluffjack): the seat brings chips, the antes are the rules'
        if not isinstance(wagers, dict) or (not wagers and "stack" not in seat):
            raise InvalidInput("wagers must map bet kind to amount", field=f"{f}.wagers")
        clean = {str(k): fmt(parse_amount(v, field=f"{f}.wagers.{k}")) for k, v in wagers.items()}
        entry: dict[str, Any] = {**{k: v for k, v in seat.items() if k not in ("wagers",)}, "seat": number,
                                 "wagers": clean}  # fmt: skip
        behind = seat.get("behind") or []
        if not isinstance(behind, list):
            raise InvalidInput("behind must be a list of bets behind", field=f"{f}.behind")
        entry["behind"] = []
        for j, b in enumerate(behind):
            if not isinstance(b, dict) or not isinstance(b.get("wagers"), dict) or not b["wagers"]:
                raise InvalidInput("a bet behind needs wagers", field=f"{f}.behind[{j}].wagers")
            bw = {str(k): fmt(parse_amount(v, field=f"{f}.behind[{j}].wagers.{k}")) for k, v in b["wagers"].items()}
            entry["behind"].append({**b, "wagers": bw})
        out.append(entry)
    numbers = [s["seat"] for s in out]
    if len(set(numbers)) != len(numbers):
        raise InvalidInput("a seat appears twice", field="seats")
    setup: dict[str, Any] = {"seats": out}
    if isinstance(seats_dealer := _dealer_of(seats), str):
        setup["dealer"] = seats_dealer
    return setup


def _dealer_of(seats: list[Any]) -> str | None:
    """The seat marked ``"dealer": true`` in a player-dealt game (Bluffjack), by player name."""
    for s in seats:
        if isinstance(s, dict) and s.get("dealer") is True:
            return str(s.get("player") or f"seat {s.get('seat')}")
    return None


def _check_limits(table: Table, setup: dict[str, Any]) -> None:
    """Every bet within the table's limits for its kind, and no more bets behind a seat than the table allows."""

    def within(kind: str, amount: str, field: str) -> None:
        lo, hi = table.limits(kind)
        if not lo <= Decimal(amount) <= hi:
            name = {"main": "main bet", "ante": "ante", "behind": "bet behind", "perfect-pairs": "Perfect Pairs bet",
                    "21+3": "21+3 bet"}.get(kind, f"{kind} bet")
            raise InvalidInput(f"the {name} must be between {fmt(lo)} and {fmt(hi)} at this table", field=field)

    for i, seat in enumerate(setup["seats"]):
        for kind, amount in seat["wagers"].items():
            within(kind, amount, f"seats[{i}].wagers.{kind}")
        behind = seat.get("behind", [])
        if len(behind) > table.max_bets_behind:
            raise InvalidInput(f"at most {table.max_bets_behind} bets behind a seat at this table",
                               field=f"seats[{i}].behind")  # fmt: skip
        for j, b in enumerate(behind):
            for kind, amount in b["wagers"].items():
                within("behind" if kind == "main" else kind, amount, f"seats[{i}].behind[{j}].wagers.{kind}")


def round_open(*, table: Table, seats: object, actor: Any, bluffjack_game: BluffjackGame | None = None) -> Round:
    """Open a round with its wagers (side bets and bets behind included) on the current shoe.

    Bluffjack: a hand opened with the stacks the dealer entered starts a new game at the table
    (refused while one is playing); the game's next hands come through ``bluffjack_hand_open``.
    """
    with transaction.atomic():
        table = _lock_table(table)
        check_right(actor, table)
        if Round.objects.filter(table=table, state__in=(RoundState.IN_PLAY, RoundState.PAUSED)).exists():
            raise Conflict("a round is already in play at this table")
        shoe = current_shoe(table)
        if shoe is None:
            raise Conflict("shuffle the shoe before the first round")
        if engine_shoe(shoe).shuffle_due:
            raise Conflict("the shoe must be shuffled before the next round")
        setup = _setup_of(seats)
        _check_limits(table, setup)
        game = table.game.slug
        if bluffjack_game is not None:
            setup.update(carry=bluffjack_game.carry, house=bluffjack_game.house, set_aside=bluffjack_game.set_aside)
        elif game == "bluffjack":
            playing = BluffjackGame.objects.filter(table=table, state=GameState.PLAYING).first()
            if playing is not None:
                raise Conflict(f"Bluffjack game {playing.number} is playing at this table: deal its next hand "
                               "(the stacks carry over) or end it first")  # fmt: skip
        rules_params = dict(table.rule_set.params)
        pay_lines = table.pay_table.as_engine_json()
        table_minimum = table.min_bet
        # Let the engine validate the setup (side-bet names, insurance, behind presets, seat counts).
        live.start(game, rules_params, pay_lines, table_minimum, setup, engine_shoe(shoe))
        if game == "bluffjack" and bluffjack_game is None:
            bluffjack_game = _bluffjack_game_new(table, setup, rules_params, actor)
        number = (Round.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0) + 1
        round = Round.objects.create(
            table=table, shoe=shoe, number=number, game=game, rule_set=table.rule_set,
            pay_table=table.pay_table, rules=rules_params, pay_table_lines=pay_lines,
            table_minimum=table_minimum, setup=setup, opened_by=actor, bluffjack_game=bluffjack_game,
        )  # fmt: skip
        for seat in setup["seats"]:
            for kind, amount in seat["wagers"].items():
                Wager.objects.create(round=round, seat=seat["seat"], kind=kind, amount=Decimal(amount))
            for j, b in enumerate(seat["behind"]):
                for kind, amount in b["wagers"].items():
                    Wager.objects.create(round=round, seat=seat["seat"], kind=kind, behind=j, amount=Decimal(amount))
        round.prompt = live.next_step_json(round.game, _replay(round))
        round.save(update_fields=["prompt"])
        audit(actor=actor, action="round.open", table=table, round=round, payload=setup)
        return round


def _next_seq(round: Round) -> int:
    a = RoundCard.objects.filter(round=round).aggregate(n=Max("seq"))["n"] or 0
    b = Decision.objects.filter(round=round).aggregate(n=Max("seq"))["n"] or 0
    return max(a, b) + 1


@dataclass(frozen=True)
class ScanResult:
    """What a scan gave: the cards recorded, or the candidates the dealer must confirm."""

    round: Round
    scan: Scan
    recorded: list[RoundCard]
    needs_confirmation: bool
    candidates: list[dict[str, Any]]
    guesses: list[dict[str, Any]] = field(default_factory=list)


def _valid_code(code: str) -> bool:
    try:
        parse_card(code)
    except (InvalidInput, ValueError):
        return False
    return len(code) <= 3


def scan_guesses(found: list[dict[str, Any]], shoe: EngineShoe | None, limit: int = 4) -> list[dict[str, Any]]:
    """The reader's best guesses for an unsure scan: valid card codes the shoe can still deal, with
    their confidence, best first (a read code counts as a guess, an "unknown" one brings its guesses)."""
    best: dict[str, float] = {}
    for c in found:
        for g in [c, *(c.get("guesses") or [])]:
            code, conf = str(g.get("code", "")), float(g.get("confidence", 0.0))
            if not _valid_code(code):
                continue
            code = parse_card(code).code
            if shoe is not None:
                try:
                    shoe.verify_deal(parse_card(code))
                except (InvalidInput, ValueError):
                    continue
            best[code] = max(best.get(code, 0.0), conf)
    ranked = sorted(best.items(), key=lambda kv: -kv[1])[:limit]
    return [{"code": k, "confidence": round(v, 4)} for k, v in ranked]


def _record_card(round: Round, state: Any, card_code: str, *, actor: Any, field: str,
                 scan: Scan | None = None, reading: Mapping[str, Any] | None = None) -> RoundCard:
    """Deal the card that is due and store it; a card that arrives while a hand may hit is its hit."""
    card = parse_card(card_code, field=field)
    shoe = engine_shoe(round.shoe) if round.shoe_id else None
    if shoe is not None:
        try:
            shoe.verify_deal(card)  # an impossible card for this shoe is refused
        except InvalidCard as exc:
            raise InvalidCard(exc.message, field=field) from None
    prompt = live.next_step(round.game, state)
    if prompt.needs == "decision" and "hit" in prompt.allowed and live.draws_card(round.game, "hit"):
        # A card dealt while a hand is to decide is that hand's hit (the card says it all); the
        # engine still refuses a hit the rules forbid.
        _record_decision(round, state, prompt, actor=actor, action="hit")
        prompt = live.next_step(round.game, state)
    if prompt.needs != "card":
        raise Conflict(f"no card is expected now: {prompt.reason or prompt.needs}")
    to = prompt.actor or "dealer"
    live.deal(round.game, state, card)
    seq = _next_seq(round)
    recognised = str(reading.get("code", "")) if reading else ""
    if recognised and not _valid_code(recognised):
        recognised = ""  # an unsure read ("unknown"): nothing was recognised, the dealer named the card
    corrected = bool(recognised) and recognised != card.code
    rc = RoundCard.objects.create(
        round=round, seq=seq, shoe_position=(shoe.cards_dealt + 1) if shoe else None,
        to=to, code=card.code, source=CardSource.SCAN if scan else CardSource.MANUAL,
        scan=scan, image=scan.image.name if scan else None, image_sha256=scan.sha256 if scan else "",
        recognised_code=recognised, confidence=reading.get("confidence") if reading else None,
        recorded_by=actor,
        corrected_from=recognised if corrected else "",
        corrected_by=actor if corrected else None,
        corrected_at=timezone.now() if corrected else None,
        correction_reason="dealer picked the card after a low-confidence scan" if corrected else "",
    )  # fmt: skip
    if shoe is not None:
        Shoe.objects.filter(pk=round.shoe_id).update(cards_dealt=shoe.cards_dealt + 1)
    return rc


def round_add_card(*, round: Round | int, code: str, actor: Any, scan: int | None = None,
                   expected_version: int | None = None) -> Round:
    """Add the next card by its code (typed, or confirmed/picked after a scan)."""
    with transaction.atomic():
        round = _lock_round(round, expected_version)
        check_right(actor, round.table)
        _require_state(round, RoundState.IN_PLAY, doing="add a card")
        scan_row, reading = None, None
        if scan is not None:
            scan_row = Scan.objects.filter(pk=scan, round=round).first()
            if scan_row is None:
                raise InvalidInput(f"no scan {scan} in this round", field="scan")
            if scan_row.cards.exists():
                raise Conflict("this scan's card is already recorded")
            reading = max(scan_row.recognised, key=lambda r: r.get("confidence", 0), default=None)
        state = _replay(round)
        rc = _record_card(round, state, code, actor=actor, field="code", scan=scan_row, reading=reading)
        _bump(round, prompt=live.next_step_json(round.game, state))
        audit(actor=actor, action="round.card", table=round.table, round=round,
              payload={"code": rc.code, "to": rc.to, "seq": rc.seq, "scan": scan_row.sha256 if scan_row else None,
                       "recognised": rc.recognised_code or None})  # fmt: skip
        return round


def decode_image(data: bytes) -> Any:
    """Decode an uploaded image into an array (H, W, 3); a corrupt or empty file is ``InvalidInput``."""
    import cv2  # imported here: only scan uploads need OpenCV
    import numpy as np

    check_image_header(data)
    try:
        array = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    except (cv2.error, ValueError, MemoryError):  # a header that lied about the size, a truncated stream
        array = None
    if array is None or array.ndim != 3 or array.shape[0] < 8 or array.shape[1] < 8:
        raise InvalidInput("the file is not a readable image (JPEG or PNG expected)", field="image")
    return array


def check_image_header(data: bytes) -> tuple[int, int]:
    """The image's (width, height) read from its header alone; refuse what is not a JPEG or PNG, or too large.

    Decoding is what costs memory (a 2.6 MB PNG of 30000 x 30000 pixels decodes to 2.7 GB), so the
    size is judged from the header before a single pixel is decoded.
    """
    if not data:
        raise InvalidInput("the image is empty", field="image")
    if len(data) > MAX_IMAGE_BYTES:
        raise InvalidInput(f"the image is larger than {MAX_IMAGE_BYTES // (1024 * 1024)} MB", field="image")
    try:
        with Image.open(io.BytesIO(data)) as img:  # lazy: reads the header only
            kind, (width, height) = img.format, img.size
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        raise InvalidInput("the file is not a readable image (JPEG or PNG expected)", field="image") from None
    except Image.DecompressionBombError:  # Pillow's own refusal, far above ours
        raise InvalidInput(f"the image has far more than {MAX_IMAGE_PIXELS // 1_000_000} megapixels", field="image") from None
    if kind not in ("JPEG", "PNG"):
        raise InvalidInput(f"a {kind} image is not accepted (JPEG or PNG expected)", field="image")
    if width > MAX_IMAGE_SIDE or height > MAX_IMAGE_SIDE or width * height > MAX_IMAGE_PIXELS:
        raise InvalidInput(f"the image is {width} x {height} pixels; at most {MAX_IMAGE_SIDE} pixels a side and "
                           f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels are accepted", field="image")  # fmt: skip
    return width, height


def recognise(image: Any) -> list[dict[str, Any]]:
    """Run vision on a decoded image; cards left to right as plain dicts."""
    try:
        import vision
    except ImportError:
        raise InvalidInput("card recognition is not available on this server: enter the card", field="image") from None
    recognize = getattr(vision, "recognize", None)
    if recognize is None:  # the package is being written (an empty folder imports as a namespace package)
        raise InvalidInput("card recognition is not available on this server: enter the card", field="image")

    found = []
    for c in recognize(image):
        item = c if isinstance(c, dict) else {k: getattr(c, k) for k in ("code", "confidence", "corners")}
        corners = [[float(x), float(y)] for x, y in item.get("corners", [])]
        entry: dict[str, Any] = {"code": str(item["code"]), "confidence": float(item["confidence"]), "corners": corners}
        guesses = item.get("guesses") if isinstance(item, dict) else getattr(c, "guesses", None)
        if guesses:  # an unsure read ("unknown"): the reader's best guesses, kept for the dealer to confirm
            entry["guesses"] = [{"code": str(g["code"]), "confidence": float(g["confidence"])}
                                for g in guesses if isinstance(g, dict) and "code" in g][:8]
        found.append(entry)
    found.sort(key=lambda c: min((p[0] for p in c["corners"]), default=0.0))
    return found


@dataclass(frozen=True)
class ScanReading:
    """An uploaded scan read by vision, before anything is stored: its bytes, hash and cards found."""

    image: bytes
    sha256: str
    found: list[dict[str, Any]]


def scan_precheck(*, round: Round, actor: Any) -> None:
    """Refuse a scan before any expensive work: who may act at the table, and whether the round takes cards."""
    check_right(actor, round.table)
    _require_state(round, RoundState.IN_PLAY, doing="add a card")


def scan_read(image: bytes) -> ScanReading:
    """Check the image's header, decode it and read its cards; no database work (runs outside any transaction)."""
    found = recognise(decode_image(image))
    return ScanReading(image, hashlib.sha256(image).hexdigest(), found)


def round_scan_card(*, round: Round | int, reading: ScanReading, actor: Any,
                    expected_version: int | None = None) -> ScanResult:
    """Store a scan already read by ``scan_read`` and record its cards when the reading is confident.

    A reading below the confidence threshold (or no card, or a card the shoe cannot hold) records
    nothing: the tablet shows the candidates and the dealer confirms or picks the card, which then
    comes through ``round_add_card`` with the scan's id.
    """
    found, sha, image = reading.found, reading.sha256, reading.image
    with transaction.atomic():
        round = _lock_round(round, expected_version)
        scan_precheck(round=round, actor=actor)  # again under the lock: the round may have moved on
        scan = Scan(round=round, sha256=sha, recognised=found, uploaded_by=actor)
        ext = ".jpg" if image[:3] == b"\xff\xd8\xff" else ".png"
        scan.image.save(f"{sha[:16]}{ext}", ContentFile(image), save=False)
        scan.save()
        state = _replay(round)
        confident = bool(found) and all(c["confidence"] >= scan_confidence() for c in found)
        recorded: list[RoundCard] = []
        if confident:
            try:
                with transaction.atomic():
                    for c in found:
                        recorded.append(_record_card(round, state, c["code"], actor=actor, field="image",
                                                     scan=scan, reading=c))  # fmt: skip
            except (InvalidInput, RuleViolation, Conflict):
                # An impossible or unexpected reading: ask the dealer rather than refuse the scan.
                recorded = []
                state = _replay(round)
        _bump(round, prompt=live.next_step_json(round.game, state))
        audit(actor=actor, action="round.scan", table=round.table, round=round,
              payload={"sha256": sha, "recognised": found, "recorded": [r.code for r in recorded]})  # fmt: skip
        guesses = [] if recorded else scan_guesses(found, engine_shoe(round.shoe) if round.shoe_id else None)
        return ScanResult(round, scan, recorded, needs_confirmation=not recorded, candidates=found, guesses=guesses)


def _record_decision(round: Round, state: Any, prompt: Prompt, *, actor: Any, action: str,
                     amount: Decimal | None = None) -> Decision:
    """Apply a decision of the actor whose turn it is to the engine and store it (refused by the rules → 422)."""
    who = prompt.actor or ""
    live.decide(round.game, state, who, action, amount)
    return Decision.objects.create(round=round, seq=_next_seq(round), actor=who, action=action, amount=amount,
                                   forced=prompt.forced == action, recorded_by=actor)  # fmt: skip


def round_decide(*, round: Round | int, action: str, actor: Any, who: str | None = None,
                 amount: object = None, card: str | None = None, expected_version: int | None = None) -> Round:
    """Record a decision (hit, stand, double, split, insurance, fold, call, raise, ...)."""
    with transaction.atomic():
        round = _lock_round(round, expected_version)
        check_right(actor, round.table)
        _require_state(round, RoundState.IN_PLAY, doing="record a decision")
        value = None if amount in (None, "") else parse_amount(amount, field="amount")
        state = _replay(round)
        prompt = live.next_step(round.game, state)
        if prompt.needs != "decision":
            raise Conflict(f"no decision is expected now: {prompt.reason or prompt.needs}")
        who = who or prompt.actor or ""
        if who != prompt.actor:
            raise Conflict(f"it is {prompt.actor}'s turn, not {who}'s")
        if card and not live.draws_card(round.game, action):
            raise InvalidInput(f"a {action} draws no card", field="card")
        _record_decision(round, state, prompt, actor=actor, action=action, amount=value)
        # A hit or double may carry its card; without one, the next card dealt (picked or scanned)
        # is its card: the prompt now asks for it.
        drawn = _record_card(round, state, card, actor=actor, field="card").code if card else None
        _bump(round, prompt=live.next_step_json(round.game, state))
        audit(actor=actor, action="round.decision", table=round.table, round=round,
              payload={"who": who, "action": action, "amount": fmt(value) if value is not None else None,
                       "card": drawn})  # fmt: skip
        return round


def _needs_approval(lines: list[dict[str, Any]]) -> str:
    """Why the payout needs a pit boss before paying ("" when it does not)."""
    for line in lines:
        net, wager = Decimal(line["net"]), Decimal(line["wager"])
        if net >= approval_amount():
            return f"seat {line['seat']} {line['bet']} pays {fmt(net)} (limit {fmt(approval_amount())})"
        if wager > 0 and net >= approval_multiple() * wager:
            return f"seat {line['seat']} {line['bet']} pays {net / wager:.0f}× the wager"
    return ""


def _store_settlement(round: Round, state: Any) -> list[dict[str, Any]]:
    seats = live.settle(round.game, state)
    if round.bluffjack_game_id:
        _bluffjack_carry(round, state)
    # Append-only: a re-settlement (a pit boss's correction) supersedes the lines it replaces.
    SettlementLine.objects.filter(round=round, superseded=False).update(superseded=True)
    lines: list[dict[str, Any]] = []
    due: dict[str, dict[str, str]] = {}
    for seat, seat_lines in seats:
        for ln in seat_lines:
            SettlementLine.objects.create(
                round=round, seat=seat, bet=ln.bet, wager=ln.wager, result=ln.result, net=ln.net,
                detail=ln.detail[:300], hand=ln.hand, behind=ln.behind,
            )  # fmt: skip
            lines.append({"seat": seat, **ln.as_json()})
        from tables.engine.settlement import due_by_kind

        due[str(seat)] = {k: fmt(v) for k, v in due_by_kind(seat_lines).items() if v > 0}
    round.due = due
    return lines


def _seat_lines(round: Round) -> dict[int, list[Any]]:
    from tables.engine.settlement import SettlementLine as EngineLine

    out: dict[int, list[Any]] = {}
    for ln in SettlementLine.objects.filter(round=round, superseded=False):
        out.setdefault(ln.seat, []).append(
            EngineLine(ln.bet, ln.wager, ln.result, ln.net, ln.detail, ln.hand, ln.behind)
        )
    return out


def round_settle(*, round: Round | int, actor: Any, expected_version: int | None = None) -> Round:
    """Settle a round the engine says is over: settlement lines, what is due, the approval flag."""
    with transaction.atomic():
        round = _lock_round(round, expected_version)
        check_right(actor, round.table)
        _require_state(round, RoundState.IN_PLAY, doing="settle")
        state = _replay(round)
        prompt = live.next_step(round.game, state)
        if prompt.needs != "settle" and prompt.phase != "settled":
            raise Conflict(f"the round is not over: {prompt.reason or prompt.needs}")
        lines = _store_settlement(round, state)
        why = _needs_approval(lines)
        _bump(round, state=RoundState.SETTLED, settled_at=timezone.now(), due=round.due,
              approval_required=bool(why), approval_reason=why, prompt=live.next_step_json(round.game, state))  # fmt: skip
        audit(actor=actor, action="round.settle", table=round.table, round=round,
              payload={"lines": lines, "due": round.due, "approval_required": why})
        return round


def _parse_paid(paid: object) -> dict[str, dict[str, Decimal]]:
    if not isinstance(paid, dict):
        raise InvalidInput("paid must map seat number to {bet kind: amount}", field="paid")
    out: dict[str, dict[str, Decimal]] = {}
    for seat, kinds in paid.items():
        if not str(seat).isdigit():
            raise InvalidInput("seat keys must be seat numbers", field=f"paid.{seat}")
        if not isinstance(kinds, dict):
            raise InvalidInput("a seat's payment must map bet kind to amount", field=f"paid.{seat}")
        out[str(int(seat))] = {
            str(k): parse_amount(v, field=f"paid.{seat}.{k}", allow_zero=True) for k, v in kinds.items()
        }
    return out


def _close_if_balanced(round: Round) -> list[dict[str, Any]]:
    """Compare what was paid with what is due; close the round when they agree."""
    by_seat = _seat_lines(round)
    found: list[dict[str, Any]] = []
    for seat, seat_lines in sorted(by_seat.items()):
        paid = {k: Decimal(v) for k, v in round.paid.get(str(seat), {}).items()}
        found += engine_discrepancies(seat, seat_lines, paid)
    return found


def round_record_paid(*, round: Round | int, paid: object, actor: Any, expected_version: int | None = None) -> Round:
    """Record what the dealer handed over; paid ≠ due keeps the round open (the interlock)."""
    with transaction.atomic():
        round = _lock_round(round, expected_version)
        check_right(actor, round.table)
        _require_state(round, RoundState.SETTLED, RoundState.MISMATCH, doing="record a payment")
        amounts = _parse_paid(paid)
        unknown = set(amounts) - {str(s) for s in _seat_lines(round)}
        if unknown:
            raise InvalidInput(f"seat {sorted(unknown)[0]} has no bet in this round", field=f"paid.{sorted(unknown)[0]}")
        if round.approval_required and not round.approvals.filter(kind=ApprovalKind.LARGE_PAYOUT).exists():
            raise Conflict(f"this payout needs a pit boss's approval before paying: {round.approval_reason}")
        # A later payment record replaces the earlier one (the dealer paid the difference).
        Payment.objects.filter(round=round, superseded=False).update(superseded=True)
        for seat, kinds in amounts.items():
            for kind, amount in kinds.items():
                Payment.objects.create(round=round, seat=int(seat), kind=kind, amount=amount, recorded_by=actor)
        round.paid = {s: {k: fmt(v) for k, v in kinds.items()} for s, kinds in amounts.items()}
        found = _close_if_balanced(round)
        now = timezone.now()
        _bump(round, paid=round.paid, discrepancies=found,
              state=RoundState.MISMATCH if found else RoundState.CLOSED,
              closed_at=None if found else now)  # fmt: skip
        audit(actor=actor, action="round.paid", table=round.table, round=round,
              payload={"paid": round.paid, "discrepancies": found})
        return round


def round_approve(*, round: Round | int, reason: str, actor: Any, expected_version: int | None = None) -> Round:
    """A pit boss approves: a payout above the limit (before paying), or a paid ≠ due mismatch (closes it)."""
    check_pit_boss(actor)
    reason = required_reason(reason, "an approval")
    with transaction.atomic():
        round = _lock_round(round, expected_version)
        if round.state == RoundState.MISMATCH:
            kind = ApprovalKind.MISMATCH
            Approval.objects.create(round=round, kind=kind, reason=reason[:300], approved_by=actor,
                                    payload={"discrepancies": round.discrepancies})  # fmt: skip
            _bump(round, state=RoundState.CLOSED, closed_at=timezone.now())
        elif round.state == RoundState.SETTLED and round.approval_required:
            kind = ApprovalKind.LARGE_PAYOUT
            if round.approvals.filter(kind=kind).exists():
                raise Conflict("this payout is already approved")
            Approval.objects.create(round=round, kind=kind, reason=reason[:300], approved_by=actor,
                                    payload={"due": round.due, "why": round.approval_reason})  # fmt: skip
            _bump(round)
        else:
            raise Conflict(f"nothing to approve: round {round.number} is {RoundState(round.state).label}")
        audit(actor=actor, action=f"round.approve.{kind}", table=round.table, round=round, payload={"reason": reason})
        return round


def round_pause(*, round: Round | int, actor: Any, reason: str = "", expected_version: int | None = None) -> Round:
    """Pause a round in play (player away, dispute, table incident)."""
    with transaction.atomic():
        round = _lock_round(round, expected_version)
        check_right(actor, round.table)
        _require_state(round, RoundState.IN_PLAY, doing="pause")
        _bump(round, state=RoundState.PAUSED, paused_at=timezone.now())
        audit(actor=actor, action="round.pause", table=round.table, round=round, payload={"reason": reason})
        return round


def round_resume(*, round: Round | int, actor: Any, expected_version: int | None = None) -> Round:
    """Resume a paused round where it was."""
    with transaction.atomic():
        round = _lock_round(round, expected_version)
        check_right(actor, round.table)
        _require_state(round, RoundState.PAUSED, doing="resume")
        _bump(round, state=RoundState.IN_PLAY, paused_at=None)
        audit(actor=actor, action="round.resume", table=round.table, round=round)
        return round


def round_cancel(*, round: Round | int, reason: str, actor: Any, expected_version: int | None = None) -> Round:
    """Cancel a round that cannot be completed: every wager is refunded (rules: initial bets refunded)."""
    reason = required_reason(reason, "a cancellation")
    with transaction.atomic():
        round = _lock_round(round, expected_version)
        check_right(actor, round.table)
        _require_state(round, RoundState.IN_PLAY, RoundState.PAUSED, doing="cancel")
        # The refunds are the engine's (a double's and insurance's stakes included), stored as they come.
        refunds = []
        for seat, lines in live.cancel(round.game, _replay(round), reason):
            for ln in lines:
                SettlementLine.objects.create(round=round, seat=seat, bet=ln.bet, wager=ln.wager, result=ln.result,
                                              net=ln.net, detail=ln.detail[:300], hand=ln.hand, behind=ln.behind)  # fmt: skip
                refunds.append({"seat": seat, "kind": ln.bet, "hand": ln.hand, "behind": ln.behind,
                                "amount": fmt(ln.wager)})  # fmt: skip
        round.wagers.update(refunded=True)
        _bump(round, state=RoundState.CANCELLED, closed_at=timezone.now(), due={}, paid={}, discrepancies=[],
              prompt={"phase": "cancelled", "actor": None, "needs": "none", "allowed": [], "forced": None,
                      "reason": f"cancelled: {reason}; every wager refunded"})  # fmt: skip
        audit(actor=actor, action="round.cancel", table=round.table, round=round,
              payload={"reason": reason, "refunds": refunds})
        return round


def card_correct(*, round: Round | int, seq: int, code: str, reason: str, actor: Any,
                 expected_version: int | None = None) -> Round:
    """Correct a recorded card (audited).  Before settlement the dealer may; after it, a pit boss only.

    The round is replayed with the corrected card; after settlement it is settled again and the
    payment compared anew, so a correction can close (or reopen) a mismatch.
    """
    reason = required_reason(reason, "a correction")
    with transaction.atomic():
        round = _lock_round(round, expected_version)
        check_right(actor, round.table)
        if round.state in (RoundState.SETTLED, RoundState.MISMATCH, RoundState.CLOSED):
            check_pit_boss(actor)
        elif round.state != RoundState.IN_PLAY:
            raise Conflict(f"cannot correct a card: round {round.number} is {RoundState(round.state).label}")
        rc = RoundCard.objects.filter(round=round, seq=seq).first()
        if rc is None:
            raise InvalidInput(f"no card number {seq} in this round", field="seq")
        new = parse_card(code, field="code")
        old = rc.code
        if new.code == old:
            raise InvalidInput("the card already has this code", field="code")
        rc.code = new.code
        rc.corrected_from = rc.corrected_from or old
        rc.corrected_by, rc.corrected_at, rc.correction_reason = actor, timezone.now(), reason[:300]
        rc.save()
        if round.shoe_id:
            engine_shoe(round.shoe)  # the corrected card must still be possible for the shoe
        state = _replay(round)  # RuleViolation/InvalidInput: the correction breaks the round → refused
        payload: dict[str, Any] = {"seq": seq, "from": old, "to": new.code, "reason": reason}
        if round.state in (RoundState.SETTLED, RoundState.MISMATCH, RoundState.CLOSED):
            prompt = live.next_step(round.game, state)
            if prompt.needs != "settle" and prompt.phase != "settled":
                raise Conflict(f"after this correction the round is not over ({prompt.reason}); cancel it instead")
            lines = _store_settlement(round, state)
            fields: dict[str, Any] = {"due": round.due}
            if round.paid:
                found = _close_if_balanced(round)
                fields.update(discrepancies=found, state=RoundState.MISMATCH if found else RoundState.CLOSED,
                              closed_at=None if found else timezone.now())  # fmt: skip
            payload["lines"] = lines
        else:
            fields = {}
        _bump(round, prompt=live.next_step_json(round.game, state), **fields)
        audit(actor=actor, action="round.card.correct", table=round.table, round=round, payload=payload)
        return round


def round_settle_interrupted(*, round: Round | int, actor: Any | None = None) -> str:
    """Mini Blackjack rule: a round left unresumed 48 hours settles as if the player stood.

    Returns what was done: ``settled``, ``awaiting-dealer`` (the dealer's hand still needs cards, so
    the round goes back in play for the dealer to finish), or ``skipped`` (already handled, not due,
    or not Mini Blackjack — other games wait for a pit boss).
    """
    with transaction.atomic():
        round = _lock_round(round)
        if round.state != RoundState.PAUSED or not round.paused_at:
            return "skipped"
        state = _replay(round)
        # The rule (which games, after how long: Mini Blackjack 48 hours) is the engine's.
        try:
            taken = live.stand_interrupted(round.game, state, timezone.now())
        except RuleViolation:
            return "skipped"
        for event in taken:
            Decision.objects.create(round=round, seq=_next_seq(round), actor=event.actor, action=event.action,
                                    forced=True, recorded_by=round.opened_by)  # fmt: skip
        stood = len(taken)
        prompt = live.next_step(round.game, state)
        if prompt.needs == "settle" or prompt.phase == "settled":
            lines = _store_settlement(round, state)
            why = _needs_approval(lines)
            _bump(round, state=RoundState.SETTLED, settled_at=timezone.now(), paused_at=None, due=round.due,
                  approval_required=bool(why), approval_reason=why, prompt=live.next_step_json(round.game, state))  # fmt: skip
            outcome = "settled"
        else:
            _bump(round, state=RoundState.IN_PLAY, paused_at=None, prompt=live.next_step_json(round.game, state))
            outcome = "awaiting-dealer"
        audit(actor=actor, action="round.interrupted", table=round.table, round=round,
              payload={"outcome": outcome, "auto_stands": stood, "rule": "mini-blackjack 48 h"})
        return outcome


# ---------------------------------------------------------------------------------------------
# Bluffjack games: stacks carried from hand to hand


def _bluffjack_game_new(table: Table, setup: dict[str, Any], rules_params: dict[str, Any], actor: Any) -> BluffjackGame:
    """A new game at the table from the first hand's seats (the stacks the dealer entered)."""
    starting = int(rules_params.get("starting_chips", 100))
    seats = sorted(setup["seats"], key=lambda s: s["seat"])
    players = [{"seat": s["seat"], "player": bluffjack_name(s)} for s in seats]
    stacks = {bluffjack_name(s): int(s.get("stack", starting)) for s in seats}
    number = (BluffjackGame.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0) + 1
    game = BluffjackGame.objects.create(
        table=table, number=number, players=players, starting_stacks=stacks, stacks=stacks,
        button=setup.get("dealer") or players[0]["player"], started_by=actor,
    )  # fmt: skip
    audit(actor=actor, action="bluffjack.game.start", table=table,
          payload={"game": game.number, "stacks": stacks, "button": game.button})  # fmt: skip
    return game


def _bluffjack_carry(round: Round, state: Any) -> None:
    """After a hand is settled (or re-settled by a correction): the game takes its stacks and button.

    The caller holds the round through ``_lock_round``, which locked the table and this game before it.
    """
    game = BluffjackGame.objects.select_for_update().get(pk=round.bluffjack_game_id)
    if game.hands.filter(number__gt=round.number).exclude(state=RoundState.CANCELLED).exists():
        # The next hands were played from these stacks: re-settling this one would rewrite them.
        raise Conflict("a later hand of this Bluffjack game was played from these stacks: cancel or correct it first")
    after = bluffjack_after(state)
    done = game.hands.exclude(pk=round.pk).exclude(
        state__in=(RoundState.IN_PLAY, RoundState.PAUSED, RoundState.CANCELLED)).count()  # fmt: skip
    game.stacks = {**game.stacks, **after["stacks"]}
    game.button, game.house, game.set_aside, game.carry = after["button"], after["house"], after["set_aside"], after["carry"]
    game.hands_played = done + 1
    if after["over"]:
        game.state, game.winner, game.finished_at = GameState.OVER, after["winner"], timezone.now()
    elif game.state == GameState.OVER:  # a correction of the last hand undid the win
        if BluffjackGame.objects.filter(table=game.table_id, state=GameState.PLAYING).exists():
            raise Conflict("another Bluffjack game has started at this table since: this hand cannot change the result")
        game.state, game.winner, game.finished_at = GameState.PLAYING, "", None
    game.version += 1
    game.save()
    audit(actor=None, action="bluffjack.carry", table=round.table, round=round,
          payload={"game": game.number, "stacks": game.stacks, "button": game.button, "carry": game.carry,
                   "house": game.house, "set_aside": game.set_aside, "winner": game.winner or None})  # fmt: skip


def _lock_bluffjack(game: BluffjackGame | int, expected_version: int | None = None) -> BluffjackGame:
    """Lock a Bluffjack game for a write, in the lock order: its table, then the game."""
    pk = game.pk if isinstance(game, BluffjackGame) else game
    table = _lock_table(BluffjackGame.objects.values_list("table_id", flat=True).get(pk=pk))
    locked = BluffjackGame.objects.select_for_update().get(pk=pk)
    locked.table = table
    if expected_version is not None and locked.version != expected_version:
        raise Conflict(f"the game changed meanwhile (version {locked.version}, you had {expected_version}); reload it")
    return locked


def bluffjack_hand_open(*, game: BluffjackGame | int, actor: Any, expected_version: int | None = None) -> Round:
    """Open the game's next hand from the carried stacks; the button has passed left, the broke sit out.

    Bluffjack reshuffles before every hand, so the shuffle is recorded here when it is due.
    """
    with transaction.atomic():
        game = _lock_bluffjack(game, expected_version)  # the table, then the game
        table = game.table
        check_right(actor, table)
        if game.state != GameState.PLAYING:
            raise Conflict(f"Bluffjack game {game.number} is {GameState(game.state).label}"
                           + (f": {game.winner} holds every chip" if game.winner else ""))  # fmt: skip
        if game.hands.filter(state__in=(RoundState.IN_PLAY, RoundState.PAUSED)).exists():
            raise Conflict("a hand of this game is in play")
        shoe = current_shoe(table)
        if shoe is None or engine_shoe(shoe).shuffle_due:
            shoe_shuffle(table=table, actor=actor, reason=f"Bluffjack: reshuffle before hand {game.hands_played + 1}")
        seats = [{"seat": p["seat"], "player": p["player"], "stack": int(game.stacks.get(p["player"], 0)),
                  "dealer": p["player"] == game.button}
                 for p in game.players if int(game.stacks.get(p["player"], 0)) > 0]  # fmt: skip
        game.version += 1
        game.save(update_fields=["version", "updated_at"])
        return round_open(table=table, seats=seats, actor=actor, bluffjack_game=game)


def bluffjack_game_end(*, game: BluffjackGame | int, reason: str, actor: Any,
                       expected_version: int | None = None) -> BluffjackGame:
    """End a game before one player holds every chip (players leave); the stacks stay on record."""
    reason = required_reason(reason, "ending a game")
    with transaction.atomic():
        game = _lock_bluffjack(game, expected_version)
        check_right(actor, game.table)
        if game.state != GameState.PLAYING:
            raise Conflict(f"Bluffjack game {game.number} is already {GameState(game.state).label}")
        if game.hands.filter(state__in=(RoundState.IN_PLAY, RoundState.PAUSED)).exists():
            raise Conflict("a hand of this game is in play: finish or cancel it first")
        game.state, game.finished_at = GameState.ENDED, timezone.now()
        game.version += 1
        game.save()
        audit(actor=actor, action="bluffjack.game.end", table=game.table,
              payload={"game": game.number, "reason": reason, "stacks": game.stacks})  # fmt: skip
        return game


# ---------------------------------------------------------------------------------------------
# Alerts: the pit boss's decisions


def round_reject(*, round: Round | int, reason: str, actor: Any, expected_version: int | None = None) -> Round:
    """A pit boss refuses a payout as it stands (the dealer must pay again, or not pay); audited."""
    check_pit_boss(actor)
    reason = required_reason(reason, "a rejection")
    with transaction.atomic():
        locked = _lock_round(round, expected_version)  # the one lock order: table, game, round
        if locked.state not in (RoundState.MISMATCH, RoundState.SETTLED):
            raise Conflict(f"nothing to reject: round {locked.number} is {RoundState(locked.state).label}")
        AlertDecision.objects.create(round=locked, decision="reject", reason=reason[:300], by=actor,
                                     round_version=locked.version)  # fmt: skip
        audit(actor=actor, action="round.reject", table=locked.table, round=locked,
              payload={"reason": reason, "state": locked.state, "discrepancies": locked.discrepancies})
        return locked


def finding_acknowledge(*, finding: int, reason: str, actor: Any) -> AuditFinding:
    """A pit boss acknowledges an audit finding, once, with a reason; audited."""
    check_pit_boss(actor)
    reason = required_reason(reason, "an acknowledgement")
    with transaction.atomic():
        claimed = AuditFinding.objects.filter(pk=finding, acknowledged_at__isnull=True).update(
            acknowledged_by=actor, acknowledged_at=timezone.now(), acknowledgement=reason[:300])
        if not claimed:
            raise Conflict("this finding is already acknowledged")
        f = AuditFinding.objects.select_related("table").get(pk=finding)
        AlertDecision.objects.create(finding=f, decision="acknowledge", reason=reason[:300], by=actor)
        audit(actor=actor, action="audit.finding.acknowledge", table=f.table,
              payload={"finding": f.pk, "rule": f.rule, "reason": reason})
        return f
