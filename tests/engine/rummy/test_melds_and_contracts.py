"""Contract Rummy melds and contracts: sets, sequences, Aces, round the corner, wilds, separation."""

from __future__ import annotations

import pytest

from tables.engine import rummy
from tables.engine.errors import InvalidInput, RuleViolation
from tables.engine.rulesets import ContractRummyRules

R = ContractRummyRules()


def _rule(tokens: str, kind: str | None = None, rules: ContractRummyRules = R) -> str:
    with pytest.raises(RuleViolation) as exc:
        rummy.make_meld(tokens.split(), rules, kind)
    return exc.value.rule


def test_set_is_three_or_more_of_one_rank_any_suits():
    assert rummy.make_meld("7S 7H 7S".split(), R).kind == "set"  # two decks: suits may repeat
    assert rummy.make_meld("KS KH KD KC KS".split(), R).kind == "set"


def test_meld_with_too_few_cards_is_refused():
    assert _rule("7S 7H") == "rummy.meld-too-short"
    assert _rule("3H 4H 5H", "sequence") == "rummy.meld-too-short"


def test_set_of_mixed_ranks_is_refused():
    assert _rule("7S 7H 8D", "set") == "rummy.set-mixed-ranks"


def test_sequence_is_four_or_more_consecutive_of_one_suit():
    m = rummy.make_meld("5H 3H 6H 4H".split(), R)
    assert m.kind == "sequence" and m.codes() == ["3H", "4H", "5H", "6H"]
    assert _rule("3H 4H 5S 6H", "sequence") == "rummy.sequence-mixed-suits"
    assert _rule("3H 4H 6H 7H", "sequence") == "rummy.sequence-not-consecutive"


def test_ace_ranks_high_or_low():
    assert (rummy.make_meld("AS 2S 3S 4S".split(), R).low, rummy.make_meld("AS 2S 3S 4S".split(), R).high) == (1, 4)
    high = rummy.make_meld("JS QS KS AS".split(), R)
    assert (high.low, high.high) == (11, 14)


def test_round_the_corner_sequence_is_illegal():
    assert _rule("QH KH AH 2H") == "rummy.round-the-corner"
    assert _rule("KH AH 2H 3H", "sequence") == "rummy.round-the-corner"


def test_joker_stands_for_its_declared_card():
    m = rummy.make_meld("3H JK=4H 5H 6H".split(), R)
    assert m.codes() == ["3H", "JK=4H", "5H", "6H"]
    assert _rule("3H JK=9H 5H 6H") == "rummy.sequence-not-consecutive"


def test_undeclared_joker_is_given_the_card_it_must_stand_for():
    assert rummy.make_meld("3H JK 5H 6H".split(), R).codes() == ["3H", "JK=4H", "5H", "6H"]
    assert rummy.make_meld("JH QH KH JK".split(), R).codes() == ["JH", "QH", "KH", "JK=AH"]
    assert rummy.make_meld("QH KH AH JK".split(), R).codes() == ["JK=JH", "QH", "KH", "AH"]
    assert rummy.make_meld("7S 7H JK".split(), R).codes() == ["7S", "7H", "JK=7D"]


def test_declaring_a_natural_card_as_another_is_invalid_input():
    with pytest.raises(InvalidInput) as exc:
        rummy.make_meld("3H 4C=4H 5H 6H".split(), R)
    assert exc.value.field == "meld[1]"


def test_deuces_wild_variant_a_deuce_stands_in_for_any_card():
    wild = ContractRummyRules(deuces_wild=True)
    assert rummy.make_meld("3H 2C 5H 6H".split(), wild).codes() == ["3H", "2C=4H", "5H", "6H"]
    assert _rule("3H 2C 5H 6H", rules=R) == "rummy.sequence-mixed-suits"
    assert rummy.make_meld("2S 2H 2D".split(), wild).kind == "set"  # a plain deuce is itself


def test_a_meld_of_only_wild_cards_must_be_declared():
    assert _rule("JK JK JK", "set") == "rummy.wild-undeclared"
    assert rummy.make_meld("JK=9S JK=9H JK=9D".split(), R, "set").kind == "set"


@pytest.mark.parametrize(
    ("deal", "melds"),
    [(1, [["7S", "7H", "7D"], ["KS", "KH", "KC"]]),
     (2, [["7S", "7H", "7D"], ["3H", "4H", "5H", "6H"]]),
     (3, [["3H", "4H", "5H", "6H"], ["8S", "9S", "TS", "JS"]]),
     (4, [["7S", "7H", "7D"], ["KS", "KH", "KC"], ["4S", "4H", "4C"]]),
     (5, [["7S", "7H", "7D"], ["KS", "KH", "KC"], ["3H", "4H", "5H", "6H"]]),
     (6, [["7S", "7H", "7D"], ["3H", "4H", "5H", "6H"], ["9C", "TC", "JC", "QC"]]),
     (7, [["3H", "4H", "5H", "6H"], ["9C", "TC", "JC", "QC"], ["AS", "2S", "3S", "4S"]])],
)
def test_each_deal_contract_is_met_by_exactly_its_melds(deal, melds):
    assert rummy.verify_contract(melds, deal, R).met
    with_extra = melds + [["8D", "8H", "8C"]]
    check = rummy.verify_contract(with_extra, deal, R)
    assert not check.met and check.rule == "rummy.contract-melds"


def test_deal_6_contract_with_a_joker():
    check = rummy.verify_contract([["7S", "7H", "7D"], ["3H", "4H", "JK=5H", "6H"], ["9C", "TC", "JC", "QC"]], 6, R)
    assert check.met and check.contract == ("set", "sequence", "sequence")
    assert check.melds[1].codes() == ["3H", "4H", "JK=5H", "6H"]


def test_wrong_kind_of_melds_does_not_meet_the_contract():
    check = rummy.verify_contract([["7S", "7H", "7D"], ["KS", "KH", "KC"]], 2, R)
    assert not check.met and "one sequence and one set" in check.message


def test_two_same_suit_sequences_that_touch_are_refused():
    check = rummy.verify_contract([["3H", "4H", "5H", "6H"], ["7H", "8H", "9H", "TH"]], 3, R)
    assert not check.met and check.rule == "rummy.sequences-not-separated"


def test_two_same_suit_sequences_that_overlap_are_refused():
    check = rummy.verify_contract([["3H", "4H", "5H", "6H"], ["5H", "6H", "7H", "8H"]], 3, R)
    assert check.rule == "rummy.sequences-not-separated"


def test_same_suit_sequences_separated_by_a_card_or_of_different_suits_are_fine():
    assert rummy.verify_contract([["3H", "4H", "5H", "6H"], ["8H", "9H", "TH", "JH"]], 3, R).met
    assert rummy.verify_contract([["3H", "4H", "5H", "6H"], ["7S", "8S", "9S", "TS"]], 3, R).met


def test_a_joker_can_make_sequences_touch():
    check = rummy.verify_contract([["3H", "4H", "5H", "JK"], ["7H", "8H", "9H", "TH"]], 3, R)
    assert check.rule == "rummy.sequences-not-separated"  # the Joker is read as 6H: they touch


def test_longer_melds_meet_the_contract_unless_exact_size_is_required():
    melds = [["7S", "7H", "7D", "7C"], ["3H", "4H", "5H", "6H", "7H"]]
    assert rummy.verify_contract(melds, 2, R).met
    check = rummy.verify_contract(melds, 2, ContractRummyRules(contract_exact_size=True))
    assert check.rule == "rummy.contract-exact-size"


def test_scanned_cards_are_split_into_the_contract():
    check = rummy.verify_contract("QC 7S 3H 9C 4H TC JK 6H 7D JC 7H".split(), 6, R)
    assert check.met and sorted(m.kind for m in check.melds) == ["sequence", "sequence", "set"]
    assert ["3H", "4H", "JK=5H", "6H"] in [m.codes() for m in check.melds]


def test_scanned_cards_that_cannot_make_the_contract_are_refused():
    check = rummy.verify_contract("3H 4H 5H 6H 7H 8H 9H TH".split(), 3, R)
    assert not check.met and "cannot be split" in check.message


def test_other_clubs_contracts_are_configurable():
    club = ContractRummyRules(deals=[{"cards": 7, "contract": ["set"]}, {"cards": 9, "contract": ["sequence", "set", "set"]}])
    assert rummy.verify_contract([["5S", "5H", "5D"]], 1, club).met
    assert not rummy.verify_contract([["5S", "5H", "5D"]], 2, club).met
    with pytest.raises(InvalidInput) as exc:
        rummy.verify_contract([["5S", "5H", "5D"]], 3, club)
    assert exc.value.field == "deal"


def test_find_contract_finds_melds_in_a_hand_and_keeps_a_discard():
    from tables.engine.cards import parse_cards

    hand = parse_cards("7S 7H 7D 3H 4H JK 6H 9C TC JC QC KS")
    melds = rummy.find_contract(hand, 6, R)
    assert melds is not None and sorted(m.kind for m in melds) == ["sequence", "sequence", "set"]
    assert rummy.find_contract(parse_cards("7S 7H 3H 4H JK 6H 9C TC JC QC 2D KS"), 6, R) is None  # one Joker, two gaps
