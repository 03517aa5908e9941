"""The one lock order (table → game → round): commands racing at one table never deadlock.

Ending a Bluffjack game while its next hand was being opened used to answer 500
(``DeadlockDetected`` on PostgreSQL): the next hand locked the table and then the game, the end locked
the game and the table at once (a join, game row first).  Row locks only exist on PostgreSQL, so these
tests are skipped elsewhere.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
import requests
from django.db import connection

from tables import services
from tables.models import AuditEvent, BluffjackGame, GameState, Round
from tests.tables.api.conftest import client_for
from tests.tables.api.test_bluffjack_games import first_hand, game_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def bluffjack_after_a_hand(demo_casino: Any, dealer: Any) -> tuple[int, str]:
    """A Bluffjack game whose first hand is settled (its next hand may open, or it may end); a token."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises whole-database writes)")
    from knox.models import AuthToken

    table = demo_casino.tables["bluffjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer)
    api = client_for(dealer)
    first_hand(api, table)
    _instance, token = AuthToken.objects.create(user=dealer)
    return game_of(api, table)["id"], token


def _race(url: str, token: str, game_id: int, *, stagger: float) -> dict[str, int]:
    """POST next hand and end at once (the end ``stagger`` seconds later); the status of each."""
    codes: dict[str, int] = {}
    headers = {"Authorization": f"Token {token}"}

    def post(name: str, path: str, body: dict[str, Any], delay: float) -> None:
        time.sleep(delay)
        r = requests.post(f"{url}{path}", json=body, headers=headers, timeout=60)
        codes[name] = r.status_code

    threads = [
        threading.Thread(target=post, args=("hand", f"/api/bluffjack/games/{game_id}/hands/", {}, 0.0)),
        threading.Thread(target=post, args=("end", f"/api/bluffjack/games/{game_id}/end/",
                                            {"reason": "players leave"}, stagger)),
    ]  # fmt: skip
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return codes


def test_ending_a_game_while_its_next_hand_opens_is_a_conflict_not_a_deadlock(
    bluffjack_after_a_hand, live_server, monkeypatch
):
    game_id, token = bluffjack_after_a_hand
    # Widen the race window: whoever locks the table holds it a moment before going on (before the
    # fix the next hand then asked for the game the end had already locked while waiting for the table).
    original = services.common._lock_table

    def slow_lock_table(table: Any) -> Any:
        locked = original(table)
        time.sleep(0.4)
        return locked

    monkeypatch.setattr(services.common, "_lock_table", slow_lock_table)  # _lock_bluffjack looks it up there
    codes = _race(live_server.url, token, game_id, stagger=0.15)
    assert codes == {"hand": 201, "end": 409}, codes
    game = BluffjackGame.objects.get(pk=game_id)
    assert game.state == GameState.PLAYING and Round.objects.filter(bluffjack_game=game).count() == 2


def test_racing_end_and_next_hand_answers_only_success_or_conflict(bluffjack_after_a_hand, live_server):
    game_id, token = bluffjack_after_a_hand
    codes = _race(live_server.url, token, game_id, stagger=0.0)
    assert set(codes.values()) <= {200, 201, 409} and sorted(codes.values()) != [409, 409], codes
    game = BluffjackGame.objects.get(pk=game_id)
    hands = Round.objects.filter(bluffjack_game=game).count()
    # Exactly one of them happened: the game ended with its one hand, or a second hand opened.
    assert (codes["end"] == 200) == (game.state == GameState.ENDED) == (hands == 1), (codes, game.state, hands)
    assert AuditEvent.objects.filter(action="bluffjack.game.end").count() == (1 if codes["end"] == 200 else 0)


def test_opening_two_tables_at_once_for_one_dealer_leaves_one_session_not_a_500(demo_casino, pit_boss, live_server,
                                                                                monkeypatch):
    # Found by bench/probe.py: POST /api/tables/1/open/ and /api/tables/3/open/ at once for the same
    # dealer (the pit boss here) each locked its own table, both saw no session elsewhere, both
    # inserted one, and the second failed the one-open-session-per-dealer index: 500.
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises whole-database writes)")
    from knox.models import AuthToken

    from tables.models import TableSession

    _instance, token = AuthToken.objects.create(user=pit_boss)
    first, second = demo_casino.tables["finnish-27"], demo_casino.tables["mini-blackjack"]
    original = services.tables._lock_table

    def slow_lock_table(table: Any) -> Any:  # both requests hold their table before either goes on
        locked = original(table)
        time.sleep(0.4)
        return locked

    monkeypatch.setattr(services.tables, "_lock_table", slow_lock_table)
    codes: dict[int, int] = {}

    def post(table_id: int) -> None:
        r = requests.post(f"{live_server.url}/api/tables/{table_id}/open/", json={},
                          headers={"Authorization": f"Token {token}"}, timeout=60)  # fmt: skip
        codes[table_id] = r.status_code

    threads = [threading.Thread(target=post, args=(t.pk,)) for t in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes.values()) == [200, 200], codes
    # The later open moved the pit boss: one table held, the other session closed.
    assert TableSession.objects.filter(dealer=pit_boss, closed_at__isnull=True).count() == 1
    assert TableSession.objects.filter(dealer=pit_boss).count() == 2
