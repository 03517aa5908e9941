"""The back office's configuration: casinos, pits, tables, games, and versioned rule sets and pay tables.

Versioning: a rule set or pay table is a *version* (game, name, version).  A draft may be edited; a
published version never changes again (refused here in ``save``/``delete``, read-only in the admin,
and refused by a database trigger, see migration 0002).  "Editing" a published version makes a new
draft with the next version number (``new_draft``).  A table points at published versions only, so
each round played there can name exactly the rules and pay table it was played under, and a table
keeps its versions when newer ones are published.

Validation of rule-set parameters lives in the pure ``tables.engine.rulesets``; the line names of
each game's pay table in ``tables.engine.paytable.PUBLISHED``.  This module maps their
``InvalidInput`` errors to Django ``ValidationError``s naming the field, and adds nothing of its own
to the rules.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import MinValueValidator
from django.db import models, transaction
from django.db.models import Max, Q
from django.utils import timezone
from simple_history.models import HistoricalRecords

from tables.days import day_text
from tables.engine import paytable as engine_paytable
from tables.engine.errors import InvalidInput
from tables.engine.games import GAMES as GAMES_REGISTRY
from tables.engine.money import parse_odds
from tables.engine.rulesets import ShoeRules, rules_from_params

# The games of shared/rules/, from the one registry (tables.engine.games): FINNISH_27 = "finnish-27", ...
# (Built at import from the registry: no members for a type checker to see.)
GameSlug = models.TextChoices(  # type: ignore[call-overload]
    "GameSlug", [(g.slug.replace("-", "_").upper(), (g.slug, g.name))
                 for g in GAMES_REGISTRY.values()],
)


class GameKind(models.TextChoices):
    """Who the players play against."""

    HOUSE_BANKED = "house-banked", "House-banked (player vs dealer)"
    POT = "pot", "Pot game (player vs player)"
    SCORING = "scoring", "Scoring game (player vs player)"


# The kind of each game, from the registry (the table in shared/rules/README.md).
GAME_KINDS: dict[str, str] = {g.slug: g.kind for g in GAMES_REGISTRY.values()}


class VersionStatus(models.TextChoices):
    """A draft may change; a published version never does."""

    DRAFT = "draft", "Draft"
    PUBLISHED = "published", "Published"


class TableStatus(models.TextChoices):
    """Whether the table is open for play."""

    OPEN = "open", "Open"
    CLOSED = "closed", "Closed"


class PayLineKind(models.TextChoices):
    """How a pay line pays: odds on the wager, or a fixed multiple of the table minimum."""

    ODDS = "odds", "Odds a:b on the wager"
    TABLE_MINIMUM = "table_minimum", "Multiple of the table minimum"


class PublishedVersionError(ValidationError):
    """A published rule set or pay table cannot be changed or deleted; make a new draft instead."""


def game_line_names(game_slug: str) -> tuple[str, ...]:
    """The pay-line names a game defines, in printed order (single source: the engine's PUBLISHED)."""
    return tuple(line.name for line in engine_paytable.PUBLISHED.get(game_slug, ()))


def canonical_line_name(name: str) -> str:
    """The canonical spelling of a pay-line name (the engine accepts a few aliases)."""
    return engine_paytable.ALIASES.get(name, name)


class Game(models.Model):
    """One of the five games; its rules live in rule-set versions."""

    slug = models.SlugField(max_length=40, unique=True, choices=GameSlug.choices)
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=20, choices=GameKind.choices)
    description = models.TextField(blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The kind follows from the game (shared/rules/README.md)."""
        expected = GAME_KINDS.get(self.slug)
        if expected is not None and self.kind != expected:
            raise ValidationError({"kind": f"{self.slug} is a {GameKind(expected).label} game."})

    @property
    def line_names(self) -> tuple[str, ...]:
        """The pay lines this game's pay tables must hold."""
        return game_line_names(self.slug)


class Casino(models.Model):
    """A casino: the top of the floor hierarchy."""

    name = models.CharField(max_length=100, unique=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Pit(models.Model):
    """A pit: a group of tables under one pit boss."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="pits")
    name = models.CharField(max_length=100)

    history = HistoricalRecords()

    class Meta:
        ordering = ["casino__name", "name"]
        constraints = [models.UniqueConstraint(fields=["casino", "name"], name="pit_unique_name_per_casino")]

    def __str__(self) -> str:
        return f"{self.casino} / {self.name}"


# The lineage holding each game's published rules and pay table as seeded (migration 0004, services/seed.py).
DEFAULT_LINEAGE = "Rule text"


class VersionedConfig(models.Model):
    """Common fields and behaviour of rule-set and pay-table versions."""

    name = models.CharField(max_length=100, help_text="Versions of the same game and name form one lineage.")
    version = models.PositiveIntegerField(editable=False, blank=True)
    status = models.CharField(
        max_length=10, choices=VersionStatus.choices, default=VersionStatus.DRAFT, editable=False
    )
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    published_at = models.DateTimeField(null=True, blank=True, editable=False)
    # PROTECT: who published a version is part of the audit trail; deactivate users, never delete them.
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, editable=False,
        related_name="+",
    )

    game: models.ForeignKey[Game, Game]
    game_id: int
    publish_permission: str  # "tables.publish_<model>"

    class Meta:
        abstract = True
        ordering = ["game__name", "name", "-version"]

    def __str__(self) -> str:
        # "No-Bust Finnish 27 pay table v3 (published 2026-11-20)": what the version is, read by a person.
        # The lineage's own name is added when it is not the one every seeded version shares.
        game = self.game.name if self.game_id is not None else "?"
        lineage = "" if self.name in ("", DEFAULT_LINEAGE) else f" \u201c{self.name}\u201d"
        return f"{game} {self._meta.verbose_name}{lineage} v{self.version} ({self.state_text})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save a draft; refuse any change to a published version; number new versions in their lineage."""
        if self._stored_status() == VersionStatus.PUBLISHED:
            raise PublishedVersionError(
                f"{self} is published and cannot change; make a new draft version instead.", code="published"
            )
        if self.version is None:
            self.version = self._next_version()
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        """Delete a draft; a published version stays for the rounds played under it."""
        if self._stored_status() == VersionStatus.PUBLISHED:
            raise PublishedVersionError(f"{self} is published and cannot be deleted.", code="published")
        return super().delete(*args, **kwargs)

    @property
    def is_published(self) -> bool:
        """Whether this version is published (and so immutable)."""
        return self.status == VersionStatus.PUBLISHED

    @property
    def state_text(self) -> str:
        """"draft", or "published" with its date."""
        if self.status == VersionStatus.PUBLISHED and self.published_at is not None:
            return f"published {day_text(timezone.localtime(self.published_at).date())}"  # Thu 26 Nov 2026, not ISO
        return self.get_status_display().lower()

    def _stored_status(self) -> str | None:
        if self._state.adding or self.pk is None:
            return None
        return type(self)._base_manager.filter(pk=self.pk).values_list("status", flat=True).first()

    def _next_version(self) -> int:
        top = type(self)._base_manager.filter(self._lineage()).aggregate(m=Max("version"))["m"]
        return (top or 0) + 1

    def _lineage(self) -> Q:
        """This version's lineage: its game's versions of its name.  (A ``Q``: the game's foreign key
        is declared on each concrete model, which the type checker cannot see from this abstract one.)"""
        return Q(game_id=self.game_id, name=self.name)

    def check_publishable(self) -> None:
        """Raise ``ValidationError`` if this version may not be published as it stands."""
        self.full_clean()

    def _copy_children(self, draft: Any) -> None:
        """Copy what hangs off this version (pay lines) onto ``draft``."""

    def _draft_fields(self) -> dict[str, Any]:
        return {"game": self.game, "name": self.name, "notes": self.notes}

    @transaction.atomic
    def publish(self, *, actor: Any | None) -> None:
        """Publish this draft; ``actor`` needs the publish permission (``None``: the system, when seeding)."""
        if actor is not None and not actor.has_perm(self.publish_permission):
            raise PermissionDenied(f"{actor} may not publish {self._meta.verbose_name_plural}.")
        # Lock the row: two managers publishing (or editing) the same draft at once must not interleave.
        locked = type(self)._base_manager.select_for_update().get(pk=self.pk)
        if locked.status == VersionStatus.PUBLISHED:
            raise PublishedVersionError(f"{self} is already published.", code="published")
        self.check_publishable()
        self.status = VersionStatus.PUBLISHED
        self.published_at = timezone.now()
        self.published_by = actor
        self._history_user = actor
        self._change_reason = "published"
        self.save()

    @transaction.atomic
    def new_draft(self, *, actor: Any | None) -> VersionedConfig:
        """A new draft version of this lineage, copied from this version (lines included)."""
        add_permission = f"{self._meta.app_label}.add_{self._meta.model_name}"
        if actor is not None and not actor.has_perm(add_permission):
            raise PermissionDenied(f"{actor} may not create {self._meta.verbose_name_plural}.")
        # Lock the lineage so two drafts made at once get distinct version numbers (the unique
        # constraint is the backstop).
        list(type(self)._base_manager.select_for_update().filter(self._lineage()))
        draft = type(self)(**self._draft_fields())
        draft._history_user = actor
        draft._change_reason = f"new draft from v{self.version}"
        draft.save()
        self._copy_children(draft)
        return draft


class RuleSet(VersionedConfig):
    """A version of a game's rules: the parameters of ``tables.engine.rulesets`` as a JSON object."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="rule_sets")
    params = models.JSONField(
        default=dict, blank=True,
        help_text="The game's rule parameters as a JSON object; a missing key takes the published value.",
    )

    history = HistoricalRecords()
    publish_permission = "tables.publish_ruleset"

    class Meta(VersionedConfig.Meta):
        verbose_name = "rule set"
        constraints = [models.UniqueConstraint(fields=["game", "name", "version"], name="ruleset_unique_version")]
        permissions = [("publish_ruleset", "Can publish a rule set")]

    def rules(self) -> ShoeRules:
        """The engine's frozen rules of this version."""
        return rules_from_params(self.game.slug, self.params)

    def clean(self) -> None:
        """Validate the parameters with the engine and store them complete."""
        if self.game_id is None:
            return
        try:
            rules = rules_from_params(self.game.slug, self.params)
        except InvalidInput as exc:
            # Not code="invalid": a form field would swap in its own generic "Enter a valid JSON."
            raise ValidationError(
                {"params": ValidationError("%(parameter)s: %(message)s", code="invalid_parameter",
                                           params={"parameter": exc.field or "params", "message": exc.message})}
            ) from exc
        # Store every parameter, defaults included: a version must keep its meaning even if the
        # engine's defaults change later.
        self.params = rules.to_params()

    def _draft_fields(self) -> dict[str, Any]:
        return {**super()._draft_fields(), "params": dict(self.params)}


class PayTable(VersionedConfig):
    """A version of a game's pay table; its lines are ``PayLine`` rows."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="pay_tables")

    history = HistoricalRecords()
    publish_permission = "tables.publish_paytable"

    class Meta(VersionedConfig.Meta):
        verbose_name = "pay table"
        constraints = [models.UniqueConstraint(fields=["game", "name", "version"], name="paytable_unique_version")]
        permissions = [("publish_paytable", "Can publish a pay table")]

    def as_engine_json(self) -> dict[str, Any]:
        """The ``{"lines": [{"name", "pays"}]}`` document of the verify contract (shared/DESIGN.md)."""
        return {"lines": [line.as_engine_json() for line in self.lines.all()]}

    def engine_table(self) -> engine_paytable.PayTable:
        """The engine's pay table of this version."""
        return engine_paytable.PayTable.from_json(self.game.slug, self.as_engine_json())

    def check_publishable(self) -> None:
        """A published pay table holds every line of its game, each valid, none twice."""
        super().check_publishable()
        lines = list(self.lines.all())
        for line in lines:
            line.full_clean()
        check_line_names(self.game.slug, [line.name for line in lines])

    def _copy_children(self, draft: Any) -> None:
        for line in self.lines.all():
            copy = PayLine(
                pay_table=draft, name=line.name, label=line.label, kind=line.kind, position=line.position,
                odds_numerator=line.odds_numerator, odds_denominator=line.odds_denominator,
                table_minimum=line.table_minimum,
            )
            copy._history_user = getattr(draft, "_history_user", None)
            copy.save()


def check_line_names(game_slug: str, names: list[str]) -> None:
    """Raise ``ValidationError`` naming any unknown, repeated or missing line of ``game_slug``."""
    known = game_line_names(game_slug)
    canonical = [canonical_line_name(n) for n in names]
    unknown = sorted({n for n in canonical if n not in known})
    if unknown:
        raise ValidationError(
            f"Unknown pay line(s) for {game_slug}: {', '.join(unknown)}. Known: {', '.join(known)}.",
            code="unknown_line",
        )
    twice = sorted({n for n in canonical if canonical.count(n) > 1})
    if twice:
        raise ValidationError(f"Pay line(s) given twice: {', '.join(twice)}.", code="duplicate_line")
    missing = [n for n in known if n not in canonical]
    if missing:
        raise ValidationError(
            f"The pay table is missing line(s) its game defines: {', '.join(missing)}.", code="missing_line"
        )


ODDS_TERM_MAX = 1_000_000  # the largest term of a pay line's odds a:b in lowest terms (10,000:1 jackpots fit)


class PayLine(models.Model):
    """One line of a pay table: odds a:b on the wager, or N times the table minimum."""

    pay_table = models.ForeignKey(PayTable, on_delete=models.CASCADE, related_name="lines")
    name = models.CharField(max_length=60, help_text="The line's fixed name in the game, e.g. perfect-pairs/mixed.")
    label = models.CharField(max_length=120, blank=True)
    kind = models.CharField(max_length=20, choices=PayLineKind.choices, default=PayLineKind.ODDS)
    odds_numerator = models.PositiveIntegerField(null=True, blank=True)
    odds_denominator = models.PositiveIntegerField(null=True, blank=True)
    table_minimum = models.PositiveIntegerField(
        null=True, blank=True, help_text="For a table-minimum line: pays this many table minimums."
    )
    position = models.PositiveSmallIntegerField(default=0, help_text="Order on the printed pay table.")

    history = HistoricalRecords()
    _history_user: Any  # simple_history: the user its next history row names (set before a save)

    class Meta:
        ordering = ["pay_table_id", "position", "id"]
        verbose_name = "pay line"
        constraints = [
            models.UniqueConstraint(fields=["pay_table", "name"], name="payline_unique_name"),
            models.CheckConstraint(
                condition=(
                    Q(kind=PayLineKind.ODDS, odds_numerator__gt=0, odds_denominator__gt=0, table_minimum__isnull=True)
                    | Q(kind=PayLineKind.TABLE_MINIMUM, table_minimum__gt=0,
                        odds_numerator__isnull=True, odds_denominator__isnull=True)
                ),
                name="payline_pays_positive",
                violation_error_message="A line pays positive odds a:b or a positive multiple of the table minimum.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.pays_text}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Lines of a published pay table never change."""
        if self._published_parent():
            raise PublishedVersionError("The lines of a published pay table cannot change.", code="published")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        """Lines of a published pay table are never deleted."""
        if self._published_parent():
            raise PublishedVersionError("The lines of a published pay table cannot be deleted.", code="published")
        return super().delete(*args, **kwargs)

    def _published_parent(self) -> bool:
        return PayTable._base_manager.filter(pk=self.pay_table_id, status=VersionStatus.PUBLISHED).exists()

    @property
    def odds_text(self) -> str:
        """The odds as ``"a:b"`` ("" for a table-minimum line)."""
        if self.odds_numerator is None or self.odds_denominator is None:
            return ""
        return f"{self.odds_numerator}:{self.odds_denominator}"

    @property
    def pays_text(self) -> str:
        """What the line pays, as printed."""
        if self.kind == PayLineKind.TABLE_MINIMUM:
            return f"{self.table_minimum}x table minimum"
        return self.odds_text

    def set_odds(self, text: str) -> None:
        """Set the odds from ``"a:b"``; raise ``ValidationError`` on ``odds`` if not positive numbers."""
        try:
            odds = parse_odds(text, field="odds")
        except InvalidInput as exc:
            raise ValidationError({"odds": exc.message}) from exc
        # Stored as two whole numbers (a database integer each): a term past any real pay table is refused
        # here, in words, rather than failing the save (odds of 10**21:1 were a 500 in the back office).
        if max(odds.numerator, odds.denominator) > ODDS_TERM_MAX:
            raise ValidationError({"odds": f"odds {text.strip()!r} are out of range: each side, in lowest terms, "
                                           f"must be at most {ODDS_TERM_MAX:,}"})
        self.odds_numerator, self.odds_denominator = odds.numerator, odds.denominator

    def as_engine_json(self) -> dict[str, Any]:
        """``{"name", "pays": {"odds": "a:b"} | {"table_minimum": N}}`` as in the verify contract."""
        if self.kind == PayLineKind.TABLE_MINIMUM:
            return {"name": self.name, "pays": {"table_minimum": self.table_minimum}}
        return {"name": self.name, "pays": {"odds": self.odds_text}}

    def clean(self) -> None:
        """A known line name of the game; positive odds or a positive table-minimum multiple."""
        errors: dict[str, str] = {}
        self.name = canonical_line_name(self.name.strip())
        try:
            parent: PayTable | None = self.pay_table  # may be unsaved (a line added with its table)
        except PayTable.DoesNotExist:
            parent = None
        if parent is not None and parent.game_id is not None:
            known = game_line_names(parent.game.slug)
            if self.name not in known:
                errors["name"] = (
                    f"{self.name!r} is not a pay line of {parent.game.slug}; known: "
                    f"{', '.join(known) or 'none (this game has no house pay lines)'}."
                )
        if self.kind == PayLineKind.ODDS:
            if not (self.odds_numerator and self.odds_denominator):
                errors["odds"] = "Odds must be positive, e.g. 3:2 (got " + (self.odds_text or "nothing") + ")."
            self.table_minimum = None
        elif self.kind == PayLineKind.TABLE_MINIMUM:
            if not self.table_minimum:
                errors["table_minimum"] = "A table-minimum line pays a positive whole number of table minimums."
            self.odds_numerator = self.odds_denominator = None
        if errors:
            raise ValidationError(errors)

class Table(models.Model):
    """A table on the floor: its game, the published rule set and pay table it plays, and its limits."""

    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="tables")
    rule_set = models.ForeignKey(
        RuleSet, on_delete=models.PROTECT, related_name="tables",
        limit_choices_to={"status": VersionStatus.PUBLISHED},
        help_text="A published version; the table keeps it until you choose another.",
    )
    pay_table = models.ForeignKey(
        PayTable, on_delete=models.PROTECT, related_name="tables",
        limit_choices_to={"status": VersionStatus.PUBLISHED},
        help_text="A published version; the table keeps it until you choose another.",
    )
    min_bet = models.DecimalField(max_digits=12, decimal_places=2, validators=[MinValueValidator(Decimal("0.01"))])
    max_bet = models.DecimalField(max_digits=12, decimal_places=2, validators=[MinValueValidator(Decimal("0.01"))])
    # Side bets (Perfect Pairs, 21+3) and bets behind have limits of their own; empty means the main limits.
    side_bet_min = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True,
                                       validators=[MinValueValidator(Decimal("0.01"))],
                                       help_text="Smallest side bet (Perfect Pairs, 21+3); empty: the minimum bet.")
    side_bet_max = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True,
                                       validators=[MinValueValidator(Decimal("0.01"))],
                                       help_text="Largest side bet; empty: the maximum bet.")
    behind_min = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True,
                                     validators=[MinValueValidator(Decimal("0.01"))],
                                     help_text="Smallest bet behind; empty: the minimum bet.")
    behind_max = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True,
                                     validators=[MinValueValidator(Decimal("0.01"))],
                                     help_text="Largest bet behind; empty: the maximum bet.")
    max_bets_behind = models.PositiveSmallIntegerField(default=3, help_text="Bets behind one seat, at most.")
    deck_design = models.ForeignKey(
        "tables.DeckDesign", on_delete=models.PROTECT, null=True, blank=True, related_name="tables",
        help_text="The card design dealt here, as the reader learned it (empty: the generic reader).",
    )
    status = models.CharField(max_length=10, choices=TableStatus.choices, default=TableStatus.CLOSED)

    history = HistoricalRecords()

    class Meta:
        ordering = ["pit__casino__name", "pit__name", "number"]
        constraints = [
            models.UniqueConstraint(fields=["pit", "number"], name="table_unique_number_per_pit"),
            models.CheckConstraint(condition=Q(min_bet__gt=0), name="table_min_bet_positive",
                                   violation_error_message="The minimum bet must be positive."),
            models.CheckConstraint(condition=Q(max_bet__gte=models.F("min_bet")), name="table_min_not_above_max",
                                   violation_error_message="The minimum bet is above the maximum bet."),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} ({self.game.name if self.game_id else '?'})"  # the game's name: shown in the back office

    def limits(self, kind: str) -> tuple[Decimal, Decimal]:
        """The (minimum, maximum) of a bet kind at this table: main and ante, a side bet, or ``behind``."""
        if kind in ("perfect-pairs", "21+3"):
            return self.side_bet_min or self.min_bet, self.side_bet_max or self.max_bet
        if kind == "behind":
            return self.behind_min or self.min_bet, self.behind_max or self.max_bet
        return self.min_bet, self.max_bet

    def clean(self) -> None:
        """Limits in order; rule set and pay table published and of the table's game."""
        errors: dict[str, str] = {}
        if self.min_bet is not None and self.max_bet is not None and self.min_bet > self.max_bet:
            errors["min_bet"] = f"The minimum bet ({self.min_bet}) is above the maximum bet ({self.max_bet})."
        for lo, hi in (("side_bet_min", "side_bet_max"), ("behind_min", "behind_max")):
            a, b = getattr(self, lo), getattr(self, hi)
            if a is not None and b is not None and a > b:
                errors[lo] = f"The minimum ({a}) is above the maximum ({b})."
        if self.game_id is not None:
            for field in ("rule_set", "pay_table"):
                version = getattr(self, field) if getattr(self, f"{field}_id") is not None else None
                if version is None:
                    continue
                if version.game_id != self.game_id:
                    errors[field] = f"{version} is for {version.game.slug}, not for {self.game.slug}."
                elif not version.is_published:
                    errors[field] = f"{version} is a draft; a table plays published versions only."
        if errors:
            raise ValidationError(errors)
