"""Contract Rummy live play: dealing, drawing, the out-of-turn claim, laying down, laying off, Jokers, going out."""

from __future__ import annotations

from collections import Counter

import pytest

from tables.engine import rummy
from tables.engine.cards import parse_card
from tables.engine.errors import InvalidInput, RuleViolation

from ._helpers import game, shoe_order

ANN6 = "7S 7H 7D 3H 4H JK 6H 9C TC JC QC KS"
CONTRACT6 = [["7S", "7H", "7D"], ["3H", "4H", "JK", "6H"], ["9C", "TC", "JC", "QC"]]


def _dealt(deal: int = 6, hands: dict[str, str] | None = None, upcard: str = "5C", stock: str = "8D",
           players: str = "ann bob cy", **rules: object) -> rummy.RummyState:
    s = game(players, deal=deal, **rules)
    rummy.start_deal(s, shoe_order(s, hands if hands is not None else {"ann": ANN6}, upcard, stock))
    return s


def _refused(s: rummy.RummyState, action, rule: str) -> None:
    before = s.snapshot()
    with pytest.raises(RuleViolation) as exc:
        action()
    assert exc.value.rule == rule, exc.value
    assert s == before


@pytest.mark.parametrize(("players", "size"), [(3, 105), (4, 105), (5, 158), (8, 158)])
def test_decks_and_jokers_by_player_count(players, size):
    names = [f"p{i}" for i in range(players)]
    s = rummy.new_game(None, names)
    assert s.shoe is not None and s.shoe.size == size and s.shoe.jokers == (1 if players <= 4 else 2)


def test_player_counts_outside_3_to_8_are_refused():
    with pytest.raises(InvalidInput) as exc:
        rummy.new_game(None, ["a", "b"])
    assert exc.value.field == "players"


@pytest.mark.parametrize(("deal", "cards"), [(1, 10), (4, 10), (5, 12), (7, 12)])
def test_cards_dealt_per_deal(deal, cards):
    s = _dealt(deal, {})
    assert all(len(p.hand) == cards for p in s.players)
    assert len(s.discards) == 1 and sum(s.all_cards().values()) == 105
    assert s.players[s.turn].name == "ann"  # left of the dealer (cy)


def test_a_shoe_that_is_not_the_full_shoe_is_refused():
    s = game()
    order = shoe_order(s, {}, "5C")
    with pytest.raises(InvalidInput) as exc:
        rummy.start_deal(s, order[:-1])
    assert exc.value.field == "shoe_order"


def test_player_in_turn_may_take_the_discard():
    s = _dealt()
    rummy.take_discard(s, "ann")
    assert parse_card("5C") in s.players[0].hand and s.phase == "play" and not s.discards


def test_declined_discard_passes_left_and_the_claimer_takes_a_penalty_card():
    s = _dealt(stock="8D 4S")
    rummy.decline_discard(s, "ann")
    assert rummy.next_step(s).actor == "player:bob"
    _refused(s, lambda: rummy.claim_discard(s, "cy"), "rummy.claim-out-of-order")
    rummy.pass_claim(s, "bob")
    rummy.claim_discard(s, "cy")
    cy = s.players[2].hand
    assert len(cy) == 14 and parse_card("5C") in cy and parse_card("8D") in cy  # discard + penalty card
    # cy may not meld or discard now; ann draws from the stock and cannot take the new top discard
    _refused(s, lambda: rummy.discard(s, "cy", cy[0]), "rummy.out-of-turn")
    assert rummy.next_step(s).allowed == ("draw_stock",)
    _refused(s, lambda: rummy.take_discard(s, "ann"), "rummy.no-take-discard-now")
    rummy.draw_stock(s, "ann")
    assert parse_card("4S") in s.players[0].hand


def test_the_player_who_discarded_a_card_cannot_claim_it_back_but_everyone_may_claim_the_upcard():
    # "he may decline it, and any other player may take it": the walk-through offered ann her own
    # discard ("ann may take the 4C out of turn") and a claim gave her 14 cards.
    s = _dealt(stock="8D 4S 2S")
    rummy.decline_discard(s, "ann")  # the upcard is nobody's discard: bob, then cy, may claim it
    assert [s.players[i].name for i in s.claim_queue] == ["bob", "cy"]
    rummy.pass_claim(s, "bob")
    rummy.pass_claim(s, "cy")
    rummy.draw_stock(s, "ann")
    rummy.discard(s, "ann", parse_card("QC"))
    rummy.decline_discard(s, "bob")  # ann's QC: cy alone may claim it
    assert [s.players[i].name for i in s.claim_queue] == ["cy"]
    step = rummy.next_step(s)
    assert step.actor == "player:cy" and "QC" in step.reason
    rummy.pass_claim(s, "cy")
    assert s.phase == "stock" and rummy.next_step(s).actor == "player:bob"
    _refused(s, lambda: rummy.claim_discard(s, "ann"), "rummy.no-claim-now")
    rummy.draw_stock(s, "bob")
    assert len(s.players[0].hand) == 12 and parse_card("QC") not in s.players[0].hand


def test_drawing_from_the_stock_without_declining_the_discard_is_refused():
    s = _dealt()
    _refused(s, lambda: rummy.draw_stock(s, "ann"), "rummy.decline-first")


def test_out_of_turn_draw_is_refused_and_state_unchanged():
    s = _dealt()
    _refused(s, lambda: rummy.take_discard(s, "bob"), "rummy.out-of-turn")


def _ann_draws(s: rummy.RummyState) -> None:
    rummy.decline_discard(s, "ann")
    rummy.pass_claim(s, "bob")
    rummy.pass_claim(s, "cy")
    rummy.draw_stock(s, "ann")


def test_laying_down_the_deal_6_contract_with_a_joker():
    s = _dealt()
    _ann_draws(s)
    events = rummy.lay_down(s, "ann", CONTRACT6)
    assert "JK=5H" in events[0].amount
    assert len(s.melds) == 3 and [c.code for c in s.players[0].hand] == ["KS", "8D"]
    assert sum(s.all_cards().values()) == 105


def test_a_meld_with_too_few_cards_is_refused_and_state_unchanged():
    s = _dealt()
    _ann_draws(s)
    _refused(s, lambda: rummy.lay_down(s, "ann", [["7S", "7H"], ["3H", "4H", "JK", "6H"], ["9C", "TC", "JC", "QC"]]),
             "rummy.meld-too-short")


def test_a_card_not_in_the_players_hand_is_refused_and_state_unchanged():
    s = _dealt()
    _ann_draws(s)
    _refused(s, lambda: rummy.lay_down(s, "ann", [["7S", "7H", "7C"], ["3H", "4H", "JK", "6H"], ["9C", "TC", "JC", "QC"]]),
             "rummy.card-not-in-hand")
    _refused(s, lambda: rummy.discard(s, "ann", "AD"), "rummy.card-not-in-hand")


def test_more_melds_than_the_contract_are_refused():
    s = _dealt(deal=1, hands={"ann": "7S 7H 7D KS KH KD 4S 4H 4D 9C"})
    _ann_draws(s)
    _refused(s, lambda: rummy.lay_down(s, "ann", [["7S", "7H", "7D"], ["KS", "KH", "KD"], ["4S", "4H", "4D"]]),
             "rummy.contract-melds")


def _to_next_turn_of_ann(s: rummy.RummyState, discard: str) -> None:
    """Ann discards; bob and cy each draw from the stock and discard their first card; ann draws."""
    rummy.discard(s, "ann", discard)
    while True:
        name = s.players[s.turn].name
        rummy.decline_discard(s, name)
        while s.phase == "claim":
            rummy.pass_claim(s, rummy.next_step(s).actor.split(":")[1])
        rummy.draw_stock(s, name)
        if name == "ann":
            return
        rummy.discard(s, name, s.players[s.turn].hand[0])


def test_laying_off_only_after_ones_own_contract_and_from_the_next_turn():
    s = _dealt(hands={"ann": ANN6.replace("KS", "7C"), "bob": "2H 3C"}, stock="8D 8S 9S TD")
    _ann_draws(s)
    _refused(s, lambda: rummy.lay_off(s, "ann", "7C", 0), "rummy.contract-not-met")
    rummy.lay_down(s, "ann", CONTRACT6)
    _refused(s, lambda: rummy.lay_off(s, "ann", "7C", 0), "rummy.lay-off-next-turn")
    _to_next_turn_of_ann(s, "8D")
    rummy.lay_off(s, "ann", "7C", 0)
    assert [m.code for m in s.melds[0].cards] == ["7S", "7H", "7D", "7C"]


def test_laying_off_before_meeting_the_contract_is_refused():
    s = _dealt(hands={"ann": ANN6, "bob": "6C 5S"}, stock="8D 8S")
    _ann_draws(s)
    rummy.lay_down(s, "ann", CONTRACT6)
    rummy.discard(s, "ann", "8D")
    rummy.decline_discard(s, "bob")
    rummy.pass_claim(s, "cy")  # ann discarded it: the claim ends with cy
    rummy.draw_stock(s, "bob")
    _refused(s, lambda: rummy.lay_off(s, "bob", "5S", 0), "rummy.contract-not-met")


def test_lay_off_extends_a_sequence_at_either_end_but_not_round_the_corner():
    s = _dealt(deal=3, hands={"ann": "QH KH AH JK 9C TC JC 2H 8C 5D"}, stock="QC 8S 9S TD")
    _ann_draws(s)  # QC
    rummy.lay_down(s, "ann", [["QH", "KH", "AH", "JK"], ["9C", "TC", "JC", "QC"]])
    assert s.melds[0].codes() == ["JK=JH", "QH", "KH", "AH"]
    _to_next_turn_of_ann(s, "5D")
    _refused(s, lambda: rummy.lay_off(s, "ann", "2H", 0), "rummy.round-the-corner")
    _refused(s, lambda: rummy.lay_off(s, "ann", "8C", 0), "rummy.lay-off-does-not-fit")
    rummy.lay_off(s, "ann", "8C", 1)  # the low end
    assert s.melds[1].codes() == ["8C", "9C", "TC", "JC", "QC"]


def test_trading_the_real_card_for_a_joker():
    s = _dealt(hands={"ann": ANN6.replace("KS", "5H")}, stock="8D 8S 9S TD")
    _ann_draws(s)
    rummy.lay_down(s, "ann", CONTRACT6)
    _to_next_turn_of_ann(s, "8D")
    _refused(s, lambda: rummy.trade_joker(s, "ann", 0, "5H"), "rummy.no-wild-for-card")
    rummy.trade_joker(s, "ann", 1, "5H")
    assert s.melds[1].codes() == ["3H", "4H", "5H", "6H"]
    assert parse_card("JK") in s.players[0].hand
    rummy.lay_off(s, "ann", "JK=2H", 1)
    assert s.melds[1].codes() == ["JK=2H", "3H", "4H", "5H", "6H"]


def test_going_out_by_discarding_the_last_card_ends_and_scores_the_deal():
    s = _dealt(deal=1, hands={"ann": "7S 7H 7D KS KH KD KC 7C QS 4C", "bob": "JK AS"}, stock="7S 8D 8S KS")
    _ann_draws(s)  # 7S
    rummy.lay_down(s, "ann", [["7S", "7H", "7D"], ["KS", "KH", "KD"]])
    _to_next_turn_of_ann(s, "4C")  # draws KS
    total = s.all_cards()
    for card, meld in (("KC", 1), ("7C", 0), ("7S", 0), ("KS", 1)):
        rummy.lay_off(s, "ann", card, meld)
    assert [c.code for c in s.players[0].hand] == ["QS"] and s.all_cards() == total
    bob_points = rummy.score_hand(s.players[1].hand, s.rules)
    events = rummy.discard(s, "ann", "QS")
    scored = events[-1]
    assert isinstance(scored, rummy.DealScored) and scored.out == "ann" and scored.deal == 1
    assert dict(scored.scores) == {"ann": 0, "bob": bob_points, "cy": rummy.score_hand(s.players[2].hand, s.rules)}
    assert bob_points >= 25 + 15  # bob still holds the Joker and the Ace
    assert s.phase == "ready" and s.players[s.dealer].name == "ann"  # the deal passes left (cy -> ann)
    assert rummy.next_step(s).reason.startswith("deal 2: 10 cards each, contract one sequence and one set")


def test_a_player_must_keep_a_card_to_discard():
    s = _dealt(deal=1, hands={"ann": "7S 7H 7D 7C 7S KS KH KD KC KS"}, stock="7H")
    _ann_draws(s)
    _refused(s, lambda: rummy.lay_down(s, "ann", [["7S", "7H", "7D", "7C", "7S", "7H"], ["KS", "KH", "KD", "KC", "KS"]]),
             "rummy.keep-a-discard")


def test_reshuffle_when_the_stock_is_exhausted():
    s = _dealt(deal=1, hands={})
    s.discards = s.stock[:-1] + s.discards  # test set-up: move all but one stock card to the discards
    s.stock = s.stock[-1:]
    total = Counter(s.all_cards())
    _ann_draws(s)
    rummy.discard(s, "ann", s.players[0].hand[0])
    rummy.decline_discard(s, "bob")
    _refused(s, lambda: rummy.claim_discard(s, "cy"), "rummy.claim-needs-stock")
    rummy.pass_claim(s, "cy")  # ann discarded it: the claim ends with cy
    prompt = rummy.next_step(s)
    assert prompt.needs == "reshuffle" and prompt.actor == "dealer"
    _refused(s, lambda: rummy.draw_stock(s, "bob"), "rummy.stock-empty")
    with pytest.raises(InvalidInput):
        rummy.reshuffle_discards(s, order=s.discards[:-1])
    rummy.reshuffle_discards(s, order=list(s.discards))
    assert not s.discards and s.stock
    rummy.draw_stock(s, "bob")
    assert s.all_cards() == total


def test_cumulative_scores_and_the_winner_after_seven_deals():
    s = game(deal=7)
    for p, prior in zip(s.players, ([10] * 6, [5] * 6, [12] * 6), strict=True):
        p.scores = prior  # deals 1-6: ann 60, bob 30, cy 72
    rummy.start_deal(s, shoe_order(s, {"ann": "3H 4H 5H 6H 9C TC JC QC AS 2S 3S 4S", "bob": "KD"}, "5C", "8D"))
    _ann_draws(s)
    rummy.lay_down(s, "ann", [["3H", "4H", "5H", "6H"], ["9C", "TC", "JC", "QC"], ["AS", "2S", "3S", "4S"]])
    events = rummy.discard(s, "ann", "8D")  # goes out in one turn
    scored = events[-1]
    assert isinstance(scored, rummy.DealScored) and scored.deal == 7 and scored.out == "ann"
    totals = {p.name: p.total for p in s.players}
    assert totals["ann"] == 60 and totals["bob"] == 30 + dict(scored.scores)["bob"]
    assert s.phase == "over" and s.winners == [min(totals, key=lambda n: totals[n])]
    assert rummy.next_step(s).phase == "over" and not rummy.can_start_deal(s, [])


def test_penalty_cards_for_an_out_of_turn_claim_are_a_rule_set_option():
    s = _dealt(stock="8D 4S", out_of_turn_penalty_cards=2)
    rummy.decline_discard(s, "ann")
    rummy.claim_discard(s, "bob")
    assert len(s.players[1].hand) == 12 + 1 + 2
