"""Cached theory of a pay-table version under a set of rules: the simulated RTP and house edge.

The exact lines of a pay table are computed at once when the back office asks for them; the lines
that need the Finnish 27 simulation are computed by a Celery task (``tables.tasks.theory``) and kept
here, one row per (pay-table version and its lines, rules, strategy).  A published version never
changes, so its row is final; a draft that is saved with other lines gets another ``pay_table_hash``
and so another row, while the rows of other versions keep their results.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class TheoryStatus(models.TextChoices):
    """Where the computation of a theory result stands."""

    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class TheoryResult(models.Model):
    """The simulated figures of one pay-table version under one set of rules (Finnish 27)."""

    pay_table = models.ForeignKey("tables.PayTable", on_delete=models.CASCADE, related_name="theory_results")
    # The rule set the rules came from, for display; the key is the hash of the rules themselves, so
    # "the published rules" (no rule set) and a rule set with the same parameters share a result.
    rule_set = models.ForeignKey(
        "tables.RuleSet", on_delete=models.SET_NULL, null=True, blank=True, related_name="theory_results"
    )
    game = models.CharField(max_length=40)
    pay_table_hash = models.CharField(max_length=64, help_text="sha256 of the pay table's lines (engine JSON)")
    rules_hash = models.CharField(max_length=64, help_text="sha256 of the complete rule parameters")
    rules = models.JSONField(default=dict, help_text="the rule parameters simulated")
    # The lines as they were when the result was asked for: a draft may be saved again meanwhile,
    # and the task must simulate the lines the hash names.
    pay_lines = models.JSONField(default=dict, help_text="the pay table simulated (engine JSON)")
    strategy = models.CharField(max_length=20, help_text="strategy for the player's free choices")
    rounds_requested = models.PositiveBigIntegerField()

    status = models.CharField(max_length=10, choices=TheoryStatus.choices, default=TheoryStatus.PENDING)
    progress = models.FloatField(default=0.0, help_text="0..1 while running")
    lines = models.JSONField(default=dict, blank=True,
                             help_text="line name -> {probability, contribution, method}")
    rtp = models.FloatField(null=True, blank=True)
    house_edge = models.FloatField(null=True, blank=True)
    ci95 = models.FloatField(null=True, blank=True, help_text="half-width of the 95% confidence interval")
    rounds = models.PositiveBigIntegerField(null=True, blank=True)
    seconds = models.FloatField(null=True, blank=True)
    detail = models.JSONField(default=dict, blank=True, help_text="the simulation's summary (method, seed, ...)")
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    created_at = models.DateTimeField(default=timezone.now)
    # Touched at every progress update: a RUNNING row not touched for long lost its worker.
    updated_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "theory result"
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["pay_table", "pay_table_hash", "rules_hash", "strategy"],
                                    name="theory_result_per_version_rules_strategy"),
            models.CheckConstraint(condition=models.Q(progress__gte=0.0, progress__lte=1.0),
                                   name="theory_result_progress_0_1"),
        ]

    def __str__(self) -> str:
        return f"theory {self.game} pt{self.pay_table_id} rules {self.rules_hash[:8]} ({self.status})"
