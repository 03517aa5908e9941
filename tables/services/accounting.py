"""Table accounting and player ratings: the writes, and the figures that need the theory store.

Slips (``docs/accounting.md``): an opener or closer is counted at the table and signed by two people,
the dealer and a supervisor; a fill or credit is requested by the pit, issued by the cage and received
at the table.  Every slip is numbered in sequence per casino and kind (the casino row locked while the
next number is taken, so numbers have no gaps and no duplicates) and is append-only: a step is a new
signature row, a void a new void row, a correction a new slip replacing the voided one (database
triggers, migration 0014).  Nobody signs two steps of one slip.

Each write: one transaction, the table row locked first (the lock order of ``tables.services``:
table, then anything under it — here the casino's numbering row and the slip), an audit event.

Reconciliation (nightly, ``accounting_table_day``): per table and shift, counted win = (closer −
opener) + credits − fills + drop against tracked win (the house result of the rounds); a finding when
they differ by more than ``ACCOUNTING_WIN_TOLERANCE``.  Win/drop hold by shift, day, month and year to
date against theory, with the hold audit's band.  Ratings: theo = Σ wager × house edge of its bet kind
from the wagers stored for the seat while the player's slip was open, with the edges of the one theory
store the hold audit uses (``tables.services.audits.theory_for``).
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Max, Q, Sum
from django.utils import timezone

from tables import conf
from tables.access import (
    DEALER_ROLE,
    check_count_team,
    check_pit_boss,
    check_right,
    is_cage_cashier,
    is_pit_boss,
    roles_of,
)
from tables.audit.accounting import (
    CENT,
    PERIOD_WORDS,
    ZERO,
    ChipCountError,
    PeriodTotals,
    WagerGroup,
    chip_total,
    counted_win,
    parse_chips,
    rating,
    reconcile,
    win_drop_hold,
)
from tables.audit.theo import theo_cents, theo_exact
from tables.audit.theory import HOUSE_GAMES
from tables.days import day_text
from tables.errors import Conflict, InvalidInput
from tables.models import (
    INVENTORY_KINDS,
    TRANSFER_KINDS,
    AuditEvent,
    AuditKind,
    AuditResult,
    Casino,
    DropCount,
    Player,
    RatingPause,
    RatingSlip,
    RatingState,
    SettlementLine,
    Severity,
    Slip,
    SlipKind,
    SlipSignature,
    SlipStep,
    SlipVoid,
    Table,
    TableSession,
    Wager,
)
from tables.selectors.accounting import (
    COUNTED_STATES,
    SHIFT_NAMES,
    STEPS,
    day_bounds,
    shift_bounds,
    shift_count,
    shift_of,
)


def _audit(*, actor: Any, action: str, table: Table | None, payload: dict[str, Any]) -> None:
    AuditEvent.objects.create(actor=actor if getattr(actor, "pk", None) else None, action=action, table=table,
                              payload=payload)  # fmt: skip


def _lock_table(table: Table | int) -> Table:
    pk = table.pk if isinstance(table, Table) else table
    return Table.objects.select_for_update(of=("self",)).select_related("game", "pit").get(pk=pk)


def _period(gaming_day: object, shift: object) -> tuple[date, str]:
    """The gaming day and shift given (``YYYY-MM-DD`` and a shift name), the current ones by default."""
    now_day, now_shift = shift_of(timezone.now())
    if gaming_day is None:
        day = now_day
    elif isinstance(gaming_day, date):
        day = gaming_day
    else:
        try:
            day = date.fromisoformat(str(gaming_day))
        except ValueError:
            raise InvalidInput(f"{str(gaming_day)[:20]!r} is not a date (YYYY-MM-DD)", field="gaming_day") from None
    if day > now_day:
        raise InvalidInput(f"gaming day {day} has not begun", field="gaming_day")
    name = now_shift if shift is None else shift
    if name not in SHIFT_NAMES:
        raise InvalidInput(f"unknown shift {str(name)[:20]!r}; expected one of {list(SHIFT_NAMES)}", field="shift")
    return day, str(name)


def _chips(chips: object) -> tuple[dict[str, int], Decimal]:
    try:
        parsed = parse_chips(chips)
    except ChipCountError as exc:
        raise InvalidInput(exc.message, field=exc.field) from None
    return parsed, chip_total(parsed)


def _dealt_here(actor: Any, table: Table, day: date, shift: str) -> bool:
    """Whether ``actor`` is a dealer who held ``table`` during that shift (or holds it now)."""
    if DEALER_ROLE not in roles_of(actor):
        return False
    start, end = shift_bounds(day, shift)
    return TableSession.objects.filter(Q(closed_at__isnull=True) | Q(closed_at__gt=start), table=table,
                                       dealer=actor, opened_at__lt=end).exists()  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Slips


def slip_create(*, table: Table | int, kind: str, chips: object, actor: Any, gaming_day: object = None,
                shift: object = None, replaces: Slip | int | None = None) -> Slip:
    """Write an opener or closer (the table's dealer or a pit boss) or request a fill or credit (the pit).

    A table's shift has one live opener and one live closer: a second is refused until the first is
    voided, and then names it in ``replaces``.  A fill or credit carries its request as its first step.
    """
    pk = table.pk if isinstance(table, Table) else table
    with transaction.atomic():
        table = _lock_table(pk)
        if kind in TRANSFER_KINDS:
            check_pit_boss(actor)  # fills and credits are requested by the pit
        elif kind in INVENTORY_KINDS:
            check_right(actor, table)
        else:
            raise InvalidInput(f"unknown slip kind {str(kind)[:20]!r}; expected one of {list(SlipKind.values)}",
                               field="kind")  # fmt: skip
        day, name = _period(gaming_day, shift)
        counted, total = _chips(chips)
        if kind in TRANSFER_KINDS and total <= 0:
            raise InvalidInput(f"a {kind} moves chips: the total must be positive", field="chips")
        previous = None
        if replaces is not None:
            previous = Slip.objects.filter(pk=replaces.pk if isinstance(replaces, Slip) else replaces).first()
            if previous is None or previous.table_id != table.pk or previous.kind != kind:
                raise InvalidInput(f"no {kind} slip {replaces} at this table", field="replaces")
            if not SlipVoid.objects.filter(slip=previous).exists():
                raise Conflict(f"{kind} #{previous.number} is not void: void it before replacing it")
            if Slip.objects.filter(replaces=previous).exists():
                raise Conflict(f"{kind} #{previous.number} was replaced already")
            day, name = previous.gaming_day, previous.shift
        if kind in INVENTORY_KINDS and Slip.objects.filter(table=table, gaming_day=day, shift=name, kind=kind,
                                                           void__isnull=True).exists():  # fmt: skip
            raise Conflict(f"table {table.number} has a {kind} for {day} {name} already: void it to correct it")
        # The casino row serialises the numbering of its slips (after the table: the lock order).
        casino = Casino.objects.select_for_update(of=("self",)).get(pk=table.pit.casino_id)
        number = (Slip.objects.filter(casino=casino, kind=kind).aggregate(m=Max("number"))["m"] or 0) + 1
        slip = Slip.objects.create(casino=casino, kind=kind, number=number, table=table, gaming_day=day, shift=name,
                                   chips=counted, total=total, replaces=previous, created_by=actor)  # fmt: skip
        if kind in TRANSFER_KINDS:
            SlipSignature.objects.create(slip=slip, step=SlipStep.REQUESTED, by=actor)
        _audit(actor=actor, action=f"slip.{kind}.create", table=table,
               payload={"slip": slip.pk, "number": number, "gaming_day": day.isoformat(), "shift": name,
                        "chips": counted, "total": str(total), "replaces": previous.pk if previous else None})  # fmt: skip
        return slip


def _check_step(slip: Slip, table: Table, step: str, actor: Any) -> None:
    """Who may sign which step (permission), checked before anything about the slip's state."""
    if step == SlipStep.DEALER:
        if not _dealt_here(actor, table, slip.gaming_day, slip.shift):
            raise PermissionDenied(f"only a dealer of table {table.number} in that shift signs as the dealer")
    elif step == SlipStep.SUPERVISOR:
        if not is_pit_boss(actor):
            raise PermissionDenied("only a supervisor (pit boss) signs as the supervisor")
    elif step == SlipStep.ISSUED:
        if not is_cage_cashier(actor):
            raise PermissionDenied("only the cage issues a fill or credit")
    elif step == SlipStep.RECEIVED:
        if not (_dealt_here(actor, table, slip.gaming_day, slip.shift) or is_pit_boss(actor)):
            raise PermissionDenied(f"only the dealer or a supervisor at table {table.number} receives it")


def _lock_slip(pk: int) -> tuple[Table, Slip]:
    """Lock a slip in the one lock order: its table first, then the slip."""
    found = Slip.objects.filter(pk=pk).values_list("table_id", flat=True).first()
    if found is None:
        raise Slip.DoesNotExist(f"no slip {pk}")
    table = _lock_table(found)
    return table, Slip.objects.select_for_update(of=("self",)).get(pk=pk)


def slip_sign(*, slip: Slip | int, step: str, actor: Any) -> Slip:
    """Sign one step of a slip: ``dealer``/``supervisor`` on an inventory, ``issued``/``received`` on a transfer."""
    pk = slip.pk if isinstance(slip, Slip) else slip
    with transaction.atomic():
        table, the_slip = _lock_slip(pk)
        steps = STEPS[the_slip.kind]
        if step not in steps or step == SlipStep.REQUESTED:
            signable = [s for s in steps if s != SlipStep.REQUESTED]
            raise InvalidInput(f"a {the_slip.kind} is signed {' and '.join(signable)}", field="step")
        _check_step(the_slip, table, step, actor)
        if SlipVoid.objects.filter(slip=the_slip).exists():
            raise Conflict(f"{the_slip.kind} #{the_slip.number} is void")
        done = {s.step: s.by_id for s in the_slip.signatures.all()}
        if step in done:
            raise Conflict(f"{the_slip.kind} #{the_slip.number} is {step} already")
        if actor.pk in done.values():
            # Two-person control: the count, the chips handed over and their receipt are each vouched
            # for by someone else.
            raise PermissionDenied(f"you signed {the_slip.kind} #{the_slip.number} already: another person signs")
        before = steps[steps.index(step) - 1] if the_slip.kind in TRANSFER_KINDS else None
        if before is not None and before not in done:
            raise Conflict(f"{the_slip.kind} #{the_slip.number} is not {before} yet")
        SlipSignature.objects.create(slip=the_slip, step=step, by=actor)
        _audit(actor=actor, action=f"slip.{the_slip.kind}.{step}", table=table,
               payload={"slip": the_slip.pk, "number": the_slip.number})  # fmt: skip
        return the_slip


def slip_void(*, slip: Slip | int, reason: str | None, actor: Any) -> SlipVoid:
    """Void a slip with a reason (a pit boss; the cage for fills and credits); the slip stays on record."""
    pk = slip.pk if isinstance(slip, Slip) else slip
    with transaction.atomic():
        table, the_slip = _lock_slip(pk)
        if not (is_pit_boss(actor) or (the_slip.kind in TRANSFER_KINDS and is_cage_cashier(actor))):
            raise PermissionDenied("only a pit boss voids a slip (the cage its fills and credits)")
        text = (reason or "").strip()
        if not text:
            raise InvalidInput("a void needs a reason", field="reason")
        if SlipVoid.objects.filter(slip=the_slip).exists():
            raise Conflict(f"{the_slip.kind} #{the_slip.number} is void already")
        void = SlipVoid.objects.create(slip=the_slip, reason=text[:300], by=actor)
        _audit(actor=actor, action=f"slip.{the_slip.kind}.void", table=table,
               payload={"slip": the_slip.pk, "number": the_slip.number, "reason": text[:300]})  # fmt: skip
        return void


# ---------------------------------------------------------------------------------------------
# The drop


def _amount(value: object, field: str = "amount") -> Decimal:
    if isinstance(value, bool) or not isinstance(value, str | int | Decimal):
        raise InvalidInput("an amount is a decimal string such as \"1250.00\"", field=field)
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        raise InvalidInput(f"{str(value)[:20]!r} is not an amount", field=field) from None
    if not amount.is_finite() or amount < 0 or amount != amount.quantize(CENT) or amount >= Decimal("1e12"):
        raise InvalidInput("an amount is not negative, with at most two decimals", field=field)
    return amount.quantize(CENT)


def drop_record(*, table: Table | int, amount: object, actor: Any, gaming_day: object = None,
                shift: object = None) -> DropCount:
    """The count team enters a drop box's count for a table and shift; the day's total follows.

    One count per table and shift (a recount is a correction for the back office, on record in its
    history).  The whole day's row (shift blank, what the hold audit reads) is the sum of the shifts.
    """
    pk = table.pk if isinstance(table, Table) else table
    with transaction.atomic():
        check_count_team(actor)
        the_table = _lock_table(pk)
        day, name = _period(gaming_day, shift)
        value = _amount(amount)
        if DropCount.objects.filter(table=the_table, gaming_day=day, shift=name).exists():
            raise Conflict(f"the drop of table {the_table.number} for {day} {name} is counted already")
        row = DropCount.objects.create(table=the_table, gaming_day=day, shift=name, amount=value, entered_by=actor)
        total = DropCount.objects.filter(table=the_table, gaming_day=day).exclude(shift="").aggregate(
            s=Sum("amount"))["s"] or ZERO
        DropCount.objects.update_or_create(table=the_table, gaming_day=day, shift="",
                                           defaults={"amount": total, "entered_by": actor})  # fmt: skip
        _audit(actor=actor, action="drop.count", table=the_table,
               payload={"gaming_day": day.isoformat(), "shift": name, "amount": str(value)})  # fmt: skip
        return row


# ---------------------------------------------------------------------------------------------
# Reconciliation and win/drop hold


def _theory_totals(table: Table, day: date) -> list[tuple[int, Decimal, Decimal, float]]:
    """Per shift of the day: rounds, handle, exact theoretical win and its variance (the hold audit's sums)."""
    from tables.services.audits import hold_buckets  # the one place handle meets the theory store

    start, _ = day_bounds(day)
    bounds = [shift_bounds(day, s)[1] for s in SHIFT_NAMES]
    out = []
    for t in hold_buckets(table, start, bounds):
        handle = sum((b.handle for b in t.bets), ZERO)
        theo = theo_exact((b.handle, b.edge) for b in t.bets)  # exact: the day, month and year round once
        var = sum(b.variance * float(b.handle_sq) for b in t.bets)
        out.append((t.rounds, handle, theo, var))
    return out


def _json(obj: Any) -> Any:
    if isinstance(obj, Decimal):
        return str(obj)
    if isinstance(obj, dict):
        return {k: _json(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_json(v) for v in obj]
    return obj


def _totals_from_json(d: dict[str, Any]) -> PeriodTotals:
    return PeriodTotals(int(d["rounds"]), Decimal(d["handle"]), Decimal(d["tracked_win"]),
                        Decimal(d["counted_win"]), Decimal(d["drop"]), Decimal(d["theo_win"]), float(d["variance"]),
                        int(d["counted_shifts"]))  # fmt: skip


def has_accounting(table: Table, day: date) -> bool:
    """Whether the table has slips or a drop for the day (else the accounting audit has nothing to say)."""
    return (Slip.objects.filter(table=table, gaming_day=day).exists()
            or DropCount.objects.filter(table=table, gaming_day=day).exists())  # fmt: skip


def reconcile_shift(table: Table, day: date, shift: str) -> dict[str, Any]:
    """The counts of one table and shift against its tracked win (no theory: cheap, for the dashboard)."""
    c = shift_count(table, day, shift)
    counted = None
    if not c.missing:
        assert c.opener is not None and c.closer is not None and c.drop is not None
        counted = counted_win(opener=c.opener, closer=c.closer, fills=c.fills, credits=c.credits, drop=c.drop)
    r = reconcile(counted=counted, tracked=c.tracked, tolerance=conf.accounting_win_tolerance(), mispaid=c.mispaid,
                  missing=c.missing)
    return {"table": table.pk, "table_number": table.number, "gaming_day": day.isoformat(), "shift": shift,
            "opener": c.opener, "closer": c.closer, "fills": c.fills, "credits": c.credits, "drop": c.drop,
            "rounds": c.rounds, **asdict(r)}  # fmt: skip


def accounting_table_day(table: Table | int, day: date) -> dict[str, Any] | None:
    """Reconcile every shift of a table's gaming day and judge win/drop by shift, day, MTD and YTD; store it.

    Stored as ``AuditResult`` rows of kind ``accounting`` (unique per table and period, replaced in place
    when run again), with a ``accounting.win-mismatch`` finding per shift out of tolerance and an
    ``accounting.hold-anomaly`` one when the day's counted win leaves the theory band — so the findings
    reach the dashboard's alerts and the nightly report like the other audits'.  Month and year to date
    are sums of the stored days (each additive), so a year costs a read of its day rows.
    ``None`` when the table has neither slips nor a drop that day.
    """
    from tables.services.audits import _store

    table = table if isinstance(table, Table) else Table.objects.select_related("game").get(pk=table)
    if not has_accounting(table, day):
        return None
    confidence = conf.audit_hold_confidence()
    theory = _theory_totals(table, day)
    day_totals = PeriodTotals()
    shifts: dict[str, Any] = {}
    for name, (rounds, handle, theo, var) in zip(SHIFT_NAMES, theory, strict=True):
        rec = reconcile_shift(table, day, name)
        complete = rec["counted"] is not None
        totals = PeriodTotals(
            rounds=rounds, handle=handle, tracked_win=rec["tracked"],
            counted_win=rec["counted"] if complete else ZERO, drop=rec["drop"] if complete else ZERO,
            theo_win=theo if complete else ZERO, variance=var if complete else 0.0, counted_shifts=int(complete),
        )  # fmt: skip
        day_totals = day_totals + totals
        hold = asdict(win_drop_hold(totals, confidence=confidence)) if complete else None
        findings = []
        if rec["flagged"]:
            unexplained = rec["unexplained"] is not None and abs(rec["unexplained"]) > rec["tolerance"]
            findings.append({"rule": "accounting.win-mismatch",
                             "severity": Severity.CRITICAL if unexplained else Severity.WARNING,
                             "message": f"table {table.number}, {name} shift of {day_text(day)}: {rec['reason']}",
                             "data": _json({k: rec[k] for k in ("counted", "tracked", "difference", "mispaid",
                                                                "unexplained", "tolerance")})})  # fmt: skip
        start, end = shift_bounds(day, name)
        summary = _json({"reconciliation": rec, "totals": asdict(totals), "hold": hold})
        _store(AuditKind.ACCOUNTING, table, f"shift:{day.isoformat()}/{name}", day, start, end, summary, findings)
        shifts[name] = summary
    start, end = day_bounds(day)
    # Month and year to date: the stored days before this one, plus this one.
    earlier = AuditResult.objects.filter(kind=AuditKind.ACCOUNTING, table=table, period__startswith="day:",
                                         gaming_day__gte=day.replace(month=1, day=1), gaming_day__lt=day)
    mtd = ytd = day_totals
    for gd, s in earlier.values_list("gaming_day", "summary"):
        t = _totals_from_json(s["totals"])
        ytd = ytd + t
        if gd >= day.replace(day=1):
            mtd = mtd + t
    holds = {label: asdict(win_drop_hold(t, confidence=confidence)) for label, t in
             (("day", day_totals), ("mtd", mtd), ("ytd", ytd))}  # fmt: skip
    findings = []
    if holds["day"]["flagged"] and day_totals.counted_shifts:
        findings.append({"rule": "accounting.hold-anomaly", "severity": Severity.WARNING,
                         "message": f"table {table.number}, gaming day {day_text(day)}: {holds['day']['reason']} (win/drop)",
                         "data": {"z": holds["day"]["z"]}})  # fmt: skip
    summary = _json({"totals": asdict(day_totals), "mtd_totals": asdict(mtd), "ytd_totals": asdict(ytd),
                     "hold": holds, "shifts": shifts})  # fmt: skip
    _store(AuditKind.ACCOUNTING, table, f"day:{day.isoformat()}", day, start, end, summary, findings)
    return summary


# ---------------------------------------------------------------------------------------------
# Players and ratings


def player_seat(*, table: Table | int, seat: object, actor: Any, card_number: str | None = None,
                name: str | None = None) -> RatingSlip:
    """Seat a player (by card number, or by name without a card) at a seat: a rating slip opens."""
    from tables.engine.games import game as game_spec

    pk = table.pk if isinstance(table, Table) else table
    with transaction.atomic():
        the_table = _lock_table(pk)
        check_right(actor, the_table)
        seats = game_spec(the_table.game.slug).seats
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= seats:
            raise InvalidInput(f"a seat of this table is 1 to {seats}", field="seat")
        card = (card_number or "").strip()
        who = (name or "").strip()
        if not card and not who:
            raise InvalidInput("a player is named by a card number or a name", field="card_number")
        if the_table.game.slug not in HOUSE_GAMES:
            raise Conflict(f"{the_table.game.name} is not house-banked: its players are not rated")
        if card:
            player, _ = Player.objects.get_or_create(card_number=card[:40], defaults={"name": who[:120]})
        else:
            player = (Player.objects.filter(card_number__isnull=True, name=who[:120]).order_by("pk").first()
                      or Player.objects.create(name=who[:120]))  # fmt: skip
        if RatingSlip.objects.filter(table=the_table, seat=seat).exclude(state=RatingState.CLOSED).exists():
            raise Conflict(f"seat {seat} of table {the_table.number} is taken: close that slip first")
        if RatingSlip.objects.filter(player=player).exclude(state=RatingState.CLOSED).exists():
            raise Conflict(f"{player} is seated elsewhere: close that slip first")
        slip = RatingSlip.objects.create(player=player, table=the_table, seat=seat, opened_by=actor)
        _audit(actor=actor, action="rating.open", table=the_table,
               payload={"rating_slip": slip.pk, "player": player.pk, "seat": seat})  # fmt: skip
        return slip


def _rating_step(slip: RatingSlip | int, actor: Any, action: str) -> RatingSlip:
    pk = slip.pk if isinstance(slip, RatingSlip) else slip
    with transaction.atomic():
        found = RatingSlip.objects.filter(pk=pk).values_list("table_id", flat=True).first()
        if found is None:
            raise RatingSlip.DoesNotExist(f"no rating slip {pk}")
        table = _lock_table(found)
        check_right(actor, table)
        the_slip = RatingSlip.objects.select_for_update(of=("self",)).get(pk=pk)
        now = timezone.now()
        allowed = {"pause": (RatingState.OPEN,), "resume": (RatingState.PAUSED,),
                   "close": (RatingState.OPEN, RatingState.PAUSED)}[action]  # fmt: skip
        if the_slip.state not in allowed:
            raise Conflict(f"the rating slip is {the_slip.state}: it cannot {action}")
        if action in ("resume", "close"):
            RatingPause.objects.filter(slip=the_slip, ended_at__isnull=True).update(ended_at=now)
        if action == "pause":
            RatingPause.objects.create(slip=the_slip, started_at=now)
            the_slip.state = RatingState.PAUSED
        elif action == "resume":
            the_slip.state = RatingState.OPEN
        else:
            the_slip.state, the_slip.closed_at, the_slip.closed_by = RatingState.CLOSED, now, actor
        the_slip.save(update_fields=["state", "closed_at", "closed_by"])
        _audit(actor=actor, action=f"rating.{action}", table=table, payload={"rating_slip": the_slip.pk})
        return the_slip


def rating_pause(*, slip: RatingSlip | int, actor: Any) -> RatingSlip:
    """The player steps away: rounds and time stop counting."""
    return _rating_step(slip, actor, "pause")


def rating_resume(*, slip: RatingSlip | int, actor: Any) -> RatingSlip:
    """The player is back at the seat."""
    return _rating_step(slip, actor, "resume")


def rating_close(*, slip: RatingSlip | int, actor: Any) -> RatingSlip:
    """The player leaves: the slip closes and its rating is final."""
    return _rating_step(slip, actor, "close")


def active_intervals(slip: RatingSlip, now: datetime | None = None) -> list[tuple[datetime, datetime]]:
    """The [start, end) spans the player was playing: open to close (or now), pauses cut out."""
    end = slip.closed_at or now or timezone.now()
    spans = []
    at = slip.opened_at
    for p in sorted(slip.pauses.all(), key=lambda p: p.started_at):
        if p.started_at > at:
            spans.append((at, min(p.started_at, end)))
        at = max(at, p.ended_at or end)
    if end > at:
        spans.append((at, end))
    return [(a, b) for a, b in spans if b > a]


def rated_wagers(slip: RatingSlip, now: datetime | None = None) -> Any:
    """The stored wagers the slip rates: its seat's own bets (not bets behind) in rounds opened while playing."""
    spans = active_intervals(slip, now)
    if not spans:
        return Wager.objects.none()
    when = Q()
    for a, b in spans:
        when |= Q(round__opened_at__gte=a, round__opened_at__lt=b)
    return Wager.objects.filter(when, round__table_id=slip.table_id, round__state__in=COUNTED_STATES,
                                seat=slip.seat, behind__isnull=True, refunded=False)  # fmt: skip


def rating_of(slip: RatingSlip, now: datetime | None = None) -> dict[str, Any]:
    """The slip's rating: rounds, time, average bet, theo from the stored wagers, actual, and the estimate."""
    from tables.services.audits import theory_for

    slip = RatingSlip.objects.select_related("player", "table", "table__game").get(pk=slip.pk)  # as stored now
    wagers = rated_wagers(slip, now)
    groups: list[WagerGroup] = []
    main_edge: Decimal | None = None
    for r in (wagers.values("round__rule_set_id", "round__pay_table_id", "kind").annotate(s=Sum("amount"))
              .order_by()):  # fmt: skip
        theory = theory_for(r["round__rule_set_id"], r["round__pay_table_id"]) if r["round__rule_set_id"] else {}
        t = theory.get(r["kind"])
        edge = Decimal(str(t["edge"])) if t is not None else ZERO
        groups.append(WagerGroup(r["kind"], Decimal(r["s"]), edge))
        if r["kind"] == "main" and main_edge is None:
            main_edge = edge
    rounds = wagers.aggregate(n=Count("round_id", distinct=True))["n"]
    round_ids = wagers.values("round_id")
    net = SettlementLine.objects.filter(round_id__in=round_ids, seat=slip.seat, behind__isnull=True,
                                        superseded=False).aggregate(s=Sum("net"))["s"] or ZERO  # fmt: skip
    seconds = int(sum((b - a for a, b in active_intervals(slip, now)), timedelta()).total_seconds())
    r = rating(groups=groups, rounds=rounds, seconds=seconds, actual=-Decimal(net), game=slip.table.game.slug,
               main_edge=main_edge)
    return _json({
        "id": slip.pk, "player": {"id": slip.player_id, "card_number": slip.player.card_number,
                                  "name": slip.player.name, "display_name": slip.player.display_name},
        "table": slip.table_id, "table_number": slip.table.number, "game": slip.table.game.slug, "seat": slip.seat,
        "state": slip.state, "opened_at": slip.opened_at.isoformat(),
        "closed_at": slip.closed_at.isoformat() if slip.closed_at else None,
        **asdict(r),
    })  # fmt: skip


# ---------------------------------------------------------------------------------------------
# The nightly report's section (tables/services/reports.py calls these)


def report_section(day: date) -> dict[str, Any]:
    """The accounting of a gaming day for the nightly report: stored reconciliation and hold, the ratings."""
    from tables.selectors.accounting import rating_slips

    shifts: list[dict[str, Any]] = []
    holds: list[dict[str, Any]] = []
    for r in (AuditResult.objects.filter(kind=AuditKind.ACCOUNTING, gaming_day=day).select_related("table")
              .order_by("table__number", "period")):  # fmt: skip
        if r.period.startswith("shift:"):
            rec = r.summary["reconciliation"]
            if rec["rounds"] or rec["counted"] is not None:
                shifts.append(rec)
        else:
            holds += [{"table": r.table.number, "period": p, **r.summary["hold"][p]} for p in ("day", "mtd", "ytd")]
    shifts.sort(key=lambda s: (s["table_number"], SHIFT_NAMES.index(s["shift"])))
    ratings = [rating_of(s) for s in rating_slips(day=day)]
    theo = theo_cents(sum((Decimal(r["theo_exact"]) for r in ratings), ZERO))  # the exact sum, rounded once
    estimate = sum((Decimal(r["estimate"]) for r in ratings), ZERO)
    return {"shifts": shifts, "holds": holds, "ratings": ratings,
            "totals": {"flagged_shifts": sum(1 for s in shifts if s["flagged"]), "rating_slips": len(ratings),
                       "theo": str(theo), "estimate": str(estimate),
                       "actual": str(sum((Decimal(r["actual"]) for r in ratings), ZERO))}}  # fmt: skip


def report_csv_rows(section: dict[str, Any]) -> list[dict[str, Any]]:
    """The section as rows of the report's CSV (its columns: section, table, period, win, drop, ...)."""
    rows: list[dict[str, Any]] = []
    for s in section.get("shifts", []):
        rows.append({"section": "reconciliation", "table": s["table_number"],
                     "period": f"{s['shift']} shift", "win": s["counted"], "theo_win": s["tracked"],
                     "drop": s["drop"], "flagged": s["flagged"], "message": s["reason"]})  # fmt: skip
    for h in section.get("holds", []):
        period = PERIOD_WORDS.get(h["period"], h["period"])  # the hold rows' words
        rows.append({"section": "win-drop", "table": h["table"], "period": period, "win": h["counted_win"],
                     "drop": h["drop"], "win_to_drop_pct": h["hold_pct"], "theo_win": h["theo_win"],
                     "theo_hold_pct": h["theo_hold_pct"], "z": h["z"], "band_low": h["band_low"],
                     "band_high": h["band_high"], "flagged": h["flagged"], "message": h["reason"]})  # fmt: skip
    for r in section.get("ratings", []):
        who = r["player"]["display_name"]
        rows.append({"section": "rating", "table": r["table_number"], "rounds": r["rounds"], "handle": r["handle"],
                     "win": r["actual"], "theo_win": r["theo"],
                     "message": f"{who} seat {r['seat']}: avg bet {r['avg_bet']}, {r['seconds'] // 60} min, "
                                f"estimate {r['estimate']}"})  # fmt: skip
    return rows


def report_pdf_story(section: dict[str, Any], styles: Any, table: Any) -> list[Any]:
    """The section as reportlab flowables (``table(rows, widths)`` builds a styled table from rows, its
    columns as fractions of the page's width)."""
    from reportlab.platypus import Paragraph, Spacer

    story: list[Any] = []
    shifts = section.get("shifts", [])
    if shifts:
        rows = [["table", "shift", "opener", "closer", "fills", "credits", "drop", "counted", "tracked", "verdict"]]
        rows += [[s["table_number"], s["shift"], s["opener"] or "—", s["closer"] or "—", s["fills"], s["credits"],
                  s["drop"] or "—", s["counted"] or "—", s["tracked"], "FLAG" if s["flagged"] else "ok"]
                 for s in shifts[:300]]  # fmt: skip
        story += [Spacer(1, 8), Paragraph("Table accounting: counted against tracked win", styles["Heading3"]),
                  table(rows, [0.06, 0.08, 0.14, 0.14, 0.09, 0.09, 0.1, 0.11, 0.11, 0.08])]
    ratings = section.get("ratings", [])
    if ratings:
        rows = [["player", "table", "seat", "rounds", "min", "avg bet", "theo", "actual", "estimate"]]
        rows += [[r["player"]["display_name"], r["table_number"], r["seat"], r["rounds"],
                  r["seconds"] // 60, r["avg_bet"], r["theo"], r["actual"], r["estimate"]] for r in ratings[:300]]
        story += [Spacer(1, 8), Paragraph("Player ratings (theo from the wagers; the industry estimate beside)",
                                          styles["Heading3"]),
                  table(rows, [0.25, 0.06, 0.05, 0.07, 0.06, 0.1, 0.13, 0.14, 0.14])]  # fmt: skip
    return story
