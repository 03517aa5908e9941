"""Shuffle-point audit of one shoe: late and early shuffles, missing notices, card anomalies.

Pure: takes the shoe's history as plain records (what the tablet stored) and the rule set's shoe
spec, returns findings.  A *late* shuffle (a round dealt past the shuffle point) is an
advantage-play risk; an *early* one is a procedure violation, and early shuffles that follow a
shoe rich in the cards that favour the player suggest preferential shuffling.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from statistics import fmean

from tables.engine.cards import Card, Rank
from tables.engine.shoe import ShoeSpec, ShuffleRule


@dataclass(frozen=True, slots=True)
class RoundCards:
    """The cards one round took from the shoe, in order."""

    round_id: int | str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ShoeSegment:
    """The life of a shoe between two shuffles: rounds in order, and how it ended."""

    rounds: tuple[RoundCards, ...]
    ended_by_shuffle: bool = True  # False: the segment is still being dealt (shift end, audit cut-off)
    notified: bool = True  # whether the player was told of the shuffle that ended it


@dataclass(frozen=True, slots=True)
class Finding:
    """One audit finding; ``rule`` is a stable identifier, ``severity`` info|warning|critical."""

    rule: str
    severity: str
    message: str
    segment: int
    round_id: int | str | None = None
    data: dict[str, object] = field(default_factory=dict)


def hi_lo_true_count(remaining: Counter[Card], cards_left: int) -> float:
    """Hi-Lo true count of the cards left (positive: rich in tens and Aces, good for a blackjack player)."""
    if cards_left <= 0:
        return 0.0
    running = 0
    for card, n in remaining.items():
        if card.rank is None:
            continue
        # Counted over the cards *left*: tens and Aces left count +1, 2-6 left count -1, so a fresh
        # shoe is 0 and one that has shed its low cards is positive — the usual Hi-Lo count.
        if card.rank <= Rank.SIX:
            running -= n
        elif card.rank >= Rank.TEN:
            running += n
    return running / (cards_left / 52)


def finnish_richness(remaining: Counter[Card], cards_left: int) -> float:
    """Excess of Jokers, Aces and Kings left over their share in a fresh shoe, per deck left (Finnish 27's 27-makers)."""
    if cards_left <= 0:
        return 0.0
    makers = sum(n for c, n in remaining.items() if c.is_joker or c.rank in (Rank.ACE, Rank.KING))
    return (makers - cards_left * (8 + 2) / 54) / (cards_left / 54)


Richness = Callable[[Counter[Card], int], float]


def audit_shoe(
    spec: ShoeSpec,
    segments: Sequence[ShoeSegment],
    *,
    richness: Richness = hi_lo_true_count,
    early_tolerance: int = 0,
    rich_threshold: float = 2.0,
    pattern_min_early: int = 3,
) -> list[Finding]:
    """Audit a shoe's segments against its shuffle rule.

    - ``shuffle.late``: a round was started after the shuffle point had been reached;
    - ``shuffle.early``: the shoe was shuffled before its shuffle point (``early_tolerance`` cards of slack);
    - ``shuffle.not-notified``: a shuffle the player was not told of;
    - ``card.impossible`` / ``card.joker-without-jokers``: more copies than the shoe holds, or a Joker in a game without;
    - ``shuffle.preferential-pattern``: at least ``pattern_min_early`` early shuffles, on average with the remaining
      cards richer than ``rich_threshold`` (e.g. a Hi-Lo true count) — shuffling away good shoes.
    """
    findings: list[Finding] = []
    early_richness: list[float] = []
    composition = spec.composition()
    for index, segment in enumerate(segments):
        dealt = 0
        seen: Counter[Card] = Counter()
        point_reached = False
        for rnd in segment.rounds:
            if point_reached:
                findings.append(Finding(
                    "shuffle.late", "critical",
                    f"round {rnd.round_id} was dealt after the shuffle point ({_point_text(spec)}; {_cards(dealt)} already dealt)",
                    index, rnd.round_id, {"cards_dealt": dealt, "shuffle_at": spec.shuffle_at},
                ))
            for card in rnd.cards:
                if card.is_joker and spec.jokers == 0:
                    findings.append(Finding(
                        "card.joker-without-jokers", "critical",
                        f"a Joker was recorded in round {rnd.round_id}, but this game is played without Jokers",
                        index, rnd.round_id,
                    ))
                elif seen[card] >= composition[card]:
                    findings.append(Finding(
                        "card.impossible", "critical",
                        f"{card.code} seen {seen[card] + 1} times since the shuffle; the shoe holds {composition[card]}",
                        index, rnd.round_id, {"card": card.code, "seen": seen[card] + 1, "holds": composition[card]},
                    ))
                seen[card] += 1
                dealt += 1
            point_reached = point_reached or _point_reached(spec, dealt)
        if not segment.ended_by_shuffle:
            continue
        if not segment.notified:
            findings.append(Finding(
                "shuffle.not-notified", "warning", "the player was not notified of the reshuffle", index,
            ))
        if not point_reached and dealt + early_tolerance < spec.shuffle_at:
            remaining = composition.copy()
            remaining.subtract(seen)
            rich = richness(+remaining, spec.size - dealt)
            early_richness.append(rich)
            findings.append(Finding(
                "shuffle.early", "warning",
                f"shuffled after {_cards(dealt)}, before the shuffle point ({_point_text(spec)}); "
                f"richness of the cards left {rich:+.2f}",
                index, None, {"cards_dealt": dealt, "shuffle_at": spec.shuffle_at, "richness": round(rich, 3)},
            ))
    if len(early_richness) >= pattern_min_early and fmean(early_richness) >= rich_threshold:
        findings.append(Finding(
            "shuffle.preferential-pattern", "critical",
            f"{len(early_richness)} early shuffles, with the cards left on average {fmean(early_richness):+.2f} rich "
            f"(threshold {rich_threshold:+.2f}): good shoes for the player are being shuffled away",
            -1, None, {"early_shuffles": len(early_richness), "mean_richness": round(fmean(early_richness), 3)},
        ))
    return findings


def _point_reached(spec: ShoeSpec, dealt: int) -> bool:
    # Cut card: it comes out with card number ``shuffle_at``; the round in progress finishes and the
    # shoe is shuffled after it.  "N or more dealt": checked between rounds — the same test.
    return spec.shuffle_at > 0 and dealt >= spec.shuffle_at


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _point_text(spec: ShoeSpec) -> str:
    if spec.shuffle_rule is ShuffleRule.CUT_CARD:
        return f"cut card at card {spec.shuffle_at}"
    return f"shuffle when {spec.shuffle_at} or more cards have been dealt"
