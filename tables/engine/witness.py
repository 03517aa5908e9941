"""The game state as a witness of a scan: the reader's candidates weighed by what the shoe still holds.

The reader's confidence is its belief under a uniform prior over the cards.  At a table the prior is the
shoe: a card all of whose copies have been dealt cannot come next, and one of which many copies remain is
likelier than one of which few do.  ``weigh`` turns the reader's candidates into beliefs under the shoe's
remaining composition; ``choose`` records a card only when the weighed belief AND the reader's own
confidence in that card both reach the threshold, so an impossible top read gives way to the next
candidate only when the reader is itself confident of that one; otherwise the dealer is asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, parse_card
from .errors import InvalidInput
from .shoe import Shoe


@dataclass(frozen=True, slots=True)
class Weighed:
    """One candidate: the card, the reader's confidence, and the belief once the shoe has been heard."""

    card: Card
    read: float
    weighed: float


def _card(code: str) -> Card | None:
    try:
        return parse_card(code)
    except (InvalidInput, ValueError):
        return None


def weigh(candidates: Sequence[tuple[str, float]], shoe: Shoe | None) -> list[Weighed]:
    """The candidates as beliefs under the shoe's remaining composition, best first.

    Each candidate's confidence is multiplied by how many copies of it the shoe still holds relative to
    the average card of this shoe; the confidence the reader gave to no listed candidate stays as it was
    (an unlisted card of average likelihood).  Without a shoe the reader's confidences stand.  Codes
    that are not cards are dropped; a code listed twice keeps its higher confidence.
    """
    best: dict[Card, float] = {}
    for code, confidence in candidates:
        card = _card(code)
        if card is not None:
            best[card] = max(best.get(card, 0.0), min(max(float(confidence), 0.0), 1.0))
    if not best:
        return []
    listed = sum(best.values())
    rest = max(0.0, 1.0 - listed)
    if shoe is None:
        ranked = [Weighed(c, p, p) for c, p in best.items()]
    else:
        remaining = shoe.remaining()
        kinds = len(shoe.spec.composition())
        average = shoe.cards_left / kinds if kinds and shoe.cards_left else 1.0
        scores = {c: p * (remaining[c] / average) for c, p in best.items()}
        total = sum(scores.values()) + rest
        ranked = [Weighed(c, best[c], (s / total) if total > 0 else 0.0) for c, s in scores.items()]
    return sorted(ranked, key=lambda w: (-w.weighed, -w.read, w.card.code))


def choose(candidates: Sequence[tuple[str, float]], shoe: Shoe | None, threshold: float) -> Card | None:
    """The card to record without asking the dealer, or None (ask): the best weighed candidate, when both
    its weighed belief and the reader's own confidence in it reach ``threshold``."""
    ranked = weigh(candidates, shoe)
    if not ranked:
        return None
    top = ranked[0]
    return top.card if top.weighed >= threshold and top.read >= threshold else None
