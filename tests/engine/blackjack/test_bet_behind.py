"""Bets behind (Unlimited Blackjack 'BET BEHIND'): they follow the seated player's decisions with the
bettor's presets, surrender with the seat, are offered insurance on their own, are refunded when the
seat does not play; nobody bets behind their own seat and a seat may refuse them."""

import pytest

from tables.engine import verify_round
from tables.engine.blackjack import live as L
from tables.engine.errors import RuleViolation

from .helpers import (
    MINI,
    UNLIMITED,
    D,
    cards,
    deal_initial,
    hand,
    lines_of,
    one,
    open_round,
    request,
    rules_ids,
    seat,
)

SPLIT = [hand("8S 3D QC"), hand("8H 9C")]  # 21 and 17 against a dealer bust


def behind(main="5.00", **kw):
    return {"wagers": {"main": main, **kw.pop("wagers", {})}, **kw}


def behind_lines(ans):
    return [(x.get("hand"), x["wager"], x["result"], x["net"]) for x in lines_of(ans) if x["bet"] == "behind"]


def test_bet_behind_follows_a_split_on_both_hands():
    ans = verify_round(request(UNLIMITED, "6H TC 9S", seat(3, "10.00", SPLIT, behind=[behind(follow_split="both")])))
    assert behind_lines(ans) == [(0, "5.00", "win", "5.00"), (1, "5.00", "win", "5.00")]


def test_bet_behind_follows_only_the_first_split_hand():
    ans = verify_round(request(UNLIMITED, "6H TC 9S", seat(3, "10.00", SPLIT, behind=[behind(follow_split="first")])))
    assert behind_lines(ans) == [(0, "5.00", "win", "5.00")]


def test_first_hand_preset_keeps_the_first_hand_even_when_it_loses():
    hands = [hand("8S 5D 9C"), hand("8H TC")]  # 22 bust, 18
    ans = verify_round(request(UNLIMITED, "9H 8C", seat(3, "10.00", hands, behind=[behind(follow_split="first")])))
    assert behind_lines(ans) == [(0, "5.00", "lose", "-5.00")]


def test_bet_behind_doubles_along_when_preset():
    ans = verify_round(request(UNLIMITED, "9H 8C", seat(1, "10.00", [hand("5S 6D 9C", doubled=True)],
                                                        behind=[behind(double_along=True)])))
    assert behind_lines(ans) == [(None, "10.00", "win", "10.00")]


def test_bet_behind_does_not_double_without_the_preset():
    ans = verify_round(request(UNLIMITED, "9H 8C", seat(1, "10.00", [hand("5S 6D 9C", doubled=True)],
                                                        behind=[behind(double_along=False)])))
    assert behind_lines(ans) == [(None, "5.00", "win", "5.00")]


def test_seat_surrender_surrenders_the_bets_behind():
    ans = verify_round(request(UNLIMITED, "AH 7C", seat(1, "10.00", [hand("TS 6D", surrendered=True)],
                                                        behind=[behind("4.00")])))
    assert behind_lines(ans) == [(None, "4.00", "surrender", "-2.00")]


def test_insurance_behind_is_the_bettors_own():
    ans = verify_round(request(UNLIMITED, "AH KC", seat(1, "10.00", [hand("9S 9D")],
                                                        behind=[behind(wagers={"insurance": "2.50"}), behind()])))
    ins = [x for x in lines_of(ans) if x["bet"] == "behind-insurance"]
    assert [(x["behind"], x["net"]) for x in ins] == [(0, "5.00")]
    assert ans["violations"] == []


def test_bet_behind_an_empty_seat_is_refunded():
    ans = verify_round(request(UNLIMITED, "9H 8C", seat(1, "10.00", [hand("TS 9D")]),
                               seat(4, None, [], behind=[behind("25.00")])))
    line = one(ans, "behind")
    assert (line["result"], line["net"], line["behind"]) == ("refund", "0.00", 0)


def test_bet_behind_own_seat_is_a_violation_in_verification():
    ans = verify_round(request(UNLIMITED, "9H 8C", seat(1, "10.00", [hand("TS 9D")], player="p1",
                                                        behind=[behind(player="p1")])))
    assert rules_ids(ans) == ["blackjack.bet-behind-own-seat"]


def test_bet_behind_a_refusing_seat_is_a_violation_in_verification():
    ans = verify_round(request(UNLIMITED, "9H 8C", seat(1, "10.00", [hand("TS 9D")], refuses_bets_behind=True,
                                                        behind=[behind()])))
    assert rules_ids(ans) == ["blackjack.bets-behind-refused"]


def test_mini_has_no_bets_behind():
    ans = verify_round(request(MINI, "9H 8C", seat(1, "10.00", [hand("TS 9D")], behind=[behind()])))
    assert rules_ids(ans) == ["blackjack.bet-behind-not-offered"]


def test_live_bet_behind_own_seat_is_refused_naming_the_rule():
    with pytest.raises(RuleViolation) as err:
        open_round(UNLIMITED, [L.SeatBet(1, D("10.00"), player="p1")], [L.BehindBet(1, D("5.00"), player="p1")])
    assert err.value.rule == "blackjack.bet-behind-own-seat"


def test_live_seat_may_refuse_bets_behind():
    seat_bet = L.SeatBet(1, D("10.00"), player="p1", refuses_behind=True)
    assert not L.can_bet_behind(open_round(UNLIMITED, [seat_bet]).rules, seat_bet, L.BehindBet(1, D("5.00"), "p2"))
    with pytest.raises(RuleViolation) as err:
        open_round(UNLIMITED, [seat_bet], [L.BehindBet(1, D("5.00"), player="p2")])
    assert err.value.rule == "blackjack.bets-behind-refused"


def test_live_bet_behind_a_seat_that_does_not_play_is_refunded():
    st = open_round(UNLIMITED, [L.SeatBet(1, D("10.00"))], [L.BehindBet(6, D("5.00"), player="p2")])
    deal_initial(st, "TS 9C 9H 8D")
    L.stand(st)
    L.settle(st)
    assert [(x.bet, x.result, x.net) for x in st.lines[6]] == [("behind", "refund", D("0.00"))]


def test_live_insurance_is_offered_to_each_bettor_behind():
    st = open_round(UNLIMITED, [L.SeatBet(1, D("10.00"), player="p1")],
                    [L.BehindBet(1, D("5.00"), "p2"), L.BehindBet(1, D("8.00"), "p3")])
    deal_initial(st, "9S AC 9D KH")
    L.decline(st, 1)
    assert L.next_step(st).actor == "seat:1/behind:0"
    L.insure(st, 1, behind=0)
    assert L.next_step(st).actor == "seat:1/behind:1"
    L.decline(st, 1, behind=1)
    L.stand(st)
    L.settle(st)
    got = [(x.bet, x.behind, x.wager, x.net) for x in st.lines[1] if x.bet.startswith("behind")]
    assert got == [("behind", 0, D("5.00"), D("-5.00")), ("behind-insurance", 0, D("2.50"), D("5.00")),
                   ("behind", 1, D("8.00"), D("-8.00"))]


def test_live_bettors_behind_a_surrendering_seat_are_surrendered_and_not_offered_insurance():
    st = open_round(UNLIMITED, [L.SeatBet(1, D("10.00"))], [L.BehindBet(1, D("5.00"), "p2")])
    deal_initial(st, "TS AC 6D 7D")
    L.surrender(st, 1)
    assert L.next_step(st).needs == "settle"
    L.settle(st)
    assert [(x.bet, x.result, x.net) for x in st.lines[1]] == [("main", "surrender", D("-5.00")),
                                                               ("behind", "surrender", D("-2.50"))]


def test_live_bet_behind_follows_the_split_with_its_preset():
    st = open_round(UNLIMITED, [L.SeatBet(3, D("10.00"))],
                    [L.BehindBet(3, D("5.00"), "a", follow_split="both"), L.BehindBet(3, D("5.00"), "b", follow_split="first")])
    deal_initial(st, "8S 6H 8H TC")
    L.split(st)
    L.deal(st, cards("3D")[0])
    L.hit(st, cards("QC")[0])
    L.stand(st)  # Unlimited has no automatic stand on 21
    L.deal(st, cards("9C")[0])
    L.stand(st)
    L.deal(st, cards("9S")[0])
    L.settle(st)
    got = [(x.behind, x.hand, x.net) for x in st.lines[3] if x.bet == "behind"]
    assert got == [(0, 0, D("5.00")), (0, 1, D("5.00")), (1, 0, D("5.00"))]


def test_bet_behind_pays_like_the_table_bet_blackjack_3_to_2():
    ans = verify_round(request(UNLIMITED, "9H 8C", seat(1, "10.00", [hand("AS KD")], behind=[behind("4.00")])))
    assert behind_lines(ans) == [(None, "4.00", "blackjack", "6.00")]


def test_bet_behind_presets_are_fixed_for_the_round():
    bet = L.BehindBet(1, D("5.00"), "p2", double_along=True)
    with pytest.raises(AttributeError):
        bet.double_along = False  # type: ignore[misc]  # changes take effect from the next round only
