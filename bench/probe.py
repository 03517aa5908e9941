"""Security probe of the live system: gunicorn (4 workers) on PostgreSQL with the demo loaded.

    .venv/bin/python bench/probe.py [--requests 20000] [--port 8740] [--reuse-db]

(a) schemathesis (its Python API: each operation's hypothesis strategy, positive and negative data)
    as the pit boss over every operation of /api/schema/, a bounded total of requests; every 5xx is
    listed with its operation and a curl reproduction (the shortest one per operation and error);
(b) hand-made bad inputs (deep JSON, NUL, lone surrogates, 1 MB junk keys, odd digits, 10 MB bodies,
    a PNG header claiming 30000x30000 pixels): no 5xx, no hang, odd digits refused;
(c) read-only roles (the auditor, a staff user with no role): every API write and the back office's
    add/change/delete/history-revert forms, counted, and the database compared before and after;
(d) the worst gunicorn worker RSS growth while an oversized image (a real 30000x30000 PNG that
    compresses to under 1 MB, and a header-only one) is posted, and how fast it is answered.

Prints a summary table; exit status 1 when a goal is missed.  Bounded; gunicorn is always stopped.
"""

from __future__ import annotations

import argparse
import html.parser
import json
import multiprocessing
import os
import random
import re
import struct
import sys
import threading
import time
import uuid
import zlib
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from liveserver import ROOT, USERS, Gunicorn, fresh_database, psql, rss_kb, server_env  # noqa: E402

T0 = time.monotonic()


def log(msg: str) -> None:
    print(f"[{time.monotonic() - T0:7.1f}s] {msg}", flush=True)


def django_setup(env: dict[str, str]) -> None:
    for k in ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "CASINO_VAR_DIR", "ALLOWED_HOSTS", "LOG_LEVEL"):
        os.environ[k] = env[k]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()


def known_ids() -> dict[str, list[int]]:
    from django.db import connection

    from tables.models import Round, Table

    with connection.cursor() as c:
        c.execute("SELECT id FROM tables_rummygame ORDER BY id DESC LIMIT 20")
        rummy = [r[0] for r in c.fetchall()]
        c.execute("SELECT id FROM tables_bluffjackgame ORDER BY id DESC LIMIT 20")
        bluff = [r[0] for r in c.fetchall()]
    rounds = list(Round.objects.order_by("-id").values_list("id", flat=True)[:40])
    connection.close()
    return {"tables": list(Table.objects.values_list("id", flat=True)), "rounds": rounds, "rummy": rummy,
            "bluffjack": bluff}


def resource_of(path: str) -> str:
    for prefix, kind in (("/api/rounds/", "rounds"), ("/api/rummy/", "rummy"), ("/api/bluffjack/", "bluffjack"),
                         ("/api/tables/", "tables")):
        if path.startswith(prefix):
            return kind
    return "tables"


# ---------------------------------------------------------------------------------------------- (a) fuzz

def fuzz_worker(args: tuple) -> dict:
    """One client process: every operation in passes until its share of requests (or time) is spent."""
    (worker, base, env, budget, deadline, seed) = args
    django_setup(env)
    import schemathesis
    from django.contrib.auth import get_user_model
    from django.db import connection
    from hypothesis import HealthCheck, Phase, given, settings
    from knox.models import AuthToken
    from schemathesis import GenerationMode

    rng = random.Random(seed)
    pit_token = AuthToken.objects.create(get_user_model().objects.get(username="pitboss"))[1]
    throwaway = get_user_model().objects.get(username="probe-logout")
    connection.close()
    schema = schemathesis.openapi.from_url(base + "/api/schema/?format=json")
    ops = [r.ok() for r in schema.get_all_operations()]
    weights = {"auth_token": 0.15, "auth_logout": 0.1, "auth_logout_all": 0.1, "schema_retrieve": 0.2}
    session = requests.Session()
    stats = {"sent": 0, "status": {}, "per_op": {}, "errors_5xx": [], "no_answer": []}
    ids = known_ids()
    n_ops = len(ops)
    passes = 0

    def make_runner(op, op_id, counter):
        def run_case(case) -> None:
            if stats["sent"] >= budget or time.time() >= deadline:
                return
            kind = resource_of(op.path)
            if case.path_parameters:
                for name in case.path_parameters:
                    if name == "id" and ids.get(kind) and rng.random() < 0.85:
                        case.path_parameters[name] = rng.choice(ids[kind])
                    elif name == "seq" and rng.random() < 0.8:
                        case.path_parameters[name] = rng.randint(1, 8)
            headers = dict(case.headers or {})
            if op_id in ("auth_logout", "auth_logout_all"):
                from django.db import connection as conn

                tok = AuthToken.objects.create(throwaway)[1]
                conn.close()
            else:
                tok = pit_token
            headers["Authorization"] = f"Token {tok}"
            if rng.random() < 0.5:
                headers["Idempotency-Key"] = uuid.uuid4().hex
            case.headers = headers
            counter["n"] += 1
            stats["sent"] += 1
            try:
                tc = time.monotonic()
                resp = case.call(base_url=base, session=session, timeout=30)
                stats["call_seconds"] = stats.get("call_seconds", 0.0) + time.monotonic() - tc
            except Exception as exc:  # noqa: BLE001 (a connection error or a hang is a finding)
                stats["no_answer"].append({"operation": op.label, "error": repr(exc)[:200],
                                           "curl": case.as_curl_command(base_url=base)[:2000]})
                return
            code = resp.status_code
            stats["status"][str(code)] = stats["status"].get(str(code), 0) + 1
            per = stats["per_op"].setdefault(op.label, {})
            per[str(code)] = per.get(str(code), 0) + 1
            if code >= 500:
                stats["errors_5xx"].append({
                    "operation": op.label, "status": code, "body": resp.text[:300],
                    "curl": case.as_curl_command(base_url=base, headers={"Authorization": "Token <pitboss>"}),
                })

        return run_case

    while stats["sent"] < budget and time.time() < deadline:
        passes += 1
        if passes % 2 == 0:
            ids = known_ids()
        remaining = budget - stats["sent"]
        base_chunk = max(5, remaining // (n_ops * 2))
        sent_this_pass = 0
        for op in ops:
            if stats["sent"] >= budget or time.time() >= deadline:
                break
            op_id = op.definition.raw.get("operationId", op.label)
            chunk = max(2, int(base_chunk * weights.get(op_id, 1.0)))
            mode = GenerationMode.POSITIVE if passes % 2 else GenerationMode.NEGATIVE
            strategy = op.as_strategy(generation_mode=mode)
            counter = {"n": 0}
            run_case = make_runner(op, op_id, counter)
            test = settings(max_examples=chunk, phases=[Phase.generate], database=None, deadline=None,
                            suppress_health_check=list(HealthCheck), derandomize=False)(given(case=strategy)(run_case))
            try:
                test()
            except Exception as exc:  # noqa: BLE001 (hypothesis could not generate: note it, go on)
                ge = stats.setdefault("generation_errors", [])
                if len(ge) < 50:
                    ge.append(f"{op.label}: {type(exc).__name__}: {exc}"[:300])
            sent_this_pass += counter["n"]
        if sent_this_pass == 0:
            stats.setdefault("generation_errors", []).append("a pass sent nothing: stopped")
            break
    stats["passes"] = passes
    stats["worker"] = worker
    return stats


def part_a(base: str, env: dict[str, str], total: int, clients: int, max_minutes: float) -> dict:
    deadline = time.time() + max_minutes * 60
    share = [total // clients + (1 if i < total % clients else 0) for i in range(clients)]
    jobs = [(i, base, env, share[i], deadline, 1000 + i) for i in range(clients)]
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(clients) as pool:
        results = pool.map(fuzz_worker, jobs)
    merged: dict = {"sent": 0, "status": {}, "per_op": {}, "errors_5xx": [], "no_answer": [], "generation_errors": []}
    for r in results:
        merged["sent"] += r["sent"]
        for k, v in r["status"].items():
            merged["status"][k] = merged["status"].get(k, 0) + v
        for opl, d in r["per_op"].items():
            m = merged["per_op"].setdefault(opl, {})
            for k, v in d.items():
                m[k] = m.get(k, 0) + v
        merged["errors_5xx"] += r["errors_5xx"]
        merged["no_answer"] += r["no_answer"]
        merged["generation_errors"] += r.get("generation_errors", [])
    return merged


def tracebacks(log_path: str) -> dict[str, int]:
    """Server-side errors in gunicorn's log, grouped by the exception line and the innermost project frame."""
    text = Path(log_path).read_text(errors="replace")
    groups: dict[str, int] = {}
    for block in re.split(r"\n(?=\S)(?!Traceback|  |\w+Error|django\.)", text):
        if "Traceback" not in block or not block.startswith(("Internal Server Error", "Error handling request")):
            continue
        lines = [ln for ln in block.splitlines() if ln.strip()]
        exc = next((ln for ln in reversed(lines) if re.match(r"^[\w.]+(Error|Exception|Exit)\b", ln)), lines[-1])
        frames = [ln.strip() for ln in lines if ln.strip().startswith("File ") and str(ROOT) in ln
                  and "/.venv/" not in ln]
        key = f"{exc[:160]}  @ {frames[-1][:160] if frames else '?'}"
        groups[key] = groups.get(key, 0) + 1
    return groups


# ---------------------------------------------------------------------------------------------- (b) bad inputs

def png_header(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))


def png_bomb(width: int, height: int) -> bytes:
    """A real greyscale PNG of width x height black pixels (900 MB decoded for 30000², ~1 MB on the wire)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    comp = zlib.compressobj(9)
    row = b"\x00" * (width + 1)
    parts = []
    block = row * 500
    for _ in range(height // 500):
        parts.append(comp.compress(block))
    parts.append(comp.compress(row * (height % 500)))
    parts.append(comp.flush())
    return png_header(width, height) + chunk(b"IDAT", b"".join(parts)) + chunk(b"IEND", b"")


class Api:
    def __init__(self, base: str, token: str) -> None:
        self.base, self.s = base, requests.Session()
        self.s.headers["Authorization"] = f"Token {token}"

    def post(self, path: str, body=None, raw: bytes | None = None, files=None, ctype="application/json",
             timeout: float = 30, headers: dict | None = None):
        h = dict(headers or {})
        if files is not None:
            return self.s.post(self.base + path, files=files, timeout=timeout, headers=h)
        if raw is None:
            raw = json.dumps(body).encode()
        h["Content-Type"] = ctype
        return self.s.post(self.base + path, data=raw, timeout=timeout, headers=h)

    def get(self, path: str):
        return self.s.get(self.base + path, timeout=30)


def open_blackjack_round(api: Api, table: int = 2) -> int:
    api.post(f"/api/tables/{table}/open/", {})
    doc = api.get(f"/api/tables/{table}/").json()
    if doc.get("round"):
        rid = doc["round"]["id"] if isinstance(doc["round"], dict) else doc["round"]
        api.post(f"/api/rounds/{rid}/cancel/", {"reason": "probe: clear the table"})
    r = api.post(f"/api/tables/{table}/rounds/", {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]})
    if r.status_code != 201:
        raise RuntimeError(f"could not open a round at table {table}: {r.status_code} {r.text[:300]}")
    return r.json()["id"]


def part_b(base: str, token: str) -> list[dict]:
    api = Api(base, token)
    rid = open_blackjack_round(api)
    seat = {"seat": 1, "wagers": {"main": "10.00"}}
    mb = "x" * (1 << 20)
    deep_list = b"[" * 5000 + b"]" * 5000
    deep_obj = b'{"a":' * 5000 + b"1" + b"}" * 5000
    verify_ok = {"game": "finnish-27", "table_minimum": "10.00", "dealer": {"cards": ["9C", "9D"]},
                 "seats": [{"seat": 1, "wagers": {"main": "10.00"}, "hands": [{"cards": ["9S", "9H", "9D"]}]}]}

    def verify_with(**changes):
        doc = json.loads(json.dumps(verify_ok))
        for k, v in changes.items():
            if k == "wager":
                doc["seats"][0]["wagers"]["main"] = v
            elif k == "seat":
                doc["seats"][0]["seat"] = v
            elif k == "paid":
                doc["seats"][0]["paid"] = v
        return doc

    # (name, method-path, body | raw, expectation): "refuse" = must be 4xx; "any" = anything but 5xx / a hang
    cases: list[tuple] = [
        ("JSON list nested 5000 deep → open round", "/api/tables/2/rounds/", {"raw": deep_list}, "refuse"),
        ("JSON object nested 5000 deep → verify", "/api/rounds/verify/", {"raw": deep_obj}, "refuse"),
        ("JSON nested 5000 deep → token login", "/api/auth/token/", {"raw": deep_obj}, "refuse"),
        ("JSON nested 5000 deep → paid", f"/api/rounds/{rid}/paid/", {"raw": b'{"paid":' + deep_obj + b"}"}, "refuse"),
        ("NUL in a wager amount", "/api/tables/2/rounds/",
         {"body": {"seats": [{"seat": 1, "wagers": {"main": "10\u0000"}}]}}, "refuse"),
        ("NUL in a decision action", f"/api/rounds/{rid}/decisions/", {"body": {"action": "st\u0000and"}}, "refuse"),
        ("NUL in a reason", f"/api/rounds/{rid}/pause/", {"body": {"reason": "a\u0000b"}}, "any"),
        ("NUL in a bet-kind key", "/api/tables/2/rounds/",
         {"body": {"seats": [{"seat": 1, "wagers": {"ma\u0000in": "10.00"}}]}}, "refuse"),
        ("NUL in the user name", "/api/auth/token/", {"body": {"username": "pit\u0000boss", "password": "x"}}, "refuse"),
        ("lone surrogate in a reason", f"/api/rounds/{rid}/pause/", {"raw": b'{"reason": "a\\ud800b"}'}, "any"),
        ("lone surrogate in a key", "/api/tables/2/rounds/",
         {"raw": b'{"seats": [{"seat": 1, "wagers": {"\\udc00": "10.00"}}]}'}, "refuse"),
        ("lone surrogate in an extra key", "/api/rounds/verify/", {"raw": b'{"\\ud800": 1}'}, "refuse"),
        ("lone surrogate in a player name", "/api/tables/2/rounds/",
         {"raw": b'{"seats": [{"seat": 1, "player": "\\udfff", "wagers": {"main": "10.00"}}]}'}, "any"),
        ("lone surrogate in the user name", "/api/auth/token/", {"raw": b'{"username": "\\ud800", "password": "x"}'},
         "refuse"),
        ("invalid UTF-8 bytes in the body", f"/api/rounds/{rid}/pause/", {"raw": b'{"reason": "\xed\xa0\x80"}'}, "refuse"),
        ("1 MB junk in an extra key → open round", "/api/tables/2/rounds/",
         {"body": {"seats": [seat], "junk": mb}}, "refuse"),
        ("1 MB junk key in a seat", "/api/tables/2/rounds/",
         {"body": {"seats": [{**seat, mb: 1}]}}, "refuse"),
        ("1 MB junk in an extra key → verify", "/api/rounds/verify/", {"body": {**verify_ok, "junk": mb}}, "any"),
        ("1 MB junk in a seat's extra key → verify", "/api/rounds/verify/",
         {"body": {**verify_ok, "seats": [{**verify_ok["seats"][0], "junk": mb}]}}, "any"),
        ("1 MB junk key → decision", f"/api/rounds/{rid}/decisions/", {"body": {"action": "stand", mb: "x"}}, "refuse"),
        ("1 MB junk key → token login", "/api/auth/token/",
         {"body": {"username": "nobody-probe", "password": "x", mb: 1}}, "refuse"),
    ]
    for key in ("²", "١", "𝟏"):
        cases += [
            (f"paid seat key {key!r}", f"/api/rounds/{rid}/paid/", {"body": {"paid": {key: {"main": "10.00"}}}}, "refuse"),
            (f"seat number {key!r} → open round", "/api/tables/2/rounds/",
             {"body": {"seats": [{"seat": key, "wagers": {"main": "10.00"}}]}}, "refuse"),
            (f"seat number {key!r} → verify", "/api/rounds/verify/", {"body": verify_with(seat=key)}, "refuse"),
            (f"decision who seat:{key}", f"/api/rounds/{rid}/decisions/", {"body": {"action": "stand", "who": f"seat:{key}"}},
             "refuse"),
        ]
    for amount in ("1_000", "1_0.00", "١٠", "١٠.٠٠", "１０", "10\u00a0"):
        cases += [
            (f"wager {amount!r} → open round", "/api/tables/2/rounds/",
             {"body": {"seats": [{"seat": 1, "wagers": {"main": amount}}]}}, "refuse"),
            (f"wager {amount!r} → verify", "/api/rounds/verify/", {"body": verify_with(wager=amount)}, "refuse"),
            (f"paid {amount!r} → verify", "/api/rounds/verify/", {"body": verify_with(paid={"main": amount})}, "refuse"),
            (f"paid {amount!r} → paid", f"/api/rounds/{rid}/paid/", {"body": {"paid": {"1": {"main": amount}}}}, "refuse"),
            (f"decision amount {amount!r}", f"/api/rounds/{rid}/decisions/", {"body": {"action": "raise", "amount": amount}},
             "refuse"),
        ]
    ten_mb = b'{"seats": [{"seat": 1, "wagers": {"main": "10.00"}}], "junk": "' + b"y" * (10 << 20) + b'"}'
    cases += [
        ("10 MB JSON body → open round", "/api/tables/2/rounds/", {"raw": ten_mb}, "refuse"),
        ("10 MB JSON body → verify", "/api/rounds/verify/", {"raw": ten_mb}, "refuse"),
        ("10 MB JSON body → token login", "/api/auth/token/", {"raw": ten_mb}, "refuse"),
        ("10 MB image → scans", f"/api/rounds/{rid}/scans/", {"files": {"image": ("big.png", b"\x89PNG" + os.urandom(10 << 20))}},
         "refuse"),
        ("10 MB form field → scans", f"/api/rounds/{rid}/scans/",
         {"files": {"image": ("a.png", png_header(10, 10)), "junk": (None, "z" * (10 << 20))}}, "refuse"),
        ("PNG header claiming 30000x30000 → scans", f"/api/rounds/{rid}/scans/",
         {"files": {"image": ("huge.png", png_header(30000, 30000) + b"\x00" * 64)}}, "refuse"),
        ("PNG header claiming 30000x30000 → rummy scan", "/api/rummy/games/1/scan/",
         {"files": {"image": ("huge.png", png_header(30000, 30000))}}, "refuse"),
    ]
    results = []
    open_table = 3  # open-round cases go to a free table (table 2 holds the round the other cases use)
    api.post(f"/api/tables/{open_table}/open/", {})
    for name, path, payload, expect in cases:
        if path == "/api/tables/2/rounds/":
            path = f"/api/tables/{open_table}/rounds/"
            doc = api.get(f"/api/tables/{open_table}/").json()
            if doc.get("round"):
                prior = doc["round"]["id"] if isinstance(doc["round"], dict) else doc["round"]
                api.post(f"/api/rounds/{prior}/cancel/", {"reason": "probe: clear the table"})
        t = time.monotonic()
        try:
            if "files" in payload:
                r = api.post(path, files=payload["files"], timeout=30)
            else:
                raw = payload.get("raw")
                if raw is None:
                    raw = json.dumps(payload["body"], ensure_ascii=False).encode("utf-8", "surrogatepass")
                r = api.post(path, raw=raw, timeout=30)
            status, body = r.status_code, r.text[:160]
        except requests.RequestException as exc:
            status, body = 0, repr(exc)[:160]
        dt = time.monotonic() - t
        ok = 0 < status < 500 and dt < 20 and (expect == "any" or 400 <= status < 500)
        results.append({"name": name, "path": path, "status": status, "seconds": round(dt, 2), "expect": expect,
                        "ok": ok, "body": body})
        if status and 200 <= status < 300 and path.endswith("/rounds/") and path.startswith("/api/tables/"):
            try:  # an accepted round: cancel it so the next case meets a free table
                api.post(f"/api/rounds/{r.json()['id']}/cancel/", {"reason": "probe cleanup"})
            except Exception:  # noqa: BLE001
                pass
    return results


# ---------------------------------------------------------------------------------------------- (c) read-only roles

KEY_TABLES_EXCLUDED = {"django_session", "knox_authtoken", "axes_accesslog"}


def snapshot(pg: str, db: str) -> dict[str, str]:
    """Row count and content hash of every table of the database (sessions, tokens, sign-in logs excepted)."""
    names = psql(pg, "SELECT tablename FROM pg_tables WHERE schemaname='public' ORDER BY 1", db).split()
    out = {}
    for t in names:
        if t in KEY_TABLES_EXCLUDED:
            continue
        col = "(t - 'last_login')" if t == "auth_user" else "t"
        row = "to_jsonb(t)" if t != "auth_user" else "(to_jsonb(t) - 'last_login')"
        del col
        out[t] = psql(pg, f'SELECT count(*) || \':\' || coalesce(md5(string_agg(md5({row}::text), \'\' '
                          f'ORDER BY md5({row}::text))), \'-\') FROM "{t}" t', db).strip()
    return out


class FormParser(html.parser.HTMLParser):
    """The fields of the forms of a page (enough to post a Django admin form back as it was shown)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action", ""), "method": (a.get("method") or "get").lower(),
                               "fields": []})
        if not self.forms:
            return
        fields = self.forms[-1]["fields"]
        if tag == "input" and a.get("name"):
            typ = (a.get("type") or "text").lower()
            if typ in ("checkbox", "radio") and "checked" not in a:
                return
            if typ in ("submit", "button", "file", "image"):
                return
            fields.append((a["name"], a.get("value") or ""))
        elif tag == "select" and a.get("name"):
            self._select = a["name"]
            self._selected = None
        elif tag == "option" and self._select is not None and "selected" in a:
            fields.append((self._select, a.get("value") or ""))
        elif tag == "textarea" and a.get("name"):
            self._textarea = a["name"]
            fields.append((a["name"], ""))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea and self.forms:
            name, val = self.forms[-1]["fields"][-1]
            self.forms[-1]["fields"][-1] = (name, val + data)


def admin_session(base: str, user: str, password: str) -> requests.Session:
    s = requests.Session()
    r = s.get(base + "/admin/login/", timeout=30)
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', r.text).group(1)
    r = s.post(base + "/admin/login/?next=/admin/", data={"csrfmiddlewaretoken": csrf, "username": user,
               "password": password, "next": "/admin/"}, headers={"Referer": base + "/admin/login/"}, timeout=30)
    if "sessionid" not in s.cookies:
        raise RuntimeError(f"admin login of {user} failed: {r.status_code}")
    return s


def post_back(s: requests.Session, base: str, url: str, extra: dict | None = None) -> tuple[int, int, str, bool]:
    """GET an admin page, POST its main form back (with ``extra`` fields); (GET status, POST status, where,
    whether the page offered the ``action`` of ``extra``)."""
    g = s.get(base + url, timeout=30, allow_redirects=False)
    action = (extra or {}).get("action")
    offered = bool(action) and g.status_code == 200 and f'<option value="{action}"' in g.text
    fields: list[tuple[str, str]] = []
    if g.status_code == 200:
        p = FormParser()
        p.feed(g.text)
        forms = [f for f in p.forms if f["method"] == "post" and "logout" not in f["action"]]
        if forms:
            fields = max(forms, key=lambda f: len(f["fields"]))["fields"]
    csrf = s.cookies.get("csrftoken", "")
    if not any(k == "csrfmiddlewaretoken" for k, _ in fields):
        fields.append(("csrfmiddlewaretoken", csrf))
    fields += list((extra or {}).items())
    r = s.post(base + url, data=fields, headers={"Referer": base + url}, timeout=30, allow_redirects=False)
    return g.status_code, r.status_code, r.headers.get("Location", ""), offered


def admin_targets() -> list[tuple[str, str, int | None, int | None, list[str]]]:
    """(app_label, model_name, an object's pk, a history record's id, the changelist's actions) of every
    model registered in the admin (every action, whoever it is offered to: a read-only role's post of one
    must change nothing)."""
    from django.contrib import admin

    out = []
    for model, ma in admin.site._registry.items():
        obj = model._default_manager.order_by("-pk").first()
        hist_id = None
        if obj is not None and hasattr(model, "history"):
            h = model.history.filter(pk=obj.pk).order_by("history_id").first()
            hist_id = h.history_id if h is not None else None
        actions = sorted({name for _func, name, _desc in ma._get_base_actions()})
        out.append((model._meta.app_label, model._meta.model_name, obj.pk if obj else None, hist_id, actions))
    from django.db import connection

    connection.close()
    return out


def part_c(base: str, pg: str, db: str, schema: dict, ids: dict[str, list[int]]) -> dict:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from knox.models import AuthToken

    users = {"auditor": USERS["auditor"], "probe-norole": "probe-norole-pass-1"}
    api_tokens = {u: AuthToken.objects.create(get_user_model().objects.get(username=u))[1] for u in users}
    # A failed sign-in: a sign-in attempt (django-axes) for the admin's attempt pages and their clean-up action.
    requests.post(base + "/api/auth/token/", json={"username": "probe-nobody", "password": "wrong"}, timeout=30)
    targets = admin_targets()
    connection.close()
    sessions = {u: admin_session(base, u, p) for u, p in users.items()}
    before = snapshot(pg, db)
    # Not writes: stateless checks and revoking one's own token (done last, not counted)
    not_writes = {"rounds_verify", "tables_rummy_check", "auth_token", "auth_logout", "auth_logout_all"}
    attempts, successes, statuses = 0, [], {}
    bodies = {
        "rounds_open": {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]},
        "rounds_card": {"code": "9S"}, "rounds_decision": {"action": "stand"},
        "rounds_paid": {"paid": {"1": {"main": "10.00"}}}, "rounds_approve": {"reason": "probe"},
        "rounds_cancel": {"reason": "probe"}, "rounds_card_correct": {"code": "9S", "reason": "probe"},
        "tables_shuffle": {"reason": "probe"}, "rounds_pause": {"reason": "probe"},
        "rummy_game_start": {"players": ["a", "b"]}, "bluffjack_hand_open": {},
    }
    for path, methods in schema["paths"].items():
        for method, op in methods.items():
            if method not in ("post", "put", "patch", "delete"):
                continue
            op_id = op.get("operationId", "")
            if op_id in not_writes:
                continue
            kind = resource_of(path)
            for user, tok in api_tokens.items():
                for i in range(3):
                    pool = ids.get(kind) or [1]
                    url = path.replace("{id}", str(pool[i % len(pool)])).replace("{seq}", "1")
                    r = requests.request(method.upper(), base + url, json=bodies.get(op_id, {}),
                                         headers={"Authorization": f"Token {tok}",
                                                  "Idempotency-Key": uuid.uuid4().hex}, timeout=30)
                    attempts += 1
                    statuses[str(r.status_code)] = statuses.get(str(r.status_code), 0) + 1
                    if r.status_code < 300 or r.status_code >= 500:
                        successes.append(f"API {user} {method.upper()} {url} → {r.status_code} {r.text[:120]}")
    admin_attempts = 0
    for user, s in sessions.items():
        for app, model, pk, hist, actions in targets:
            urls = [(f"/admin/{app}/{model}/add/", None)]
            if pk is not None:
                urls += [(f"/admin/{app}/{model}/{pk}/change/", None),
                         (f"/admin/{app}/{model}/{pk}/delete/", {"post": "yes"})]
                # Every changelist action (delete_selected, publishing, opening tables, axes' clean-up, ...).
                urls += [(f"/admin/{app}/{model}/", {"action": action, "_selected_action": str(pk), "post": "yes",
                                                     "index": "0"}) for action in actions]
                if hist is not None:
                    urls.append((f"/admin/{app}/{model}/{pk}/history/{hist}/", None))
            for url, extra in urls:
                g, p, where, offered = post_back(s, base, url, extra)
                admin_attempts += 1
                statuses[f"admin {p}"] = statuses.get(f"admin {p}", 0) + 1
                # a changelist action that is not allowed redirects back to the list ("No action selected");
                # one that is offered to a read-only role at all is counted (its effect may lie in a table
                # the comparison leaves out, as axes' clean-up of sign-in attempts does)
                if p >= 500 or offered or (p == 302 and "/login/" not in where and where.rstrip("/") != url.rstrip("/")
                                           and not where.endswith(url)):
                    successes.append(f"admin {user} POST {url} {extra or ''} (GET {g}{', offered' if offered else ''})"
                                     f" → {p} {where}")
    after = snapshot(pg, db)
    changed = {t: (before.get(t), after.get(t)) for t in set(before) | set(after) if before.get(t) != after.get(t)}
    return {"api_attempts": attempts, "admin_attempts": admin_attempts, "successes": successes, "statuses": statuses,
            "tables_changed": changed, "tables_compared": len(before)}


# ---------------------------------------------------------------------------------------------- (d) memory

def part_d(base: str, token: str, server: Gunicorn) -> list[dict]:
    api = Api(base, token)
    rid = open_blackjack_round(api)
    bomb = png_bomb(30000, 30000)
    log(f"oversized PNG: 30000x30000 greyscale, {len(bomb) / 2**20:.2f} MB on the wire (900 MB decoded)")
    results = []
    for name, payload in (("real 30000x30000 PNG (compressed bomb)", bomb),
                          ("PNG header claiming 30000x30000", png_header(30000, 30000) + b"\x00" * 64)):
        for attempt in range(4):  # four posts: each worker of the four is likely to take one
            pids = server.worker_pids()
            baseline = {p: rss_kb(p) or 0 for p in pids}
            peak = dict(baseline)
            stop = threading.Event()

            def sample(pids=pids, peak=peak, stop=stop) -> None:
                while not stop.is_set():
                    for p in pids:
                        v = rss_kb(p)
                        if v is not None and v > peak.get(p, 0):
                            peak[p] = v
                    time.sleep(0.01)

            th = threading.Thread(target=sample, daemon=True)
            th.start()
            t = time.monotonic()
            try:
                r = api.post(f"/api/rounds/{rid}/scans/", files={"image": ("huge.png", payload, "image/png")},
                             timeout=60, headers={"Idempotency-Key": uuid.uuid4().hex})
                status, body = r.status_code, r.text[:120]
            except requests.RequestException as exc:
                status, body = 0, repr(exc)[:120]
            dt = time.monotonic() - t
            time.sleep(0.3)
            stop.set()
            th.join()
            growth = max((peak[p] - baseline[p]) for p in pids) / 1024 if pids else 0.0
            results.append({"name": f"{name} #{attempt + 1}", "status": status, "seconds": round(dt, 3),
                            "worst_rss_growth_mb": round(growth, 1), "body": body})
    return results


# ---------------------------------------------------------------------------------------------- main

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=20000, help="schemathesis requests in total (part a)")
    ap.add_argument("--clients", type=int, default=2, help="fuzzing client processes")
    ap.add_argument("--max-minutes", type=float, default=30, help="time bound of the fuzzing")
    ap.add_argument("--port", type=int, default=8740)
    ap.add_argument("--database", default="casino_probe")
    ap.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    ap.add_argument("--cache", default="rediscache://127.0.0.1:6379/7")
    ap.add_argument("--history-days", type=int, default=1)
    ap.add_argument("--reuse-db", action="store_true", help="skip the database recreation and the demo load")
    ap.add_argument("--parts", default="abcd")
    ap.add_argument("--json", default="var/probe-result.json", help="where the full result is written")
    args = ap.parse_args()
    if not 1024 <= args.port <= 65535:
        ap.error("use an unprivileged port (the server listens on 127.0.0.1 only)")
    var_dir = f"/tmp/{args.database}-var"
    env = server_env(args.database, args.pg, args.cache, var_dir)
    if not args.reuse_db:
        fresh_database(args.pg, args.database, env, args.history_days, log)
    django_setup(env)
    from django.contrib.auth import get_user_model
    from django.db import connection

    User = get_user_model()
    for name, staff in (("probe-norole", True), ("probe-logout", False)):
        u, _ = User.objects.get_or_create(username=name, defaults={"is_staff": staff})
        u.is_staff = staff
        u.set_password(f"{name}-pass-1")
        u.groups.clear()
        u.save()
    connection.close()

    server = Gunicorn(args.port, env, workers=4, log_path=f"{var_dir}/gunicorn.log")
    Path(var_dir).mkdir(parents=True, exist_ok=True)
    result: dict = {"requests_goal": args.requests}
    goals: list[tuple[str, str, bool]] = []
    with server:
        base = server.base
        log(f"gunicorn up on {base}, workers {server.worker_pids()}")
        schema = requests.get(base + "/api/schema/?format=json", timeout=30).json()
        n_ops = sum(1 for p in schema["paths"].values() for m in p if m in ("get", "post", "put", "patch", "delete"))
        from liveserver import token as login

        pit = login(base, "pitboss")
        known_ids()  # warms the ORM connection before forking the clients
        connection.close()
        if "a" in args.parts:
            log(f"(a) fuzzing {n_ops} operations, {args.requests} requests, {args.clients} clients")
            a = part_a(base, env, args.requests, args.clients, args.max_minutes)
            a["tracebacks"] = tracebacks(server.log_path)
            # the shortest reproduction per operation and body prefix
            uniq: dict[str, dict] = {}
            for e in a["errors_5xx"]:
                k = f"{e['operation']} {e['status']}"
                if k not in uniq or len(e["curl"]) < len(uniq[k]["curl"]):
                    uniq[k] = e
            a["distinct_5xx"] = list(uniq.values())
            result["a"] = a
            n5 = len(a["errors_5xx"])
            log(f"(a) sent {a['sent']}, statuses {dict(sorted(a['status'].items()))}, 5xx {n5}, "
                f"no answer {len(a['no_answer'])}")
            goals.append(("(a) schemathesis requests sent", f"{a['sent']} (goal ≥ {args.requests})",
                          a["sent"] >= args.requests))
            goals.append(("(a) 5xx answers", f"{n5} over {len(uniq)} operation(s)", n5 == 0))
            goals.append(("(a) requests without an answer", str(len(a["no_answer"])), not a["no_answer"]))
        if "b" in args.parts:
            log("(b) hand-made bad inputs")
            b = part_b(base, pit)
            result["b"] = b
            bad = [x for x in b if not x["ok"]]
            n5 = sum(1 for x in b if x["status"] >= 500 or x["status"] == 0)
            goals.append(("(b) bad inputs: 5xx or no answer", f"{n5} of {len(b)}", n5 == 0))
            goals.append(("(b) bad inputs not refused as expected", f"{len(bad)} of {len(b)}", not bad))
            for x in bad:
                log(f"   (b) NOT OK: {x['name']} {x['path']} → {x['status']} in {x['seconds']} s: {x['body'][:100]}")
        if "c" in args.parts:
            log("(c) read-only roles")
            c = part_c(base, args.pg, args.database, schema, known_ids())
            result["c"] = c
            goals.append(("(c) writes by auditor / no role", f"{len(c['successes'])} of {c['api_attempts']} API + "
                          f"{c['admin_attempts']} admin posts", not c["successes"]))
            goals.append(("(c) tables changed (DB compare)", f"{len(c['tables_changed'])} of {c['tables_compared']}",
                          not c["tables_changed"]))
            for s in c["successes"][:40]:
                log(f"   (c) WRITE: {s}")
            for t, (x, y) in c["tables_changed"].items():
                log(f"   (c) CHANGED {t}: {x} → {y}")
        if "d" in args.parts:
            log("(d) oversized image and worker memory")
            d = part_d(base, pit, server)
            result["d"] = d
            worst = max(x["worst_rss_growth_mb"] for x in d)
            slowest = max(x["seconds"] for x in d)
            refused = all(400 <= x["status"] < 500 for x in d)
            goals.append(("(d) worst worker RSS growth", f"{worst:.1f} MB (goal ≤ 300)", worst <= 300))
            goals.append(("(d) slowest answer to an oversized image", f"{slowest:.3f} s (goal < 0.5)", slowest < 0.5))
            goals.append(("(d) oversized images refused (4xx)", str([x["status"] for x in d]), refused))
    Path(ROOT / args.json).parent.mkdir(parents=True, exist_ok=True)
    (ROOT / args.json).write_text(json.dumps(result, indent=1, default=str, ensure_ascii=False))
    if "a" in result:
        a = result["a"]
        print("\n5xx found by schemathesis (shortest reproduction per operation):")
        for e in a["distinct_5xx"] or [{"operation": "none", "status": "", "curl": "", "body": ""}]:
            print(f"  {e['operation']} → {e['status']}  {e['body'][:120]}\n    {e['curl'][:600]}")
        if a["tracebacks"]:
            print("server tracebacks (gunicorn log), grouped:")
            for k, v in sorted(a["tracebacks"].items(), key=lambda kv: -kv[1]):
                print(f"  {v:6d}  {k}")
        if a["generation_errors"]:
            print("generation problems:", *a["generation_errors"][:10], sep="\n  ")
    if "b" in result:
        print("\nbad inputs:")
        for x in result["b"]:
            print(f"  {'ok ' if x['ok'] else 'BAD'} {x['status']:3d} {x['seconds']:6.2f}s  {x['name']}")
    if "d" in result:
        print("\noversized images:")
        for x in result["d"]:
            print(f"  {x['status']:3d} {x['seconds']:6.3f}s  +{x['worst_rss_growth_mb']:7.1f} MB  {x['name']}  {x['body'][:80]}")
    print("\nSUMMARY")
    print(f"  {'check':45s} {'figure':50s} goal")
    for name, fig, ok in goals:
        print(f"  {name:45s} {fig:50s} {'met' if ok else 'MISSED'}")
    print(f"  total time {time.monotonic() - T0:.0f} s; full result in {args.json}")
    return 0 if all(ok for _, _, ok in goals) else 1


if __name__ == "__main__":
    sys.exit(main())
