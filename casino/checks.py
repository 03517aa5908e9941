"""System checks of the deployment settings (``manage.py check --deploy``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, register


@register(Tags.security, deploy=True)
def check_secret_key_is_not_the_development_key(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """casino.E001: the development SECRET_KEY is public (it is in casino/settings.py)."""
    if settings.SECRET_KEY != getattr(settings, "DEVELOPMENT_SECRET_KEY", None):
        return []
    return [
        Error(
            "SECRET_KEY is the development key of casino/settings.py, which anyone can read.",
            hint="Set SECRET_KEY in the environment to a long random secret.",
            id="casino.E001",
        )
    ]
