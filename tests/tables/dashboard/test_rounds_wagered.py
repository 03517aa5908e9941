"""The rounds search's "wagered" is every stake the round took, not only the opening bets: Unlimited
Blackjack round 467 showed 35.00 against 77.50 staked, Mini Blackjack 10.00 against 25.00, a Bluffjack
hand 0.00.  One home: ``tables.selectors.trail.with_staked`` (the hold's handle stays the initial wagers)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest

from tables import services
from tables.models import SettlementLine
from tests.tables.api.conftest import client_for as api_client_for
from tests.tables.api.test_round_commands import decide, ok, play_split_round
from tests.tables.dashboard.conftest import client_for

pytestmark = pytest.mark.django_db


def _row(pit_boss, rid: int) -> list[str]:
    response = client_for(pit_boss).get("/dashboard/rounds.csv", {"from": "2000-01-01"})
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    [row] = [r for r in rows[1:] if r[0] == str(rid)]
    return row


def test_a_split_round_counts_both_hands_and_the_bet_behind_following_the_split(demo_casino, dealer, pit_boss):
    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    api = api_client_for(dealer)
    rid = play_split_round(api, table)["id"]
    in_play = _row(pit_boss, rid)
    assert in_play[8] == "30.00"  # not settled: the opening bets so far (10 + 5 Perfect Pairs + 5 behind + 10)
    ok(api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    # Seat 3: 10 on each split hand, Perfect Pairs 5, the bet behind 5 following both hands; seat 5: 10.
    assert _row(pit_boss, rid)[8] == "45.00"
    page = client_for(pit_boss).get("/dashboard/rounds/", {"min": "45", "max": "45"}).content.decode()
    assert f"/dashboard/rounds/{rid}/" in page and "wagered (all stakes)" in page


def test_a_bluffjack_hand_counts_the_pot_contributions(demo_casino, dealer, pit_boss):
    table = demo_casino.tables["bluffjack"]
    services.table_open(table=table, actor=dealer)
    api = api_client_for(dealer)
    players = {"seats": [{"seat": 1, "player": "Ann", "stack": 20, "dealer": True},
                         {"seat": 2, "player": "Bob", "stack": 20}]}  # fmt: skip
    rid = ok(api.post(f"/api/tables/{table.pk}/rounds/", players, format="json"), 201)["id"]
    for code in ["TS", "9H", "7D", "8C"]:
        ok(api.post(f"/api/rounds/{rid}/cards/", {"code": code}, format="json"))
    ok(decide(api, rid, "raise", amount="1"))
    ok(decide(api, rid, "raise", amount="2"))
    ok(decide(api, rid, "fold"))
    ok(api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))
    pot = sum((ln.wager for ln in SettlementLine.objects.filter(round_id=rid)), Decimal(0))
    assert pot > 0 and _row(pit_boss, rid)[8] == f"{pot:.2f}"


def test_a_mini_blackjack_double_counts_the_doubled_stake(demo_casino, dealer, pit_boss):
    table = demo_casino.tables["mini-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    rnd = services.round_open(table=table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    cards = iter(["6S", "9H", "5D", "7C", "8S", "TS", "2S"])
    doubled = False
    while (rnd.prompt or {}).get("needs") in ("card", "decision"):
        if rnd.prompt["needs"] == "card":
            rnd = services.round_add_card(round=rnd.pk, code=next(cards), actor=dealer)
        elif not doubled and "double" in rnd.prompt.get("allowed", []):
            rnd, doubled = services.round_decide(round=rnd.pk, action="double", actor=dealer), True
        else:
            rnd = services.round_decide(round=rnd.pk, action="stand", actor=dealer)
    services.round_settle(round=rnd.pk, actor=dealer)
    assert doubled and _row(pit_boss, rnd.pk)[8] == "20.00"


def test_a_cancelled_round_refunded_every_stake(demo_casino, dealer, pit_boss):
    table = demo_casino.tables["mini-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    rnd = services.round_open(table=table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    services.round_cancel(round=rnd.pk, reason="table incident", actor=dealer)
    assert _row(pit_boss, rnd.pk)[8] == "0.00"


def test_insurance_taken_during_the_round_counts(demo_casino, dealer, pit_boss):
    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    rnd = services.round_open(table=table, seats=[{"seat": 3, "wagers": {"main": "10.00"}}], actor=dealer)
    cards = iter(["8S", "AH", "9D", "7C", "5S", "6S"])
    insured = False
    while (rnd.prompt or {}).get("needs") in ("card", "decision"):
        if rnd.prompt["needs"] == "card":
            rnd = services.round_add_card(round=rnd.pk, code=next(cards), actor=dealer)
        elif not insured and "insurance" in rnd.prompt.get("allowed", []):
            rnd, insured = services.round_decide(round=rnd.pk, action="insurance", actor=dealer), True
        else:
            rnd = services.round_decide(round=rnd.pk, action="stand", actor=dealer)
    services.round_settle(round=rnd.pk, actor=dealer)
    assert insured and _row(pit_boss, rnd.pk)[8] == "15.00"  # main 10.00 and insurance 5.00


def test_a_finnish_27_bonus_is_paid_on_the_game_wager_not_a_stake_of_its_own(demo_casino, dealer, pit_boss):
    # Found playing the tablet: 8-9-10 of hearts won its bonus on a 25.00 bet, and the round read "wagered
    # 50.00" (the bonus line carries the wager it pays on).
    table = demo_casino.tables["finnish-27"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    api = api_client_for(dealer)
    rid = ok(api.post(f"/api/tables/{table.pk}/rounds/", {"seats": [{"seat": 1, "wagers": {"main": "25.00"}}]},
                      format="json"), 201)["id"]  # fmt: skip
    for code in ["8H", "TC", "9H", "6S"]:  # player, dealer, player, dealer: hard 17 against 16
        body = ok(api.post(f"/api/rounds/{rid}/cards/", {"code": code}, format="json"))
    if body["next"]["needs"] == "decision":
        body = ok(decide(api, rid, "hit"))
    body = ok(api.post(f"/api/rounds/{rid}/cards/", {"code": "TH"}, format="json"))  # 27: 8-9-10 of hearts
    if body["next"]["needs"] == "decision":
        ok(decide(api, rid, "stand"))
    due = ok(api.post(f"/api/rounds/{rid}/settle/", {}, format="json"))["due"]
    assert due == {"1": {"main": "25.00", "bonus": "25.00"}}  # 1:1, and 8-9-10 of hearts 1:1 on top
    assert {ln.bet: ln.wager for ln in SettlementLine.objects.filter(round_id=rid)} == {
        "main": Decimal("25.00"), "bonus": Decimal("25.00")}  # the engine's lines, as the verify contract has them
    assert _row(pit_boss, rid)[8] == "25.00"  # the one stake the player put down
