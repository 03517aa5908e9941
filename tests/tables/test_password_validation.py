"""Password rules: Django's standard validators (similarity, length, common passwords, all digits)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError

from tables.management.commands.load_demo import DEMO_USERS


@pytest.mark.parametrize(("password", "why"), [
    ("12345678", "too short"),
    ("123456789012", "entirely numeric"),
    ("password1234", "too common"),
    ("dealer.smith1", "too similar"),
    ("short-pw-1", "too short"),
])  # fmt: skip
def test_a_weak_password_is_refused(password: str, why: str) -> None:
    user = get_user_model()(username="dealer.smith", first_name="Dealer")
    with pytest.raises(ValidationError) as err:
        validate_password(password, user=user)
    assert any(why in m for m in err.value.messages), err.value.messages


@pytest.mark.parametrize(("username", "password"), [(u, p) for u, p, _, _ in DEMO_USERS])
def test_the_demo_passwords_pass_the_validators(username: str, password: str) -> None:
    validate_password(password, user=get_user_model()(username=username))


@pytest.mark.django_db
def test_load_demo_sets_the_readme_passwords(demo_casino) -> None:
    users = get_user_model().objects.in_bulk([u for u, _, _, _ in DEMO_USERS], field_name="username")
    for username, password, _, _ in DEMO_USERS:
        assert users[username].check_password(password), username
