"""Contract Rummy invariants under random play: every card is accounted for, refusals change nothing."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine import rummy
from tables.engine.errors import RuleViolation
from tables.engine.rulesets import ContractRummyRules


def _step(s: rummy.RummyState, rng: random.Random) -> None:  # noqa: C901  (complexity ratchet: existing, to be split)
    """One legal action chosen by a simple bot (melds whenever it can, lays off what fits)."""
    prompt = rummy.next_step(s)
    if prompt.needs == "start_deal":
        rummy.start_deal(s, rng=rng)
        return
    if prompt.needs == "reshuffle":
        rummy.reshuffle_discards(s, rng=rng)
        return
    name = prompt.actor.split(":", 1)[1] if prompt.actor else ""
    if s.phase == "draw":
        (rummy.take_discard if rng.random() < 0.3 else rummy.decline_discard)(s, name)
    elif s.phase == "claim":
        if rng.random() < 0.15 and rummy.can_claim_discard(s, name):
            rummy.claim_discard(s, name)
        else:
            rummy.pass_claim(s, name)
    elif s.phase == "stock":
        rummy.draw_stock(s, name)
    else:
        p = s.players[s.turn]
        if p.met_turn is None:
            melds = rummy.find_contract(p.hand, s.deal_number, s.rules)
            if melds is not None:
                rummy.lay_down(s, name, [m.codes() for m in melds])
        elif p.met_turn < s.turn_number:
            for meld in range(len(s.melds)):
                for card in list(p.hand):
                    if card in p.hand and len(p.hand) > 1 and rummy.can_lay_off(s, name, card.code, meld):
                        rummy.lay_off(s, name, card.code, meld)
            for meld, m in enumerate(s.melds):
                for mc in m.cards:
                    if mc.card != mc.as_card and mc.as_card in p.hand and rummy.can_trade_joker(s, name, meld, mc.as_card.code):
                        rummy.trade_joker(s, name, meld, mc.as_card.code)
                        break
        rummy.discard(s, name, rng.choice(p.hand).code)


def _try_out_of_turn(s: rummy.RummyState, rng: random.Random) -> None:
    if s.phase in ("ready", "over"):
        return
    before = s.snapshot()
    other = rng.choice([p for i, p in enumerate(s.players) if i != s.turn])
    for attempt in (lambda: rummy.discard(s, other.name, other.hand[0].code),
                    lambda: rummy.take_discard(s, other.name),
                    lambda: rummy.lay_down(s, other.name, [[c.code for c in other.hand[:3]]]),
                    lambda: rummy.lay_off(s, other.name, other.hand[0].code, 0)):
        try:
            attempt()
        except RuleViolation as exc:
            assert exc.rule in ("rummy.out-of-turn",)
        else:  # pragma: no cover - would be a bug
            raise AssertionError(f"{other.name} acted out of turn")
        assert s == before


@settings(max_examples=12, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**32 - 1), deuces=st.booleans(), five=st.booleans())
def test_every_card_is_accounted_for_at_every_step(players, seed, deuces, five):
    rng = random.Random(seed)
    rules = ContractRummyRules(deuces_wild=deuces, numbers_score_five=five)
    s = rummy.new_game(rules, [f"p{i}" for i in range(players)])
    assert s.shoe is not None
    full = s.shoe.composition()
    for step in range(700):
        if s.phase == "over":
            break
        _step(s, rng)
        if s.phase not in ("ready", "over"):
            assert s.all_cards() == full
            assert all(len(p.hand) > 0 for p in s.players)
        if step % 25 == 0:
            _try_out_of_turn(s, rng)
    # scores: one per finished deal each, and the deal winner (if any) scored 0
    deals = len(s.players[0].scores)
    assert all(len(p.scores) == deals for p in s.players)
