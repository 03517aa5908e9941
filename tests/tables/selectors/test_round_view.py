"""``tables.selectors.round_view``: what the tablet shows in words, from the engine's live state (pure)."""

from __future__ import annotations

from decimal import Decimal

from tables.engine import live
from tables.engine.cards import parse_card
from tables.selectors import round_view


def test_actors_in_words():
    assert round_view.actor_label("seat:3/hand:1") == "Seat 3, hand 2"
    assert round_view.actor_label("seat:3/behind:0") == "Seat 3, bet behind 1"
    assert round_view.actor_label("player:Seat 2") == "Seat 2"
    assert round_view.actor_label("dealer") == "Dealer"
    assert round_view.actor_label("player", {"seats": [{"seat": 1}]}) == "Seat 1"


def test_action_labels():
    offer = {"allowed": ["insurance", "surrender", "decline"], "extra": {"insurance": "2.50"}}
    assert round_view.action_labels("unlimited-blackjack", offer) == {
        "insurance": "Insurance 2.50",
        "surrender": "Surrender",
        "decline": "Neither",
    }
    assert round_view.action_labels("unlimited-blackjack", {"allowed": ["insurance", "decline"]})["decline"] == "No insurance"
    assert (
        round_view.action_labels("bluffjack", {"allowed": ["call", "fold"], "extra": {"to_call": 3}})["call"]
        == "Call 3"
    )
    assert (
        round_view.action_labels("bluffjack", {"allowed": ["call"], "extra": {"to_call": 0}})["call"]
        == "Check"
    )


def _round(cards, decisions):
    setup = {
        "seats": [
            {
                "seat": 3,
                "wagers": {"main": "10.00"},
                "behind": [{"wagers": {"main": "5.00"}, "double_along": True, "follow_split": "both"}],
            }
        ]
    }
    state = live.start("unlimited-blackjack", {}, None, Decimal("5.00"), setup)
    docs = []
    for step in cards:
        if step in decisions:
            live.decide(
                "unlimited-blackjack", state, live.next_step("unlimited-blackjack", state).actor, step
            )
            continue
        to = live.next_step("unlimited-blackjack", state).actor
        live.deal("unlimited-blackjack", state, parse_card(step))
        docs.append({"seq": len(docs) + 1, "to": to, "code": step})
    return state, setup, docs


def test_split_hands_each_start_with_one_card_of_the_pair_and_the_hole_card_is_face_down():
    state, setup, docs = _round(["8S", "6H", "8H", "TC", "split", "3D", "hit", "QC"], {"split", "hit"})
    view = round_view.table_view("unlimited-blackjack", state, setup, docs)
    hands = view["seats"][0]["hands"]
    by_seq = {d["seq"]: d["code"] for d in docs}
    assert [h["label"] for h in hands] == ["Hand 1", "Hand 2"]
    assert [by_seq[q] for q in hands[0]["cards"]] == ["8S", "3D", "QC"]
    assert [by_seq[q] for q in hands[1]["cards"]] == ["8H"]
    assert hands[0]["total"] == "21" and hands[1]["total"] == "8"
    assert view["seats"][0]["behind"] == ["behind 5.00, doubles along, follows both hands"]
    hole = next(d for d in docs if d.get("hole"))
    assert hole["code"] == "TC" and hole["face_up"] is False
    assert view["dealer"]["total"] == "shows 6"
    prompt = live.next_step_json("unlimited-blackjack", state)
    assert (
        round_view.prompt_text("unlimited-blackjack", prompt, state, setup)
        == "Seat 3, hand 1: 21 against the dealer's 6 — hit or stand"
    )


def test_a_bluffjack_prompt_never_says_a_hand_s_total_which_would_give_the_private_card_away() -> None:
    prompt = {"actor": "player:Seat 2", "needs": "decision", "reason": "Seat 2 holds 20: hit or stand",
              "allowed": ["hit", "stand"]}
    text = round_view.prompt_text("bluffjack", prompt, None, {"seats": []})
    assert "20" not in text and text.endswith("hit or stand")


def test_a_bet_behind_that_took_insurance_says_so_during_play():
    # The bettor behind insures on their own; the tablet once showed it only in the settlement.
    state, setup, docs = _round(["8S", "AH", "9H", "5C", "decline", "insurance"], {"decline", "insurance"})
    view = round_view.table_view("unlimited-blackjack", state, setup, docs)
    assert view["seats"][0]["behind"] == ["behind 5.00, insurance 2.50, doubles along, follows both hands"]
    assert "insurance" not in view["seats"][0]["bets"]  # the seat itself declined


def test_a_finnish_27_settlement_prompt_says_whose_hand_holds_what() -> None:
    # It read "Seat 1 27 (Joanca) vs dealer hard 25: ...".
    prompt = {"actor": "dealer", "needs": "settle", "phase": "settle", "allowed": ["settle"],
              "reason": "player 27 (Joanca) vs dealer hard 25: win 1:1 (27 wins at once)"}
    text = round_view.prompt_text("finnish-27", prompt, None, {"seats": [{"seat": 1}]})
    assert text == "Seat 1 holds 27 (Joanca), the dealer hard 25: win 1:1 (27 wins at once)"
    prompt["reason"] = "player hard 24 vs dealer 29: lose (the dealer closer to 27: 2 away against the player's 3)"
    assert round_view.prompt_text("finnish-27", prompt, None, {"seats": [{"seat": 1}]}) == (
        "Seat 1 holds hard 24, the dealer 29: lose (the dealer closer to 27: 2 away against seat 1's 3)")
