"""Re-running an audit keeps each finding it finds again: its row (the alert's id), its first-found time,
the time of what it found, and its acknowledgement."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tables.models import AuditFinding
from tables.services.audits import audit_table_day
from tests.tables.tasks.builders import DAY, FloorBuilder, at, set_theory

pytestmark = pytest.mark.django_db


def test_a_rerun_keeps_each_findings_id_and_times(demo_casino, dealer):
    table = demo_casino.tables["unlimited-blackjack"]
    set_theory(table, {"main": (0.005, 1.3)})
    b = FloorBuilder(table, dealer)
    b.shuffle(at(1))
    rnd = b.round(at(1.1), ["AS"] * 9)
    audit_table_day(table.pk, DAY)
    [first] = AuditFinding.objects.filter(rule="card.impossible")
    AuditFinding.objects.filter(pk=first.pk).update(created_at=first.created_at - timedelta(hours=3))
    first.refresh_from_db()
    assert first.found_at == rnd.opened_at  # when the impossible card was dealt

    audit_table_day(table.pk, DAY)
    audit_table_day(table.pk, DAY)
    [again] = AuditFinding.objects.filter(rule="card.impossible")
    assert (again.pk, again.created_at, again.found_at) == (first.pk, first.created_at, first.found_at)


def test_an_early_shuffle_is_found_at_the_shuffle_and_says_the_dealers_reason(demo_casino, dealer):
    # The walk-through: the early-shuffle alert bore the shoe's last round's time and no reason.
    table = demo_casino.tables["unlimited-blackjack"]
    set_theory(table, {"main": (0.005, 1.3)})
    b = FloorBuilder(table, dealer)
    b.shuffle(at(1))
    b.round(at(1.1), ["9S", "7H", "TD", "8C"])
    b.shuffle(at(2.5), reason="cards dropped on the floor")
    audit_table_day(table.pk, DAY)
    [early] = AuditFinding.objects.filter(rule="shuffle.early")
    assert early.found_at == at(2.5)
    assert early.message.endswith("; the dealer's reason: cards dropped on the floor")
    assert early.data["reason"] == "cards dropped on the floor"
