"""The floor's pages: tiles by state, scope, rounds search and CSV, hold over time, decisions history,
the landing page per role, and who may follow which push channel."""

from __future__ import annotations

import csv
import io

import pytest
from django.utils import timezone

from tables import services
from tables.api.events import ChannelManager
from tables.days import day_text
from tables.models import Casino, FloorScope, Pit, TableStatus
from tables.services.hold import hold_refresh_today
from tests.factories import TableFactory, game
from tests.tables.dashboard.conftest import client_for, make_mismatch
from tests.tables.tasks.builders import DAY, FloorBuilder, at, set_theory

pytestmark = pytest.mark.django_db


def tiles(c, **params):
    return {t["number"]: t for t in c.get("/dashboard/api/floor/", params).json()["tables"]}


def test_tiles_show_each_tables_state(demo_casino, dealer, pit_boss):
    f27, ub = demo_casino.tables["finnish-27"], demo_casino.tables["unlimited-blackjack"]
    make_mismatch(f27, dealer)
    services.table_open(table=ub, actor=dealer)
    services.shoe_shuffle(table=ub, actor=dealer, reason="new shoe")
    services.round_open(table=ub, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    mini = demo_casino.tables["mini-blackjack"]
    mini.status = TableStatus.CLOSED
    mini.save()
    t = tiles(client_for(pit_boss))
    assert t[f27.number]["state"] == "alert"
    assert t[ub.number]["state"] == "in_round" and t[ub.number]["rounds_this_hour"] == 1
    assert t[ub.number]["dealer"] == "dealer"
    assert t[mini.number]["state"] == "closed"


def test_a_scoped_pit_boss_sees_only_their_casino_and_pit(demo_casino, pit_boss, dealer):
    other = Casino.objects.create(name="Other casino")
    other_pit = Pit.objects.create(casino=other, name="High limit")
    TableFactory(game=game("mini-blackjack"), pit=other_pit, number=77)
    make_mismatch(demo_casino.tables["finnish-27"], dealer)
    c = client_for(pit_boss)
    assert 77 in tiles(c)  # no scope: the whole floor
    FloorScope.objects.create(user=pit_boss, casino=other, pit=other_pit)
    assert list(tiles(c)) == [77]
    assert c.get("/dashboard/api/alerts/").json()["alerts"] == []  # the mismatch is in the other casino
    assert c.get(f"/dashboard/tables/{demo_casino.tables['finnish-27'].pk}/").status_code == 404
    manager = ChannelManager()
    assert manager.can_read_channel(pit_boss, f"casino-{other.pk}")
    assert not manager.can_read_channel(pit_boss, f"casino-{demo_casino.casino.pk}")
    assert not manager.can_read_channel(pit_boss, f"table-{demo_casino.tables['finnish-27'].pk}")


def test_a_table_channel_is_for_its_dealer_and_pit_bosses(demo_casino, dealer, pit_boss, auditor, outsider):
    table = demo_casino.tables["finnish-27"]
    manager = ChannelManager()
    assert not manager.can_read_channel(dealer, f"table-{table.pk}")  # not holding it
    services.table_open(table=table, actor=dealer)
    assert manager.can_read_channel(dealer, f"table-{table.pk}")
    assert manager.can_read_channel(pit_boss, f"table-{table.pk}")
    assert not manager.can_read_channel(outsider, f"table-{table.pk}")
    assert not manager.can_read_channel(dealer, f"casino-{demo_casino.casino.pk}")
    assert manager.can_read_channel(auditor, f"casino-{demo_casino.casino.pk}")
    assert not manager.can_read_channel(None, f"casino-{demo_casino.casino.pk}")
    assert not manager.can_read_channel(pit_boss, "casino-x")


def test_the_event_streams_refuse_who_may_not_follow_them(client, demo_casino, dealer, outsider):
    assert client.get("/api/events/floor/").status_code == 401
    assert client_for(dealer).get("/api/events/floor/").status_code == 403
    assert client_for(outsider).get("/api/events/floor/").status_code == 403
    table = demo_casino.tables["finnish-27"]
    assert client_for(dealer).get(f"/api/events/tables/{table.pk}/").status_code == 403


def test_rounds_search_and_csv_export(demo_casino, dealer, pit_boss):
    rnd = make_mismatch(demo_casino.tables["finnish-27"], dealer)
    c = client_for(pit_boss)
    today = timezone.localdate().isoformat()
    page = c.get("/dashboard/rounds/", {"table": rnd.table.number, "dealer": "dealer", "state": "mismatch",
                                         "min": "5", "max": "10"}).content.decode()
    assert f"/dashboard/rounds/{rnd.pk}/" in page
    assert "/dashboard/rounds/" in c.get("/dashboard/rounds/", {"state": "closed"}).content.decode()
    assert f"/dashboard/rounds/{rnd.pk}/" not in c.get("/dashboard/rounds/", {"min": "10.01"}).content.decode()
    assert "Table: a table number" in c.get("/dashboard/rounds/", {"table": "x"}).content.decode()
    # Days as the dashboard writes them, typed back; shown back in words; a US date is refused by name.
    from tables.services.audits import gaming_day_of

    words = day_text(gaming_day_of(timezone.now()))  # the search is by gaming day
    found = c.get("/dashboard/rounds/", {"from": words, "to": today}).content.decode()
    assert f"/dashboard/rounds/{rnd.pk}/" in found and f'value="{words}"' in found and 'type="date"' not in found
    refused = c.get("/dashboard/rounds/", {"from": "11/25/2026"}).content.decode()
    assert "From: “11/25/2026” is not a day such as" in refused
    response = c.get("/dashboard/rounds.csv", {"to": today, "from": "2000-01-01"})
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0][:4] == ["round id", "opened", "pit", "table"]
    [row] = [r for r in rows[1:] if r[0] == str(rnd.pk)]
    assert row[6:12] == ["dealer", "paid differs from due", "10.00", "10.00", "5.00", "1"]


def test_hold_over_time_and_live_hold(demo_casino, dealer, pit_boss):
    from tables.services.audits import audit_table_day

    table = demo_casino.tables["finnish-27"]
    set_theory(table, {"main": (0.02, 1.5)})
    b = FloorBuilder(table, dealer)
    b.shuffle(at(0.5))
    b.round(at(1), ["2S"], nets={"main": "-10.00"})
    audit_table_day(table.pk, DAY)
    page = client_for(pit_boss).get("/dashboard/hold/", {"group": "table", "days": "90"})
    # (DAY may be more than 90 days back: the page answers either way)
    assert page.status_code == 200
    out = hold_refresh_today(table.pk)
    assert out is not None and "as_of" in out


def test_the_decisions_history_lists_who_decided_what(demo_casino, dealer, pit_boss):
    rnd = make_mismatch(demo_casino.tables["finnish-27"], dealer)
    c = client_for(pit_boss)
    c.post("/dashboard/alerts/decide/", {"alert": f"round:{rnd.pk}:{rnd.version}", "decision": "approve",
                                         "reason": "short-paid, difference paid"}, content_type="application/json")
    page = c.get("/dashboard/alerts/history/").content.decode()
    assert "short-paid, difference paid" in page and "pitboss" in page


@pytest.mark.parametrize("persona, place", [("dealer", "/tablet/"), ("pit_boss", "/dashboard/"),
                                            ("auditor", "/dashboard/"), ("games_manager", "/admin/")])
def test_the_landing_page_sends_each_role_to_its_place(persona, place, request, db):
    user = request.getfixturevalue(persona)
    response = client_for(user).get("/")
    assert response.status_code == 302 and response.url == place


def test_the_landing_page_asks_a_visitor_to_sign_in(client, db):
    page = client.get("/").content.decode()
    assert "Sign in" in page and "/tablet/login/?next=/" in page


def test_sign_out_returns_to_the_landing_page(pit_boss):
    c = client_for(pit_boss)
    assert 'action="/logout/"' in c.get("/dashboard/").content.decode()
    response = c.post("/logout/")
    assert response.status_code == 302 and response.url == "/"
    assert c.get("/dashboard/").status_code == 302


def test_under_wsgi_the_stream_answers_at_once_so_the_page_polls(pit_boss, demo_casino):
    response = client_for(pit_boss).get("/api/events/floor/")  # the test client is WSGI
    assert response.status_code == 501 and "poll" in response.json()["error"]


def test_a_split_round_page_counts_hands_and_bets_behind_from_one_as_the_tablet_does(demo_casino, dealer, pit_boss):
    ub = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=ub, actor=dealer)
    services.shoe_shuffle(table=ub, actor=dealer, reason="new shoe")
    rnd = services.round_open(table=ub, actor=dealer, seats=[
        {"seat": 1, "wagers": {"main": "10.00"}, "behind": [{"wagers": {"main": "5.00"}}]}])
    for code in ["8S", "6H", "8H", "TC"]:  # seat 1: 8, 8 against the dealer's 6 (hole 10)
        services.round_add_card(round=rnd, code=code, actor=dealer)
    services.round_decide(round=rnd, action="split", actor=dealer)
    services.round_add_card(round=rnd, code="3D", actor=dealer)  # hand 1: 11
    services.round_decide(round=rnd, action="stand", actor=dealer)
    services.round_add_card(round=rnd, code="9C", actor=dealer)  # hand 2: 17
    services.round_decide(round=rnd, action="stand", actor=dealer)
    services.round_add_card(round=rnd, code="9S", actor=dealer)  # the dealer's 16 busts
    services.round_settle(round=rnd, actor=dealer)
    page = client_for(pit_boss).get(f"/dashboard/rounds/{rnd.pk}/").content.decode()
    assert "to seat 1, hand 1" in page and "to seat 1, hand 2" in page and "hand 0" not in page
    assert "seat 1, hand 2: stand" in page
    assert "<td>1, hand 1</td>" in page and "<td>1, hand 2</td>" in page
    assert "<td>1, hand 1, behind 1</td>" in page and "behind 0" not in page
    recall = client_for(pit_boss).get(f"/dashboard/tables/{ub.pk}/").content.decode()
    assert "seat 1, hand 1 main: win" in recall and "seat 1, hand 2 main: win" in recall  # the split hands told apart


def test_a_tables_recall_names_its_bets_in_words(demo_casino, dealer, pit_boss):
    ub = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=ub, actor=dealer)
    services.shoe_shuffle(table=ub, actor=dealer, reason="new shoe")
    rnd = services.round_open(table=ub, actor=dealer, seats=[{"seat": 1, "wagers": {"main": "10.00", "perfect-pairs": "5.00"}}])
    for code in ["8S", "6H", "8H", "TC"]:  # a pair of eights: the Perfect Pairs bet wins
        services.round_add_card(round=rnd, code=code, actor=dealer)
    services.round_decide(round=rnd, action="stand", actor=dealer)
    services.round_add_card(round=rnd, code="9S", actor=dealer)  # the dealer's 16 busts
    services.round_settle(round=rnd, actor=dealer)
    page = client_for(pit_boss).get(f"/dashboard/tables/{ub.pk}/").content.decode()
    assert "seat 1 Perfect Pairs: win" in page and "perfect-pairs" not in page
