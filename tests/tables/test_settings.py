"""Settings: SQLite by default; DATABASE_URL switches to PostgreSQL (settings re-imported under a patched environment)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from django.core.exceptions import ImproperlyConfigured

REAL_KEY = "a-real-secret-" + "x9" * 30


def _settings_with(monkeypatch: pytest.MonkeyPatch, tmp_path, **env: str) -> ModuleType:  # type: ignore[no-untyped-def]
    for key in ("DATABASE_URL", "CELERY_BROKER_URL", "SECRET_KEY", "HTTPS", "DEBUG", "ALLOWED_HOSTS",
                "CELERY_TASK_ALWAYS_EAGER", "AXES_FAILURE_LIMIT", "AXES_COOLOFF_MINUTES", "API_TOKEN_TTL_HOURS",
                "DB_QUERY_DEADLINE", "DB_UNAVAILABLE_RETRY_AFTER", "DB_POOL_MAX_SIZE", "DB_POOL_TIMEOUT", "CONN_MAX_AGE"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("CASINO_VAR_DIR", str(tmp_path))
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    # A fresh module object: the live settings Django already read stay untouched.
    monkeypatch.delitem(sys.modules, "casino.settings", raising=False)
    module = importlib.import_module("casino.settings")
    monkeypatch.delitem(sys.modules, "casino.settings")
    return module


@pytest.fixture(autouse=True)
def _restore_settings_module():  # type: ignore[no-untyped-def]
    original = sys.modules.get("casino.settings")
    yield
    if original is not None:
        sys.modules["casino.settings"] = original


def test_the_default_database_is_sqlite_under_the_var_dir(monkeypatch, tmp_path) -> None:
    settings = _settings_with(monkeypatch, tmp_path)
    db = settings.DATABASES["default"]
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert str(db["NAME"]).startswith(str(tmp_path))


def test_database_url_switches_to_postgresql(monkeypatch, tmp_path) -> None:
    settings = _settings_with(monkeypatch, tmp_path, DATABASE_URL="postgres://postgres@127.0.0.1:5432/casino")
    db = settings.DATABASES["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["HOST"], int(db["PORT"])) == ("casino", "postgres", "127.0.0.1", 5432)


def test_celery_broker_url_switches_to_redis(monkeypatch, tmp_path) -> None:
    settings = _settings_with(monkeypatch, tmp_path, CELERY_BROKER_URL="redis://127.0.0.1:6379/0")
    assert settings.CELERY_BROKER_URL == "redis://127.0.0.1:6379/0"


def test_debug_is_off_unless_asked(monkeypatch, tmp_path) -> None:
    assert _settings_with(monkeypatch, tmp_path).DEBUG is False
    assert _settings_with(monkeypatch, tmp_path, DEBUG="1").DEBUG is True


@pytest.mark.django_db
def test_the_test_database_is_the_one_the_environment_chose() -> None:
    import os

    from django.db import connection

    expected = "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
    assert connection.vendor == expected


def test_the_embedded_demo_runs_on_the_development_key(monkeypatch, tmp_path) -> None:
    settings = _settings_with(monkeypatch, tmp_path)
    assert settings.SECRET_KEY == settings.DEVELOPMENT_SECRET_KEY
    assert settings.HTTPS is False


@pytest.mark.parametrize("env", [
    {"HTTPS": "1"},
    {"HTTPS": "1", "SECRET_KEY": "dev-insecure-" + "k" * 50},
    {"HTTPS": "1", "SECRET_KEY": "  "},
    {"ALLOWED_HOSTS": "casino.example.com"},
], ids=["https-no-key", "https-development-key", "https-blank-key", "real-host-development-key"])
def test_production_refuses_to_start_without_a_real_secret_key(monkeypatch, tmp_path, env) -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        _settings_with(monkeypatch, tmp_path, **env)


def test_production_starts_with_a_real_secret_key(monkeypatch, tmp_path) -> None:
    settings = _settings_with(monkeypatch, tmp_path, HTTPS="1", SECRET_KEY=REAL_KEY, ALLOWED_HOSTS="casino.example.com")
    assert (settings.SECRET_KEY, settings.SESSION_COOKIE_SECURE, settings.SECURE_SSL_REDIRECT) == (REAL_KEY, True, True)


@pytest.mark.parametrize("name", ["DEBUG", "HTTPS", "CELERY_TASK_ALWAYS_EAGER"])
def test_a_misspelt_boolean_fails_loudly(monkeypatch, tmp_path, name) -> None:
    with pytest.raises(ImproperlyConfigured, match=f"{name}='ture' is not a boolean"):
        _settings_with(monkeypatch, tmp_path, SECRET_KEY=REAL_KEY, **{name: "ture"})


@pytest.mark.parametrize(("raw", "expected"), [
    ("1", True), ("true", True), ("True", True), ("yes", True), ("on", True),
    ("0", False), ("false", False), ("FALSE", False), ("no", False), ("off", False), ("", False),
])
def test_boolean_spellings(monkeypatch, tmp_path, raw, expected) -> None:
    assert _settings_with(monkeypatch, tmp_path, DEBUG=raw).DEBUG is expected


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    root = Path(__file__).resolve().parents[2]
    # The browser fixture sets DJANGO_ALLOW_ASYNC_UNSAFE in this process; a deploy check rightly fails on it.
    unset = ("SECRET_KEY", "HTTPS", "ALLOWED_HOSTS", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE")
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run([sys.executable, str(root / "manage.py"), *args], env={**clean, **env},
                          capture_output=True, text=True, timeout=120, cwd=root)  # fmt: skip


def test_check_deploy_fails_on_the_development_key() -> None:
    plain = _manage("check", "--deploy")
    assert plain.returncode != 0 and "casino.E001" in plain.stderr and "SECRET_KEY" in plain.stderr
    https = _manage("check", "--deploy", HTTPS="1")
    assert https.returncode != 0 and "ImproperlyConfigured" in https.stderr and "SECRET_KEY" in https.stderr
    real = _manage("check", "--deploy", "--fail-level", "WARNING", HTTPS="1", SECRET_KEY=REAL_KEY)
    assert real.returncode == 0, real.stderr


def test_lockout_and_token_lifetime_come_from_the_environment(monkeypatch, tmp_path) -> None:
    from datetime import timedelta

    defaults = _settings_with(monkeypatch, tmp_path)
    assert (defaults.AXES_FAILURE_LIMIT, defaults.AXES_COOLOFF_TIME) == (5, timedelta(minutes=15))
    assert defaults.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert defaults.REST_KNOX["TOKEN_TTL"] == timedelta(hours=12)
    assert defaults.REST_KNOX["AUTH_HEADER_PREFIX"] == "Token"
    custom = _settings_with(monkeypatch, tmp_path, AXES_FAILURE_LIMIT="3", AXES_COOLOFF_MINUTES="60",
                            API_TOKEN_TTL_HOURS="8")  # fmt: skip
    assert (custom.AXES_FAILURE_LIMIT, custom.AXES_COOLOFF_TIME) == (3, timedelta(hours=1))
    assert custom.REST_KNOX["TOKEN_TTL"] == timedelta(hours=8)


@pytest.mark.parametrize("name", ["AXES_FAILURE_LIMIT", "AXES_COOLOFF_MINUTES", "API_TOKEN_TTL_HOURS"])
def test_a_non_positive_limit_fails_loudly(monkeypatch, tmp_path, name) -> None:
    with pytest.raises(ImproperlyConfigured, match=name):
        _settings_with(monkeypatch, tmp_path, **{name: "0"})


def test_postgresql_gives_up_connecting_and_cancels_long_statements(monkeypatch, tmp_path) -> None:
    url = "postgres://postgres@127.0.0.1:5432/casino"
    options = _settings_with(monkeypatch, tmp_path, DATABASE_URL=url).DATABASES["default"]["OPTIONS"]
    assert options["connect_timeout"] == 5 and options["options"] == "-c statement_timeout=15000"
    options = _settings_with(monkeypatch, tmp_path, DATABASE_URL=url, DB_CONNECT_TIMEOUT="3",
                             DB_STATEMENT_TIMEOUT="2.5").DATABASES["default"]["OPTIONS"]  # fmt: skip
    assert options["connect_timeout"] == 3 and options["options"] == "-c statement_timeout=2500"
    with pytest.raises(Exception, match="DB_STATEMENT_TIMEOUT"):
        _settings_with(monkeypatch, tmp_path, DATABASE_URL=url, DB_STATEMENT_TIMEOUT="-1")


def test_a_request_waits_db_query_deadline_seconds_at_most_for_an_answer_of_the_database(monkeypatch, tmp_path) -> None:
    assert _settings_with(monkeypatch, tmp_path).DB_QUERY_DEADLINE == 5.0
    assert _settings_with(monkeypatch, tmp_path, DB_QUERY_DEADLINE="2.5").DB_QUERY_DEADLINE == 2.5
    for bad in ("0", "0.5", "301", "soon", "nan"):
        with pytest.raises(ImproperlyConfigured, match="DB_QUERY_DEADLINE"):
            _settings_with(monkeypatch, tmp_path, DB_QUERY_DEADLINE=bad)


def test_a_connection_pool_per_process_is_asked_for_by_db_pool_max_size(monkeypatch, tmp_path) -> None:
    url = "postgres://postgres@127.0.0.1:5432/casino"
    assert "pool" not in _settings_with(monkeypatch, tmp_path, DATABASE_URL=url).DATABASES["default"]["OPTIONS"]
    options = _settings_with(monkeypatch, tmp_path, DATABASE_URL=url, DB_POOL_MAX_SIZE="12",
                             DB_POOL_TIMEOUT="4").DATABASES["default"]["OPTIONS"]  # fmt: skip
    assert options["pool"] == {"min_size": 2, "max_size": 12, "timeout": 4.0}
    with pytest.raises(ImproperlyConfigured, match="CONN_MAX_AGE"):
        _settings_with(monkeypatch, tmp_path, DATABASE_URL=url, DB_POOL_MAX_SIZE="12", CONN_MAX_AGE="60")
    with pytest.raises(ImproperlyConfigured, match="DB_POOL_MAX_SIZE"):
        _settings_with(monkeypatch, tmp_path, DATABASE_URL=url, DB_POOL_MAX_SIZE="-1")


def test_a_full_server_or_pool_is_a_503_without_the_unreachable_hold_off() -> None:
    import psycopg
    import psycopg_pool
    from django.db import OperationalError

    from casino.middleware import database_unavailable, database_unreachable

    def wrapped(cause: Exception) -> OperationalError:
        exc = OperationalError(str(cause))
        exc.__cause__ = cause
        return exc

    full = wrapped(psycopg.OperationalError('connection failed: connection to server at "127.0.0.1", port 5432 '
                                            "failed: FATAL:  sorry, too many clients already"))
    pool = wrapped(psycopg_pool.PoolTimeout("couldn't get a connection after 10.00 sec"))
    refused = wrapped(psycopg.OperationalError("connection failed: Connection refused"))
    assert database_unavailable(full) and database_unavailable(pool) and database_unavailable(refused)
    assert not database_unreachable(full) and not database_unreachable(pool)
    assert database_unreachable(refused)
