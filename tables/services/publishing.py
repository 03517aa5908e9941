"""Publishing rule-set and pay-table versions: the >100% return warning and the maker-checker.

A games manager asks to publish a draft; when any bet or line of it returns more than 100% to the
player (or its return is not known yet: the simulation still runs), the request needs an explicit
acknowledgement.  With ``PUBLISH_NEEDS_SECOND_APPROVAL`` on (the default) the draft waits in a
``PublishRequest`` until a *second* games manager approves it — the one who asked cannot — and is
published then; off, the request publishes at once.  Every step is an audit event in its transaction.

The figures come from the one theory store (``tables.services.theory``): the pay table's page, the
warning and the hold audit read the same numbers.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from tables import conf
from tables.engine.settlement import bet_words
from tables.errors import Conflict, InvalidInput
from tables.models import PayTable, PublishRequest, PublishStatus, RuleSet, VersionStatus
from tables.services.theory import default_rule_set, rule_set_house_edge, theory_for

Version = RuleSet | PayTable

# Statuses of the theory in which the figures are not all known yet.
UNKNOWN = ("pending", "running", "failed")


class AcknowledgementNeeded(Conflict):
    """The version returns more than 100% somewhere (or its return is unknown): say so explicitly first."""

    def __init__(self, warnings: list[dict[str, Any]]) -> None:
        self.warnings = warnings
        super().__init__("; ".join(w["text"] for w in warnings) + ". Acknowledge the warning to go on.")


def _pct(value: float) -> str:
    return f"{value * 100:.4f}%"


def return_warnings(version: Version) -> list[dict[str, Any]]:
    """What of ``version`` returns more than 100% to the player, or is not known yet, in words.

    Each warning is ``{"kind": "over-100" | "unknown", "what", "rtp", "text"}``.  A pay table is
    judged under the rule set its page shows (the game's latest published one); a rule set with the
    game's latest published pay table.
    """
    out: list[dict[str, Any]] = []
    if isinstance(version, PayTable):
        theory = theory_for(version, default_rule_set(version))
        if theory["status"] == "invalid":
            return out  # an incomplete draft: ``check_publishable`` refuses it in words
        for line in theory["lines"]:
            contribution = line.get("contribution")
            if contribution is not None and contribution > 1:
                out.append({"kind": "over-100", "what": line["name"], "rtp": contribution,
                            "text": f"the line {line.get('label') or line['name']} alone returns "
                                    f"{_pct(contribution)} of the {bet_words(line['bet'])} wager"})
        for bet, info in theory["bets"].items():
            rtp = info.get("rtp")
            if rtp is not None and rtp > 1:
                what = "the whole table (main wager)" if bet == "main" else f"the {bet_words(bet)} bet"
                out.append({"kind": "over-100", "what": bet, "rtp": rtp,
                            "text": f"{what} returns {_pct(rtp)} to the player (house edge {_pct(1 - rtp)})"})
        if theory["status"] in UNKNOWN:
            out.append({"kind": "unknown", "what": "main", "rtp": None,
                        "text": "the return of the simulated lines is not known yet (the simulation has not finished)"})
        return out
    edge = rule_set_house_edge(version)
    if edge["rtp"] is not None and edge["rtp"] > 1:
        out.append({"kind": "over-100", "what": "main", "rtp": edge["rtp"],
                    "text": f"the main wager returns {_pct(edge['rtp'])} to the player under these rules"})
    elif edge["status"] in UNKNOWN:
        out.append({"kind": "unknown", "what": "main", "rtp": None,
                    "text": "the return of the main wager is not known yet (the simulation has not finished)"})
    return out


def _rules_of(rule_set: RuleSet) -> Any:
    try:
        return rule_set.rules().to_params()
    except InvalidInput:
        return rule_set.params


def content_hash(version: Version) -> str:
    """sha256 of what a version says (its rules or lines, name and notes): what the checker approves."""
    # A rule set by its complete rules (a stored {} and the published values written out are the same rules).
    body = _rules_of(version) if isinstance(version, RuleSet) else version.as_engine_json()
    document = {"name": version.name, "notes": version.notes, "body": body}
    return hashlib.sha256(json.dumps(document, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _check_manager(actor: Any, version: Version) -> None:
    if not actor.has_perm(version.publish_permission):
        raise PermissionDenied(f"{actor} may not publish {version._meta.verbose_name_plural}.")


def _audit(actor: Any, action: str, request: PublishRequest, **extra: Any) -> None:
    from tables.services import audit  # the one writer of audit events

    version = request.version
    audit(actor=actor, action=action, payload={
        "model": version._meta.model_name, "version_id": version.pk, "version": str(version),
        "request": request.pk, "requested_by": request.requested_by.get_username(), **extra})


def pending_request(version: Version) -> PublishRequest | None:
    """The open publish request of ``version``, if any."""
    return version.publish_requests.filter(status=PublishStatus.PENDING).select_related("requested_by").first()


def request_publish(version: Version, *, actor: Any, acknowledged: bool = False, note: str = "") -> PublishRequest:
    """Ask to publish a draft: refused while it returns >100% unacknowledged; published at once without maker-checker."""
    _check_manager(actor, version)
    if version.is_published:
        raise Conflict(f"{version} is already published.")
    version.check_publishable()  # an incomplete draft is refused in words before anyone is asked
    warnings = return_warnings(version)
    if warnings and not acknowledged:
        raise AcknowledgementNeeded(warnings)
    field = "rule_set" if isinstance(version, RuleSet) else "pay_table"
    with transaction.atomic():
        type(version)._base_manager.select_for_update().get(pk=version.pk)  # one request at a time per version
        if pending_request(version) is not None:
            raise Conflict(f"{version} already awaits a second games manager's approval.")
        request = PublishRequest.objects.create(**{field: version}, requested_by=actor, warnings=warnings,
                                                acknowledged=bool(warnings and acknowledged), note=note.strip(),
                                                content_hash=content_hash(version))
        _audit(actor, "publish.requested", request, warnings=warnings, acknowledged=request.acknowledged)
        if not conf.publish_needs_second_approval():
            _publish(request, actor)
    return request


def approve_publish(request: PublishRequest, *, actor: Any, acknowledged: bool = False) -> PublishRequest:
    """A second games manager approves: the version is published.  The requester cannot approve their own."""
    version = request.version
    _check_manager(actor, version)
    if actor.pk == request.requested_by_id:
        raise PermissionDenied("You asked to publish this version; a second games manager must approve it.")
    warnings = return_warnings(version)  # again: the simulation may have finished since the request
    if warnings and not acknowledged:
        raise AcknowledgementNeeded(warnings)
    with transaction.atomic():
        locked = PublishRequest.objects.select_for_update().get(pk=request.pk)
        if locked.status != PublishStatus.PENDING:
            raise Conflict(f"This request was already {locked.get_status_display().lower()}.")
        # The checker approves what the maker asked for: a draft edited since (the admin keeps it
        # read-only while asked, but not every route is the admin) must be asked for again.
        version = type(version)._base_manager.select_for_update().get(pk=version.pk)
        if locked.content_hash and content_hash(version) != locked.content_hash:
            raise Conflict(f"{version} was changed after it was asked to be published; withdraw the request "
                           "and ask again.")
        _audit(actor, "publish.approved", locked, warnings=warnings, acknowledged=bool(warnings and acknowledged))
        _publish(locked, actor)
    request.refresh_from_db()
    return request


def refuse_publish(request: PublishRequest, *, actor: Any, note: str = "") -> PublishRequest:
    """Refuse a request (a second games manager) or withdraw it (its requester); the version stays a draft."""
    version = request.version
    _check_manager(actor, version)
    with transaction.atomic():
        locked = PublishRequest.objects.select_for_update().get(pk=request.pk)
        if locked.status != PublishStatus.PENDING:
            raise Conflict(f"This request was already {locked.get_status_display().lower()}.")
        withdrawn = actor.pk == locked.requested_by_id
        locked.status = PublishStatus.WITHDRAWN if withdrawn else PublishStatus.REFUSED
        locked.decided_by, locked.decided_at = actor, timezone.now()
        locked.note = "\n".join(x for x in (locked.note, note.strip()) if x)
        locked.save(update_fields=["status", "decided_by", "decided_at", "note"])
        _audit(actor, "publish.withdrawn" if withdrawn else "publish.refused", locked, note=note.strip())
    request.refresh_from_db()
    return request


def _publish(request: PublishRequest, actor: Any) -> None:
    # The version's own ``publish`` locks it, checks it again and records who published it in its history.
    version = request.version
    version.publish(actor=actor)
    request.status = PublishStatus.APPROVED
    request.decided_by, request.decided_at = actor, timezone.now()
    request.save(update_fields=["status", "decided_by", "decided_at"])
    _audit(actor, "publish.done", request, published_at=timezone.localtime(version.published_at).isoformat()
           if version.published_at else None)


def published(version: Version) -> bool:
    """Whether ``version`` is published (read again from the database)."""
    return type(version)._base_manager.filter(pk=version.pk, status=VersionStatus.PUBLISHED).exists()
