"""The floor simulator's table accounting: inventories, fills, credits, drop and seated players.

Called by ``tables.services.floor_sim.simulate_floor`` once a table's rounds are written.  For every
shift with rounds it writes what the pit, the cage and the count team would have: an opener (the
previous closer, or the table's float), the drop (the cash players bought chips with), a fill when
the tray ran low or a credit when it overflowed, and a closer that holds exactly what the rounds left
in the tray — what the dealer paid, so a mispayment shows as a difference the reconciliation
explains.  Now and then chips go missing from the tray (``Mishaps.missing_chips``): the closer is short
and the reconciliation must find it.  Players are seated with rating slips (some with a pause).

Rows are written with ``bulk_create`` and the simulated timestamps (``simulated_clock``); every slip is
signed by two people as the services require (the shift's dealer and the simulated pit boss; the
simulated cage cashier issues).  A shift that already has slips or a drop is left alone, so running
the simulator again never duplicates a count.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Any

from django.db import transaction
from django.db.models import Max, Sum

from tables.access import CAGE_CASHIER, COUNT_TEAM
from tables.audit.accounting import ZERO, chip_total, make_change
from tables.audit.theory import HOUSE_GAMES
from tables.engine.games import game as game_spec
from tables.models import (
    DropCount,
    Player,
    RatingPause,
    RatingSlip,
    RatingState,
    Round,
    SettlementLine,
    Slip,
    SlipKind,
    SlipSignature,
    SlipStep,
    Table,
    TableSession,
    Wager,
)
from tables.selectors.accounting import COUNTED_STATES, SHIFT_NAMES, shift_bounds
from tables.services.floor_sim import _user, simulated_clock


@dataclass
class AccountingSim:
    """What the accounting simulation wrote, and where chips went missing (table id, day, shift, amount)."""

    slips: int = 0
    drops: int = 0
    rating_slips: int = 0
    missing: list[tuple[int, date, str, Decimal]] = field(default_factory=list)


def _shift_rounds(table: Table, start: datetime, end: datetime) -> tuple[int, Decimal, Decimal, Decimal]:
    """Rounds, handle, house win by what was due, and what was paid over due, of [start, end)."""
    rounds = Round.objects.filter(table=table, opened_at__gte=start, opened_at__lt=end, state__in=COUNTED_STATES)
    n = rounds.count()
    if not n:
        return 0, ZERO, ZERO, ZERO
    handle = Wager.objects.filter(round__in=rounds, refunded=False).aggregate(s=Sum("amount"))["s"] or ZERO
    net = SettlementLine.objects.filter(round__in=rounds, superseded=False).aggregate(s=Sum("net"))["s"] or ZERO
    mispaid = ZERO
    for disc in rounds.exclude(discrepancies=[]).values_list("discrepancies", flat=True):
        for d in disc:
            mispaid += Decimal(str(d.get("paid", "0"))) - Decimal(str(d.get("due", "0")))
    return n, Decimal(handle), -Decimal(net), mispaid


def _hundreds(x: Decimal, rounding: str) -> Decimal:
    return (x / 100).to_integral_value(rounding=rounding) * 100


def simulate_accounting(table: Table, days: list[date], *, rng: random.Random, boss: Any, now: datetime,
                        missing_chips: float = 0.0, result: AccountingSim | None = None) -> AccountingSim:
    """Write the accounting of ``table`` for the shifts of ``days`` that had rounds (see the module doc)."""
    result = result or AccountingSim()
    if table.game.slug not in HOUSE_GAMES:
        return result
    cage = _user("sim-cage", CAGE_CASHIER)
    counter = _user("sim-count", COUNT_TEAM)
    casino_id = table.pit.casino_id
    numbers = {k: Slip.objects.filter(casino_id=casino_id, kind=k).aggregate(m=Max("number"))["m"] or 0
               for k in SlipKind.values}  # fmt: skip
    tray_float = make_change((table.max_bet * 4).quantize(Decimal("1")))  # small: fills and credits happen
    float_total = chip_total(tray_float)
    slips: list[Slip] = []
    signatures: list[tuple[Slip, str, Any, datetime]] = []
    drops: list[DropCount] = []
    closer_chips: dict[str, int] | None = None

    def slip(kind: str, day: date, shift: str, chips: dict[str, int], at: datetime, steps: list[tuple[str, Any]],
             ) -> None:
        numbers[kind] += 1
        s = Slip(casino_id=casino_id, kind=kind, number=numbers[kind], table=table, gaming_day=day, shift=shift,
                 chips=chips, total=chip_total(chips), created_by=steps[0][1], created_at=at)  # fmt: skip
        slips.append(s)
        for k, (step, who) in enumerate(steps):
            signatures.append((s, step, who, at + timedelta(minutes=2 * k)))

    for day in days:
        day_drop = ZERO
        counted_any = False
        for shift in SHIFT_NAMES:
            start, end = shift_bounds(day, shift)
            if start >= now:
                break
            if Slip.objects.filter(table=table, gaming_day=day, shift=shift).exists() or \
                    DropCount.objects.filter(table=table, gaming_day=day, shift=shift).exists():
                closer_chips = None
                continue
            n, handle, win, mispaid = _shift_rounds(table, start, end)
            if not n:
                continue
            session = (TableSession.objects.filter(table=table, opened_at__lt=end, opened_at__gte=start)
                       .select_related("dealer").order_by("opened_at").first())  # fmt: skip
            dealer = session.dealer if session else boss
            opener = closer_chips or tray_float
            slip(SlipKind.OPENER, day, shift, opener, start,
                 [(SlipStep.DEALER, dealer), (SlipStep.SUPERVISOR, boss)])
            unit = table.min_bet
            drop = (handle * Decimal(str(rng.uniform(0.15, 0.35))) / unit).to_integral_value(ROUND_FLOOR) * unit
            # Chips players won (or were overpaid) left the tray, chips they lost came in; chips bought
            # with the drop's cash left it.
            tray = chip_total(opener) + win - mispaid - drop
            mid = start + (min(end, now) - start) / 2
            if tray < float_total / 2:
                fill = _hundreds(float_total - tray, ROUND_CEILING)
                slip(SlipKind.FILL, day, shift, make_change(fill), mid,
                     [(SlipStep.REQUESTED, boss), (SlipStep.ISSUED, cage), (SlipStep.RECEIVED, dealer)])
                tray += fill
            elif tray > float_total * 2:
                credit = _hundreds(tray - float_total, ROUND_FLOOR)
                slip(SlipKind.CREDIT, day, shift, make_change(credit), mid,
                     [(SlipStep.REQUESTED, boss), (SlipStep.ISSUED, cage), (SlipStep.RECEIVED, dealer)])
                tray -= credit
            if end > now:
                closer_chips = None  # the shift is still on: no closer, no drop yet
                continue
            if missing_chips and rng.random() < missing_chips:
                lost = min(Decimal(rng.choice((25, 50, 100, 200, 500))), tray)
                tray -= lost
                result.missing.append((table.pk, day, shift, lost))
            closer_chips = make_change(tray)
            slip(SlipKind.CLOSER, day, shift, closer_chips, end - timedelta(minutes=10),
                 [(SlipStep.DEALER, dealer), (SlipStep.SUPERVISOR, boss)])
            drops.append(DropCount(table=table, gaming_day=day, shift=shift, amount=drop, entered_by=counter,
                                   entered_at=end + timedelta(hours=1)))  # fmt: skip
            day_drop += drop
            counted_any = True
        if counted_any and not DropCount.objects.filter(table=table, gaming_day=day, shift="").exists():
            drops.append(DropCount(table=table, gaming_day=day, shift="", amount=day_drop, entered_by=counter,
                                   entered_at=shift_bounds(day, SHIFT_NAMES[-1])[1]))  # fmt: skip
    with simulated_clock(Slip, SlipSignature, DropCount), transaction.atomic():
        Slip.objects.bulk_create(slips)
        SlipSignature.objects.bulk_create([SlipSignature(slip=s, step=step, by=who, at=at)
                                           for s, step, who, at in signatures])  # fmt: skip
        DropCount.objects.bulk_create(drops)
    result.slips += len(slips)
    result.drops += len(drops)
    _seat_players(table, days, rng=rng, boss=boss, now=now, result=result)
    return result


def _seat_players(table: Table, days: list[date], *, rng: random.Random, boss: Any, now: datetime,
                  result: AccountingSim) -> None:
    """Rated players: a few per shift with rounds, each on a seat for one to four hours, some pausing."""
    seats = min(game_spec(table.game.slug).seats, 4)
    pool = [Player.objects.get_or_create(card_number=f"SIM-{table.pk}-{k:02d}",
                                         defaults={"name": f"Guest {table.number}-{k:02d}"})[0]
            for k in range(seats * len(SHIFT_NAMES))]  # fmt: skip
    busy_players = set(RatingSlip.objects.filter(player__in=pool).exclude(state=RatingState.CLOSED)
                       .values_list("player_id", flat=True))  # fmt: skip
    busy_seats = set(RatingSlip.objects.filter(table=table).exclude(state=RatingState.CLOSED)
                     .values_list("seat", flat=True))  # fmt: skip
    made: list[tuple[RatingSlip, list[tuple[datetime, datetime | None]]]] = []
    for day in days:
        for i, shift in enumerate(SHIFT_NAMES):
            start, end = shift_bounds(day, shift)
            if start >= now or not Round.objects.filter(table=table, opened_at__gte=start, opened_at__lt=end).exists():
                continue
            if RatingSlip.objects.filter(table=table, opened_at__gte=start, opened_at__lt=end).exists():
                continue
            for seat in range(1, seats + 1):
                player = pool[i * seats + seat - 1]
                opened = start + timedelta(minutes=rng.randint(0, 120))
                closed = opened + timedelta(minutes=rng.randint(60, 240))
                if opened >= now:
                    continue
                pauses: list[tuple[datetime, datetime | None]] = []
                if rng.random() < 0.4:
                    p = opened + (closed - opened) * rng.uniform(0.3, 0.6)
                    if p < now:
                        pauses.append((p, min(p + timedelta(minutes=rng.randint(5, 25)), now)))
                still = closed > now and seat not in busy_seats and player.pk not in busy_players
                if still:
                    busy_seats.add(seat)
                    busy_players.add(player.pk)
                    pauses = [(a, b) for a, b in pauses if b is not None and b < now]
                rs = RatingSlip(player=player, table=table, seat=seat, opened_at=opened, opened_by=boss,
                                state=RatingState.OPEN if still else RatingState.CLOSED,
                                closed_at=None if still else min(closed, now), closed_by=None if still else boss)
                made.append((rs, pauses))
    with simulated_clock(RatingSlip), transaction.atomic():
        RatingSlip.objects.bulk_create([rs for rs, _ in made])
        RatingPause.objects.bulk_create([RatingPause(slip=rs, started_at=a, ended_at=b)
                                         for rs, ps in made for a, b in ps])  # fmt: skip
    result.rating_slips += len(made)
