"""The claim prompt offers only what the engine accepts: no claim while the stock cannot give the penalty.

Found by the pot-games property test over HTTP (tests/tables/api/test_pot_games_property.py): once the stock
was empty, a player declining the discard opened a claim whose prompt still listed ``claim_discard``,
and claiming was refused with ``rummy.claim-needs-stock``.
"""

from __future__ import annotations

from tables.engine import rummy
from tables.engine.rulesets import ContractRummyRules


def test_no_claim_is_offered_when_the_stock_cannot_give_the_penalty_card() -> None:
    rules = ContractRummyRules()
    state = rummy.new_game(rules, ["Ann", "Bob", "Cy"], dealer="Cy")
    order = sorted(rules.shoe_for(3).composition().elements(), key=lambda c: c.code)
    rummy.start_deal(state, order)
    seen_empty_claim = False
    for _ in range(2000):
        prompt = rummy.next_step(state)
        player = (prompt.actor or "").removeprefix("player:")
        if prompt.phase == "claim":
            if not state.stock:
                seen_empty_claim = True
                assert "claim_discard" not in prompt.allowed, prompt
                assert rummy.can_pass_claim(state, player)
                break
            rummy.pass_claim(state, player)
        elif prompt.phase == "draw":
            rummy.decline_discard(state, player)
        elif prompt.phase == "stock":
            rummy.draw_stock(state, player)
        else:  # play: throw back the card just drawn, so nobody goes out
            assert prompt.phase == "play", prompt
            drawn = state.players[state.turn].hand[-1]
            rummy.discard(state, player, drawn.code)
    assert seen_empty_claim
