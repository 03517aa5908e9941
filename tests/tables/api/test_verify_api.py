"""``POST /api/rounds/verify/``: the verify contract of shared/DESIGN.md over HTTP; errors are 400s naming the field."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

URL = "/api/rounds/verify/"

FINNISH_999 = {
    "game": "finnish-27",
    "table_minimum": "10.00",
    "dealer": {"cards": ["9C", "9D"]},
    "seats": [
        {
            "seat": 1,
            "wagers": {"main": "10.00"},
            "hands": [{"cards": ["9S", "9H", "9D"]}],
            "paid": {"main": "10.00", "bonus": "9990.00"},
        }
    ],
}


@pytest.fixture
def api(django_user_model) -> APIClient:
    user = django_user_model.objects.create_user("verifier", password="pw-verifier-1")
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_it_refuses_an_anonymous_request():
    response = APIClient().post(URL, FINNISH_999, format="json")
    assert response.status_code == 401
    assert "error" in response.json()


def test_it_accepts_an_api_token(django_user_model):
    from knox.models import AuthToken

    user = django_user_model.objects.create_user("tablet", password="pw-tablet-1")
    _, token = AuthToken.objects.create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = client.post(URL, {"game": "no-such-game"}, format="json")
    assert response.status_code == 400  # authenticated; the body was the problem


def test_token_endpoint_gives_the_users_token(django_user_model):
    django_user_model.objects.create_user("tablet", password="pw-tablet-1")
    response = APIClient().post("/api/auth/token/", {"username": "tablet", "password": "pw-tablet-1"}, format="json")
    assert response.status_code == 200
    assert len(response.json()["token"]) == 64


def test_token_endpoint_refuses_a_wrong_password(django_user_model):
    django_user_model.objects.create_user("tablet", password="pw-tablet-1")
    response = APIClient().post("/api/auth/token/", {"username": "tablet", "password": "nope"}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "password"


def test_an_unknown_game_is_a_400_naming_game(api):
    response = api.post(URL, {"game": "baccarat", "table_minimum": "10.00"}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "game"


def test_malformed_json_is_a_400(api):
    response = api.post(URL, data=b'{"game": "finnish-27", ', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "(body)"


def test_a_json_array_body_is_a_400(api):
    response = api.post(URL, data=b"[1, 2]", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "(body)"


def test_a_form_body_is_refused_as_unsupported(api):
    response = api.post(URL, data={"game": "finnish-27"}, format="multipart")
    assert response.status_code == 415


def test_the_finnish_27_example_of_the_design_verifies_the_999_bonus(api):
    response = api.post(URL, FINNISH_999, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["violations"] == []
    assert body["discrepancies"] == []
    (seat,) = body["seats"]
    assert seat["total_net"] == "10000.00"


def test_an_underpaid_bonus_is_a_discrepancy(api):
    short = {**FINNISH_999, "seats": [{**FINNISH_999["seats"][0], "paid": {"main": "10.00", "bonus": "999.00"}}]}
    response = api.post(URL, short, format="json")
    assert response.status_code == 200
    (d,) = response.json()["discrepancies"]
    assert d["bet"] == "bonus" and d["due"] == "9990.00" and d["paid"] == "999.00"


@pytest.mark.parametrize(
    ("patch", "field_part"),
    [
        ({"table_minimum": "ten"}, "table_minimum"),
        ({"dealer": {"cards": ["9C", "XX"]}}, "dealer"),
        ({"seats": [{"seat": 1, "wagers": {"main": "-5"}, "hands": [{"cards": ["9S", "9H"]}]}]}, "wagers"),
        ({"seats": [{"seat": 1, "wagers": {"main": "10.00"}, "hands": [{"cards": "nonsense 9S"}]}]}, "seats"),
    ],
)
def test_bad_fields_are_400s_naming_the_field(api, patch, field_part):
    response = api.post(URL, {**FINNISH_999, **patch}, format="json")
    assert response.status_code == 400, response.content
    assert field_part in response.json()["field"]
