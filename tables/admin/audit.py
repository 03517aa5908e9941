"""Back-office pages of the audits: drop counts (entered by the count team), results, findings, reports.

The beat schedule (nightly audit, today's running audit) is edited in django-celery-beat's own admin
pages ("Periodic tasks").
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils.html import format_html

from tables.days import period_words
from tables.engine.errors import InvalidInput
from tables.errors import Conflict
from tables.models import AuditFinding, AuditReport, AuditResult, BetTheory, DropCount
from tables.selectors.floor_live import RULE_WORDS, rule_words


class DropForm(forms.ModelForm):
    """The count team's entry of a drop, through the accounting service (one count per table and shift,
    the day's total kept as the sum of the shifts, an audit event); its refusals shown on the form."""

    class Meta:
        model = DropCount
        fields = ("table", "gaming_day", "shift", "amount")

    actor: Any = None  # set per request by the admin (``DropCountAdmin.get_form``)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        from tables.services.accounting import drop_record

        try:
            self.instance = drop_record(table=data["table"], amount=data["amount"], actor=self.actor,
                                        gaming_day=data.get("gaming_day"), shift=data.get("shift") or None)  # fmt: skip
        except InvalidInput as exc:
            if exc.field in self.fields:
                raise ValidationError({exc.field: exc.message}) from None
            raise ValidationError(exc.message) from None
        except (Conflict, PermissionDenied) as exc:
            raise ValidationError(str(exc)) from None
        return data


@admin.register(DropCount)
class DropCountAdmin(admin.ModelAdmin):
    """Drops are entered once (a recount is a new entry by the count team after a void of the day is
    agreed with the cage); the whole day's row is the service's sum of the shifts."""

    list_display = ("gaming_day", "table", "shift", "amount", "entered_by", "entered_at")
    list_filter = ("gaming_day", "shift")
    fields = ("table", "gaming_day", "shift", "amount")
    form = DropForm

    def get_form(self, request: Any, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        return type(form.__name__, (form,), {"actor": request.user})  # who enters the drop

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def save_model(self, request: Any, obj: DropCount, form: Any, change: bool) -> None:
        obj.pk = form.instance.pk  # written by the service in the form's clean (the same transaction)


class ReadOnly(admin.ModelAdmin):
    """Audit output is written by the audit jobs only."""

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


class RuleFilter(admin.SimpleListFilter):
    """The findings' rules, listed in words."""

    title = "rule"
    parameter_name = "rule"

    def lookups(self, request: Any, model_admin: Any) -> list[tuple[str, str]]:
        rules = AuditFinding.objects.order_by("rule").values_list("rule", flat=True).distinct()
        return [(r, RULE_WORDS.get(r, r)) for r in rules]

    def queryset(self, request: Any, queryset: Any) -> Any:
        return queryset.filter(rule=self.value()) if self.value() else queryset


@admin.register(AuditResult)
class AuditResultAdmin(ReadOnly):
    list_display = ("gaming_day", "kind", "table", "period_text", "flagged_text", "runs", "computed_at")
    list_filter = ("kind", "flagged", "gaming_day")

    @admin.display(description="flagged", ordering="flagged")
    def flagged_text(self, obj: AuditResult) -> str:
        # In words: the boolean icon drew "not flagged" as a red ✗, which reads as bad news.
        return "flagged" if obj.flagged else "—"

    @admin.display(description="period", ordering="period")
    def period_text(self, obj: AuditResult) -> str:
        """``shift:2026-11-25/swing`` → ``swing shift of Wed 25 Nov 2026``."""
        return period_words(obj.period)


@admin.register(AuditFinding)
class AuditFindingAdmin(ReadOnly):
    list_display = ("created_at", "table", "rule_text", "severity", "message", "where", "acknowledged_at")
    list_filter = (RuleFilter, "severity")
    list_select_related = ("table", "table__game", "round", "shoe")

    @admin.display(description="round or shoe")
    def where(self, obj: AuditFinding) -> str:
        """The round the finding is about, linked to its page on the floor (its cards, trail and payments);
        else the shoe.  A finding did not say where to look."""
        if obj.round is not None:
            return format_html('<a href="{}">round {}</a>', reverse("dashboard:round", args=[obj.round.pk]),
                               obj.round.number)
        return f"shoe {obj.shoe.number}" if obj.shoe is not None else "—"

    @admin.display(description="rule", ordering="rule")
    def rule_text(self, obj: AuditFinding) -> str:
        """The finding's rule in words (``shuffle.late`` → ``Shuffled after the shuffle point``)."""
        return rule_words(obj.rule)


@admin.register(AuditReport)
class AuditReportAdmin(ReadOnly):
    list_display = ("gaming_day", "status", "finished_at", "pdf_path", "emailed_to")


@admin.register(BetTheory)
class BetTheoryAdmin(ReadOnly):
    list_display = ("game", "rule_set", "pay_table", "computed_at")
