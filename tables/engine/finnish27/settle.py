"""Finnish 27 outcome, bonus lines and settlement, from the hands as they lie.

The game wager pays 1:1 (the pay table's ``main`` line).  A bonus is paid only when the player
wins, on top of the 1:1, one line per hand: the highest-paying line that applies.  Lines quoted in
table minimums pay that fixed amount whatever the wager; odds lines are multiples of the wager.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from ..cards import Card, Rank, Suit
from ..money import CENT, fmt
from ..paytable import PayLine, PayTable
from ..poker import FINNISH, evaluate
from ..rulesets import Finnish27Rules
from ..settlement import SettlementLine, total_net
from .values import (
    FINNISH_27,
    INITIAL_27_LABEL,
    INITIAL_27_RANK,
    JO_JO,
    PUBLISHED_RULES,
    describe_total,
    distance,
    hand_value,
    initial_27,
    initial_winner,
)

PLAYER = "player"
DEALER = "dealer"

# How the round was decided.
BY_INITIAL_27 = "initial-27"
BY_PLAYER_27 = "player-27"
BY_PLAYER_OVER_35 = "player-over-35"
BY_DISTANCE = "closer"
BY_TIE = "tie"

PUBLISHED_PAY_TABLE = PayTable.published("finnish-27")

# Short names of the bonus combinations for the human explanation.
BONUS_SHORT = {
    "finnish-27": "Finnish 27",
    "jo-jo": "Jo Jo",
    "8-9-10/mixed": "8-9-10 mixed suits",
    "8-9-10/suited": "8-9-10 suited",
    "8-9-10/spades": "8-9-10 spades",
    "9-9-9/mixed": "9-9-9 mixed suits",
    "9-9-9/suited": "9-9-9 same suit",
    "9-9-9/dealer-9-9": "9-9-9 with a dealer 9-9",
    "poker/two-pair": "two pair",
    "poker/three-of-a-kind": "three of a kind",
    "poker/straight": "straight",
    "poker/full-house": "full house",
    "poker/four-of-a-kind": "four of a kind",
    "poker/flush": "flush",
    "poker/straight-flush": "straight flush",
    "poker/five-of-a-kind": "five of a kind",
}
POKER_LINES = frozenset(k for k in BONUS_SHORT if k.startswith("poker/"))
_EIGHT_NINE_TEN = [Rank.EIGHT, Rank.NINE, Rank.TEN]
_NINES = [Rank.NINE] * 3


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won and how, with both totals as the hands lie."""

    winner: str  # "player" | "dealer"
    how: str  # BY_INITIAL_27, BY_PLAYER_27, BY_PLAYER_OVER_35, BY_DISTANCE, BY_TIE
    player_total: int
    player_soft: bool
    dealer_total: int
    dealer_soft: bool
    player_27: str | None = None  # the initial 27 of each side, if any
    dealer_27: str | None = None

    @property
    def player_wins(self) -> bool:
        return self.winner == PLAYER


def outcome(
    player: Sequence[Card], dealer: Sequence[Card], rules: Finnish27Rules = PUBLISHED_RULES
) -> Outcome:
    """The outcome from the final hands: initial 27s, then the player's 27 / over hard 35, then distance.

    Hands that broke the rules are settled as they lie (shared/DESIGN.md), in the order the rules
    decide: an initial 27 is judged on the first two cards whatever was drawn after it; otherwise
    the player's final hand (27 wins, over hard 35 loses) and then both final totals by distance.
    """
    pt, ps = hand_value(player)
    dt, ds = hand_value(dealer)
    first = initial_winner(player, dealer)
    if first is not None:
        return Outcome(first, BY_INITIAL_27, pt, ps, dt, ds, initial_27(player), initial_27(dealer))
    # player_decided(), inlined: this runs once per simulated round
    if pt == 27:
        return Outcome(PLAYER, BY_PLAYER_27, pt, ps, dt, ds)
    if not ps and pt > rules.player_loses_over_hard:
        return Outcome(DEALER, BY_PLAYER_OVER_35, pt, ps, dt, ds)
    dp, dd = distance(pt), distance(dt)
    if dp < dd:
        return Outcome(PLAYER, BY_DISTANCE, pt, ps, dt, ds)
    return Outcome(DEALER, BY_DISTANCE if dd < dp else BY_TIE, pt, ps, dt, ds)


def bonus_candidates(player: Sequence[Card], dealer: Sequence[Card]) -> tuple[str, ...]:
    """Every bonus line the player's hand matches, the published highest first (whoever won)."""
    n = len(player)
    if n == 2:
        kind = initial_27(player)
        if kind == FINNISH_27:
            return ("finnish-27",)
        if kind == JO_JO:
            return ("jo-jo",)
        return ()
    if n == 3:
        if any(c.rank is None for c in player):
            return ()
        ranks = sorted(c.rank for c in player)  # type: ignore[type-var]
        suits = {c.suit for c in player}
        if ranks == _EIGHT_NINE_TEN:
            if len(suits) > 1:
                return ("8-9-10/mixed",)
            return ("8-9-10/spades",) if Suit.SPADES in suits else ("8-9-10/suited",)
        if ranks == _NINES:
            own = "9-9-9/suited" if len(suits) == 1 else "9-9-9/mixed"
            # "9-9-9 and any 9-9 initial dealer's hand": the dealer's first two cards are Nines.
            if len(dealer) >= 2 and dealer[0].rank is Rank.NINE and dealer[1].rank is Rank.NINE:
                return ("9-9-9/dealer-9-9", own)
            return (own,)
        return ()
    if n >= 5:
        line = "poker/" + evaluate(player, FINNISH).category
        # One pair qualifies as a poker hand but the pay table has no line for it: it pays nothing.
        return (line,) if line in POKER_LINES else ()
    return ()


def bonus_line(player: Sequence[Card], dealer: Sequence[Card]) -> str | None:
    """The bonus line the hand would earn under the published pay table if the player wins, or None."""
    found = bonus_candidates(player, dealer)
    return found[0] if found else None


def _pays(line: PayLine, wager: Decimal, table_minimum: Decimal) -> Decimal:
    """``line.pays`` with a shortcut for whole odds (1:1, 2:1 ...), exact either way."""
    odds = line.odds
    if odds is not None and odds.denominator == 1:
        return (wager * odds.numerator).quantize(CENT)
    return line.pays(wager, table_minimum)


def best_bonus(
    candidates: Sequence[str], pay_table: PayTable, wager: Decimal, table_minimum: Decimal
) -> tuple[str, Decimal] | None:
    """The highest-paying of ``candidates`` under ``pay_table`` (ties: the first), with its amount."""
    best: tuple[str, Decimal] | None = None
    for name in candidates:
        amount = _pays(pay_table[name], wager, table_minimum)
        if best is None or amount > best[1]:
            best = (name, amount)
    return best


@dataclass(frozen=True, slots=True)
class Settlement:
    """The settled round: outcome, the lines (main, then the bonus if any) and the total."""

    outcome: Outcome
    lines: tuple[SettlementLine, ...]
    bonus: str | None

    @property
    def total_net(self) -> Decimal:
        return total_net(self.lines)


def _hand_words(total: int, soft: bool, kind: str | None) -> str:
    words = describe_total(total, soft)
    return f"{words} ({INITIAL_27_LABEL[kind]})" if kind else words


def _how_words(o: Outcome) -> str:
    if o.how == BY_INITIAL_27:
        if o.player_27 and o.dealer_27:
            if INITIAL_27_RANK[o.player_27] == INITIAL_27_RANK[o.dealer_27]:
                return "equal initial 27s go to the dealer"
            hi, lo = (o.player_27, o.dealer_27) if o.winner == PLAYER else (o.dealer_27, o.player_27)
            return f"{INITIAL_27_LABEL[hi]} outranks {INITIAL_27_LABEL[lo]}"
        return "an initial 27 wins at once"
    if o.how == BY_PLAYER_27:
        return "27 wins at once"
    if o.how == BY_PLAYER_OVER_35:
        return "over hard 35 loses at once"
    dp, dd = distance(o.player_total), distance(o.dealer_total)
    # Said inside the line's own brackets ("lose (...)"): no second pair, and who is the closer one.
    if o.how == BY_TIE:
        return f"equally close to 27, {dp} away each: the dealer wins ties"
    if o.winner == PLAYER:
        return f"closer to 27: {dp} away against the dealer's {dd}"
    return f"the dealer closer to 27: {dd} away against the player's {dp}"


def settle(
    player: Sequence[Card],
    dealer: Sequence[Card],
    wager: Decimal,
    *,
    table_minimum: Decimal,
    pay_table: PayTable = PUBLISHED_PAY_TABLE,
    rules: Finnish27Rules = PUBLISHED_RULES,
) -> Settlement:
    """Settle the game wager (1:1) and the bonus from the final hands."""
    o = outcome(player, dealer, rules)
    main = pay_table["main"]
    p_words = _hand_words(o.player_total, o.player_soft, o.player_27)
    d_words = _hand_words(o.dealer_total, o.dealer_soft, o.dealer_27)
    if not o.player_wins:
        detail = f"player {p_words} vs dealer {d_words}: lose ({_how_words(o)})"
        return Settlement(o, (SettlementLine("main", wager, "lose", -wager, detail),), None)
    won = _pays(main, wager, table_minimum)
    best = best_bonus(bonus_candidates(player, dealer), pay_table, wager, table_minimum)
    if best is None:
        detail = f"player {p_words} vs dealer {d_words}: win {main.pays_text} ({_how_words(o)})"
        return Settlement(o, (SettlementLine("main", wager, "win", won, detail),), None)
    name, amount = best
    line = pay_table[name]
    if o.player_27 is None:
        p_words = f"{p_words} ({BONUS_SHORT[name]})"
    detail = (
        f"player {p_words} vs dealer {d_words}: win {main.pays_text} + bonus {line.pays_text} "
        f"({_how_words(o)})"
    )
    if line.odds is not None:
        bonus_detail = f"{name}: {line.label}, pays {line.pays_text} on the wager {fmt(wager)}"
    else:
        bonus_detail = f"{name}: {line.label}, pays {line.table_minimum} x the table minimum {fmt(table_minimum)}"
    return Settlement(
        o,
        (
            SettlementLine("main", wager, "win", won, detail),
            SettlementLine("bonus", wager, "win", amount, bonus_detail),
        ),
        name,
    )
