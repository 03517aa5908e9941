"""The published rule sets and pay tables of every game, as rows: used by migration 0003 and ``seed_games``.

Written against ``get_model`` so the same code runs with a migration's historical models (which have
none of the models' methods) and with the live ones.  Idempotent: a game, rule set or pay table that
already exists is left as it is.  The values come from the engine (``PUBLISHED_RULES`` and
``PUBLISHED``), the single source of the rule texts' numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import timezone

from tables.engine.games import GAMES as REGISTRY
from tables.engine.paytable import PUBLISHED
from tables.engine.rulesets import PUBLISHED_RULES

GetModel = Callable[[str, str], Any]

SEED_NAME = "Rule text"  # the lineage holding each game's published rules and pay table, version 1
SEED_REASON = "seeded from the rule texts"

GAMES: tuple[tuple[str, str, str], ...] = tuple((g.slug, g.name, g.kind) for g in REGISTRY.values())


def _record(get_model: GetModel, obj: Any, history_type: str, reason: str) -> None:
    """Write a history row for ``obj`` (who: the system; when: now; what: its fields).

    Live models get their "+" rows from django-simple-history's signals; a migration's historical
    models send none, and ``update()`` never does, so those rows are written here.
    """
    name = type(obj).__name__
    if history_type == "+" and hasattr(type(obj), "history"):
        return  # live model: the post_save signal wrote it
    try:
        historical = get_model("tables", f"Historical{name}")
    except LookupError:
        return
    obj.refresh_from_db()
    fields = {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}
    historical.objects.create(
        **fields, history_date=timezone.now(), history_type=history_type, history_change_reason=reason,
        history_user=None,
    )


def seed_games(get_model: GetModel) -> dict[str, int]:
    """Create the five games and their published rule set and pay table; return counts of what was created."""
    Game = get_model("tables", "Game")
    RuleSet = get_model("tables", "RuleSet")
    PayTable = get_model("tables", "PayTable")
    PayLine = get_model("tables", "PayLine")
    created = {"games": 0, "rule_sets": 0, "pay_tables": 0, "pay_lines": 0}
    now = timezone.now()
    for slug, name, kind in GAMES:
        game, new = Game.objects.get_or_create(slug=slug, defaults={"name": name, "kind": kind})
        created["games"] += new
        if new:
            _record(get_model, game, "+", SEED_REASON)
        if not RuleSet.objects.filter(game=game, name=SEED_NAME, version=1).exists():
            rule_set = RuleSet.objects.create(
                game=game, name=SEED_NAME, version=1, status="published", published_at=now,
                params=PUBLISHED_RULES[slug].to_params(),
                notes=f"The published rules of shared/rules/ for {name}.",
            )
            _record(get_model, rule_set, "+", SEED_REASON)
            created["rule_sets"] += 1
        if not PayTable.objects.filter(game=game, name=SEED_NAME, version=1).exists():
            # Lines go into a draft, then the table is published: the database refuses lines added to
            # a published pay table (migration 0002).
            table = PayTable.objects.create(
                game=game, name=SEED_NAME, version=1, status="draft",
                notes=f"The pay table printed in the rule text of {name}."
                + ("" if PUBLISHED[slug] else " A player-vs-player game: no house pay lines."),
            )
            _record(get_model, table, "+", SEED_REASON)
            for position, line in enumerate(PUBLISHED[slug]):
                odds = line.odds
                pay_line = PayLine.objects.create(
                    pay_table=table, name=line.name, label=line.label, position=position,
                    kind="odds" if odds is not None else "table_minimum",
                    odds_numerator=odds.numerator if odds is not None else None,
                    odds_denominator=odds.denominator if odds is not None else None,
                    table_minimum=line.table_minimum,
                )
                _record(get_model, pay_line, "+", SEED_REASON)
                created["pay_lines"] += 1
            PayTable.objects.filter(pk=table.pk).update(status="published", published_at=now)
            _record(get_model, table, "~", "published")
            created["pay_tables"] += 1
    return created


def unseed_games(get_model: GetModel) -> None:
    """Remove what ``seed_games`` created (fails while tables still use those versions)."""
    Game = get_model("tables", "Game")
    RuleSet = get_model("tables", "RuleSet")
    PayTable = get_model("tables", "PayTable")
    PayLine = get_model("tables", "PayLine")
    slugs = [slug for slug, _, _ in GAMES]
    # Raw deletes: the collector trips over a migration state's re-rendered related models; the
    # database's foreign keys still refuse to delete versions a table or round uses.
    for qs in (
        PayLine.objects.filter(pay_table__game__slug__in=slugs, pay_table__name=SEED_NAME, pay_table__version=1),
        PayTable.objects.filter(game__slug__in=slugs, name=SEED_NAME, version=1),
        RuleSet.objects.filter(game__slug__in=slugs, name=SEED_NAME, version=1),
        Game.objects.filter(slug__in=slugs, rule_sets__isnull=True, pay_tables__isnull=True),
    ):
        qs.model.objects.filter(pk__in=list(qs.values_list("pk", flat=True)))._raw_delete(qs.db)
