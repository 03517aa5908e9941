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


class EnrolmentStatus(models.TextChoices):
    OPEN = "open", "open"
    FINISHED = "finished", "finished"
    ABANDONED = "abandoned", "abandoned"


class EnrolmentSession(models.Model):
    """A deck being enrolled at a table's tablet: scanned card by card in any order, each scan named by
    the reader or by the person (``tables.services.enrolment``).  Finished, it made ``design``."""

    casino = models.ForeignKey("tables.Casino", on_delete=models.PROTECT, related_name="enrolments")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="enrolments",
                              help_text="The table whose tablet it was started at (offered the design).")  # fmt: skip
    name = models.CharField(max_length=80, help_text="The name the design will have.")
    deck = models.CharField(max_length=20, help_text="The deck enrolled (tables.engine.enrolment.DECKS).")
    status = models.CharField(max_length=10, choices=EnrolmentStatus.choices, default=EnrolmentStatus.OPEN)
    design = models.ForeignKey(DeckDesign, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1, help_text="Bumped by every change (the tablet's view of it).")

    class Meta:
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"enrolment {self.pk} of {self.name!r} ({self.status})"


class EnrolmentScan(models.Model):
    """One scan of an enrolment session: its image, what the reader read and the card it was named as
    (``code`` empty while the person is asked)."""

    session = models.ForeignKey(EnrolmentSession, on_delete=models.CASCADE, related_name="scans")
    seq = models.PositiveIntegerField(help_text="Scans of the session in the order they were taken.")
    image = models.FileField(upload_to="enrolment/%Y/%m/%d/")
    sha256 = models.CharField(max_length=64)
    recognised = models.JSONField(default=list, help_text="vision's cards: code, confidence, corners, guesses")
    guesses = models.JSONField(default=list, help_text="The cards offered when asked, weighed by the deck.")
    code = models.CharField(max_length=2, blank=True, help_text="The card it is named as; empty: not named yet.")
    named_by = models.CharField(max_length=10, blank=True, help_text='"reader" or "person".')
    confidence = models.FloatField(default=0.0, help_text="The reader's belief in the card, weighed by the deck.")
    duplicate_of = models.CharField(max_length=2, blank=True,
                                    help_text="A sure read of a card already named: that card's code.")  # fmt: skip
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    uploaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session_id", "seq"]
        constraints = [models.UniqueConstraint(fields=["session", "seq"], name="enrolment_scan_seq")]

    def __str__(self) -> str:
        return f"scan {self.seq} of enrolment {self.session_id}: {self.code or '?'}"
