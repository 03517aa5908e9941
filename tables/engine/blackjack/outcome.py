"""A blackjack round from its final hands: settlement lines and rule checks.

Verification of a finished round and the live round share this module: the live round turns its
state into the same ``SeatPlay`` records and settles them here, so a live round and the
verification of its final hands cannot disagree about money.

Readings fixed here (shared/rules/README.md is silent on them):
- Half a bet (surrender, insurance) is rounded down to the cent: surrendering 5.01 gives 2.50 back,
  and insurance on 5.01 is 2.50.
- Surrender and insurance are alternatives of one offer ("Insurance / Surrender / Nothing"); a
  surrender is honoured even when the dealer then shows a blackjack (it was made before the
  dealer's hand was known).  Bettors behind a surrendered seat are surrendered with it and are not
  offered insurance.
- With a peek and a dealer blackjack the round ends before any decision; if hands were played
  anyway (a violation), only the original bet of the first hand is lost and the rest is refunded
  ("only original bet lost vs dealer BJ").  Without a peek a dealer blackjack takes doubled and split
  bets in full.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ..cards import Card
from ..errors import InvalidInput
from ..money import ZERO, fmt
from ..paytable import PayLine, PayTable
from ..rulesets import BlackjackRules
from ..settlement import SettlementLine
from ..sidebets import perfect_pairs_kind, twenty_one_plus_three_kind
from .hands import (
    _POINTS,
    code_of,
    dealer_must_hit,
    describe_total,
    hand_total,
    is_ace,
    is_blackjack,
    same_value,
)


@dataclass(slots=True)
class HandPlay:
    """One hand as it lies: cards in the order dealt, and whether it was doubled or surrendered."""

    cards: list[Card]
    doubled: bool = False
    surrendered: bool = False


@dataclass(slots=True)
class BehindPlay:
    """A bet behind a seat, with the bettor's presets."""

    main: Decimal
    insurance: Decimal | None = None
    double_along: bool = False
    follow_split: str = "both"  # "both" | "first"
    player: str | None = None


@dataclass(slots=True)
class SeatPlay:
    """One seat's bets and hands; ``main`` is ``None`` when the seat did not play the round."""

    seat: int
    main: Decimal | None
    hands: list[HandPlay]
    perfect_pairs: Decimal | None = None
    twenty_one_plus_three: Decimal | None = None
    insurance: Decimal | None = None
    behind: list[BehindPlay] = field(default_factory=list)
    player: str | None = None
    refuses_behind: bool = False


def half(amount: Decimal) -> Decimal:
    """Half an amount, rounded down to the cent (surrender refund, insurance stake)."""
    return Decimal(int(amount * 100) // 2).scaleb(-2)


def stake(wager: Decimal, doubled: bool) -> Decimal:
    """The stake at risk on a hand: the wager, twice it once the hand doubled."""
    return wager + wager if doubled else wager

def pay(line: PayLine, wager: Decimal, table_minimum: Decimal) -> Decimal:
    """What ``line`` pays on ``wager`` (stake not included); the fast path of ``PayLine.pays``."""
    odds = line.odds
    if odds is None:
        return line.pays(wager, table_minimum)
    n, d = odds.numerator, odds.denominator
    if d == 1:
        return wager * n
    return Decimal(int(wager * 100) * n // d).scaleb(-2)  # rounded down to the cent, as at_odds


def initial_cards(hands: Sequence[HandPlay]) -> tuple[Card, Card]:
    """The seat's first two cards (before a split each split hand starts with one of them)."""
    if len(hands) > 1:
        return hands[0].cards[0], hands[1].cards[0]
    return hands[0].cards[0], hands[0].cards[1]


@dataclass(slots=True)
class DealerView:
    """The dealer's final hand, summarised once per round."""

    cards: list[Card]
    total: int
    blackjack: bool
    bust: bool
    text: str
    up_is_ace: bool

    @classmethod
    def of(cls, cards: list[Card]) -> DealerView:
        total, _ = hand_total(cards)
        bj = is_blackjack(cards[:2]) if len(cards) >= 2 else False
        return cls(cards, total, bj, total > 21, describe_total(cards[:2]) if bj else describe_total(cards),
                   bool(cards) and is_ace(cards[0]))


class Settler:
    """Settles seats of one round against the dealer's final hand.

    The pay lines and their texts are looked up once; a simulation keeps one ``Settler`` per table
    and calls ``set_dealer`` for each round.
    """

    __slots__ = ("rules", "dealer", "tmin", "bj_line", "win_line", "ins_line", "peeked_bj", "_side", "_bj_text",
                 "_ins_text")

    def __init__(self, rules: BlackjackRules, pay_table: PayTable, table_minimum: Decimal,
                 dealer: DealerView | None = None) -> None:
        self.rules = rules
        self.tmin = table_minimum
        self.bj_line = pay_table["main/blackjack"]
        self.win_line = pay_table["main/win"]
        self.ins_line = pay_table["insurance"]
        self._bj_text = f"blackjack pays {self.bj_line.pays_text}"
        self._ins_text = f"dealer blackjack: insurance pays {self.ins_line.pays_text}"
        # Side-bet lines by (bet, category), with their explanation, for the pay table's side bets.
        self._side: dict[tuple[str, str], tuple[PayLine, str]] = {}
        for name in pay_table:
            bet, _, kind = name.partition("/")
            if bet in ("perfect-pairs", "21+3"):
                line = pay_table[name]
                self._side[(bet, kind)] = (line, f"{line.label} pays {line.pays_text}")
        self.dealer = dealer if dealer is not None else DealerView([], 0, False, False, "", False)
        self.peeked_bj = rules.dealer_peeks and self.dealer.blackjack

    def set_dealer(self, dealer: DealerView) -> None:
        """Settle the next round against ``dealer``."""
        self.dealer = dealer
        self.peeked_bj = self.rules.dealer_peeks and dealer.blackjack

    def hand_outcome(self, hand: HandPlay, index: int, split: bool, wager: Decimal, doubled: bool) -> tuple[str, Decimal, str]:
        """``(result, net, detail)`` of a main bet of ``wager`` on ``hand``."""
        if hand.surrendered:
            back = half(wager)
            return "surrender", back - wager, f"surrendered: half the bet back ({fmt(back)})"
        cards = hand.cards
        dealer = self.dealer
        natural = is_blackjack(cards, after_split=split)
        at_risk = stake(wager, doubled)
        if dealer.blackjack:
            if natural:
                return "push", ZERO, "blackjack against dealer blackjack: push"
            if self.peeked_bj:
                if index > 0:
                    return "refund", ZERO, "dealer blackjack found by the peek: only the original bet is lost"
                return "lose", -wager, "dealer blackjack found by the peek: only the original bet is lost"
            return "lose", -at_risk, (
                "dealer blackjack (no peek) takes the whole bet" + (", doubled" if doubled else "")
            )
        if natural:
            return "blackjack", pay(self.bj_line, wager, self.tmin), self._bj_text
        total, soft = hand_total(cards)
        what = ("doubled " if doubled else "") + (f"soft {total}" if soft else str(total))
        if total > 21:
            return "lose", -at_risk, f"bust {total}"
        if dealer.bust:
            return "win", pay(self.win_line, at_risk, self.tmin), f"{what} against dealer {dealer.text}"
        if total > dealer.total:
            return "win", pay(self.win_line, at_risk, self.tmin), f"{what} beats dealer {dealer.text}"
        if total == dealer.total:
            return "push", ZERO, f"{what} ties dealer {dealer.text}"
        return "lose", -at_risk, f"{what} loses to dealer {dealer.text}"

    def insurance_outcome(self, wager: Decimal) -> tuple[str, Decimal, str]:
        """``(result, net, detail)`` of an insurance bet."""
        if self.dealer.blackjack:
            return "win", pay(self.ins_line, wager, self.tmin), self._ins_text
        return "lose", -wager, "dealer has no blackjack: insurance lost"

    def side_outcome(self, bet: str, kind: str | None, wager: Decimal) -> tuple[str, Decimal, str]:
        """A side bet's result from its category (``None`` when nothing qualifies)."""
        if kind is None:
            return "lose", -wager, "no qualifying hand"
        found = self._side.get((bet, kind))
        if found is None:
            raise InvalidInput(f"the pay table has no line {bet}/{kind}", field="pay_table")
        return "win", pay(found[0], wager, self.tmin), found[1]

    def seat_lines(self, seat: SeatPlay) -> list[SettlementLine]:
        """Every settlement line of ``seat``: main per hand, side bets, insurance, each bet behind."""
        lines: list[SettlementLine] = []
        hands = seat.hands
        if seat.main is None:
            for j, b in enumerate(seat.behind):
                reason = f"seat {seat.seat} did not play the round: bet behind refunded"
                lines.append(SettlementLine("behind", b.main, "refund", ZERO, reason, None, j))
                if b.insurance is not None:
                    lines.append(SettlementLine("behind-insurance", b.insurance, "refund", ZERO, reason, None, j))
            return lines
        split = len(hands) > 1
        main = seat.main
        for i, hand in enumerate(hands):
            result, net, detail = self.hand_outcome(hand, i, split, main, hand.doubled)
            lines.append(SettlementLine("main", stake(main, hand.doubled), result, net, detail,
                                        i if split else None))
        pp, t3 = seat.perfect_pairs, seat.twenty_one_plus_three
        if pp is not None or t3 is not None:
            if split:
                c1, c2 = hands[0].cards[0], hands[1].cards[0]
            else:
                c1, c2 = hands[0].cards[0], hands[0].cards[1]
            first_two = code_of(c1) + " " + code_of(c2)
            if pp is not None:
                r, n, d = self.side_outcome("perfect-pairs", perfect_pairs_kind(c1, c2), pp)
                lines.append(SettlementLine("perfect-pairs", pp, r, n, f"{first_two}: {d}"))
            if t3 is not None:
                up = self.dealer.cards[0]
                r, n, d = self.side_outcome("21+3", twenty_one_plus_three_kind(c1, c2, up), t3)
                lines.append(SettlementLine("21+3", t3, r, n, f"{first_two} {code_of(up)}: {d}"))
        if seat.insurance is not None:
            r, n, d = self.insurance_outcome(seat.insurance)
            lines.append(SettlementLine("insurance", seat.insurance, r, n, d))
        for j, b in enumerate(seat.behind):
            followed = hands if (b.follow_split == "both" or not split) else hands[:1]
            for i, hand in enumerate(followed):
                doubled = hand.doubled and b.double_along
                result, net, detail = self.hand_outcome(hand, i, split, b.main, doubled)
                if split and b.follow_split == "first":
                    detail += " (follows the first split hand only)"
                lines.append(SettlementLine("behind", stake(b.main, doubled), result, net, detail,
                                            i if split else None, j))
            if b.insurance is not None:
                r, n, d = self.insurance_outcome(b.insurance)
                lines.append(SettlementLine("behind-insurance", b.insurance, r, n, d, None, j))
        return lines


def violation(rule: str, message: str, seat: int | None = None, **where: int) -> dict[str, Any]:
    """A violation entry of the verify answer."""
    out: dict[str, Any] = {"rule": rule, "message": message}
    if seat is not None:
        out["seat"] = seat
    out.update(where)
    return out


def hand_is_live(hand: HandPlay, split: bool) -> bool:
    """Whether the dealer's hand still decides this hand (not bust, surrendered or a blackjack)."""
    if hand.surrendered or is_blackjack(hand.cards, after_split=split):
        return False
    return hand_total(hand.cards)[0] <= 21


def check_hands(seat: SeatPlay, rules: BlackjackRules, dealer: DealerView) -> list[dict[str, Any]]:  # noqa: C901  (complexity ratchet: existing, to be split)
    """Violations in how the seat's hands were played (splits, doubles, hits, surrender, insurance)."""
    out: list[dict[str, Any]] = []
    hands = seat.hands
    if seat.main is None or not hands:
        return out
    n_seat = seat.seat
    split = len(hands) > 1
    if len(hands) > rules.max_hands:
        out.append(violation("blackjack.too-many-splits",
                             f"{len(hands)} hands: the rule set allows {rules.max_hands - 1} split(s)", n_seat))
    if split:
        first = hands[0].cards[0]
        for i, h in enumerate(hands[1:], 1):
            if not same_value(h.cards[0], first):
                out.append(violation("blackjack.unequal-split",
                                     f"split of {first} and {h.cards[0]}: only cards of the same value split",
                                     n_seat, hand=i))
        if rules.dealer_peeks and dealer.blackjack:
            out.append(violation("blackjack.played-after-dealer-blackjack",
                                 "the peek found a dealer blackjack: the round ends before any split", n_seat))
    for i, h in enumerate(hands):
        where = {"hand": i} if split else {}
        cards = h.cards
        n = len(cards)
        split_aces = split and is_ace(cards[0]) and rules.split_aces_one_card
        natural = is_blackjack(cards[:2], after_split=split)
        if natural and (n > 2 or h.doubled):
            out.append(violation("blackjack.played-on-blackjack",
                                 "a blackjack wins at once: the hand takes no further card or double", n_seat, **where))
        elif rules.dealer_peeks and dealer.blackjack and not split and (n > 2 or h.doubled):
            out.append(violation("blackjack.played-after-dealer-blackjack",
                                 "the peek found a dealer blackjack: the round ends before any decision",
                                 n_seat, **where))
        else:
            # Walk the hand card by card: each card after the second was a hit or a double's card.
            hard = _POINTS[cards[0].rank] + _POINTS[cards[1].rank]  # type: ignore[index]
            ace = hard == 2 or _POINTS[cards[0].rank] == 1 or _POINTS[cards[1].rank] == 1  # type: ignore[index]
            for k in range(2, n):
                total = hard + 10 if ace and hard <= 11 else hard
                if total > 21:
                    out.append(violation("blackjack.hit-after-bust", f"a card was dealt to a bust hand ({total})",
                                         n_seat, **where))
                    break
                if split_aces:
                    out.append(violation("blackjack.hit-after-split-aces",
                                         "split Aces take one card each and no more", n_seat, **where))
                    break
                if rules.auto_stand_21 and total == 21:
                    out.append(violation("blackjack.hit-on-21",
                                         "a hand reaching 21 stands automatically", n_seat, **where))
                    break
                if h.doubled and k >= 3:
                    out.append(violation("blackjack.double-on-three-cards",
                                         f"a double takes exactly one card on a two-card hand; this doubled hand "
                                         f"holds {n} cards (a double on three cards, or a hit after the double)",
                                         n_seat, **where))
                    break
                p = _POINTS[cards[k].rank]  # type: ignore[index]
                hard += p
                ace = ace or p == 1
        if h.doubled:
            if split_aces:
                out.append(violation("blackjack.double-on-split-aces",
                                     "split Aces take one card each: no double", n_seat, **where))
            elif split and (not rules.double_after_split or rules.double_on == "initial_two"):
                out.append(violation("blackjack.double-after-split",
                                     "the rule set allows a double only on the initial two cards, not after a split",
                                     n_seat, **where))
            if n == 2 and not split_aces and not natural:
                out.append(violation("blackjack.double-without-card",
                                     "a doubled hand receives one more card", n_seat, **where))
        if h.surrendered:
            if rules.surrender == "none" or not dealer.up_is_ace:
                out.append(violation("blackjack.surrender-not-offered",
                                     "surrender is offered only when the dealer shows an Ace", n_seat, **where))
            elif split or h.doubled or n != 2:
                out.append(violation("blackjack.surrender-after-decision",
                                     "surrender comes before any other decision, on the first two cards", n_seat,
                                     **where))
            elif natural:
                out.append(violation("blackjack.surrender-with-blackjack",
                                     "a blackjack is not offered surrender", n_seat, **where))
    first_natural = not split and is_blackjack(hands[0].cards[:2])
    surrendered = any(h.surrendered for h in hands)
    out.extend(_check_insurance(seat.insurance, seat.main, rules, dealer, first_natural, surrendered, n_seat, {}))
    return out


def _check_insurance(
    insurance: Decimal | None, main: Decimal, rules: BlackjackRules, dealer: DealerView, natural: bool,
    surrendered: bool, seat: int, where: dict[str, int],
) -> list[dict[str, Any]]:
    if insurance is None:
        return []
    out = []
    if not rules.insurance or not dealer.up_is_ace:
        out.append(violation("blackjack.insurance-not-offered",
                             "insurance is offered only when the dealer shows an Ace", seat, **where))
    elif natural:
        out.append(violation("blackjack.insurance-with-blackjack",
                             "a hand with a blackjack is not offered insurance", seat, **where))
    elif surrendered:
        out.append(violation("blackjack.insurance-and-surrender",
                             "insurance and surrender are alternatives of one offer", seat, **where))
    if insurance != half(main):
        out.append(violation("blackjack.insurance-not-half",
                             f"insurance is exactly half the main bet: {fmt(half(main))}, not {fmt(insurance)}",
                             seat, **where))
    return out


def check_behind(seat: SeatPlay, rules: BlackjackRules, dealer: DealerView) -> list[dict[str, Any]]:
    """Violations of the bet-behind rules (own seat, refused, not offered, insurance behind)."""
    out: list[dict[str, Any]] = []
    if not seat.behind:
        return out
    if not rules.bet_behind:
        out.append(violation("blackjack.bet-behind-not-offered", "this rule set has no bets behind", seat.seat))
    if seat.refuses_behind:
        out.append(violation("blackjack.bets-behind-refused",
                             "the seated player refuses bets behind", seat.seat))
    natural = seat.main is not None and len(seat.hands) == 1 and is_blackjack(seat.hands[0].cards[:2])
    surrendered = any(h.surrendered for h in seat.hands)
    for j, b in enumerate(seat.behind):
        if b.player is not None and b.player == seat.player:
            out.append(violation("blackjack.bet-behind-own-seat",
                                 f"player {b.player} bets behind their own seat", seat.seat, behind=j))
        if seat.main is not None:
            out.extend(_check_insurance(b.insurance, b.main, rules, dealer, natural, surrendered, seat.seat,
                                        {"behind": j}))
    return out


def round_is_live(seats: Sequence[SeatPlay], rules: BlackjackRules, dealer: DealerView) -> bool:
    """Whether any hand still waits for the dealer's hand (so the dealer must complete it)."""
    if rules.dealer_peeks and dealer.blackjack:
        return False
    for seat in seats:
        if seat.main is None:
            continue
        split = len(seat.hands) > 1
        for h in seat.hands:
            if hand_is_live(h, split):
                return True
    return False


def check_dealer(seats: Sequence[SeatPlay], rules: BlackjackRules, dealer: DealerView) -> list[dict[str, Any]]:
    """Violations of the dealer's drawing rule, and draws after every hand was decided."""
    cards = dealer.cards
    if not round_is_live(seats, rules, dealer):
        if len(cards) > 2:
            return [violation("blackjack.dealer-drew-after-decided",
                              "every hand was already decided (bust, surrendered or blackjack): "
                              "the dealer only turns the hole card")]
        return []
    out = []
    for k in range(2, len(cards)):
        if not dealer_must_hit(cards[:k], rules):
            total, soft = hand_total(cards[:k])
            out.append(violation("blackjack.dealer-drew-on-17-or-more",
                                 f"the dealer drew on {'soft ' if soft else ''}{total}: the dealer stands there"))
            break
    if dealer_must_hit(cards, rules):
        total, soft = hand_total(cards)
        if total < 17:
            out.append(violation("blackjack.dealer-stood-below-17", f"the dealer stood on {total}: must draw below 17"))
        else:
            out.append(violation("blackjack.dealer-stood-on-soft-17",
                                 "the dealer stood on soft 17: this rule set hits soft 17"))
    return out
