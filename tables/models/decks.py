"""Deck designs the reader has learned: the enrolment profile of a casino's cards, and the tables using it.

A profile is built by ``vision.profile.enroll`` from one labelled scan of each card of the design
(``tables.services.decks``); the scan service reads a table's cards with its table's design
(``Table.deck_design``), and with the generic reader where a table has none.  A design is never edited:
a new set of scans is a new design, so each round's scans were read with one known profile.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class DeckDesign(models.Model):
    """One card design in use at a casino, as the reader learned it."""

    casino = models.ForeignKey("tables.Casino", on_delete=models.PROTECT, related_name="deck_designs")
    name = models.CharField(max_length=80)
    profile = models.FileField(upload_to="deck_profiles/", help_text="The enrolment profile (vision.profile).")
    profile_sha256 = models.CharField(max_length=64)
    cards = models.JSONField(default=dict, help_text="Scans enrolled per card code.")
    glyph_samples = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["casino", "name"], name="deck_design_name_per_casino")]
        ordering = ["casino", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({sum(int(n) for n in self.cards.values())} cards enrolled)"
