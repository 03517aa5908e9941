"""Reverting from the history pages: it needs the right to change the object as it stands; reading stays open.

django-simple-history's history form saves on POST with the view permission only; these tests pin
that a read-only role cannot write through it and that a published version refuses a revert with a
message instead of a 500.
"""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from django.contrib import admin
from django.contrib.messages import get_messages
from django.db import models
from django.test import Client
from django.urls import reverse
from simple_history.admin import SimpleHistoryAdmin

from tables.models import Game, PayTable, RuleSet, VersionStatus
from tests.factories import PASSWORD, RuleSetFactory
from tests.tables.admin.forms import form_data

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def _history_admins() -> list[tuple[type[models.Model], SimpleHistoryAdmin]]:
    return [(m, a) for m, a in admin.site._registry.items() if isinstance(a, SimpleHistoryAdmin)]


def _revert_url(obj: models.Model) -> str:
    record = obj.history.order_by("history_id").last()  # type: ignore[attr-defined]
    opts = obj._meta
    return reverse(f"admin:{opts.app_label}_{opts.model_name}_simple_history", args=[obj.pk, record.history_id])


def _post_back(client: Client, url: str) -> tuple[dict[str, Any], Any]:
    """GET the history form and POST it back with its text fields changed, as the probe did."""
    page = client.get(url)
    assert page.status_code == 200, url
    form = page.context["adminform"].form
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if value is None:
            continue
        if isinstance(field, forms.JSONField):
            value = field.prepare_value(value)
        data[name] = value
    if "name" in data:
        data["name"] = "X"
    return data, client.post(url, data)


def _objects(demo_casino: Any) -> dict[type, models.Model]:
    return {
        type(o): o
        for o in [
            demo_casino.casino, demo_casino.pit, next(iter(demo_casino.tables.values())), Game.objects.first(),
            RuleSet.objects.filter(status=VersionStatus.PUBLISHED).first(),
            PayTable.objects.filter(status=VersionStatus.PUBLISHED).first(),
        ]
    }


def test_every_history_admin_is_covered_here(demo_casino) -> None:
    assert {m for m, _ in _history_admins()} <= set(_objects(demo_casino)), "add the new model to _objects()"


def test_the_auditor_reads_every_history_but_reverts_nothing(auditor, demo_casino) -> None:
    client = _client(auditor)
    objects = _objects(demo_casino)
    drafts = [RuleSetFactory()]  # a draft too: the published guard must not be what stops the auditor
    for model, _ in _history_admins():
        for obj in [objects[model], *[d for d in drafts if isinstance(d, model)]]:
            opts = obj._meta
            history = client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_history", args=[obj.pk]))
            assert history.status_code == 200, obj
            url = _revert_url(obj)
            page = client.get(url)
            assert page.status_code == 200, obj
            assert b'value="Revert"' not in page.content, obj
            before = obj.history.count()  # type: ignore[attr-defined]
            _, response = _post_back(client, url)
            assert response.status_code == 403, (obj, response.status_code)
            obj.refresh_from_db()
            assert getattr(obj, "name", None) != "X", obj
            assert obj.history.count() == before, obj  # type: ignore[attr-defined]


def test_a_published_version_refuses_a_revert_with_a_message(games_manager) -> None:
    rule_set = RuleSet.objects.filter(status=VersionStatus.PUBLISHED).first()
    client = _client(games_manager)
    url = _revert_url(rule_set)
    assert b'value="Revert"' not in client.get(url).content
    _, response = _post_back(client, url)
    assert response.status_code == 302 and response["Location"] == url
    texts = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("is published and cannot be reverted" in t for t in texts), texts
    rule_set.refresh_from_db()
    assert rule_set.name != "X"


def test_the_games_manager_still_reverts_a_draft(games_manager) -> None:
    draft = RuleSetFactory(name="First name")
    first = draft.history.order_by("history_id").first()
    draft.name = "Second name"
    draft.save()
    client = _client(games_manager)
    url = reverse("admin:tables_ruleset_simple_history", args=[draft.pk, first.history_id])
    page = client.get(url)
    assert b'value="Revert"' in page.content
    form = page.context["adminform"].form
    response = client.post(url, form_data(form))
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.name == "First name"
    assert draft.history.first().history_user == games_manager
