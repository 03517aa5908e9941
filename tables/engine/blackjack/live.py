"""The live blackjack round: state, ``next_step`` and the verify_/can_/do triples of each action.

Flow (both rule sets, shared/rules/*.txt and the readings): bets (bets behind checked: nobody behind
their own seat, a seat may refuse them, a bet behind a seat that does not play is refunded) → the
deal (one card to each seat in seat order, the dealer's up card, a second card to each seat, the
dealer's hole card face down) → when the dealer shows an Ace, the offer to each seat (insurance,
surrender or nothing) and insurance to each bettor behind on their own → the peek where the rule
set peeks (a dealer blackjack ends the round) → decisions seat by seat, hand by hand → the dealer
completes the hand by the drawing rule when any hand still waits → settlement.

A decision not made in time (``no_decision``) is a stand, and no insurance.  A round can be paused
and resumed, cancelled with every bet refunded, and (Mini Blackjack) settled as if the player stood
once it has been interrupted for the rule set's ``interrupted_settle_hours``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any, TypeVar

from ..cards import Card
from ..errors import InvalidInput, RuleViolation
from ..money import fmt
from ..paytable import PayTable
from ..round import CardDealt, DecisionMade, Prompt, RoundSettled, can
from ..rulesets import PUBLISHED_RULES, BlackjackRules
from ..settlement import SettlementLine
from ..shoe import Reshuffled, Shoe
from ..strategy import Chart, recommend
from .hands import describe_total, hand_total, is_ace, is_blackjack, is_ten_value, same_value
from .outcome import BehindPlay, DealerView, HandPlay, SeatPlay, Settler, half, round_is_live, stake
from .verification import side_bets_of


@dataclass(frozen=True, slots=True)
class SeatBet:
    """A seated player's bets for the round (side bets only with the main bet)."""

    seat: int
    main: Decimal
    player: str | None = None
    perfect_pairs: Decimal | None = None
    twenty_one_plus_three: Decimal | None = None
    refuses_behind: bool = False


@dataclass(frozen=True, slots=True)
class BehindBet:
    """A bet behind ``seat`` with the bettor's presets (double along; follow a split: both or first)."""

    seat: int
    main: Decimal
    player: str | None = None
    double_along: bool = False
    follow_split: str = "both"


@dataclass(slots=True)
class LiveHand:
    cards: list[Card]
    doubled: bool = False
    surrendered: bool = False
    done: bool = False


@dataclass(slots=True)
class LiveSeat:
    bet: SeatBet
    hands: list[LiveHand]
    behind: list[BehindBet]
    behind_insurance: list[Decimal | None]
    behind_answered: list[bool]
    insurance: Decimal | None = None
    answered: bool = False  # the seat answered the insurance / surrender offer

    @property
    def number(self) -> int:
        return self.bet.seat


@dataclass(slots=True)
class BlackjackRound:
    """A live round.  Mutated only by the action functions of this module."""

    game: str
    rules: BlackjackRules
    pay_table: PayTable
    table_minimum: Decimal
    shoe: Shoe
    seats: list[LiveSeat]
    refunded_behind: dict[int, list[BehindBet]]  # bets behind seats that do not play the round
    dealer: list[Card] = field(default_factory=list)
    phase: str = "deal"  # deal, offers, play, dealer, settle, settled, cancelled
    paused_at: datetime | None = None
    pause_reason: str = ""
    # A hit or double decided before its card was dealt (the dealer taps Double, then deals and scans
    # the card): the current hand waits for that one card, and the next dealt card completes it.
    pending: str | None = None
    lines: dict[int, list[SettlementLine]] = field(default_factory=dict)
    events: list[Any] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Opening a round


def verify_bet_behind(rules: BlackjackRules, seat: SeatBet | None, bet: BehindBet) -> None:
    """Raise ``RuleViolation`` if ``bet`` may not be placed behind ``seat`` (``None``: an empty seat)."""
    if not rules.bet_behind:
        raise RuleViolation("blackjack.bet-behind-not-offered", "this rule set has no bets behind")
    if bet.follow_split not in ("both", "first"):
        raise InvalidInput(f"follow_split is \"both\" or \"first\", got {bet.follow_split!r}", field="follow_split")
    if seat is None:
        return  # allowed: refunded when the round starts without the seat
    if seat.refuses_behind:
        raise RuleViolation("blackjack.bets-behind-refused", f"the player on seat {seat.seat} refuses bets behind")
    if bet.player is not None and bet.player == seat.player:
        raise RuleViolation("blackjack.bet-behind-own-seat",
                            f"player {bet.player} cannot bet behind their own seat {seat.seat}")


def can_bet_behind(rules: BlackjackRules, seat: SeatBet | None, bet: BehindBet) -> bool:
    """Whether ``bet`` may be placed behind ``seat``."""
    return can(verify_bet_behind, rules, seat, bet)


def start_round(  # noqa: C901  (complexity ratchet: existing, to be split)
    game: str,
    bets: Iterable[SeatBet],
    behind: Iterable[BehindBet] = (),
    *,
    table_minimum: Decimal,
    shoe: Shoe | None = None,
    rules: BlackjackRules | None = None,
    pay_table: PayTable | None = None,
) -> BlackjackRound:
    """Open a round with the confirmed bets; bets behind seats that do not play are refunded."""
    if game not in ("unlimited-blackjack", "mini-blackjack"):
        raise InvalidInput(f"not a blackjack game: {game!r}", field="game")
    if rules is None:
        published = PUBLISHED_RULES[game]
        assert isinstance(published, BlackjackRules)
        rules = published
    pay_table = pay_table or PayTable.published(game)
    shoe = shoe if shoe is not None else Shoe(rules.shoe)
    if shoe.shuffle_due:
        raise RuleViolation("blackjack.shuffle-due", "the shoe must be shuffled before the next round")
    side = side_bets_of(pay_table)
    by_seat: dict[int, SeatBet] = {}
    for b in bets:
        if not 1 <= b.seat <= rules.seats:
            raise InvalidInput(f"seat {b.seat} does not exist: the table has seats 1-{rules.seats}", field="seat")
        if b.seat in by_seat:
            raise InvalidInput(f"seat {b.seat} has two bets", field="seat")
        if b.main is None or b.main <= 0:
            raise InvalidInput("the main bet must be positive", field=f"seat:{b.seat}.main")
        for name, amount in (("perfect-pairs", b.perfect_pairs), ("21+3", b.twenty_one_plus_three)):
            if amount is not None and (name not in side or amount <= 0):
                raise InvalidInput(f"no {name} side bet here, or not a positive amount", field=f"seat:{b.seat}.{name}")
        by_seat[b.seat] = b
    if not by_seat:
        raise InvalidInput("a round needs at least one seat with a main bet", field="seats")
    if rules.single_player and len(by_seat) > 1:
        raise RuleViolation("blackjack.one-seat-only", "one player plays one seat in this game")
    live = [LiveSeat(by_seat[n], [LiveHand([])], [], [], []) for n in sorted(by_seat)]
    index = {s.number: s for s in live}
    refunded: dict[int, list[BehindBet]] = {}
    for bb in behind:
        if not 1 <= bb.seat <= rules.seats:
            raise InvalidInput(f"seat {bb.seat} does not exist", field="behind.seat")
        if bb.main is None or bb.main <= 0:
            raise InvalidInput("a bet behind must be positive", field="behind.main")
        verify_bet_behind(rules, by_seat.get(bb.seat), bb)
        if bb.seat in index:
            s = index[bb.seat]
            s.behind.append(bb)
            s.behind_insurance.append(None)
            s.behind_answered.append(False)
        else:
            refunded.setdefault(bb.seat, []).append(bb)
    return BlackjackRound(game, rules, pay_table, table_minimum, shoe, live, refunded)


def shuffle_if_due(shoe: Shoe) -> Reshuffled | None:
    """Between rounds: shuffle when the rule set's shuffle point was reached (cut card or cards dealt)."""
    return shoe.reshuffle() if shoe.shuffle_due else None


# ---------------------------------------------------------------------------------------------
# Where the round stands


def _natural(seat: LiveSeat) -> bool:
    return len(seat.hands) == 1 and is_blackjack(seat.hands[0].cards)


def _deal_target(state: BlackjackRound) -> tuple[LiveSeat | None, bool]:
    """Who gets the next card of the initial deal: ``(seat, face_up)``, ``seat`` None for the dealer."""
    n = len(state.seats)
    dealt = sum(len(s.hands[0].cards) for s in state.seats) + len(state.dealer)
    if dealt < n:
        return state.seats[dealt], True
    if dealt == n:
        return None, True
    if dealt < 2 * n + 1:
        return state.seats[dealt - n - 1], True
    return None, False  # the hole card


def _offers_open(state: BlackjackRound) -> bool:
    rules = state.rules
    return bool(state.dealer) and is_ace(state.dealer[0]) and (rules.insurance or rules.surrender == "vs_ace")


def _next_offer(state: BlackjackRound) -> tuple[LiveSeat, int | None] | None:
    """The next (seat, behind index or None) still to answer the offer against an Ace."""
    for s in state.seats:
        if _natural(s):
            continue  # "all players, except those with a Blackjack, are offered"
        if not s.answered:
            return s, None
        if s.hands[0].surrendered:
            continue  # bettors behind are surrendered with the seat
        for j, done in enumerate(s.behind_answered):
            if not done and state.rules.insurance:
                return s, j
    return None


def _current(state: BlackjackRound) -> tuple[LiveSeat, int, LiveHand] | None:
    """The hand whose turn it is in the play phase."""
    for s in state.seats:
        for i, h in enumerate(s.hands):
            if not h.done:
                return s, i, h
    return None


def _hand_complete(state: BlackjackRound, seat: LiveSeat, hand: LiveHand) -> None:
    """Mark a hand done when the rules leave it no decision."""
    cards = hand.cards
    if len(cards) < 2:
        return
    split = len(seat.hands) > 1
    total, _ = hand_total(cards)
    if (
        total > 21
        or (hand.doubled and len(cards) >= 3)
        or (split and is_ace(cards[0]) and state.rules.split_aces_one_card)
        or (total == 21 and state.rules.auto_stand_21)
        or is_blackjack(cards, after_split=split)
    ):
        hand.done = True


def _peeked_blackjack(state: BlackjackRound) -> bool:
    d = state.dealer
    return (state.rules.dealer_peeks and len(d) == 2 and (is_ace(d[0]) or is_ten_value(d[0]))
            and is_blackjack(d))


def _advance(state: BlackjackRound) -> None:
    """Move to the next phase when the current one has nothing left to do."""
    if state.phase == "deal" and len(state.dealer) == 2:
        for s in state.seats:
            _hand_complete(state, s, s.hands[0])
        state.phase = "offers" if _offers_open(state) else "play"
    if state.phase == "offers" and _next_offer(state) is None:
        state.phase = "play"
    if state.phase == "play":
        if _peeked_blackjack(state):
            state.phase = "settle"  # the peek ends the round before any decision
        elif _current(state) is None:
            state.phase = "dealer"
    if state.phase == "dealer":
        plays = seat_plays(state)
        view = DealerView.of(state.dealer)
        if not round_is_live(plays, state.rules, view) or not _dealer_must_draw(state):
            state.phase = "settle"


def _dealer_must_draw(state: BlackjackRound) -> bool:
    total, soft = hand_total(state.dealer)
    return total < 17 or (total == 17 and soft and state.rules.dealer_hits_soft_17)


def _actor(seat: LiveSeat, hand: int | None = None, behind: int | None = None) -> str:
    out = f"seat:{seat.number}"
    if hand is not None and len(seat.hands) > 1:
        out += f"/hand:{hand}"
    if behind is not None:
        out += f"/behind:{behind}"
    return out


def next_step(state: BlackjackRound) -> Prompt:
    """What the table waits for now: a card, a decision (with the allowed actions), or the settlement."""
    if state.phase == "cancelled":
        return Prompt("cancelled", None, "nothing", reason="round cancelled: every bet refunded")
    if state.paused_at is not None:
        return Prompt("paused", None, "resume", reason=f"round paused: {state.pause_reason}")
    if state.phase == "settled":
        return Prompt("settled", None, "nothing", reason="round settled")
    if state.phase == "deal":
        seat, face_up = _deal_target(state)
        if seat is None:
            return Prompt("deal", "dealer", "card", reason="dealer's up card" if face_up else "dealer's hole card, face down",
                          extra={"face_up": face_up})
        return Prompt("deal", _actor(seat), "card", reason="initial deal", extra={"face_up": True})
    if state.phase == "offers":
        nxt = _next_offer(state)
        assert nxt is not None
        seat, j = nxt
        if j is None:
            allowed = tuple(a for a, ok in (("insurance", state.rules.insurance),
                                            ("surrender", state.rules.surrender == "vs_ace")) if ok) + ("decline",)
            return Prompt("offers", _actor(seat), "decision", allowed, reason="dealer shows an Ace",
                          extra={"insurance": fmt(half(seat.bet.main))})
        return Prompt("offers", _actor(seat, behind=j), "decision", ("insurance", "decline"),
                      reason="dealer shows an Ace: insurance for the bet behind",
                      extra={"insurance": fmt(half(seat.behind[j].main))})
    if state.phase == "play":
        cur = _current(state)
        assert cur is not None
        seat, i, hand = cur
        if len(hand.cards) < 2:
            return Prompt("play", _actor(seat, i), "card", reason="second card of a split hand", extra={"hand": i})
        if state.pending is not None:
            return Prompt("play", _actor(seat, i), "card", reason=f"deal the card for the {state.pending}",
                          extra={"hand": i, "for": state.pending})
        allowed = tuple(a for a, ok in (("hit", can_hit(state)), ("stand", True), ("double", can_double(state)),
                                         ("split", can_split(state))) if ok)
        split = len(seat.hands) > 1
        return Prompt("play", _actor(seat, i), "decision", allowed,
                      reason=f"{describe_total(hand.cards, after_split=split)} against dealer {state.dealer[0]}",
                      extra={"hand": i})
    if state.phase == "dealer":
        total, soft = hand_total(state.dealer)
        return Prompt("dealer", "dealer", "card", forced="hit",
                      reason=f"dealer must hit: {'soft ' if soft else ''}{total}")
    return Prompt("settle", "dealer", "settle", reason=f"dealer {describe_total(state.dealer)}: settle the bets")


# ---------------------------------------------------------------------------------------------
# Actions


def _not_paused(state: BlackjackRound) -> None:
    if state.phase == "cancelled":
        raise RuleViolation("blackjack.round-cancelled", "the round was cancelled")
    if state.paused_at is not None:
        raise RuleViolation("blackjack.round-paused", f"the round is paused: {state.pause_reason}")


_E = TypeVar("_E")


def _record(state: BlackjackRound, event: _E) -> _E:
    state.events.append(event)
    return event


def verify_deal(state: BlackjackRound, card: Card) -> None:
    """Raise unless a card is due now (initial deal, a split hand's second card, a dealer draw)."""
    _not_paused(state)
    prompt = next_step(state)
    if prompt.needs != "card":
        raise RuleViolation("blackjack.no-card-due", f"no card is due now: {prompt.reason or prompt.phase}")
    state.shoe.verify_deal(card)


def can_deal(state: BlackjackRound, card: Card) -> bool:
    """Whether ``card`` may be dealt now."""
    try:
        verify_deal(state, card)
    except (RuleViolation, InvalidInput):
        return False
    return True


def deal(state: BlackjackRound, card: Card) -> CardDealt:
    """Deal the card that is due (the shoe refuses an impossible card)."""
    verify_deal(state, card)
    state.shoe.deal(card)
    if state.phase == "deal":
        seat, face_up = _deal_target(state)
        if seat is None:
            state.dealer.append(card)
            event = CardDealt("dealer", card, face_up)
        else:
            seat.hands[0].cards.append(card)
            event = CardDealt(_actor(seat), card)
    elif state.phase == "play":
        cur = _current(state)
        assert cur is not None
        seat, i, hand = cur
        hand.cards.append(card)
        state.pending = None  # the card of a hit or double decided first, if one was
        _hand_complete(state, seat, hand)
        event = CardDealt(_actor(seat, i), card)
    else:
        state.dealer.append(card)
        event = CardDealt("dealer", card)
    _advance(state)
    return _record(state, event)


def _offer_actor(state: BlackjackRound, seat: int, behind: int | None) -> LiveSeat:
    _not_paused(state)
    if state.phase != "offers":
        raise RuleViolation("blackjack.no-offer", "insurance and surrender are offered only when the dealer shows an "
                            "Ace, before any other decision")
    for s in state.seats:
        if s.number == seat:
            break
    else:
        raise RuleViolation("blackjack.no-offer", f"seat {seat} does not play this round")
    if _natural(s):
        raise RuleViolation("blackjack.insurance-with-blackjack", "a blackjack is not offered insurance or surrender")
    if behind is None:
        if s.answered:
            raise RuleViolation("blackjack.offer-answered", f"seat {seat} has answered the offer")
    else:
        if not 0 <= behind < len(s.behind):
            raise RuleViolation("blackjack.no-offer", f"no bet behind {behind} on seat {seat}")
        if s.hands[0].surrendered:
            raise RuleViolation("blackjack.insurance-and-surrender", "the seat surrendered: the bet behind with it")
        if s.behind_answered[behind]:
            raise RuleViolation("blackjack.offer-answered", "this bettor behind has answered the offer")
    return s


def verify_insure(state: BlackjackRound, seat: int, behind: int | None = None) -> None:
    """Raise unless the seat (or its bettor behind) may take insurance now."""
    _offer_actor(state, seat, behind)
    if not state.rules.insurance:
        raise RuleViolation("blackjack.insurance-not-offered", "this rule set has no insurance")


def can_insure(state: BlackjackRound, seat: int, behind: int | None = None) -> bool:
    """Whether insurance may be taken now."""
    return can(verify_insure, state, seat, behind)


def insure(state: BlackjackRound, seat: int, behind: int | None = None) -> DecisionMade:
    """Take insurance: exactly half the main bet (rounded down to the cent), paid 2:1 on a dealer blackjack."""
    verify_insure(state, seat, behind)
    s = _offer_actor(state, seat, behind)
    if behind is None:
        s.insurance = half(s.bet.main)
        s.answered = True
        amount = s.insurance
    else:
        amount = half(s.behind[behind].main)
        s.behind_insurance[behind] = amount
        s.behind_answered[behind] = True
    _advance(state)
    return _record(state, DecisionMade(_actor(s, behind=behind), "insurance", fmt(amount)))


def verify_decline(state: BlackjackRound, seat: int, behind: int | None = None) -> None:
    """Raise unless the seat (or bettor behind) has an offer to decline now."""
    _offer_actor(state, seat, behind)


def decline(state: BlackjackRound, seat: int, behind: int | None = None, *, forced: bool = False) -> DecisionMade:
    """Answer the offer with "nothing" (no insurance, no surrender)."""
    verify_decline(state, seat, behind)
    s = _offer_actor(state, seat, behind)
    if behind is None:
        s.answered = True
    else:
        s.behind_answered[behind] = True
    _advance(state)
    return _record(state, DecisionMade(_actor(s, behind=behind), "decline", forced=forced))


def verify_surrender(state: BlackjackRound, seat: int) -> None:
    """Raise unless the seat may surrender now (against an Ace, before any other decision)."""
    if state.rules.surrender != "vs_ace":
        raise RuleViolation("blackjack.surrender-not-offered", "this rule set has no surrender")
    _offer_actor(state, seat, None)


def can_surrender(state: BlackjackRound, seat: int) -> bool:
    """Whether the seat may surrender now."""
    return can(verify_surrender, state, seat)


def surrender(state: BlackjackRound, seat: int) -> DecisionMade:
    """Surrender: half the bet back; the bets behind the seat are surrendered with it."""
    verify_surrender(state, seat)
    s = _offer_actor(state, seat, None)
    s.answered = True
    s.hands[0].surrendered = True
    s.hands[0].done = True
    _advance(state)
    return _record(state, DecisionMade(_actor(s), "surrender", fmt(half(s.bet.main))))


def _play_hand(state: BlackjackRound) -> tuple[LiveSeat, int, LiveHand]:
    _not_paused(state)
    if state.phase != "play":
        raise RuleViolation("blackjack.no-decision-due", f"no player decision is due now ({state.phase})")
    cur = _current(state)
    assert cur is not None
    if len(cur[2].cards) < 2:
        raise RuleViolation("blackjack.no-decision-due", "the split hand needs its second card first")
    if state.pending is not None:
        raise RuleViolation("blackjack.card-due", f"the {state.pending} was decided: deal its card first")
    return cur


def verify_hit(state: BlackjackRound) -> None:
    """Raise unless the current hand may take a card."""
    _play_hand(state)


def can_hit(state: BlackjackRound) -> bool:
    """Whether the current hand may hit."""
    return can(verify_hit, state)


def hit(state: BlackjackRound, card: Card) -> CardDealt:
    """Hit the current hand with ``card``."""
    verify_hit(state)
    seat, i, hand = _current(state)  # type: ignore[misc]
    state.shoe.deal(card)
    _record(state, DecisionMade(_actor(seat, i), "hit"))
    hand.cards.append(card)
    _hand_complete(state, seat, hand)
    _advance(state)
    return _record(state, CardDealt(_actor(seat, i), card))


def declare_hit(state: BlackjackRound) -> DecisionMade:
    """Decide a hit before its card is dealt; the next card dealt is the hit's card."""
    verify_hit(state)
    seat, i, _ = _current(state)  # type: ignore[misc]
    state.pending = "hit"
    return _record(state, DecisionMade(_actor(seat, i), "hit"))


def verify_stand(state: BlackjackRound) -> None:
    """Raise unless the current hand may stand."""
    _play_hand(state)


def can_stand(state: BlackjackRound) -> bool:
    """Whether the current hand may stand."""
    return can(verify_stand, state)


def stand(state: BlackjackRound, *, forced: bool = False) -> DecisionMade:
    """Stand on the current hand."""
    verify_stand(state)
    seat, i, hand = _current(state)  # type: ignore[misc]
    hand.done = True
    _advance(state)
    return _record(state, DecisionMade(_actor(seat, i), "stand", forced=forced))


def verify_double(state: BlackjackRound) -> None:
    """Raise unless the current hand may double (two cards; after a split only with DAS)."""
    seat, _, hand = _play_hand(state)
    if len(hand.cards) != 2:
        raise RuleViolation("blackjack.double-on-three-cards",
                            f"a double is allowed on a two-card hand only; this hand holds {len(hand.cards)} cards")
    if len(seat.hands) > 1 and (not state.rules.double_after_split or state.rules.double_on == "initial_two"):
        raise RuleViolation("blackjack.double-after-split", "this rule set allows no double after a split")


def can_double(state: BlackjackRound) -> bool:
    """Whether the current hand may double."""
    return can(verify_double, state)


def double(state: BlackjackRound, card: Card) -> CardDealt:
    """Double the current hand's bet and deal it one card, and no more."""
    verify_double(state)
    seat, i, hand = _current(state)  # type: ignore[misc]
    state.shoe.deal(card)
    _record(state, DecisionMade(_actor(seat, i), "double", fmt(seat.bet.main)))
    hand.doubled = True
    hand.cards.append(card)
    _hand_complete(state, seat, hand)
    _advance(state)
    return _record(state, CardDealt(_actor(seat, i), card))


def declare_double(state: BlackjackRound) -> DecisionMade:
    """Double the current hand's bet before its one card is dealt; the next card dealt completes it."""
    verify_double(state)
    seat, i, hand = _current(state)  # type: ignore[misc]
    # The doubling stake is on the layout from now on: a cancellation refunds it too.
    hand.doubled = True
    state.pending = "double"
    return _record(state, DecisionMade(_actor(seat, i), "double", fmt(seat.bet.main)))


def verify_split(state: BlackjackRound) -> None:
    """Raise unless the current hand may split (two cards of the same value, splits left)."""
    seat, _, hand = _play_hand(state)
    if len(seat.hands) >= state.rules.max_hands:
        raise RuleViolation("blackjack.too-many-splits", "the hand has been split as often as the rule set allows")
    if len(hand.cards) != 2:
        raise RuleViolation("blackjack.split-needs-two-cards", "only a two-card hand splits")
    if not same_value(hand.cards[0], hand.cards[1]):
        raise RuleViolation("blackjack.unequal-split",
                            f"{hand.cards[0]} and {hand.cards[1]} have different values: only a pair splits")


def can_split(state: BlackjackRound) -> bool:
    """Whether the current hand may split."""
    return can(verify_split, state)


def split(state: BlackjackRound) -> DecisionMade:
    """Split the pair into two hands, each with the main bet; each then gets its second card."""
    verify_split(state)
    seat, i, hand = _current(state)  # type: ignore[misc]
    second = hand.cards.pop()
    seat.hands.insert(i + 1, LiveHand([second]))
    _advance(state)
    return _record(state, DecisionMade(_actor(seat), "split", fmt(seat.bet.main)))


def no_decision(state: BlackjackRound) -> DecisionMade:
    """The default when no decision came in time: no insurance (nothing) at the offer, stand in play."""
    _not_paused(state)
    if state.phase == "offers":
        nxt = _next_offer(state)
        assert nxt is not None
        return decline(state, nxt[0].number, nxt[1], forced=True)
    if state.phase == "play":
        return stand(state, forced=True)
    raise RuleViolation("blackjack.no-decision-due", f"no player decision is due now ({state.phase})")


def hint(state: BlackjackRound, chart: Chart | None = None) -> str | None:
    """The basic-strategy action for the decision due now (``decline`` for an insurance offer), or None.

    ``chart`` is the strategy computed for the rule set (``tables.engine.strategy.Chart``); without
    it the published chart answers.
    """
    if state.paused_at is not None:
        return None
    if state.phase == "offers":
        nxt = _next_offer(state)
        assert nxt is not None
        seat, j = nxt
        if j is None and state.rules.surrender == "vs_ace":
            act = recommend(state.rules, seat.hands[0].cards, state.dealer[0], False, False, True, chart)
            if act == "surrender":
                return "surrender"
        return "decline"  # basic strategy never insures
    if state.phase == "play":
        cur = _current(state)
        assert cur is not None
        if len(cur[2].cards) < 2:
            return None
        return recommend(state.rules, cur[2].cards, state.dealer[0], can_double(state), can_split(state), False, chart)
    return None


# ---------------------------------------------------------------------------------------------
# Settlement, cancellation, pause


def seat_plays(state: BlackjackRound) -> list[SeatPlay]:
    """The round as ``SeatPlay`` records (what verification of the final hands sees)."""
    out = []
    for s in state.seats:
        behind = [BehindPlay(b.main, state_ins, b.double_along, b.follow_split, b.player)
                  for b, state_ins in zip(s.behind, s.behind_insurance, strict=True)]
        out.append(SeatPlay(
            s.number, s.bet.main, [HandPlay(h.cards, h.doubled, h.surrendered) for h in s.hands],
            s.bet.perfect_pairs, s.bet.twenty_one_plus_three, s.insurance, behind, s.bet.player,
            s.bet.refuses_behind,
        ))
    for number, bets in sorted(state.refunded_behind.items()):
        out.append(SeatPlay(number, None, [], behind=[BehindPlay(b.main, None, b.double_along, b.follow_split, b.player)
                                                      for b in bets]))
    return out


def verify_settle(state: BlackjackRound) -> None:
    """Raise unless every hand and the dealer's hand are complete."""
    _not_paused(state)
    if state.phase != "settle":
        raise RuleViolation("blackjack.round-not-finished", f"the round is not ready to settle ({state.phase})")


def can_settle(state: BlackjackRound) -> bool:
    """Whether the round can be settled now."""
    return can(verify_settle, state)


def settle(state: BlackjackRound) -> RoundSettled:
    """Settle every bet (main per hand, side bets, insurance, every bet behind)."""
    verify_settle(state)
    settler = Settler(state.rules, state.pay_table, state.table_minimum, DealerView.of(state.dealer))
    state.lines = {p.seat: settler.seat_lines(p) for p in seat_plays(state)}
    state.phase = "settled"
    return _record(state, RoundSettled(tuple(line.as_json() | {"seat": n}
                                             for n, lines in state.lines.items() for line in lines)))


def pause(state: BlackjackRound, reason: str, at: datetime) -> DecisionMade:
    """Pause the round (an error in the procedure; the shift manager is notified)."""
    _not_paused(state)
    if state.phase == "settled":
        raise RuleViolation("blackjack.round-settled", "a settled round cannot be paused")
    state.paused_at = at
    state.pause_reason = reason
    return _record(state, DecisionMade("dealer", "pause"))


def resume(state: BlackjackRound) -> DecisionMade:
    """Resume a paused round where it stopped."""
    if state.paused_at is None:
        raise RuleViolation("blackjack.round-not-paused", "the round is not paused")
    state.paused_at = None
    state.pause_reason = ""
    return _record(state, DecisionMade("dealer", "resume"))


def cancel(state: BlackjackRound, reason: str = "the round could not be completed") -> RoundSettled:
    """Cancel the round: every bet placed is refunded (net 0 on each line)."""
    if state.phase in ("settled", "cancelled"):
        raise RuleViolation("blackjack.round-settled", "the round is already settled or cancelled")
    lines: dict[int, list[SettlementLine]] = {}
    why = f"round cancelled ({reason}): bet refunded"
    zero = Decimal("0.00")
    for s in state.seats:
        out = lines.setdefault(s.number, [])
        split = len(s.hands) > 1
        for i, h in enumerate(s.hands):
            out.append(SettlementLine("main", stake(s.bet.main, h.doubled), "refund", zero, why,
                                      i if split else None))
        for bet, amount in (("perfect-pairs", s.bet.perfect_pairs), ("21+3", s.bet.twenty_one_plus_three),
                            ("insurance", s.insurance)):
            if amount is not None:
                out.append(SettlementLine(bet, amount, "refund", zero, why))
        for j, b in enumerate(s.behind):
            out.append(SettlementLine("behind", b.main, "refund", zero, why, None, j))
            if s.behind_insurance[j] is not None:
                out.append(SettlementLine("behind-insurance", s.behind_insurance[j], "refund", zero, why, None, j))  # type: ignore[arg-type]
    for number, bets in state.refunded_behind.items():
        for j, b in enumerate(bets):
            lines.setdefault(number, []).append(SettlementLine("behind", b.main, "refund", zero, why, None, j))
    state.lines = lines
    state.phase = "cancelled"
    state.paused_at = None
    return _record(state, RoundSettled(tuple(line.as_json() | {"seat": n} for n, ls in lines.items() for line in ls)))


def verify_settle_interrupted(state: BlackjackRound, now: datetime) -> None:
    """Raise unless the interrupted round may be settled as if the player stood (Mini: after 48 hours)."""
    hours = state.rules.interrupted_settle_hours
    if hours <= 0:
        raise RuleViolation("blackjack.no-automatic-settlement",
                            "this rule set does not settle interrupted rounds automatically: resume or cancel")
    if state.paused_at is None:
        raise RuleViolation("blackjack.round-not-paused", "only an interrupted (paused) round settles this way")
    if now - state.paused_at < timedelta(hours=hours):
        raise RuleViolation("blackjack.interrupted-round-not-due",
                            f"the player may still resume: the round settles {hours} hours after the interruption")


def settle_interrupted(state: BlackjackRound, now: datetime, cards: Iterable[Card]) -> RoundSettled:
    """Settle an interrupted round as if the player stood: no insurance, stand, the dealer draws from ``cards``."""
    verify_settle_interrupted(state, now)
    resume(state)
    supply = iter(cards)
    while True:
        prompt = next_step(state)
        if prompt.needs == "decision":
            no_decision(state)
        elif prompt.needs == "card":
            try:
                card = next(supply)
            except StopIteration:
                raise InvalidInput("more cards are needed to complete the dealer's hand", field="cards") from None
            deal(state, card)
        else:
            return settle(state)


def stand_interrupted(state: BlackjackRound, now: datetime) -> list[DecisionMade]:
    """Take the player's side of an interrupted round as if the player stood (Mini Blackjack: after 48
    hours): no insurance, stand on every hand.  The dealer's hand, if it must still draw, is then dealt
    from the shoe as in any round; ``settle_interrupted`` does both when the cards are known."""
    verify_settle_interrupted(state, now)
    resume(state)
    taken = []
    while next_step(state).needs == "decision":
        taken.append(no_decision(state))
    return taken


def settlement(state: BlackjackRound) -> list[SettlementLine]:
    """All settlement lines of a settled or cancelled round, seat by seat."""
    return [line for n in sorted(state.lines) for line in state.lines[n]]


def to_request(state: BlackjackRound) -> dict[str, Any]:
    """The verify request (shared/DESIGN.md) describing this round's final hands."""
    seats = []
    for p in seat_plays(state):
        wagers: dict[str, str] = {}
        for key, amount in (("main", p.main), ("perfect-pairs", p.perfect_pairs), ("21+3", p.twenty_one_plus_three),
                            ("insurance", p.insurance)):
            if amount is not None:
                wagers[key] = fmt(amount)
        behind = []
        for b in p.behind:
            bw = {"main": fmt(b.main)} | ({"insurance": fmt(b.insurance)} if b.insurance is not None else {})
            behind.append({"wagers": bw, "double_along": b.double_along, "follow_split": b.follow_split,
                           "player": b.player})
        seats.append({
            "seat": p.seat, "wagers": wagers, "player": p.player, "refuses_bets_behind": p.refuses_behind,
            "hands": [{"cards": [c.code for c in h.cards], "doubled": h.doubled, "surrendered": h.surrendered}
                      for h in p.hands],
            "behind": behind,
        })
    return {
        "game": state.game,
        "table_minimum": fmt(state.table_minimum),
        "rules": state.rules.to_params(),
        "pay_table": {"lines": [line.as_json() for line in state.pay_table.values()]},
        "dealer": {"cards": [c.code for c in state.dealer]},
        "seats": seats,
    }
