"""``manage.py seed_games``: the five games, their published rule sets and pay tables, and the role groups.

Idempotent: what exists is left alone.  Migration 0004 already seeds the games on ``migrate``; this
command restores them after a flush and is what ``load_demo`` calls.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.core.management.base import BaseCommand
from django.db import transaction

from tables.access import ensure_roles
from tables.services.seed import seed_games


class Command(BaseCommand):
    help = "Create the five games with their published rule sets and pay tables, and the role groups (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            created = seed_games(apps.get_model)
            roles = ensure_roles()
        self.stdout.write(
            "Seeded: " + ", ".join(f"{n} {what}" for what, n in created.items())
            + " created; roles: " + ", ".join(f"{role} ({n} permissions)" for role, n in roles.items())
        )
