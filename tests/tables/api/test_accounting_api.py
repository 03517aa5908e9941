"""The accounting API: a shift's slips over HTTP, permission before input, strict input naming the field."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from tables.access import AUDITOR, CAGE_CASHIER, COUNT_TEAM
from tests.factories import UserFactory
from tests.tables.api.conftest import client_for
from tests.tables.tasks.builders import set_theory

pytestmark = pytest.mark.django_db


def _api(name, role):
    u = UserFactory(username=name)
    u.groups.add(Group.objects.get(name=role))
    return client_for(u)


@pytest.fixture
def cage_api(db):
    return _api("cage", CAGE_CASHIER)


@pytest.fixture
def count_api(db):
    return _api("count", COUNT_TEAM)


def test_a_shift_of_slips_over_the_api(bj_table, dealer_api, pit_api, cage_api, count_api):
    t = bj_table.pk
    r = dealer_api.post(f"/api/tables/{t}/slips/", {"kind": "opener", "chips": {"100": 10, "5": 20}}, format="json")
    assert r.status_code == 201, r.json()
    opener = r.json()
    assert opener["total"] == "1100.00" and opener["state"] == "awaiting dealer" and opener["number"] == 1
    assert dealer_api.post(f"/api/slips/{opener['id']}/sign/", {"step": "dealer"}, format="json").status_code == 200
    r = pit_api.post(f"/api/slips/{opener['id']}/sign/", {"step": "supervisor"}, format="json")
    assert r.json()["state"] == "complete"

    fill = pit_api.post(f"/api/tables/{t}/slips/", {"kind": "fill", "chips": {"25": 20}}, format="json").json()
    assert fill["state"] == "awaiting issued"
    assert cage_api.post(f"/api/slips/{fill['id']}/sign/", {"step": "issued"}, format="json").status_code == 200
    r = dealer_api.post(f"/api/slips/{fill['id']}/sign/", {"step": "received"}, format="json")
    assert r.json()["state"] == "complete"
    r = cage_api.post(f"/api/slips/{fill['id']}/void/", {"reason": "double entry"}, format="json")
    assert r.json()["state"] == "void" and r.json()["void"]["reason"] == "double entry"

    r = count_api.post(f"/api/tables/{t}/drop/", {"amount": "640.00"}, format="json")
    assert r.status_code == 201 and r.json()["amount"] == "640.00"
    rows = pit_api.get("/api/accounting/reconciliation/").json()
    assert {row["shift"] for row in rows} == {"day", "swing", "graveyard"}
    listed = dealer_api.get(f"/api/tables/{t}/slips/").json()  # the table's dealer reads its slips
    assert [s["kind"] for s in listed] == ["fill", "opener"]


def test_rights_come_before_the_input(bj_table, dealer_api, cage_api, count_api, outsider):
    t = bj_table.pk
    outsider_api = client_for(outsider)
    for client, path in ((outsider_api, f"/api/tables/{t}/slips/"), (cage_api, f"/api/tables/{t}/slips/"),
                         (dealer_api, f"/api/tables/{t}/drop/"), (outsider_api, "/api/slips/1/sign/")):
        r = client.post(path, {"junk": 1}, format="json")
        assert r.status_code in (403, 404), (path, r.json())
    assert outsider_api.get("/api/accounting/reconciliation/").status_code == 403
    assert dealer_api.get("/api/ratings/").status_code == 403
    auditor_api = _api("aud", AUDITOR)
    assert auditor_api.get("/api/accounting/reconciliation/").status_code == 200
    assert auditor_api.post(f"/api/tables/{t}/slips/", {"kind": "fill", "chips": {}}, format="json").status_code == 403


@pytest.mark.parametrize(("body", "field"), [
    ({"kind": "opener", "chips": {"3": 1}}, "chips.3"),
    ({"kind": "opener", "chips": {"25": "4"}}, "chips.25"),
    ({"kind": "tip", "chips": {"25": 4}}, "kind"),
    ({"kind": "opener", "chips": {"25": 4}, "shift": "night"}, "shift"),
    ({"kind": "opener", "chips": {"25": 4}, "extra": 1}, "extra"),
    ({"kind": "opener"}, "chips"),
])
def test_bad_slip_input_is_a_400_naming_the_field(bj_table, dealer_api, body, field):
    r = dealer_api.post(f"/api/tables/{bj_table.pk}/slips/", body, format="json")
    assert r.status_code == 400 and r.json()["field"] == field, r.json()


def test_a_second_opener_is_a_409_and_a_bad_drop_a_400(bj_table, dealer_api, count_api):
    t = bj_table.pk
    body = {"kind": "opener", "chips": {"25": 4}}
    assert dealer_api.post(f"/api/tables/{t}/slips/", body, format="json").status_code == 201
    assert dealer_api.post(f"/api/tables/{t}/slips/", body, format="json").status_code == 409
    r = count_api.post(f"/api/tables/{t}/drop/", {"amount": "-1"}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "amount"


def test_a_seated_player_is_rated_over_the_api(bj_table, dealer_api, pit_api):
    set_theory(bj_table, {"main": (0.005, 1.3)})
    r = dealer_api.post(f"/api/tables/{bj_table.pk}/players/", {"seat": 2, "card_number": "C-77"}, format="json")
    assert r.status_code == 201, r.json()
    slip = r.json()
    assert slip["player"]["card_number"] == "C-77" and slip["state"] == "open" and slip["theo"] == "0.00"
    assert dealer_api.post(f"/api/ratings/{slip['id']}/pause/", format="json").json()["state"] == "paused"
    assert dealer_api.post(f"/api/ratings/{slip['id']}/pause/", format="json").status_code == 409
    assert dealer_api.post(f"/api/ratings/{slip['id']}/resume/", format="json").json()["state"] == "open"
    assert dealer_api.post(f"/api/ratings/{slip['id']}/close/", format="json").json()["state"] == "closed"
    assert [x["id"] for x in pit_api.get("/api/ratings/").json()] == [slip["id"]]
    r = dealer_api.post(f"/api/tables/{bj_table.pk}/players/", {"seat": 2}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "card_number"
