"""The roles as Django groups, with their permissions defined here in code.

``ensure_roles()`` makes each group hold exactly the permissions below (so it is idempotent and a
permission removed here is removed from the group).  It runs after every ``migrate`` (post_migrate,
see ``TablesConfig.ready``) and from ``seed_games``.  A group edited by hand in the admin is reset by
the next migrate: roles are part of the code, reviewed like it.

Patterns: ``"tables.view_*"`` expands to every view permission of the app, historical records and
models added later (rounds, audits) included, so an auditor reads everything without edits here.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied

if TYPE_CHECKING:
    from tables.models import Table

DEALER = "Dealer"
PIT_BOSS = "Pit boss"
GAMES_MANAGER = "Games manager"
AUDITOR = "Auditor"
CAGE_CASHIER = "Cage cashier"
COUNT_TEAM = "Count team"
ROLES = (DEALER, PIT_BOSS, GAMES_MANAGER, AUDITOR, CAGE_CASHIER, COUNT_TEAM)

# Configuration models the games manager maintains (add/change/delete/view).
_MANAGED = ("casino", "pit", "table", "ruleset", "paytable", "payline")


def _crud(model: str) -> list[str]:
    return [f"tables.{action}_{model}" for action in ("add", "change", "delete", "view")]


ROLE_PERMISSIONS: dict[str, list[str]] = {
    # The dealer reads the configuration of the tables (rules and pay tables they deal under).
    DEALER: [
        "tables.view_table", "tables.view_game", "tables.view_ruleset", "tables.view_paytable",
        "tables.view_payline",
    ],
    # The pit boss watches the whole floor and opens/closes tables; never edits rules or pay tables.
    # Sees sign-in attempts and lockouts (a dealer locked out at the start of a shift).
    PIT_BOSS: ["tables.view_*", "tables.change_table", "axes.view_*"],
    # Only the games manager edits configuration and publishes rule sets and pay tables.  Games are
    # the five of the rule texts: their names may change, the set may not.
    GAMES_MANAGER: [
        "tables.view_*",
        *[perm for model in _MANAGED for perm in _crud(model)],
        "tables.change_game",
        "tables.add_deckdesign",  # deck designs are enrolled, never edited (a new set of scans is a new design)
        "tables.publish_ruleset",
        "tables.publish_paytable",
    ],
    # The auditor reads everything and changes nothing; sign-in attempts and lockouts (django-axes) too.
    AUDITOR: ["tables.view_*", "axes.view_*"],
    # Table accounting (docs/accounting.md).  The cage issues fills and credits (and voids them); it sees
    # the tables and the accounting, nothing of the rounds.
    CAGE_CASHIER: ["tables.view_table", "tables.view_slip", "tables.view_accounting"],
    # The count team counts the drop boxes and enters the drop (per table and shift).
    COUNT_TEAM: ["tables.view_table", "tables.view_accounting", "tables.view_dropcount", "tables.add_dropcount"],
}


def resolve(patterns: list[str], available: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """The (app_label, codename) pairs of ``available`` matched by ``patterns`` ("app.codename", * allowed)."""
    wanted: set[tuple[str, str]] = set()
    for pattern in patterns:
        app_label, _, codename = pattern.partition(".")
        matches = {(a, c) for a, c in available if a == app_label and fnmatchcase(c, codename)}
        if not matches:
            raise LookupError(f"no permission matches {pattern!r}; run migrate first")
        wanted |= matches
    return wanted


def ensure_roles(using: str = "default") -> dict[str, int]:
    """Create or update the role groups so each holds exactly its permissions; return the counts."""
    from django.contrib.auth.models import Group, Permission

    perms = {
        (p.content_type.app_label, p.codename): p
        for p in Permission.objects.using(using).select_related("content_type")
    }
    counts: dict[str, int] = {}
    for role in ROLES:
        group, _ = Group.objects.using(using).get_or_create(name=role)
        keys = resolve(ROLE_PERMISSIONS[role], list(perms))
        group.permissions.set([perms[k] for k in keys])
        counts[role] = len(keys)
    return counts


def ensure_roles_after_migrate(sender: Any, using: str = "default", **kwargs: Any) -> None:
    """post_migrate hook: the tables app's permissions exist by now (auth's hook runs first)."""
    from django.contrib.auth.models import Permission

    if not Permission.objects.using(using).filter(content_type__app_label="tables").exists():
        return  # migrated to zero, or the app's models are not there
    ensure_roles(using=using)


# ---------------------------------------------------------------------------------------------
# Rights: who may act where


# Roles as the rights below name them: a group's name normalised ("Pit boss" -> "pit_boss").
DEALER_ROLE, PIT_BOSS_ROLE, AUDITOR_ROLE, GAMES_MANAGER_ROLE = "dealer", "pit_boss", "auditor", "games_manager"
CAGE_CASHIER_ROLE, COUNT_TEAM_ROLE = "cage_cashier", "count_team"


def roles_of(user: Any) -> set[str]:
    """The roles of a user: the names of their groups, normalised (``Pit boss`` → ``pit_boss``)."""
    if not getattr(user, "is_authenticated", False):
        return set()
    cached = getattr(user, "_casino_roles", None)
    if cached is None:
        cached = {g.replace(" ", "_").replace("-", "_").lower() for g in user.groups.values_list("name", flat=True)}
        if user.is_superuser:
            cached.add(PIT_BOSS_ROLE)
        user._casino_roles = cached
    return cached


# Any of the casino's roles may read the floor (tables, rounds, their trails); other accounts may not.
READ_ROLES = {DEALER_ROLE, PIT_BOSS_ROLE, AUDITOR_ROLE, GAMES_MANAGER_ROLE, "shift_manager"}


def check_can_read(user: Any) -> None:
    """Any of the casino roles may read the floor; other accounts may not."""
    if not roles_of(user) & READ_ROLES:
        raise PermissionDenied("you have no role at this casino")


def is_pit_boss(user: Any) -> bool:
    """Pit bosses and shift managers approve, correct after settlement and act at any table."""
    return bool(roles_of(user) & {PIT_BOSS_ROLE, "shift_manager"})


def holds_table(user: Any, table: Table) -> bool:
    """Whether ``user`` is the dealer holding ``table`` now."""
    from tables.models import TableSession  # late: the app registry is ready by the time rights are asked

    return TableSession.objects.filter(table=table, dealer=user, closed_at__isnull=True).exists()


def check_right(actor: Any, table: Table) -> None:
    """Refuse (``PermissionDenied``) unless the actor may write at this table.

    A pit boss may act at any table; a dealer only at the table they hold; nobody else writes.
    """
    if is_pit_boss(actor):
        return
    if DEALER_ROLE in roles_of(actor) and holds_table(actor, table):
        return
    if DEALER_ROLE in roles_of(actor):
        raise PermissionDenied(f"you are not the dealer at {table}")
    raise PermissionDenied("only the table's dealer or a pit boss may do this")


def check_pit_boss(actor: Any) -> None:
    """Refuse unless the actor is a pit boss."""
    if not is_pit_boss(actor):
        raise PermissionDenied("this needs a pit boss")


def is_cage_cashier(user: Any) -> bool:
    """The cage issues fills and credits (a superuser may act for it)."""
    return CAGE_CASHIER_ROLE in roles_of(user) or bool(getattr(user, "is_superuser", False))


def is_count_team(user: Any) -> bool:
    """The count team enters the drop (a superuser may act for it)."""
    return COUNT_TEAM_ROLE in roles_of(user) or bool(getattr(user, "is_superuser", False))


def check_cage_cashier(actor: Any) -> None:
    """Refuse unless the actor works the cage."""
    if not is_cage_cashier(actor):
        raise PermissionDenied("this needs a cage cashier")


def check_count_team(actor: Any) -> None:
    """Refuse unless the actor is on the count team."""
    if not is_count_team(actor):
        raise PermissionDenied("this needs the count team")
