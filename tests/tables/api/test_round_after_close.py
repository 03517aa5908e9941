"""What the tablet reads around the end of a round: the round just closed stays the table's to show until
the next opens; a doubled hand's stake in words; when a round opened, in the dashboard's words."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from tables.days import moment_text
from tables.models import Round
from tests.tables.api.test_round_commands import DUE, card, decide, ok, open_round, play_split_round

pytestmark = pytest.mark.django_db

ONE_SEAT = {"seats": [{"seat": 1, "wagers": {"main": "10.00"},
                       "behind": [{"wagers": {"main": "5.00"}, "double_along": True, "follow_split": "both"}]}]}  # fmt: skip


def test_the_round_just_paid_stays_the_tables_last_round_until_the_next_one_opens(bj_table, dealer_api):
    rid = play_split_round(dealer_api, bj_table)["id"]
    table = ok(dealer_api.get(f"/api/tables/{bj_table.pk}/"))
    assert table["round"] == rid and table["last_round"] is None  # open: the round, not the last one
    ok(dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    ok(dealer_api.post(f"/api/rounds/{rid}/paid/", {"paid": DUE}, format="json"))
    table = ok(dealer_api.get(f"/api/tables/{bj_table.pk}/"))
    assert table["round"] is None and table["last_round"] == rid  # a reloaded tablet shows it
    assert [t["last_round"] for t in ok(dealer_api.get("/api/tables/")) if t["id"] == bj_table.pk] == [rid]
    nxt = open_round(dealer_api, bj_table, ONE_SEAT)["id"]
    table = ok(dealer_api.get(f"/api/tables/{bj_table.pk}/"))
    assert table["round"] == nxt and table["last_round"] is None
    ok(dealer_api.post(f"/api/rounds/{nxt}/cancel/", {"reason": "misdeal"}, format="json"))
    assert ok(dealer_api.get(f"/api/tables/{bj_table.pk}/"))["last_round"] == nxt  # a cancelled round too


def test_a_doubled_hand_shows_the_stake_at_risk_from_the_engine(bj_table, dealer_api):
    rid = open_round(dealer_api, bj_table, ONE_SEAT)["id"]
    for code in ["5S", "9C", "6H", "TD"]:  # seat 1: 5-6 = 11 against the dealer's 9
        ok(card(dealer_api, rid, code))
    body = ok(decide(dealer_api, rid, "double"))  # the card comes after
    seat = body["view"]["seats"][0]
    assert seat["bets"] == "main bet 10.00, doubled to 20.00"
    assert seat["hands"][0]["stake"] == "20.00"
    assert seat["behind"] == ["behind 5.00, doubled along to 10.00, follows both hands"]
    body = ok(card(dealer_api, rid, "9D"))
    assert body["view"]["seats"][0]["bets"] == "main bet 10.00, doubled to 20.00"


def test_a_split_seat_shows_the_main_bet_on_each_hand_and_which_hand_doubled(bj_table, dealer_api):
    setup = {"seats": [{"seat": 1, "wagers": {"main": "10.00", "perfect-pairs": "5.00"}}]}
    rid = open_round(dealer_api, bj_table, setup)["id"]
    for code in ["8S", "9C", "8H", "TD"]:
        ok(card(dealer_api, rid, code))
    ok(decide(dealer_api, rid, "split"))
    ok(card(dealer_api, rid, "3D"))
    body = ok(decide(dealer_api, rid, "double", card="TC"))
    seat = body["view"]["seats"][0]
    assert seat["bets"] == "main bet 10.00 on each of 2 hands, hand 1 doubled to 20.00 · Perfect Pairs bet 5.00"
    assert [h["stake"] for h in seat["hands"]] == ["20.00", "10.00"]


def test_a_round_says_when_it_opened_in_the_dashboards_words_on_the_casinos_clock(bj_table, dealer_api, settings):
    settings.TIME_ZONE = "Europe/Helsinki"
    rid = open_round(dealer_api, bj_table, ONE_SEAT)["id"]
    Round.objects.filter(pk=rid).update(opened_at=datetime(2026, 11, 25, 20, 0, tzinfo=ZoneInfo("UTC")))
    assert ok(dealer_api.get(f"/api/rounds/{rid}/"))["opened_words"] == "Wed 25 Nov 22:00"
    assert ok(dealer_api.get(f"/api/tables/{bj_table.pk}/recall/"))[0]["opened_words"] == "Wed 25 Nov 22:00"


def test_moment_text_has_no_leading_zero_on_the_day():
    assert moment_text(datetime(2026, 11, 5, 9, 7)) == "Thu 5 Nov 09:07"


def test_an_older_round_paid_late_is_the_tables_last_round_not_the_latest_by_number(bj_table, dealer_api):
    """An older round left "paid differs from due" is paid after later rounds closed (the demo's table 1):
    the round just closed is the one the tablet shows, not the newest round by number."""
    later = play_split_round(dealer_api, bj_table)["id"]
    ok(dealer_api.post(f"/api/rounds/{later}/settle/", {}, format="json"))
    ok(dealer_api.post(f"/api/rounds/{later}/paid/", {"paid": DUE}, format="json"))
    older = play_split_round(dealer_api, bj_table)["id"]
    ok(dealer_api.post(f"/api/rounds/{older}/settle/", {}, format="json"))
    over = {**DUE, "5": {"main": "15.00"}}
    assert ok(dealer_api.post(f"/api/rounds/{older}/paid/", {"paid": over}, format="json"))["state"] == "mismatch"
    # Number them as the demo has them: the open round older than the one that closed (a closed round is
    # append-only; the open one is renumbered).
    Round.objects.filter(pk=older).update(number=Round.objects.get(pk=later).number - 1)
    table = ok(dealer_api.get(f"/api/tables/{bj_table.pk}/"))
    assert table["round"] == older and table["last_round"] is None
    assert ok(dealer_api.post(f"/api/rounds/{older}/paid/", {"paid": DUE}, format="json"))["state"] == "closed"
    table = ok(dealer_api.get(f"/api/tables/{bj_table.pk}/"))
    assert table["round"] is None and table["last_round"] == older
