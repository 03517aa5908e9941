"""Versioning: a published rule set or pay table never changes; editing makes a new draft; tables keep their version."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from tables.models import PayLine, PayTable, PublishedVersionError, RuleSet, Table, VersionStatus
from tests.factories import PayTableFactory, RuleSetFactory, TableFactory, game, published

pytestmark = pytest.mark.django_db


def test_a_published_rule_set_cannot_be_saved_with_changes() -> None:
    rule_set = published(RuleSetFactory)
    rule_set.params = {**rule_set.params, "decks": 6}
    with pytest.raises(PublishedVersionError):
        rule_set.save()
    rule_set.refresh_from_db()
    assert rule_set.params["decks"] == 8


def test_a_published_rule_set_cannot_be_deleted() -> None:
    rule_set = published(RuleSetFactory)
    with pytest.raises(PublishedVersionError):
        rule_set.delete()
    assert RuleSet.objects.filter(pk=rule_set.pk).exists()


def test_the_database_refuses_a_bulk_update_of_a_published_rule_set() -> None:
    rule_set = published(RuleSetFactory)
    with pytest.raises(IntegrityError), transaction.atomic():
        RuleSet.objects.filter(pk=rule_set.pk).update(params={"decks": 1})


def test_the_lines_of_a_published_pay_table_cannot_change() -> None:
    table = published(PayTableFactory)
    line = table.lines.get(name="perfect-pairs/perfect")
    line.odds_numerator = 30
    with pytest.raises(PublishedVersionError):
        line.save()
    with pytest.raises(PublishedVersionError):
        line.delete()
    with pytest.raises(IntegrityError), transaction.atomic():
        PayLine.objects.filter(pk=line.pk).update(odds_numerator=30)
    with pytest.raises(IntegrityError), transaction.atomic():
        PayLine.objects.bulk_create([PayLine(pay_table=table, name="x", kind="odds", odds_numerator=1, odds_denominator=1)])
    line.refresh_from_db()
    assert line.odds_text == "25:1"


def test_the_database_refuses_a_bulk_update_of_a_published_pay_table() -> None:
    table = published(PayTableFactory)
    with pytest.raises(IntegrityError), transaction.atomic():
        PayTable.objects.filter(pk=table.pk).update(status=VersionStatus.DRAFT)


def test_a_new_draft_copies_the_version_with_the_next_number_and_its_lines() -> None:
    table = published(PayTableFactory)
    draft = table.new_draft(actor=None)
    assert (draft.game, draft.name, draft.version, draft.status) == (table.game, table.name, 2, VersionStatus.DRAFT)
    assert draft.as_engine_json() == table.as_engine_json()
    assert draft.lines.count() == 11
    third = table.new_draft(actor=None)
    assert third.version == 3


def test_a_new_draft_of_a_rule_set_copies_its_parameters() -> None:
    rule_set = published(RuleSetFactory, params={"decks": 6})
    draft = rule_set.new_draft(actor=None)
    assert draft.version == 2
    assert draft.params == rule_set.params


def test_a_draft_can_be_edited_and_then_published() -> None:
    draft = published(PayTableFactory).new_draft(actor=None)
    line = draft.lines.get(name="perfect-pairs/mixed")
    line.set_odds("5:1")
    line.full_clean()
    line.save()
    draft.publish(actor=None)
    draft.refresh_from_db()
    assert draft.status == VersionStatus.PUBLISHED
    assert draft.published_at is not None
    assert {"name": "perfect-pairs/mixed", "pays": {"odds": "5:1"}} in draft.as_engine_json()["lines"]


def test_publishing_twice_is_refused() -> None:
    rule_set = published(RuleSetFactory)
    with pytest.raises(PublishedVersionError):
        rule_set.publish(actor=None)


def test_only_a_holder_of_the_publish_permission_publishes(pit_boss, games_manager) -> None:
    draft = RuleSetFactory()
    with pytest.raises(PermissionDenied):
        draft.publish(actor=pit_boss)
    draft.refresh_from_db()
    assert draft.status == VersionStatus.DRAFT
    draft.publish(actor=games_manager)
    draft.refresh_from_db()
    assert draft.status == VersionStatus.PUBLISHED
    assert draft.published_by == games_manager


def test_an_auditor_cannot_make_a_new_draft(auditor) -> None:
    with pytest.raises(PermissionDenied):
        published(RuleSetFactory).new_draft(actor=auditor)


def test_a_table_keeps_its_version_when_a_new_one_is_published(games_manager) -> None:
    table = TableFactory(min_bet=Decimal("10.00"))
    old_rules, old_pays = table.rule_set, table.pay_table
    new_rules = old_rules.new_draft(actor=games_manager)
    new_rules.params = {**new_rules.params, "dealer_hits_soft_17": True}
    new_rules.full_clean()
    new_rules.save()
    new_rules.publish(actor=games_manager)
    new_pays = old_pays.new_draft(actor=games_manager)
    new_pays.publish(actor=games_manager)

    table = Table.objects.get(pk=table.pk)
    assert table.rule_set == old_rules and table.pay_table == old_pays
    assert table.rule_set.rules().dealer_hits_soft_17 is False
    assert new_rules.version == old_rules.version + 1


def test_a_published_version_used_by_a_table_cannot_be_removed_even_in_bulk() -> None:
    table = TableFactory()
    with pytest.raises(ProtectedError):
        RuleSet.objects.filter(pk=table.rule_set_id).delete()


def test_versions_of_one_lineage_are_numbered_in_order() -> None:
    first = RuleSetFactory(game=game("finnish-27"), name="Lineage")
    second = RuleSetFactory(game=game("finnish-27"), name="Lineage")
    other = RuleSetFactory(game=game("finnish-27"), name="Other")
    assert (first.version, second.version, other.version) == (1, 2, 1)
