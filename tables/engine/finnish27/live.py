"""The live Finnish 27 round: a state fed by events, that always says what comes next.

Per action a triple (shared/STYLE.md): ``verify_<action>`` raises ``RuleViolation`` naming the rule,
``can_<action>`` is the tablet button's bool, and ``<action>`` applies it and returns the event.
Actions: ``deal`` (a card, to whoever the rules say is next), ``hit`` and ``stand`` (the player's
choice, or the play the rules force on the player or the dealer), ``settle_round``.

Every play is an explicit decision event, forced or not: the tablet may confirm a forced play by
itself (``Prompt.forced``), and the stored events then show exactly what happened.  The rule ids
are those of verification (``check.py``), so a refused action and a violation found afterwards
read the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from ..cards import Card, parse_card
from ..errors import InvalidCard, InvalidInput, RuleViolation
from ..money import parse_amount
from ..paytable import PayTable
from ..round import CardDealt, DecisionMade, Prompt, RoundSettled, can
from ..rulesets import Finnish27Rules
from ..shoe import Shoe
from .check import (
    DEALER_DREW_AFTER_DECIDED,
    DEALER_HIT_ON_24,
    DEALER_HIT_ON_SOFT_25,
    DEALER_STOOD_BELOW_24,
    DEALER_STOOD_BELOW_SOFT_25,
    PLAYER_DREW_AFTER_DECIDED,
    PLAYER_FORCED_HIT,
    PLAYER_FORCED_STAND,
)
from .settle import PUBLISHED_PAY_TABLE, Settlement, settle
from .values import (
    HIT,
    PUBLISHED_RULES,
    STAND,
    dealer_reason,
    forced_reason,
    hand_value,
    initial_winner,
    player_decided,
)

PLAYER = "player"
DEALER = "dealer"
ACTORS = (PLAYER, DEALER)

OUT_OF_TURN = "finnish27.out-of-turn"
IMPOSSIBLE_CARD = "finnish27.impossible-card"
DECISION_PENDING = "finnish27.decision-pending"
ROUND_COMPLETE = "finnish27.round-complete"
NOT_READY_TO_SETTLE = "finnish27.not-ready-to-settle"

Event = CardDealt | DecisionMade | RoundSettled


@dataclass
class Finnish27Round:
    """One round in play.  Build it with ``new_round``; change it only through the actions."""

    wager: Decimal
    table_minimum: Decimal
    pay_table: PayTable = field(default_factory=lambda: PUBLISHED_PAY_TABLE)
    rules: Finnish27Rules = PUBLISHED_RULES
    shoe: Shoe | None = None  # the table's shoe, followed across rounds; a fresh one if None
    player: list[Card] = field(default_factory=list)
    dealer: list[Card] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    pending: str | None = None  # who hit and waits for the card
    player_stood: bool = False
    dealer_stood: bool = False
    settlement: Settlement | None = None
    seat_number: int = 1  # the table's seat the player sits at (the rules have one hand, no seat)

    def __post_init__(self) -> None:
        if self.shoe is None:
            self.shoe = Shoe(self.rules.shoe)


def new_round(
    wager: object,
    table_minimum: object,
    *,
    pay_table: PayTable | None = None,
    rules: Finnish27Rules | None = None,
    shoe: Shoe | None = None,
) -> Finnish27Round:
    """A new round on a placed game wager; bad amounts raise ``InvalidInput`` naming the field."""
    return Finnish27Round(
        wager=parse_amount(wager, field="wager"),
        table_minimum=parse_amount(table_minimum, field="table_minimum"),
        pay_table=pay_table or PUBLISHED_PAY_TABLE,
        rules=rules or PUBLISHED_RULES,
        shoe=shoe,
    )


def _phase(s: Finnish27Round) -> tuple[str, str | None, str]:
    """(phase, actor, needs) of the round."""
    if s.settlement is not None:
        return "settled", None, "nothing"
    if len(s.player) < 2 or len(s.dealer) < 2:
        # Deal order: player, dealer, player, dealer.
        return "deal", PLAYER if len(s.player) == len(s.dealer) else DEALER, "card"
    if initial_winner(s.player, s.dealer) is not None:
        return "settle", DEALER, "settle"
    if not s.player_stood:
        return "player", PLAYER, "card" if s.pending == PLAYER else "decision"
    if player_decided(s.player, s.rules) is not None:
        return "settle", DEALER, "settle"
    if not s.dealer_stood:
        return "dealer", DEALER, "card" if s.pending == DEALER else "decision"
    return "settle", DEALER, "settle"


def _forced(s: Finnish27Round, actor: str) -> tuple[str | None, str]:
    if actor == PLAYER:
        return forced_reason(s.player, s.dealer)
    return dealer_reason(s.dealer, s.rules)


def _preview(s: Finnish27Round) -> Settlement:
    return settle(s.player, s.dealer, s.wager, table_minimum=s.table_minimum, pay_table=s.pay_table, rules=s.rules)


def next_step(s: Finnish27Round) -> Prompt:
    """What comes next: whose turn, what the table waits for, what is allowed, forced, and why."""
    phase, actor, needs = _phase(s)
    if phase == "settled":
        assert s.settlement is not None
        return Prompt(phase, None, "nothing", reason=s.settlement.lines[0].detail)
    if phase == "deal":
        which = "first" if len(s.player if actor == PLAYER else s.dealer) == 0 else "second"
        return Prompt(phase, actor, "card", reason=f"deal the {actor}'s {which} card face up")
    if phase == "settle":
        return Prompt(phase, actor, "settle", allowed=("settle",), reason=_preview(s).lines[0].detail)
    assert actor is not None
    if needs == "card":
        return Prompt(phase, actor, "card", reason=f"deal the {actor}'s next card ({actor} hits)")
    play, why = _forced(s, actor)
    allowed = (play,) if play else (HIT, STAND)
    return Prompt(phase, actor, "decision", allowed=allowed, forced=play, reason=why)


def _decided_rule(s: Finnish27Round, actor: str | None) -> tuple[str, str]:
    """The rule a card or a hit breaks once the round is decided or complete."""
    decided_early = initial_winner(s.player, s.dealer) is not None or (
        s.player_stood and player_decided(s.player, s.rules) is not None
    )
    if decided_early and actor == DEALER:
        return DEALER_DREW_AFTER_DECIDED, "the round is decided: the dealer draws nothing"
    if decided_early and actor == PLAYER:
        return PLAYER_DREW_AFTER_DECIDED, "the round is decided: the player draws nothing"
    return ROUND_COMPLETE, "both hands are complete: settle the round"


# --- deal -------------------------------------------------------------------------------------


def verify_deal(s: Finnish27Round, card: Card | str, to: str | None = None) -> None:
    """Raise ``RuleViolation`` unless ``card`` may be dealt now (to ``to``, if given)."""
    card = parse_card(card, field="card")
    if to is not None and to not in ACTORS:
        raise InvalidInput(f"a card goes to 'player' or 'dealer', not {to!r}", field="to")
    phase, actor, needs = _phase(s)
    if phase in ("settle", "settled"):
        raise RuleViolation(*_decided_rule(s, to))
    if needs != "card":
        raise RuleViolation(DECISION_PENDING, f"the {actor} must hit or stand before a card is dealt")
    if to is not None and to != actor:
        raise RuleViolation(OUT_OF_TURN, f"the next card goes to the {actor}, not the {to}")
    assert s.shoe is not None
    try:
        s.shoe.verify_deal(card)
    except InvalidCard as e:
        raise RuleViolation(IMPOSSIBLE_CARD, e.message) from None


def can_deal(s: Finnish27Round, card: Card | str, to: str | None = None) -> bool:
    """Whether ``card`` may be dealt now."""
    return can(verify_deal, s, card, to)


def deal(s: Finnish27Round, card: Card | str, to: str | None = None) -> CardDealt:
    """Deal ``card`` to whoever is next (checked against ``to`` if given)."""
    verify_deal(s, card, to)
    card = parse_card(card, field="card")
    actor = _phase(s)[1]
    assert s.shoe is not None and actor is not None
    s.shoe.deal(card)
    (s.player if actor == PLAYER else s.dealer).append(card)
    s.pending = None
    event = CardDealt(actor, card)
    s.events.append(event)
    return event


# --- hit / stand ------------------------------------------------------------------------------


def _check_turn(s: Finnish27Round, actor: str, action: str) -> tuple[str | None, str]:
    if actor not in ACTORS:
        raise InvalidInput(f"actor is 'player' or 'dealer', not {actor!r}", field="actor")
    phase, current, needs = _phase(s)
    if phase in ("settle", "settled"):
        if action == HIT:
            raise RuleViolation(*_decided_rule(s, actor))
        raise RuleViolation(ROUND_COMPLETE, "the round is decided: nothing is left to play")
    if current != actor:
        raise RuleViolation(OUT_OF_TURN, f"it is the {current}'s turn, not the {actor}'s")
    if needs != "decision":
        raise RuleViolation(OUT_OF_TURN, f"the {actor} has hit: deal the card first")
    return _forced(s, actor)


def verify_hit(s: Finnish27Round, actor: str = PLAYER) -> None:
    """Raise ``RuleViolation`` unless ``actor`` may hit now."""
    play, why = _check_turn(s, actor, HIT)
    if play == STAND:
        if actor == PLAYER:
            raise RuleViolation(PLAYER_FORCED_STAND, why)
        soft = hand_value(s.dealer)[1]
        raise RuleViolation(DEALER_HIT_ON_SOFT_25 if soft else DEALER_HIT_ON_24, why)


def can_hit(s: Finnish27Round, actor: str = PLAYER) -> bool:
    """Whether ``actor`` may hit now."""
    return can(verify_hit, s, actor)


def hit(s: Finnish27Round, actor: str = PLAYER) -> DecisionMade:
    """``actor`` hits; the next step is a card to ``actor``."""
    verify_hit(s, actor)
    forced = _forced(s, actor)[0] == HIT
    s.pending = actor
    event = DecisionMade(actor, HIT, forced=forced)
    s.events.append(event)
    return event


def verify_stand(s: Finnish27Round, actor: str = PLAYER) -> None:
    """Raise ``RuleViolation`` unless ``actor`` may stand now."""
    play, why = _check_turn(s, actor, STAND)
    if play == HIT:
        if actor == PLAYER:
            raise RuleViolation(PLAYER_FORCED_HIT, why)
        soft = hand_value(s.dealer)[1]
        raise RuleViolation(DEALER_STOOD_BELOW_SOFT_25 if soft else DEALER_STOOD_BELOW_24, why)


def can_stand(s: Finnish27Round, actor: str = PLAYER) -> bool:
    """Whether ``actor`` may stand now."""
    return can(verify_stand, s, actor)


def stand(s: Finnish27Round, actor: str = PLAYER) -> DecisionMade:
    """``actor`` stands; the hand is complete."""
    verify_stand(s, actor)
    forced = _forced(s, actor)[0] == STAND
    if actor == PLAYER:
        s.player_stood = True
    else:
        s.dealer_stood = True
    event = DecisionMade(actor, STAND, forced=forced)
    s.events.append(event)
    return event


# --- settle -----------------------------------------------------------------------------------


def verify_settle(s: Finnish27Round) -> None:
    """Raise ``RuleViolation`` unless the round is decided and not yet settled."""
    phase, actor, needs = _phase(s)
    if phase == "settled":
        raise RuleViolation(ROUND_COMPLETE, "the round is already settled")
    if phase != "settle":
        raise RuleViolation(NOT_READY_TO_SETTLE, f"the round is not decided: the {actor} is to play ({needs})")


def can_settle(s: Finnish27Round) -> bool:
    """Whether the round can be settled now."""
    return can(verify_settle, s)


def settle_round(s: Finnish27Round) -> RoundSettled:
    """Settle the round: the game wager and the bonus, as lines."""
    verify_settle(s)
    s.settlement = _preview(s)
    event = RoundSettled(tuple(line.as_json() for line in s.settlement.lines))
    s.events.append(event)
    return event


def replay(events: Iterable[Event], round_: Finnish27Round) -> Finnish27Round:
    """Apply stored events to a new round (from ``new_round``); each is checked as it was live."""
    for e in events:
        if isinstance(e, CardDealt):
            deal(round_, e.card, e.to)
        elif isinstance(e, DecisionMade):
            if e.action == HIT:
                hit(round_, e.actor)
            elif e.action == STAND:
                stand(round_, e.actor)
            else:
                raise InvalidInput(f"Finnish 27 has no action {e.action!r}", field="action")
        elif isinstance(e, RoundSettled):
            settle_round(round_)
        else:
            raise InvalidInput(f"unknown event {e!r}", field="events")
    return round_
