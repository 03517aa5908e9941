"""Database-level append-only guards (SQLite and PostgreSQL triggers; other databases rely on the code).

What the database refuses, whoever asks (a bulk ``update()``, raw SQL, the admin, a bug):

- audit events and the simple-history rows of the configuration: any UPDATE or DELETE;
- settlement lines and payments: any DELETE, and any UPDATE except the one transition a correction
  makes, ``superseded`` false → true with every other column unchanged (a re-settlement after a pit
  boss's card correction, or a later payment record, supersedes the old rows and inserts new ones:
  the first version stays on record);
- published pay lines, pay tables and rule sets: DELETE too (migration 0003 guards INSERT/UPDATE);
- a round once final: a cancelled round never changes; a closed round may change only by a pit boss's
  card correction re-settling it (``tables.services.card_correct``): its version goes up by one, its
  state stays ``closed`` or becomes ``mismatch`` (the corrected due differs from what was paid), and
  only ``state``, ``version``, ``prompt``, ``due``, ``discrepancies``, ``closed_at`` and ``updated_at``
  may differ — what was wagered, dealt from which shoe, and paid never changes.  Neither is deleted.

Errors are SQLSTATE 23000 on PostgreSQL and ``RAISE(ABORT)`` on SQLite: ``django.db.IntegrityError``
on both.  ``TRUNCATE`` (``manage.py flush`` on PostgreSQL) fires no row trigger: it is the owner's
(see docs/deployment.md: the application's role is not granted TRUNCATE); on SQLite ``flush`` lifts the
triggers for its duration (``tables/management/commands/flush.py``).
"""

from django.db import migrations, models

MESSAGE = "append-only: corrections and voids are new rows"
HISTORY = ["tables_historicalgame", "tables_historicalcasino", "tables_historicalpit", "tables_historicalruleset",
           "tables_historicalpaytable", "tables_historicalpayline", "tables_historicaltable"]
FROZEN = ["auditevent", *[h.removeprefix("tables_") for h in HISTORY]]

PAYMENT_COLUMNS = ["id", "round_id", "seat", "kind", "amount", "recorded_by_id", "recorded_at"]
LINE_COLUMNS = ["id", "round_id", "seat", "bet", "wager", "result", "net", "detail", "hand", "behind"]
# The columns a correction of a closed round may change; every other one is frozen.
ROUND_CORRECTABLE = ["state", "version", "prompt", "due", "discrepancies", "closed_at", "updated_at"]
ROUND_FROZEN = ["id", "table_id", "shoe_id", "number", "game", "rule_set_id", "pay_table_id", "rules",
                "pay_table_lines", "table_minimum", "setup", "paid", "approval_required", "approval_reason",
                "bluffjack_game_id", "opened_by_id", "opened_at", "paused_at", "settled_at"]


def _same(columns):
    return " AND ".join(f"NEW.{c} IS OLD.{c}" for c in columns)


def _sqlite_refuse(name, when_op, table, condition="1"):
    return (f"CREATE TRIGGER {name} BEFORE {when_op} ON {table} FOR EACH ROW WHEN {condition} "
            f"BEGIN SELECT RAISE(ABORT, '{table}: {MESSAGE}'); END")


SQLITE_FORWARD = [
    *[_sqlite_refuse(f"tables_{t}_append_only_{op.lower()}", op, f"tables_{t}") for t in FROZEN
      for op in ("UPDATE", "DELETE")],
    *[_sqlite_refuse(f"tables_{t}_append_only_delete", "DELETE", f"tables_{t}") for t in ("payment", "settlementline")],
    _sqlite_refuse("tables_payment_append_only_update", "UPDATE", "tables_payment",
                   f"NOT (OLD.superseded = 0 AND NEW.superseded = 1 AND {_same(PAYMENT_COLUMNS)})"),
    _sqlite_refuse("tables_settlementline_append_only_update", "UPDATE", "tables_settlementline",
                   f"NOT (OLD.superseded = 0 AND NEW.superseded = 1 AND {_same(LINE_COLUMNS)})"),
    _sqlite_refuse("tables_payline_published_immutable_delete", "DELETE", "tables_payline",
                   "(SELECT status FROM tables_paytable WHERE id = OLD.pay_table_id) = 'published'"),
    _sqlite_refuse("tables_paytable_published_immutable_delete", "DELETE", "tables_paytable",
                   "OLD.status = 'published'"),
    _sqlite_refuse("tables_ruleset_published_immutable_delete", "DELETE", "tables_ruleset",
                   "OLD.status = 'published'"),
    _sqlite_refuse("tables_round_final_delete", "DELETE", "tables_round", "OLD.state IN ('closed', 'cancelled')"),
    _sqlite_refuse("tables_round_final_update", "UPDATE", "tables_round",
                   "OLD.state IN ('closed', 'cancelled') AND NOT (OLD.state = 'closed' "
                   "AND NEW.state IN ('closed', 'mismatch') AND NEW.version = OLD.version + 1 "
                   f"AND {_same(ROUND_FROZEN)})"),
]
SQLITE_BACKWARD = [f"DROP TRIGGER IF EXISTS {sql.split()[2]}" for sql in SQLITE_FORWARD]

_CORRECTABLE = "ARRAY[" + ", ".join(f"'{c}'" for c in ROUND_CORRECTABLE) + "]"
POSTGRES_FORWARD = [
    f"""CREATE OR REPLACE FUNCTION tables_refuse_append_only_change() RETURNS trigger AS $$
        BEGIN
            RAISE EXCEPTION USING ERRCODE = '23000', MESSAGE = TG_TABLE_NAME || ': {MESSAGE} (' || TG_OP || ' refused)';
        END $$ LANGUAGE plpgsql""",
    # Only superseded false -> true, every other column as it was.
    f"""CREATE OR REPLACE FUNCTION tables_refuse_all_but_supersede() RETURNS trigger AS $$
        BEGIN
            IF OLD.superseded OR NOT NEW.superseded
               OR (to_jsonb(NEW) - 'superseded') IS DISTINCT FROM (to_jsonb(OLD) - 'superseded') THEN
                RAISE EXCEPTION USING ERRCODE = '23000',
                    MESSAGE = TG_TABLE_NAME || ': {MESSAGE} (only superseded false -> true may change)';
            END IF;
            RETURN NEW;
        END $$ LANGUAGE plpgsql""",
    f"""CREATE OR REPLACE FUNCTION tables_refuse_final_round_change() RETURNS trigger AS $$
        BEGIN
            IF TG_OP = 'DELETE' THEN  -- NEW is null: decide before looking at it
                RAISE EXCEPTION USING ERRCODE = '23000',
                    MESSAGE = 'tables_round: a ' || OLD.state || ' round is final (DELETE refused)';
            END IF;
            IF OLD.state = 'cancelled' OR NEW.state NOT IN ('closed', 'mismatch')
               OR NEW.version <> OLD.version + 1
               OR (to_jsonb(NEW) - {_CORRECTABLE}::text[]) IS DISTINCT FROM (to_jsonb(OLD) - {_CORRECTABLE}::text[]) THEN
                RAISE EXCEPTION USING ERRCODE = '23000',
                    MESSAGE = 'tables_round: a ' || OLD.state || ' round is final (' || TG_OP || ' refused); '
                              'only a card correction may re-settle a closed round';
            END IF;
            RETURN NEW;
        END $$ LANGUAGE plpgsql""",
    f"""CREATE OR REPLACE FUNCTION tables_refuse_published_payline_delete() RETURNS trigger AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM tables_paytable WHERE id = OLD.pay_table_id AND status = 'published') THEN
                RAISE EXCEPTION USING ERRCODE = '23000', MESSAGE = 'tables_payline: published versions are immutable';
            END IF;
            RETURN OLD;
        END $$ LANGUAGE plpgsql""",
    *[f"""CREATE TRIGGER tables_{t}_append_only BEFORE UPDATE OR DELETE ON tables_{t}
          FOR EACH ROW EXECUTE FUNCTION tables_refuse_append_only_change()""" for t in FROZEN],
    *[f"""CREATE TRIGGER tables_{t}_append_only_delete BEFORE DELETE ON tables_{t}
          FOR EACH ROW EXECUTE FUNCTION tables_refuse_append_only_change()""" for t in ("payment", "settlementline")],
    *[f"""CREATE TRIGGER tables_{t}_append_only_update BEFORE UPDATE ON tables_{t}
          FOR EACH ROW EXECUTE FUNCTION tables_refuse_all_but_supersede()""" for t in ("payment", "settlementline")],
    """CREATE TRIGGER tables_payline_published_immutable_delete BEFORE DELETE ON tables_payline
        FOR EACH ROW EXECUTE FUNCTION tables_refuse_published_payline_delete()""",
    """CREATE TRIGGER tables_paytable_published_immutable_delete BEFORE DELETE ON tables_paytable
        FOR EACH ROW WHEN (OLD.status = 'published') EXECUTE FUNCTION tables_refuse_append_only_change()""",
    """CREATE TRIGGER tables_ruleset_published_immutable_delete BEFORE DELETE ON tables_ruleset
        FOR EACH ROW WHEN (OLD.status = 'published') EXECUTE FUNCTION tables_refuse_append_only_change()""",
    """CREATE TRIGGER tables_round_final BEFORE UPDATE OR DELETE ON tables_round
        FOR EACH ROW WHEN (OLD.state IN ('closed', 'cancelled')) EXECUTE FUNCTION tables_refuse_final_round_change()""",
]
POSTGRES_BACKWARD = [
    *[f"DROP TRIGGER IF EXISTS tables_{t}_append_only ON tables_{t}" for t in FROZEN],
    *[f"DROP TRIGGER IF EXISTS tables_{t}_append_only_{op} ON tables_{t}" for t in ("payment", "settlementline")
      for op in ("delete", "update")],
    "DROP TRIGGER IF EXISTS tables_payline_published_immutable_delete ON tables_payline",
    "DROP TRIGGER IF EXISTS tables_paytable_published_immutable_delete ON tables_paytable",
    "DROP TRIGGER IF EXISTS tables_ruleset_published_immutable_delete ON tables_ruleset",
    "DROP TRIGGER IF EXISTS tables_round_final ON tables_round",
    "DROP FUNCTION IF EXISTS tables_refuse_append_only_change()",
    "DROP FUNCTION IF EXISTS tables_refuse_all_but_supersede()",
    "DROP FUNCTION IF EXISTS tables_refuse_final_round_change()",
    "DROP FUNCTION IF EXISTS tables_refuse_published_payline_delete()",
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
    dependencies = [("tables", "0012_table_limits_per_bet_kind")]

    operations = [
        migrations.AddField(
            model_name="settlementline",
            name="superseded",
            field=models.BooleanField(default=False, help_text="replaced by a re-settlement after a correction"),
        ),
        migrations.RunPython(forwards, backwards),
    ]
