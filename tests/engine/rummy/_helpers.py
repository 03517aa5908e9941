"""Arrange a Contract Rummy deal: a shoe order that gives each player the hand a test needs."""

from __future__ import annotations

from collections import Counter

from tables.engine import rummy
from tables.engine.cards import Card, parse_cards
from tables.engine.rulesets import ContractRummyRules


def shoe_order(state: rummy.RummyState, hands: dict[str, str], upcard: str, stock: str = "") -> list[Card]:
    """The full shoe, top first, so that the next deal gives ``hands`` (padded), ``upcard`` and then ``stock``."""
    assert state.shoe is not None
    rest = state.shoe.composition()
    n = len(state.players)
    cards = state.rules.deals[state.deal_index + 1]["cards"]
    wanted = {name: parse_cards(codes) for name, codes in hands.items()}
    up, top = parse_cards(upcard), parse_cards(stock)
    rest.subtract(Counter([c for h in wanted.values() for c in h] + up + top))
    assert all(v >= 0 for v in rest.values()), "a card is used more often than the shoe holds"
    filler = sorted(rest.elements(), key=lambda c: (c.is_joker, c.rank or 0, c.suit or ""))
    # Pad the hands from the low cards that the test does not care about.
    for p in state.players:
        hand = wanted.setdefault(p.name, [])
        while len(hand) < cards:
            hand.append(filler.pop())
    order: list[Card] = []
    for r in range(cards):
        for k in range(1, n + 1):
            order.append(wanted[state.players[(state.dealer + k) % n].name][r])
    return order + up + top + filler


def game(players: str = "ann bob cy", *, dealer: str = "cy", deal: int = 1, **rules: object) -> rummy.RummyState:
    """A new game whose next deal is number ``deal`` (earlier deals skipped, scored 0)."""
    state = rummy.new_game(ContractRummyRules(**rules), players.split(), dealer=dealer)  # type: ignore[arg-type]
    state.deal_index = deal - 2
    for p in state.players:
        p.scores = [0] * (deal - 1)
    return state
