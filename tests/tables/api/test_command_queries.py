"""A tablet command's answer costs a bounded number of queries (at 500 tables the commands are the load:
docs/floor-scale.md).  The round it answers is read once with its rule set, pay table and shoe."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db

CARD_COMMAND_QUERIES = 35  # measured; 37 before the answer read the round with its rule set, pay table and shoe;
# +1 since a card is refused while an unsure read waits (one read of the round's last audit event)


def test_a_card_command_costs_a_bounded_number_of_queries(bj_table, dealer_api):
    r = dealer_api.post(f"/api/tables/{bj_table.pk}/rounds/", {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]},
                        format="json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex)
    doc = r.json()
    with CaptureQueriesContext(connection) as ctx:
        r = dealer_api.post(f"/api/rounds/{doc['id']}/cards/", {"code": "TS", "version": doc["version"]},
                            format="json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex)
    assert r.status_code == 200, r.content
    assert r.json()["shoe"] == doc["shoe"] and r.json()["rule_set"] == doc["rule_set"]
    sql = [q["sql"] for q in ctx.captured_queries]
    assert len(sql) <= CARD_COMMAND_QUERIES, "\n".join(sql)
    assert sum(s.startswith('SELECT "tables_ruleset"') for s in sql) == 0, "the rule set is read with the round"
