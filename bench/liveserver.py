"""A live server for the probes: a PostgreSQL database of our own, the demo loaded, gunicorn started and stopped.

Used by ``bench/probe.py`` and ``bench/faults.py``.  Everything is bounded: the server is always stopped
(by its process id) when the ``with`` block ends.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

USERS = {
    "admin": "admin-demo-1",
    "manager": "manager-demo-1",
    "pitboss": "pitboss-demo-1",
    "dealer": "dealer-demo-1",
    "auditor": "auditor-demo-1",
}


def server_env(database: str, pg: str, cache: str, var_dir: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": f"{pg.rstrip('/')}/{database}",
        "CACHE_URL": cache,
        "CELERY_BROKER_URL": "memory://",
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "CASINO_VAR_DIR": var_dir,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "HTTPS": "0",
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    })
    env.update(extra or {})
    return env


def psql(pg: str, sql: str, database: str = "postgres") -> str:
    url = f"{pg.rstrip('/')}/{database}"
    out = subprocess.run(["psql", url, "-At", "-v", "ON_ERROR_STOP=1", "-c", sql], capture_output=True, text=True,
                         timeout=120)
    if out.returncode:
        raise RuntimeError(f"psql failed: {sql[:80]}: {out.stderr.strip()}")
    return out.stdout


def fresh_database(pg: str, database: str, env: dict[str, str], history_days: int, log) -> None:
    """Drop and create ``database``, migrate, load the demo (only our own database is touched)."""
    # The probes only ever recreate a database of their own (casino_probe, casino_<worktree>...), never
    # the application's own "casino".
    assert database.startswith("casino_") and database != "casino", "the probes only recreate their own database"
    psql(pg, f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{database}' "
             "AND pid <> pg_backend_pid()")
    psql(pg, f'DROP DATABASE IF EXISTS "{database}"')
    psql(pg, f'CREATE DATABASE "{database}"')
    t0 = time.monotonic()
    for cmd in (["migrate", "-v0"], ["load_demo", "--history-days", str(history_days)]):
        subprocess.run([PYTHON, "manage.py", *cmd], cwd=ROOT, env=env, check=True, timeout=900,
                       stdout=subprocess.DEVNULL)
    log(f"database {database}: migrated and demo loaded in {time.monotonic() - t0:.0f} s")


class Gunicorn:
    """gunicorn casino.wsgi on 127.0.0.1:port with N workers; stderr to a log file."""

    def __init__(self, port: int, env: dict[str, str], workers: int = 4, log_path: str = "/tmp/gunicorn.log",
                 timeout: int = 30) -> None:
        self.port, self.env, self.workers, self.log_path, self.timeout = port, env, workers, log_path, timeout
        self.proc: subprocess.Popen | None = None
        self.base = f"http://127.0.0.1:{port}"

    def start(self) -> None:
        self.logf = open(self.log_path, "w")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [PYTHON, "-m", "gunicorn", "casino.wsgi", "--workers", str(self.workers), "--bind",
             f"127.0.0.1:{self.port}", "--timeout", str(self.timeout), "--graceful-timeout", "5",
             "--access-logfile", "-"],
            cwd=ROOT, env=self.env, stdout=self.logf, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited at start, see {self.log_path}")
            try:
                urllib.request.urlopen(self.base + "/api/schema/", timeout=5).read()
                if len(self.worker_pids()) >= self.workers:
                    return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.5)
        raise RuntimeError("gunicorn did not answer within 60 s")

    def worker_pids(self) -> list[int]:
        if self.proc is None:
            return []
        pids = []
        for d in Path("/proc").iterdir():
            if not d.name.isdigit():
                continue
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == self.proc.pid:
                pids.append(int(d.name))
        return sorted(pids)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.logf.close()

    def __enter__(self) -> Gunicorn:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def rss_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def token(base: str, user: str, password: str | None = None) -> str:
    req = urllib.request.Request(base + "/api/auth/token/", method="POST",
                                 data=json.dumps({"username": user, "password": password or USERS[user]}).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())["token"]
