"""Database-level guard: a published rule set or pay table (and its lines) cannot be updated.

The models refuse this in ``save``; the triggers also stop bulk ``update()`` calls and raw SQL.  Deletes
are not guarded here (``on_delete=PROTECT`` keeps versions that tables or rounds use; a trigger on
DELETE would break ``flush`` in transactional tests), and inserting lines into a published pay table
is refused.  Only SQLite and PostgreSQL get triggers; other databases rely on the model checks.
"""

from django.db import migrations

MESSAGE = "published versions are immutable; make a new draft version"

SQLITE_FORWARD = [
    f"""CREATE TRIGGER tables_ruleset_published_immutable BEFORE UPDATE ON tables_ruleset
        FOR EACH ROW WHEN OLD.status = 'published'
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END""",
    f"""CREATE TRIGGER tables_paytable_published_immutable BEFORE UPDATE ON tables_paytable
        FOR EACH ROW WHEN OLD.status = 'published'
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END""",
    f"""CREATE TRIGGER tables_payline_published_immutable_update BEFORE UPDATE ON tables_payline
        FOR EACH ROW WHEN
            (SELECT status FROM tables_paytable WHERE id = OLD.pay_table_id) = 'published'
            OR (SELECT status FROM tables_paytable WHERE id = NEW.pay_table_id) = 'published'
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END""",
    f"""CREATE TRIGGER tables_payline_published_immutable_insert BEFORE INSERT ON tables_payline
        FOR EACH ROW WHEN (SELECT status FROM tables_paytable WHERE id = NEW.pay_table_id) = 'published'
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END""",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS tables_ruleset_published_immutable",
    "DROP TRIGGER IF EXISTS tables_paytable_published_immutable",
    "DROP TRIGGER IF EXISTS tables_payline_published_immutable_update",
    "DROP TRIGGER IF EXISTS tables_payline_published_immutable_insert",
]

# ERRCODE 23000 (integrity_constraint_violation) surfaces as django.db.IntegrityError, as on SQLite.
POSTGRES_FORWARD = [
    f"""CREATE OR REPLACE FUNCTION tables_refuse_published_change() RETURNS trigger AS $$
        BEGIN
            RAISE EXCEPTION USING ERRCODE = '23000', MESSAGE = TG_TABLE_NAME || ': {MESSAGE}';
        END $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER tables_ruleset_published_immutable BEFORE UPDATE ON tables_ruleset
        FOR EACH ROW WHEN (OLD.status = 'published') EXECUTE FUNCTION tables_refuse_published_change()""",
    """CREATE TRIGGER tables_paytable_published_immutable BEFORE UPDATE ON tables_paytable
        FOR EACH ROW WHEN (OLD.status = 'published') EXECUTE FUNCTION tables_refuse_published_change()""",
    f"""CREATE OR REPLACE FUNCTION tables_refuse_published_payline_change() RETURNS trigger AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM tables_paytable WHERE id = NEW.pay_table_id AND status = 'published')
               OR (TG_OP = 'UPDATE' AND EXISTS (
                   SELECT 1 FROM tables_paytable WHERE id = OLD.pay_table_id AND status = 'published')) THEN
                RAISE EXCEPTION USING ERRCODE = '23000', MESSAGE = 'tables_payline: {MESSAGE}';
            END IF;
            RETURN NEW;
        END $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER tables_payline_published_immutable BEFORE INSERT OR UPDATE ON tables_payline
        FOR EACH ROW EXECUTE FUNCTION tables_refuse_published_payline_change()""",
]
POSTGRES_BACKWARD = [
    "DROP TRIGGER IF EXISTS tables_ruleset_published_immutable ON tables_ruleset",
    "DROP TRIGGER IF EXISTS tables_paytable_published_immutable ON tables_paytable",
    "DROP TRIGGER IF EXISTS tables_payline_published_immutable ON tables_payline",
    "DROP FUNCTION IF EXISTS tables_refuse_published_change()",
    "DROP FUNCTION IF EXISTS tables_refuse_published_payline_change()",
]

SQL = {
    "sqlite": (SQLITE_FORWARD, SQLITE_BACKWARD),
    "postgresql": (POSTGRES_FORWARD, POSTGRES_BACKWARD),
}


def _run(schema_editor, index):
    statements = SQL.get(schema_editor.connection.vendor)
    if statements is None:
        return
    for sql in statements[index]:
        schema_editor.execute(sql, params=None)


def forwards(apps, schema_editor):
    _run(schema_editor, 0)


def backwards(apps, schema_editor):
    _run(schema_editor, 1)


class Migration(migrations.Migration):
    dependencies = [("tables", "0002_rounds")]

    operations = [migrations.RunPython(forwards, backwards)]
