"""Publishing through ``tables.services.publishing``: the >100% warning and the maker-checker, each step audited."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from tables.errors import Conflict
from tables.models import AuditEvent, PublishStatus, VersionStatus
from tables.services import publishing
from tests.factories import PayTableFactory, RuleSetFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("_empty_cache")]


@pytest.fixture
def second(db: None):  # type: ignore[no-untyped-def]
    from tables.access import GAMES_MANAGER
    from tests.conftest import _persona

    return _persona("manager2", GAMES_MANAGER, staff=True)


def _perfect_pairs_30_to_1():  # type: ignore[no-untyped-def]
    draft = PayTableFactory()
    line = draft.lines.get(name="perfect-pairs/perfect")
    line.odds_numerator, line.odds_denominator = 30, 1
    line.save()
    return draft


def _actions() -> list[str]:
    return list(AuditEvent.objects.filter(action__startswith="publish.").order_by("id").values_list("action", flat=True))


def test_perfect_pairs_at_30_to_1_is_a_return_above_100_percent() -> None:
    warnings = publishing.return_warnings(_perfect_pairs_30_to_1())
    assert [(w["kind"], w["what"]) for w in warnings] == [("over-100", "perfect-pairs")]
    assert "the Perfect Pairs bet returns 104.3373% to the player" in warnings[0]["text"]


def test_the_published_pay_table_has_no_warning() -> None:
    assert publishing.return_warnings(PayTableFactory()) == []


def test_a_return_above_100_percent_is_refused_until_acknowledged(games_manager) -> None:
    draft = _perfect_pairs_30_to_1()
    with pytest.raises(publishing.AcknowledgementNeeded, match="104.3373%"):
        publishing.request_publish(draft, actor=games_manager)
    request = publishing.request_publish(draft, actor=games_manager, acknowledged=True)
    assert request.acknowledged and request.warnings[0]["what"] == "perfect-pairs"
    assert _actions() == ["publish.requested"]


def test_the_requester_cannot_approve_and_a_second_manager_publishes(games_manager, second) -> None:
    draft = RuleSetFactory()
    request = publishing.request_publish(draft, actor=games_manager)
    draft.refresh_from_db()
    assert request.status == PublishStatus.PENDING and draft.status == VersionStatus.DRAFT
    with pytest.raises(PermissionDenied, match="a second games manager must approve"):
        publishing.approve_publish(request, actor=games_manager)
    publishing.approve_publish(request, actor=second)
    draft.refresh_from_db()
    request.refresh_from_db()
    assert draft.status == VersionStatus.PUBLISHED and draft.published_by == second
    assert (request.status, request.requested_by, request.decided_by) == (PublishStatus.APPROVED, games_manager, second)
    assert _actions() == ["publish.requested", "publish.approved", "publish.done"]
    event = AuditEvent.objects.get(action="publish.done")
    assert event.actor == second and event.payload["requested_by"] == games_manager.username


def test_the_checker_acknowledges_the_warning_too(games_manager, second) -> None:
    draft = _perfect_pairs_30_to_1()
    request = publishing.request_publish(draft, actor=games_manager, acknowledged=True)
    with pytest.raises(publishing.AcknowledgementNeeded):
        publishing.approve_publish(request, actor=second)
    publishing.approve_publish(request, actor=second, acknowledged=True)
    draft.refresh_from_db()
    assert draft.is_published


def test_one_open_request_per_version_and_a_refusal_keeps_the_draft(games_manager, second) -> None:
    draft = RuleSetFactory()
    request = publishing.request_publish(draft, actor=games_manager)
    with pytest.raises(Conflict, match="already awaits"):
        publishing.request_publish(draft, actor=second)
    publishing.refuse_publish(request, actor=second, note="not this week")
    request.refresh_from_db()
    draft.refresh_from_db()
    assert request.status == PublishStatus.REFUSED and draft.status == VersionStatus.DRAFT
    with pytest.raises(Conflict, match="already refused"):
        publishing.approve_publish(request, actor=second)
    assert _actions() == ["publish.requested", "publish.refused"]


def test_the_requester_withdraws(games_manager) -> None:
    request = publishing.request_publish(RuleSetFactory(), actor=games_manager)
    publishing.refuse_publish(request, actor=games_manager)
    request.refresh_from_db()
    assert request.status == PublishStatus.WITHDRAWN
    assert _actions() == ["publish.requested", "publish.withdrawn"]


def test_without_the_maker_checker_one_manager_publishes(games_manager, settings) -> None:
    settings.PUBLISH_NEEDS_SECOND_APPROVAL = False
    draft = RuleSetFactory()
    request = publishing.request_publish(draft, actor=games_manager)
    draft.refresh_from_db()
    assert request.status == PublishStatus.APPROVED and draft.published_by == games_manager
    assert _actions() == ["publish.requested", "publish.done"]


def test_a_pit_boss_cannot_ask_or_approve(pit_boss, games_manager) -> None:
    draft = RuleSetFactory()
    with pytest.raises(PermissionDenied):
        publishing.request_publish(draft, actor=pit_boss)
    request = publishing.request_publish(draft, actor=games_manager)
    with pytest.raises(PermissionDenied):
        publishing.approve_publish(request, actor=pit_boss)


def test_a_draft_edited_after_the_request_is_not_approved(games_manager, second) -> None:
    draft = _perfect_pairs_30_to_1()
    request = publishing.request_publish(draft, actor=games_manager, acknowledged=True)
    line = draft.lines.get(name="perfect-pairs/perfect")
    line.odds_numerator = 40  # behind the checker's back (the admin keeps an asked-for draft read-only)
    line.save()
    with pytest.raises(Conflict, match="was changed after it was asked to be published"):
        publishing.approve_publish(request, actor=second, acknowledged=True)
    draft.refresh_from_db()
    assert draft.status == VersionStatus.DRAFT
