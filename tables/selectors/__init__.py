"""Reads of the live floor for the tablet, the API and the dashboard.  Nothing here writes, and nothing here
imports the services (they import these).  ``floor``: tables, who holds them, shoe gauge and limits;
``rounds``: a round as the engine sees it and as a document, recall, trail, scans; ``round_view``: the
tablet's words for a live round."""

from __future__ import annotations

from tables.access import READ_ROLES, check_can_read
from tables.selectors import round_view
from tables.selectors.floor import (
    current_round,
    deck_profile_of,
    held_by,
    seat_count,
    shoe_gauge,
    shoes_of,
    table_document,
    table_get,
    table_limits,
    table_list,
)
from tables.selectors.rounds import (
    RECALL_ROUNDS,
    current_shoe,
    engine_shoe,
    engine_shoe_spec,
    one_moment,
    round_document,
    round_fresh,
    round_get,
    round_read,
    round_recall,
    round_state,
    round_trail,
    scan_get,
    scan_image_url,
)

__all__ = [
    "READ_ROLES", "RECALL_ROUNDS", "check_can_read", "current_round", "current_shoe", "deck_profile_of", "engine_shoe",
    "engine_shoe_spec", "held_by", "one_moment", "round_document", "round_fresh", "round_get", "round_read", "round_recall", "round_state", "round_trail",
    "round_view", "scan_get", "scan_image_url", "seat_count", "shoe_gauge", "shoes_of", "table_document",
    "table_get", "table_limits", "table_list",
]  # fmt: skip
