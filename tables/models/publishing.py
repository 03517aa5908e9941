"""Publish requests: the maker-checker of rule-set and pay-table versions.

A games manager asks to publish a draft (``requested_by``); a second games manager approves it
(``decided_by``), which publishes the version, or refuses it.  The theory shown when each person
decided (RTP per bet and in total) and whether they acknowledged a return above 100% are kept with
the request.  The writes are in ``tables.services.publishing``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from .config import PayTable, RuleSet


class PublishStatus(models.TextChoices):
    """Where a publish request stands."""

    PENDING = "pending", "Awaiting a second games manager"
    APPROVED = "approved", "Approved and published"
    REFUSED = "refused", "Refused"
    WITHDRAWN = "withdrawn", "Withdrawn"


class PublishRequest(models.Model):
    """A request to publish one draft version (a rule set or a pay table), and its decision."""

    rule_set = models.ForeignKey(RuleSet, null=True, blank=True, on_delete=models.CASCADE,
                                 related_name="publish_requests")
    pay_table = models.ForeignKey(PayTable, null=True, blank=True, on_delete=models.CASCADE,
                                  related_name="publish_requests")
    status = models.CharField(max_length=10, choices=PublishStatus.choices, default=PublishStatus.PENDING)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    warnings = models.JSONField(default=list, blank=True,
                                help_text="The returns above 100% (or unknown) shown when it was requested.")
    acknowledged = models.BooleanField(default=False, help_text="The requester acknowledged the warnings.")
    content_hash = models.CharField(max_length=64, blank=True,
                                    help_text="sha256 of the version as asked for: an edit after the request voids it.")
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(rule_set__isnull=False, pay_table__isnull=True)
                | Q(rule_set__isnull=True, pay_table__isnull=False),
                name="publish_request_one_version",
            ),
            # One open request per version: a second "Publish" joins the first instead.
            models.UniqueConstraint(fields=["rule_set"], condition=Q(status="pending"),
                                    name="publish_request_one_pending_rule_set"),
            models.UniqueConstraint(fields=["pay_table"], condition=Q(status="pending"),
                                    name="publish_request_one_pending_pay_table"),
        ]

    def __str__(self) -> str:
        return f"publish {self.version} ({self.get_status_display().lower()})"

    @property
    def version(self) -> RuleSet | PayTable:
        """The rule set or pay table to publish."""
        version = self.rule_set if self.rule_set_id is not None else self.pay_table
        assert version is not None  # noqa: S101  (the check constraint)
        return version
