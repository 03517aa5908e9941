"""The append-only triggers of migrations 0003 and 0011, lifted for an owner's whole-database operation.

Only two things lift them: ``manage.py flush`` on SQLite (which empties tables with DELETE, and the
triggers refuse DELETE; on PostgreSQL flush uses TRUNCATE, which fires no row trigger), and tests
that must remove seeded rows.  On PostgreSQL lifting needs ALTER TABLE on the tables, which the
application's role does not have in production (docs/deployment.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper


@contextmanager
def guards_lifted(connection: BaseDatabaseWrapper) -> Iterator[None]:
    """Run the block with the ``tables_*`` triggers off, in one transaction; they are back after it."""
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'tables%'")
            triggers = cursor.fetchall()
            for name, _ in triggers:
                cursor.execute(f'DROP TRIGGER "{name}"')
            yield
            for _, sql in triggers:
                cursor.execute(sql)
        elif connection.vendor == "postgresql":
            cursor.execute("SELECT DISTINCT event_object_table FROM information_schema.triggers "
                           "WHERE trigger_name LIKE 'tables%%' AND trigger_schema = current_schema()")  # fmt: skip
            tables = [r[0] for r in cursor.fetchall()]
            # ALTER TABLE refuses while deferred foreign-key checks are pending: check as we go.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for t in tables:
                cursor.execute(f'ALTER TABLE "{t}" DISABLE TRIGGER USER')
            yield
            for t in tables:
                cursor.execute(f'ALTER TABLE "{t}" ENABLE TRIGGER USER')
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        else:
            yield
