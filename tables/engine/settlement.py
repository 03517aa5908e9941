"""Settlement lines, totals and the payout discrepancies of the verify contract."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .money import ZERO, fmt

# The bet kinds that are codes rather than words, as people say them (the rest — main, bonus, 21+3,
# insurance, behind, ante — read as they are).
BET_WORDS = {"perfect-pairs": "Perfect Pairs", "behind-insurance": "insurance behind"}


# The lines that pay on a stake another line holds, not stakes of their own: No-Bust Finnish 27's bonus is
# paid on top of the game wager's 1:1 (rules/README.md), its line carrying that wager as the amount it pays
# on.  Every other line is a stake the round took (each split hand, a doubled stake, insurance, side bets,
# bets behind, a pot contribution).
NOT_STAKES = frozenset({"bonus"})


def bet_words(kind: object) -> str:
    """A bet kind as a pit boss reads it: ``perfect-pairs`` → ``Perfect Pairs``; any other kind as it is."""
    text = str(kind or "")
    return BET_WORDS.get(text, text)


@dataclass(frozen=True, slots=True)
class SettlementLine:
    """One bet's result: ``net`` is what the player won (negative when lost, zero for a push)."""

    bet: str  # main, bonus, perfect-pairs, 21+3, insurance, behind, behind-insurance, ...
    wager: Decimal
    result: str  # win, lose, push, blackjack, surrender, refund, ...
    net: Decimal
    detail: str
    hand: int | None = None  # index of the hand after a split
    behind: int | None = None  # index of the bettor behind

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "bet": self.bet,
            "wager": fmt(self.wager),
            "result": self.result,
            "net": fmt(self.net),
            "detail": self.detail,
        }
        if self.hand is not None:
            out["hand"] = self.hand
        if self.behind is not None:
            out["behind"] = self.behind
        return out


def total_net(lines: Iterable[SettlementLine]) -> Decimal:
    """The sum of the nets (what the house pays out minus what it collects)."""
    return sum((line.net for line in lines), ZERO)


def due_by_kind(lines: Iterable[SettlementLine]) -> dict[str, Decimal]:
    """What the dealer must hand over per bet kind: the sum of that kind's positive nets."""
    due: dict[str, Decimal] = {}
    for line in lines:
        due.setdefault(line.bet, ZERO)
        if line.net > 0:
            due[line.bet] += line.net
    return due


def discrepancies(seat: int, lines: Iterable[SettlementLine], paid: Mapping[str, Decimal] | None) -> list[dict[str, Any]]:
    """Each bet kind where ``paid`` differs from what is due (only when ``paid`` was given)."""
    if paid is None:
        return []
    due = due_by_kind(lines)
    out = []
    for kind in sorted(set(due) | set(paid)):
        d, p = due.get(kind, ZERO), paid.get(kind, ZERO)
        if d != p:
            # "bet" names the kind as settlement lines do; "kind" is the same, as DESIGN.md words it.
            out.append(
                {"seat": seat, "bet": kind, "kind": kind, "paid": fmt(p), "due": fmt(d), "difference": fmt(p - d)}
            )
    return out
