"""Verification of a finished Finnish 27 round from its final hands, and the ``verify`` contract.

Rule breaches are reported as violations (each with a stable rule id) and the round is still
settled as the hands lie; only malformed input raises ``InvalidInput``.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from ..cards import Card, parse_cards
from ..errors import InvalidCard, InvalidInput, RuleViolation
from ..money import fmt, parse_amount
from ..rulesets import Finnish27Rules, rules_from_params
from ..settlement import discrepancies
from ..shoe import Shoe
from ..verify import paid_of, pay_table_of, table_minimum_of
from .settle import settle
from .values import (
    HIT,
    PUBLISHED_RULES,
    STAND,
    dealer_reason,
    describe,
    forced_reason,
    hand_value,
    initial_27,
    player_decided,
)

# Stable rule ids (also used to refuse the same actions in the live round).
PLAYER_FORCED_HIT = "finnish27.player-forced-hit"  # stood where a hit was forced
PLAYER_FORCED_STAND = "finnish27.player-forced-stand"  # hit where standing was forced
PLAYER_DREW_AFTER_DECIDED = "finnish27.player-drew-after-decided"
DEALER_DREW_AFTER_DECIDED = "finnish27.dealer-drew-after-decided"
DEALER_STOOD_BELOW_24 = "finnish27.dealer-stood-below-24"
DEALER_STOOD_BELOW_SOFT_25 = "finnish27.dealer-stood-below-soft-25"
DEALER_HIT_ON_24 = "finnish27.dealer-hit-on-24-or-more"
DEALER_HIT_ON_SOFT_25 = "finnish27.dealer-hit-on-soft-25-or-more"

WAGER_KINDS = ("main",)


def hand_violations(
    player: Sequence[Card], dealer: Sequence[Card], rules: Finnish27Rules = PUBLISHED_RULES
) -> list[RuleViolation]:
    """How the final hands break the drawing rules (first breach of each rule, in playing order)."""
    found: dict[str, RuleViolation] = {}

    def add(rule: str, message: str) -> None:
        found.setdefault(rule, RuleViolation(rule, message))

    p2, d2 = player[:2], dealer[:2]
    pk, dk = initial_27(p2), initial_27(d2)
    if pk or dk:
        who = f"an initial 27 ({describe(p2) if pk else describe(d2)}) decided the round at once"
        if len(player) > 2:
            add(PLAYER_DREW_AFTER_DECIDED, f"the player drew {len(player) - 2} card(s) although {who}")
        if len(dealer) > 2:
            add(DEALER_DREW_AFTER_DECIDED, f"the dealer drew {len(dealer) - 2} card(s) although {who}")
        return list(found.values())
    for k in range(2, len(player) + 1):
        play, why = forced_reason(player[:k], d2)
        hit = k < len(player)
        if hit and play == STAND:
            add(PLAYER_FORCED_STAND, f"the player hit with {len(player[:k])} cards where {why}")
        elif not hit and play == HIT:
            add(PLAYER_FORCED_HIT, f"the player stood where {why}")
    decided = player_decided(player, rules)
    if decided is not None:
        if len(dealer) > 2:
            reason = "the player's 27 had won" if decided == "player" else "the player's hand over hard 35 had lost"
            add(DEALER_DREW_AFTER_DECIDED, f"the dealer drew {len(dealer) - 2} card(s) although {reason}")
        return list(found.values())
    for k in range(2, len(dealer) + 1):
        play, why = dealer_reason(dealer[:k], rules)
        hit = k < len(dealer)
        soft = hand_value(dealer[:k])[1]
        if hit and play == STAND:
            add(DEALER_HIT_ON_SOFT_25 if soft else DEALER_HIT_ON_24, f"the dealer drew where {why}")
        elif not hit and play == HIT:
            add(DEALER_STOOD_BELOW_SOFT_25 if soft else DEALER_STOOD_BELOW_24, f"the dealer stood where {why}")
    return list(found.values())


def _cards(raw: object, field: str) -> list[Card]:
    if isinstance(raw, str):
        raise InvalidInput("expected a list of card codes", field=field)
    cards = parse_cards(raw, field=field)
    if len(cards) < 2:
        raise InvalidInput(f"a Finnish 27 hand has at least two cards, got {len(cards)}", field=field)
    return cards


def _check_shoe(rules: Finnish27Rules, dealt: list[tuple[Card, str]]) -> None:
    """Refuse cards the shoe cannot hold (too many copies, or a Joker without Jokers)."""
    shoe = Shoe(rules.shoe)
    for card, field in dealt:
        try:
            shoe.deal(card)
        except InvalidCard as e:
            raise InvalidCard(e.message, field=field) from None


def parse_request(request: dict[str, Any]) -> dict[str, Any]:
    """Parse and check a Finnish 27 verify request; ``InvalidInput`` names the bad field."""
    table_minimum = table_minimum_of(request)
    pay_table = pay_table_of(request, "finnish-27")
    rules = rules_from_params("finnish-27", request.get("rules"))
    assert isinstance(rules, Finnish27Rules)
    dealer_raw = request.get("dealer")
    if not isinstance(dealer_raw, dict) or "cards" not in dealer_raw:
        raise InvalidInput('expected {"cards": [...]}', field="dealer")
    dealer = _cards(dealer_raw["cards"], "dealer.cards")
    seats = request.get("seats")
    if not isinstance(seats, list) or len(seats) != 1:
        raise InvalidInput("a Finnish 27 round has exactly one seat", field="seats")
    seat = seats[0]
    if not isinstance(seat, dict):
        raise InvalidInput("expected a seat object", field="seats[0]")
    number = seat.get("seat", 1)
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise InvalidInput(f"seat must be a positive whole number, got {number!r}", field="seats[0].seat")
    wagers = seat.get("wagers")
    if not isinstance(wagers, dict) or "main" not in wagers:
        raise InvalidInput('expected {"main": "10.00"}', field="seats[0].wagers")
    for kind in wagers:
        if kind not in WAGER_KINDS:
            raise InvalidInput(
                f"unknown wager {kind!r}: Finnish 27 has only the game wager (bonuses are paid on it)",
                field=f"seats[0].wagers.{kind}",
            )
    wager = parse_amount(wagers["main"], field="seats[0].wagers.main")
    hands = seat.get("hands")
    if not isinstance(hands, list) or len(hands) != 1 or not isinstance(hands[0], dict):
        raise InvalidInput('a Finnish 27 seat has exactly one hand {"cards": [...]}', field="seats[0].hands")
    player = _cards(hands[0].get("cards"), "seats[0].hands[0].cards")
    paid = paid_of(seat, "seats[0]")
    if paid is not None:
        for kind in paid:
            if kind not in ("main", "bonus"):
                raise InvalidInput(f"unknown bet kind {kind!r}; expected main or bonus", field=f"seats[0].paid.{kind}")
    # Deal order: player, dealer, player, dealer, then the player's draws, then the dealer's.
    order = [(player[0], "seats[0].hands[0].cards[0]"), (dealer[0], "dealer.cards[0]"),
             (player[1], "seats[0].hands[0].cards[1]"), (dealer[1], "dealer.cards[1]")]  # fmt: skip
    order += [(c, f"seats[0].hands[0].cards[{i}]") for i, c in enumerate(player) if i >= 2]
    order += [(c, f"dealer.cards[{i}]") for i, c in enumerate(dealer) if i >= 2]
    _check_shoe(rules, order)
    return {
        "seat": number, "wager": wager, "table_minimum": table_minimum, "pay_table": pay_table,
        "rules": rules, "player": player, "dealer": dealer, "paid": paid,
    }  # fmt: skip


def verify(request: dict[str, Any]) -> dict[str, Any]:
    """The verify contract of shared/DESIGN.md for a Finnish 27 round."""
    r = parse_request(request)
    settlement = settle(
        r["player"], r["dealer"], r["wager"],
        table_minimum=r["table_minimum"], pay_table=r["pay_table"], rules=r["rules"],
    )  # fmt: skip
    violations = hand_violations(r["player"], r["dealer"], r["rules"])
    o = settlement.outcome
    total: Decimal = settlement.total_net
    return {
        "seats": [
            {
                "seat": r["seat"],
                "lines": [line.as_json() for line in settlement.lines],
                "total_net": fmt(total),
                "outcome": {
                    "winner": o.winner,
                    "how": o.how,
                    "player": {"total": o.player_total, "soft": o.player_soft, "initial_27": o.player_27},
                    "dealer": {"total": o.dealer_total, "soft": o.dealer_soft, "initial_27": o.dealer_27},
                    "bonus": settlement.bonus,
                },
            }
        ],
        "violations": [v.as_dict() for v in violations],
        "discrepancies": discrepancies(r["seat"], settlement.lines, r["paid"]),
    }
