"""Records of the live floor: shoes and their shuffles, rounds with every card, decision, settlement
line and payment, approvals, the audit trail, and idempotency keys of the tablet API.

Writes go through ``tables.services`` only (one transaction per command, the round row locked, an
``AuditEvent`` in the same transaction).  Money is ``DecimalField`` (exact); the rule set and pay
table in force are kept both as foreign keys to their versions and as JSON snapshots, so a round can
be replayed by the engine even if the back office later retires those versions.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .money import MONEY


class Shoe(models.Model):
    """One shoe from its shuffle to the next: what it holds and every card dealt from it, in order."""

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="shoes")
    number = models.PositiveIntegerField(help_text="1, 2, ... per table")
    spec = models.JSONField(help_text="decks, jokers, shuffle rule and shuffle point (the composition)")
    shuffled_at = models.DateTimeField(auto_now_add=True)
    shuffled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    cards_dealt = models.PositiveIntegerField(default=0)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "-number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="shoe_number_per_table")]

    def __str__(self) -> str:
        return f"{self.table} shoe {self.number}"

    @property
    def size(self) -> int:
        jokers = self.spec.get("total_jokers")
        if jokers is None:
            jokers = self.spec["decks"] * self.spec.get("jokers_per_deck", 0)
        return int(self.spec["decks"] * 52 + jokers)

    @property
    def penetration(self) -> float:
        return self.cards_dealt / self.size if self.size else 0.0


class ShuffleEvent(models.Model):
    """A shuffle: when, by whom, why, and how far the previous shoe had gone (its penetration)."""

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="shuffles")
    previous_shoe = models.OneToOneField(
        Shoe, null=True, blank=True, on_delete=models.PROTECT, related_name="ended_by_shuffle"
    )
    shoe = models.OneToOneField(Shoe, on_delete=models.PROTECT, related_name="started_by_shuffle")
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=200)
    cards_dealt_before = models.PositiveIntegerField(default=0)
    shuffle_at = models.PositiveIntegerField(default=0, help_text="the shuffle point of the rule set")
    penetration = models.DecimalField(max_digits=5, decimal_places=4, default=0)
    players_notified = models.BooleanField(default=True)

    class Meta:
        ordering = ["table", "-at"]

    def __str__(self) -> str:
        return f"{self.table} shuffle at {self.at:%Y-%m-%d %H:%M} ({self.reason})"


class RoundState(models.TextChoices):
    IN_PLAY = "in_play", "in play"
    PAUSED = "paused", "paused"
    SETTLED = "settled", "settled, awaiting payment"
    MISMATCH = "mismatch", "paid differs from due"
    CLOSED = "closed", "closed"
    CANCELLED = "cancelled", "cancelled, refunded"


OPEN_STATES = (RoundState.IN_PLAY, RoundState.PAUSED, RoundState.SETTLED, RoundState.MISMATCH)


class Round(models.Model):
    """One round at a table, from the wagers to the payment."""

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="rounds")
    shoe = models.ForeignKey(Shoe, null=True, blank=True, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField(help_text="1, 2, ... per table")
    game = models.CharField(max_length=40)
    rule_set = models.ForeignKey(
        "tables.RuleSet", null=True, blank=True, on_delete=models.PROTECT, related_name="rounds"
    )
    pay_table = models.ForeignKey(
        "tables.PayTable", null=True, blank=True, on_delete=models.PROTECT, related_name="rounds"
    )
    rules = models.JSONField(default=dict, help_text="snapshot of the rule-set parameters in force")
    pay_table_lines = models.JSONField(default=dict, help_text="snapshot of the pay table in force")
    table_minimum = models.DecimalField(**MONEY)
    state = models.CharField(max_length=20, choices=RoundState.choices, default=RoundState.IN_PLAY)
    version = models.PositiveIntegerField(default=1, help_text="bumped by every write (tablet conflict check)")
    setup = models.JSONField(default=dict, help_text="seats, wagers and bets behind as opened")
    prompt = models.JSONField(default=dict, help_text="the engine's 'what comes next' after the last write")
    due = models.JSONField(default=dict, help_text="seat → bet kind → amount due")
    paid = models.JSONField(default=dict, help_text="seat → bet kind → amount the dealer handed over")
    discrepancies = models.JSONField(default=list)
    approval_required = models.BooleanField(default=False, help_text="a payout above the limit")
    approval_reason = models.CharField(max_length=300, blank=True)
    bluffjack_game = models.ForeignKey(
        "tables.BluffjackGame", null=True, blank=True, on_delete=models.PROTECT, related_name="hands",
        help_text="Bluffjack: the game this hand belongs to (stacks carried from hand to hand)",
    )
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "-number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="round_number_per_table")]
        # opened_at: the floor's rounds-this-hour and the rounds search by date (tables/selectors/floor_live.py).
        # (table, opened_at): a table's rounds of a period, what every audit and the hold read; without
        # it a table's day is found by scanning all of the table's rounds of every day kept.
        indexes = [models.Index(fields=["table", "state"]), models.Index(fields=["state", "paused_at"]),
                   models.Index(fields=["opened_at"], name="round_opened_at"),
                   models.Index(fields=["table", "opened_at"], name="round_table_opened_at")]

    def __str__(self) -> str:
        return f"{self.table} round {self.number}"

    @property
    def is_open(self) -> bool:
        return self.state in OPEN_STATES


class Wager(models.Model):
    """A bet of a round: a seat's main bet, side bet, insurance, or a bet behind the seat."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="wagers")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=40, help_text="main, perfect-pairs, 21+3, insurance, ante, ...")
    behind = models.PositiveSmallIntegerField(null=True, blank=True, help_text="index of the bettor behind")
    amount = models.DecimalField(**MONEY)
    refunded = models.BooleanField(default=False)

    class Meta:
        # By the round's id, not "round": that sorts by Round's own ordering, a join to its table, pit
        # and casino on every read of a round's rows (the children of a round below do the same).
        ordering = ["round_id", "seat", "behind", "id"]
        constraints = [models.CheckConstraint(condition=models.Q(amount__gt=0), name="wager_positive")]

    def __str__(self) -> str:
        return f"seat {self.seat} {self.kind} {self.amount}"


class CardSource(models.TextChoices):
    MANUAL = "manual", "entered by the dealer"
    SCAN = "scan", "recognised from a scan"


class RoundCard(models.Model):
    """A card of a round, in the order dealt, with its source (scan image, hash, confidence)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="cards")
    seq = models.PositiveIntegerField(help_text="order within the round")
    shoe_position = models.PositiveIntegerField(null=True, blank=True, help_text="order within the shoe")
    to = models.CharField(max_length=40, help_text='"dealer", "seat:3", "seat:3/hand:1", "player:2"')
    code = models.CharField(max_length=3)
    source = models.CharField(max_length=10, choices=CardSource.choices, default=CardSource.MANUAL)
    scan = models.ForeignKey("Scan", null=True, blank=True, on_delete=models.PROTECT, related_name="cards")
    image = models.FileField(upload_to="scans/%Y/%m/%d/", null=True, blank=True)
    image_sha256 = models.CharField(max_length=64, blank=True)
    recognised_code = models.CharField(max_length=3, blank=True)
    confidence = models.FloatField(null=True, blank=True)
    confirmed = models.BooleanField(default=True, help_text="False while a low-confidence read awaits the dealer")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)
    corrected_from = models.CharField(max_length=3, blank=True)
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    corrected_at = models.DateTimeField(null=True, blank=True)
    correction_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["round_id", "seq"]
        constraints = [models.UniqueConstraint(fields=["round", "seq"], name="card_seq_per_round")]

    def __str__(self) -> str:
        return f"{self.code} to {self.to}"


class Decision(models.Model):
    """A decision of a round (hit, stand, double, split, insurance, fold, raise, ...)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="decisions")
    seq = models.PositiveIntegerField(help_text="order within the round, shared with cards")
    actor = models.CharField(max_length=40)
    action = models.CharField(max_length=40)
    amount = models.DecimalField(null=True, blank=True, **MONEY)
    forced = models.BooleanField(default=False)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_id", "seq"]

    def __str__(self) -> str:
        return f"{self.actor} {self.action}"


class SettlementLine(models.Model):
    """One settlement line of a round (shared/DESIGN.md): what a bet won or lost, and why.

    Append-only (a database trigger, migration 0011): a re-settlement after a pit boss's card correction
    marks the lines it replaces ``superseded`` (the one change the trigger lets through) and adds new
    ones, so the first settlement stays on record.  Read the current lines with ``superseded=False``.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="lines")
    seat = models.PositiveSmallIntegerField()
    bet = models.CharField(max_length=40)
    wager = models.DecimalField(**MONEY)
    result = models.CharField(max_length=40)
    net = models.DecimalField(**MONEY)
    detail = models.CharField(max_length=300, blank=True)
    hand = models.PositiveSmallIntegerField(null=True, blank=True)
    behind = models.PositiveSmallIntegerField(null=True, blank=True)
    superseded = models.BooleanField(default=False, help_text="replaced by a re-settlement after a correction")

    class Meta:
        ordering = ["round_id", "seat", "id"]

    def __str__(self) -> str:
        return f"seat {self.seat} {self.bet} {self.result} {self.net}"


class Payment(models.Model):
    """What the dealer handed over for one bet kind on one seat (winnings, stake not included).

    Append-only (a database trigger, migration 0011): a later payment record marks the earlier rows
    ``superseded`` (false → true, the one change the trigger lets through) and adds its own.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="payments")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=40)
    amount = models.DecimalField(**MONEY)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)
    superseded = models.BooleanField(default=False, help_text="replaced by a later correction")

    class Meta:
        ordering = ["round_id", "seat", "id"]

    def __str__(self) -> str:
        return f"seat {self.seat} {self.kind} paid {self.amount}"


class ApprovalKind(models.TextChoices):
    LARGE_PAYOUT = "large_payout", "payout above the approval limit"
    MISMATCH = "mismatch", "paid differs from due"
    INTERRUPTED = "interrupted", "interrupted round"


class Approval(models.Model):
    """A pit boss's approval, with the reason given."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="approvals")
    kind = models.CharField(max_length=20, choices=ApprovalKind.choices)
    reason = models.CharField(max_length=300)
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    approved_at = models.DateTimeField(auto_now_add=True)
    payload = models.JSONField(default=dict)

    class Meta:
        ordering = ["round_id", "approved_at"]

    def __str__(self) -> str:
        return f"{self.kind} approved by {self.approved_by_id}"


class AuditEvent(models.Model):
    """Who did what, when, with the payload; written in the transaction of the write it records."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    action = models.CharField(max_length=60)
    at = models.DateTimeField(auto_now_add=True)
    table = models.ForeignKey("tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.PROTECT, related_name="audit_events")
    payload = models.JSONField(default=dict)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["action", "at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor} {self.action}"


class IdempotencyKey(models.Model):
    """A claimed ``Idempotency-Key`` and the first answer given to it (replayed to retries)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=100)
    fingerprint = models.CharField(max_length=64)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=255)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    response = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)  # the hourly purge reads by age

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_per_user")]

    def __str__(self) -> str:
        return f"{self.method} {self.path} [{self.key}]"


class TableSession(models.Model):
    """A dealer holding a table: opened by the dealer (or a pit boss for them), closed at hand-over.

    A dealer may act only at the table they hold (one open session per table, one per dealer).
    """

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="sessions")
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="table_sessions")
    opened_at = models.DateTimeField(auto_now_add=True)
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-opened_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(closed_at__isnull=True), name="one_open_session_per_table"
            ),
            models.UniqueConstraint(
                fields=["dealer"], condition=models.Q(closed_at__isnull=True), name="one_open_session_per_dealer"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.dealer} at {self.table}"


class Scan(models.Model):
    """A scan image sent by the tablet, stored with its hash and what vision read in it."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="scans")
    image = models.FileField(upload_to="scans/%Y/%m/%d/")
    sha256 = models.CharField(max_length=64)
    recognised = models.JSONField(default=list, help_text="vision's cards: code, confidence, corners")
    asking = models.PositiveSmallIntegerField(
        null=True, blank=True,
        help_text="the card of the scan the dealer is asked about (its place in recognised, left to right) "
                  "while the reader is unsure of it; empty once every card of the scan is recorded or dropped")
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    uploaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_id", "id"]

    def __str__(self) -> str:
        return f"scan {self.sha256[:12]}"
