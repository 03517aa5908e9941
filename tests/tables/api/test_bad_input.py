"""Bad input is a clear 400 (or 413) naming what was wrong, never a 500, and never reaches stored data.

Each case was found by a probe of the running system (issue: security and reliability hardening)."""

from __future__ import annotations

import json

import pytest

from tables.models import AuditEvent, Round
from tests.tables.api.test_round_commands import ok, open_round, play_split_round

pytestmark = pytest.mark.django_db

ONE_SEAT = {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]}


def post_raw(api, url: str, body: str):
    return api.generic("POST", url, body.encode("utf-8", "surrogatepass"), content_type="application/json")


def test_json_nested_a_thousand_levels_is_a_400(bj_table, dealer_api):
    body = "[" * 5000 + "]" * 5000
    response = post_raw(dealer_api, f"/api/tables/{bj_table.pk}/rounds/", body)
    assert response.status_code == 400 and "nests too deeply" in response.json()["error"]
    verify = post_raw(dealer_api, "/api/rounds/verify/", '{"game": ' + body + "}")
    assert verify.status_code == 400


@pytest.mark.parametrize("extra", [
    {"note": "a\u0000b"},
    {"junk": "x" * 1_000_000},
    {"note": "fine"},
])  # fmt: skip
def test_an_unknown_key_of_a_seat_is_refused_and_stored_nowhere(bj_table, dealer_api, extra):
    seat = {"seat": 1, "wagers": {"main": "10.00"}, **extra}
    response = dealer_api.post(f"/api/tables/{bj_table.pk}/rounds/", {"seats": [seat]}, format="json")
    assert response.status_code == 400, response.content[:200]
    assert response.json()["field"].startswith("seats")
    assert not Round.objects.exists() and not AuditEvent.objects.filter(action="round.open").exists()


def test_a_lone_surrogate_is_a_400(bj_table, dealer_api):
    body = json.dumps({"seats": [{"seat": 1, "wagers": {"main": "10.00"}, "player": "\ud800"}]})
    response = post_raw(dealer_api, f"/api/tables/{bj_table.pk}/rounds/", body)
    assert response.status_code == 400
    assert not Round.objects.exists()


@pytest.mark.parametrize("body", [
    '{"seats": [{"seat": 1, "wagers": {"\\udc00": "10.00"}}]}',  # a bet kind (found by bench/probe.py: was a 500)
    '{"seats": [{"seat": 1, "wagers": {"main": "10.00"}, "\\ud800": 1}]}',  # an unknown key of a seat
    '{"\\udfff": 1}',  # an unknown key of the body
])  # fmt: skip
def test_a_lone_surrogate_in_a_key_is_a_400_not_a_500(bj_table, dealer_api, body):
    response = post_raw(dealer_api, f"/api/tables/{bj_table.pk}/rounds/", body)
    assert response.status_code == 400, response.content[:200]
    assert "\ufffd" in json.dumps(response.json(), ensure_ascii=False)  # echoed, with the surrogate replaced
    assert not Round.objects.exists()


@pytest.mark.parametrize("kind", ["\u0000", "main\u0000", "x" * 30, "MAIN "])
def test_a_bet_kind_that_is_no_name_is_refused(bj_table, dealer_api, kind):
    response = dealer_api.post(f"/api/tables/{bj_table.pk}/rounds/",
                               {"seats": [{"seat": 1, "wagers": {"main": "10.00", kind: "5.00"}}]}, format="json")
    assert response.status_code == 400 and not Round.objects.exists()


@pytest.mark.parametrize("amount", ["1_000", "١٠", "𝟏𝟎", "1e2", "10,00", " ", "NaN"])
def test_an_amount_in_anything_but_ascii_digits_is_refused(bj_table, dealer_api, amount):
    response = dealer_api.post(f"/api/tables/{bj_table.pk}/rounds/",
                               {"seats": [{"seat": 1, "wagers": {"main": amount}}]}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "seats[0].wagers.main", response.json()


@pytest.mark.parametrize("seat", ["²", "١", "𝟏", "01x", "-1", "100"])
def test_a_paid_seat_key_must_be_a_seat_number_in_ascii_digits(bj_table, dealer_api, seat):
    rid = play_split_round(dealer_api, bj_table)["id"]
    ok(dealer_api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    response = dealer_api.post(f"/api/rounds/{rid}/paid/", {"paid": {seat: {"main": "20.00"}}}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["field"].startswith("paid")
    assert Round.objects.get(pk=rid).state == "settled"


def test_a_body_of_10_mb_is_a_json_413_naming_the_limit(bj_table, dealer_api):
    body = json.dumps({"seats": [{"seat": 1, "wagers": {"main": "10.00"}}], "pad": "x" * 10_000_000})
    response = post_raw(dealer_api, f"/api/tables/{bj_table.pk}/rounds/", body)
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json" and "KB" in response.json()["error"]


# Limits for every bet kind (a 5-1,000 table took a bet behind of 99,999.00 or 0.01, and 10,000 bets behind).


@pytest.mark.parametrize("seat, field", [
    ({"seat": 1, "wagers": {"main": "10.00"}, "behind": [{"wagers": {"main": "99999.00"}}]}, "seats[0].behind[0].wagers.main"),
    ({"seat": 1, "wagers": {"main": "10.00"}, "behind": [{"wagers": {"main": "0.01"}}]}, "seats[0].behind[0].wagers.main"),
    ({"seat": 1, "wagers": {"main": "10.00", "perfect-pairs": "99999.00"}}, "seats[0].wagers.perfect-pairs"),
    ({"seat": 1, "wagers": {"main": "10.00", "21+3": "0.01"}}, "seats[0].wagers.21+3"),
])  # fmt: skip
def test_every_bet_kind_is_held_to_the_table_limits(bj_table, dealer_api, seat, field):
    response = dealer_api.post(f"/api/tables/{bj_table.pk}/rounds/", {"seats": [seat]}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == field and "between" in response.json()["error"]


def test_side_bet_and_behind_limits_are_set_per_table(bj_table, dealer_api):
    from decimal import Decimal

    bj_table.side_bet_min, bj_table.side_bet_max = Decimal("1.00"), Decimal("25.00")
    bj_table.save()
    seat = {"seat": 1, "wagers": {"main": "10.00", "perfect-pairs": "30.00"}}
    response = dealer_api.post(f"/api/tables/{bj_table.pk}/rounds/", {"seats": [seat]}, format="json")
    assert response.status_code == 400 and "1.00 and 25.00" in response.json()["error"]
    seat["wagers"]["perfect-pairs"] = "1.00"
    assert dealer_api.post(f"/api/tables/{bj_table.pk}/rounds/", {"seats": [seat]}, format="json").status_code == 201


def test_bets_behind_a_seat_are_capped(bj_table, dealer_api):
    behind = [{"wagers": {"main": "10.00"}}] * (bj_table.max_bets_behind + 1)
    response = dealer_api.post(f"/api/tables/{bj_table.pk}/rounds/",
                               {"seats": [{"seat": 1, "wagers": {"main": "10.00"}, "behind": behind}]}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "seats[0].behind"
    many = [{"wagers": {"main": "10.00"}}] * 10_000
    response = dealer_api.post(f"/api/tables/{bj_table.pk}/rounds/",
                               {"seats": [{"seat": 1, "wagers": {"main": "10.00"}, "behind": many}]}, format="json")
    assert response.status_code == 400


def test_a_round_within_every_limit_still_opens(bj_table, dealer_api):
    assert open_round(dealer_api, bj_table, ONE_SEAT)["state"] == "in_play"


@pytest.mark.parametrize("seat", ["١", "𝟏", "1\u00a0"])
def test_a_seat_number_in_other_scripts_is_refused(bj_table, dealer_api, seat):
    response = dealer_api.post(f"/api/tables/{bj_table.pk}/rounds/",
                               {"seats": [{"seat": seat, "wagers": {"main": "10.00"}}]}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "seats[0].seat"


def test_an_amount_with_a_no_break_space_is_refused(bj_table, dealer_api):
    response = dealer_api.post(f"/api/tables/{bj_table.pk}/rounds/",
                               {"seats": [{"seat": 1, "wagers": {"main": "10\u00a0"}}]}, format="json")
    assert response.status_code == 400
    verify = dealer_api.post("/api/rounds/verify/", {
        "game": "finnish-27", "table_minimum": "10.00", "dealer": {"cards": ["9C", "9D"]},
        "seats": [{"seat": 1, "wagers": {"main": "10\u00a0"}, "hands": [{"cards": ["9S", "9H", "9D"]}]}]},
        format="json")  # fmt: skip
    assert verify.status_code == 400
