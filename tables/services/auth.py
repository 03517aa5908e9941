"""Sign-in writes: API tokens (django-rest-knox) made, revoked and dropped on a password change; lockouts audited.

A token is per device and per sign-in (each ``POST /api/auth/token/`` makes a new one), expires after
``API_TOKEN_TTL_HOURS`` (a dealer's shift by default) and is stored as a digest only.  Logging out
revokes the token used; "log out everywhere" and a password change revoke them all, so a lost tablet
or a leaked password stops working at once.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from knox.models import AuthToken
from knox.settings import knox_settings

from tables.services.common import audit


def token_create(*, user: Any, request: Any = None) -> tuple[str, datetime | None]:
    """A new API token for ``user`` (already authenticated); returns the token and its expiry."""
    with transaction.atomic():
        instance, token = AuthToken.objects.create(user=user, expiry=knox_settings.TOKEN_TTL)
        audit(actor=user, action="auth.token.create", payload={
            "token": instance.token_key, "expiry": instance.expiry.isoformat() if instance.expiry else None,
        })  # fmt: skip
    # Django's sign-in signal: updates last_login and lets django-axes record the success.
    user_logged_in.send(sender=type(user), request=request, user=user)
    return token, instance.expiry


def token_revoke(*, token: AuthToken, actor: Any) -> None:
    """Revoke one token (the one the request came with: logout on this device)."""
    with transaction.atomic():
        audit(actor=actor, action="auth.token.revoke", payload={"token": token.token_key})
        token.delete()


def token_revoke_all(*, user: Any, actor: Any, reason: str) -> int:
    """Revoke every token of ``user`` (log out everywhere, password changed); returns how many."""
    with transaction.atomic():
        n, _ = AuthToken.objects.filter(user=user).delete()
        audit(actor=actor, action="auth.token.revoke_all", payload={"user": user.get_username(), "reason": reason,
                                                                    "count": n})  # fmt: skip
        return n


def _password_changed(user: Any) -> bool:
    if user.pk is None or user._state.adding:
        return False
    stored = type(user)._base_manager.filter(pk=user.pk).values_list("password", flat=True).first()
    return stored is not None and stored != user.password


def revoke_tokens_on_password_change(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    """pre_save of the user model: a changed password hash revokes every API token of the user.

    Compares the stored hash, so it catches ``set_password`` + ``save``, the admin's password form,
    ``changepassword`` and a hash written directly.  Saves that name their fields (``last_login`` on
    sign-in) and leave the password out are skipped without a query.
    """
    if update_fields is not None and "password" not in update_fields:
        return
    if _password_changed(instance) and AuthToken.objects.filter(user_id=instance.pk).exists():
        token_revoke_all(user=instance, actor=None, reason="password changed")


def connect_signals() -> None:
    """Called from ``TablesConfig.ready``."""
    from axes.signals import user_locked_out
    from django.db.models.signals import pre_save

    pre_save.connect(revoke_tokens_on_password_change, sender=get_user_model(),
                     dispatch_uid="tables.revoke_tokens_on_password_change")  # fmt: skip
    user_locked_out.connect(audit_lockout, dispatch_uid="tables.audit_lockout")


def audit_lockout(sender: Any, request: Any = None, username: str | None = None, ip_address: str | None = None,
                  **kwargs: Any) -> None:
    """django-axes locked a user name out (too many failed sign-ins from one address): an audit event."""
    path = getattr(request, "path", "") if request is not None else ""
    audit(actor=None, action="auth.locked_out", payload={"username": username or "", "ip_address": ip_address or "",
                                                        "path": path})  # fmt: skip
