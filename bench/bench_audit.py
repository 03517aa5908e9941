"""Benchmark of the nightly audit and the dashboard on PostgreSQL (issue 9).  Prints numbers, asserts nothing.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_bench .venv/bin/python bench/bench_audit.py
    ... --rounds 1000000 --tables 100      # the default: one gaming day of 1,000,000 rounds on 100 tables
    ... --keep                             # reuse the rounds already loaded (skip the set-up)
    ... --celery 2                         # also time the real nightly job: a Celery worker (Redis broker,
                                           # 2 processes) runs audit_nightly's one task per table, then the report

Set-up (not timed as part of the audit): the database is created and migrated; three tables (Finnish
27, Unlimited and Mini Blackjack) play ``rounds / tables`` rounds each through the real engines
(``tables.services.floor_sim``, lean mode); those rounds, with their shoes, shuffles, cards, wagers, settlement
lines, payments and approvals, are then copied in SQL onto the other tables (new ids, same gaming
day) until the floor holds ``rounds`` rounds.  Every round falls in today's gaming day, the worst
case: the day, its three shifts and the month to date each read all of them.

Timed: the nightly audit of that gaming day (every table: shuffle, hold for five periods, pace; then
the report in HTML, PDF and CSV), in one process, and the dashboard's server time (floor JSON, alerts
JSON, the page) through Django's test client, logged in as a pit boss.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import timedelta

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/casino_bench")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("CASINO_VAR_DIR", "/tmp/casino-bench-var")


def ensure_database(url: str) -> None:
    """Create the benchmark database if it does not exist."""
    import psycopg

    base, _, name = url.rpartition("/")
    with psycopg.connect(f"{base}/postgres".replace("postgres://", "postgresql://"), autocommit=True) as c:
        if not c.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            c.execute(f'CREATE DATABASE "{name}"')


def stamp(label: str, t0: float) -> float:
    t = time.perf_counter()
    print(f"  {label}: {t - t0:.2f} s", flush=True)
    return t


def setup(rounds: int, tables: int) -> None:
    """Load the floor: engine-played rounds at three tables, copied in SQL onto the others."""
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from tables.models import Game, PayTable, Pit, Round, RuleSet, Table, TableStatus, VersionStatus
    from tables.services.audits import day_bounds, gaming_day_of
    from tables.services.floor_sim import simulate_floor

    t0 = time.perf_counter()
    call_command("migrate", verbosity=0)
    call_command("flush", "--no-input", verbosity=0)
    call_command("load_demo", verbosity=0, stdout=open(os.devnull, "w"))  # noqa: SIM115
    # Only the three base tables play: the pot and scoring games of the demo are set aside.
    Table.objects.exclude(game__slug__in=("finnish-27", "unlimited-blackjack", "mini-blackjack")).delete()
    t0 = stamp("database ready", t0)
    per_table = rounds // tables
    start, _ = day_bounds(gaming_day_of(timezone.now()))
    open_hours = 16
    r = simulate_floor(tables=3, days=1, rounds_per_hour=max(1, per_table // open_hours) + 1, seed=20261121,
                       lean=True, until=start + timedelta(hours=open_hours), open_hours=open_hours)
    t0 = stamp(f"engines played {r.rounds} rounds on 3 tables ({r.rounds / (time.perf_counter() - t0):.0f}/s)", t0)
    base = list(Table.objects.filter(pk__in=r.tables).order_by("pk"))
    pit, _ = Pit.objects.get_or_create(casino=base[0].pit.casino, name="Bench pit")
    clones = []
    for i in range(tables - 3):
        src = base[i % 3]
        game = Game.objects.get(pk=src.game_id)
        clones.append((src.pk, Table.objects.create(
            pit=pit, number=1000 + i, game=game, min_bet=src.min_bet, max_bet=src.max_bet, status=TableStatus.OPEN,
            rule_set=RuleSet.objects.get(pk=src.rule_set_id, status=VersionStatus.PUBLISHED),
            pay_table=PayTable.objects.get(pk=src.pay_table_id)).pk))
    with connection.cursor() as cur:
        offsets = {}
        for t in ("tables_shoe", "tables_shuffleevent", "tables_round", "tables_wager", "tables_roundcard",
                  "tables_settlementline", "tables_payment", "tables_approval"):
            cur.execute(f"SELECT COALESCE(MAX(id), 0) + 1 FROM {t}")
            offsets[t] = cur.fetchone()[0]
        base_round_max = offsets["tables_round"]
        for g, (src, dst) in enumerate(clones, start=1):
            _clone(cur, g, src, dst, offsets, base_round_max)
        for t in offsets:
            cur.execute(f"SELECT setval(pg_get_serial_sequence('{t}', 'id'), (SELECT MAX(id) FROM {t}))")
        cur.execute("ANALYZE")
    stamp(f"copied onto {len(clones)} more tables: {Round.objects.count()} rounds in all", t0)


def _cols(cur: object, table: str) -> list[str]:
    cur.execute("SELECT column_name FROM information_schema.columns WHERE table_name = %s ORDER BY ordinal_position",
                [table])
    return [r[0] for r in cur.fetchall()]


def _clone(cur: object, g: int, src: int, dst: int, off: dict[str, int], base_round_max: int) -> None:
    """Copy the base table ``src``'s shoes, shuffles, rounds and their rows onto table ``dst``."""
    def sel(table: str, alias: str, repl: dict[str, str]) -> str:
        cols = _cols(cur, table)
        return ", ".join(f'"{c}"' for c in cols), ", ".join(repl.get(c, f'{alias}."{c}"') for c in cols)

    shoe, sev, rnd = off["tables_shoe"], off["tables_shuffleevent"], off["tables_round"]
    cols, exprs = sel("tables_shoe", "s", {"id": f"s.id + {g * shoe}", "table_id": str(dst)})
    cur.execute(f"INSERT INTO tables_shoe ({cols}) SELECT {exprs} FROM tables_shoe s WHERE s.table_id = %s "
                f"AND s.id < {shoe}", [src])
    cols, exprs = sel("tables_shuffleevent", "e", {
        "id": f"e.id + {g * sev}", "table_id": str(dst), "shoe_id": f"e.shoe_id + {g * shoe}",
        "previous_shoe_id": f"e.previous_shoe_id + {g * shoe}"})
    cur.execute(f"INSERT INTO tables_shuffleevent ({cols}) SELECT {exprs} FROM tables_shuffleevent e "
                f"WHERE e.table_id = %s AND e.id < {sev}", [src])
    cols, exprs = sel("tables_round", "r", {"id": f"r.id + {g * rnd}", "table_id": str(dst),
                                            "shoe_id": f"r.shoe_id + {g * shoe}"})
    cur.execute(f"INSERT INTO tables_round ({cols}) SELECT {exprs} FROM tables_round r WHERE r.table_id = %s "
                f"AND r.id < {base_round_max}", [src])
    for child in ("tables_wager", "tables_roundcard", "tables_settlementline", "tables_payment", "tables_approval"):
        cols, exprs = sel(child, "c", {"id": f"c.id + {g * off[child]}", "round_id": f"c.round_id + {g * rnd}"})
        cur.execute(f"INSERT INTO {child} ({cols}) SELECT {exprs} FROM {child} c JOIN tables_round r "
                    f"ON r.id = c.round_id WHERE r.table_id = %s AND c.id < {off[child]}", [src])


def bench_audit() -> None:
    from django.db import connection, reset_queries
    from django.utils import timezone

    from tables.models import AuditFinding, Round, Table
    from tables.services.audits import audit_table_day, gaming_day_of, theory_for
    from tables.services.reports import build_report

    day = gaming_day_of(timezone.now())
    t0 = time.perf_counter()
    for rs, pt in Table.objects.values_list("rule_set_id", "pay_table_id").distinct():
        theory_for(rs, pt)
    stamp("theory of each rule set and pay table (cached after the first night)", t0)
    print(f"nightly audit of gaming day {day}: {Round.objects.count()} rounds on {Table.objects.count()} tables",
          flush=True)
    reset_queries()
    t0 = time.perf_counter()
    ids = list(Table.objects.order_by("pk").values_list("pk", flat=True))
    per = []
    for pk in ids:
        a = time.perf_counter()
        audit_table_day(pk, day)
        per.append(time.perf_counter() - a)
    t1 = stamp(f"audits of {len(ids)} tables (per table: median {statistics.median(per) * 1000:.0f} ms, "
               f"max {max(per) * 1000:.0f} ms)", t0)
    report = build_report(day, email=False)
    t2 = stamp("report (HTML, PDF, CSV)", t1)
    print(f"NIGHTLY AUDIT TOTAL: {t2 - t0:.2f} s for {Round.objects.count()} rounds "
          f"({AuditFinding.objects.count()} findings; report {report.pdf_path})", flush=True)
    del connection


def bench_celery(concurrency: int, broker: str) -> None:
    """The nightly job as production runs it: ``audit_nightly`` enqueued, a real Celery worker with
    ``concurrency`` processes audits one table per task, the last one claims the report; timed from
    enqueueing until the report of the day is done."""
    import subprocess

    from django.utils import timezone

    from tables.models import AuditReport, ReportStatus, Table
    from tables.services.audits import gaming_day_of

    day = gaming_day_of(timezone.now())
    env = {**os.environ, "CELERY_BROKER_URL": broker}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run([sys.executable, "-m", "celery", "-A", "casino", "purge", "-f"], env=env, cwd=root,
                   check=True, capture_output=True)
    worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "casino", "worker", "--loglevel=WARNING",
                               f"--concurrency={concurrency}", "--without-gossip", "--without-mingle"],
                              env=env, cwd=root)
    try:
        time.sleep(8)  # the worker's processes are up and have imported Django
        AuditReport.objects.filter(gaming_day=day).delete()
        from celery import current_app

        t0 = time.perf_counter()
        current_app.send_task("tables.audit_nightly", args=[day.isoformat()])
        while True:
            time.sleep(0.2)
            r = AuditReport.objects.filter(gaming_day=day).first()
            if r is not None and r.status in (ReportStatus.DONE, ReportStatus.FAILED) and r.joined_at:
                break
            if time.perf_counter() - t0 > 1800:
                raise SystemExit("the nightly job did not finish within 30 minutes")
        took = time.perf_counter() - t0
        print(f"NIGHTLY JOB (Celery, {concurrency} worker processes): {took:.2f} s for {Table.objects.count()} "
              f"tables, report {r.status} ({r.summary.get('findings')} findings)", flush=True)
    finally:
        worker.terminate()
        worker.wait(timeout=60)


def bench_dashboard(repeat: int = 20) -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.test import Client

    from tables.access import PIT_BOSS

    user, _ = get_user_model().objects.get_or_create(username="bench-pitboss")
    user.groups.add(Group.objects.get(name=PIT_BOSS))
    c = Client()
    c.force_login(user)
    for url in ("/dashboard/api/floor/", "/dashboard/api/alerts/", "/dashboard/"):
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            response = c.get(url)
            times.append((time.perf_counter() - t0) * 1000)
            assert response.status_code == 200, (url, response.status_code)
        times.sort()
        print(f"dashboard {url}: median {statistics.median(times):.1f} ms, p95 {times[int(0.95 * len(times)) - 1]:.1f} ms, "
              f"max {times[-1]:.1f} ms ({len(response.content)} bytes)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--keep", action="store_true", help="reuse the loaded rounds")
    parser.add_argument("--celery", type=int, default=0, metavar="N",
                        help="also run the nightly job on a real Celery worker with N processes")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/14", help="the broker for --celery")
    args = parser.parse_args()
    url = os.environ["DATABASE_URL"]
    if not url.startswith("postgres"):
        sys.exit("the benchmark runs on PostgreSQL: set DATABASE_URL=postgres://...")
    ensure_database(url)
    if args.celery:
        os.environ["CELERY_BROKER_URL"] = args.broker  # before Django reads its settings
    import django

    django.setup()
    from django.core.management import call_command

    from tables.models import Round

    print(f"database {url}", flush=True)
    call_command("migrate", verbosity=0)  # the schema follows the code, also with --keep
    if not args.keep or not Round.objects.exists():
        setup(args.rounds, args.tables)
    bench_audit()
    if args.celery:
        bench_celery(args.celery, args.broker)
    bench_dashboard()


if __name__ == "__main__":
    main()
