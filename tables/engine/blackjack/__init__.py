"""Unlimited Blackjack and Mini Blackjack: one engine, two rule sets (``rulesets.BlackjackRules``).

Modules: ``hands`` (pure totals and the dealer's rule), ``outcome`` (settlement and rule checks of
final hands, shared by verification and the live round), ``verification`` (``verify(request)``),
``live`` (the live round: state, ``next_step``, verify_/can_/do triples).  Side bets are in
``tables.engine.sidebets`` and basic-strategy hints in ``tables.engine.strategy``.

Verify request (shared/DESIGN.md) and the extras this engine accepts:
- ``rules`` (optional): rule-set parameters over the published ones (e.g. ``{"dealer_hits_soft_17": true}``).
- ``seats[i].player`` and ``seats[i].behind[j].player`` (optional ids): a bettor behind their own
  seat is the violation ``blackjack.bet-behind-own-seat``.
- ``seats[i].refuses_bets_behind`` (optional bool): bets behind such a seat are the violation
  ``blackjack.bets-behind-refused``.
- ``seats[i].wagers.insurance`` and ``seats[i].behind[j].wagers.insurance``: insurance stakes,
  exactly half the main bet (rounded down to the cent), settled 2:1 on a dealer blackjack.
- A seat that did not play the round is given with no ``wagers`` and no ``hands``; its bets behind
  are refunded (result ``refund``).
- ``behind[j].double_along`` defaults to false and ``behind[j].follow_split`` to ``"both"``.
- Cards are checked against one shoe of the rule set: a card dealt more often than the shoe holds
  is an ``InvalidCard`` naming the field.  Every hand holds at least two cards; the dealer's hand at
  least the up card and the hole card, up card first.
"""

from __future__ import annotations

from .hands import (
    card_points,
    dealer_must_hit,
    describe_total,
    hand_total,
    is_ace,
    is_blackjack,
    is_ten_value,
    same_value,
)
from .verification import verify

__all__ = [
    "card_points",
    "dealer_must_hit",
    "describe_total",
    "hand_total",
    "is_ace",
    "is_blackjack",
    "is_ten_value",
    "same_value",
    "verify",
]
