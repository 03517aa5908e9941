"""The floor at scale (issue 20): N tables played through the live API on PostgreSQL, M dashboards on the
push channel.  Prints numbers and writes them to a JSON file; asserts nothing.

    .venv/bin/python bench/floor_load.py --tables 100 --minutes 4 --dashboards 20 --workers 3

What runs: a fresh database of its own (``casino_floor``: dropped and made again, nothing else is
touched), migrated, the demo loaded and N Unlimited Blackjack tables added in pits of 25; uvicorn
with W worker processes on ``casino.asgi`` (PostgreSQL, Redis for the cache, the Celery broker and the
push channel's fan-out between workers); one Celery worker (today's hold as rounds settle).  Then:

- N tablets (threads, a pit boss's API token: a pit boss may act at any table), each playing one
  round every 3600 / ``--rate`` seconds (staggered), a round being the tablet's commands: open with
  wagers, the cards and decisions the answers ask for, settle, pay what is due;
- M dashboards, each a pit boss's session following ``/api/events/floor/`` (server-sent events) and
  reading the floor JSON every ``--feed-every`` seconds.

Measured: the push latency (each event carries the server's time at commit, ``sent``; the dashboard's
clock is the same machine's), events received against events published (lost ones), the commands'
and the floor feed's latency (p50/p95), the database's growth per round and so per gaming day, and the
audit of today (what the nightly job runs per table) on the rounds played.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from liveserver import psql  # noqa: E402

PYTHON = sys.executable
T0 = time.monotonic()


def log(msg: str) -> None:
    print(f"[{time.monotonic() - T0:7.1f}s] {msg}", flush=True)


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    v = sorted(values)
    return round(v[min(len(v) - 1, int(p / 100 * len(v)))], 4)


def summary(values: list[float]) -> dict[str, float | int | None]:
    return {"n": len(values), "p50": pct(values, 50), "p95": pct(values, 95), "p99": pct(values, 99),
            "max": round(max(values), 4) if values else None,
            "mean": round(statistics.fmean(values), 4) if values else None}


SETUP = """
from decimal import Decimal
from django.contrib.auth.hashers import make_password
from tables.models import Casino, Pit, Table
src = Table.objects.select_related("pit").get(game__slug="unlimited-blackjack", pit__name="Main pit")
n = {n}
rows = []
for k in range(n):
    pit, _ = Pit.objects.get_or_create(casino=src.pit.casino, name=f"Pit {{chr(65 + k // 25)}}")
    rows.append(Table(pit=pit, number=100 + k, game=src.game, rule_set=src.rule_set, pay_table=src.pay_table,
                      min_bet=Decimal("5.00"), max_bet=Decimal("500.00")))
Table.objects.bulk_create(rows)
print(",".join(str(t.pk) for t in Table.objects.filter(number__gte=100).order_by("number")))
"""


PUBLISHER = """
import time
from tables.services.push import publish
ids, rate, seconds = [{ids}], {rate}, {seconds}
period, n, t0 = 1.0 / rate, 0, time.monotonic()
while time.monotonic() - t0 < seconds:
    table = ids[n % len(ids)]
    publish(table_id=table, kind="audit", data={{"action": "round.card", "round": n, "round_number": n,
            "round_state": "in_play", "round_version": 3, "approval_required": False, "table_status": "open",
            "table_number": table, "at": None, "actor": "pitboss"}})
    n += 1
    wait = t0 + n * period - time.monotonic()
    if wait > 0:
        time.sleep(wait)
print("PUBLISHED", n)
"""


def fresh_database(pg: str, db: str, env: dict[str, str], tables: int) -> list[int]:
    assert db.startswith("casino_floor"), "this bench only ever recreates its own database"
    psql(pg, f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{db}' AND pid <> pg_backend_pid()")
    psql(pg, f'DROP DATABASE IF EXISTS "{db}"')
    psql(pg, f'CREATE DATABASE "{db}"')
    for cmd in (["migrate", "-v0"], ["load_demo", "--history-days", "0"]):
        subprocess.run([PYTHON, "manage.py", *cmd], cwd=ROOT, env=env, check=True, timeout=900,
                       stdout=subprocess.DEVNULL)
    out = subprocess.run([PYTHON, "manage.py", "shell", "-c", SETUP.format(n=tables)], cwd=ROOT, env=env,
                         check=True, timeout=300, capture_output=True, text=True).stdout
    return [int(x) for x in out.strip().splitlines()[-1].split(",")]


def db_size(pg: str, db: str) -> int:
    return int(psql(pg, f"SELECT pg_database_size('{db}')").strip())


def idempotency_size(pg: str, db: str) -> int:
    """The idempotency records' share (purged after IDEMPOTENCY_KEEP_HOURS: not part of the kept growth)."""
    return int(psql(pg, "SELECT pg_total_relation_size('tables_idempotencykey')", database=db).strip())


def count_rounds(pg: str, db: str) -> int:
    return int(psql(pg, "SELECT count(*) FROM tables_round", database=db).strip())


# ------------------------------------------------------------------------------------------------ tablets


class Tablet:
    """One table's tablet: a round every ``period`` seconds, each command answered with the round."""

    def __init__(self, base: str, tok: str, table: int, period: float, rng: random.Random, stats: dict) -> None:
        self.base, self.table, self.period, self.rng, self.stats = base, table, period, rng, stats
        self.s = requests.Session()
        self.s.headers["Authorization"] = f"Token {tok}"
        self.deck: list[str] = []

    def post(self, path: str, body: dict) -> requests.Response | None:
        t = time.monotonic()
        try:
            r = self.s.post(self.base + path, json=body, timeout=30, headers={"Idempotency-Key": uuid.uuid4().hex})
        except requests.RequestException:
            self.stats["errors"] += 1
            return None
        self.stats["commands"].append(time.monotonic() - t)
        if r.status_code >= 500:
            self.stats["errors"] += 1
        return r

    def card(self) -> str:
        if not self.deck:
            self.deck = [r + s for r in "23456789TJQKA" for s in "SHDC"] * 2
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    def play_round(self) -> None:
        r = self.post(f"/api/tables/{self.table}/rounds/", {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]})
        if r is None:
            return
        if r.status_code == 409:
            self.post(f"/api/tables/{self.table}/shuffle/", {"reason": "load: a fresh shoe"})
            return
        if r.status_code != 201:
            self.stats["refused"] += 1
            return
        doc = r.json()
        for _ in range(30):
            state, nxt = doc["state"], doc.get("next") or {}
            needs, rid, v = nxt.get("needs"), doc["id"], doc["version"]
            if state in ("closed", "cancelled", "mismatch"):
                self.stats["rounds"] += 1
                return
            if state == "settled":
                r = self.post(f"/api/rounds/{rid}/paid/", {"paid": doc.get("due") or {}, "version": v})
            elif needs == "card":
                r = self.post(f"/api/rounds/{rid}/cards/", {"code": self.card(), "version": v})
                if r is not None and r.status_code in (400, 409):  # a card the shoe no longer holds
                    r = self.post(f"/api/rounds/{rid}/cancel/", {"reason": "load: shoe out of that card"})
                    self.post(f"/api/tables/{self.table}/shuffle/", {"reason": "load: a fresh shoe"})
                    self.deck = []
                    return
            elif needs == "decision":
                allowed = nxt.get("allowed") or []
                action = nxt.get("forced") or ("stand" if "stand" in allowed else (allowed or ["stand"])[0])
                r = self.post(f"/api/rounds/{rid}/decisions/", {"action": action, "version": v})
            elif needs == "settle":
                r = self.post(f"/api/rounds/{rid}/settle/", {"version": v})
            else:
                r = self.post(f"/api/rounds/{rid}/cancel/", {"reason": f"load: needs {needs}"})
                return
            if r is None or r.status_code >= 300:
                self.stats["refused"] += 1
                return
            doc = r.json()

    def run(self, start: float, until: float, stop: threading.Event) -> None:
        next_at = start
        while not stop.is_set() and next_at < until:
            wait = next_at - time.monotonic()
            if wait > 0 and stop.wait(wait):
                return
            self.play_round()
            next_at += self.period


# ------------------------------------------------------------------------------------------------ dashboards


def session_for(base: str, username: str, password: str) -> requests.Session:
    s = requests.Session()
    s.get(f"{base}/tablet/login/", timeout=30)
    s.post(f"{base}/tablet/login/", data={"username": username, "password": password,
                                          "csrfmiddlewaretoken": s.cookies["csrftoken"]},
           headers={"Referer": f"{base}/tablet/login/"}, timeout=30)
    assert "sessionid" in s.cookies, "the pit boss could not sign in"
    return s


def follow(base: str, s: requests.Session, latencies: list[float], counts: dict, key: int,
           stop: threading.Event, opened: threading.Barrier) -> None:
    """Read the floor's event stream; each event's latency is now minus its ``sent``."""
    r = s.get(f"{base}/api/events/floor/", stream=True, timeout=(10, 60))
    buf = ""
    waited = False
    for chunk in r.iter_content(chunk_size=None, decode_unicode=True):
        if stop.is_set():
            break
        buf += chunk
        while "\n\n" in buf:
            block, buf = buf.split("\n\n", 1)
            if "event: stream-open" in block and not waited:
                waited = True
                try:
                    opened.wait(timeout=60)
                except threading.BrokenBarrierError:
                    pass
            if "event: floor" not in block:
                continue
            data = "".join(line[6:] for line in block.split("\n") if line.startswith("data: "))
            body = json.loads(data)
            latencies.append(time.time() - body["sent"])
            counts[key] = counts.get(key, 0) + 1
    r.close()


def feed(base: str, s: requests.Session, every: float, out: list[float], stop: threading.Event) -> None:
    while not stop.wait(every * (0.5 + random.random())):
        t = time.monotonic()
        try:
            r = s.get(f"{base}/dashboard/api/floor/", timeout=30)
            if r.status_code == 200:
                out.append(time.monotonic() - t)
        except requests.RequestException:
            pass


# ------------------------------------------------------------------------------------------------ main


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--rate", type=float, default=60, help="rounds per hour per table")
    ap.add_argument("--minutes", type=float, default=4)
    ap.add_argument("--dashboards", type=int, default=20)
    ap.add_argument("--workers", type=int, default=3, help="uvicorn worker processes")
    ap.add_argument("--feed-every", type=float, default=10, help="seconds between a dashboard's floor reads")
    ap.add_argument("--port", type=int, default=8104)
    ap.add_argument("--database", default="casino_floor")
    ap.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    ap.add_argument("--json", default="var/floor-load.json")
    ap.add_argument("--publish-rate", type=float, default=0, metavar="EPS",
                    help="no tablets: publish EPS events a second straight to the push channel (the events a "
                         "floor's rounds make: 500 tables at 60 rounds an hour make about 100) and measure only "
                         "their way to the dashboards")
    args = ap.parse_args()

    var_dir = f"/tmp/{args.database}-var"
    Path(var_dir).mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": f"{args.pg}/{args.database}", "CACHE_URL": args.redis.replace("redis://", "rediscache://"),
        "CELERY_BROKER_URL": args.redis, "PUSH_REDIS_URL": args.redis, "CASINO_VAR_DIR": var_dir,
        "ALLOWED_HOSTS": "127.0.0.1,localhost", "HTTPS": "0", "DEBUG": "0", "LOG_LEVEL": "WARNING",
        "AXES_FAILURE_LIMIT": "1000", "PYTHONUNBUFFERED": "1",
    })
    ids = fresh_database(args.pg, args.database, env, args.tables)
    log(f"database {args.database}: demo + {len(ids)} tables")
    procs = [
        subprocess.Popen([PYTHON, "-m", "uvicorn", "casino.asgi:application", "--port", str(args.port),
                          "--workers", str(args.workers), "--log-level", "warning", "--no-access-log"],
                         cwd=ROOT, env=env, stdout=open(f"{var_dir}/uvicorn.log", "w"), stderr=subprocess.STDOUT),
        subprocess.Popen([PYTHON, "-m", "celery", "-A", "casino", "worker", "--concurrency", "1", "--loglevel",
                          "WARNING", "--without-heartbeat", "--without-gossip", "--without-mingle"],
                         cwd=ROOT, env=env, stdout=open(f"{var_dir}/celery.log", "w"), stderr=subprocess.STDOUT),
    ]
    base = f"http://127.0.0.1:{args.port}"
    result: dict = {"args": vars(args), "pool": {k: os.environ.get(k) for k in ("DB_POOL_MAX_SIZE", "DB_POOL_TIMEOUT")}}
    stop = threading.Event()
    try:
        for _ in range(120):
            try:
                if requests.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            time.sleep(0.5)
        tok = requests.post(f"{base}/api/auth/token/", json={"username": "pitboss", "password": "pitboss-demo-1"},
                            timeout=30).json()["token"]
        stats: dict = {"commands": [], "errors": 0, "refused": 0, "rounds": 0}
        tablets = [Tablet(base, tok, t, 3600 / args.rate, random.Random(t), stats) for t in ids]
        for tb in tablets if not args.publish_rate else []:
            tb.post(f"/api/tables/{tb.table}/open/", {})
            tb.post(f"/api/tables/{tb.table}/shuffle/", {"reason": "load: first shoe"})
        stats["commands"].clear()
        size0, rounds0 = db_size(args.pg, args.database), count_rounds(args.pg, args.database)
        idem0 = idempotency_size(args.pg, args.database)

        latencies: list[float] = []
        counts: dict = {}
        feed_times: list[float] = []
        opened = threading.Barrier(args.dashboards + 1)
        threads = []
        for k in range(args.dashboards):
            s = session_for(base, "pitboss", "pitboss-demo-1")
            threads.append(threading.Thread(target=follow, args=(base, s, latencies, counts, k, stop, opened),
                                            daemon=True))
            threads.append(threading.Thread(target=feed, args=(base, s, args.feed_every, feed_times, stop),
                                            daemon=True))
        for th in threads:
            th.start()
        try:
            opened.wait(timeout=60)
        except threading.BrokenBarrierError:
            log("not every dashboard's stream opened")
        log(f"{args.dashboards} dashboards following the floor; {len(ids)} tablets at {args.rate:g} rounds/h")

        start = time.monotonic() + 1
        until = start + args.minutes * 60
        period = 3600 / args.rate
        play = [threading.Thread(target=tb.run, args=(start + period * i / len(tablets), until, stop), daemon=True)
                for i, tb in enumerate(tablets)] if not args.publish_rate else []  # fmt: skip
        publisher = None
        if args.publish_rate:
            code = PUBLISHER.format(ids=",".join(map(str, ids)), rate=args.publish_rate, seconds=args.minutes * 60)
            publisher = subprocess.Popen([PYTHON, "manage.py", "shell", "-c", code], cwd=ROOT, env=env,
                                         stdout=subprocess.PIPE, text=True)
        for th in play:
            th.start()
        while time.monotonic() < until:
            time.sleep(15)
            log(f"rounds {stats['rounds']}, commands {len(stats['commands'])}, events seen {len(latencies)}, "
                f"push p95 {pct(latencies, 95)} s, 5xx/errors {stats['errors']}")
        for th in play:
            th.join(timeout=60)
        if publisher is not None:
            out, _ = publisher.communicate(timeout=120)
            result["published"] = int(next(ln for ln in out.splitlines() if ln.startswith("PUBLISHED")).split()[1])
        time.sleep(2)  # the last events reach the dashboards
        stop.set()
        elapsed = time.monotonic() - start
        size1, rounds1 = db_size(args.pg, args.database), count_rounds(args.pg, args.database)
        per_round = (size1 - size0) / max(1, rounds1 - rounds0)
        kept_per_round = (size1 - size0 - (idempotency_size(args.pg, args.database) - idem0)) / max(1, rounds1 - rounds0)
        day_rounds = args.tables * args.rate * 24
        events_each = sorted(counts.values())
        result.update({
            "seconds": round(elapsed, 1), "rounds": stats["rounds"], "rounds_per_second": round(stats["rounds"] / elapsed, 2),
            "target_rounds_per_second": round(args.tables * args.rate / 3600, 2),
            "commands": summary(stats["commands"]), "commands_per_second": round(len(stats["commands"]) / elapsed, 1),
            "errors_5xx_or_network": stats["errors"], "refused": stats["refused"],
            "push_latency_s": summary(latencies), "events_per_dashboard_min_max": [events_each[0], events_each[-1]]
            if events_each else None,
            "floor_feed_s": summary(feed_times),
            "db_bytes_per_round": round(per_round), "db_growth_per_gaming_day_mb_this_floor": round(per_round * day_rounds / 2**20),
            "db_growth_per_gaming_day_mb_500_tables": round(per_round * 500 * 60 * 24 / 2**20),
            "db_bytes_per_round_kept": round(kept_per_round),
            "db_kept_per_gaming_day_mb_500_tables": round(kept_per_round * 500 * 60 * 24 / 2**20),
        })
        log(json.dumps({k: v for k, v in result.items() if k not in ("args", "pool")}, indent=1))
    finally:
        stop.set()
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()

    # The audit the nightly job runs per table, on today's rounds (one process, as run_audit does).
    t = time.monotonic()
    subprocess.run([PYTHON, "manage.py", "shell", "-c",
                    "from django.utils import timezone\nfrom tables.services.audits import audit_floor_day, gaming_day_of\n"
                    "audit_floor_day(gaming_day_of(timezone.now()))"], cwd=ROOT, env=env, check=True, timeout=900)
    result["audit_today_s"] = round(time.monotonic() - t, 1)
    log(f"audit of today's {result.get('rounds')} rounds on {len(ids) + 5} tables: {result['audit_today_s']} s")
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
