"""Roles: dealer, pit boss, games manager and auditor as groups; only games managers publish; auditors only read."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, Permission

from tables.access import AUDITOR, DEALER, GAMES_MANAGER, PIT_BOSS, ROLES, ensure_roles, resolve

pytestmark = pytest.mark.django_db

CONFIG = ("casino", "pit", "table", "game", "ruleset", "paytable", "payline")


def test_the_four_groups_exist_after_migrate() -> None:
    assert set(Group.objects.values_list("name", flat=True)) >= set(ROLES)


@pytest.mark.parametrize("perm", ["tables.publish_ruleset", "tables.publish_paytable"])
def test_only_games_managers_publish(perm, dealer, pit_boss, games_manager, auditor, outsider) -> None:
    assert games_manager.has_perm(perm)
    for user in (dealer, pit_boss, auditor, outsider):
        assert not user.has_perm(perm), user.username


def test_the_auditor_reads_every_model_and_changes_nothing(auditor) -> None:
    for model in apps.get_app_config("tables").get_models():
        assert auditor.has_perm(f"tables.view_{model._meta.model_name}"), model._meta.model_name
    held = {p.split(".", 1)[1] for p in auditor.get_all_permissions()}
    assert held and all(codename.startswith("view_") for codename in held)


def test_the_games_manager_edits_the_configuration_but_not_the_set_of_games(games_manager) -> None:
    for model in ("ruleset", "paytable", "payline", "table", "pit", "casino"):
        for action in ("add", "change", "delete", "view"):
            assert games_manager.has_perm(f"tables.{action}_{model}"), (action, model)
    assert games_manager.has_perm("tables.change_game")
    assert not games_manager.has_perm("tables.add_game")
    assert not games_manager.has_perm("tables.delete_game")


def test_the_pit_boss_opens_tables_but_never_edits_rules_or_pay_tables(pit_boss) -> None:
    assert pit_boss.has_perm("tables.change_table")
    assert pit_boss.has_perm("tables.view_ruleset")
    for perm in ("change_ruleset", "add_ruleset", "change_paytable", "change_payline", "add_table", "delete_table"):
        assert not pit_boss.has_perm(f"tables.{perm}"), perm


def test_the_dealer_reads_the_configuration_of_the_tables_only(dealer) -> None:
    for model in ("table", "game", "ruleset", "paytable", "payline"):
        assert dealer.has_perm(f"tables.view_{model}")
    for model in CONFIG:
        for action in ("add", "change", "delete"):
            assert not dealer.has_perm(f"tables.{action}_{model}")
    assert not dealer.is_staff


def test_an_outsider_has_no_permission(outsider) -> None:
    assert outsider.get_all_permissions() == set()


def test_ensure_roles_is_idempotent_and_resets_a_hand_edited_group() -> None:
    before = {g.name: set(g.permissions.values_list("pk", flat=True)) for g in Group.objects.filter(name__in=ROLES)}
    group = Group.objects.get(name=DEALER)
    group.permissions.add(Permission.objects.get(codename="publish_ruleset"))
    ensure_roles()
    ensure_roles()
    after = {g.name: set(g.permissions.values_list("pk", flat=True)) for g in Group.objects.filter(name__in=ROLES)}
    assert after == before
    assert Group.objects.filter(name__in=ROLES).count() == len(ROLES)


def test_a_pattern_matching_no_permission_is_an_error() -> None:
    with pytest.raises(LookupError):
        resolve(["tables.fly_*"], [("tables", "view_table")])


def test_pit_boss_and_auditor_groups_differ_only_by_changing_tables() -> None:
    perms = {
        name: set(Group.objects.get(name=name).permissions.values_list("codename", flat=True))
        for name in (PIT_BOSS, AUDITOR, GAMES_MANAGER)
    }
    assert perms[PIT_BOSS] - perms[AUDITOR] == {"change_table"}
    # The auditor reads all the games manager's configuration; sign-in attempts (django-axes) are for the
    # auditor and the pit boss only.
    sign_in = {p for p in perms[AUDITOR] if p.startswith("view_access")}
    assert {"view_accessattempt", "view_accesslog", "view_accessfailurelog"} <= sign_in
    assert not sign_in & perms[GAMES_MANAGER]
    assert perms[AUDITOR] - sign_in < perms[GAMES_MANAGER]
