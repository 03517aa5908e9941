"""API tokens (django-rest-knox): one per sign-in, expiring, revocable, revoked by a password change."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from tables.models import AuditEvent
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/auth/token/"


def _sign_in(user: Any) -> dict[str, Any]:
    response = APIClient().post(TOKEN_URL, {"username": user.username, "password": PASSWORD}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def _as(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_each_sign_in_makes_a_new_token_and_both_work(dealer) -> None:
    first, second = _sign_in(dealer), _sign_in(dealer)
    assert first["token"] != second["token"] and first["username"] == "dealer"
    assert _as(first["token"]).get("/api/tables/").status_code == 200
    assert _as(second["token"]).get("/api/tables/").status_code == 200
    assert AuditEvent.objects.filter(action="auth.token.create", actor=dealer).count() == 2


def test_a_token_lasts_a_shift_then_stops_working(dealer) -> None:
    answer = _sign_in(dealer)
    token = AuthToken.objects.get(user=dealer)
    assert abs(token.expiry - (timezone.now() + timedelta(hours=12))) < timedelta(minutes=1)
    assert answer["expiry"] is not None
    AuthToken.objects.filter(pk=token.pk).update(expiry=timezone.now() - timedelta(seconds=1))
    response = _as(answer["token"]).get("/api/tables/")
    assert response.status_code == 401 and "error" in response.json()


def test_the_ttl_follows_the_setting(dealer, settings) -> None:
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": timedelta(hours=8)}
    _sign_in(dealer)
    expiry = AuthToken.objects.get(user=dealer).expiry
    assert abs(expiry - (timezone.now() + timedelta(hours=8))) < timedelta(minutes=1)


def test_logout_revokes_the_token_of_this_device_only(dealer) -> None:
    here, there = _sign_in(dealer)["token"], _sign_in(dealer)["token"]
    assert _as(here).post("/api/auth/logout/", {}, format="json").status_code == 204
    assert _as(here).get("/api/tables/").status_code == 401
    assert _as(there).get("/api/tables/").status_code == 200
    assert AuditEvent.objects.filter(action="auth.token.revoke", actor=dealer).exists()


def test_logout_all_revokes_every_token_of_the_user(dealer, pit_boss) -> None:
    here, there = _sign_in(dealer)["token"], _sign_in(dealer)["token"]
    boss = _sign_in(pit_boss)["token"]
    assert _as(here).post("/api/auth/logout-all/", {}, format="json").status_code == 204
    assert _as(here).get("/api/tables/").status_code == 401
    assert _as(there).get("/api/tables/").status_code == 401
    assert _as(boss).get("/api/tables/").status_code == 200


def test_a_password_change_revokes_every_token(dealer) -> None:
    token = _sign_in(dealer)["token"]
    dealer.set_password("a-new-shift-password-7")
    dealer.save()
    assert _as(token).get("/api/tables/").status_code == 401
    assert not AuthToken.objects.filter(user=dealer).exists()
    event = AuditEvent.objects.get(action="auth.token.revoke_all")
    assert event.payload["reason"] == "password changed" and event.payload["count"] == 1


def test_saving_a_user_without_a_new_password_keeps_the_tokens(dealer) -> None:
    token = _sign_in(dealer)["token"]
    dealer.refresh_from_db()
    dealer.first_name = "Dee"
    dealer.save()
    assert _as(token).get("/api/tables/").status_code == 200


def test_a_wrong_token_is_a_401_in_the_api_format() -> None:
    response = _as("0" * 64).get("/api/tables/")
    assert response.status_code == 401 and "error" in response.json()


def test_the_browser_pages_still_use_the_session(dealer) -> None:
    client = Client()
    client.force_login(dealer)
    assert client.get("/api/tables/").status_code == 200
    assert client.get("/tablet/").status_code == 200
