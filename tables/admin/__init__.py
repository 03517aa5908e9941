"""The back office: Django admin for casinos, pits, tables, games, rule sets and pay tables.

Published versions open read-only (the change permission is withheld for them), with "New draft
version" to edit; publishing is an explicit action or button, shown only to holders of the publish
permission (games managers).  Every model keeps its history (who, when, what) through
django-simple-history's admin.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.decorators import method_decorator
from django.utils.html import format_html, format_html_join
from django.views.decorators.http import require_POST
from simple_history.admin import SimpleHistoryAdmin

from tables import conf, services
from tables.admin import theory as admin_theory
from tables.admin import versions
from tables.admin.rulesets import PrettyJSONField, parameter_rows, rule_set_form
from tables.engine.rulesets import PUBLISHED_RULES, parameters
from tables.models import (
    Casino,
    Game,
    PayLine,
    PayTable,
    Pit,
    PublishRequest,
    PublishStatus,
    RuleSet,
    Table,
    TableStatus,
    VersionStatus,
)
from tables.models.config import PayLineKind, VersionedConfig, check_line_names, game_line_names
from tables.services import publishing

admin.site.site_header = "Casino back office"
admin.site.site_title = "Casino back office"
admin.site.index_title = "Games, rule sets, pay tables and tables"
# No app list down the left of every page: at 1280 px it and a list's filters left the list too narrow,
# its right-hand columns scrolled out of sight (the app list is the index page, one click away).
admin.site.enable_nav_sidebar = False
admin.site.site_url = "/"  # "View site": the landing page, which sends each role to its place

__all__ = ["PrettyJSONField"]


def _messages_of(exc: ValidationError) -> str:
    """A ValidationError as one line, each message prefixed by the field it names."""
    if hasattr(exc, "error_dict"):
        return "; ".join(f"{field}: {' '.join(m)}" for field, m in exc.message_dict.items())
    return " ".join(exc.messages)


class HistoryAdmin(SimpleHistoryAdmin):
    """django-simple-history's admin, where reverting needs the right to change the object as it is now.

    simple-history's history form ("Revert") saves on POST after checking only the *view* permission
    (and the change permission of the historical copy, not of the stored object): an auditor could
    rename a casino, and reverting a published version raised a 500 from the model's guard.  Here a
    revert is refused unless the user may change the stored object; an object no one may change
    (a published version) is refused with a message saying why.  The history pages stay readable.
    """

    def revert_refused_message(self, obj: Any) -> str:
        """Why ``obj`` cannot be reverted by a user who may otherwise change this model."""
        return f"{obj} cannot be changed, so it cannot be reverted."

    def _stored(self, request: HttpRequest, object_id: Any) -> Any:
        obj = self.get_object(request, unquote(str(object_id)))
        if obj is None:
            raise Http404(f"no {self.opts.verbose_name} with id {object_id}")
        return obj

    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        # ``obj`` is the historical copy; the stored object decides (a published version, a role).
        if super().revert_disabled(request, obj) or obj is None:
            return True
        stored = self.get_object(request, str(obj.pk))
        return stored is None or not self.has_change_permission(request, stored)

    def history_form_view(self, request: HttpRequest, object_id: str, version_id: str,
                          extra_context: dict[str, Any] | None = None) -> HttpResponse:
        if request.method != "POST":
            return super().history_form_view(request, object_id, version_id, extra_context)
        stored = self._stored(request, object_id)
        if not self.has_change_permission(request, stored):
            if not self.has_change_permission(request):
                raise PermissionDenied  # a read-only role: the history is to read
            self.message_user(request, self.revert_refused_message(stored), messages.ERROR)
            return HttpResponseRedirect(request.path)
        try:
            with transaction.atomic():
                return super().history_form_view(request, object_id, version_id, extra_context)
        except ValidationError as exc:  # the model's own guard (raced with a publish, say)
            self.message_user(request, f"{stored} was not reverted: {_messages_of(exc)}", messages.ERROR)
            return HttpResponseRedirect(request.path)


@admin.register(Casino)
class CasinoAdmin(HistoryAdmin):
    list_display = ("name", "pit_count")
    search_fields = ("name",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Casino]:
        return super().get_queryset(request).annotate(pits_n=Count("pits"))

    @admin.display(description="pits", ordering="pits_n")
    def pit_count(self, obj: Casino) -> int:
        return obj.pits_n  # type: ignore[attr-defined]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ("number", "game", "rule_set", "pay_table", "min_bet", "max_bet", "status")
    show_change_link = True


@admin.register(Pit)
class PitAdmin(HistoryAdmin):
    list_display = ("name", "casino", "table_count")
    list_filter = ("casino",)
    search_fields = ("name", "casino__name")
    inlines = [TableInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Pit]:
        return super().get_queryset(request).select_related("casino").annotate(tables_n=Count("tables"))

    @admin.display(description="tables", ordering="tables_n")
    def table_count(self, obj: Pit) -> int:
        return obj.tables_n  # type: ignore[attr-defined]


@admin.register(Table)
class TableAdmin(HistoryAdmin):
    list_display = ("__str__", "pit", "game", "rule_set", "pay_table", "min_bet", "max_bet", "status")
    list_filter = ("status", "game", "pit__casino", "pit")
    search_fields = ("=number", "pit__name", "pit__casino__name", "game__name", "game__slug")
    list_select_related = ("pit__casino", "game", "rule_set__game", "pay_table__game")
    autocomplete_fields = ()
    actions = ("open_tables", "close_tables")
    fieldsets = (
        (None, {"fields": ("pit", "number", "game", "status")}),
        ("Rules and pay table (published versions)", {"fields": ("rule_set", "pay_table")}),
        ("Cards", {"fields": ("deck_design",),
                   "description": "The deck design dealt here, as the reader learned it (Deck designs)."}),
        ("Limits", {"fields": ("min_bet", "max_bet", ("side_bet_min", "side_bet_max"), ("behind_min", "behind_max"),
                               "max_bets_behind"),
                    "description": "Side bets and bets behind take the main limits where their own are empty."}),
    )

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> Any:
        # A pit boss opens and closes tables; the game, versions and limits are the games manager's
        # (who alone may add tables).
        # The status of an existing table changes only through the open/close actions, which go
        # through the services (a table with a round open does not close; the dealer's session ends).
        if obj is not None and not request.user.has_perm("tables.add_table"):
            return ("pit", "number", "game", "rule_set", "pay_table", "min_bet", "max_bet", "side_bet_min",
                    "side_bet_max", "behind_min", "behind_max", "max_bets_behind", "status", "deck_design")
        if obj is not None:
            return ("status",)
        return super().get_readonly_fields(request, obj)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name in ("rule_set", "pay_table"):
            kwargs["queryset"] = db_field.related_model.objects.filter(status=VersionStatus.PUBLISHED).select_related(
                "game"
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def _each(self, request: HttpRequest, queryset: QuerySet[Table], service: Any, done: str) -> None:
        # Through the services, table by table: the same checks as the tablet API (no closing a table
        # with a round open, pit boss only), the audit event, and the dealer's session ended on close.
        n = 0
        for table in queryset.order_by("pk"):
            try:
                service(table=table, actor=request.user)
            except (services.Conflict, PermissionDenied) as exc:
                self.message_user(request, f"{table} was not {done}: {exc}", messages.ERROR)
            else:
                n += 1
        if n:
            self.message_user(request, f"{n} table(s) {done}.", messages.SUCCESS)

    @admin.action(description="Open the selected tables", permissions=["change"])
    def open_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        self._each(request, queryset.exclude(status=TableStatus.OPEN), services.table_open_for_play, "opened")

    @admin.action(description="Close the selected tables", permissions=["change"])
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        self._each(request, queryset, services.table_close, "closed")


@admin.register(Game)
class GameAdmin(HistoryAdmin):
    list_display = ("name", "slug_code", "kind", "pay_lines")
    list_filter = ("kind",)
    search_fields = ("name", "slug")

    @admin.display(description="slug", ordering="slug")
    def slug_code(self, obj: Game) -> str:
        # The code itself (the field has choices: the list showed their labels, "Bluffjack" under "Slug").
        return obj.slug

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> Any:
        # The slug ties the game to its engine and rule text; it does not change once created.
        return ("slug", "kind", "pay_lines") if obj is not None else ("pay_lines",)

    @admin.display(description="pay lines its pay tables must hold")
    def pay_lines(self, obj: Game) -> str:
        return ", ".join(obj.line_names) or "none (no house pay lines)"


class VersionedAdmin(HistoryAdmin):
    """Common admin of rule-set and pay-table versions: publishing (warning, maker-checker), history, diff."""

    list_display = ("__str__", "game", "name", "version", "status", "published_at", "published_by", "table_count")
    list_filter = ("game", "status")
    search_fields = ("name", "notes", "game__name", "game__slug")
    list_select_related = ("game", "published_by")
    readonly_fields: tuple[str, ...] = ("version", "status", "created_at", "published_at", "published_by")
    actions = ("publish_selected", "new_draft_of_selected")
    change_form_template = "admin/tables/versioned_change_form.html"
    object_history_template = "admin/tables/version_history.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).annotate(tables_n=Count("tables"))

    @admin.display(description="tables using it", ordering="tables_n")
    def table_count(self, obj: Any) -> int:
        return getattr(obj, "tables_n", 0)

    def get_readonly_fields(self, request: HttpRequest, obj: VersionedConfig | None = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        # A draft keeps its game: a new game is a new lineage.
        return fields + ("game",) if obj is not None else fields

    def has_change_permission(self, request: HttpRequest, obj: VersionedConfig | None = None) -> bool:
        # A published version opens read-only: it cannot change, however permissive the role.  So does
        # a draft asked to be published: the checker approves what the maker asked for (withdraw to edit).
        if obj is not None and (obj.is_published or publishing.pending_request(obj) is not None):  # type: ignore[arg-type]
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: VersionedConfig | None = None) -> bool:
        if obj is not None and (obj.is_published or publishing.pending_request(obj) is not None):  # type: ignore[arg-type]
            return False
        return super().has_delete_permission(request, obj)

    def revert_refused_message(self, obj: Any) -> str:
        if not obj.is_published:
            return f"{obj} awaits approval to be published and cannot be reverted; withdraw the request first."
        return f"{obj} is published and cannot be reverted; make a new draft version instead."

    def has_publish_permission(self, request: HttpRequest) -> bool:
        """Only holders of the model's publish permission (games managers) publish."""
        model: Any = self.model
        return request.user.has_perm(model.publish_permission)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        if queryset.filter(status=VersionStatus.PUBLISHED).exists():
            raise PermissionDenied("Published versions cannot be deleted.")
        super().delete_queryset(request, queryset)

    def _new_draft(self, request: HttpRequest, obj: VersionedConfig) -> VersionedConfig:
        draft = obj.new_draft(actor=request.user)
        self.message_user(request, f"Created {draft} from version {obj.version}.", messages.SUCCESS)
        return draft

    def _request_publish(self, request: HttpRequest, obj: Any, *, acknowledged: bool, note: str = "") -> bool:
        """Ask to publish through the service; say in words what happened (or why not)."""
        try:
            done = publishing.request_publish(obj, actor=request.user, acknowledged=acknowledged, note=note)
        except publishing.AcknowledgementNeeded as exc:
            self.message_user(request, f"{obj} was not published: {exc}", messages.ERROR)
            return False
        except ValidationError as exc:
            self.message_user(request, f"{obj} was not published: {_messages_of(exc)}", messages.ERROR)
            return False
        except (services.Conflict, PermissionDenied) as exc:
            self.message_user(request, f"{obj} was not published: {exc}", messages.ERROR)
            return False
        obj.refresh_from_db()
        if done.status == PublishStatus.APPROVED:
            self.message_user(request, f"Published {obj}.", messages.SUCCESS)
        else:
            self.message_user(request, f"Asked to publish {obj}: a second games manager must approve it.",
                              messages.WARNING)
        return True

    @admin.action(description="Publish the selected drafts", permissions=["publish"])
    def publish_selected(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        # No acknowledgement from a list: a draft returning more than 100% is refused here, with the
        # reason, and published from its own page where the warning is shown in full.
        for obj in queryset.filter(status=VersionStatus.DRAFT):
            self._request_publish(request, obj, acknowledged=False)

    @admin.action(description="New draft version of each selected", permissions=["add"])
    def new_draft_of_selected(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset:
            self._new_draft(request, obj)

    def get_urls(self) -> list[Any]:
        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/publish/", view(self.publish_view), name=f"{prefix}_publish"),
            path("<int:pk>/approve/", view(self.approve_view), name=f"{prefix}_approve"),
            path("<int:pk>/new-draft/", view(self.new_draft_view), name=f"{prefix}_new_draft"),
            path("<int:pk>/compare/", view(self.compare_view), name=f"{prefix}_compare"),
            *super().get_urls(),
        ]

    def _url(self, name: str, obj: VersionedConfig) -> str:
        return reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_{name}", args=[obj.pk])

    def _change_url(self, obj: VersionedConfig) -> str:
        return self._url("change", obj)

    def _theory_html(self, obj: Any) -> Any:
        """The theory shown beside a publish decision (the pay table's block, or the rule set's edge)."""
        return ""

    def _decision_page(self, request: HttpRequest, obj: Any, *, stage: str,
                       pending: PublishRequest | None = None) -> HttpResponse:
        # What publishing changes: against the version of the same lineage in use now (the approver saw the
        # figures but not the differences).
        current = (self.model.objects.filter(game_id=obj.game_id, name=obj.name, status=VersionStatus.PUBLISHED)
                   .exclude(pk=obj.pk).order_by("-version").first())  # fmt: skip
        diff = versions.version_diff(current, obj) if current is not None else None
        context = {
            "current": current, "compare_url": self._url("compare", obj) + (f"?with={current.pk}" if current else ""),
            "changes": [r for r in [*diff["rows"][3:], *diff["section"]] if r["changed"]] if diff else None,
            **self.admin_site.each_context(request), "opts": self.opts, "original": obj, "title": f"Publish {obj}",
            "stage": stage, "pending": pending, "warnings": publishing.return_warnings(obj),
            "theory": self._theory_html(obj), "change_url": self._change_url(obj),
            "second_approval": conf.publish_needs_second_approval(),
            "is_requester": pending is not None and pending.requested_by_id == request.user.pk,
        }
        return TemplateResponse(request, "admin/tables/publish_confirm.html", context)

    def publish_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """GET: the figures and any >100% warning; POST: ask to publish (publish at once without maker-checker)."""
        obj = get_object_or_404(self.model.objects.select_related("game"), pk=pk)
        if not self.has_publish_permission(request):
            raise PermissionDenied
        if obj.is_published:
            return HttpResponseRedirect(self._change_url(obj))
        pending = publishing.pending_request(obj)
        if pending is not None:
            return HttpResponseRedirect(self._url("approve", obj))
        if request.method != "POST":
            return self._decision_page(request, obj, stage="request")
        self._request_publish(request, obj, acknowledged=request.POST.get("acknowledge") == "on",
                              note=request.POST.get("note", ""))
        return HttpResponseRedirect(self._change_url(obj))

    def approve_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """GET: the open request with the figures; POST ``approve`` or ``refuse`` (the requester withdraws)."""
        obj = get_object_or_404(self.model.objects.select_related("game"), pk=pk)
        if not self.has_publish_permission(request):
            raise PermissionDenied
        pending = publishing.pending_request(obj)
        if pending is None:
            self.message_user(request, f"{obj} has no request to publish awaiting approval.", messages.INFO)
            return HttpResponseRedirect(self._change_url(obj))
        if request.method != "POST":
            return self._decision_page(request, obj, stage="approve", pending=pending)
        try:
            if "refuse" in request.POST:
                done = publishing.refuse_publish(pending, actor=request.user, note=request.POST.get("note", ""))
                self.message_user(request, f"The request to publish {obj} was {done.get_status_display().lower()}.",
                                  messages.SUCCESS)
            else:
                publishing.approve_publish(pending, actor=request.user,
                                           acknowledged=request.POST.get("acknowledge") == "on")
                obj.refresh_from_db()
                self.message_user(request, f"Approved and published {obj}.", messages.SUCCESS)
        except ValidationError as exc:
            self.message_user(request, f"{obj} was not published: {_messages_of(exc)}", messages.ERROR)
        except (services.Conflict, PermissionDenied) as exc:
            self.message_user(request, f"{obj} was not published: {exc}", messages.ERROR)
        return HttpResponseRedirect(self._change_url(obj))

    def new_draft_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """POST: make a new draft version from this one and open it."""
        obj = get_object_or_404(self.model, pk=pk)
        if request.method != "POST" or not self.has_add_permission(request):
            raise PermissionDenied
        return HttpResponseRedirect(self._change_url(self._new_draft(request, obj)))

    def compare_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The diff of this version and another of the same game (``?with=<id>``; default: the one before)."""
        obj = get_object_or_404(self.model.objects.select_related("game", "published_by"), pk=pk)
        if not self.has_view_permission(request, obj):
            raise PermissionDenied
        others = self.model.objects.filter(game_id=obj.game_id).exclude(pk=obj.pk).select_related("game")
        other = others.filter(pk=request.GET.get("with") or None).first() if request.GET.get("with") else None
        if other is None:
            other = (others.filter(name=obj.name, version__lt=obj.version).order_by("-version").first()
                     or others.order_by("-pk").first())
        context = {
            **self.admin_site.each_context(request), "opts": self.opts, "original": obj,
            "title": f"Compare {obj}", "others": others.order_by("name", "-version"), "other": other,
            "diff": versions.version_diff(other, obj) if other is not None else None,
        }
        return TemplateResponse(request, "admin/tables/version_diff.html", context)

    def history_view(self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None) -> Any:
        obj = self.get_object(request, unquote(object_id))
        extra = dict(extra_context or {})
        if obj is not None and self.has_view_permission(request, obj):
            extra["timeline"] = versions.timeline(obj)
            extra["compare_url"] = self._url("compare", obj)
        return super().history_view(request, object_id, extra_context=extra)

    def render_change_form(self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        obj = kwargs.get("obj") or context.get("original")
        if obj is None and "game" not in request.GET:
            add_url = reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_add")
            context["start_from_games"] = [(g.name, f"{add_url}?game={g.pk}") for g in Game.objects.all()]
        pending = publishing.pending_request(obj) if obj is not None and not obj.is_published else None
        may_publish = obj is not None and not obj.is_published and self.has_publish_permission(request)
        context.update(
            can_publish=may_publish and pending is None,
            pending=pending,
            can_approve=may_publish and pending is not None and pending.requested_by_id != request.user.pk,
            is_requester=pending is not None and pending.requested_by_id == request.user.pk,
            can_new_draft=obj is not None and self.has_add_permission(request),
            version_urls={name: self._url(name, obj) if obj is not None else ""
                          for name in ("publish", "approve", "new_draft", "compare")},
        )
        return super().render_change_form(request, context, *args, **kwargs)


def _game_of(request: HttpRequest, obj: RuleSet | None) -> Game | None:
    """The game whose parameters a rule-set form shows: the stored one, or the one chosen when adding."""
    if obj is not None and obj.game_id is not None:
        return obj.game
    chosen = request.POST.get("game") or request.GET.get("game")
    return Game.objects.filter(pk=chosen).first() if chosen and str(chosen).isdigit() else None


def _game_asked(request: HttpRequest) -> Game | None:
    """The game an "add" page was opened for (``?game=<id>``), or None."""
    asked = request.GET.get("game")
    return Game.objects.filter(pk=asked).first() if asked else None


@admin.register(RuleSet)
class RuleSetAdmin(VersionedAdmin):
    readonly_fields = (*VersionedAdmin.readonly_fields, "parameters", "house_edge")
    BASE_FIELDS = ("game", "name", "notes")
    TAIL_FIELDS = ("version", "status", "created_at", "published_at", "published_by", "house_edge")

    def get_form(self, request: HttpRequest, obj: RuleSet | None = None, change: bool = False, **kwargs: Any) -> Any:
        # One field per rule parameter of the game, built from the engine (tables/admin/rulesets.py).
        game = _game_of(request, obj)
        form = rule_set_form(game.slug if game is not None and game.slug in PUBLISHED_RULES else None)
        kwargs["form"] = form
        form_class = super().get_form(request, obj, change, **kwargs)
        if obj is None and game is not None and "game" in form_class.base_fields:
            # The rules shown are this game's: another game is another form ("Start from ..." links).
            form_class.base_fields["game"].initial = game.pk
            form_class.base_fields["game"].disabled = True
        return form_class

    def get_fields(self, request: HttpRequest, obj: RuleSet | None = None) -> Any:
        game = _game_of(request, obj)
        editable = obj is None or self.has_change_permission(request, obj)
        if game is None or game.slug not in PUBLISHED_RULES:
            return (*self.BASE_FIELDS, *self.TAIL_FIELDS) if obj is not None else self.BASE_FIELDS
        if not editable:
            return (*self.BASE_FIELDS, "parameters", *self.TAIL_FIELDS)
        tail = self.TAIL_FIELDS if obj is not None else ()
        return (*self.BASE_FIELDS, *(p.name for p in parameters(game.slug)), *tail)

    def get_fieldsets(self, request: HttpRequest, obj: RuleSet | None = None) -> Any:
        fields = list(self.get_fields(request, obj))
        head = [f for f in fields if f in self.BASE_FIELDS]
        tail = [f for f in fields if f in self.TAIL_FIELDS]
        rules = [f for f in fields if f not in self.BASE_FIELDS and f not in self.TAIL_FIELDS]
        sets: list[Any] = [(None, {"fields": head})]
        if rules:
            sets.append(("Rules", {"fields": rules, "description": "Each value is checked by the game's rules when "
                                   "you save; a new rule set starts from the game's published values."}))
        if tail:
            sets.append(("Version and theory", {"fields": tail}))
        return sets

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        initial = super().get_changeform_initial_data(request)
        # "Add rule set" with ?game=<id>: start from the game's published values (the fields' defaults).
        return initial

    @admin.display(description="rules")
    def parameters(self, obj: RuleSet | None) -> str:
        if obj is None or obj.game_id is None:
            return "-"
        rows = parameter_rows(obj)
        return format_html(
            '<table class="rule-params"><thead><tr><th>rule</th><th>value</th><th>published value</th></tr></thead>'
            "<tbody>{}</tbody></table>",
            format_html_join("", '<tr class="{}"><th>{}</th><td>{}</td><td>{}</td></tr>',
                             (("differs" if r["differs"] else "", r["label"], r["value"], r["published"])
                              for r in rows)),
        )

    @admin.display(description="house edge of the main wager")
    def house_edge(self, obj: RuleSet | None) -> str:
        # Blackjack: exact basic-strategy analysis; Finnish 27: the simulation of the latest published pay table.
        return admin_theory.rule_set_edge_html(obj)

    def _theory_html(self, obj: Any) -> Any:
        return admin_theory.rule_set_edge_html(obj)


class PayLineForm(forms.ModelForm):
    odds = forms.CharField(required=False, max_length=40, help_text='"a:b" on the wager, e.g. 3:2')

    class Meta:
        model = PayLine
        fields = ("position", "name", "label", "kind", "odds", "table_minimum")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields["odds"].initial = self.instance.odds_text

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("kind") == PayLineKind.ODDS:
            text = (data.get("odds") or "").strip()
            if not text:
                self.instance.odds_numerator = self.instance.odds_denominator = None
            else:
                try:
                    self.instance.set_odds(text)
                except ValidationError as exc:
                    self.add_error("odds", exc.message_dict["odds"])
        return data


class PayLineFormSet(BaseInlineFormSet):
    """The lines together: each line of the game once, none unknown."""

    def clean(self) -> None:
        super().clean()
        if any(self.errors) or self.instance.game_id is None:
            return
        names = [
            f.cleaned_data["name"]
            for f in self.forms
            if f.cleaned_data and not f.cleaned_data.get("DELETE") and f.cleaned_data.get("name")
        ]
        check_line_names(self.instance.game.slug, names)


class PayLineInline(admin.TabularInline):
    model = PayLine
    form = PayLineForm
    formset = PayLineFormSet
    fields = ("position", "name", "label", "kind", "odds", "table_minimum")
    extra = 0
    ordering = ("position", "id")

    @admin.display(description="odds")
    def odds(self, obj: PayLine) -> str:
        # Shown in the read-only view of a published table (the form field is not rendered there).
        return obj.odds_text or "-"

    def _parent_published(self, obj: PayTable | None) -> bool:
        return obj is not None and obj.is_published

    def has_add_permission(self, request: HttpRequest, obj: PayTable | None = None) -> bool:  # type: ignore[override]
        return not self._parent_published(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: PayTable | None = None) -> bool:
        return not self._parent_published(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: PayTable | None = None) -> bool:
        return not self._parent_published(obj) and super().has_delete_permission(request, obj)


@admin.register(PayTable)
class PayTableAdmin(VersionedAdmin):
    inlines = [PayLineInline]
    fields = ("game", "name", "notes", "version", "status", "created_at", "published_at", "published_by",
              "theoretical_return")
    readonly_fields = (*VersionedAdmin.readonly_fields, "theoretical_return")

    def get_formset_kwargs(self, request: HttpRequest, obj: Any, inline: Any, prefix: str) -> dict[str, Any]:
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        # "Add pay table" with ?game=<id>: start from the game's lines at the published values.
        if request.method == "GET" and obj.pk is None and isinstance(inline, PayLineInline):
            game = _game_asked(request)
            if game is not None:
                kwargs["initial"] = self._published_initial(game)
        return kwargs

    def get_formsets_with_inlines(self, request: HttpRequest, obj: Any = None) -> Any:
        for formset, inline in super().get_formsets_with_inlines(request, obj):
            if obj is None and request.method == "GET" and isinstance(inline, PayLineInline):
                game = _game_asked(request)
                if game is not None:
                    formset.extra = len(game_line_names(game.slug))
            yield formset, inline

    @staticmethod
    def _published_initial(game: Game) -> list[dict[str, Any]]:
        from tables.engine.paytable import PUBLISHED

        rows = []
        for i, line in enumerate(PUBLISHED.get(game.slug, ())):
            odds = line.odds
            rows.append({
                "position": i, "name": line.name, "label": line.label,
                "kind": PayLineKind.ODDS if odds is not None else PayLineKind.TABLE_MINIMUM,
                "odds": f"{odds.numerator}:{odds.denominator}" if odds is not None else "",
                "table_minimum": line.table_minimum,
            })
        return rows

    @admin.display(description="theoretical return to player / house edge")
    def theoretical_return(self, obj: PayTable | None) -> str:
        # Exact lines at once; the simulated ones (Finnish 27) queued and polled by admin/theory.js.
        return admin_theory.pay_table_theory_html(obj)

    def _theory_html(self, obj: Any) -> Any:
        return admin_theory.pay_table_theory_html(obj)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        # The lines are saved now: queue this version's simulation (after commit) before the page reloads.
        admin_theory.theory_for(form.instance, admin_theory.default_rule_set(form.instance))

    def get_urls(self) -> list[Any]:
        theory = path("<int:pk>/theory/", self.admin_site.admin_view(self.theory_view), name="tables_paytable_theory")
        preview = path("<int:pk>/theory/preview/", self.admin_site.admin_view(self.theory_preview_view),
                       name="tables_paytable_theory_preview")
        return [theory, preview, *super().get_urls()]

    def theory_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """JSON: the theory of this version (polled while its simulation runs); POST retries a failure."""
        obj = get_object_or_404(PayTable.objects.select_related("game"), pk=pk)
        if not self.has_view_permission(request, obj):
            raise PermissionDenied
        return admin_theory.theory_json(request, obj, can_retry=request.user.has_perm("tables.add_paytable"))

    @method_decorator(require_POST)
    def theory_preview_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """JSON: the theory of the lines as the change form holds them now (not saved): shown as they are edited."""
        obj = get_object_or_404(PayTable.objects.select_related("game"), pk=pk)
        if not self.has_change_permission(request, obj):  # who may edit, before any computing
            raise PermissionDenied
        return admin_theory.preview_json(request, obj)

    class Media:
        js = ("admin/theory.js",)


from tables.admin import accounting as admin_accounting  # noqa: E402,F401  (slips, ratings: tables/admin/accounting.py)
from tables.admin import audit as admin_audit  # noqa: E402,F401  (audit pages: tables/admin/audit.py)
from tables.admin import decks as _decks  # noqa: E402,F401  (registers Deck designs)
from tables.admin import signins as _signins  # noqa: E402,F401  (axes' sign-in attempts, its clean-up for deleters)
