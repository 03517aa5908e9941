"""Records of the audits: results per table and period, their findings, drop counts, theory, reports.

Idempotency of the Celery tasks rests on the unique constraints here: an audit result is unique per
(kind, table, period) and is replaced in place when a task runs again (``update_or_create`` inside a
transaction, its findings rewritten), a report is unique per gaming day.  So ``acks_late``
redeliveries and retries never leave two results for the same thing.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .money import MONEY


class AuditKind(models.TextChoices):
    SHUFFLE = "shuffle", "shuffle-point audit"
    HOLD = "hold", "hold audit"
    PACE = "pace", "dealer and pace"
    ACCOUNTING = "accounting", "table accounting: counted against tracked win"


class AuditResult(models.Model):
    """One audit of one table over one period (``period``: ``day:2026-11-20``, ``shift:2026-11-20/day``,
    ``mtd:2026-11-20``); ``summary`` holds the numbers, ``findings`` what was flagged."""

    kind = models.CharField(max_length=20, choices=AuditKind.choices)
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="audit_results")
    period = models.CharField(max_length=60)
    gaming_day = models.DateField(help_text="the gaming day the audit ran for (the period ends with it)")
    starts = models.DateTimeField()
    ends = models.DateTimeField()
    summary = models.JSONField(default=dict)
    flagged = models.BooleanField(default=False)
    computed_at = models.DateTimeField(auto_now=True)
    runs = models.PositiveIntegerField(default=1, help_text="how many times this result was (re)computed")

    class Meta:
        ordering = ["-gaming_day", "kind", "table_id", "period"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "table", "period"], name="audit_result_per_table_period"),
        ]
        indexes = [models.Index(fields=["gaming_day", "kind"])]
        permissions = [
            ("view_floor_dashboard", "Can see the pit-boss dashboard and the audit reports"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.table_id} {self.period}"


class Severity(models.TextChoices):
    INFO = "info", "info"
    WARNING = "warning", "warning"
    CRITICAL = "critical", "critical"


class AuditFinding(models.Model):
    """One thing an audit flagged (a late shuffle, an impossible card, a hold outside its band)."""

    result = models.ForeignKey(AuditResult, on_delete=models.CASCADE, related_name="findings")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    rule = models.CharField(max_length=60, help_text="stable identifier, e.g. shuffle.late, hold.anomaly")
    severity = models.CharField(max_length=10, choices=Severity.choices)
    message = models.CharField(max_length=500)
    shoe = models.ForeignKey("tables.Shoe", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    round = models.ForeignKey("tables.Round", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, help_text="when an audit first found it (kept across re-runs)")
    found_at = models.DateTimeField(null=True, blank=True,
                                    help_text="when what it found happened (the round, or the end of the period)")
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledgement = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["acknowledged_at", "created_at"])]

    def __str__(self) -> str:
        return f"{self.rule}: {self.message[:60]}"


class DropCount(models.Model):
    """The drop (cash and markers into the drop box) counted for a table, a gaming day and a shift.

    ``shift`` is blank for a count of the whole gaming day.  Entered in the back office by the count team.
    """

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="drop_counts")
    gaming_day = models.DateField()
    shift = models.CharField(max_length=20, blank=True, help_text="blank: the whole gaming day")
    amount = models.DecimalField(**MONEY)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    entered_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-gaming_day", "table", "shift"]
        constraints = [
            models.UniqueConstraint(fields=["table", "gaming_day", "shift"], name="drop_per_table_day_shift"),
            models.CheckConstraint(condition=models.Q(amount__gte=0), name="drop_not_negative"),
        ]

    def __str__(self) -> str:
        return f"drop {self.table_id} {self.gaming_day} {self.shift or 'day'}: {self.amount}"


class BetTheory(models.Model):
    """The theory of a rule-set and pay-table pair: per bet kind, house edge and variance per unit.

    Computed once per pair (the Finnish 27 edge needs a simulation) and kept: published versions
    never change, so neither does their theory.
    """

    rule_set = models.ForeignKey("tables.RuleSet", on_delete=models.CASCADE, related_name="+")
    pay_table = models.ForeignKey("tables.PayTable", on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=40)
    bets = models.JSONField(default=dict, help_text="bet kind -> {edge, variance, method}")
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "bet theory"
        verbose_name_plural = "bet theories"
        constraints = [models.UniqueConstraint(fields=["rule_set", "pay_table"], name="theory_per_versions")]

    def __str__(self) -> str:
        return f"theory {self.game} rs{self.rule_set_id} pt{self.pay_table_id}"


class ReportStatus(models.TextChoices):
    RUNNING = "running", "running"
    DONE = "done", "done"
    FAILED = "failed", "failed"


class AuditReport(models.Model):
    """The nightly audit report of a gaming day: HTML, PDF and CSV files under ``REPORTS_ROOT``."""

    gaming_day = models.DateField(unique=True)
    status = models.CharField(max_length=10, choices=ReportStatus.choices, default=ReportStatus.RUNNING)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    html_path = models.CharField(max_length=300, blank=True, help_text="relative to REPORTS_ROOT")
    pdf_path = models.CharField(max_length=300, blank=True)
    csv_path = models.CharField(max_length=300, blank=True)
    summary = models.JSONField(default=dict)
    emailed_to = models.CharField(max_length=500, blank=True)
    error = models.TextField(blank=True)
    # A run of the day again that changed the report keeps the one before (its files renamed, never
    # overwritten): what an auditor or a recipient read stays readable.
    earlier = models.JSONField(default=list, blank=True, help_text="earlier versions of this day's report, oldest "
                               "first: [{finished_at, html_path, pdf_path, csv_path, summary, emailed_to}]")
    # The nightly fan-out's join: the tables audited by this run, when the run started, and when the
    # last table's task claimed the report (a conditional update: exactly one task builds it).
    run = models.CharField(max_length=40, blank=True, help_text="token of the nightly run")
    run_started_at = models.DateTimeField(null=True, blank=True)
    expected_tables = models.JSONField(default=list, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-gaming_day"]

    def __str__(self) -> str:
        return f"audit report {self.gaming_day} ({self.status})"


class AlertDecision(models.Model):
    """A pit boss's decision on an alert the dashboard raised that is not a round approval: a
    rejected payout (the dealer must pay again) or an acknowledged audit finding."""

    round = models.ForeignKey("tables.Round", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    finding = models.ForeignKey(AuditFinding, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    decision = models.CharField(max_length=20, help_text="approve, reject, acknowledge")
    reason = models.CharField(max_length=300)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    round_version = models.PositiveIntegerField(null=True, blank=True, help_text="the round's version decided on")

    class Meta:
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.decision} by {self.by_id}"
