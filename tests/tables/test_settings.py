"""Settings: SQLite by default; DATABASE_URL switches to PostgreSQL (settings re-imported under a patched environment)."""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

import pytest


def _settings_with(monkeypatch: pytest.MonkeyPatch, tmp_path, **env: str) -> ModuleType:  # type: ignore[no-untyped-def]
    for key in ("DATABASE_URL", "CELERY_BROKER_URL"):
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


def test_postgresql_gives_up_connecting_and_cancels_long_statements(monkeypatch, tmp_path) -> None:
    url = "postgres://postgres@127.0.0.1:5432/casino"
    options = _settings_with(monkeypatch, tmp_path, DATABASE_URL=url).DATABASES["default"]["OPTIONS"]
    assert options["connect_timeout"] == 5 and options["options"] == "-c statement_timeout=15000"
    options = _settings_with(monkeypatch, tmp_path, DATABASE_URL=url, DB_CONNECT_TIMEOUT="3",
                             DB_STATEMENT_TIMEOUT="2.5").DATABASES["default"]["OPTIONS"]  # fmt: skip
    assert options["connect_timeout"] == 3 and options["options"] == "-c statement_timeout=2500"
    with pytest.raises(Exception, match="DB_STATEMENT_TIMEOUT"):
        _settings_with(monkeypatch, tmp_path, DATABASE_URL=url, DB_STATEMENT_TIMEOUT="-1")
