"""Constructed floors for the audit and dashboard tests: shoes, shuffles and rounds written row by row."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from tables.models import (
    BetTheory,
    Round,
    RoundCard,
    RoundState,
    SettlementLine,
    Shoe,
    ShuffleEvent,
    Table,
    Wager,
)
from tables.services.audits import day_bounds
from tables.services.floor_sim import CLOCKED, simulated_clock

D = Decimal
DAY = date(2026, 11, 20)


def at(hour: float, day: date = DAY) -> datetime:
    """A moment ``hour`` hours into the gaming day ``day``."""
    return day_bounds(day)[0] + timedelta(hours=hour)


def set_theory(table: Table, bets: dict[str, tuple[float, float]]) -> None:
    """Fix the theory of the table's versions: bet kind -> (edge, variance); no simulation in tests."""
    BetTheory.objects.update_or_create(
        rule_set=table.rule_set, pay_table=table.pay_table,
        defaults={"game": table.game.slug,
                  "bets": {k: {"edge": e, "variance": v, "method": "test"} for k, (e, v) in bets.items()}},
    )  # fmt: skip


@dataclass
class FloorBuilder:
    """Writes shoes and rounds of one table as the tablet would have stored them."""

    table: Table
    user: Any
    shoe: Shoe | None = None
    round_no: int = 0
    shoe_no: int = 0
    position: int = 0
    spec: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        s = self.table.rule_set.rules().shoe
        self.spec = {"decks": s.decks, "jokers_per_deck": s.jokers_per_deck, "total_jokers": s.total_jokers,
                     "shuffle_rule": s.shuffle_rule.value, "shuffle_at": s.shuffle_at, "size": s.size}

    def shuffle(self, when: datetime, *, notified: bool = True, reason: str = "test") -> Shoe:
        """End the current shoe (its penetration recorded) and start a new one."""
        with simulated_clock(*CLOCKED):
            previous = self.shoe
            if previous is not None:
                Shoe.objects.filter(pk=previous.pk).update(ended_at=when, cards_dealt=self.position)
            self.shoe_no += 1
            self.shoe = Shoe.objects.create(table=self.table, number=self.shoe_no, spec=self.spec, shuffled_at=when,
                                            shuffled_by=self.user)  # fmt: skip
            ShuffleEvent.objects.create(
                table=self.table, previous_shoe=previous, shoe=self.shoe, at=when, by=self.user, reason=reason,
                cards_dealt_before=self.position if previous else 0, shuffle_at=self.spec["shuffle_at"],
                penetration=D(self.position) / D(self.spec["size"]) if previous else D(0), players_notified=notified,
            )  # fmt: skip
        self.position = 0
        return self.shoe

    def round(self, when: datetime, cards: list[str], *, wagers: dict[str, str] | None = None,
              nets: dict[str, str] | None = None, state: str = RoundState.CLOSED, seat: int = 1,
              discrepancies: list[dict[str, Any]] | None = None) -> Round:
        """A settled round on the current shoe: its cards, one seat's wagers and settlement lines."""
        wagers = wagers or {"main": "10.00"}
        nets = nets if nets is not None else {"main": "-10.00"}
        self.round_no += 1
        with simulated_clock(*CLOCKED):
            rnd = Round.objects.create(
                table=self.table, shoe=self.shoe, number=self.round_no, game=self.table.game.slug,
                rule_set=self.table.rule_set, pay_table=self.table.pay_table, table_minimum=self.table.min_bet,
                state=state, opened_by=self.user, opened_at=when, updated_at=when, settled_at=when,
                closed_at=when if state == RoundState.CLOSED else None, discrepancies=discrepancies or [],
                setup={"seats": [{"seat": seat, "wagers": wagers, "behind": []}]},
            )  # fmt: skip
            for kind, amount in wagers.items():
                Wager.objects.create(round=rnd, seat=seat, kind=kind, amount=D(amount))
            for bet, net in nets.items():
                SettlementLine.objects.create(round=rnd, seat=seat, bet=bet, wager=D(wagers.get(bet, "0")),
                                              result="win" if D(net) > 0 else "lose", net=D(net))  # fmt: skip
            for i, code in enumerate(cards, start=1):
                self.position += 1
                RoundCard.objects.create(round=rnd, seq=i, shoe_position=self.position, to="seat:1", code=code,
                                         recorded_by=self.user, recorded_at=when)  # fmt: skip
        return rnd

    def deal_rounds(self, start: datetime, count: int, cards_per_round: int, first_index: int = 0) -> list[Round]:
        """``count`` rounds of distinct ordinary cards (no card twice), a minute apart."""
        deck = [r + s for s in "SHDC" for r in "23456789TJQKA"]
        out = []
        k = first_index
        for i in range(count):
            codes = [deck[(k + j) % 52] for j in range(cards_per_round)]
            k += cards_per_round
            out.append(self.round(start + timedelta(minutes=i), codes))
        return out
