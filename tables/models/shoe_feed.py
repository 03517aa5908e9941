"""Shoe feeds: a card-reading shoe or a document camera that posts card images for one table."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models


def key_digest(key: str) -> str:
    """The stored form of a device key (only its SHA-256 is kept; the key is shown once, when issued)."""
    return hashlib.sha256(key.encode()).hexdigest()


class ShoeFeedDevice(models.Model):
    """A device credential bound to one table: its images land in that table's round in play.

    The key is a long random secret sent as ``Authorization: Device <key>``; the database keeps its
    SHA-256 only.  A revoked device is refused at once.  The device acts for the table's dealer (the
    cards it reads are the dealer's next cards), so whoever holds the table is accountable for them.
    """

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="shoe_feeds")
    name = models.CharField(max_length=80, help_text="what the device is, e.g. 'shoe reader 3'")
    key_sha256 = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "name"]

    def __str__(self) -> str:
        return f"{self.name} (table {self.table_id})"
