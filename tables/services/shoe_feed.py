"""Shoe feeds: devices (a card-reading shoe, a document camera) that post card images for one table.

A device holds a key bound to one table (``ShoeFeedDevice``; only the key's SHA-256 is stored).  Its
images go through the very checks and reader of a dealer's scan — the device's right first, then the
round's state, the image's size from its header, the reader outside any transaction — and land in the
table's round in play as the dealer's next card.  The device acts for the dealer holding the table
(the scan and its cards are recorded by that dealer, accountable for the cards dealt), and every image
it sends writes an audit event naming the device.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from tables import services
from tables.access import check_pit_boss
from tables.errors import Conflict
from tables.models import Round, RoundState, ShoeFeedDevice, Table, TableSession
from tables.models.shoe_feed import key_digest

KEY_BYTES = 32  # 256 bits of randomness: not guessable, not worth rate-limiting against


def shoe_feed_issue(*, table: Table, name: str, actor: Any) -> tuple[ShoeFeedDevice, str]:
    """A pit boss pairs a device with a table; returns the device and its key (shown once, never stored)."""
    check_pit_boss(actor)
    name = services.required_reason(name, "a device")[:80]
    key = secrets.token_urlsafe(KEY_BYTES)
    with transaction.atomic():
        device = ShoeFeedDevice.objects.create(table=table, name=name, key_sha256=key_digest(key), created_by=actor)
        services.audit(actor=actor, action="shoe_feed.issue", table=table, payload={"device": device.pk, "name": name})
    return device, key


def shoe_feed_revoke(*, device: ShoeFeedDevice, actor: Any) -> ShoeFeedDevice:
    """A pit boss revokes a device's key (a lost or replaced shoe); its next image is refused."""
    check_pit_boss(actor)
    with transaction.atomic():
        device = ShoeFeedDevice.objects.select_for_update().get(pk=device.pk)
        if device.revoked_at is None:
            device.revoked_at = timezone.now()
            device.save(update_fields=["revoked_at"])
            services.audit(actor=actor, action="shoe_feed.revoke", table=device.table,
                           payload={"device": device.pk, "name": device.name})  # fmt: skip
    return device


def shoe_feed_device(key: str) -> ShoeFeedDevice | None:
    """The live (not revoked) device holding ``key``, if any."""
    return (ShoeFeedDevice.objects.select_related("table").filter(key_sha256=key_digest(key), revoked_at__isnull=True)
            .first())  # fmt: skip


def shoe_feed_dealer(device: ShoeFeedDevice) -> Any | None:
    """The dealer the device acts for: whoever holds its table now."""
    session = TableSession.objects.select_related("dealer").filter(table=device.table_id, closed_at__isnull=True).first()
    return session.dealer if session else None


def shoe_feed_round(device: ShoeFeedDevice) -> Round:
    """The round in play at the device's table; a ``Conflict`` when there is none (the card waits)."""
    rnd = (Round.objects.filter(table=device.table_id, state=RoundState.IN_PLAY).order_by("-number")
           .select_related("table").first())  # fmt: skip
    if rnd is None:
        raise Conflict(f"no round is in play at table {device.table.number}: deal the card when a round is open")
    return rnd


def shoe_feed_store(*, device: ShoeFeedDevice, round: Round, reading: services.ScanReading,
                    dealer: Any) -> services.ScanResult:
    """Store a device's image read by ``services.scan_read`` as the dealer's scan, with an audit event
    naming the device (one transaction: the scan, its cards and both audit events)."""
    with transaction.atomic():
        result = services.round_scan_card(round=round, reading=reading, actor=dealer)
        ShoeFeedDevice.objects.filter(pk=device.pk).update(last_seen_at=timezone.now())
        services.audit(actor=dealer, action="round.shoe_feed", table=round.table, round=round,
                       payload={"device": device.pk, "name": device.name, "sha256": reading.sha256,
                                "recorded": [c.code for c in result.recorded]})  # fmt: skip
    return result
