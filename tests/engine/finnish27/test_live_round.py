"""The live round: deal order, what comes next and why, the verify/can/do triples, refusals naming
the rule, and replay from events."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tables.engine.cards import parse_card
from tables.engine.errors import InvalidInput, RuleViolation
from tables.engine.finnish27 import (
    can_deal,
    can_hit,
    can_settle,
    can_stand,
    deal,
    hit,
    new_round,
    next_step,
    replay,
    settle_round,
    stand,
    verify_deal,
    verify_hit,
    verify_settle,
    verify_stand,
)
from tables.engine.finnish27.live import Finnish27Round
from tables.engine.round import CardDealt, DecisionMade, RoundSettled
from tables.engine.rulesets import Finnish27Rules
from tables.engine.shoe import Shoe


def dealt(player: str, dealer: str, **kw: object) -> Finnish27Round:
    """A round after the initial deal (player, dealer, player, dealer)."""
    s = new_round("10.00", "5.00", **kw)  # type: ignore[arg-type]
    p, d = player.split(), dealer.split()
    for code in (p[0], d[0], p[1], d[1]):
        deal(s, code)
    return s


def refused(rule: str, action, *args) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleViolation) as err:
        action(*args)
    assert err.value.rule == rule


def test_the_deal_goes_player_dealer_player_dealer() -> None:
    s = new_round("10.00", "5.00")
    order = []
    for code in ("9S", "KD", "9H", "7C"):
        order.append(next_step(s).actor)
        event = deal(s, code)
        assert isinstance(event, CardDealt)
    assert order == ["player", "dealer", "player", "dealer"]
    assert [c.code for c in s.player] == ["9S", "9H"] and [c.code for c in s.dealer] == ["KD", "7C"]


def test_a_card_to_the_wrong_hand_during_the_deal_is_out_of_turn() -> None:
    s = new_round("10.00", "5.00")
    refused("finnish27.out-of-turn", verify_deal, s, "9S", "dealer")
    assert not can_deal(s, "9S", "dealer") and can_deal(s, "9S", "player")


def test_the_prompt_says_the_forced_hit_and_why() -> None:
    s = dealt("AS 9D", "KS KD")
    p = next_step(s)
    assert (p.phase, p.actor, p.needs, p.forced, p.allowed) == ("player", "player", "decision", "hit", ("hit",))
    assert p.reason.startswith("player must hit: soft 23 against dealer hard 26")


def test_a_free_choice_allows_both() -> None:
    p = next_step(dealt("KS 9D", "KS 7D"))
    assert p.forced is None and p.allowed == ("hit", "stand")
    assert p.reason == "player chooses hit or stand: hard 22 against dealer hard 20"


def test_standing_where_a_hit_is_forced_is_refused() -> None:
    s = dealt("AS 9D", "KS KD")
    refused("finnish27.player-forced-hit", verify_stand, s)
    assert not can_stand(s) and can_hit(s)


def test_hitting_where_standing_is_forced_is_refused() -> None:
    s = dealt("KS QD", "KS 7D")  # hard 25 against a dealer below 24
    refused("finnish27.player-forced-stand", verify_hit, s)
    assert not can_hit(s)


def test_a_card_before_the_players_decision_is_refused() -> None:
    s = dealt("KS 9D", "KS 7D")
    refused("finnish27.decision-pending", verify_deal, s, "2C")


def test_the_dealer_cannot_act_in_the_players_turn() -> None:
    s = dealt("KS 9D", "KS 7D")
    refused("finnish27.out-of-turn", verify_hit, s, "dealer")


def test_a_hit_is_followed_by_a_card_to_the_player() -> None:
    s = dealt("KS 5D", "KS 7D")
    event = hit(s)
    assert event == DecisionMade("player", "hit", forced=True)
    assert next_step(s).needs == "card"
    refused("finnish27.out-of-turn", verify_hit, s)  # the card comes first
    refused("finnish27.out-of-turn", verify_deal, s, "2C", "dealer")
    deal(s, "2C")
    assert next_step(s).needs == "decision"


def test_the_dealer_then_draws_by_the_rule() -> None:
    s = dealt("KS 9D", "KS 7D")
    stand(s)  # free choice on hard 22
    p = next_step(s)
    assert (p.actor, p.forced, p.reason) == ("dealer", "hit", "dealer must hit: hard 20 (below hard 24)")
    refused("finnish27.dealer-stood-below-24", verify_stand, s, "dealer")
    hit(s, "dealer")
    deal(s, "5C")
    p = next_step(s)
    assert (p.forced, p.reason) == ("stand", "dealer must stand: hard 25 (hard 24 or more)")
    refused("finnish27.dealer-hit-on-24-or-more", verify_hit, s, "dealer")
    stand(s, "dealer")
    assert next_step(s).needs == "settle" and can_settle(s)
    event = settle_round(s)
    assert isinstance(event, RoundSettled) and event.lines[0]["net"] == "-10.00"
    assert next_step(s).phase == "settled" and next_step(s).actor is None


def test_a_soft_dealer_hand_has_its_own_rule_ids() -> None:
    s = dealt("KS 9D", "AS 9C")  # dealer soft 24: must hit
    stand(s)
    refused("finnish27.dealer-stood-below-soft-25", verify_stand, s, "dealer")


def test_after_a_player_27_the_dealer_draws_nothing() -> None:
    s = dealt("9S 9H", "9C 9D")
    hit(s)
    deal(s, "9D")
    stand(s)  # forced on 27
    assert next_step(s).needs == "settle"
    refused("finnish27.dealer-drew-after-decided", verify_deal, s, "5C", "dealer")
    refused("finnish27.dealer-drew-after-decided", verify_hit, s, "dealer")
    settle_round(s)
    assert s.settlement is not None and s.settlement.total_net == Decimal("5005.00")  # 10 + 999 x 5


def test_an_initial_27_ends_the_round_at_once() -> None:
    s = dealt("AS KD", "9C 9D")
    p = next_step(s)
    assert p.needs == "settle" and "Finnish 27" in p.reason
    refused("finnish27.player-drew-after-decided", verify_hit, s, "player")
    refused("finnish27.player-drew-after-decided", verify_deal, s, "2C", "player")
    settle_round(s)
    assert s.settlement is not None and [line.net for line in s.settlement.lines] == [Decimal("10.00"), Decimal("5.00")]


def test_an_impossible_card_is_refused_with_its_rule() -> None:
    shoe = Shoe.from_dealt(Finnish27Rules().shoe, [parse_card("QH")] * 6)
    s = new_round("10.00", "5.00", shoe=shoe)
    refused("finnish27.impossible-card", verify_deal, s, "QH")
    assert not can_deal(s, "QH")


def test_a_card_the_round_already_used_up_is_refused() -> None:
    s = new_round("10.00", "5.00")
    for _ in range(6):
        s.shoe.deal(parse_card("2C"))  # type: ignore[union-attr]
    refused("finnish27.impossible-card", verify_deal, s, "2C")


def test_settling_early_or_twice_is_refused() -> None:
    s = dealt("KS 9D", "KS 7D")
    refused("finnish27.not-ready-to-settle", verify_settle, s)
    s = dealt("AS KD", "KS 7D")
    settle_round(s)
    refused("finnish27.round-complete", verify_settle, s)
    refused("finnish27.round-complete", verify_stand, s)


def test_bad_input_is_an_error_not_a_rule() -> None:
    with pytest.raises(InvalidInput):
        new_round("-5", "5.00")
    with pytest.raises(InvalidInput):
        new_round("ten", "5.00")
    s = new_round("10", "5")
    with pytest.raises(InvalidInput):
        deal(s, "ZZ")
    with pytest.raises(InvalidInput):
        verify_hit(s, "croupier")


def test_replaying_the_events_gives_the_same_round() -> None:
    s = dealt("KS 5D", "KS 7D")
    hit(s)
    deal(s, "8C")
    stand(s)
    hit(s, "dealer")
    deal(s, "JK")
    hit(s, "dealer")
    deal(s, "2H")
    hit(s, "dealer")  # 22: the Joker counted 0
    deal(s, "3H")
    stand(s, "dealer")
    settle_round(s)
    again = replay(s.events, new_round("10.00", "5.00"))
    assert again.settlement == s.settlement and again.events == s.events
