"""Verification of a finished round from its final hands (shared/DESIGN.md contract): violations
with stable rule ids, settlement as the hands lie, discrepancies, and clear errors for bad input."""

from __future__ import annotations

import pytest

from tables.engine import verify_round
from tables.engine.errors import InvalidInput

from .helpers import request


def rules_of(answer: dict) -> list[str]:  # type: ignore[type-arg]
    return [v["rule"] for v in answer["violations"]]


def test_the_design_example_verifies_exactly() -> None:
    answer = verify_round({
        "game": "finnish-27", "table_minimum": "10.00",
        "dealer": {"cards": ["9C", "9D"]},
        "seats": [{"seat": 1, "wagers": {"main": "10.00"},
                   "hands": [{"cards": ["9S", "9H", "9D"]}],
                   "paid": {"main": "10.00", "bonus": "9990.00"}}],
    })  # fmt: skip
    assert answer["violations"] == [] and answer["discrepancies"] == []
    (seat,) = answer["seats"]
    assert seat["seat"] == 1
    main, bonus = seat["lines"]
    assert (main["bet"], main["wager"], main["result"], main["net"]) == ("main", "10.00", "win", "10.00")
    assert (bonus["bet"], bonus["net"]) == ("bonus", "9990.00")
    assert "9-9-9/dealer-9-9" in bonus["detail"]
    assert seat["total_net"] == "10000.00"


def test_a_player_who_stood_where_a_hit_was_forced() -> None:
    answer = verify_round(request("AS 9D", "KS KD"))  # soft 23 against 26 must hit
    assert rules_of(answer) == ["finnish27.player-forced-hit"]
    assert answer["seats"][0]["lines"][0]["result"] == "lose"  # still settled as the hands lie


def test_a_player_who_hit_where_standing_was_forced() -> None:
    answer = verify_round(request("KS QD 2C", "KS 7D 9C"))
    assert "finnish27.player-forced-stand" in rules_of(answer)


def test_a_dealer_who_stood_on_hard_23() -> None:
    answer = verify_round(request("KS 9D", "KS TD"))
    assert rules_of(answer) == ["finnish27.dealer-stood-below-24"]


def test_a_dealer_who_stood_on_soft_24() -> None:
    assert rules_of(verify_round(request("KS 9D", "AS 9D"))) == ["finnish27.dealer-stood-below-soft-25"]


def test_a_dealer_who_drew_on_hard_24() -> None:
    assert rules_of(verify_round(request("KS QD", "KS JD 2C"))) == ["finnish27.dealer-hit-on-24-or-more"]


def test_a_dealer_who_drew_after_the_players_27() -> None:
    answer = verify_round(request("9S 9H 9D", "KS 7D 5C"))
    assert rules_of(answer) == ["finnish27.dealer-drew-after-decided"]
    assert answer["seats"][0]["lines"][0]["result"] == "win"


def test_a_dealer_who_drew_after_the_player_went_over_hard_35() -> None:
    answer = verify_round(request("KS 3D 7C KH", "KS 7D 5C"))  # 16 must hit, 23 may hit, 36 loses at once
    assert rules_of(answer) == ["finnish27.dealer-drew-after-decided"]
    assert answer["seats"][0]["lines"][0]["result"] == "lose"


def test_draws_after_an_initial_27() -> None:
    answer = verify_round(request("AS KD 2C", "9C 9D 4H"))
    assert rules_of(answer) == ["finnish27.player-drew-after-decided", "finnish27.dealer-drew-after-decided"]


def test_a_correctly_played_round_has_no_violations() -> None:
    # player hard 22 chooses to hit vs dealer 20, draws 4 (26, must stand); dealer 20 draws 5: 25
    answer = verify_round(request("KS 9D 4C", "KS 7D 5H"))
    assert answer["violations"] == []
    assert answer["seats"][0]["lines"][0]["result"] == "win"  # 26 is 1 away, 25 is 2 away


def test_an_underpaid_bonus_is_a_discrepancy() -> None:
    answer = verify_round(request("8S 9S TS", "KS QD", paid={"main": "10.00", "bonus": "10.00"}))
    assert answer["discrepancies"] == [
        {"seat": 1, "bet": "bonus", "kind": "bonus", "paid": "10.00", "due": "20.00", "difference": "-10.00"}
    ]


def test_a_payment_on_a_lost_round_is_a_discrepancy() -> None:
    answer = verify_round(request("KS 9D", "KS KD", paid={"main": "10.00"}))
    assert answer["discrepancies"][0]["due"] == "0.00"


def test_without_paid_there_are_no_discrepancies() -> None:
    assert verify_round(request("KS 9D", "KS KD"))["discrepancies"] == []


def test_a_custom_pay_table_and_rules_are_used() -> None:
    answer = verify_round(request("8S 9S TS", "KS QD",
                                  pay_table={"lines": [{"name": "8-9-10/spades", "pays": {"odds": "5:1"}}]}))  # fmt: skip
    assert answer["seats"][0]["lines"][1]["net"] == "50.00"
    answer = verify_round(request("KS 9D", "KS TD", rules={"dealer_stands_hard": 23}))
    assert answer["violations"] == []


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda r: r["seats"][0]["hands"][0].update(cards=["9S", "ZZ"]), "seats[0].hands[0].cards[1]"),
        (lambda r: r["dealer"].update(cards=["9S", "1C"]), "dealer.cards[1]"),
        (lambda r: r["seats"][0]["hands"][0].update(cards=["9S"]), "seats[0].hands[0].cards"),
        (lambda r: r["dealer"].update(cards=[]), "dealer.cards"),
        (lambda r: r["seats"][0]["wagers"].update(main="-10.00"), "seats[0].wagers.main"),
        (lambda r: r["seats"][0]["wagers"].update(main="ten"), "seats[0].wagers.main"),
        (lambda r: r["seats"][0]["wagers"].update(main="0"), "seats[0].wagers.main"),
        (lambda r: r["seats"][0]["wagers"].update(main=None), "seats[0].wagers.main"),
        (lambda r: r["seats"][0]["wagers"].pop("main"), "seats[0].wagers"),
        (lambda r: r["seats"][0]["wagers"].update(side="5.00"), "seats[0].wagers.side"),
        (lambda r: r["seats"][0]["hands"].append({"cards": ["2C", "3C"]}), "seats[0].hands"),
        (lambda r: r["seats"].append(r["seats"][0]), "seats"),
        (lambda r: r.pop("table_minimum"), "table_minimum"),
        (lambda r: r.update(table_minimum="-1"), "table_minimum"),
        (lambda r: r.update(game="finnish-28"), "game"),
        (lambda r: r.pop("dealer"), "dealer"),
        (lambda r: r["seats"][0].update(paid={"main": "abc"}), "seats[0].paid.main"),
        (lambda r: r["seats"][0].update(seat="one"), "seats[0].seat"),
    ],
)
def test_bad_input_is_a_clear_error_naming_the_field(mutate, field: str) -> None:  # type: ignore[no-untyped-def]
    r = request("KS 9D", "KS 7D 6C")
    mutate(r)
    with pytest.raises(InvalidInput) as err:
        verify_round(r)
    assert err.value.field == field


def test_a_seventh_copy_of_a_card_is_an_impossible_card() -> None:
    with pytest.raises(InvalidInput) as err:
        verify_round(request("9S 9S 9S 9S", "9S 9S 9S 2C"))
    assert err.value.field == "dealer.cards[2]" and "impossible card 9S" in str(err.value)


def test_a_thirteenth_joker_is_an_impossible_card() -> None:
    with pytest.raises(InvalidInput):
        verify_round(request("2C 3C " + "JK " * 7, "KS 7D " + "JK " * 6))
