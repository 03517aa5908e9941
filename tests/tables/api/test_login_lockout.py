"""Sign-in lockout (django-axes) on the API token, the tablet and the back-office logins.

Five wrong passwords for a user name from one address lock that pair out for the cool-off; the
right password is then refused too.  Attempts are stored, shown in the back office and audited.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.test import Client
from rest_framework.test import APIClient

from tables.models import AuditEvent
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

HERE, THERE = "10.0.0.1", "10.0.0.2"


def _token(username: str, password: str, ip: str = HERE) -> Any:
    return APIClient().post("/api/auth/token/", {"username": username, "password": password}, format="json",
                            REMOTE_ADDR=ip)  # fmt: skip


def _fail(n: int, username: str, ip: str = HERE) -> None:
    for _ in range(n):
        assert _token(username, "wrong-password", ip).status_code == 400


def _lock(username: str, ip: str = HERE) -> None:
    """Four wrong passwords are refused as such; the fifth locks the user name out at this address."""
    _fail(4, username, ip)
    assert _token(username, "wrong-password", ip).status_code == 429


def test_the_token_endpoint_locks_out_after_the_failure_limit_with_a_json_429(lockout, dealer) -> None:
    assert lockout.AXES_FAILURE_LIMIT == 5
    _fail(4, "dealer")
    assert _token("dealer", PASSWORD).status_code == 200  # under the limit; success clears the count
    _lock("dealer")
    response = _token("dealer", PASSWORD)
    assert response.status_code == 429
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == "locked_out" and "too many failed sign-ins" in body["error"]
    assert int(response["Retry-After"]) == 15 * 60


def test_150_wrong_passwords_do_not_let_the_right_one_in(lockout, dealer) -> None:
    for _ in range(150):
        _token("dealer", "wrong-password")
    assert _token("dealer", PASSWORD).status_code == 429


def test_the_lockout_is_per_user_name_and_address(lockout, dealer, pit_boss) -> None:
    _lock("dealer")
    assert _token("dealer", PASSWORD).status_code == 429
    assert _token("dealer", PASSWORD, ip=THERE).status_code == 200
    assert _token("pitboss", PASSWORD).status_code == 200


def test_the_lockout_ends_after_the_cool_off(lockout, dealer) -> None:
    _lock("dealer")
    assert _token("dealer", PASSWORD).status_code == 429
    for attempt in AccessAttempt.objects.all():
        attempt.attempt_time -= timedelta(minutes=lockout.AXES_COOLOFF_MINUTES + 1)
        attempt.save()
    assert _token("dealer", PASSWORD).status_code == 200


@pytest.mark.parametrize("url", ["/tablet/login/", "/admin/login/"])
def test_the_browser_logins_lock_out_too(lockout, pit_boss, url) -> None:
    client = Client(REMOTE_ADDR=HERE)
    for _ in range(4):
        assert client.post(url, {"username": "pitboss", "password": "wrong-password"}).status_code == 200
    assert client.post(url, {"username": "pitboss", "password": "wrong-password"}).status_code == 429
    response = client.post(url, {"username": "pitboss", "password": PASSWORD})
    assert response.status_code == 429
    assert b"too many failed sign-ins" in response.content.lower()
    assert "_auth_user_id" not in client.session


def test_the_browser_login_works_under_the_limit(lockout, pit_boss) -> None:
    client = Client(REMOTE_ADDR=HERE)
    client.post("/tablet/login/", {"username": "pitboss", "password": "wrong-password"})
    assert client.post("/tablet/login/", {"username": "pitboss", "password": PASSWORD}).status_code == 302
    assert client.session["_auth_user_id"] == str(pit_boss.pk)


def test_failed_attempts_are_stored_audited_and_shown_to_the_auditor(lockout, dealer, auditor) -> None:
    _lock("dealer")
    attempt = AccessAttempt.objects.get(username="dealer")
    assert (attempt.ip_address, attempt.failures_since_start) == (HERE, 5)
    assert AccessFailureLog.objects.filter(username="dealer").count() == 5
    event = AuditEvent.objects.get(action="auth.locked_out")
    assert event.payload == {"username": "dealer", "ip_address": HERE, "path": "/api/auth/token/"}
    client = Client()
    client.force_login(auditor)
    page = client.get("/admin/axes/accessattempt/")
    assert page.status_code == 200 and b"dealer" in page.content
    assert client.get("/admin/axes/accessfailurelog/").status_code == 200
    assert client.post(f"/admin/axes/accessattempt/{attempt.pk}/delete/", {"post": "yes"}).status_code == 403


def test_tests_without_the_lockout_fixture_never_lock_out(dealer) -> None:
    _fail(20, "dealer")
    assert _token("dealer", PASSWORD).status_code == 200


@pytest.mark.parametrize("persona", ["auditor", "pit_boss"])
def test_the_read_only_roles_are_not_offered_the_clean_up_action_and_posting_it_deletes_nothing(
    lockout, dealer, persona, request
) -> None:
    # The walk-through: the auditor saw axes' "Clean up expired attempts" and running it answered 500.
    _lock("dealer")
    client = Client()
    client.force_login(request.getfixturevalue(persona))  # (a sign-in clears expired attempts: age it after)
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(days=1))
    page = client.get("/admin/axes/accessattempt/")
    assert page.status_code == 200 and b"cleanup_expired_attempts" not in page.content
    attempt = AccessAttempt.objects.get()
    answer = client.post("/admin/axes/accessattempt/",
                         {"action": "cleanup_expired_attempts", "_selected_action": [attempt.pk], "index": 0})
    assert answer.status_code in (200, 302)  # "No action selected", never a 500
    assert AccessAttempt.objects.filter(pk=attempt.pk).exists()


def test_a_superuser_cleans_up_the_expired_attempts_only(lockout, dealer, pit_boss) -> None:
    _lock("dealer")
    _lock("pitboss")
    admin = type(dealer).objects.create_superuser("root", "root@example.org", PASSWORD)
    client = Client()
    client.force_login(admin)  # (a sign-in clears expired attempts: age one after)
    AccessAttempt.objects.filter(username="dealer").update(attempt_time=AccessAttempt.objects.get(
        username="dealer").attempt_time - timedelta(days=1))
    page = client.get("/admin/axes/accessattempt/")
    assert b"cleanup_expired_attempts" in page.content
    answer = client.post("/admin/axes/accessattempt/", {"action": "cleanup_expired_attempts",
                                                        "_selected_action": [a.pk for a in AccessAttempt.objects.all()], "index": 0},
                         follow=True)  # fmt: skip
    assert answer.status_code == 200 and b"Cleaned up 1 expired access attempts" in answer.content
    assert list(AccessAttempt.objects.values_list("username", flat=True)) == ["pitboss"]
