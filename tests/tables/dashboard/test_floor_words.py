"""The dashboard's words for a round's money maps (``floor_words.amounts``): never an empty seat entry."""

from __future__ import annotations

from tables.templatetags.floor_words import amounts


def test_a_seat_with_nothing_due_is_left_out():
    # The round document keeps a seat that won nothing as {}: it was drawn "seat 1: ; seat 2: ...".
    assert amounts({"1": {}, "2": {"perfect-pairs": "30.00"}}) == "seat 2: Perfect Pairs 30.00"


def test_nothing_due_at_any_seat_is_a_dash():
    assert amounts({"1": {}, "3": {}}) == "—"
    assert amounts({}) == "—" and amounts(None) == "—"


def test_each_seat_with_its_bets():
    assert amounts({"1": {"main": "20.00", "behind": "5.00"}, "4": {"main": "10.00"}}) == (
        "seat 1: main 20.00, behind 5.00; seat 4: main 10.00")


def test_split_hands_and_bets_behind_are_counted_from_one_as_the_tablet_says_them():
    from tables.templatetags.floor_words import who

    assert who("seat:3/hand:0") == "seat 3, hand 1" and who("seat:3/hand:1") == "seat 3, hand 2"
    assert who("seat:3/behind:0") == "seat 3, bet behind 1"
    assert who("seat:2") == "seat 2" and who("dealer") == "the dealer" and who("player:Ann") == "Ann"
    assert who("") == "—"


def test_the_trail_says_what_a_scan_read_in_words_not_the_readers_dictionaries():
    from tables.selectors.trail import event_sentence

    text = event_sentence("round.scan", {"recognised": [
        {"code": "8S", "confidence": 0.9979, "corners": [[76.35, 66.42], [322.06, 82.53]]},
        {"code": "unknown", "confidence": 0.432, "guesses": [{"code": "JK", "confidence": 0.432}]}], "recorded": []})
    assert text == "scanned an image: read 8♠ (100%), unknown (43%); no card recorded (the dealer was asked)", text
    assert "{" not in text and "corners" not in text
    assert event_sentence("round.card", {"code": "3D", "to": "seat:1/hand:0", "scan": 4}) == \
        "dealt 3♦ to seat 1, hand 1 from a scan"
    assert event_sentence("round.decision", {"who": "seat:1/hand:1", "action": "stand"}) == "seat 1, hand 2: stand"
