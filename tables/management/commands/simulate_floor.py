"""``manage.py simulate_floor --tables N --days D``: play rounds with the real engines and store them."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tables.services.floor_sim import simulate_floor


class Command(BaseCommand):
    help = "Simulate a floor: rounds played by the engines at N tables over D gaming days (ending now)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=3)
        parser.add_argument("--days", type=int, default=1)
        parser.add_argument("--rounds-per-hour", type=int, default=40)
        parser.add_argument("--open-hours", type=int, default=16, help="hours a table plays per gaming day")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--lean", action="store_true",
                            help="no per-round rule snapshots or audit events (load tests of millions of rounds)")

    def handle(self, *args: Any, **o: Any) -> None:
        if o["tables"] < 1 or o["days"] < 1 or o["rounds_per_hour"] < 1 or not 1 <= o["open_hours"] <= 24:
            self.stderr.write("tables, days and rounds-per-hour must be positive; open-hours 1 to 24")
            raise SystemExit(2)
        t0 = time.perf_counter()
        r = simulate_floor(tables=o["tables"], days=o["days"], rounds_per_hour=o["rounds_per_hour"],
                           open_hours=o["open_hours"], seed=o["seed"], lean=o["lean"])
        s = time.perf_counter() - t0
        self.stdout.write(
            f"Simulated {r.rounds} rounds on {len(r.tables)} tables ({r.shoes} shoes; {r.mismatches} mispaid rounds, "
            f"{r.late_shoes} shoes dealt late, {r.early_shoes} shuffled early) in {s:.1f} s "
            f"({r.rounds / s if s else 0:.0f} rounds/s)."
        )
