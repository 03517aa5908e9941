"""Everything that writes the live floor: tables, shoes, rounds, cards, decisions, settlement, payment.

Each service is ``<noun>_<verb>(*, ..., actor)``: it runs in one transaction, locks the row it changes
with ``select_for_update()`` in the one lock order (table → game → round, see ``_lock_table``), checks the
actor's right to act at that table, calls the rules engine, and writes an ``AuditEvent`` in the same
transaction.  The live round is rebuilt for each command by replaying its stored cards and decisions
through the engine (``tables.engine.live``): the database is the single source of truth, so a tablet that
reloads or loses the network picks the round up exactly where it was.
"""

from __future__ import annotations

from tables.errors import Conflict
from tables.services.alerts import finding_acknowledge, round_reject
from tables.services.bluffjack import bluffjack_game_end, bluffjack_hand_open
from tables.services.common import (
    approval_amount,
    approval_multiple,
    audit,
    required_reason,
    scan_confidence,
)
from tables.services.rounds import (
    card_correct,
    round_add_card,
    round_approve,
    round_cancel,
    round_decide,
    round_open,
    round_pause,
    round_record_paid,
    round_resume,
    round_settle,
    round_settle_interrupted,
)
from tables.services.scans import (
    MAX_IMAGE_BYTES,
    MAX_IMAGE_PIXELS,
    MAX_IMAGE_SIDE,
    ScanReading,
    ScanResult,
    check_image_header,
    decode_image,
    recognise,
    round_scan_card,
    scan_dismiss,
    scan_precheck,
    scan_read,
)
from tables.services.tables import shoe_shuffle, table_close, table_open, table_open_for_play

__all__ = [
    "MAX_IMAGE_BYTES", "MAX_IMAGE_PIXELS", "MAX_IMAGE_SIDE", "Conflict", "ScanReading", "ScanResult",
    "approval_amount", "approval_multiple", "audit", "bluffjack_game_end", "bluffjack_hand_open",
    "card_correct", "check_image_header", "decode_image", "finding_acknowledge", "recognise",
    "required_reason", "round_add_card", "round_approve", "round_cancel", "round_decide", "round_open",
    "round_pause", "round_record_paid", "round_reject", "round_resume", "round_scan_card", "round_settle",
    "round_settle_interrupted", "scan_confidence", "scan_dismiss", "scan_precheck", "scan_read",
    "shoe_shuffle", "table_close", "table_open", "table_open_for_play",
]  # fmt: skip
