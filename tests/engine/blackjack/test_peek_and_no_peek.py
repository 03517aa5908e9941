"""Dealer blackjack: no peek (Unlimited) takes doubled and split bets too; peek (Mini) ends the round
before any decision and only the original bet is lost."""

from tables.engine import verify_round
from tables.engine.blackjack import live as L

from .helpers import MINI, UNLIMITED, D, cards, deal_initial, hand, one, open_round, request, rules_ids, seat


def test_no_peek_dealer_blackjack_takes_the_doubled_bet():
    ans = verify_round(request(UNLIMITED, "AH KC", seat(1, "10.00", [hand("6S 5H TD", doubled=True)])))
    line = one(ans)
    assert (line["wager"], line["result"], line["net"]) == ("20.00", "lose", "-20.00")
    assert ans["violations"] == []


def test_no_peek_dealer_blackjack_takes_both_split_hands():
    ans = verify_round(request(UNLIMITED, "KC AH", seat(1, "10.00", [hand("8S 3D QC"), hand("8H 9C")])))
    assert [line["net"] for line in ans["seats"][0]["lines"]] == ["-10.00", "-10.00"]


def test_player_blackjack_against_dealer_blackjack_pushes():
    ans = verify_round(request(UNLIMITED, "AH KC", seat(1, "10.00", [hand("AS TD")])))
    assert (one(ans)["result"], one(ans)["net"]) == ("push", "0.00")


def test_peek_dealer_blackjack_loses_only_the_original_bet_when_hands_were_played():
    ans = verify_round(request(MINI, "AH KC", seat(1, "10.00", [hand("6S 5H TD", doubled=True)])))
    assert (one(ans)["result"], one(ans)["net"]) == ("lose", "-10.00")
    assert "blackjack.played-after-dealer-blackjack" in rules_ids(ans)


def test_peek_dealer_blackjack_two_card_hand_loses_main_without_violation():
    ans = verify_round(request(MINI, "TC AH", seat(1, "10.00", [hand("9S 9H")])))
    assert one(ans)["net"] == "-10.00" and ans["violations"] == []


def test_live_peek_with_ten_up_and_blackjack_ends_the_round_before_decisions():
    st = open_round(MINI, [L.SeatBet(2, D("10.00"))])
    deal_initial(st, "9S TC 9H AD")
    assert L.next_step(st).needs == "settle" and not L.can_hit(st)
    L.settle(st)
    assert [(x.result, x.net) for x in L.settlement(st)] == [("lose", D("-10.00"))]


def test_live_peek_with_ace_up_offers_insurance_first_then_ends_on_blackjack():
    st = open_round(MINI, [L.SeatBet(2, D("10.00"))])
    deal_initial(st, "9S AC 9H KD")
    assert L.next_step(st).phase == "offers"
    L.insure(st, 2)
    assert L.next_step(st).needs == "settle"
    L.settle(st)
    assert {x.bet: x.net for x in L.settlement(st)} == {"main": D("-10.00"), "insurance": D("10.00")}


def test_live_no_peek_play_continues_over_a_dealer_blackjack():
    st = open_round(UNLIMITED, [L.SeatBet(1, D("10.00"))])
    deal_initial(st, "6S KC 5H AD")
    assert L.next_step(st).phase == "play" and L.can_double(st)
    L.double(st, cards("TD")[0])
    assert L.next_step(st).needs == "settle"  # the dealer's 21 stands
    L.settle(st)
    assert [(x.wager, x.net) for x in L.settlement(st)] == [(D("20.00"), D("-20.00"))]


def test_live_no_peek_ace_up_without_blackjack_plays_on():
    st = open_round(UNLIMITED, [L.SeatBet(1, D("10.00"))])
    deal_initial(st, "TS AC 9H 7D")
    L.decline(st, 1)
    assert L.next_step(st).phase == "play"
