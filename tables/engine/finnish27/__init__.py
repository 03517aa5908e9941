"""No-Bust Finnish 27: values, forced plays, settlement, live round and verification.

Rule text: shared/rules/finnish-27-no-bust.txt; readings: shared/rules/README.md.
- ``values``: card values, soft/hard totals, initial 27s, forced plays (fast pure functions);
- ``settle``: outcome, bonus lines, settlement lines;
- ``check``: violations of finished hands and the ``verify`` contract;
- ``live``: the live round (events, ``next_step``, verify/can/do triples).
"""

from __future__ import annotations

from .check import hand_violations, parse_request, verify
from .live import (
    Finnish27Round,
    can_deal,
    can_hit,
    can_settle,
    can_stand,
    deal,
    hit,
    new_round,
    next_step,
    replay,
    settle_round,
    stand,
    verify_deal,
    verify_hit,
    verify_settle,
    verify_stand,
)
from .settle import Outcome, Settlement, best_bonus, bonus_candidates, bonus_line, outcome, settle
from .values import (
    card_value,
    dealer_must_hit,
    describe,
    forced_play,
    forced_reason,
    hand_value,
    initial_27,
    initial_winner,
    player_decided,
)

__all__ = [
    "Finnish27Round", "Outcome", "Settlement", "best_bonus", "bonus_candidates", "bonus_line", "can_deal",
    "can_hit", "can_settle", "can_stand", "card_value", "deal", "dealer_must_hit", "describe", "forced_play",
    "forced_reason", "hand_value", "hand_violations", "hit", "initial_27", "initial_winner", "new_round",
    "next_step", "outcome", "parse_request", "player_decided", "replay", "settle", "settle_round", "stand",
    "verify", "verify_deal", "verify_hit", "verify_settle", "verify_stand",
]  # fmt: skip
