"""Shared fixtures: personas (one user per role, and an outsider), the demo casino, and a headless
browser (Playwright driving the system Chromium) for the tests marked ``browser``.

The games with their published rule sets and pay tables, and the role groups, are in every test
database already: migration 0004 seeds the games and the post_migrate hook creates the groups.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

from tests.factories import UserFactory


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist (``bin/test -n 2``) on a Redis cache, each worker uses a Redis database of its
    own (gw0: 10, gw1: 11, ...): a test's ``cache.clear()`` is a FLUSHDB, which must not empty the cache
    under another worker's test.  (The test databases are the workers' own already: pytest-django
    names them ``test_<name>_gw0``..., and SQLite's file is named by process.)"""
    from django.conf import settings

    # The tests' task messages (a live server's settled round schedules a hold refresh) go to a broker folder
    # of their own, not the working tree's var/broker: bin/run's worker then found dozens of them, naming
    # tables of the tests' databases.
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None)
    if settings.CELERY_BROKER_URL.startswith("filesystem://") and options:
        import tempfile

        folder = tempfile.mkdtemp(prefix="casino-test-broker-")
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
        for key, sub in (("data_folder_in", "in"), ("data_folder_out", "in"), ("processed_folder", "processed"),
                         ("control_folder", "control")):
            options[key] = os.path.join(folder, sub)
            os.makedirs(options[key], exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return
    cache = settings.CACHES["default"]
    if "redis" in cache["BACKEND"].lower():
        cache["LOCATION"] = re.sub(r"/\d*$", "", cache["LOCATION"]) + f"/{10 + int(worker[2:])}"


# Property tests check behaviour, not speed (speed is measured by the benchmarks in bench/): no
# per-example deadline, so a busy machine cannot fail them.
hypothesis_settings.register_profile("casino", deadline=None)
hypothesis_settings.load_profile("casino")


@pytest.fixture(autouse=True)
def _fast_password_hashing(request: pytest.FixtureRequest) -> None:
    """Database tests log in a lot; the production hasher's deliberate slowness only costs time there."""
    uses_db = request.node.get_closest_marker("django_db") is not None or bool(
        {"db", "transactional_db", "django_db_setup"} & set(request.fixturenames)
    )
    if uses_db:
        request.getfixturevalue("settings").PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_lockout_unless_asked(request: pytest.FixtureRequest) -> None:
    """django-axes is off in tests unless a test takes the ``lockout`` fixture.

    Tests sign in many times with the same personas (no test may lock another out), and the test
    client's ``login()`` calls ``authenticate()`` without a request, which axes refuses.
    """
    if "lockout" not in request.fixturenames:
        request.getfixturevalue("settings").AXES_ENABLED = False


@pytest.fixture(autouse=True)
def _database_hold_off_cleared() -> Iterator[None]:
    """A test that made a worker find the database unreachable must not leave later tests answered 503."""
    yield
    from casino.middleware import DatabaseHoldOff

    DatabaseHoldOff.clear()


@pytest.fixture
def lockout(settings: Any) -> Any:
    """django-axes on, as in production: AXES_FAILURE_LIMIT failures of a user name from one address lock it.

    Sign in through the real login views here (``client.post`` to the login URL), not ``client.login()``.
    """
    settings.AXES_ENABLED = True
    return settings


def _persona(username: str, role: str | None, *, staff: bool) -> Any:
    from django.contrib.auth.models import Group

    from tables.access import ensure_roles

    user = UserFactory(username=username, is_staff=staff)
    if role is not None:
        if not Group.objects.filter(name=role).exists():
            ensure_roles()  # after a flush (transactional tests) the groups come back here
        user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def dealer(db: None) -> Any:
    """A dealer: works the tablet, reads the configuration of the tables, no back office."""
    from tables.access import DEALER

    return _persona("dealer", DEALER, staff=False)


@pytest.fixture
def pit_boss(db: None) -> Any:
    """A pit boss: sees the whole floor, opens and closes tables."""
    from tables.access import PIT_BOSS

    return _persona("pitboss", PIT_BOSS, staff=True)


@pytest.fixture
def games_manager(db: None) -> Any:
    """A games manager: edits and publishes rule sets and pay tables, configures tables."""
    from tables.access import GAMES_MANAGER

    return _persona("manager", GAMES_MANAGER, staff=True)


@pytest.fixture
def auditor(db: None) -> Any:
    """An auditor: reads everything, changes nothing."""
    from tables.access import AUDITOR

    return _persona("auditor", AUDITOR, staff=True)


@pytest.fixture
def outsider(db: None) -> Any:
    """A logged-in user with no role at all."""
    return _persona("outsider", None, staff=False)


@dataclass
class DemoCasino:
    """The demo casino of ``load_demo``: ``tables`` by game slug."""

    casino: Any
    pit: Any
    tables: dict[str, Any]


@pytest.fixture
def demo_casino(db: None) -> DemoCasino:
    """The demo casino as ``manage.py load_demo`` makes it: one pit, an open table per game."""
    from io import StringIO

    from django.core.management import call_command

    from tables.management.commands.load_demo import CASINO, PIT
    from tables.models import Casino, Pit, Table

    call_command("load_demo", stdout=StringIO())
    casino = Casino.objects.get(name=CASINO)
    pit = Pit.objects.get(casino=casino, name=PIT)
    tables = {t.game.slug: t for t in Table.objects.filter(pit=pit).select_related("game", "rule_set", "pay_table")}
    return DemoCasino(casino=casino, pit=pit, tables=tables)


CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]  # fmt: skip


@pytest.fixture
def browser() -> Iterator[Any]:
    """A headless Chromium; the test is skipped where the system has none."""
    if not shutil.which(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    playwright = pytest.importorskip("playwright.sync_api")
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright runs an event loop in this thread
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()
