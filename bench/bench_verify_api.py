"""Load test of ``POST /api/rounds/verify/``: gunicorn + PostgreSQL on loopback; throughput and p95.

Usage (from the repository root):
    .venv/bin/python bench/bench_verify_api.py [--workers 4] [--threads 2] [--clients 2x8] [--seconds 20]

It migrates the database named by DATABASE_URL (default: the local PostgreSQL ``casino``), makes a
bench user with a DRF token, starts gunicorn on 127.0.0.1, and drives it from several client
processes (each with keep-alive connections in threads), alternating the two example rounds of
shared/DESIGN.md.  Every answer must be a 200; the script prints requests/s and latency percentiles.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = str(ROOT / ".venv" / "bin" / "python")

FINNISH = {
    "game": "finnish-27", "table_minimum": "10.00", "dealer": {"cards": ["9C", "9D"]},
    "seats": [{"seat": 1, "wagers": {"main": "10.00"}, "hands": [{"cards": ["9S", "9H", "9D"]}],
               "paid": {"main": "10.00", "bonus": "9990.00"}}],
}  # fmt: skip
BLACKJACK = {
    "game": "unlimited-blackjack", "table_minimum": "5.00", "dealer": {"cards": ["6H", "TC", "9S"]},
    "seats": [{"seat": 3, "wagers": {"main": "10.00", "perfect-pairs": "5.00", "21+3": "5.00"},
               "hands": [{"cards": ["8S", "3D", "QC"]}, {"cards": ["8H", "9C"]}],
               "behind": [{"wagers": {"main": "5.00"}, "double_along": True, "follow_split": "both"}],
               "paid": {"main": "20.00", "behind": "10.00", "perfect-pairs": "30.00"}}],
}  # fmt: skip
BODIES = [json.dumps(FINNISH).encode(), json.dumps(BLACKJACK).encode()]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _client(port: int, token: str, threads: int, seconds: float, out: mp.Queue) -> None:  # type: ignore[type-arg]
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds

    def run(k: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        local: list[float] = []
        i = k
        while time.perf_counter() < stop_at:
            body = BODIES[i % 2]
            i += 1
            t0 = time.perf_counter()
            try:
                conn.request("POST", "/api/rounds/verify/", body=body, headers=headers)
                resp = conn.getresponse()
                data = resp.read()
                if resp.status != 200:
                    with lock:
                        errors.append(f"{resp.status} {data[:200]!r}")
                if resp.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            except (OSError, http.client.HTTPException) as exc:
                with lock:
                    errors.append(repr(exc))
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                continue
            local.append(time.perf_counter() - t0)
        with lock:
            latencies.extend(local)

    ts = [threading.Thread(target=run, args=(k,)) for k in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    out.put((latencies, errors[:5], len(errors)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker (gthread when > 1)")
    ap.add_argument("--clients", default="2x8", help="client processes x threads each")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/casino"))
    args = ap.parse_args()
    procs, threads = (int(x) for x in args.clients.split("x"))

    env = {**os.environ, "DATABASE_URL": args.database_url, "SECURE": "false", "DEBUG": "false",
           "CONN_MAX_AGE": "60", "LOG_LEVEL": "WARNING"}  # fmt: skip
    subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    token = subprocess.run(
        [PY, "manage.py", "shell", "-c",
         "from django.contrib.auth import get_user_model as g; from rest_framework.authtoken.models import Token;"
         "u,_=g().objects.get_or_create(username='bench-verify'); print(Token.objects.get_or_create(user=u)[0].key)"],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    ).stdout.strip().splitlines()[-1]  # fmt: skip

    port = _free_port()
    cmd = [str(ROOT / ".venv" / "bin" / "gunicorn"), "casino.wsgi:application", "-b", f"127.0.0.1:{port}",
           "-w", str(args.workers), "--log-level", "warning", "--keep-alive", "5"]  # fmt: skip
    if args.threads > 1:
        cmd += ["-k", "gthread", "--threads", str(args.threads)]
    server = subprocess.Popen(cmd, cwd=ROOT, env=env)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        q: mp.Queue = mp.Queue()  # type: ignore[type-arg]
        _client(port, token, 2, 2.0, q)  # warm-up: imports, connections, first queries
        q.get()
        t0 = time.perf_counter()
        ps = [mp.Process(target=_client, args=(port, token, threads, args.seconds, q)) for _ in range(procs)]
        for p in ps:
            p.start()
        results = [q.get() for _ in ps]
        for p in ps:
            p.join()
        elapsed = time.perf_counter() - t0
    finally:
        server.terminate()
        server.wait(timeout=10)

    lat = sorted(x for r in results for x in r[0])
    n_err = sum(r[2] for r in results)
    if not lat:
        print("no successful requests", [r[1] for r in results], file=sys.stderr)
        return 1
    q95 = lat[int(0.95 * (len(lat) - 1))]
    summary = {
        "requests": len(lat), "errors": n_err, "seconds": round(elapsed, 2),
        "requests_per_s": round(len(lat) / args.seconds, 1),
        "latency_ms": {"p50": round(statistics.median(lat) * 1000, 2), "p95": round(q95 * 1000, 2),
                       "p99": round(lat[int(0.99 * (len(lat) - 1))] * 1000, 2), "max": round(lat[-1] * 1000, 2)},
        "server": {"workers": args.workers, "threads": args.threads}, "clients": args.clients,
        "nproc": os.cpu_count(),
    }  # fmt: skip
    print(json.dumps(summary, indent=2))
    if n_err:
        print("errors, e.g.:", [e for r in results for e in r[1]][:5], file=sys.stderr)
    return 1 if n_err else 0


if __name__ == "__main__":
    sys.exit(main())
