"""Invariants over random rounds (Hypothesis): money is conserved, a live round replayed through
verification gives the same settlement, the dealer's hand is always completed by the drawing rule,
and the fast simulator settles exactly like the live round."""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine import verify_round
from tables.engine.blackjack import dealer_must_hit, is_blackjack
from tables.engine.blackjack import live as L
from tables.engine.blackjack.outcome import hand_is_live
from tables.engine.blackjack.simulate import play_round
from tables.engine.rulesets import BlackjackRules

from .helpers import MINI, UNLIMITED, rules_of

D = Decimal
AMOUNTS = [D("5.00"), D("10.00"), D("25.00"), D("5.01"), D("7.33")]


@st.composite
def round_setups(draw):
    game = draw(st.sampled_from([UNLIMITED, MINI]))
    rules = rules_of(game)
    if game == UNLIMITED:
        rules = replace(rules, dealer_hits_soft_17=draw(st.booleans()), dealer_peeks=draw(st.booleans()),
                        double_after_split=draw(st.booleans()), auto_stand_21=draw(st.booleans()))
    seed = draw(st.integers(0, 2**32 - 1))
    return game, rules, seed


def _bets(game: str, rules: BlackjackRules, rng: random.Random):
    seats = rng.sample(range(1, rules.seats + 1), 1 if rules.single_player else rng.randint(1, rules.seats))
    side = game == UNLIMITED
    bets = [L.SeatBet(s, rng.choice(AMOUNTS), player=f"p{s}",
                      perfect_pairs=rng.choice(AMOUNTS) if side and rng.random() < 0.5 else None,
                      twenty_one_plus_three=rng.choice(AMOUNTS) if side and rng.random() < 0.5 else None)
            for s in seats]
    behind = []
    if rules.bet_behind:
        for _ in range(rng.randint(0, 5)):
            behind.append(L.BehindBet(rng.randint(1, rules.seats), rng.choice(AMOUNTS), player="outsider",
                                      double_along=rng.random() < 0.5, follow_split=rng.choice(["both", "first"])))
    return bets, behind


def _offer_actor(actor: str) -> tuple[int, int | None]:
    parts = actor.split("/")
    return int(parts[0].split(":")[1]), (int(parts[1].split(":")[1]) if len(parts) > 1 else None)


def play_random(game, rules, seed, *, use_hints=False, cancel_at=None):
    """A live round with random (or hinted) decisions from a shuffled shoe; returns state and cards."""
    rng = random.Random(seed)
    shoe_cards = rules.shoe.shuffled(rng)
    bets, behind = _bets(game, rules, rng)
    state = L.start_round(game, bets, behind, table_minimum=D("5.00"), rules=rules)
    it = iter(shoe_cards)
    steps = 0
    while True:
        steps += 1
        if cancel_at is not None and steps == cancel_at:
            L.cancel(state)
            return state, shoe_cards
        p = L.next_step(state)
        if p.needs == "card":
            L.deal(state, next(it))
        elif p.needs == "decision":
            act = L.hint(state) if use_hints else rng.choice(p.allowed)
            if p.phase == "offers":
                seat, b = _offer_actor(p.actor)
                if act == "insurance":
                    L.insure(state, seat, b)
                elif act == "surrender":
                    L.surrender(state, seat)
                elif use_hints:
                    L.no_decision(state)
                else:
                    L.decline(state, seat, b)
            elif act == "hit":
                L.hit(state, next(it))
            elif act == "double":
                L.double(state, next(it))
            elif act == "split":
                L.split(state)
            else:
                L.stand(state)
        else:
            L.settle(state)
            return state, shoe_cards


@settings(max_examples=150, deadline=None)
@given(round_setups())
def test_live_round_replayed_through_verification_settles_the_same(setup):
    state, _ = play_random(*setup)
    answer = verify_round(L.to_request(state))
    assert answer["violations"] == []
    verified = [line for s in sorted(answer["seats"], key=lambda s: s["seat"]) for line in s["lines"]]
    assert verified == [line.as_json() for line in L.settlement(state)]
    for s in answer["seats"]:
        assert D(s["total_net"]) == sum(D(x["net"]) for x in s["lines"])


def _staked_by_events(state) -> dict[tuple[int, str], Decimal]:
    """What each seat put on the table, from the bets and the decision events (not from settlement)."""
    staked: dict[tuple[int, str], Decimal] = {}
    for s in state.seats:
        staked[(s.number, "main")] = s.bet.main
    for e in state.events:
        if isinstance(e, L.DecisionMade) and e.amount is not None and "/behind" not in e.actor:
            number = int(e.actor.split("/")[0].split(":")[1])
            kind = {"double": "main", "split": "main", "insurance": "insurance"}.get(e.action)
            if kind:
                staked[(number, kind)] = staked.get((number, kind), D(0)) + D(e.amount)
    return staked


@settings(max_examples=150, deadline=None)
@given(round_setups())
def test_money_is_conserved(setup):
    state, _ = play_random(*setup)
    lines = {n: ls for n, ls in state.lines.items()}
    staked = _staked_by_events(state)
    for (number, kind), amount in staked.items():
        assert sum(x.wager for x in lines[number] if x.bet == kind) == amount
    for ls in lines.values():
        for x in ls:
            assert x.net >= -x.wager  # nobody loses more than the stake
            if x.result in ("push", "refund"):
                assert x.net == 0
            if x.result == "surrender":
                assert -x.net == x.wager - (x.wager * 100 // 2) / 100


@settings(max_examples=100, deadline=None)
@given(round_setups(), st.integers(1, 30))
def test_cancelled_round_refunds_exactly_what_was_staked(setup, cancel_at):
    state, _ = play_random(*setup, cancel_at=cancel_at)
    if state.phase != "cancelled":
        return  # the round settled before the cancel point
    staked = _staked_by_events(state)
    for (number, kind), amount in staked.items():
        assert sum(x.wager for x in state.lines[number] if x.bet == kind) == amount
    assert all(x.net == 0 and x.result == "refund" for x in L.settlement(state))


@settings(max_examples=150, deadline=None)
@given(round_setups())
def test_dealer_hand_is_always_completed_by_the_drawing_rule(setup):
    state, _ = play_random(*setup)
    dealer = state.dealer
    waiting = any(hand_is_live(h, len(s.hands) > 1) for s in state.seats for h in s.hands)
    peeked = state.rules.dealer_peeks and is_blackjack(dealer[:2])  # the peek ended the round
    if waiting and not peeked:
        assert not dealer_must_hit(dealer, state.rules)
        assert all(dealer_must_hit(dealer[:k], state.rules) for k in range(2, len(dealer)))
    else:
        assert len(dealer) == 2


@settings(max_examples=150, deadline=None)
@given(round_setups())
def test_fast_simulator_settles_like_the_live_round(setup):
    game, rules, seed = setup
    state, shoe_cards = play_random(game, rules, seed, use_hints=True)
    bets = [s.bet for s in state.seats]
    behind = [b for s in state.seats for b in s.behind]
    dealer, plays, lines = play_round(rules, state.pay_table, state.table_minimum, bets, iter(shoe_cards), behind)
    assert dealer == state.dealer
    assert [x.as_json() for ls in lines for x in ls] == \
        [x.as_json() for s in state.seats for x in state.lines[s.number]]
