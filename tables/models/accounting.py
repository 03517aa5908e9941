"""Records of table accounting and player ratings.

Slips (``Slip``): the opener and closer inventories of a table's shift, and the fills and credits
between the cage and the table.  Each is numbered in sequence per casino and kind, and is
append-only (database triggers, migration 0014): its steps are ``SlipSignature`` rows (the dealer's
and the supervisor's signatures on an inventory; requested, issued and received on a fill or
credit), a void is a ``SlipVoid`` row that keeps the original, and a corrected slip is a new slip
naming the voided one it ``replaces``.  Nothing is ever updated or deleted.

Ratings: a ``Player`` (card number or name) seated at a seat of a table by a ``RatingSlip`` that opens,
pauses (``RatingPause`` rows) and closes; the rating itself is computed from the wagers stored for
that seat while the slip was open (``tables.services.accounting.rating_of``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .money import MONEY


class SlipKind(models.TextChoices):
    OPENER = "opener", "opener (inventory at the start of the shift)"
    CLOSER = "closer", "closer (inventory at the end of the shift)"
    FILL = "fill", "fill (chips from the cage to the table)"
    CREDIT = "credit", "credit (chips from the table to the cage)"


INVENTORY_KINDS = (SlipKind.OPENER, SlipKind.CLOSER)
TRANSFER_KINDS = (SlipKind.FILL, SlipKind.CREDIT)


class SlipStep(models.TextChoices):
    DEALER = "dealer", "signed by the dealer"
    SUPERVISOR = "supervisor", "signed by the supervisor"
    REQUESTED = "requested", "requested by the pit"
    ISSUED = "issued", "issued by the cage"
    RECEIVED = "received", "received at the table"


class Slip(models.Model):
    """An inventory (opener, closer), fill or credit slip of one table and shift: chips by denomination."""

    casino = models.ForeignKey("tables.Casino", on_delete=models.PROTECT, related_name="slips")
    kind = models.CharField(max_length=10, choices=SlipKind.choices)
    number = models.PositiveIntegerField(help_text="1, 2, ... per casino and kind, without gaps")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="slips")
    gaming_day = models.DateField()
    shift = models.CharField(max_length=20, help_text="day, swing, graveyard")
    chips = models.JSONField(help_text="denomination -> number of chips")
    total = models.DecimalField(**MONEY)
    replaces = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="replaced_by", help_text="the voided slip this one corrects")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-gaming_day", "table", "kind", "number"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "kind", "number"], name="slip_number_per_casino_kind"),
            models.CheckConstraint(condition=models.Q(total__gte=0), name="slip_total_not_negative"),
        ]
        indexes = [models.Index(fields=["table", "gaming_day", "shift"])]
        permissions = [("view_accounting", "Can see table accounting and player ratings")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.number} table {self.table_id} {self.gaming_day} {self.shift}: {self.total}"


class SlipSignature(models.Model):
    """One step of a slip, by one person (a slip's steps are unique: each is signed once)."""

    slip = models.ForeignKey(Slip, on_delete=models.PROTECT, related_name="signatures")
    step = models.CharField(max_length=12, choices=SlipStep.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["slip_id", "at", "id"]
        constraints = [models.UniqueConstraint(fields=["slip", "step"], name="slip_step_once")]

    def __str__(self) -> str:
        return f"slip {self.slip_id} {self.step} by {self.by_id}"


class SlipVoid(models.Model):
    """The void of a slip: the slip stays on record, out of every total."""

    slip = models.OneToOneField(Slip, on_delete=models.PROTECT, related_name="void")
    reason = models.CharField(max_length=300)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"void of slip {self.slip_id}: {self.reason[:40]}"


def player_display_name(name: str | None, card_number: str | None) -> str:
    """How a player is named on every page, report and export: ``Ada (card C-1001)``, ``Ada`` or ``card C-1001``.

    The one rule (the dashboard, the tablet, the report's HTML, PDF and CSV all call it): the name a pit boss
    knows the player by, with the loyalty card that tells two players of one name apart.
    """
    name, card = (name or "").strip(), (card_number or "").strip()
    if name and card:
        return f"{name} (card {card})"
    return name or (f"card {card}" if card else "unnamed player")


class Player(models.Model):
    """A rated player: by card number (a loyalty card) or, without a card, by name."""

    card_number = models.CharField(max_length=40, null=True, blank=True, unique=True)
    name = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "card_number"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(card_number=None) | ~models.Q(name=""),
                                   name="player_has_card_or_name"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        return player_display_name(self.name, self.card_number)


class RatingState(models.TextChoices):
    OPEN = "open", "playing"
    PAUSED = "paused", "paused (away from the table)"
    CLOSED = "closed", "closed"


class RatingSlip(models.Model):
    """A player seated at a seat of a table, from sitting down to leaving; pauses are ``RatingPause`` rows."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="rating_slips")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="rating_slips")
    seat = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=10, choices=RatingState.choices, default=RatingState.OPEN)
    opened_at = models.DateTimeField(auto_now_add=True)
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+")

    class Meta:
        ordering = ["-opened_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], condition=~models.Q(state="closed"),
                                    name="one_rated_player_per_seat"),
            models.UniqueConstraint(fields=["player"], condition=~models.Q(state="closed"),
                                    name="one_open_rating_per_player"),
        ]
        indexes = [models.Index(fields=["table", "seat", "opened_at"])]

    def __str__(self) -> str:
        return f"{self.player} at table {self.table_id} seat {self.seat}"


class RatingPause(models.Model):
    """A pause of a rating slip (the player away): its rounds and time do not count."""

    slip = models.ForeignKey(RatingSlip, on_delete=models.CASCADE, related_name="pauses")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["slip_id", "started_at"]

    def __str__(self) -> str:
        return f"pause of {self.slip_id} from {self.started_at:%H:%M}"
