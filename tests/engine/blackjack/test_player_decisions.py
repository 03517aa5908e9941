"""Player decisions in the live round: hit, stand, double (any two / initial two, after split), one
split by value, split Aces one card each, 21 after a split is not a blackjack, auto-stand on 21."""

import pytest

from tables.engine.blackjack import live as L
from tables.engine.errors import RuleViolation

from .helpers import MINI, UNLIMITED, D, cards, deal_initial, open_round


def card(code):
    return cards(code)[0]


def one_seat(game, initial, main="10.00"):
    st = open_round(game, [L.SeatBet(1, D(main))])
    deal_initial(st, initial)
    if L.next_step(st).phase == "offers":
        L.decline(st, 1)
    return st


def test_hit_takes_a_card_and_the_hand_may_hit_again():
    st = one_seat(UNLIMITED, "2S 9C 3H 7D")
    L.hit(st, card("4C"))
    assert L.can_hit(st) and st.seats[0].hands[0].cards == cards("2S 3H 4C")


def test_bust_ends_the_hand():
    st = one_seat(UNLIMITED, "TS 9C 6H 7D")
    L.hit(st, card("9C"))
    assert L.next_step(st).phase == "settle"  # every hand decided: the dealer draws nothing


def test_double_on_any_two_cards_in_unlimited():
    st = one_seat(UNLIMITED, "TS 9C 8H 7D")  # hard 18
    assert L.can_double(st)


def test_double_takes_exactly_one_card():
    st = one_seat(UNLIMITED, "5S 6C 6H 7D")
    L.double(st, card("2C"))
    assert L.next_step(st).phase == "dealer"


def test_double_on_three_cards_is_refused_naming_the_rule():
    st = one_seat(UNLIMITED, "2S 9C 3H 7D")
    L.hit(st, card("4C"))
    with pytest.raises(RuleViolation) as err:
        L.double(st, card("5C"))
    assert err.value.rule == "blackjack.double-on-three-cards"


def test_split_same_value_ten_and_queen():
    st = one_seat(UNLIMITED, "TS 9C QH 7D")
    assert L.can_split(st)
    L.split(st)
    assert [h.cards for h in st.seats[0].hands] == [cards("TS"), cards("QH")]
    assert L.next_step(st).needs == "card"


def test_split_of_unequal_cards_is_refused_naming_the_rule():
    st = one_seat(UNLIMITED, "9S 9C TH 7D")
    with pytest.raises(RuleViolation) as err:
        L.split(st)
    assert err.value.rule == "blackjack.unequal-split"


def test_only_one_split():
    st = one_seat(UNLIMITED, "8S 9C 8H 7D")
    L.split(st)
    L.deal(st, card("8D"))  # a third eight: no resplit
    with pytest.raises(RuleViolation) as err:
        L.split(st)
    assert err.value.rule == "blackjack.too-many-splits"


def test_split_aces_take_one_card_each_and_no_more():
    st = one_seat(UNLIMITED, "AS 9C AH 7D")
    L.split(st)
    L.deal(st, card("5C"))
    assert L.next_step(st).needs == "card" and L.next_step(st).extra == {"hand": 1}
    L.deal(st, card("KD"))
    assert L.next_step(st).phase == "dealer"  # no decision on either Ace hand


def test_ace_and_ten_after_split_pays_one_to_one_not_three_to_two():
    st = one_seat(UNLIMITED, "AS 9C AH 8D")  # dealer 17
    L.split(st)
    L.deal(st, card("KC"))
    L.deal(st, card("5D"))
    L.settle(st)
    assert [(x.result, x.net) for x in L.settlement(st)] == [("win", D("10.00")), ("lose", D("-10.00"))]


def test_double_after_split_in_unlimited():
    st = one_seat(UNLIMITED, "8S 9C 8H 8D")
    L.split(st)
    L.deal(st, card("3C"))
    assert L.can_double(st)


def test_no_double_after_split_in_mini():
    st = one_seat(MINI, "8S 9C 8H 8D")
    L.split(st)
    L.deal(st, card("3C"))
    with pytest.raises(RuleViolation) as err:
        L.double(st, card("TC"))
    assert err.value.rule == "blackjack.double-after-split"


def test_mini_hand_reaching_21_stands_automatically():
    st = one_seat(MINI, "5S 9C 6H 6D")
    L.hit(st, card("TC"))
    assert L.next_step(st).phase == "dealer" and not L.can_hit(st)


def test_unlimited_hand_on_21_may_still_be_played():
    st = one_seat(UNLIMITED, "5S 9C 6H 8D")
    L.hit(st, card("TC"))
    assert L.next_step(st).phase == "play" and L.next_step(st).allowed == ("hit", "stand")


def test_player_blackjack_is_not_asked_for_a_decision():
    st = open_round(UNLIMITED, [L.SeatBet(1, D("10.00")), L.SeatBet(2, D("10.00"))])
    deal_initial(st, "AS 9C 9D KH 7D 7C")
    assert L.next_step(st).actor == "seat:2"


def test_no_decision_in_time_is_a_stand():
    st = one_seat(UNLIMITED, "TS 9C 2H 8D")
    event = L.no_decision(st)
    assert (event.action, event.forced) == ("stand", True)
    assert L.next_step(st).phase == "settle"


def test_decisions_go_seat_by_seat_then_the_dealer():
    st = open_round(UNLIMITED, [L.SeatBet(5, D("10.00")), L.SeatBet(2, D("10.00"))])
    deal_initial(st, "TS 9C 9D 2H 7D 6C")
    assert L.next_step(st).actor == "seat:2"
    L.stand(st)
    assert L.next_step(st).actor == "seat:5"
    L.stand(st)
    assert L.next_step(st).actor == "dealer"


def test_split_hands_are_played_in_order_and_named_by_hand():
    st = one_seat(UNLIMITED, "8S 9C 8H 8D")
    L.split(st)
    assert L.deal(st, card("3C")).to == "seat:1/hand:0"
    L.stand(st)
    assert L.next_step(st).actor == "seat:1/hand:1"


# Decision first, card after: the dealer taps Double (or Hit), then deals and scans the card.


def test_a_double_decided_first_waits_for_its_one_card_and_doubles_the_bet():
    st = one_seat(UNLIMITED, "5S 9C 6H TD")
    L.declare_double(st)
    step = L.next_step(st)
    assert (step.needs, step.actor, step.reason) == ("card", "seat:1", "deal the card for the double")
    assert not L.can_stand(st) and not L.can_hit(st)  # nothing else before the card
    L.deal(st, card("9D"))
    hand = st.seats[0].hands[0]
    assert hand.doubled and hand.done and hand.cards == cards("5S 6H 9D")
    assert L.next_step(st).phase == "settle"  # the dealer's 19 stands


def test_a_hit_decided_first_takes_the_next_card_and_the_hand_plays_on():
    st = one_seat(UNLIMITED, "2S 9C 3H 7D")
    L.declare_hit(st)
    assert L.next_step(st).reason == "deal the card for the hit"
    L.deal(st, card("4C"))
    assert L.can_hit(st) and st.seats[0].hands[0].cards == cards("2S 3H 4C")
    assert not st.seats[0].hands[0].doubled


def test_a_double_decided_first_is_refused_where_a_double_is():
    st = one_seat(UNLIMITED, "2S 9C 3H 7D")
    L.hit(st, card("4C"))
    with pytest.raises(RuleViolation) as err:
        L.declare_double(st)
    assert err.value.rule == "blackjack.double-on-three-cards"


def test_a_cancelled_round_refunds_a_double_decided_before_its_card():
    st = one_seat(UNLIMITED, "5S 9C 6H TD")
    L.declare_double(st)
    L.cancel(st)
    (main,) = [ln for ln in st.lines[1] if ln.bet == "main"]
    assert main.wager == D("20.00") and main.net == 0
