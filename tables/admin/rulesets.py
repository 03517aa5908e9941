"""The typed rule-set form: one field per rule parameter of the game, built from the engine.

The fields, their ranges, choices and words come from ``tables.engine.rulesets.parameters`` (the
same ``SPECS`` the engine's ``check`` enforces), and the form validates by building the engine's
rules (``rules_from_params``): an error is the engine's, shown on the field it names, every wrong field
at once (``rules_problems``).  Choices read in words (``cut card``); the stored values are the engine's.
Contract Rummy's structured parameters (shoes, deals, card scores) are JSON fields, checked the same way.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms

from tables.engine.rulesets import Parameter, parameters, rules_from_params, rules_problems
from tables.models import RuleSet


class PrettyJSONField(forms.JSONField):
    """A JSON textarea indented for reading."""

    def prepare_value(self, value: Any) -> str:
        if isinstance(value, str):
            return value
        return json.dumps(value, indent=2, ensure_ascii=False)


def _form_field(p: Parameter) -> forms.Field:
    help_text = p.help
    if p.lo is not None and p.hi is not None:
        help_text = f"{help_text} ({p.lo} to {p.hi})" if help_text else f"{p.lo} to {p.hi}"
    common: dict[str, Any] = {"label": p.label, "help_text": help_text}
    if p.kind == "bool":
        return forms.BooleanField(required=False, **common)
    if p.kind == "choice":
        return forms.TypedChoiceField(choices=[(c, p.word(c)) for c in p.choices],
                                      coerce=int if isinstance(p.default, int) else str, **common)
    if p.kind == "int":
        # No min/max here: the engine's check gives the range, and its message, on this field.
        return forms.IntegerField(**common)
    return PrettyJSONField(widget=forms.Textarea(attrs={"rows": 6, "cols": 60, "class": "monospace"}), **common)


class RuleSetFormBase(forms.ModelForm):
    """Game, name and notes of a rule set, plus the typed parameters of its game (added by ``rule_set_form``)."""

    game_slug: str | None = None
    parameter_names: tuple[str, ...] = ()

    class Meta:
        model = RuleSet
        fields = ("game", "name", "notes")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stored = self.instance.params if self.instance.pk is not None else {}
        for p in parameters(self.game_slug) if self.game_slug else ():
            if p.name in self.fields:
                value = stored.get(p.name, self.initial.get(p.name, p.default))
                self.fields[p.name].initial = str(value) if p.kind == "choice" else value

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        if not self.game_slug:
            return data
        params = {name: data[name] for name in self.parameter_names if name in data}
        refused = [name for name in self.parameter_names if name not in params]  # a field already has its error
        problems = rules_problems(self.game_slug, params, refused)
        for exc in problems:
            # The engine names the parameter (``deals[2].cards`` is the "deals" field): the error goes there.
            name = (exc.field or "").split("[")[0].split(".")[0]
            if name in self.fields:
                self.add_error(name, f"{self.fields[name].label}: {exc.message}")
            else:
                self.add_error(None, f"{exc.field}: {exc.message}")
        if problems or refused:
            return data
        rules = rules_from_params(self.game_slug, params)
        self.instance.params = rules.to_params()
        return data


def rule_set_form(game_slug: str | None) -> type[RuleSetFormBase]:
    """The rule-set form of ``game_slug`` (None: game, name and notes only, until a game is chosen)."""
    attrs: dict[str, Any] = {"game_slug": game_slug}
    names: list[str] = []
    if game_slug:
        for p in parameters(game_slug):
            attrs[p.name] = _form_field(p)
            names.append(p.name)
    attrs["parameter_names"] = tuple(names)
    return type(f"RuleSetForm_{(game_slug or 'none').replace('-', '_')}", (RuleSetFormBase,), attrs)


def parameter_rows(rule_set: RuleSet) -> list[dict[str, Any]]:
    """The parameters of a stored rule set in words, for its read-only page and the version diff."""
    rows = []
    for p in parameters(rule_set.game.slug):
        value = rule_set.params.get(p.name, p.default)
        rows.append({"name": p.name, "label": p.label, "value": value_text(value, p),
                     "published": value_text(p.default, p), "differs": value != p.default})
    return rows


def value_text(value: Any, parameter: Parameter | None = None) -> str:
    """A parameter's value as read: a choice in words, yes/no, numbers, compact JSON for lists and objects."""
    if parameter is not None and parameter.choices:
        return parameter.word(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(", ", ": "))
    return str(value)
