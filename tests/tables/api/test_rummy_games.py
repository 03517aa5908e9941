"""Contract Rummy games over the tablet API: stored deals, every turn through the engine, the score sheet."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.contrib.auth.models import Group

from tables import services
from tables.engine.cards import parse_card
from tables.engine.rulesets import ContractRummyRules
from tables.models import AuditEvent, RummyAction, RummyDeal, RummyGame
from tests.factories import UserFactory
from tests.tables.api.conftest import client_for
from tests.tables.api.test_round_commands import ok

pytestmark = pytest.mark.django_db

PLAYERS = {"players": ["Ann", "Bob", "Cy"], "dealer": "Cy"}
# Deal 1 (two sets, ten cards each), dealt clockwise from the dealer's left: Ann, Bob, Cy.
ANN = ["7S", "7H", "7D", "7C", "7S", "KC", "KD", "KH", "KS", "KC"]
BOB = ["2S", "3S", "4S", "5S", "6S", "8S", "9S", "TS", "JS", "QS"]  # 67 points
CY = ["2H", "3H", "4H", "5H", "6H", "8H", "9H", "TH", "JH", "QH"]  # 67 points
UPCARD = "5D"


def shoe_order(*hands: list[str], upcard: str = UPCARD) -> list[str]:
    """A full shoe (2 decks + 1 Joker for three players) dealing ``hands`` round by round, then the upcard."""
    spec = ContractRummyRules().shoe_for(3)
    first = [h[i] for i in range(len(hands[0])) for h in hands] + [upcard]
    rest = spec.composition() - Counter(parse_card(c) for c in first)
    assert sum(rest.values()) == spec.size - len(first)
    return first + sorted((c.code for c in rest.elements()), reverse=True)


@pytest.fixture
def rummy_table(demo_casino: Any, dealer: Any) -> Any:
    table = demo_casino.tables["contract-rummy"]
    services.table_open(table=table, actor=dealer)
    return table


def start(api: Any, table: Any, body: dict[str, Any] = PLAYERS) -> dict[str, Any]:
    return ok(api.post(f"/api/tables/{table.pk}/rummy/games/", body, format="json"), 201)


def deal(api: Any, gid: int, order: list[str] | None = None, **extra: Any) -> Any:
    body = {"shoe_order": order, **extra} if order is not None else extra
    return api.post(f"/api/rummy/games/{gid}/deals/", body, format="json")


def act(api: Any, gid: int, action: str, **extra: Any) -> Any:
    return api.post(f"/api/rummy/games/{gid}/actions/", {"action": action, **extra}, format="json")


def play_first_deal(api: Any, table: Any) -> dict[str, Any]:
    """Ann takes the upcard, lays down two sets of five (cards as scanned) and goes out on the 5D."""
    gid = start(api, table)["id"]
    body = ok(deal(api, gid, shoe_order(ANN, BOB, CY)), 201)
    assert body["next"]["actor"] == "player:Ann" and body["hands"]["Ann"] == ANN
    ok(act(api, gid, "take_discard"))
    body = ok(act(api, gid, "lay_down", cards=ANN))
    assert body["next"]["allowed"] == ["discard"] and body["hands"]["Ann"] == [UPCARD]
    return ok(act(api, gid, "discard", card=UPCARD))


def test_a_deal_played_out_fills_the_score_sheet_kept_on_the_server(rummy_table, dealer_api, auditor):
    body = play_first_deal(dealer_api, rummy_table)
    assert {r["player"]: r["scores"] for r in body["sheet"]} == {"Ann": [0], "Bob": [67], "Cy": [67]}
    assert body["deals"][0]["out"] == "Ann" and body["deals"][0]["scores"] == {"Ann": 0, "Bob": 67, "Cy": 67}
    # The deal passes left: Ann deals the second deal (one set and one sequence).
    assert body["next"]["needs"] == "start_deal" and body["dealer"] == "Ann"
    assert "deal 2: 10 cards each, contract one sequence and one set" in body["next"]["reason"]
    again = ok(client_for(auditor).get(f"/api/rummy/games/{body['id']}/"))  # a reload reads the same sheet
    assert again["sheet"] == body["sheet"]
    stored = RummyGame.objects.get(pk=body["id"])
    assert stored.scores == {"Ann": [0], "Bob": [67], "Cy": [67]} and stored.totals() == {"Ann": 0, "Bob": 67, "Cy": 67}
    d = RummyDeal.objects.get(game=stored, number=1)
    assert d.dealt["Bob"] == BOB and d.upcard == UPCARD and d.melds[0]["owner"] == "Ann"
    actions = {e.payload["action"] for e in AuditEvent.objects.filter(action="rummy.action")}
    assert actions == {"take_discard", "lay_down", "discard"}
    assert AuditEvent.objects.filter(action="rummy.action", payload__scored__out="Ann").exists()


def test_the_second_deal_is_dealt_from_the_new_dealers_left(rummy_table, dealer_api):
    gid = play_first_deal(dealer_api, rummy_table)["id"]
    body = ok(deal(dealer_api, gid), 201)  # no shoe order from the table: the server shuffles
    assert body["deal"] == 2 and body["contract"] == ["set", "sequence"]
    assert body["next"]["actor"] == "player:Bob"
    assert all(len(h) == 10 for h in body["hands"].values())
    d = RummyDeal.objects.get(game_id=gid, number=2)
    assert d.shuffled_by_server and d.dealer == "Ann"
    assert Counter(d.shoe_order) == Counter(c.code for c in ContractRummyRules().shoe_for(3).composition().elements())


# One contract per deal, the first player's whole hand as the published contracts ask (two decks).
CONTRACT_HANDS = [
    ["7S", "7H", "7D", "7C", "7S", "KC", "KD", "KH", "KS", "KC"],  # two sets
    ["7S", "7H", "7D", "7C", "7S", "7H", "3H", "4H", "5H", "6H"],  # a set and a sequence
    ["2S", "3S", "4S", "5S", "6S", "9H", "TH", "JH", "QH", "KH"],  # two sequences
    ["4S", "4H", "4D", "8S", "8H", "8D", "JS", "JH", "JD", "JC"],  # three sets
    ["4S", "4H", "4D", "4C", "8S", "8H", "8D", "8C", "9C", "TC", "JC", "QC"],  # two sets and a sequence
    ["KS", "KH", "KD", "KC", "2D", "3D", "4D", "5D", "8C", "9C", "TC", "JC"],  # a set and two sequences
    ["2S", "3S", "4S", "5S", "6H", "7H", "8H", "9H", "TD", "JD", "QD", "KD"],  # three sequences
]


def shoe_first(hand: list[str], players: int = 3, upcard: str = "AC") -> list[str]:
    """A full shoe whose first player (left of the dealer) is dealt ``hand``; the others get what is left."""
    spec = ContractRummyRules().shoe_for(players)
    pool = spec.composition() - Counter(parse_card(c) for c in [*hand, upcard])
    rest = sorted((c.code for c in pool.elements()), reverse=True)
    order = []
    for code in hand:
        order.append(code)
        order += [rest.pop() for _ in range(players - 1)]
    return order + [upcard] + rest


def test_seven_deals_make_a_game_and_the_lowest_total_wins(rummy_table, dealer_api):
    gid = start(dealer_api, rummy_table)["id"]
    outs = []
    for hand in CONTRACT_HANDS:
        body = ok(deal(dealer_api, gid, shoe_first(hand)), 201)
        first = body["next"]["actor"].removeprefix("player:")
        assert body["hands"][first] == hand
        ok(act(dealer_api, gid, "take_discard"))
        ok(act(dealer_api, gid, "lay_down", cards=hand))
        body = ok(act(dealer_api, gid, "discard", card="AC"))
        outs.append(body["deals"][-1]["out"])
    assert outs == ["Ann", "Bob", "Cy", "Ann", "Bob", "Cy", "Ann"]  # the deal passes left each time
    assert body["state"] == "over" and body["next"]["needs"] == "nothing"
    totals = {r["player"]: r["total"] for r in body["sheet"]}
    assert all(len(r["scores"]) == 7 for r in body["sheet"])
    assert body["winners"] == [p for p, t in totals.items() if t == min(totals.values())]
    assert deal(dealer_api, gid).status_code == 409


def test_a_game_ended_early_keeps_its_score_sheet(rummy_table, dealer_api, pit_boss):
    gid = play_first_deal(dealer_api, rummy_table)["id"]
    body = ok(client_for(pit_boss).post(f"/api/rummy/games/{gid}/end/", {"reason": "players left"}, format="json"))
    assert body["state"] == "ended" and body["next"]["needs"] == "nothing"
    assert {r["player"]: r["total"] for r in body["sheet"]} == {"Ann": 0, "Bob": 67, "Cy": 67}
    assert AuditEvent.objects.filter(action="rummy.game.end", payload__reason="players left").exists()
    assert start(dealer_api, rummy_table)["number"] == 2  # the table is free for a new game


def test_the_engine_refuses_a_turn_out_of_order_and_a_contract_not_met(rummy_table, dealer_api):
    gid = start(dealer_api, rummy_table)["id"]
    ok(deal(dealer_api, gid, shoe_order(ANN, BOB, CY)), 201)
    r = act(dealer_api, gid, "take_discard", player="Bob")
    assert r.status_code == 422 and r.json()["rule"] == "rummy.out-of-turn"
    ok(act(dealer_api, gid, "take_discard"))
    r = act(dealer_api, gid, "lay_down", cards=["7S", "7H", "7D", "KC", "KD"])
    assert r.status_code == 422 and r.json()["rule"].startswith("rummy.")
    r = act(dealer_api, gid, "lay_down", melds=[["7S", "7H", "7D"], ["KC", "KD", "QS"]])
    assert r.status_code == 422
    r = act(dealer_api, gid, "discard", card="AS")  # not in Ann's hand
    assert r.status_code == 422 and r.json()["rule"] == "rummy.card-not-in-hand"
    assert RummyAction.objects.filter(deal__game_id=gid).count() == 1  # only the take


def test_a_declined_discard_is_claimed_out_of_turn_with_a_penalty_card(rummy_table, dealer_api):
    gid = start(dealer_api, rummy_table)["id"]
    ok(deal(dealer_api, gid, shoe_order(ANN, BOB, CY)), 201)
    body = ok(act(dealer_api, gid, "decline_discard"))
    assert body["next"]["actor"] == "player:Bob" and body["next"]["allowed"] == ["claim_discard", "pass_claim"]
    body = ok(act(dealer_api, gid, "claim_discard"))
    assert len(body["hands"]["Bob"]) == 12 and UPCARD in body["hands"]["Bob"]
    assert body["next"] == {**body["next"], "actor": "player:Ann", "forced": "draw_stock"}
    body = ok(act(dealer_api, gid, "draw_stock"))
    assert len(body["hands"]["Ann"]) == 11


def test_a_retried_action_is_recorded_once(rummy_table, dealer_api):
    gid = start(dealer_api, rummy_table)["id"]
    ok(deal(dealer_api, gid, shoe_order(ANN, BOB, CY)), 201)
    headers = {"HTTP_IDEMPOTENCY_KEY": "take-1"}
    first = dealer_api.post(f"/api/rummy/games/{gid}/actions/", {"action": "take_discard"}, format="json", **headers)
    again = dealer_api.post(f"/api/rummy/games/{gid}/actions/", {"action": "take_discard"}, format="json", **headers)
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert RummyAction.objects.filter(deal__game_id=gid).count() == 1
    key = {"HTTP_IDEMPOTENCY_KEY": "start-1"}
    a = dealer_api.post(f"/api/tables/{rummy_table.pk}/rummy/games/", PLAYERS, format="json", **key)
    b = dealer_api.post(f"/api/tables/{rummy_table.pk}/rummy/games/", PLAYERS, format="json", **key)
    assert a.status_code == 409 and b.status_code == 409  # a game is playing: refused, nothing claimed


@pytest.mark.parametrize(("url", "body", "field"), [
    ("start", {"players": "Ann Bob Cy", "dealer": "Ann"}, "players"),
    ("start", {"players": ["Ann", "Bob", "Cy"], "dealer": "Dan"}, "dealer"),
    ("start", {"players": ["Ann", "Ann", "Cy"], "dealer": "Ann"}, "players"),
    ("start", {"players": ["Ann", "Bob"], "dealer": "Ann"}, "players"),  # three players at least
    ("deal", {"shoe_order": ["ZZ"]}, "shoe_order[0]"),
    ("deal", {"shoe_order": ["AS", "KD"]}, "shoe_order"),
    ("deal", {"version": "x"}, "version"),
    ("act", {"action": "shuffle"}, "action"),
    ("act", {"action": "discard"}, "card"),
    ("act", {"action": "lay_off", "card": "7S"}, "meld"),
    ("act", {"action": "lay_down"}, "melds"),
    ("act", {"action": "lay_down", "cards": ["7S", "QQ"]}, "cards[1]"),
    ("act", {"action": "take_discard", "player": "Zed"}, "player"),
])  # fmt: skip
def test_bad_payloads_are_a_400_naming_the_field(rummy_table, dealer_api, url, body, field):
    if url == "start":
        r = dealer_api.post(f"/api/tables/{rummy_table.pk}/rummy/games/", body, format="json")
    else:
        gid = start(dealer_api, rummy_table)["id"]
        if url == "act":
            ok(deal(dealer_api, gid, shoe_order(ANN, BOB, CY)), 201)
            if body["action"] != "take_discard":
                ok(act(dealer_api, gid, "take_discard"))
            r = dealer_api.post(f"/api/rummy/games/{gid}/actions/", body, format="json")
        else:
            r = dealer_api.post(f"/api/rummy/games/{gid}/deals/", body, format="json")
    assert r.status_code == 400, r.content
    assert r.json()["field"] == field


def test_conflicts_a_second_game_a_deal_during_a_deal_and_a_stale_version(rummy_table, dealer_api):
    game = start(dealer_api, rummy_table)
    assert dealer_api.post(f"/api/tables/{rummy_table.pk}/rummy/games/", PLAYERS, format="json").status_code == 409
    ok(deal(dealer_api, game["id"], shoe_order(ANN, BOB, CY)), 201)
    assert deal(dealer_api, game["id"]).status_code == 409
    r = act(dealer_api, game["id"], "take_discard", version=game["version"])  # the deal bumped it
    assert r.status_code == 409 and "changed" in r.json()["error"]


def test_only_the_tables_dealer_or_a_pit_boss_writes(rummy_table, dealer_api, auditor, pit_boss, outsider):
    gid = start(dealer_api, rummy_table)["id"]
    colleague = UserFactory(username="colleague")
    colleague.groups.add(Group.objects.get(name="Dealer"))
    for api in (client_for(colleague), client_for(auditor)):
        assert deal(api, gid).status_code == 403
        assert api.post(f"/api/tables/{rummy_table.pk}/rummy/games/", PLAYERS, format="json").status_code == 403
        assert api.post(f"/api/rummy/games/{gid}/end/", {"reason": "x"}, format="json").status_code == 403
    assert client_for(auditor).get(f"/api/tables/{rummy_table.pk}/rummy/games/").status_code == 200
    assert client_for(outsider).get(f"/api/rummy/games/{gid}/").status_code == 403
    assert ok(deal(client_for(pit_boss), gid), 201)["deal"] == 1


def test_a_game_at_a_table_of_another_game_is_refused(demo_casino, dealer_api, dealer):
    table = demo_casino.tables["finnish-27"]
    services.table_open(table=table, actor=dealer)
    r = dealer_api.post(f"/api/tables/{table.pk}/rummy/games/", PLAYERS, format="json")
    assert r.status_code == 400 and r.json()["field"] == "table"


def test_scanned_melds_are_read_and_checked_against_the_contract(rummy_table, dealer_api, monkeypatch):
    from tests.tables.tablet.test_tablet_rounds import card_image

    reads = iter([[{"code": c, "confidence": 0.97, "corners": [[i, 0], [i + 1, 0], [i + 1, 1], [i, 1]]}
                   for i, c in enumerate(ANN)]])
    monkeypatch.setattr(services.scans, "recognise", lambda image: next(reads))
    gid = start(dealer_api, rummy_table)["id"]
    ok(deal(dealer_api, gid, shoe_order(ANN, BOB, CY)), 201)
    body = ok(dealer_api.post(f"/api/rummy/games/{gid}/scan/", {"image": _upload(card_image("7S"))}, format="multipart"))
    assert body["met"] is True and [len(m) for m in body["melds"]] == [5, 5]
    ok(act(dealer_api, gid, "take_discard"))
    ok(act(dealer_api, gid, "lay_down", cards=[c["code"] for c in body["cards"]], scan_sha256=body["sha256"]))
    assert RummyAction.objects.get(action="lay_down").detail["scan_sha256"] == body["sha256"]
    r = dealer_api.post(f"/api/rummy/games/{gid}/scan/", {"image": _upload(b"not an image")}, format="multipart")
    assert r.status_code == 400 and r.json()["field"] == "image"


def _upload(data: bytes) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("scan.png", data, content_type="image/png")
