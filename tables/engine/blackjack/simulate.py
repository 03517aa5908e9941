"""A whole round played in one call: the fast path for simulations and the throughput benchmark.

``play_round`` follows the same rules as the live round (deal order, the offer against an Ace, the
peek, splits and doubles by the rule set, the dealer's drawing rule) without building prompts or
events, and settles through the same ``Settler`` as verification.  A property test replays the same
cards and decisions through the live round and checks the settlements are equal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from decimal import Decimal

from ..cards import Card, Rank
from ..paytable import PayTable
from ..rulesets import BlackjackRules
from ..settlement import SettlementLine
from ..strategy import recommend
from .hands import _POINTS, dealer_must_hit, is_blackjack
from .live import BehindBet, SeatBet
from .outcome import BehindPlay, DealerView, HandPlay, SeatPlay, Settler, hand_is_live

Decide = Callable[[BlackjackRules, Sequence[Card], Card, bool, bool, bool], str]


def play_round(
    rules: BlackjackRules,
    pay_table: PayTable,
    table_minimum: Decimal,
    bets: Sequence[SeatBet],
    cards: Iterator[Card],
    behind: Sequence[BehindBet] = (),
    decide: Decide = recommend,
    settler: Settler | None = None,
) -> tuple[list[Card], list[SeatPlay], list[list[SettlementLine]]]:
    """Deal, play (``decide`` chooses; no insurance is taken) and settle one round.

    Returns the dealer's cards, the seats as played and the settlement lines per seat.  The bets are
    taken as valid (the live round's ``start_round`` checks them).  Pass a ``settler`` built once for
    the table to save its set-up in long simulations.
    """
    bets = sorted(bets, key=lambda b: b.seat)
    first = [next(cards) for _ in bets]
    up = next(cards)
    plays = []
    for b, c in zip(bets, first, strict=True):
        bb = [BehindPlay(x.main, None, x.double_along, x.follow_split, x.player) for x in behind if x.seat == b.seat]
        plays.append(SeatPlay(b.seat, b.main, [HandPlay([c, next(cards)])], b.perfect_pairs,
                              b.twenty_one_plus_three, None, bb, b.player, b.refuses_behind))
    dealer = [up, next(cards)]
    if up.rank is Rank.ACE and rules.surrender == "vs_ace":
        for p in plays:
            h = p.hands[0]
            if not is_blackjack(h.cards) and decide(rules, h.cards, up, False, False, True) == "surrender":
                h.surrendered = True
    if not (rules.dealer_peeks and is_blackjack(dealer)):
        _play_seats(rules, plays, up, cards, decide)
        # The dealer completes the hand only when some hand still waits for it (round_is_live).
        if any(hand_is_live(h, len(p.hands) > 1) for p in plays for h in p.hands):
            while dealer_must_hit(dealer, rules):
                dealer.append(next(cards))
    if settler is None:
        settler = Settler(rules, pay_table, table_minimum)
    settler.set_dealer(DealerView.of(dealer))
    return dealer, plays, [settler.seat_lines(p) for p in plays]


_Memo = dict[tuple[int, bool, int, int, bool, bool], str]
_MEMOS: dict[int, tuple[BlackjackRules, _Memo]] = {}


def _memo_for(rules: BlackjackRules) -> _Memo:
    """The memo of ``recommend`` answers for ``rules`` (the rules object is kept, so its id stays unique)."""
    found = _MEMOS.get(id(rules))
    if found is None or found[0] is not rules:
        if len(_MEMOS) > 64:
            _MEMOS.clear()
        found = _MEMOS[id(rules)] = (rules, {})
    return found[1]


def _play_seats(rules: BlackjackRules, plays: list[SeatPlay], up: Card, cards: Iterator[Card], decide: Decide) -> None:  # noqa: C901  (complexity ratchet: existing, to be split)
    """Every seat's decisions, seat by seat and hand by hand, with the live round's completion rules."""
    das = rules.double_after_split and rules.double_on == "any_two"
    max_hands = rules.max_hands
    aces_one = rules.split_aces_one_card
    auto21 = rules.auto_stand_21
    # ``recommend`` depends on the hand only through its hard total, whether it holds an Ace and
    # whether it is a pair, so its answers are memoised on those (not for other decide functions).
    memo = _memo_for(rules) if decide is recommend else None
    up_points = _POINTS[up.rank]  # type: ignore[index]
    for p in plays:
        hands = p.hands
        if hands[0].surrendered:
            continue
        i = 0
        while i < len(hands):
            hand = hands[i]
            hc = hand.cards
            split = len(hands) > 1
            if len(hc) < 2:
                hc.append(next(cards))
            hard = 0
            ace = False
            for c in hc:
                pts = _POINTS[c.rank]  # type: ignore[index]
                hard += pts
                ace = ace or pts == 1
            if not split and len(hc) == 2 and ace and hard == 11:
                i += 1
                continue  # a blackjack stands
            if split and aces_one and hc[0].rank is Rank.ACE:
                i += 1
                continue  # split Aces: one card each
            while True:
                total = hard + 10 if ace and hard <= 11 else hard
                if total > 21 or (auto21 and total == 21) or (hand.doubled and len(hc) >= 3):
                    break
                two = len(hc) == 2
                can_split = two and len(hands) < max_hands and _POINTS[hc[0].rank] == _POINTS[hc[1].rank]  # type: ignore[index]
                can_double = two and (das or not split)
                if memo is not None:
                    pair = _POINTS[hc[0].rank] if two and _POINTS[hc[0].rank] == _POINTS[hc[1].rank] else 0  # type: ignore[index]
                    key = (hard, ace, pair, up_points, can_double, can_split)
                    act = memo.get(key)
                    if act is None:
                        act = memo[key] = decide(rules, hc, up, can_double, can_split, False)
                else:
                    act = decide(rules, hc, up, can_double, can_split, False)
                if act == "hit" or act == "double":
                    if act == "double":
                        hand.doubled = True
                    c = next(cards)
                    hc.append(c)
                    pts = _POINTS[c.rank]  # type: ignore[index]
                    hard += pts
                    ace = ace or pts == 1
                elif act == "split":
                    hands.insert(i + 1, HandPlay([hc.pop()]))
                    split = True
                    c = next(cards)
                    hc.append(c)
                    hard = _POINTS[hc[0].rank] + _POINTS[c.rank]  # type: ignore[index]
                    ace = _POINTS[hc[0].rank] == 1 or _POINTS[c.rank] == 1  # type: ignore[index]
                    if aces_one and hc[0].rank is Rank.ACE:
                        break
                else:
                    break
            i += 1
