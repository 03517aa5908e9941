"""Idempotent writes: a request carrying ``Idempotency-Key`` is done once; a retry gets the first answer.

The key is claimed by inserting an ``IdempotencyKey`` row in the same transaction as the write.  A
retry that arrives while the first request is still running blocks on the unique index (PostgreSQL)
or on the database lock (SQLite) until the first commits, then finds the stored answer and replays
it — so a flaky tablet network can resend a command without the round recording it twice.  A failed
request (an error answer or an exception) rolls back the claim with everything else: nothing was
recorded, so the retry runs again.  The same key with a different request is refused (422).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AnonymousUser
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from tables.models import IdempotencyKey

if TYPE_CHECKING:
    from django.contrib.auth.models import User

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 100


class KeyReused(exceptions.APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = "this Idempotency-Key was used for a different request"
    default_code = "idempotency_key_reused"


def _fingerprint(request: Request) -> str:
    """A hash of what the request asks for: method, path and body (uploaded files by content)."""
    digest = hashlib.sha256(f"{request.method} {request.path}\n".encode())
    data = request.data
    plain: dict[str, Any] = {}
    if hasattr(data, "lists"):  # a QueryDict from a multipart upload
        for name, values in data.lists():
            plain[name] = [
                {"file_sha256": _file_hash(v)} if isinstance(v, UploadedFile) else v for v in values
            ]
    else:
        plain = {"json": data}
    digest.update(json.dumps(plain, sort_keys=True, default=str).encode())
    return digest.hexdigest()


def _file_hash(upload: UploadedFile) -> str:
    h = hashlib.sha256()
    for chunk in upload.chunks():
        h.update(chunk)
    upload.seek(0)
    return h.hexdigest()


def _key_of(request: Request) -> str | None:
    key = request.headers.get(HEADER)
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > MAX_KEY_LENGTH or not key.isprintable():
        raise exceptions.ValidationError({HEADER: [f"must be 1 to {MAX_KEY_LENGTH} printable characters"]})
    return key


def _replay(record: IdempotencyKey, fingerprint: str) -> Response:
    if record.fingerprint != fingerprint:
        raise KeyReused()
    response = Response(record.response, status=record.status_code)
    response["Idempotent-Replayed"] = "true"
    return response


def _user_of(request: Request) -> User:
    """The signed-in user whose key it is.  Every write view requires one (the API's default
    permission): an anonymous request is refused before its handler runs."""
    user = request.user
    if isinstance(user, AnonymousUser):
        raise exceptions.NotAuthenticated()
    return user


def answered_before(request: Request) -> Response | None:
    """The stored answer when this request's ``Idempotency-Key`` was already done (for views that do slow
    work before their idempotent write: a retry is answered without doing it again)."""
    key = _key_of(request)
    if key is None:
        return None
    existing = IdempotencyKey.objects.filter(user=_user_of(request), key=key).first()
    return None if existing is None else _replay(existing, _fingerprint(request))


def idempotent(method: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate a write view's handler so that ``Idempotency-Key`` retries replay the first answer."""

    @wraps(method)
    def handler(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = _key_of(request)
        if key is None:
            return method(self, request, *args, **kwargs)
        fingerprint = _fingerprint(request)
        user = _user_of(request)
        existing = IdempotencyKey.objects.filter(user=user, key=key).first()
        if existing is not None:
            return _replay(existing, fingerprint)
        with transaction.atomic():
            try:
                with transaction.atomic():
                    record = IdempotencyKey.objects.create(
                        user=user, key=key, fingerprint=fingerprint,
                        method=request.method or "", path=request.path[:255],
                    )  # fmt: skip
            except IntegrityError:
                # Another request with this key committed while we waited on the unique index.
                return _replay(IdempotencyKey.objects.get(user=user, key=key), fingerprint)
            response = method(self, request, *args, **kwargs)
            if not 200 <= response.status_code < 300:
                # Nothing recorded for an error answer: roll back the claim so a retry runs again.
                transaction.set_rollback(True)
                return response
            record.status_code = response.status_code
            record.response = json.loads(JSONRenderer().render(response.data))
            record.save(update_fields=["status_code", "response"])
        return response

    return handler
