"""History: every change of the configuration keeps who, when and what."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import RuleSet, Table, VersionStatus
from tests.factories import PASSWORD, PayTableFactory, RuleSetFactory, TableFactory, published
from tests.tables.admin.forms import form_data

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_an_admin_edit_of_a_rule_set_records_the_games_manager(games_manager) -> None:
    draft = RuleSetFactory(params={"decks": 8})
    client = _client(games_manager)
    url = reverse("admin:tables_ruleset_change", args=[draft.pk])
    form = client.get(url).context["adminform"].form
    response = client.post(url, form_data(form, decks=6, notes="six decks"))
    assert response.status_code == 302, response.content.decode()[:2000]
    latest = draft.history.first()
    assert latest.history_user == games_manager
    assert latest.history_type == "~"
    assert latest.params["decks"] == 6
    changed = {c.field for c in latest.diff_against(latest.prev_record).changes}
    assert {"params", "notes"} <= changed


def test_publishing_through_the_admin_records_the_publisher(games_manager, settings) -> None:
    settings.PUBLISH_NEEDS_SECOND_APPROVAL = False  # one person publishes (the maker-checker is off)
    draft = RuleSetFactory()
    response = _client(games_manager).post(reverse("admin:tables_ruleset_publish", args=[draft.pk]))
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.status == VersionStatus.PUBLISHED
    latest = draft.history.first()
    assert (latest.history_user, latest.history_change_reason, latest.status) == (
        games_manager, "published", VersionStatus.PUBLISHED,
    )
    assert latest.history_date is not None


def test_a_new_draft_records_its_maker_on_the_version_and_its_lines(games_manager) -> None:
    draft = published(PayTableFactory).new_draft(actor=games_manager)
    assert draft.history.first().history_user == games_manager
    assert {line.history.first().history_user for line in draft.lines.all()} == {games_manager}


def test_opening_a_table_records_the_pit_boss(pit_boss) -> None:
    table = TableFactory(status="closed")
    response = _client(pit_boss).post(
        reverse("admin:tables_table_changelist"),
        {"action": "open_tables", "_selected_action": [table.pk]},
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == "open"
    assert table.history.first().history_user == pit_boss


def test_the_history_page_of_a_rule_set_renders_for_an_auditor(auditor) -> None:
    rule_set = RuleSet.objects.filter(status=VersionStatus.PUBLISHED).first()
    response = _client(auditor).get(reverse("admin:tables_ruleset_history", args=[rule_set.pk]))
    assert response.status_code == 200


def test_table_history_keeps_each_version_it_pointed_at(games_manager) -> None:
    table = TableFactory()
    old = table.rule_set
    new = old.new_draft(actor=games_manager)
    new.publish(actor=games_manager)
    table.rule_set = new
    table._history_user = games_manager
    table.save()
    assert [h.rule_set_id for h in Table.history.filter(id=table.pk).order_by("history_date")] == [old.pk, new.pk]


def test_the_seeded_versions_have_a_history_written_by_the_system() -> None:
    from tables.models import PayTable

    pay_table = PayTable.objects.get(game__slug="finnish-27", status=VersionStatus.PUBLISHED)
    rows = list(pay_table.history.order_by("history_date").values_list("history_type", "status", "history_user"))
    assert rows == [("+", VersionStatus.DRAFT, None), ("~", VersionStatus.PUBLISHED, None)]
    assert all(line.history.filter(history_type="+").exists() for line in pay_table.lines.all())


def test_a_tables_history_says_who_and_why_in_words(games_manager, demo_casino) -> None:
    # The walk-through: "None" for who created the table and for the reason, "Choose a date … to revert",
    # and an inline style the content-security policy refused.
    from django.test import Client

    from tests.factories import PASSWORD

    client = Client()
    assert client.login(username=games_manager.username, password=PASSWORD)
    table = demo_casino.tables["unlimited-blackjack"]
    html = client.get(f"/admin/tables/table/{table.pk}/history/").content.decode()
    rows = html.split('id="change-history"')[1].split("</table>")[0]
    assert "None" not in rows and ">system<" in rows and "—" in rows
    assert "Choose a date" not in html and "Every change to this record, newest first" in html
    assert 'style="' not in html.split('id="content"')[1]
