"""Insurance (exactly half the main bet, 2:1) and surrender (half back), offered only when the dealer
shows an Ace and before any other decision; no decision in time means no insurance."""

import pytest

from tables.engine import verify_round
from tables.engine.blackjack import live as L
from tables.engine.errors import RuleViolation

from .helpers import MINI, UNLIMITED, D, cards, deal_initial, hand, one, open_round, request, rules_ids, seat


def test_insurance_pays_2_to_1_on_a_dealer_blackjack():
    ans = verify_round(request(UNLIMITED, "AH KC", seat(1, "10.00", [hand("9S 9D")], wagers={"insurance": "5.00"})))
    assert (one(ans, "insurance")["net"], one(ans)["net"]) == ("10.00", "-10.00")
    assert ans["violations"] == []


def test_insurance_is_lost_without_a_dealer_blackjack():
    ans = verify_round(request(UNLIMITED, "AH 7C", seat(1, "10.00", [hand("9S 9D")], wagers={"insurance": "5.00"})))
    assert one(ans, "insurance")["net"] == "-5.00"


def test_insurance_that_is_not_half_the_main_bet():
    ans = verify_round(request(UNLIMITED, "AH 7C", seat(1, "10.00", [hand("9S 9D")], wagers={"insurance": "4.00"})))
    assert rules_ids(ans) == ["blackjack.insurance-not-half"]


def test_insurance_without_an_ace_up():
    ans = verify_round(request(UNLIMITED, "KH 7C", seat(1, "10.00", [hand("9S 9D")], wagers={"insurance": "5.00"})))
    assert rules_ids(ans) == ["blackjack.insurance-not-offered"]


def test_insurance_on_a_blackjack_is_not_offered():
    ans = verify_round(request(UNLIMITED, "AH 7C", seat(1, "10.00", [hand("AS KD")], wagers={"insurance": "5.00"})))
    assert rules_ids(ans) == ["blackjack.insurance-with-blackjack"]


def test_surrender_gives_half_the_bet_back():
    ans = verify_round(request(UNLIMITED, "AH 7C", seat(1, "10.00", [hand("TS 6D", surrendered=True)])))
    assert (one(ans)["result"], one(ans)["net"]) == ("surrender", "-5.00") and ans["violations"] == []


def test_surrender_is_honoured_against_a_later_dealer_blackjack():
    ans = verify_round(request(UNLIMITED, "AH KC", seat(1, "10.00", [hand("TS 6D", surrendered=True)])))
    assert one(ans)["net"] == "-5.00"


def test_surrender_without_an_ace_up():
    ans = verify_round(request(UNLIMITED, "KH 7C", seat(1, "10.00", [hand("TS 6D", surrendered=True)])))
    assert rules_ids(ans) == ["blackjack.surrender-not-offered"]


def test_surrender_after_another_decision():
    ans = verify_round(request(UNLIMITED, "AH 7C", seat(1, "10.00", [hand("TS 2D 3C", surrendered=True)])))
    assert rules_ids(ans) == ["blackjack.surrender-after-decision"]


def test_mini_has_no_surrender():
    ans = verify_round(request(MINI, "AH 7C", seat(1, "10.00", [hand("TS 6D", surrendered=True)])))
    assert rules_ids(ans) == ["blackjack.surrender-not-offered"]


def test_insurance_and_surrender_are_alternatives():
    ans = verify_round(request(UNLIMITED, "AH 7C", seat(1, "10.00", [hand("TS 6D", surrendered=True)],
                                                        wagers={"insurance": "5.00"})))
    assert rules_ids(ans) == ["blackjack.insurance-and-surrender"]


def _ace_up(game=UNLIMITED, main="10.00"):
    st = open_round(game, [L.SeatBet(1, D(main))])
    deal_initial(st, "TS AC 6D 7D")
    return st


def test_live_offer_comes_before_any_other_decision():
    st = _ace_up()
    prompt = L.next_step(st)
    assert (prompt.phase, prompt.allowed) == ("offers", ("insurance", "surrender", "decline"))
    assert not L.can_hit(st) and not L.can_stand(st)


def test_live_insurance_is_exactly_half_the_main_bet_rounded_down():
    st = _ace_up(main="5.01")
    assert L.insure(st, 1).amount == "2.50"


def test_live_no_offer_without_an_ace_up():
    st = open_round(UNLIMITED, [L.SeatBet(1, D("10.00"))])
    deal_initial(st, "TS KC 6D 7D")
    with pytest.raises(RuleViolation) as err:
        L.insure(st, 1)
    assert err.value.rule == "blackjack.no-offer"
    assert not L.can_surrender(st, 1)


def test_live_no_surrender_once_play_began():
    st = _ace_up()
    L.decline(st, 1)
    assert not L.can_surrender(st, 1) and not L.can_insure(st, 1)


def test_live_surrender_ends_the_hand_with_half_back():
    st = _ace_up()
    L.surrender(st, 1)
    assert L.next_step(st).needs == "settle"
    L.settle(st)
    assert [(x.result, x.net) for x in L.settlement(st)] == [("surrender", D("-5.00"))]


def test_live_no_decision_in_time_means_no_insurance_then_stand():
    st = _ace_up()
    assert L.no_decision(st).action == "decline"
    assert L.no_decision(st).action == "stand"
    assert st.seats[0].insurance is None


def test_live_mini_offers_insurance_but_not_surrender():
    st = _ace_up(MINI)
    assert L.next_step(st).allowed == ("insurance", "decline")
    with pytest.raises(RuleViolation) as err:
        L.surrender(st, 1)
    assert err.value.rule == "blackjack.surrender-not-offered"


def test_live_blackjack_hand_is_not_offered_insurance():
    st = open_round(UNLIMITED, [L.SeatBet(1, D("10.00")), L.SeatBet(2, D("10.00"))])
    deal_initial(st, "AS 9C AC KH 7D 6D")
    assert L.next_step(st).actor == "seat:2"
    with pytest.raises(RuleViolation) as err:
        L.insure(st, 1)
    assert err.value.rule == "blackjack.insurance-with-blackjack"
    assert cards("AS KH") == st.seats[0].hands[0].cards
