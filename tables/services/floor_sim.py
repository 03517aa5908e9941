"""The floor simulator: plays rounds with the real engines and writes them as the tablet would have.

For demos and load.  Each table plays its game through the engine — Unlimited and Mini Blackjack with
the computed basic strategy, Finnish 27 by the engine's forced plays and the rule text's advice for free
choices — from randomly shuffled shoes with the rule set's shuffle point.  A few things go wrong on purpose,
so the audits and the dashboard have something to find: dealers pay the wrong amount now and then
(some mismatches approved by a pit boss, today's left open), shoes are sometimes dealt past the
shuffle point or shuffled early, a reshuffle is now and then not announced.

Each round is played through the engine's live round (``tables.engine.live``), as the tablet plays it, and
stored as the tablet stores it: its cards and decisions in order (a replay of them rebuilds the round, so a
history round shows as it was played), wagers, settlement lines, payments and approvals.  Rows are written
with ``bulk_create``.
The timestamps are the simulated ones: ``auto_now``/``auto_now_add`` are switched off while writing.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from tables.access import DEALER, PIT_BOSS
from tables.engine import live
from tables.engine.cards import Card
from tables.engine.games import house_games
from tables.engine.money import fmt
from tables.engine.rulesets import BlackjackRules, rules_from_params
from tables.engine.settlement import SettlementLine as EngineLine
from tables.engine.settlement import discrepancies, due_by_kind
from tables.errors import Conflict
from tables.models import (
    Approval,
    ApprovalKind,
    AuditEvent,
    Casino,
    Decision,
    Game,
    Payment,
    PayTable,
    Pit,
    Round,
    RoundCard,
    RoundState,
    RuleSet,
    SettlementLine,
    Shoe,
    ShuffleEvent,
    Table,
    TableSession,
    TableStatus,
    VersionStatus,
    Wager,
)

SIM_GAMES = house_games()  # the floor simulator plays the house-banked games
SIM_PIT = "Simulated pit"
BATCH = 5000


@dataclass(frozen=True)
class Mishaps:
    """How often things go wrong (per round or per shoe)."""

    mispay: float = 0.004  # a round paid wrongly
    approve_mismatch: float = 0.8  # of those, approved by a pit boss (the rest stay open if recent)
    late_shuffle: float = 0.04  # a shoe dealt one or two rounds past its shuffle point (advantage-play risk)
    early_shuffle: float = 0.03  # a shoe shuffled before its shuffle point
    not_notified: float = 0.01  # a reshuffle not announced
    missing_chips: float = 0.03  # chips gone from the tray in a shift (tables/services/accounting_sim.py)


@dataclass
class SimResult:
    """What the simulation wrote."""

    tables: list[int] = field(default_factory=list)
    rounds: int = 0
    shoes: int = 0
    mismatches: int = 0
    late_shoes: int = 0
    early_shoes: int = 0
    accounting: Any = None  # tables.services.accounting_sim.AccountingSim: slips, drops, players, missing chips


@contextmanager
def simulated_clock(*models: Any) -> Iterator[None]:
    """Let the simulated timestamps through: switch off auto_now/auto_now_add on these models' fields."""
    saved = []
    for model in models:
        for f in model._meta.concrete_fields:
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                saved.append((f, f.auto_now, f.auto_now_add))
                f.auto_now = f.auto_now_add = False
    try:
        yield
    finally:
        for f, now, add in saved:
            f.auto_now, f.auto_now_add = now, add


def _user(username: str, role: str) -> Any:
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save()
    user.groups.add(Group.objects.get(name=role))
    return user


def sim_tables(n: int) -> list[Table]:
    """``n`` house-banked tables: the existing ones first, then new ones in the simulated pit."""
    tables = list(Table.objects.filter(game__slug__in=SIM_GAMES).select_related("game", "rule_set", "pay_table")
                  .order_by("pk")[:n])  # fmt: skip
    if len(tables) < n:
        casino = Casino.objects.order_by("pk").first() or Casino.objects.create(name="Demo Casino")
        pit, _ = Pit.objects.get_or_create(casino=casino, name=SIM_PIT)
        number = (Table.objects.filter(pit=pit).aggregate(m=Max("number"))["m"] or 100)
        while len(tables) < n:
            slug = SIM_GAMES[len(tables) % len(SIM_GAMES)]
            game = Game.objects.get(slug=slug)
            rule_set = RuleSet.objects.filter(game=game, status=VersionStatus.PUBLISHED).order_by("version").first()
            pay_table = PayTable.objects.filter(game=game, status=VersionStatus.PUBLISHED).order_by("version").first()
            if rule_set is None or pay_table is None:
                raise Conflict(f"{slug} has no published rule set and pay table to open a simulated table with")
            number += 1
            t = Table.objects.create(
                pit=pit, number=number, game=game, status=TableStatus.OPEN,
                min_bet=Decimal("10.00") if slug == "finnish-27" else Decimal("5.00"), max_bet=Decimal("500.00"),
                rule_set=rule_set, pay_table=pay_table,
            )  # fmt: skip
            tables.append(t)
    return tables


# ---------------------------------------------------------------------------------------------
# Playing rounds through the engines


class Deck:
    """A shoe being dealt: the shuffled cards and the position of the next one."""

    def __init__(self, cards: list[Card]) -> None:
        self.cards = cards
        self.pos = 0

    def draw(self) -> Card:
        c = self.cards[self.pos]
        self.pos += 1
        return c

    def __iter__(self) -> Iterator[Card]:
        while True:
            yield self.draw()


@dataclass
class Played:
    """One played round: its cards and decisions in order, bets, lines per seat."""

    # ("card", code, to, False) or ("decision", actor, action, forced), in the order the table saw them
    events: list[tuple[str, str, str, bool]]
    wagers: list[tuple[int, str, Decimal]]  # (seat, kind, amount)
    lines: dict[int, list[EngineLine]]
    setup: dict[str, Any]  # the round's setup as the live round opened with it (and the Round row keeps)


class Player:
    """Plays one table's game through the engine's live round, as the tablet does."""

    def __init__(self, table: Table, rng: random.Random) -> None:
        self.game = table.game.slug
        self.rng = rng
        self.params = table.rule_set.params
        self.rules: Any = rules_from_params(self.game, self.params)
        self.pay_json = table.pay_table.as_engine_json()
        self.tmin = table.min_bet
        self.tmax = table.max_bet
        if self.game == "finnish-27":
            from tables.analysis.finnish27 import rule_text_strategy

            self.strategy = rule_text_strategy()
        elif not isinstance(self.rules, BlackjackRules):
            raise ValueError(f"{self.game}: the floor simulator plays Finnish 27 and blackjack only")

    def bet(self) -> Decimal:
        units = self.rng.choice((1, 1, 1, 2, 2, 3, 5, 10))
        return min(self.tmin * units, self.tmax)

    def play(self, deck: Deck) -> Played:
        """Play one round from ``deck``: the bets, then every card and decision the live round asks for."""
        wagers = self._wagers()
        seats = sorted({s for s, _, _ in wagers})
        setup = {"seats": [{"seat": s, "wagers": {k: fmt(a) for (s2, k, a) in wagers if s2 == s}, "behind": []}
                           for s in seats]}  # fmt: skip
        state = live.start(self.game, self.params, self.pay_json, self.tmin, setup)
        events: list[tuple[str, str, str, bool]] = []
        while True:
            prompt = live.next_step(self.game, state)
            if prompt.needs == "card":
                card = deck.draw()
                live.deal(self.game, state, card)
                events.append(("card", card.code, prompt.actor or "dealer", False))
            elif prompt.needs == "decision":
                action = prompt.forced or self._choose(state, prompt)
                live.decide(self.game, state, prompt.actor or "", action)
                events.append(("decision", prompt.actor or "", action, prompt.forced == action))
            elif prompt.needs == "settle":
                return Played(events, wagers, {seat: list(lines) for seat, lines in live.settle(self.game, state)}, setup)
            else:
                raise RuntimeError(f"{self.game}: the simulated round waits for {prompt.needs!r}")

    def _wagers(self) -> list[tuple[int, str, Decimal]]:
        if self.game == "finnish-27":
            return [(1, "main", self.bet())]
        if self.rules.single_player:
            seats = [self.rng.randint(1, 3)]
        else:
            seats = sorted(self.rng.sample(range(1, self.rules.seats + 1), self.rng.randint(1, 4)))
        wagers: list[tuple[int, str, Decimal]] = []
        for s in seats:
            wagers.append((s, "main", self.bet()))
            if not self.rules.single_player and self.rng.random() < 0.25:
                wagers.append((s, "perfect-pairs", self.tmin))
            if not self.rules.single_player and self.rng.random() < 0.2:
                wagers.append((s, "21+3", self.tmin))
        return wagers

    def _choose(self, state: Any, prompt: Any) -> str:
        """A free choice: Finnish 27 by the rule text's advice, blackjack by the computed basic strategy
        (no insurance is taken; surrender where the strategy says so)."""
        allowed = tuple(prompt.allowed)
        if self.game == "finnish-27":
            from tables.analysis.finnish27 import strategy_play

            play = strategy_play(self.strategy, state.player, state.dealer)
            return play if play in allowed else allowed[0]
        from tables.analysis.blackjack import recommend

        seat_no, hand_no, _ = live.parse_actor(prompt.actor or "")
        (seat,) = [x for x in state.seats if x.number == seat_no]
        if prompt.phase == "offers":
            # early surrender against an Ace, where the strategy says so
            surrender = "surrender" in allowed and recommend(self.rules, seat.hands[0].cards, state.dealer[0],
                                                             False, False, True) == "surrender"  # fmt: skip
            return "surrender" if surrender else "decline"
        hand = seat.hands[hand_no or 0]
        play = recommend(self.rules, hand.cards, state.dealer[0], "double" in allowed, "split" in allowed, False)
        return play if play in allowed else ("hit" if "hit" in allowed else "stand")


# ---------------------------------------------------------------------------------------------
# Writing


class Writer:
    """Collects rows and writes them in batches."""

    def __init__(self) -> None:
        self.rows: dict[Any, list[Any]] = defaultdict(list)

    def add(self, obj: Any) -> None:
        self.rows[type(obj)].append(obj)

    def flush(self, *order: Any) -> None:
        for model in order:
            objs = self.rows.pop(model, [])
            if objs:
                model.objects.bulk_create(objs, batch_size=BATCH)


def _approval_limit() -> tuple[Decimal, Decimal]:
    from tables.services.common import approval_amount, approval_multiple

    return approval_amount(), approval_multiple()


CLOCKED = (Shoe, ShuffleEvent, Round, RoundCard, Decision, Payment, Approval, AuditEvent, TableSession)


def simulate_floor(*, tables: int = 3, days: int = 1, rounds_per_hour: int = 40, seed: int | None = None,
                   mishaps: Mishaps | None = None, lean: bool = False, until: datetime | None = None,
                   open_hours: int = 16, leave_free: bool = False) -> SimResult:
    """Play ``days`` gaming days (ending now, today's up to now) at ``tables`` tables and store them.

    ``rounds_per_hour`` per table over ``open_hours`` hours of each gaming day (from its start);
    ``lean`` leaves the per-round rule and pay-table snapshots empty and writes no per-round audit
    event (the version keys are kept): for load tests of millions of rounds only.  ``leave_free``
    ends every simulated dealer's session at the end (the demo: every table free to take).
    """
    from tables.services.audits import day_bounds, gaming_day_of

    rng = random.Random(seed)
    mishaps = mishaps or Mishaps()
    now = until or timezone.now()
    today = gaming_day_of(now)
    boss = _user("sim-pitboss", PIT_BOSS)
    result = SimResult()
    for table in sim_tables(tables):
        result.tables.append(table.pk)
        sim = TableSim(table, rng, mishaps, boss, now, lean, result)
        sim.has_session = sim.has_session or leave_free
        for d in range(days - 1, -1, -1):
            day = today - timedelta(days=d)
            start, _ = day_bounds(day)
            sim.play_day(start, min(start + timedelta(hours=open_hours), now), rounds_per_hour)
        sim.flush()
        # Table accounting: inventories, fills, credits, drop and rated players of the simulated shifts.
        from tables.services.accounting_sim import simulate_accounting

        result.accounting = simulate_accounting(
            table, [today - timedelta(days=d) for d in range(days - 1, -1, -1)], boss=boss, now=now,
            # Its own stream (the rounds stay as seeded), by the table's number: its pk depends on what ran before.
            rng=random.Random(f"accounting:{seed}:{table.number}"),
            missing_chips=mishaps.missing_chips, result=result.accounting)
    return result


class TableSim:
    """One table's simulated history: its shoe, its counters and the rows waiting to be written."""

    def __init__(self, table: Table, rng: random.Random, mishaps: Mishaps, boss: Any, now: datetime, lean: bool,
                 result: SimResult) -> None:
        self.table, self.rng, self.mishaps, self.boss, self.now, self.lean = table, rng, mishaps, boss, now, lean
        self.result = result
        self.dealers = [_user(f"sim-dealer-{table.pk}-{k}", DEALER) for k in range(3)]
        self.player = Player(table, rng)
        spec = self.spec = self.player.rules.shoe
        self.shoe_spec = {"decks": spec.decks, "jokers_per_deck": spec.jokers_per_deck,
                          "total_jokers": spec.total_jokers, "shuffle_rule": spec.shuffle_rule.value,
                          "shuffle_at": spec.shuffle_at, "size": spec.size}  # fmt: skip
        self.rules_snapshot = {} if lean else dict(table.rule_set.params)
        self.pay_snapshot = {} if lean else self.player.pay_json
        self.round_no = Round.objects.filter(table=table).aggregate(m=Max("number"))["m"] or 0
        self.shoe_no = Shoe.objects.filter(table=table).aggregate(m=Max("number"))["m"] or 0
        self.limit_amount, self.limit_multiple = _approval_limit()
        self.has_session = TableSession.objects.filter(table=table, closed_at__isnull=True).exists()
        # The shoe being dealt at the table ends: the simulated history deals its own shoes.
        Shoe.objects.filter(table=table, ended_at__isnull=True).update(ended_at=now)
        self.w = Writer()
        self.shoe: Shoe | None = None
        self.deck: Deck | None = None
        self.stop_at = self.spec.shuffle_at
        self.late_rounds = self.late_dealt = 0

    def flush(self) -> None:
        """Write the rows collected so far (parents first: their keys come back from the insert)."""
        with simulated_clock(*CLOCKED), transaction.atomic():
            self.w.flush(Shoe, ShuffleEvent, TableSession, Round, Wager, RoundCard, Decision, SettlementLine, Payment,
                         Approval, AuditEvent)  # fmt: skip

    def play_day(self, start: datetime, end: datetime, rounds_per_hour: int) -> None:
        """Play the rounds of [start, end) evenly spaced, one dealer per eight-hour shift."""
        if end <= start:
            return
        n = int((end - start).total_seconds() / 3600 * rounds_per_hour)
        if n == 0:
            return
        step = (end - start) / n
        for k in range(0, 24, 8):
            s_at = start + timedelta(hours=k)
            if s_at >= end:
                break
            s_end = min(s_at + timedelta(hours=8), end)
            still_open = s_end == self.now and not self.has_session
            self.w.add(TableSession(table=self.table, dealer=self.dealers[k // 8], opened_at=s_at, opened_by=self.boss,
                                    closed_at=None if still_open else s_end))  # fmt: skip
        for i in range(n):
            at = start + step * i
            dealer = self.dealers[min(int((at - start).total_seconds() // (8 * 3600)), 2)]
            self._round(at, step, dealer)

    def _shuffle(self, at: datetime, dealer: Any) -> None:
        spec, rng = self.spec, self.rng
        previous = self.shoe
        dealt = self.deck.pos if self.deck is not None else 0
        if previous is not None:
            previous.ended_at = at
            previous.cards_dealt = dealt
            if len(self.w.rows[RoundCard]) > 50_000:
                self.flush()  # the ended shoe is complete: written with its final state
        self.shoe_no += 1
        self.shoe = Shoe(table=self.table, number=self.shoe_no, spec=self.shoe_spec, shuffled_at=at,
                         shuffled_by=dealer, cards_dealt=0)  # fmt: skip
        self.w.add(self.shoe)
        self.w.add(ShuffleEvent(
            table=self.table, previous_shoe=previous, shoe=self.shoe, at=at, by=dealer,
            reason="shuffle point reached" if dealt >= spec.shuffle_at else "shuffle",
            cards_dealt_before=dealt, shuffle_at=spec.shuffle_at,
            penetration=Decimal(dealt / spec.size).quantize(Decimal("0.0001")),
            players_notified=previous is None or rng.random() >= self.mishaps.not_notified,
        ))  # fmt: skip
        self.deck = Deck(spec.shuffled(rng))
        self.result.shoes += 1
        if previous is not None and 0 < dealt < spec.shuffle_at:
            self.result.early_shoes += 1
        # The dealer's mistake with this shoe, if any: a round or two dealt past the shuffle point, or
        # a shuffle well before it.
        self.late_rounds = rng.randint(1, 2) if rng.random() < self.mishaps.late_shuffle else 0
        self.late_dealt = 0
        self.stop_at = spec.shuffle_at
        if not self.late_rounds and rng.random() < self.mishaps.early_shuffle:
            self.stop_at = int(spec.shuffle_at * rng.uniform(0.3, 0.8))

    def _shuffle_due(self) -> bool:
        deck = self.deck
        if deck is None or self.spec.size - deck.pos < 60 or deck.pos >= self.stop_at > 0 and \
                self.stop_at < self.spec.shuffle_at:
            return True
        if deck.pos < self.spec.shuffle_at:
            return False
        if self.late_dealt < self.late_rounds:  # past the point, and the dealer deals on
            if self.late_dealt == 0:
                self.result.late_shoes += 1
            self.late_dealt += 1
            return False
        return True

    def _cards_and_decisions(self, rnd: Round, played: Played, first_pos: int, dealer: Any, at: datetime) -> None:
        """The round's cards and decisions, in one sequence as the tablet stores them."""
        dealt = 0
        for seq, (kind, who, what, forced) in enumerate(played.events, start=1):
            if kind == "card":
                self.w.add(RoundCard(round=rnd, seq=seq, shoe_position=first_pos + dealt, to=what, code=who,
                                     recorded_by=dealer, recorded_at=at))  # fmt: skip
                dealt += 1
            else:
                self.w.add(Decision(round=rnd, seq=seq, actor=who, action=what, forced=forced, recorded_by=dealer,
                                    recorded_at=at))  # fmt: skip

    def _round(self, at: datetime, step: timedelta, dealer: Any) -> None:
        rng, player, table = self.rng, self.player, self.table
        if self._shuffle_due():
            self._shuffle(at, dealer)
        deck, shoe = self.deck, self.shoe
        assert deck is not None and shoe is not None
        first_pos = deck.pos + 1
        played = player.play(deck)
        shoe.cards_dealt = deck.pos
        self.round_no += 1
        due: dict[str, dict[str, str]] = {}
        paid: dict[str, dict[str, str]] = {}
        found: list[dict[str, Any]] = []
        mispay = rng.random() < self.mishaps.mispay
        big = ""
        for seat, lines in played.lines.items():
            d = {k: v for k, v in due_by_kind(lines).items() if v > 0}
            p = dict(d)
            if mispay and seat == min(played.lines):
                kind = next(iter(p), "main")  # one table minimum too much (or paid to a losing bet)
                p[kind] = p.get(kind, Decimal("0")) + player.tmin
            due[str(seat)] = {k: fmt(v) for k, v in d.items()}
            paid[str(seat)] = {k: fmt(v) for k, v in p.items()}
            found += discrepancies(seat, lines, p)
            for ln in lines:
                if not big and ln.net > 0 and (ln.net >= self.limit_amount or ln.net >= self.limit_multiple * ln.wager):
                    big = f"seat {seat} {ln.bet} pays {fmt(ln.net)}"
        recent = self.now - at < timedelta(hours=6)
        approved = bool(found) and (not recent or rng.random() < self.mishaps.approve_mismatch)
        state = RoundState.MISMATCH if found and not approved else RoundState.CLOSED
        settled_at = at + step * 0.8
        rnd = Round(
            table=table, shoe=shoe, number=self.round_no, game=player.game, rule_set_id=table.rule_set_id,
            pay_table_id=table.pay_table_id, rules=self.rules_snapshot, pay_table_lines=self.pay_snapshot,
            table_minimum=player.tmin, state=state, version=4,
            setup=played.setup,
            prompt={"phase": "settled", "needs": "none"}, due=due, paid=paid, discrepancies=found,
            approval_required=bool(big), approval_reason=big, opened_by=dealer, opened_at=at, updated_at=settled_at,
            settled_at=settled_at, closed_at=None if state == RoundState.MISMATCH else settled_at,
        )  # fmt: skip
        w = self.w
        w.add(rnd)
        self.result.rounds += 1
        for seat, kind, amount in played.wagers:
            w.add(Wager(round=rnd, seat=seat, kind=kind, amount=amount))
        self._cards_and_decisions(rnd, played, first_pos, dealer, at)
        for seat, lines in played.lines.items():
            for ln in lines:
                w.add(SettlementLine(round=rnd, seat=seat, bet=ln.bet, wager=ln.wager, result=ln.result, net=ln.net,
                                     detail=ln.detail[:300], hand=ln.hand, behind=ln.behind))  # fmt: skip
            for kind, paid_text in paid[str(seat)].items():
                w.add(Payment(round=rnd, seat=seat, kind=kind, amount=Decimal(paid_text), recorded_by=dealer,
                              recorded_at=settled_at))  # fmt: skip
        if big:
            w.add(Approval(round=rnd, kind=ApprovalKind.LARGE_PAYOUT, reason="checked the hand, pay it",
                           approved_by=self.boss, approved_at=settled_at, payload={"why": big}))  # fmt: skip
        if found:
            self.result.mismatches += 1
            if approved:
                w.add(Approval(round=rnd, kind=ApprovalKind.MISMATCH, reason="overpayment recovered from the player",
                               approved_by=self.boss, approved_at=settled_at, payload={"discrepancies": found}))  # fmt: skip
        if not self.lean:
            w.add(AuditEvent(actor=dealer, action="round.simulated", at=settled_at, table=table, round=rnd,
                             payload={"due": due, "paid": paid, "discrepancies": found}))  # fmt: skip
