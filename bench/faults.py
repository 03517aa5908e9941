"""Fault probe: tablet commands against gunicorn on PostgreSQL while workers die and the database goes away.

    .venv/bin/python bench/faults.py [--seconds 160] [--port 8742] [--proxy-port 8743]

Two tablets (threads, the pit boss's token, tables 2 and 3: Unlimited and Mini Blackjack) play rounds
the way the tablet does: open a round, deal cards, decide, settle, pay; every command carries its own
``Idempotency-Key`` and is retried with the same key on a connection error, a timeout or a 502/503
(bounded: 8 tries within 60 s).  Meanwhile:

(a) a gunicorn worker is killed with SIGKILL at random moments (gunicorn starts a new one);
(b) the database stops answering for ~10 s, twice: gunicorn reaches PostgreSQL through a TCP proxy of
    this script (127.0.0.1:proxy-port → 5432) that holds every byte while paused (no signal is sent
    to PostgreSQL: other databases on the server are untouched).

Then checks: every round's document loads and ``next`` fits its state; a settled round's due equals
its settlement lines; no round with payments but no settlement; every command answered 2xx has its
audit event (one per round version) and its key is stored with that answer, and retries of a key got
one same answer; a request sent while the database was away was answered 503 (not 500, not a hang) or,
when the database came back before its deadline, with a real answer; every answer within --goal-seconds
(default 10: the query deadline or the connect timeout, 5 s each, plus one more for a request queued
behind a worker that is trying the database).
Prints a summary; exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import sys
import threading
import time
import uuid
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
from liveserver import Gunicorn, fresh_database, psql, server_env, token  # noqa: E402

T0 = time.monotonic()


def log(msg: str) -> None:
    print(f"[{time.monotonic() - T0:7.1f}s] {msg}", flush=True)


# ---------------------------------------------------------------------------------------------- TCP proxy

class PausableProxy:
    """127.0.0.1:port → upstream; while paused no byte moves either way (new connections are accepted and held)."""

    def __init__(self, port: int, upstream: tuple[str, int]) -> None:
        self.port, self.upstream = port, upstream
        self.running = threading.Event()
        self.running.set()  # set = forwarding
        self.stopping = False
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.port = self.sock.getsockname()[1]  # port 0: the one the system chose
        self.sock.listen(128)
        self.sock.settimeout(0.5)
        threading.Thread(target=self._accept, daemon=True).start()

    def pause(self) -> None:
        self.running.clear()

    def resume(self) -> None:
        self.running.set()

    def close(self) -> None:
        self.stopping = True
        self.running.set()
        self.sock.close()

    def _accept(self) -> None:
        while not self.stopping:
            try:
                client, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            threading.Thread(target=self._connect, args=(client,), daemon=True).start()

    def _connect(self, client: socket.socket) -> None:
        self.running.wait()
        try:
            up = socket.create_connection(self.upstream, timeout=10)
        except OSError:
            client.close()
            return
        up.settimeout(None)
        for a, b in ((client, up), (up, client)):
            threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                self.running.wait()
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


# ---------------------------------------------------------------------------------------------- the tablet

class Tablet:
    """One table's tablet: commands with an Idempotency-Key each, retried with the same key."""

    RETRY_STATUSES = {502, 503, 504}

    def __init__(self, base: str, tok: str, table: int, events: list, flags: dict, rng: random.Random) -> None:
        self.base, self.table, self.events, self.flags, self.rng = base, table, events, flags, rng
        self.s = requests.Session()
        self.s.headers["Authorization"] = f"Token {tok}"
        self.rounds: list[int] = []
        self.deck: list[str] = []

    def command(self, path: str, body: dict) -> requests.Response | None:
        key = uuid.uuid4().hex
        deadline = time.monotonic() + 60
        for attempt in range(8):
            t = time.monotonic()
            db_away = self.flags["db_paused"]
            ev = {"key": key, "path": path, "attempt": attempt, "t": round(t - T0, 2), "db_away": db_away,
                  "killing": self.flags["killing"]}
            try:
                r = self.s.post(self.base + path, json=body, timeout=25, headers={"Idempotency-Key": key})
                ev.update(status=r.status_code, seconds=round(time.monotonic() - t, 2),
                          replayed=r.headers.get("Idempotent-Replayed") == "true")
                try:
                    doc = r.json()
                except ValueError:
                    doc = {"_text": r.text[:200]}
                ev["version"] = doc.get("version") if isinstance(doc, dict) else None
                ev["round"] = doc.get("id") if isinstance(doc, dict) and "state" in doc else None
                ev["body"] = json.dumps(doc, sort_keys=True)[:4000] if 200 <= r.status_code < 300 else \
                    json.dumps(doc)[:200]
                self.events.append(ev)
                if r.status_code not in self.RETRY_STATUSES and r.status_code < 500:
                    return r
                if r.status_code >= 500 and r.status_code not in self.RETRY_STATUSES:
                    pass  # a 500 is a finding; the tablet still retries it
            except requests.RequestException as exc:
                ev.update(status=0, seconds=round(time.monotonic() - t, 2), error=type(exc).__name__)
                self.events.append(ev)
            if time.monotonic() > deadline:
                return None
            time.sleep(min(8.0, 0.5 * 2 ** attempt) * (0.5 + self.rng.random()))
        return None

    def get_once(self, path: str) -> None:
        t = time.monotonic()
        ev = {"method": "GET", "path": path, "t": round(t - T0, 2), "db_away": self.flags["db_paused"],
              "killing": self.flags["killing"], "watch": True}
        try:
            r = self.s.get(self.base + path, timeout=40)
            ev.update(status=r.status_code, seconds=round(time.monotonic() - t, 2), body=r.text[:120])
        except requests.RequestException as exc:
            ev.update(status=0, seconds=round(time.monotonic() - t, 2), error=type(exc).__name__)
        self.events.append(ev)

    def command_once(self, path: str, body: dict) -> None:
        t = time.monotonic()
        ev = {"method": "POST", "path": path, "t": round(t - T0, 2), "db_away": self.flags["db_paused"],
              "killing": self.flags["killing"], "watch": True}
        try:
            r = self.s.post(self.base + path, json=body, timeout=40, headers={"Idempotency-Key": uuid.uuid4().hex})
            ev.update(status=r.status_code, seconds=round(time.monotonic() - t, 2), body=r.text[:120])
        except requests.RequestException as exc:
            ev.update(status=0, seconds=round(time.monotonic() - t, 2), error=type(exc).__name__)
        self.events.append(ev)

    def get(self, path: str) -> dict | None:
        for _ in range(20):
            t = time.monotonic()
            ev = {"method": "GET", "path": path, "t": round(t - T0, 2), "db_away": self.flags["db_paused"],
                  "killing": self.flags["killing"]}
            try:
                r = self.s.get(self.base + path, timeout=25)
                ev.update(status=r.status_code, seconds=round(time.monotonic() - t, 2), body=r.text[:120])
                self.events.append(ev)
                if r.status_code == 200:
                    return r.json()
            except requests.RequestException as exc:
                ev.update(status=0, seconds=round(time.monotonic() - t, 2), error=type(exc).__name__)
                self.events.append(ev)
            time.sleep(1)
        return None

    def card(self) -> str:
        if not self.deck:
            self.deck = [r + s for r in "23456789TJQKA" for s in "SHDC"]
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    def play_round(self) -> None:
        r = self.command(f"/api/tables/{self.table}/rounds/", {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]})
        if r is None:
            return
        if r.status_code == 409 and "shuffle" in r.text:
            self.command(f"/api/tables/{self.table}/shuffle/", {"reason": "faults probe: a fresh shoe"})
            return
        if r.status_code == 409:  # a round already in play at the table: carry it on
            table = self.get(f"/api/tables/{self.table}/")
            rnd = (table or {}).get("round")
            if not rnd:
                return
            rid = rnd["id"] if isinstance(rnd, dict) else rnd
        elif r.status_code == 201:
            rid = r.json()["id"]
        else:
            time.sleep(0.5)
            return
        self.rounds.append(rid)
        for _step in range(40):
            doc = self.get(f"/api/rounds/{rid}/")
            if doc is None:
                return
            state, nxt = doc["state"], doc.get("next") or {}
            needs = nxt.get("needs")
            if state in ("closed", "cancelled"):
                return
            if state == "settled" or needs == "payment":
                self.command(f"/api/rounds/{rid}/paid/", {"paid": doc.get("due") or {}, "version": doc["version"]})
                doc = self.get(f"/api/rounds/{rid}/")
                if doc is None or doc["state"] in ("closed", "settled", "mismatch"):
                    return
                continue
            if state != "in_play":
                self.command(f"/api/rounds/{rid}/cancel/", {"reason": f"faults probe: round {state}"})
                return
            if needs == "card":
                if "shuffle" in str(nxt.get("reason", "")).lower() and nxt.get("phase") == "shuffle":
                    self.command(f"/api/tables/{self.table}/shuffle/", {"reason": "faults probe: shoe done"})
                    continue
                self.command(f"/api/rounds/{rid}/cards/", {"code": self.card(), "version": doc["version"]})
            elif needs == "decision":
                allowed = nxt.get("allowed") or []
                action = nxt.get("forced") or ("stand" if "stand" in allowed else (allowed or ["stand"])[0])
                self.command(f"/api/rounds/{rid}/decisions/", {"action": action, "version": doc["version"]})
            elif needs == "settle":
                self.command(f"/api/rounds/{rid}/settle/", {"version": doc["version"]})
            else:
                self.command(f"/api/rounds/{rid}/cancel/", {"reason": f"faults probe: needs {needs}"})
                return


# ---------------------------------------------------------------------------------------------- checks

def check_rounds(base: str, tok: str, pg: str, db: str, round_ids: list[int]) -> list[str]:
    problems = []
    s = requests.Session()
    s.headers["Authorization"] = f"Token {tok}"
    needs_by_state = {"in_play": {"card", "decision", "settle"}, "settled": {"payment", "nothing", "pay"},
                      "closed": {"nothing"}, "cancelled": {"nothing"}, "mismatch": None, "paused": None}
    for rid in sorted(set(round_ids)):
        r = s.get(f"{base}/api/rounds/{rid}/", timeout=30)
        if r.status_code != 200:
            problems.append(f"round {rid}: GET answered {r.status_code}")
            continue
        doc = r.json()
        need = (doc.get("next") or {}).get("needs")
        allowed_needs = needs_by_state.get(doc["state"], None)
        if allowed_needs is not None and need not in allowed_needs:
            problems.append(f"round {rid}: state {doc['state']} but next needs {need!r}")
        if doc["state"] in ("settled", "closed", "mismatch"):
            if not doc["settlement"]:
                problems.append(f"round {rid}: {doc['state']} without settlement lines")
            owed: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
            for line in doc["settlement"]:
                net = Decimal(line["net"])
                if net > 0:
                    owed[(str(line["seat"]), "behind" if line.get("behind") is not None else line["bet"])] += net
            due = {(seat, kind): Decimal(v) for seat, kinds in (doc.get("due") or {}).items() for kind, v in kinds.items()}
            if {k: v for k, v in owed.items() if v} != {k: v for k, v in due.items() if v}:
                problems.append(f"round {rid}: due {due} ≠ settlement lines {dict(owed)}")
    rows = psql(pg, "SELECT r.id FROM tables_round r WHERE EXISTS (SELECT 1 FROM tables_payment p WHERE p.round_id = r.id) "
                    "AND NOT EXISTS (SELECT 1 FROM tables_settlementline l WHERE l.round_id = r.id)", db).split()
    problems += [f"round {x}: payments but no settlement" for x in rows]
    # one audit event per write: a round's audit events of live actions = its version (open = 1)
    rows = psql(pg, "SELECT r.id || ' ' || r.version || ' ' || (SELECT count(*) FROM tables_auditevent a "
                    f"WHERE a.round_id = r.id) FROM tables_round r WHERE r.id IN ({','.join(map(str, round_ids)) or 0})",
                db).splitlines()
    for row in rows:
        rid, version, n_audit = map(int, row.split())
        if n_audit < version:
            problems.append(f"round {rid}: version {version} but only {n_audit} audit events")
    return problems


def check_commands(events: list[dict], pg: str, db: str) -> tuple[list[str], dict]:
    problems = []
    by_key: dict[str, list[dict]] = defaultdict(list)
    for ev in events:
        if "key" in ev:
            by_key[ev["key"]].append(ev)
    ok_keys = {k: [e for e in evs if 200 <= e.get("status", 0) < 300] for k, evs in by_key.items()}
    ok_keys = {k: v for k, v in ok_keys.items() if v}
    for k, oks in ok_keys.items():
        bodies = {e["body"] for e in oks}
        if len(bodies) > 1:
            problems.append(f"key {k}: {len(bodies)} different 2xx answers ({oks[0]['path']})")
    stored = {}
    for row in psql(pg, "SELECT key || ' ' || coalesce(status_code, 0) || ' ' || coalesce(response->>'version', '-') "
                        "FROM tables_idempotencykey", db).splitlines():
        key, status, version = row.split(" ", 2)
        stored[key] = (int(status), version)
    for k, oks in ok_keys.items():
        if k not in stored:
            problems.append(f"key {k}: answered {oks[0]['status']} on {oks[0]['path']} but not stored")
        elif oks[0].get("version") is not None and str(oks[0]["version"]) != stored[k][1]:
            problems.append(f"key {k}: answered version {oks[0]['version']}, stored {stored[k][1]}")
    # rounds written by a 2xx command must show that version in their audit trail (checked per round above)
    return problems, {"commands": len(by_key), "answered_2xx": len(ok_keys),
                      "retried": sum(1 for evs in by_key.values() if len(evs) > 1),
                      "replayed": sum(1 for e in events if e.get("replayed")),
                      "unanswered": sum(1 for k, evs in by_key.items() if k not in ok_keys
                                        and not any(400 <= e.get("status", 0) < 500 for e in evs))}


# ---------------------------------------------------------------------------------------------- main

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=160, help="length of the faulted run")
    ap.add_argument("--port", type=int, default=8742)
    ap.add_argument("--proxy-port", type=int, default=8743)
    ap.add_argument("--database", default="casino_probe_faults")
    ap.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    ap.add_argument("--cache", default="rediscache://127.0.0.1:6379/7")
    ap.add_argument("--reuse-db", action="store_true")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--pauses", type=lambda v: [float(x) for x in v.split(",")], default=[10.0, 25.0],
                    help="database pauses in seconds, comma-separated (default 10,25)")
    ap.add_argument("--json", default="var/faults-result.json")
    ap.add_argument("--goal-seconds", type=float, default=10.0,
                    help="slowest acceptable answer to a request sent while the database was away, or in flight")
    args = ap.parse_args()
    if not 1024 <= args.port <= 65535 or not (args.proxy_port == 0 or 1024 <= args.proxy_port <= 65535):
        ap.error("use unprivileged ports (both listen on 127.0.0.1 only); --proxy-port 0: any free port")
    rng = random.Random(args.seed)
    var_dir = f"/tmp/{args.database}-var"
    Path(var_dir).mkdir(parents=True, exist_ok=True)
    direct_env = server_env(args.database, args.pg, args.cache, var_dir)
    if not args.reuse_db:
        fresh_database(args.pg, args.database, direct_env, 0, log)
    proxy = PausableProxy(args.proxy_port, ("127.0.0.1", 5432))
    env = server_env(args.database, f"postgres://postgres@127.0.0.1:{proxy.port}", args.cache, var_dir)
    server = Gunicorn(args.port, env, workers=4, log_path=f"{var_dir}/gunicorn.log", timeout=30)
    events: list[dict] = []
    flags = {"db_paused": False, "killing": False, "stop": False}
    kills, pauses = [], []
    results: dict = {}
    checks: list[tuple[str, str, bool]] = []
    try:
        with server:
            base = server.base
            tok = token(base, "pitboss")
            tablets = [Tablet(base, tok, t, events, flags, random.Random(args.seed + t)) for t in (2, 3)]
            for tb in tablets:
                tb.s.post(f"{base}/api/tables/{tb.table}/open/", json={}, timeout=30)

            def run(tb: Tablet) -> None:
                while not flags["stop"]:
                    tb.play_round()

            threads = [threading.Thread(target=run, args=(tb,), daemon=True) for tb in tablets]
            for th in threads:
                th.start()
            log(f"gunicorn on {base} via proxy :{proxy.port}; tablets at tables 2 and 3")
            end = time.monotonic() + args.seconds
            kill_until = time.monotonic() + args.seconds * 0.4
            time.sleep(5)
            flags["killing"] = True
            while time.monotonic() < kill_until:
                pids = server.worker_pids()
                if pids:
                    victim = rng.choice(pids)
                    try:
                        os.kill(victim, signal.SIGKILL)
                        kills.append(round(time.monotonic() - T0, 1))
                    except ProcessLookupError:
                        pass
                time.sleep(rng.uniform(2, 6))
            flags["killing"] = False
            log(f"(a) {len(kills)} workers killed with SIGKILL")
            time.sleep(5)
            watcher = Tablet(base, tok, 2, events, flags, random.Random(args.seed))

            def watch(until: float) -> None:
                """While the database is away: a read and a write every second, each on its own thread."""
                while time.monotonic() < until:
                    rid = (tablets[0].rounds or [1])[-1]
                    threading.Thread(target=watcher.get_once, args=(f"/api/rounds/{rid}/",), daemon=True).start()
                    threading.Thread(target=watcher.command_once, args=(f"/api/rounds/{rid}/cards/",
                                     {"code": "2S", "version": 1}), daemon=True).start()  # fmt: skip
                    time.sleep(1)

            for length in args.pauses:
                if time.monotonic() > end:
                    break
                flags["db_paused"] = True
                proxy.pause()
                t = time.monotonic()
                pauses.append((round(t - T0, 1), length))
                log(f"(b) database paused for {length} s")
                watch(t + length)
                # The flag first: a request marked "away" is sent while the proxy still holds every byte.
                flags["db_paused"] = False
                proxy.resume()
                log(f"(b) database back after {time.monotonic() - t:.1f} s")
                time.sleep(12)
            while time.monotonic() < end:
                time.sleep(1)
            flags["stop"] = True
            for th in threads:
                th.join(timeout=120)
            log("tablets stopped; checking")
            round_ids = [r for tb in tablets for r in tb.rounds]
            problems_rounds = check_rounds(base, tok, args.pg, args.database, round_ids)
            problems_cmds, figures = check_commands(events, args.pg, args.database)
            results.update(figures=figures, rounds=len(set(round_ids)), kills=kills, pauses=pauses,
                           problems_rounds=problems_rounds, problems_commands=problems_cmds)
    finally:
        flags["stop"] = True
        proxy.close()
    during = [e for e in events if e["db_away"]]
    held = [e for e in events if not e["db_away"] and any(
        e["t"] < start + length and e["t"] + e.get("seconds", 0) > start for start, length in pauses)]
    results["held_before_pause"] = {"n": len(held), "slowest": max((e.get("seconds", 0) for e in held), default=0),
                                    "statuses": sorted({str(e.get("status")) for e in held})}
    status_away: dict[str, int] = defaultdict(int)
    back_at = [start + length for start, length in pauses]
    wrong_away = []
    for e in during:
        status_away[str(e.get("status"))] += 1
        answered_at = e["t"] + e.get("seconds", 0)
        came_back = any(e["t"] < end_ <= answered_at + 0.5 for end_ in back_at)  # answered once it was back
        if e.get("status") != 503 and not (came_back and 0 < e.get("status", 0) < 500):
            wrong_away.append(e)
    slow_away = max((e.get("seconds", 0) for e in during), default=0)
    status_all: dict[str, int] = defaultdict(int)
    for e in events:
        status_all[str(e.get("status"))] += 1
    n500 = sum(1 for e in events if e.get("status", 0) >= 500 and e.get("status") not in (502, 503, 504))
    results.update(status_all=dict(status_all), status_db_away=dict(status_away), slowest_db_away=slow_away)
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps({**results, "events": events}, indent=1, default=str))
    fig = results.get("figures", {})
    checks += [
        ("rounds played", f"{results.get('rounds', 0)}", results.get("rounds", 0) > 0),
        ("commands sent (distinct keys)", f"{fig.get('commands', 0)}, 2xx {fig.get('answered_2xx', 0)}, "
         f"retried {fig.get('retried', 0)}, replayed {fig.get('replayed', 0)}", fig.get("answered_2xx", 0) > 0),
        ("workers killed (SIGKILL)", str(len(kills)), len(kills) > 0),
        ("database pauses (start s, length s)", str(pauses), len(pauses) > 0),
        ("half-written rounds / due ≠ lines / audit gaps", str(len(results.get("problems_rounds", []))),
         not results.get("problems_rounds")),
        ("idempotency: keys not stored / answered twice", str(len(results.get("problems_commands", []))),
         not results.get("problems_commands")),
        ("500 answers (any time)", str(n500), n500 == 0),
        ("answers to requests sent while the DB was away", json.dumps(dict(status_away)),
         bool(during) and not wrong_away),
        ("  of which not 503 nor answered once it was back", str(len(wrong_away)), not wrong_away),
        ("slowest answer while the DB was away", f"{slow_away:.1f} s (goal ≤ {args.goal_seconds:g})",
         slow_away <= args.goal_seconds),
        ("requests in flight when it went away", json.dumps(results["held_before_pause"]),
         results["held_before_pause"]["slowest"] <= args.goal_seconds),
        ("commands never answered (gave up)", str(fig.get("unanswered", 0)), fig.get("unanswered", 0) == 0),
    ]
    for p in (results.get("problems_rounds", []) + results.get("problems_commands", []))[:30]:
        print("  problem:", p)
    print(f"\nall answers by status: {dict(status_all)}")
    print("\nSUMMARY")
    for name, figure, ok in checks:
        print(f"  {name:48s} {figure:60s} {'ok' if ok else 'FAILED'}")
    print(f"  total time {time.monotonic() - T0:.0f} s; events in {args.json}")
    return 0 if all(ok for _, _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
