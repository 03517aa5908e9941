"""Who watches which part of the floor: a dashboard user's casino (and, for a pit boss, their pit)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class FloorScope(models.Model):
    """The casino, and optionally the pit, a dashboard user watches.

    A user without one sees every casino (a single-property install needs no set-up); a user with
    one sees that casino only (its floor, alerts, rounds and push channels), narrowed to the pit when
    it is set.  Kept in the back office with the users.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="floor_scope")
    casino = models.ForeignKey("tables.Casino", on_delete=models.CASCADE, related_name="+")
    pit = models.ForeignKey("tables.Pit", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                            help_text="blank: the whole casino")

    class Meta:
        verbose_name = "floor scope"

    def __str__(self) -> str:
        return f"{self.user} → {self.pit or self.casino}"
