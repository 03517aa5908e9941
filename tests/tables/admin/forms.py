"""What a browser posts for an admin form: every field's current value (booleans only when on)."""

from __future__ import annotations

from typing import Any


def form_data(form: Any, **overrides: Any) -> dict[str, Any]:
    """The POST data of ``form`` as rendered, with ``overrides`` (a False boolean is left out, as a browser does)."""
    data: dict[str, Any] = {}
    for name in form.fields:
        value = form[name].value()
        data[name] = "" if value is None else value
    data.update(overrides)
    return {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
