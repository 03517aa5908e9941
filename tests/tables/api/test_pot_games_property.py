"""Property: the pot games played through the live API settle as an independent settlement.

Bluffjack: random games of 2-6 players with small random stacks (so all-ins, side pots, eliminations
and won games are frequent) are played hand after hand over HTTP, each hand a round whose cards come
out of the table's real shoe (a random one of the cards it still holds) and whose betting, hits and
stands are random choices among what the round's ``next`` prompt allows.  After each hand the chips
every player put in and won, the house's take and the stacks the game carries must equal
``tests/tables/api/pot_oracle.settle_bluffjack`` of the hand as the round document records it (seats,
button, cards, decisions), pot by pot (main pot and side pots); paying the due amounts closes the
round, and the game's stacks, house, button and winner follow.  The published rule set runs first;
three house rule sets then run the text's variants (Charlies with and without the longer-Charlie
tiebreak, the best-hand ranking, the odd chip to the house, a bigger ante and raise, two initial bets
and betting after each card).  The default run must reach every way a pot settles (side pots, all
over 21 to the house, a split, an odd chip, a lone player over 21, a showdown, a game won).

Contract Rummy: random games of 3-5 players, each deal from a random shoe order (sometimes the
server's own shuffle), every turn a random but purposeful choice among the prompt's allowed actions
(take or decline the discard, claims, lay the contract down when the hand holds it, lay off, discard).
The test keeps its own account of every hand from the actions (a draw adds exactly the card the
document shows, a meld or a discard takes its cards out) and, when a deal ends, each player's score on
the server's sheet must equal ``pot_oracle.rummy_hand_score`` of the cards left in that hand (and the
live hand points must equal it after every action); the totals and the winners of a finished game
must follow.  The examples share one table, so the deals run through whole seven-deal games.

Each example is one hand or one deal played from ``random.Random(seed)``; nothing is shrunk (a smaller
seed is no simpler a hand) and a failure names its seed.  ``POT_DEBUG=1`` prints what was covered.

The settlement is written from the rule texts for the test, never from ``tables.engine``.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tables import selectors, services
from tables.models import BluffjackGame, Round, RoundState, Table
from tests.factories import RuleSetFactory, game, published
from tests.tables.api.conftest import client_for
from tests.tables.api.pot_oracle import blackjack_total, rummy_hand_score, rummy_winners, settle_bluffjack

pytestmark = pytest.mark.django_db

# Every request costs ~80-150 ms on the shared test machine; a Bluffjack hand is ~20 of them, a Rummy deal
# 80-450, each slower as the game goes on (the server replays the whole game on every action).  Measured
# there under load: 100 hands ~140 s, 15 variant hands ~20 s, a seven-deal game ~5 min.  The default run
# (100 hands, 6 per variant, 2 deals) is a few minutes; the environment can ask for more
# (POT_BLUFFJACK_HANDS, POT_BLUFFJACK_VARIANT_HANDS, POT_RUMMY_DEALS: 8 plays a whole game and checks its
# winners), and ``-m slow`` runs many more.
BLUFFJACK_HANDS = int(os.environ.get("POT_BLUFFJACK_HANDS", 100))
RUMMY_DEALS = int(os.environ.get("POT_RUMMY_DEALS", 2))
BLUFFJACK_VARIANT_HANDS = int(os.environ.get("POT_BLUFFJACK_VARIANT_HANDS", 6))
BLUFFJACK_HANDS_SLOW, RUMMY_DEALS_SLOW = 1000, 100
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.content
    return response.json()


def _settings(examples: int) -> Any:
    # No shrinking: an example is a whole hand or deal played from ``random.Random(seed)``, and a smaller
    # seed is no simpler a hand; the failing seed is reported as it is.
    return settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                    suppress_health_check=list(HealthCheck), phases=(Phase.explicit, Phase.generate),
                    report_multiple_bugs=False)  # fmt: skip


# ------------------------------------------------------------------------------------------ Bluffjack


def _draw(table: Any, rnd: random.Random) -> str:
    """The next card out of the table's real shoe: a random one of the cards it still holds."""
    stored = selectors.current_shoe(table)
    assert stored is not None
    shoe = selectors.engine_shoe(stored)
    left = sorted(c.code for c in shoe.remaining().elements())
    return rnd.choice(left)


def _bluffjack_game(table: Any) -> BluffjackGame | None:
    return BluffjackGame.objects.filter(table=table).order_by("-number").first()


def _open_hand(api: APIClient, table: Any, rnd: random.Random) -> dict[str, Any]:
    """The playing game's next hand, or the first hand of a new game of random players and stacks."""
    game = _bluffjack_game(table)
    if game is not None and game.state == "playing":
        return ok(api.post(f"/api/bluffjack/games/{game.pk}/hands/", {}, format="json"), 201)
    ok(api.post(f"/api/tables/{table.pk}/shuffle/", {"reason": "new game"}, format="json"))
    players = NAMES[: rnd.randint(2, 6)]
    seat_numbers = sorted(rnd.sample(range(1, 8), len(players)))
    button = rnd.randrange(len(players))
    seats = [{"seat": n, "player": p, "stack": rnd.choice([rnd.randint(1, 4), rnd.randint(2, 30)]),
              **({"dealer": True} if i == button else {})}
             for i, (n, p) in enumerate(zip(seat_numbers, players, strict=True))]  # fmt: skip
    return ok(api.post(f"/api/tables/{table.pk}/rounds/", {"seats": seats}, format="json"), 201)


def _chips(amount: str) -> int:
    value = float(amount)
    assert value == int(value), amount  # whole chips
    return int(value)


def _hand_cards(doc: dict[str, Any], player: str) -> list[str]:
    return [c["code"] for c in doc["cards"] if c["to"] == f"player:{player}"]


def _bet(nxt: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    allowed = nxt["allowed"]
    extra = nxt.get("extra") or {}
    if nxt.get("forced") == "raise":
        room = int(extra["stack"]) - int(extra.get("to_call", 0))  # all-in if he holds less than the raise
        return {"action": "raise", "amount": str(min(int(extra.get("minimum_raise", 1)), room))}
    weights = {"call": 6, "raise": 3, "fold": 2, "hit": 0, "stand": 0}
    action = rnd.choices(allowed, [weights.get(a, 1) for a in allowed])[0]
    if action != "raise":
        return {"action": action}
    room = int(extra["stack"]) - int(extra.get("to_call", 0))  # what is left after calling
    low = min(int(extra.get("minimum_raise", 1)), room)
    by = rnd.choice([low, low, rnd.randint(low, max(low, min(room, 4))), room])  # small raises, some all-in
    return {"action": "raise", "amount": str(max(by, 1))}


def _draw_choice(doc: dict[str, Any], nxt: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    player = nxt["actor"].removeprefix("player:")
    total = blackjack_total(_hand_cards(doc, player))
    allowed = nxt["allowed"]
    if "hit" in allowed and "stand" in allowed:
        return {"action": "hit" if total < rnd.randint(11, 21) else "stand"}
    return {"action": rnd.choice(allowed)}


def _play_hand(api: APIClient, table: Any, doc: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    rid = doc["id"]
    for _ in range(300):
        nxt = doc["next"]
        if nxt["needs"] == "settle":
            return ok(api.post(f"/api/rounds/{rid}/settle/", {"version": doc["version"]}, format="json"))
        if nxt["needs"] == "card":
            doc = ok(api.post(f"/api/rounds/{rid}/cards/", {"code": _draw(table, rnd)}, format="json"))
            continue
        if nxt["needs"] == "shuffle":
            ok(api.post(f"/api/tables/{table.pk}/shuffle/", {"reason": "asked by the round"}, format="json"))
            doc = ok(api.get(f"/api/rounds/{rid}/"))
            continue
        assert nxt["needs"] == "decision", nxt
        if {"hit", "stand"} & set(nxt["allowed"]):
            choice = _draw_choice(doc, nxt, rnd)
        else:
            choice = _bet(nxt, rnd)
        body = {**choice, "who": nxt["actor"], "version": doc["version"]}
        doc = ok(api.post(f"/api/rounds/{rid}/decisions/", body, format="json"))
    raise AssertionError(f"hand {rid} did not end: {doc['next']}")


def _check_hand(api: APIClient, doc: dict[str, Any], house_before: int, seen: Counter[str],
                params: dict[str, Any]) -> None:  # fmt: skip
    """The settled hand against the independent settlement; then paid, closed, and the stacks carried."""
    assert doc["state"] in ("settled", "closed"), doc["state"]
    seats = [(s["player"], int(s["stack"])) for s in doc["seats"]]
    seat_of = {s["player"]: s["seat"] for s in doc["seats"]}
    (dealer,) = [s["player"] for s in doc["seats"] if s.get("dealer")]
    cards = {p: _hand_cards(doc, p) for p, _ in seats}
    actions = []
    for d in doc["decisions"]:
        amount = d.get("amount")
        actions.append(
            (d["actor"].removeprefix("player:"), d["action"], int(float(amount)) if amount else None)
        )
    expected = settle_bluffjack(
        seats, dealer, cards, actions, ante=params.get("ante", 1), charlie=params.get("charlie", 0),
        charlie_tiebreak=params.get("charlie_minimum_tiebreak", False), best_hand=params.get("best_hand_ranking", False),
        odd_chip_to_house=params.get("odd_chip") == "house",
    )  # fmt: skip
    seen["hands"] += 1
    seen["side pots"] += len(expected.pots) > 1
    seen["to the house"] += expected.house > 0
    seen["split"] += any(len(p.winners) > 1 for p in expected.pots)
    seen["odd chip"] += any(p.winners and p.amount % len(p.winners) for p in expected.pots)
    seen["lone player over 21"] += any(len(p.contenders) == 1 and blackjack_total(cards[p.winners[0]]) > 21
                                       for p in expected.pots)  # fmt: skip
    seen["showdown"] += any(len(p.contenders) > 1 for p in expected.pots)
    seen["charlie"] += bool(params.get("charlie")) and any(
        len(cards[w]) >= params["charlie"] and blackjack_total(cards[w]) < 21
        for p in expected.pots if len(p.contenders) > 1 for w in p.winners)  # fmt: skip

    context = (doc["id"], seats, dealer, cards, actions, expected.pots)
    # Per seat: the chips put in and the net over all the pots.
    by_seat: dict[int, list[dict[str, Any]]] = {}
    for ln in doc["settlement"]:
        by_seat.setdefault(ln["seat"], []).append(ln)
    assert set(by_seat) == set(seat_of.values()), doc["settlement"]
    for player, seat in seat_of.items():
        mine = by_seat[seat]
        assert sum(_chips(ln["wager"]) for ln in mine) == expected.committed[player], (player, mine, context)
        assert sum(_chips(ln["net"]) for ln in mine) == expected.net(player), (player, mine, context)
        if player in expected.folded:
            assert {ln["result"] for ln in mine} == {"fold"}, (player, mine)
    # Per pot (main pot, then the side pots in the order of the all-in levels): who put in what, who won.
    stored = {(ln["bet"], ln["seat"]): (_chips(ln["wager"]), _chips(ln["net"])) for ln in doc["settlement"]}
    wanted = {}
    for k, pot in enumerate(expected.pots):
        name = "pot" if k == 0 else f"side-pot-{k}"
        for player, seat in seat_of.items():
            put = expected.pot_wager(player, k)
            if put or player in pot.shares:
                wanted[(name, seat)] = (put, pot.shares.get(player, 0) - put)
    assert {k: v for k, v in stored.items() if v != (0, 0)} == {
        k: v for k, v in wanted.items() if v != (0, 0)
    }, context
    assert sum(_chips(ln["net"]) for ln in doc["settlement"]) == -expected.house  # only chips changing hands

    rid = doc["id"]
    if doc["state"] != "closed":
        doc = ok(api.post(f"/api/rounds/{rid}/paid/", {"paid": doc["due"]}, format="json"))
    assert doc["state"] == "closed" and doc["discrepancies"] == [], doc

    game = ok(api.get(f"/api/bluffjack/games/{Round.objects.get(pk=rid).bluffjack_game_id}/"))
    after = {p: stack - expected.committed[p] + expected.won[p] for p, stack in seats}
    for p, chips in after.items():
        assert game["stacks"][p] == chips, (p, game["stacks"], after, context)
    assert game["house"] == house_before + expected.house, (game["house"], house_before, expected.house)
    holding = [p for p, chips in game["stacks"].items() if chips > 0]
    if len(holding) == 1:
        assert game["state"] == "over" and game["winner"] == holding[0], game
        seen["game won"] += 1
    elif holding:
        assert game["state"] == "playing", game
        # The button passes to the next player on the left who still holds chips.
        order = [p for p, _ in seats]
        i = order.index(dealer)
        assert game["button"] == next(p for p in order[i + 1 :] + order[: i + 1] if game["stacks"][p] > 0), (
            game
        )


def _run_bluffjack(
    examples: int, demo_casino: Any, dealer: Any, params: dict[str, Any] | None = None
) -> Counter[str]:
    api = client_for(dealer)
    table = demo_casino.tables["bluffjack"]
    params = params or {}
    if params:  # a house rule set with the text's variants, published and put on the table
        rule_set = published(RuleSetFactory, game=game("bluffjack"), params=params)
        Table.objects.filter(pk=table.pk).update(rule_set=rule_set)
        table.refresh_from_db()
    services.table_open(table=table, actor=dealer)
    seen: Counter[str] = Counter()

    @_settings(examples)
    @given(seed=st.integers(0, 2**32 - 1))
    def play_one(seed: int) -> None:
        # A failing example (while Hypothesis shrinks) may leave its hand open: cancel it and end the game.
        for open_round in Round.objects.filter(table=table, state=RoundState.IN_PLAY):
            services.round_cancel(round=open_round, reason="test reset", actor=dealer)
            game = _bluffjack_game(table)
            if game is not None and game.state == "playing":
                services.bluffjack_game_end(game=game, reason="test reset", actor=dealer)
        rnd = random.Random(seed)
        game = _bluffjack_game(table)
        house_before = game.house if game is not None and game.state == "playing" else 0
        doc = _open_hand(api, table, rnd)
        _check_hand(api, _play_hand(api, table, doc, rnd), house_before, seen, params)

    play_one()
    if os.environ.get("POT_DEBUG"):
        print(params, dict(seen))
    return seen


def test_bluffjack_hands_settle_as_the_independent_settlement(demo_casino: Any, dealer: Any) -> None:
    seen = _run_bluffjack(BLUFFJACK_HANDS, demo_casino, dealer)
    if BLUFFJACK_HANDS >= 100:  # the random play reaches every way a pot is settled
        for case in (
            "side pots",
            "to the house",
            "split",
            "odd chip",
            "lone player over 21",
            "showdown",
            "game won",
        ):
            assert seen[case], (case, seen)


# The text's variants as rule-set options (no_house and the next-pot odd chip are not covered here).
VARIANTS = [
    {"charlie": 5, "best_hand_ranking": True},
    {"charlie": 5, "charlie_minimum_tiebreak": True, "odd_chip": "house", "ante": 2, "minimum_raise": 2},
    {"two_initial_bets": True, "bet_after_each_card": True},
]


@pytest.mark.parametrize(
    "params", VARIANTS, ids=["charlie-best-hand", "charlie-tiebreak-odd-chip-house", "more-betting"]
)
def test_bluffjack_variants_settle_as_the_independent_settlement(demo_casino: Any, dealer: Any,
                                                                 params: dict[str, Any]) -> None:  # fmt: skip
    _run_bluffjack(BLUFFJACK_VARIANT_HANDS, demo_casino, dealer, params)


@pytest.mark.slow
@pytest.mark.parametrize(
    "params",
    [{}, *VARIANTS],
    ids=["published", "charlie-best-hand", "charlie-tiebreak-odd-chip-house", "more-betting"],
)
def test_many_bluffjack_hands_settle_as_the_independent_settlement(demo_casino: Any, dealer: Any,
                                                                   params: dict[str, Any]) -> None:  # fmt: skip
    _run_bluffjack(BLUFFJACK_HANDS_SLOW, demo_casino, dealer, params)


# ------------------------------------------------------------------------------------- Contract Rummy
#
# The driver below only chooses moves (a player who tries to go out, so deals end); what is checked is
# the test's own account of the hands and the scores ``pot_oracle`` gives them.

SUITS = "SHDC"
RANKS = "A23456789TJQK"
RUN_RANKS = {"A": (1, 14), **{r: (i + 1,) for i, r in enumerate(RANKS) if r != "A"}}


def _rank(code: str) -> str:
    return code[0]


def _is_joker(code: str) -> bool:
    return code.upper().startswith("JK")


def _full_shoe(players: int) -> list[str]:
    decks, jokers = (
        (2, 1) if players <= 4 else (3, 2)
    )  # the text: 3-4 players two decks + a joker, more three + two
    return [r + s for r in RANKS for s in SUITS] * decks + ["JK"] * jokers


def _find_set(hand: Counter[str], used_ranks: set[str], jokers: int) -> list[list[str]]:
    """Candidate sets: every natural of one rank (at least two), a Joker added when only two."""
    by_rank: dict[str, list[str]] = {}
    for code, n in hand.items():
        if not _is_joker(code):
            by_rank.setdefault(_rank(code), []).extend([code] * n)
    out = []
    for rank, cards in sorted(by_rank.items(), key=lambda kv: -len(kv[1])):
        if rank in used_ranks:
            continue
        if len(cards) >= 3:
            out.append(sorted(cards))
        elif len(cards) == 2 and jokers:
            out.append([*sorted(cards), "JK"])
    return out


def _find_runs(hand: Counter[str], jokers: int) -> list[tuple[str, int, int, list[str]]]:
    """Candidate sequences of one suit (four cards or more, at most one Joker): (suit, low, high, cards)."""
    out = []
    for suit in SUITS:
        have = {v for code in hand if not _is_joker(code) and code[1] == suit for v in RUN_RANKS[_rank(code)]}
        for low in range(1, 12):
            for high in range(14, low + 2, -1):
                span = range(low, high + 1)
                missing = [v for v in span if v not in have]
                if len(missing) > min(jokers, 1):
                    continue
                cards = []
                for v in span:
                    if v in have:
                        r = "A" if v in (1, 14) else RANKS[v - 1]
                        cards.append(r + suit)
                    else:
                        cards.append("JK")
                out.append((suit, low, high, cards))
                break  # the longest run from this low end
    out.sort(key=lambda r: -(r[2] - r[1]))
    return out


def _find_contract(hand: Counter[str], contract: list[str]) -> list[list[str]] | None:
    """Melds from ``hand`` meeting ``contract`` (leaving a card to discard), or None: a small search."""
    size = sum(hand.values())

    def search(i: int, left: Counter[str], used_ranks: set[str], runs: list[tuple[str, int, int]]) -> Any:
        if i == len(contract):
            return [] if sum(left.values()) >= 1 else None
        jokers = sum(n for c, n in left.items() if _is_joker(c))
        options: list[tuple[list[str], str | None, tuple[str, int, int] | None]] = []
        if contract[i] == "set":
            options = [(m, _rank(m[0]), None) for m in _find_set(left, used_ranks, jokers)]
        else:
            for suit, low, high, cards in _find_runs(left, jokers):
                if any(s == suit and not (high + 1 < lo or hi + 1 < low) for s, lo, hi in runs):
                    continue  # two runs of one suit must be separated by a card
                options.append((cards, None, (suit, low, high)))
        for meld, rank, run in options[:6]:
            need = Counter(meld)
            if need - left:
                continue
            rest = search(
                i + 1, left - need, used_ranks | ({rank} if rank else set()), runs + ([run] if run else [])
            )
            if rest is not None:
                return [meld, *rest]
        return None

    if size < 2:
        return None
    return search(0, Counter(hand), set(), [])


def _potential(hand: Counter[str], contract: list[str]) -> int:
    """A rough measure of how near a hand is to the contract: its best sets and four-card runs, counted."""
    naturals = [c for c in hand.elements() if not _is_joker(c)]
    by_rank = Counter(_rank(c) for c in naturals)
    sets = sorted((min(n, 3) for n in by_rank.values()), reverse=True)[: contract.count("set")]
    windows = []
    for suit in SUITS:
        have = {v for c in naturals if c[1] == suit for v in RUN_RANKS[_rank(c)]}
        for low in range(1, 12):
            windows.append((sum(v in have for v in range(low, low + 4)), suit, low))
    runs: list[tuple[str, int]] = []
    run_score = 0
    for present, suit, low in sorted(windows, reverse=True):
        if len(runs) == contract.count("sequence"):
            break
        if any(s == suit and abs(low - lo) <= 4 for s, lo in runs):
            continue  # runs of one suit must not overlap or touch
        runs.append((suit, low))
        run_score += present
    return 3 * sum(sets) + 2 * run_score


def _usefulness(code: str, hand: Counter[str], contract: list[str]) -> int:
    """What the hand loses without the card (a Joker is always kept)."""
    if _is_joker(code):
        return 1000
    return _potential(hand, contract) - _potential(hand - Counter([code]), contract)


def _fits(code: str, meld: dict[str, Any]) -> bool:
    """Whether a natural card extends a meld on the table (a Joker fits any set)."""
    shown = [c.split("=")[-1] for c in meld["cards"]]
    naturals = [c for c in shown if not _is_joker(c)]
    if meld["kind"] == "set":
        return _is_joker(code) or (bool(naturals) and _rank(code) == _rank(naturals[0]))
    if _is_joker(code) or not naturals or code[1] != naturals[0][1]:
        return False
    vals = [RUN_RANKS[_rank(c)] for c in shown]
    # The run's values in order: the Ace is low if the run starts with it and high if it ends with it.
    first = vals[0][0] if len(vals[0]) == 1 else (1 if len(vals) > 1 and 2 in vals[1] else 14)
    low, high = first, first + len(shown) - 1
    return any(v in (low - 1, high + 1) and 1 <= v <= 14 for v in RUN_RANKS[_rank(code)])


class RummyDriver:
    """Keeps the test's own account of every hand and picks the next action."""

    def __init__(self, api: APIClient, gid: int, rnd: random.Random) -> None:
        self.api, self.gid, self.rnd = api, gid, rnd
        self.hands: dict[str, Counter[str]] = {}
        self.met: set[str] = set()
        self.no_fit: set[tuple[str, int]] = set()
        self.actions = 0

    def act(self, doc: dict[str, Any], action: str, **extra: Any) -> dict[str, Any]:
        player = doc["next"]["actor"].removeprefix("player:")
        body = {"action": action, "player": player, "version": doc["version"], **extra}
        response = self.api.post(f"/api/rummy/games/{self.gid}/actions/", body, format="json")
        if os.environ.get("POT_DEBUG") == "2":
            print(
                action,
                player,
                extra,
                response.status_code,
                sorted(self.hands.get(player, Counter()).elements()),
                doc["top_discard"],
                doc["stock"],
            )
        if response.status_code == 422 and action in ("lay_off", "lay_down"):
            return {}  # the driver's guess was refused: the state is unchanged
        new = ok(response)
        self.account(doc, new, player, action, extra)
        return new

    def account(
        self, before: dict[str, Any], after: dict[str, Any], player: str, action: str, extra: dict
    ) -> None:
        """Our own hands after the action, checked against the document's."""
        if player not in self.hands:  # the dealer's own actions (a reshuffle of the discards) move no hand
            mine: Counter[str] = Counter()
        else:
            mine = self.hands[player]
        if action in ("take_discard", "claim_discard", "draw_stock"):
            got = Counter(after["hands"][player]) - mine
            assert not mine - Counter(after["hands"][player]), (action, player, mine, after["hands"][player])
            size = {"take_discard": 1, "draw_stock": 1, "claim_discard": 1 + self.penalty}[action]
            assert sum(got.values()) == size, (action, player, got)
            if action != "draw_stock":
                assert got[before["top_discard"]] >= 1, (action, before["top_discard"], got)
            mine.update(got)
        elif action == "lay_down":
            for meld in extra["melds"]:
                mine.subtract(Counter(c.split("=")[0] for c in meld))
            self.met.add(player)
        elif action in ("lay_off", "discard"):
            mine[extra["card"].split("=")[0]] -= 1
        mine += Counter()  # drop zeros
        assert all(n >= 0 for n in mine.values()), mine
        if player in self.hands:
            self.hands[player] = mine
        self.actions += 1
        if after.get("deal") == before.get("deal") and not after["deals"][-1]["ended_at"]:
            for p, cards in after["hands"].items():
                assert Counter(cards) == self.hands[p], (action, p, cards, self.hands[p])
                # The points the tablet shows for a hand are its score, were the deal to end now.
                assert after["hand_points"][p] == rummy_hand_score(cards), (p, cards, after["hand_points"])

    penalty = 1

    def discard_choice(self, player: str, contract: list[str], melds: list[dict[str, Any]]) -> str:
        hand = self.hands[player]
        cards = sorted(hand.elements())
        if player in self.met:
            keep = [c for c in cards if not any(_fits(c, m) for m in melds)] or cards
            return max(keep, key=lambda c: (not _is_joker(c), _points(c), self.rnd.random()))
        naturals = [c for c in cards if not _is_joker(c)] or cards
        return min(naturals, key=lambda c: (_usefulness(c, hand, contract), -_points(c), self.rnd.random()))

    def wants(self, player: str, card: str, contract: list[str], melds: list[dict[str, Any]]) -> bool:
        if self.rnd.random() < 0.1:
            return self.rnd.random() < 0.5
        if player in self.met:
            return any(_fits(card, m) for m in melds)
        return _potential(self.hands[player] + Counter([card]), contract) > _potential(
            self.hands[player], contract
        )

    def step(self, doc: dict[str, Any]) -> dict[str, Any]:
        nxt = doc["next"]
        allowed = nxt["allowed"]
        player = nxt["actor"].removeprefix("player:")
        contract, melds, top = doc["contract"], doc["melds"], doc["top_discard"]
        if len(allowed) == 1:
            action = allowed[0]
            if action == "discard":
                return self.act(doc, "discard", card=self.discard_choice(player, contract, melds))
            return self.act(doc, action)
        if "take_discard" in allowed:
            take = top is not None and self.wants(player, top, contract, melds)
            return self.act(doc, "take_discard" if take else "decline_discard")
        if "claim_discard" in allowed:
            claim = top is not None and self.rnd.random() < 0.15 and self.wants(player, top, contract, melds)
            return self.act(doc, "claim_discard" if claim else "pass_claim")
        if "lay_down" in allowed and player not in self.met:
            found = _find_contract(self.hands[player], contract)
            if found is not None:
                new = self.act(doc, "lay_down", melds=found)
                if new:
                    return new
        if "lay_off" in allowed and sum(self.hands[player].values()) > 1:
            for code in sorted(self.hands[player]):
                for m in melds:
                    if (code, m["index"]) not in self.no_fit and _fits(code, m):
                        new = self.act(doc, "lay_off", card=code, meld=m["index"])
                        if new:
                            return new
                        self.no_fit.add((code, m["index"]))
        assert "discard" in allowed, nxt
        return self.act(doc, "discard", card=self.discard_choice(player, contract, melds))


def _points(code: str) -> int:
    return rummy_hand_score([code])


def _rummy_game(api: APIClient, table: Any, rnd: random.Random) -> dict[str, Any]:
    games = ok(api.get(f"/api/tables/{table.pk}/rummy/games/"))
    playing = [g for g in games if g["state"] == "playing"]
    if playing:
        return playing[0]
    players = NAMES[: rnd.choice([3, 3, 3, 3, 4, 5])]
    return ok(api.post(f"/api/tables/{table.pk}/rummy/games/",
                       {"players": players, "dealer": rnd.choice(players)}, format="json"), 201)  # fmt: skip


def _play_deal(
    api: APIClient, table: Any, rnd: random.Random, max_actions: int
) -> tuple[dict[str, Any], Any]:
    game = _rummy_game(api, table, rnd)
    gid = game["id"]
    if rnd.random() < 0.8:  # the shuffler's order, read at the table
        order = _full_shoe(len(game["players"]))
        rnd.shuffle(order)
        doc = ok(api.post(f"/api/rummy/games/{gid}/deals/", {"shoe_order": order}, format="json"), 201)
    else:  # the server's electronic shuffle
        doc = ok(api.post(f"/api/rummy/games/{gid}/deals/", {}, format="json"), 201)
    driver = RummyDriver(api, gid, rnd)
    driver.hands = {p: Counter(cards) for p, cards in doc["hands"].items()}
    cards_each = doc["deals"][-1]["cards_each"]
    assert all(sum(h.values()) == cards_each for h in driver.hands.values())
    number = doc["deal"]
    for _ in range(max_actions):
        doc = driver.step(doc)
        if doc["deals"][number - 1]["ended_at"]:
            if os.environ.get("POT_DEBUG"):
                print(
                    f"deal {number} players {len(doc['players'])}: {driver.actions} actions, out {doc['deals'][-1]['out']}"
                )
            return doc, driver
    raise AssertionError(f"deal {number} of game {gid} did not end in {max_actions} actions: {doc['next']}")


def _check_deal(doc: dict[str, Any], driver: RummyDriver) -> None:
    deal = doc["deals"][-1] if doc["deals"][-1]["ended_at"] else None
    assert deal is not None
    expected = {p: rummy_hand_score(h.elements()) for p, h in driver.hands.items()}
    assert deal["scores"] == expected, (deal, {p: sorted(h.elements()) for p, h in driver.hands.items()})
    if deal["out"]:
        assert expected[deal["out"]] == 0 and not driver.hands[deal["out"]]
    n = deal["number"]
    sheet = {r["player"]: r for r in doc["sheet"]}
    for p, score in expected.items():
        assert sheet[p]["scores"][n - 1] == score, (p, sheet[p], score)
        assert sheet[p]["total"] == sum(sheet[p]["scores"]), sheet[p]
    if doc["state"] == "over":
        totals = {p: r["total"] for p, r in sheet.items()}
        assert all(len(r["scores"]) == doc["deals_in_game"] for r in sheet.values())
        assert sorted(doc["winners"]) == sorted(rummy_winners(totals)), (doc["winners"], totals)


def _run_rummy(examples: int, demo_casino: Any, dealer: Any, pit_boss: Any) -> None:
    api = client_for(dealer)
    table = demo_casino.tables["contract-rummy"]
    services.table_open(table=table, actor=dealer)

    @_settings(examples)
    @given(seed=st.integers(0, 2**32 - 1))
    def play_one(seed: int) -> None:
        # A failing example (while Hypothesis shrinks) may leave its deal open: end that game.
        for g in ok(api.get(f"/api/tables/{table.pk}/rummy/games/")):
            if g["state"] == "playing" and g["deals"] and not g["deals"][-1]["ended_at"]:
                ok(
                    client_for(pit_boss).post(
                        f"/api/rummy/games/{g['id']}/end/", {"reason": "test reset"}, format="json"
                    )
                )
        rnd = random.Random(seed)
        # The server's shuffles (a deal without the table's order, the discards made a new stock) drawn
        # from the seed too: each run plays the same deals (a deal's length, so the test's time, was a
        # draw of the machine's randomness; one such run took over 10 minutes on PostgreSQL).
        with mock.patch("tables.services.rummy.random.SystemRandom", lambda: random.Random(rnd.random())):
            _check_deal(*_play_deal(api, table, rnd, max_actions=3000))

    play_one()


def test_rummy_deals_score_as_the_independent_scoring(demo_casino: Any, dealer: Any, pit_boss: Any) -> None:
    _run_rummy(RUMMY_DEALS, demo_casino, dealer, pit_boss)


@pytest.mark.slow
def test_many_rummy_deals_score_as_the_independent_scoring(
    demo_casino: Any, dealer: Any, pit_boss: Any
) -> None:
    _run_rummy(RUMMY_DEALS_SLOW, demo_casino, dealer, pit_boss)
