"""The API's error format: every 4xx answer is a JSON object with ``error``, and ``field`` when input was bad.

- malformed input (serializer errors, engine ``InvalidInput``, unparsable JSON) → 400
  ``{"field": "seats[0].wagers.main", "error": "...", "errors": {...}}``;
- a rule the engine enforces refuses a live action → 422 ``{"error": ..., "rule": ...}``;
- the round is not in a state that allows the command (settled, paused, changed meanwhile) → 409
  ``{"error": ..., "code": "conflict"}``;
- authentication and permission → 401/403 ``{"error": ..., "code": ...}``.

A 500 is always a bug: nothing here turns an unexpected exception into a 4xx.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, RequestDataTooBig
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.html import format_html
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tables.errors import Conflict, InvalidInput, RuleViolation


def _first_error(data: Any, prefix: str = "") -> tuple[str, str]:
    """The first (field path, message) of a DRF error structure, depth first."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "non_field_errors":
                name = prefix
            elif isinstance(key, int):  # DRF reports list items by index
                name = f"{prefix}[{key}]"
            else:
                name = f"{prefix}.{key}" if prefix else str(key)
            return _first_error(value, name)
    if isinstance(data, list):
        for i, value in enumerate(data):
            if isinstance(value, dict | list) and value:
                return _first_error(value, f"{prefix}[{i}]" if isinstance(value, dict) else prefix)
            if value:
                return prefix or "(body)", str(value)
    return prefix or "(body)", str(data)


def _printable(data: Any) -> Any:
    """``data`` with lone surrogates (legal in JSON text, not encodable as UTF-8) replaced by U+FFFD.

    Error answers echo what was sent (an unknown key, a bad value): a key like ``"\\udc00"`` would
    otherwise make the JSON renderer fail with a UnicodeEncodeError (a 500)."""
    if isinstance(data, str):
        return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in data)
    if isinstance(data, dict):
        return {_printable(k): _printable(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_printable(v) for v in data]
    return data


def error_body(message: str, *, field: str | None = None, **extra: Any) -> dict[str, Any]:
    """One error document of the API's format."""
    body: dict[str, Any] = {"error": message}
    if field is not None:
        body["field"] = field
    body.update(extra)
    return body


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF exception handler giving every error the format above."""
    if isinstance(exc, InvalidInput):
        return Response(_printable(error_body(exc.message, field=exc.field or "(body)")),
                        status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RuleViolation):
        return Response(
            error_body(exc.message, rule=exc.rule, code="rule_violation"),
            status=status.HTTP_422_UNPROCESSABLE_ENTITY,
        )

    if isinstance(exc, Conflict):
        return Response(error_body(str(exc), code="conflict"), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body(f"the request body is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024} KB",
                                   field="(body)", code="too_large"), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, Http404 | ObjectDoesNotExist):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        field, message = _first_error(response.data)
        response.data = error_body(message, field=field, errors=response.data, code="invalid")
    elif isinstance(exc, exceptions.ParseError):
        response.data = error_body(str(exc.detail), field="(body)", code="parse_error")
    elif isinstance(exc, exceptions.APIException):
        detail = exc.detail
        if isinstance(detail, dict):
            response.data = {"code": exc.default_code, **detail}
            response.data.setdefault("error", str(exc.default_detail))
        else:
            response.data = error_body(str(detail), code=getattr(detail, "code", exc.default_code))
    response.data = _printable(response.data)
    return response


def lockout_message() -> str:
    """What a locked-out user is told (the cool-off of AXES_COOLOFF_MINUTES)."""
    from django.conf import settings

    return (f"too many failed sign-ins: this user name is locked for {settings.AXES_COOLOFF_MINUTES} minutes "
            "from this address; try again later")  # fmt: skip


def lockout_response(request: HttpRequest, original_response: HttpResponse | None = None,
                     credentials: dict[str, Any] | None = None) -> HttpResponse:
    """django-axes' answer to a locked-out sign-in (AXES_LOCKOUT_CALLABLE): JSON on the API, a page elsewhere."""
    from django.conf import settings

    message = lockout_message()
    headers = {"Retry-After": str(settings.AXES_COOLOFF_MINUTES * 60)}
    if request.path.startswith("/api/"):
        return JsonResponse(error_body(message, code="locked_out"), status=status.HTTP_429_TOO_MANY_REQUESTS,
                            headers=headers)  # fmt: skip
    page = format_html("<!doctype html><title>Locked out</title><h1>Signed out for a while</h1><p>{}.</p>",
                       message[0].upper() + message[1:])  # fmt: skip
    return HttpResponse(page, status=status.HTTP_429_TOO_MANY_REQUESTS, headers=headers)
