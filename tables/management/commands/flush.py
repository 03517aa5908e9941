"""``manage.py flush`` that works under the append-only triggers (migration 0011).

Django's flush empties SQLite tables with DELETE, which the triggers refuse; here they are lifted for
the flush and put back in the same transaction.  On PostgreSQL flush uses TRUNCATE (no row trigger
fires), so nothing changes there.  Emptying the whole database is an owner's operation either way.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands.flush import Command as DjangoFlush
from django.db import DEFAULT_DB_ALIAS, connections

from tables.models.db_guards import guards_lifted


class Command(DjangoFlush):
    def handle(self, **options: Any) -> None:
        connection = connections[options.get("database") or DEFAULT_DB_ALIAS]
        if connection.vendor != "sqlite":
            return super().handle(**options)
        with guards_lifted(connection):
            super().handle(**options)
