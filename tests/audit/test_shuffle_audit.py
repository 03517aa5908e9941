"""Shuffle-point audit rules on constructed shoes."""

import random

from tables.audit.shuffle import RoundCards, ShoeSegment, audit_shoe, hi_lo_true_count
from tables.engine.cards import JOKER, parse_card, parse_cards
from tables.engine.shoe import ShoeSpec, ShuffleRule

MINI = ShoeSpec(4, 0, ShuffleRule.CARDS_DEALT, 60)
UNLIMITED = ShoeSpec(8, 0, ShuffleRule.CUT_CARD, 208)


def rounds_of(cards, per_round=5):
    return tuple(
        RoundCards(i // per_round, tuple(cards[i : i + per_round])) for i in range(0, len(cards), per_round)
    )


def rules(findings):
    return [f.rule for f in findings]


def test_a_shoe_shuffled_at_its_point_has_no_finding():
    cards = MINI.shuffled(random.Random(1))[:60]
    assert audit_shoe(MINI, [ShoeSegment(rounds_of(cards))]) == []


def test_a_round_dealt_past_the_shuffle_point_is_a_late_shuffle():
    cards = MINI.shuffled(random.Random(2))[:70]
    findings = audit_shoe(MINI, [ShoeSegment(rounds_of(cards))])
    assert rules(findings) == ["shuffle.late", "shuffle.late"]  # rounds 12 and 13 (cards 61-70)
    assert findings[0].round_id == 12


def test_the_round_in_which_the_cut_card_comes_out_is_finished_not_late():
    cards = UNLIMITED.shuffled(random.Random(3))[:210]
    # cards 206-210 form the round during which the cut card (card 208) came out
    findings = audit_shoe(UNLIMITED, [ShoeSegment(rounds_of(cards))])
    assert findings == []


def test_a_shuffle_before_the_point_is_early():
    cards = MINI.shuffled(random.Random(4))[:30]
    findings = audit_shoe(MINI, [ShoeSegment(rounds_of(cards))])
    assert rules(findings) == ["shuffle.early"]
    assert findings[0].data["cards_dealt"] == 30


def test_a_shuffle_after_one_card_says_one_card():
    findings = audit_shoe(MINI, [ShoeSegment(rounds_of(MINI.shuffled(random.Random(4))[:1]))])
    assert findings[0].message.startswith("shuffled after 1 card, before the shuffle point")


def test_a_segment_still_being_dealt_is_not_an_early_shuffle():
    cards = MINI.shuffled(random.Random(5))[:30]
    assert audit_shoe(MINI, [ShoeSegment(rounds_of(cards), ended_by_shuffle=False)]) == []


def test_a_reshuffle_without_notice_is_flagged():
    cards = MINI.shuffled(random.Random(6))[:60]
    assert rules(audit_shoe(MINI, [ShoeSegment(rounds_of(cards), notified=False)])) == ["shuffle.not-notified"]


def test_a_card_seen_more_often_than_the_shoe_holds_is_impossible():
    spec = ShoeSpec(1, 0, ShuffleRule.CARDS_DEALT, 40)
    cards = parse_cards("AS 2H 3D AS 5C")
    findings = audit_shoe(spec, [ShoeSegment(rounds_of(cards), ended_by_shuffle=False)])
    assert rules(findings) == ["card.impossible"]
    assert findings[0].data == {"card": "AS", "seen": 2, "holds": 1}


def test_a_joker_in_a_game_without_jokers_is_flagged():
    cards = [parse_card("AS"), JOKER]
    findings = audit_shoe(MINI, [ShoeSegment(rounds_of(cards), ended_by_shuffle=False)])
    assert rules(findings) == ["card.joker-without-jokers"]


def test_early_shuffles_of_rich_shoes_form_a_preferential_pattern():
    # Deal only low cards, then shuffle early, three times: the cards left are rich in tens.
    low = [c for c in MINI.shuffled(random.Random(7)) if c.rank is not None and c.rank <= 6]
    segments = [ShoeSegment(rounds_of(low[i * 30 : (i + 1) * 30])) for i in range(3)]
    findings = audit_shoe(MINI, segments)
    assert rules(findings) == ["shuffle.early"] * 3 + ["shuffle.preferential-pattern"]


def test_early_shuffles_of_ordinary_shoes_are_no_pattern():
    rng = random.Random(8)
    segments = []
    for _ in range(3):
        shoe = MINI.shuffled(rng)
        high = [c for c in shoe if c.rank is not None and c.rank >= 10][:30]  # shoe left poor
        segments.append(ShoeSegment(rounds_of(high)))
    assert "shuffle.preferential-pattern" not in rules(audit_shoe(MINI, segments))


def test_a_fresh_shoe_has_a_true_count_of_zero():
    assert hi_lo_true_count(MINI.composition(), MINI.size) == 0
