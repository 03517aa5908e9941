"""Deck designs in the back office: a games manager uploads a ZIP of one scan of each card; the reader
enrols it (``tables.services.decks``) and the design can then be given to tables.  Designs are never
edited: a new set of scans is a new design."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from tables.engine.errors import InvalidInput
from tables.models import DeckDesign
from tables.services import decks


class EnrolForm(forms.ModelForm):
    archive = forms.FileField(
        help_text="A ZIP of one scan of each card of the deck (PNG or JPEG), each named by its card code "
                  "(8S.png, 10H.jpg, JK.png), or with a labels.json as for 'python -m vision enroll'.",
    )  # fmt: skip

    class Meta:
        model = DeckDesign
        fields = ("casino", "name")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("archive")
        if upload is not None and not self.errors:
            if upload.size > decks.MAX_ARCHIVE_BYTES:
                raise ValidationError({"archive": f"the archive is larger than {decks.MAX_ARCHIVE_BYTES // 2**20} MB"})
            try:
                self.enrolled = decks.deck_profile_build(upload.read())
            except InvalidInput as exc:
                raise ValidationError({"archive": exc.message}) from None
        return data


@admin.register(DeckDesign)
class DeckDesignAdmin(admin.ModelAdmin):
    list_display = ("name", "casino", "enrolled_cards", "glyph_samples", "created_by", "created_at")
    list_filter = ("casino",)
    search_fields = ("name",)
    readonly_fields = ("casino", "name", "enrolled_cards", "glyph_samples", "profile_sha256", "created_by",
                       "created_at", "used_by")  # fmt: skip

    @admin.display(description="cards enrolled")
    def enrolled_cards(self, obj: DeckDesign) -> str:
        return f"{sum(int(n) for n in obj.cards.values())} scans of {len(obj.cards)} cards"

    @admin.display(description="tables")
    def used_by(self, obj: DeckDesign) -> str:
        return ", ".join(str(t) for t in obj.tables.all()) or "none yet"

    def get_form(self, request: HttpRequest, obj: DeckDesign | None = None, change: bool = False, **kwargs: Any) -> Any:
        if obj is None:
            kwargs["form"] = EnrolForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: DeckDesign | None = None) -> Any:
        return ("casino", "name", "archive") if obj is None else self.readonly_fields

    def get_readonly_fields(self, request: HttpRequest, obj: DeckDesign | None = None) -> Any:
        return () if obj is None else self.readonly_fields

    def has_change_permission(self, request: HttpRequest, obj: DeckDesign | None = None) -> bool:
        return False  # enrolled, never edited

    def has_delete_permission(self, request: HttpRequest, obj: DeckDesign | None = None) -> bool:
        return False  # rounds were read with it

    def save_model(self, request: HttpRequest, obj: DeckDesign, form: Any, change: bool) -> None:
        created = decks.deck_design_create(casino=form.cleaned_data["casino"], name=form.cleaned_data["name"],
                                           enrolled=form.enrolled, actor=request.user)  # fmt: skip
        obj.pk = created.pk
        obj.__dict__.update(created.__dict__)
