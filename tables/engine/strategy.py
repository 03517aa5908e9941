"""Basic-strategy hints for the blackjack rule sets (Mini Blackjack's "Hints").

Source, stated as the issue asks: the multi-deck (4-8 decks) basic-strategy chart for a dealer who
stands on soft 17 with double after split, as published in the Wikipedia article "Blackjack"
(section Basic strategy), with its documented rule changes applied per rule set:

- no double after split (Mini Blackjack): 2-2 and 3-3 split only against 4-7, 4-4 is hit as a hard
  8, 6-6 split against 3-6 (the usual no-DAS cells);
- dealer hits soft 17: double 11 against an Ace, double A-7 against 2 and A-8 against 6;
- no hole-card peek (Unlimited Blackjack, European style): do not put more money out against a ten
  or an Ace that may hide a blackjack: hit 11 against T/A, hit A-A against an Ace, hit 8-8 against
  T/A (the usual ENHC cells);
- surrender is offered only against an Ace before any other decision.  Without a peek that is an
  early surrender: give up hard 5-7 and 12-17 and the pairs 3-3, 6-6, 7-7, 8-8; with a peek it is a
  late surrender: hard 16 (and 15 and 17 when the dealer hits soft 17).

This table is a stand-in: the game-math package (``tables.analysis.blackjack``) computes the exact
strategy of a rule set and hands it to the engine as data, a ``Chart``; ``recommend`` reads that chart
when it is given one.  The engine imports nothing from the analysis.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from .cards import Card

HIT, STAND, DOUBLE, SPLIT, SURRENDER = "hit", "stand", "double", "split", "surrender"


class StrategyRules(Protocol):
    """The rule-set fields the chart depends on (``BlackjackRules`` has them)."""

    @property
    def dealer_hits_soft_17(self) -> bool: ...
    @property
    def dealer_peeks(self) -> bool: ...
    @property
    def double_after_split(self) -> bool: ...


# Columns: dealer up card 2 3 4 5 6 7 8 9 T A.  H hit, S stand, D double (else hit),
# d double (else stand), P split.
_HARD: dict[int, str] = {
    9: "HDDDDHHHHH",
    10: "DDDDDDDDHH",
    11: "DDDDDDDDDH",
    12: "HHSSSHHHHH",
    13: "SSSSSHHHHH",
    14: "SSSSSHHHHH",
    15: "SSSSSHHHHH",
    16: "SSSSSHHHHH",
}
_SOFT: dict[int, str] = {
    13: "HHHDDHHHHH",
    14: "HHHDDHHHHH",
    15: "HHDDDHHHHH",
    16: "HHDDDHHHHH",
    17: "HDDDDHHHHH",
    18: "SddddSSHHH",
    19: "SSSSSSSSSS",
    20: "SSSSSSSSSS",
}
_PAIRS_DAS: dict[int, str] = {  # keyed by the points of one card (Ace = 1)
    1: "PPPPPPPPPP",
    2: "PPPPPPHHHH",
    3: "PPPPPPHHHH",
    4: "HHHPPHHHHH",
    6: "PPPPPHHHHH",
    7: "PPPPPPHHHH",
    8: "PPPPPPPPPP",
    9: "PPPPPSPPSS",
}
_PAIRS_NO_DAS: dict[int, str] = _PAIRS_DAS | {
    2: "HHPPPPHHHH",
    3: "HHPPPPHHHH",
    4: "HHHHHHHHHH",
    6: "HPPPPHHHHH",
}
_POINTS = (0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1)
_WORDS = {"S": STAND, "H": HIT, "D": DOUBLE, "P": SPLIT, "R": SURRENDER}


@dataclass(frozen=True)
class Chart:
    """A computed total-dependent basic strategy, as data: what the game math gives the engine.

    Cards are classes (Ace 0, 2 to 9 as 1 to 8, ten-valued 9); up cards likewise.  Two-card cells
    name the play with its fallback (``"D/H"``: double, else hit; ``"R/S"``; ``"P"``; ``"H"``);
    ``multi`` gives the play of any other hand by its hard total and whether it holds an Ace.
    """

    hard: Mapping[int, Mapping[int, str]]  # [up][total] -> cell
    soft: Mapping[int, Mapping[int, str]]
    pairs: Mapping[int, Mapping[int, str]]  # [up][card class] -> cell
    multi: Mapping[int, Mapping[tuple[int, bool], str]]  # [up][(hard, ace)] -> S/H

    def action(self, up: int, cards: Sequence[int], *, can_double: bool, can_split: bool,
               can_surrender: bool) -> str:
        """The play (S, H, D, P, R) for a hand of card classes against up card class ``up``."""
        hard = sum(c + 1 for c in cards)
        ace = 0 in cards
        if hard > 21:
            return "S"
        total = hard + 10 if ace and hard <= 11 else hard
        if len(cards) == 2 and can_split and cards[0] == cards[1] and self.pairs[up][cards[0]] == "P":
            return "P"
        if len(cards) == 2 and (can_double or can_surrender):
            entry = (self.soft if total != hard else self.hard)[up].get(total)
            if entry:
                first, _, fallback = entry.partition("/")
                if first == "D" and can_double:
                    return "D"
                if first == "R" and can_surrender:
                    return "R"
                if first in ("S", "H"):
                    return first
                return fallback or self.multi[up][(hard, ace)]
        return self.multi[up][(hard, ace)]


def _column(up: Card) -> int:
    p = _POINTS[up.rank]  # type: ignore[index]
    return 9 if p == 1 else p - 2


def _surrender(rules: StrategyRules, total: int, soft: bool, pair: int | None, up_is_ace: bool) -> bool:
    if not up_is_ace or soft:
        return False
    if rules.dealer_peeks:  # late surrender
        return total == 16 or (rules.dealer_hits_soft_17 and total in (15, 17))
    if pair is not None:
        return pair in (3, 6, 7, 8)
    return 5 <= total <= 7 or 12 <= total <= 17


def recommend(
    rules: StrategyRules,
    player_cards: Sequence[Card],
    dealer_up: Card,
    can_double: bool,
    can_split: bool,
    can_surrender: bool,
    chart: Chart | None = None,
) -> str:
    """The basic-strategy action (hit, stand, double, split, surrender) for a hand against an up card.

    With a ``chart`` (the strategy the game math computed for this rule set) the chart decides;
    without one, the published chart above with its rule changes.
    """
    if chart is not None:
        classes = [_POINTS[c.rank] - 1 for c in player_cards]  # type: ignore[index]
        up = _POINTS[dealer_up.rank] - 1  # type: ignore[index]
        return _WORDS[chart.action(up, classes, can_double=can_double, can_split=can_split,
                                   can_surrender=can_surrender)]
    points = [_POINTS[c.rank] for c in player_cards]  # type: ignore[index]
    hard = sum(points)
    soft = 1 in points and hard <= 11
    total = hard + 10 if soft else hard
    if total >= 21:
        return STAND
    col = _column(dealer_up)
    up_is_ace = col == 9
    ten_or_ace = col >= 8
    pair = points[0] if len(points) == 2 and points[0] == points[1] else None
    if can_surrender and _surrender(rules, total, soft, pair, up_is_ace):
        return SURRENDER
    if pair is not None and can_split and pair not in (5, 10):
        table = _PAIRS_DAS if rules.double_after_split else _PAIRS_NO_DAS
        cell = table[pair][col]
        if not rules.dealer_peeks and ten_or_ace and (pair == 8 or (pair == 1 and up_is_ace)):
            cell = "H"  # no peek: a split against a possible blackjack loses both bets
        if cell == "P":
            return SPLIT
    if soft:
        # A chart row is a string of ten cells, one per up card: take this up card's cell (the row
        # itself was once compared with "D"/"S" here, which made every non-pair hand a hit).
        row = _SOFT.get(total)
        cell = row[col] if row is not None else ("S" if total >= 19 else "H")
        if rules.dealer_hits_soft_17 and ((total == 18 and col == 0) or (total == 19 and col == 4)):
            cell = "d"
    else:
        row = _HARD.get(total)
        cell = row[col] if row is not None else ("H" if total < 9 else "S")
        if total == 11 and up_is_ace and rules.dealer_hits_soft_17:
            cell = "D"
        if total == 11 and ten_or_ace and not rules.dealer_peeks:
            cell = "H"
    if cell == "D":
        return DOUBLE if can_double else HIT
    if cell == "d":
        return DOUBLE if can_double else STAND
    return STAND if cell == "S" else HIT

