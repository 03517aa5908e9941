"""Rounds, the live flow: open, cards, decisions, settlement, payment, approval, pause, cancel, corrections,
and the settlement after an interruption.  The engine decides; these store what it returns."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from tables.access import check_pit_boss, check_right
from tables.analysis.blackjack import hint_chart
from tables.engine import live, witness
from tables.engine.cards import parse_card
from tables.engine.errors import InvalidCard, InvalidInput, RuleViolation
from tables.engine.games import game as game_spec
from tables.engine.money import fmt, parse_amount
from tables.engine.round import Prompt
from tables.engine.settlement import discrepancies as engine_discrepancies
from tables.errors import Conflict
from tables.models import (
    Approval,
    ApprovalKind,
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
    Table,
    Wager,
)
from tables.selectors.rounds import (
    asked_card,
    asked_guesses,
    asked_why,
    current_shoe,
    engine_shoe,
    pending_scan_question,
    pending_scan_row,
    read_candidates,
)
from tables.selectors.rounds import round_state as _replay
from tables.services.common import (
    _bump,
    _lock_round,
    _lock_table,
    _require_state,
    approval_amount,
    approval_multiple,
    audit,
    required_reason,
    scan_confidence,
)
from tables.services.stacks import _bluffjack_carry, _bluffjack_game_new
from tables.services.tables import shoe_shuffle


def _prompt(game: str, state: Any) -> dict[str, Any]:
    """The round's prompt as JSON. A game whose rules publish hints (the registry's "hints") reads them
    from the strategy the game math computed for its rule set, handed to the engine as a chart."""
    chart = hint_chart(state.rules) if "hints" in game_spec(game).capabilities else None
    return live.next_step_json(game, state, chart)


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
        game = table.game.slug
        fresh = "fresh-shoe" in game_spec(game).capabilities  # every hand from a fresh shoe: shuffled below
        if shoe is None and not fresh:
            raise Conflict("shuffle the shoe before the first round")
        if shoe is not None and not fresh and engine_shoe(shoe).shuffle_due:
            raise Conflict("the shoe must be shuffled before the next round")
        setup = _setup_of(seats)
        _check_limits(table, setup)
        carries_stacks = "stacks" in game_spec(game).capabilities  # a game of hands (Bluffjack): stacks carry over
        if bluffjack_game is not None:
            setup.update(carry=bluffjack_game.carry, house=bluffjack_game.house, set_aside=bluffjack_game.set_aside)
        elif carries_stacks:
            playing = BluffjackGame.objects.filter(table=table, state=GameState.PLAYING).first()
            if playing is not None:
                raise Conflict(f"Bluffjack game {playing.number} is playing at this table: deal its next hand "
                               "(the stacks carry over) or end it first")  # fmt: skip
        if fresh and (shoe is None or engine_shoe(shoe).cards_dealt):
            # Every hand is dealt from a fresh shoe (the engine's rule): the shuffle is implied, so it is
            # recorded here rather than asked of the dealer, as a shuffle like any other (its event, the
            # players told, an audit event): the shuffle audit still sees every fresh shoe.
            number = (bluffjack_game.hands_played + 1) if bluffjack_game is not None else 1
            shoe = shoe_shuffle(table=table, actor=actor, reason=f"a fresh shoe for hand {number} (every hand)")
        assert shoe is not None
        rules_params = dict(table.rule_set.params)
        pay_lines = table.pay_table.as_engine_json()
        table_minimum = table.min_bet
        # Let the engine validate the setup (side-bet names, insurance, behind presets, seat counts).
        live.start(game, rules_params, pay_lines, table_minimum, setup, engine_shoe(shoe))
        if carries_stacks and bluffjack_game is None:
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
        round.prompt = _prompt(round.game, _replay(round))
        round.save(update_fields=["prompt"])
        audit(actor=actor, action="round.open", table=table, round=round, payload=setup)
        return round


def require_no_pending_scan(round: Round) -> None:
    """Refuse a write while an unsure read waits for the dealer's answer (409, naming the question).

    An unsure read records nothing, but the card it stands for may well have been dealt: a further scan, a
    card keyed in for another purpose, a decision, a settlement or a correction would move the round on
    and drop it silently (every later card landing one place off).  The round takes nothing else until
    the dealer answers (the card confirmed or picked, naming the scan: ``round_add_card``), says it is not a
    card, or drops the scan (``scan_dismiss``: no card was dealt, or it is to be scanned again)."""
    waiting = pending_scan_row(round)
    if waiting is None:
        return
    shoe = engine_shoe(round.shoe) if round.shoe is not None else None
    raise Conflict(pending_scan_question(round, asked_guesses(waiting, shoe), waiting, asked_why(waiting, shoe)))


def _next_seq(round: Round) -> int:
    a = RoundCard.objects.filter(round=round).aggregate(n=Max("seq"))["n"] or 0
    b = Decision.objects.filter(round=round).aggregate(n=Max("seq"))["n"] or 0
    return max(a, b) + 1



def _valid_code(code: str) -> bool:
    try:
        parse_card(code)
    except (InvalidInput, ValueError):
        return False
    return len(code) <= 3


def _record_card(round: Round, state: Any, card_code: str, *, actor: Any, field: str,
                 scan: Scan | None = None, reading: Mapping[str, Any] | None = None) -> RoundCard:
    """Deal the card that is due and store it; a card that arrives while a hand may hit is its hit."""
    card = parse_card(card_code, field=field)
    shoe_row = round.shoe  # (a null foreign key reads as None without a query)
    shoe = engine_shoe(shoe_row) if shoe_row is not None else None
    if shoe is not None:
        try:
            shoe.verify_deal(card)  # an impossible card for this shoe is refused
        except InvalidCard as exc:
            raise InvalidCard(exc.message, field=field) from None
    try:
        arrival = live.arrive(round.game, state, card)  # the engine says what the card is: a hit, or the card due
    except live.NoCardExpected as exc:
        raise Conflict(exc.message) from None
    if arrival.implied_hit is not None:  # stored as the decision it was, before its card
        hit = arrival.implied_hit
        Decision.objects.create(round=round, seq=_next_seq(round), actor=hit.actor or "", action="hit",
                                forced=hit.forced == "hit", recorded_by=actor)  # fmt: skip
    to = arrival.to
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
    if shoe_row is not None and shoe is not None:
        Shoe.objects.filter(pk=shoe_row.pk).update(cards_dealt=shoe.cards_dealt + 1)
    return rc


def record_scan_cards(round: Round, state: Any, scan: Scan, start: int, *, actor: Any) -> tuple[list[RoundCard], Any]:
    """Record a scan's cards from its ``start``-th on (left to right, the order they were dealt) while the
    reader is sure of each, weighed by the shoe as the cards before it left it (``tables.engine.witness``), and
    the round takes it; stop at the first the dealer must be asked about, which becomes the scan's
    ``asking`` (None once every card is recorded).  Returns the cards recorded and the round's state after them."""
    found = list(scan.recognised or [])
    shoe = engine_shoe(round.shoe) if round.shoe is not None else None
    recorded: list[RoundCard] = []
    asking: int | None = (start if start < len(found) else None) if found else (0 if start == 0 else None)
    for at in range(start, len(found)):
        read = found[at]
        card = witness.choose(read_candidates(read), shoe, scan_confidence())
        if card is None:
            break
        if card.code != read["code"]:
            read = {**read, "code": card.code, "read_as": read["code"]}
        try:
            with transaction.atomic():
                recorded.append(_record_card(round, state, card.code, actor=actor, field="image", scan=scan,
                                             reading=read))  # fmt: skip
        except (InvalidInput, RuleViolation, Conflict):
            state = _replay(round)  # a card the round cannot take now: ask the dealer rather than refuse it
            break
        if shoe is not None:
            shoe.deal(card)
        asking = at + 1 if at + 1 < len(found) else None
    scan.asking = asking
    scan.save(update_fields=["asking"])
    return recorded, state


def round_add_card(*, round: Round | int, code: str, actor: Any, scan: int | None = None,
                   expected_version: int | None = None) -> Round:
    """Add the next card by its code (typed, or the dealer's answer to a scan's unsure card: confirmed or
    picked, naming the scan; the scan's later cards the reader is sure of are then recorded after it)."""
    with transaction.atomic():
        round = _lock_round(round, expected_version)
        check_right(actor, round.table)
        _require_state(round, RoundState.IN_PLAY, doing="add a card")
        scan_row, reading = None, None
        if scan is not None:
            scan_row = Scan.objects.filter(pk=scan, round=round).first()
            if scan_row is None:
                raise InvalidInput(f"no scan {scan} in this round", field="scan")
            if scan_row.asking is None or pending_scan_row(round) != scan_row:
                raise Conflict(f"scan {scan} is not waiting for an answer: its cards are recorded or dropped")
            reading = asked_card(scan_row) or None
        else:
            require_no_pending_scan(round)
        state = _replay(round)
        rc = _record_card(round, state, code, actor=actor, field="code", scan=scan_row, reading=reading)
        then: list[RoundCard] = []
        if scan_row is not None:
            then, state = record_scan_cards(round, state, scan_row, (scan_row.asking or 0) + 1, actor=actor)
        _bump(round, prompt=_prompt(round.game, state))
        audit(actor=actor, action="round.card", table=round.table, round=round,
              payload={"code": rc.code, "to": rc.to, "seq": rc.seq, "scan": scan_row.sha256 if scan_row else None,
                       "recognised": rc.recognised_code or None,
                       **({"then_recorded": [c.code for c in then], "asking": scan_row.asking}
                          if scan_row is not None else {})})  # fmt: skip
        return round



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
        require_no_pending_scan(round)
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
        _bump(round, prompt=_prompt(round.game, state))
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
        require_no_pending_scan(round)
        state = _replay(round)
        prompt = live.next_step(round.game, state)
        if prompt.needs != "settle" and prompt.phase != "settled":
            raise Conflict(f"the round is not over: {prompt.reason or prompt.needs}")
        lines = _store_settlement(round, state)
        why = _needs_approval(lines)
        _bump(round, state=RoundState.SETTLED, settled_at=timezone.now(), due=round.due,
              approval_required=bool(why), approval_reason=why, prompt=_prompt(round.game, state))  # fmt: skip
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
        now = timezone.now()
        live.pause(round.game, _replay(round), reason or "interrupted", now)  # the engine says whether it may
        _bump(round, state=RoundState.PAUSED, paused_at=now)
        audit(actor=actor, action="round.pause", table=round.table, round=round, payload={"reason": reason})
        return round


def round_resume(*, round: Round | int, actor: Any, expected_version: int | None = None) -> Round:
    """Resume a paused round where it was."""
    with transaction.atomic():
        round = _lock_round(round, expected_version)
        check_right(actor, round.table)
        _require_state(round, RoundState.PAUSED, doing="resume")
        live.resume(round.game, _replay(round))  # the replayed state is paused; the engine resumes it
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
        else:
            require_no_pending_scan(round)
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
        if round.shoe is not None:
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
        _bump(round, prompt=_prompt(round.game, state), **fields)
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
                  approval_required=bool(why), approval_reason=why, prompt=_prompt(round.game, state))  # fmt: skip
            outcome = "settled"
        else:
            _bump(round, state=RoundState.IN_PLAY, paused_at=None, prompt=_prompt(round.game, state))
            outcome = "awaiting-dealer"
        audit(actor=actor, action="round.interrupted", table=round.table, round=round,
              payload={"outcome": outcome, "auto_stands": stood, "rule": "mini-blackjack 48 h"})
        return outcome


def purge_idempotency_records(now: Any = None, *, batch: int = 5000) -> int:
    """Delete the idempotency records older than ``IDEMPOTENCY_KEEP_HOURS``, in short batches; how many.

    A record only serves a retry of its write, which comes within seconds; after the purge the same key
    would run as a new request, which no tablet sends a day later.  The rounds, their cards, decisions,
    payments and audit events are untouched."""
    from datetime import timedelta

    from tables import conf
    from tables.models import IdempotencyKey

    cutoff = (now or timezone.now()) - timedelta(hours=conf.idempotency_keep_hours())
    deleted = 0
    while True:
        ids = list(IdempotencyKey.objects.filter(created_at__lt=cutoff).order_by("pk").values_list("pk", flat=True)[:batch])
        if not ids:
            return deleted
        deleted += IdempotencyKey.objects.filter(pk__in=ids).delete()[0]
