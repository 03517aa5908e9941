"""``manage.py load_demo``: a demo casino to try the system with.  Idempotent.

Creates (or leaves as they are) the published games (``seed_games``), the casino "Demo Casino" with
one pit "Main pit" and one open table per game, and one user per role:

    user      password         role
    admin     admin-demo-1     superuser
    manager   manager-demo-1   games manager
    manager2  manager2-demo-1  games manager (the second person a publish waits for)
    pitboss   pitboss-demo-1   pit boss
    dealer    dealer-demo-1    dealer
    auditor   auditor-demo-1   auditor
    cashier   cashier-demo-1   cage cashier
    counter   counter-demo-1   count team

The passwords are for a demo on one's own machine only; existing users keep their password unless
``--reset-passwords`` is given.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from tables.access import AUDITOR, CAGE_CASHIER, COUNT_TEAM, DEALER, GAMES_MANAGER, PIT_BOSS
from tables.models import Casino, Game, PayTable, Pit, RuleSet, Table, TableStatus, VersionStatus
from tables.services.seed import SEED_NAME

CASINO = "Demo Casino"
PIT = "Main pit"

# (username, password, role group or None for the superuser, staff: may use the back office)
DEMO_USERS: tuple[tuple[str, str, str | None, bool], ...] = (
    ("admin", "admin-demo-1", None, True),
    ("manager", "manager-demo-1", GAMES_MANAGER, True),
    ("manager2", "manager2-demo-1", GAMES_MANAGER, True),  # maker-checker: a publish waits for a second one
    ("pitboss", "pitboss-demo-1", PIT_BOSS, True),
    ("dealer", "dealer-demo-1", DEALER, False),
    ("auditor", "auditor-demo-1", AUDITOR, True),
    ("cashier", "cashier-demo-1", CAGE_CASHIER, True),
    ("counter", "counter-demo-1", COUNT_TEAM, True),
)

# Table number and limits per game: house-banked games at everyday limits; the pot and scoring games
# have their chips in the rule set, the limits bound the buy-in per player.
DEMO_TABLES: tuple[tuple[int, str, Decimal, Decimal], ...] = (
    (1, "finnish-27", Decimal("10.00"), Decimal("500.00")),
    (2, "unlimited-blackjack", Decimal("5.00"), Decimal("1000.00")),
    (3, "mini-blackjack", Decimal("5.00"), Decimal("250.00")),
    (4, "bluffjack", Decimal("1.00"), Decimal("100.00")),
    (5, "contract-rummy", Decimal("1.00"), Decimal("50.00")),
)


class Command(BaseCommand):
    help = "Load the demo casino: one pit, an open table per game, a user per role (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reset-passwords", action="store_true", help="Set the demo passwords again.")
        parser.add_argument(
            "--history-days", type=int, default=0, metavar="N",
            help="Also play N gaming days of simulated rounds at the house-banked tables (real engines) and audit "
                 "them, so the dashboard and reports show something; only when no round exists yet.",
        )  # fmt: skip
        parser.add_argument(
            "--theory", action="store_true",
            help="Also queue the simulated theory of the published pay tables (Finnish 27) for the worker, rather "
                 "than when someone first opens the pay table's page (bin/run does).",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("seed_games", stdout=self.stdout)
        with transaction.atomic():
            casino, _ = Casino.objects.get_or_create(name=CASINO)
            pit, _ = Pit.objects.get_or_create(casino=casino, name=PIT)
            for number, slug, min_bet, max_bet in DEMO_TABLES:
                game = Game.objects.get(slug=slug)
                if Table.objects.filter(pit=pit, number=number).exists():
                    continue
                table = Table(
                    pit=pit, number=number, game=game, min_bet=min_bet, max_bet=max_bet, status=TableStatus.OPEN,
                    rule_set=RuleSet.objects.get(game=game, name=SEED_NAME, version=1, status=VersionStatus.PUBLISHED),
                    pay_table=PayTable.objects.get(game=game, name=SEED_NAME, version=1, status=VersionStatus.PUBLISHED),
                )
                table.full_clean()
                table.save()
            self._users(reset=options["reset_passwords"])
            if options["theory"]:
                # The published pay tables' simulated theory (Finnish 27) queued now, for the worker to compute,
                # rather than when someone first opens the page (it showed "simulating…" for a minute and a half).
                from tables.services.theory import SIMULATED_GAMES, default_rule_set, theory_for

                # Only the simulated games: the exact figures of the others come at once when asked.
                for pay_table in PayTable.objects.filter(status=VersionStatus.PUBLISHED,
                                                         game__slug__in=SIMULATED_GAMES).select_related("game"):
                    theory_for(pay_table, default_rule_set(pay_table))
        self.stdout.write(self.style.SUCCESS(f"Demo casino ready: {CASINO} / {PIT}, tables 1-{len(DEMO_TABLES)}."))
        self.stdout.write("Demo logins (user / password / role):")
        for username, password, role, _ in DEMO_USERS:
            self.stdout.write(f"  {username:<8} {password:<16} {role or 'superuser'}")
        if options["history_days"] > 0:
            self._history(options["history_days"])

    def _history(self, days: int) -> None:
        """A small simulated history, played once: the floor simulator, then the audits of those days."""
        from datetime import timedelta

        from tables.models import Round
        from tables.services.audits import audit_floor_day, gaming_day_of
        from tables.services.floor_sim import simulate_floor

        if Round.objects.exists():
            self.stdout.write("Simulated history: rounds already exist, none added.")
            return
        result = simulate_floor(tables=3, days=days, rounds_per_hour=20, seed=1, leave_free=True)
        today = gaming_day_of(timezone.now())
        for d in range(days - 1, -1, -1):
            audit_floor_day(today - timedelta(days=d), result.tables)
        # The simulated dealers' shifts are over: every table is free for the demo dealer to take.
        from tables.models import TableSession

        TableSession.objects.filter(closed_at__isnull=True, dealer__username__startswith="sim-dealer-").update(
            closed_at=timezone.now())
        # The nightly report of each gaming day that is over, as the nightly job would have written it.
        from tables.services.reports import build_report

        past = [today - timedelta(days=d) for d in range(days - 1, 0, -1)]
        for day in past:
            build_report(day, email=False)
        self.stdout.write(f"Simulated history: {days} gaming day(s) at tables {result.tables}, audited; every table free; "
                          f"nightly report{'s' if len(past) != 1 else ''} of {', '.join(map(str, past)) or 'no past day'}.")

    def _users(self, *, reset: bool) -> None:
        User = get_user_model()
        for username, password, role, staff in DEMO_USERS:
            user, created = User.objects.get_or_create(username=username)
            if created or reset:
                user.set_password(password)
            user.is_staff = staff
            user.is_superuser = role is None
            user.save()
            if role is not None:
                user.groups.add(Group.objects.get(name=role))
