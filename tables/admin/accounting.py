"""Back-office pages of table accounting: slips (with their signatures and void), players, rating slips.

Read-only: a slip is append-only (migration 0014), written, signed and voided through the services (the
API); the back office shows the record, who signed what and when, and why a slip was voided.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from tables.models import Player, RatingPause, RatingSlip, Slip, SlipSignature
from tables.selectors.accounting import slip_state


class _ReadOnly:
    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


class SignatureInline(_ReadOnly, admin.TabularInline):
    model = SlipSignature
    fields = ("step", "by", "at")
    readonly_fields = fields
    extra = 0


@admin.register(Slip)
class SlipAdmin(_ReadOnly, admin.ModelAdmin):
    list_display = ("kind", "number", "table", "gaming_day", "shift", "total", "state", "created_by", "created_at")
    list_filter = ("kind", "shift", "gaming_day")
    search_fields = ("number",)
    readonly_fields = ("casino", "kind", "number", "table", "gaming_day", "shift", "chips", "total", "replaces",
                       "created_by", "created_at", "state", "void_reason")  # fmt: skip
    inlines = [SignatureInline]

    def get_queryset(self, request: Any) -> Any:
        return super().get_queryset(request).select_related("table", "created_by", "void").prefetch_related(
            "signatures")

    @admin.display(description="state")
    def state(self, obj: Slip) -> str:
        return slip_state(obj)

    @admin.display(description="void")
    def void_reason(self, obj: Slip) -> str:
        void = getattr(obj, "void", None)
        return "—" if void is None else f"{void.reason} ({void.by}, {void.at:%Y-%m-%d %H:%M})"


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "card_number", "created_at")
    search_fields = ("name", "card_number")


class PauseInline(_ReadOnly, admin.TabularInline):
    model = RatingPause
    fields = ("started_at", "ended_at")
    readonly_fields = fields
    extra = 0


@admin.register(RatingSlip)
class RatingSlipAdmin(_ReadOnly, admin.ModelAdmin):
    list_display = ("player", "table", "seat", "state", "opened_at", "closed_at")
    list_filter = ("state",)
    search_fields = ("player__name", "player__card_number")
    readonly_fields = ("player", "table", "seat", "state", "opened_at", "opened_by", "closed_at", "closed_by")
    inlines = [PauseInline]
