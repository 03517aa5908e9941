"""Contract Rummy games on the floor: start a game, deal, follow every turn, keep the score sheet.

Like the round services (``tables.services``): ``<noun>_<verb>(*, ..., actor)``, one transaction,
the game row locked with ``select_for_update()``, the actor's right to act at the table checked, the
rules engine (``tables.engine.rummy``, its verify/can/do triples) deciding, and an ``AuditEvent``
written in the same transaction.  The live state is rebuilt for every command by replaying the
game's deals and actions, so the database is the single source of truth: a tablet that reloads
finds the deal, the turn and the score sheet exactly where they were.

Reading where the issue is silent: the engine follows every card, so each deal records the order of
its shuffled shoe.  The tablet sends it when the table's shuffler reads it out; without one, the
server shuffles (``random.SystemRandom``) and the order is the record of the shuffle.  A discard
pile reshuffled into a new stock is recorded the same way.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from tables.access import check_right
from tables.engine import rummy
from tables.engine.cards import Card, parse_card
from tables.engine.errors import InvalidInput, RuleViolation
from tables.engine.rulesets import ContractRummyRules, rules_from_params
from tables.errors import Conflict
from tables.models import GameState, RummyAction, RummyDeal, RummyGame, Table
from tables.services.common import _lock_table, audit, required_reason

GAME = "contract-rummy"
ACTIONS = ("take_discard", "decline_discard", "claim_discard", "pass_claim", "draw_stock", "reshuffle_discards",
           "lay_down", "lay_off", "trade_joker", "discard")  # fmt: skip
MAX_NAME = 40


def rules_of(game: RummyGame) -> ContractRummyRules:
    """The rule set in force for the game (its snapshot)."""
    rules = rules_from_params(GAME, game.rules)
    assert isinstance(rules, ContractRummyRules)
    return rules


def _apply(state: rummy.RummyState, player: str, action: str, detail: dict[str, Any]) -> list[Any]:
    """Apply one stored (or new) action through the engine's triple; ``RuleViolation`` if refused."""
    if action == "reshuffle_discards":
        return rummy.reshuffle_discards(state, [parse_card(c, field="order") for c in detail.get("order", [])])
    if action == "lay_down":
        return rummy.lay_down(state, player, detail["melds"])
    if action == "lay_off":
        return rummy.lay_off(state, player, detail["card"], detail["meld"])
    if action == "trade_joker":
        return rummy.trade_joker(state, player, detail["meld"], detail["card"])
    if action == "discard":
        return rummy.discard(state, player, detail["card"])
    return list(getattr(rummy, action)(state, player))


def replay(game: RummyGame) -> rummy.RummyState:
    """The engine's live state of the game: every deal dealt from its recorded shoe, every action in order."""
    state = rummy.new_game(rules_of(game), list(game.players), dealer=game.first_dealer)
    actions: dict[int, list[tuple[str, str, dict[str, Any]]]] = {}
    for deal_id, player, action, detail in RummyAction.objects.filter(deal__game=game).order_by(
            "deal_id", "seq").values_list("deal_id", "player", "action", "detail"):
        actions.setdefault(deal_id, []).append((player, action, detail))
    for deal_id, shoe_order in game.deals.order_by("number").values_list("id", "shoe_order"):
        rummy.start_deal(state, [parse_card(c) for c in shoe_order])
        for player, action, detail in actions.get(deal_id, ()):
            _apply(state, player, action, detail)
    return state


def _lock_game(game: RummyGame | int, expected_version: int | None) -> RummyGame:
    pk = game.pk if isinstance(game, RummyGame) else game
    # The lock order of tables.services (table → game → round): the table first, then the game row,
    # where two tablets (or a retry racing the original) serialise.
    table = _lock_table(RummyGame.objects.values_list("table_id", flat=True).get(pk=pk))
    locked = RummyGame.objects.select_for_update().get(pk=pk)
    locked.table = table
    if expected_version is not None and locked.version != expected_version:
        raise Conflict(f"the game changed meanwhile (version {locked.version}, you had {expected_version}); reload it")
    return locked


def _save(game: RummyGame, state: rummy.RummyState, **fields: Any) -> None:
    """Store the score sheet and the prompt from the engine's state and bump the version."""
    game.scores = {p.name: list(p.scores) for p in state.players}
    game.prompt = rummy.next_step(state).as_json()
    if state.phase == "over" and game.state == GameState.PLAYING:
        game.state, game.winners, game.finished_at = GameState.OVER, list(state.winners), timezone.now()
    for k, v in fields.items():
        setattr(game, k, v)
    game.version += 1
    game.save()


def _players_of(players: object, rules: ContractRummyRules) -> list[str]:
    if not isinstance(players, list) or not players:
        raise InvalidInput("players is a list of names in seat order", field="players")
    names = []
    for i, p in enumerate(players):
        if not isinstance(p, str) or not p.strip() or len(p.strip()) > MAX_NAME:
            raise InvalidInput(f"a player's name is 1 to {MAX_NAME} characters", field=f"players[{i}]")
        names.append(p.strip())
    if len(set(names)) != len(names):
        raise InvalidInput("each player's name appears once", field="players")
    rules.shoe_for(len(names))  # the player count the game takes (InvalidInput naming players)
    return names


def rummy_game_start(*, table: Table, players: object, dealer: object, actor: Any) -> RummyGame:
    """Start a Contract Rummy game at the table: players in seat order, the first dealer (low-card draw)."""
    with transaction.atomic():
        table = _lock_table(table)
        check_right(actor, table)
        if table.game.slug != GAME:
            raise InvalidInput("this table does not play Contract Rummy", field="table")
        params = dict(table.rule_set.params)
        rules = rules_from_params(GAME, params)
        assert isinstance(rules, ContractRummyRules)
        names = _players_of(players, rules)
        if not isinstance(dealer, str) or dealer.strip() not in names:
            raise InvalidInput("the first dealer must be one of the players", field="dealer")
        playing = RummyGame.objects.filter(table=table, state=GameState.PLAYING).first()
        if playing is not None:
            raise Conflict(f"Contract Rummy game {playing.number} is playing at this table: finish or end it first")
        state = rummy.new_game(rules, names, dealer=dealer.strip())
        number = (RummyGame.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0) + 1
        game = RummyGame.objects.create(
            table=table, number=number, rule_set=table.rule_set, rules=params, players=names,
            first_dealer=dealer.strip(), scores={n: [] for n in names},
            prompt=rummy.next_step(state).as_json(), started_by=actor,
        )  # fmt: skip
        audit(actor=actor, action="rummy.game.start", table=table,
              payload={"game": number, "players": names, "dealer": dealer.strip()})  # fmt: skip
        return game


def _shoe_order(raw: object, state: rummy.RummyState) -> tuple[list[Card], bool]:
    if raw is None:
        assert state.shoe is not None
        return state.shoe.shuffled(random.SystemRandom()), True
    if not isinstance(raw, list):
        raise InvalidInput("shoe_order is the list of the shuffled cards, top card first", field="shoe_order")
    return [parse_card(c, field=f"shoe_order[{i}]") for i, c in enumerate(raw)], False


def rummy_deal_start(*, game: RummyGame | int, actor: Any, shoe_order: object = None,
                     expected_version: int | None = None) -> RummyDeal:
    """Deal the next deal from the shuffled shoe (the table's order, or the server's shuffle)."""
    with transaction.atomic():
        game = _lock_game(game, expected_version)
        check_right(actor, game.table)
        if game.state != GameState.PLAYING:
            raise Conflict(f"game {game.number} is {GameState(game.state).label}")
        state = replay(game)
        prompt = rummy.next_step(state)
        if prompt.needs != "start_deal":
            raise Conflict(f"deal {state.deal_number} is still being played: {prompt.reason}")
        order, by_server = _shoe_order(shoe_order, state)
        dealer = state.players[state.dealer].name
        rummy.start_deal(state, order)
        codes = [c.code for c in order]
        deal = RummyDeal.objects.create(
            game=game, number=state.deal_number, dealer=dealer, contract=list(state.contract),
            cards_each=state.rules.deals[state.deal_index]["cards"], shoe_order=codes, shuffled_by_server=by_server,
            dealt={p.name: [c.code for c in p.hand] for p in state.players},
            upcard=state.discards[-1].code if state.discards else "", started_by=actor,
        )  # fmt: skip
        _save(game, state)
        audit(actor=actor, action="rummy.deal.start", table=game.table,
              payload={"game": game.number, "deal": deal.number, "dealer": dealer, "contract": deal.contract,
                       "shuffled_by_server": by_server, "upcard": deal.upcard,
                       "shoe_sha256": hashlib.sha256(" ".join(codes).encode()).hexdigest()})  # fmt: skip
        return deal


def _detail(action: str, state: rummy.RummyState, deal: RummyDeal, *, melds: object, cards: object, card: object,
            meld: object, scan_sha256: str | None) -> dict[str, Any]:
    """The stored detail of an action, validated (``InvalidInput`` naming the field)."""
    detail: dict[str, Any] = {}
    if action == "lay_down":
        if melds is not None:
            if not isinstance(melds, list) or not melds or not all(isinstance(m, list) and m for m in melds):
                raise InvalidInput("melds is a list of melds, each a list of card codes", field="melds")
            detail["melds"] = [[str(c) for c in m] for m in melds]
        elif cards is not None:
            if not isinstance(cards, list) or not cards:
                raise InvalidInput("cards is the list of the cards laid down", field="cards")
            # Scanned or picked cards in any order: the engine splits them into the contract's melds.
            check = rummy.verify_contract([str(c) for c in cards], deal.number, state.rules)
            if not check.met:
                raise RuleViolation(check.rule or "rummy.contract-melds", check.message)
            detail["melds"] = [m.codes() for m in check.melds]
        else:
            raise InvalidInput("lay down the contract's melds (or the cards, to be split into them)", field="melds")
        if scan_sha256:
            detail["scan_sha256"] = scan_sha256
    elif action in ("lay_off", "trade_joker", "discard"):
        if not isinstance(card, str) or not card:
            raise InvalidInput(f"a {action.replace('_', ' ')} names the card", field="card")
        detail["card"] = card
        if action != "discard":
            if isinstance(meld, bool) or not isinstance(meld, int):
                raise InvalidInput("meld is the number of a meld on the table (0 first)", field="meld")
            detail["meld"] = meld
    elif action == "reshuffle_discards":
        order = list(state.discards)
        random.SystemRandom().shuffle(order)
        detail["order"] = [c.code for c in order]
    return detail


def rummy_act(*, game: RummyGame | int, action: str, actor: Any, player: str | None = None,
              melds: object = None, cards: object = None, card: object = None, meld: object = None,
              scan_sha256: str | None = None, expected_version: int | None = None) -> RummyAction:
    """Record a turn action of the deal in play; the engine refuses one the rules forbid (``RuleViolation``)."""
    if action not in ACTIONS:
        raise InvalidInput(f"unknown action {action!r}; one of {', '.join(ACTIONS)}", field="action")
    with transaction.atomic():
        game = _lock_game(game, expected_version)
        check_right(actor, game.table)
        if game.state != GameState.PLAYING:
            raise Conflict(f"game {game.number} is {GameState(game.state).label}")
        deal = game.deals.filter(ended_at__isnull=True).order_by("-number").first()
        if deal is None:
            raise Conflict("no deal is being played: start the next deal")
        state = replay(game)
        prompt = rummy.next_step(state)
        turn = (prompt.actor or "").removeprefix("player:") if prompt.actor != "dealer" else ""
        who = "" if action == "reshuffle_discards" else (player or turn)
        if who:
            state.player(who)  # InvalidInput naming the player if nobody by that name sits here
        detail = _detail(action, state, deal, melds=melds, cards=cards, card=card, meld=meld, scan_sha256=scan_sha256)
        events = _apply(state, who, action, detail)
        seq = (deal.actions.aggregate(n=Max("seq"))["n"] or 0) + 1
        row = RummyAction.objects.create(deal=deal, seq=seq, player=who, action=action, detail=detail,
                                         recorded_by=actor)  # fmt: skip
        deal.melds = [{"index": i, "owner": m.owner, "kind": m.kind, "cards": m.codes()} for i, m in enumerate(state.melds)]
        scored = next((e for e in events if isinstance(e, rummy.DealScored)), None)
        if scored is not None:
            deal.scores, deal.out, deal.ended_at = dict(scored.scores), scored.out or "", timezone.now()
        deal.save()
        _save(game, state)
        payload: dict[str, Any] = {"game": game.number, "deal": deal.number, "seq": seq, "player": who,
                                   "action": action, "detail": {k: v for k, v in detail.items() if k != "order"}}
        if scored is not None:
            payload["scored"] = {"out": scored.out, "scores": dict(scored.scores), "totals": game.totals()}
        audit(actor=actor, action="rummy.action", table=game.table, payload=payload)
        return row


def rummy_game_end(*, game: RummyGame | int, reason: str, actor: Any, expected_version: int | None = None) -> RummyGame:
    """End a game before its last deal (players leave); the score sheet so far stays on record."""
    reason = required_reason(reason, "ending a game")
    with transaction.atomic():
        game = _lock_game(game, expected_version)
        check_right(actor, game.table)
        if game.state != GameState.PLAYING:
            raise Conflict(f"game {game.number} is already {GameState(game.state).label}")
        game.deals.filter(ended_at__isnull=True).update(ended_at=timezone.now())
        game.state, game.finished_at = GameState.ENDED, timezone.now()
        game.version += 1
        game.save()
        audit(actor=actor, action="rummy.game.end", table=game.table,
              payload={"game": game.number, "reason": reason, "totals": game.totals()})  # fmt: skip
        return game


def game_document(game: RummyGame, state: rummy.RummyState | None = None) -> dict[str, Any]:
    """The game as the tablet shows it: deal, contract, turn, hands, melds and the score sheet."""
    state = state if state is not None else replay(game)
    rules = state.rules
    dealing = state.deal_index >= 0 and state.phase not in ("ready", "over")
    deals = list(game.deals.order_by("number"))
    return {
        "id": game.pk, "table": game.table_id, "number": game.number, "state": game.state,
        "state_label": GameState(game.state).label, "version": game.version, "players": list(game.players),
        "first_dealer": game.first_dealer, "dealer": state.players[state.dealer].name,
        "deal": state.deal_number, "deals_in_game": len(rules.deals),
        "contract": list(state.contract) if state.deal_index >= 0 else [],
        "next": rummy.next_step(state).as_json() if game.state == GameState.PLAYING else
        {"phase": game.state, "actor": None, "needs": "nothing", "allowed": [], "forced": None,
         "reason": f"game {GameState(game.state).label}"},
        "hands": {p.name: [c.code for c in p.hand] for p in state.players} if dealing else {},
        "hand_points": {p.name: rummy.score_hand(p.hand, rules) for p in state.players} if dealing else {},
        "melds": [{"index": i, "owner": m.owner, "kind": m.kind, "cards": m.codes()} for i, m in enumerate(state.melds)]
        if dealing else [],
        "top_discard": state.discards[-1].code if dealing and state.discards else None,
        "stock": len(state.stock) if dealing else 0,
        # The score sheet as stored (the record the tablet shows; it equals the replayed engine's).
        "sheet": [{"player": p, "scores": list(game.scores.get(p, [])), "total": sum(game.scores.get(p, []))}
                  for p in game.players],
        "winners": list(game.winners),
        "deals": [{"number": d.number, "dealer": d.dealer, "contract": d.contract, "cards_each": d.cards_each,
                   "upcard": d.upcard, "out": d.out or None, "scores": d.scores,
                   "shuffled_by_server": d.shuffled_by_server, "started_at": d.started_at.isoformat(),
                   "ended_at": d.ended_at.isoformat() if d.ended_at else None} for d in deals],
    }  # fmt: skip


def melds_from_scan(codes: Sequence[str], deal_number: int, rules: ContractRummyRules) -> dict[str, Any]:
    """Check scanned cards against a deal's contract (the melds they split into, or why not)."""
    if not codes:
        return {"met": False, "melds": [], "rule": "rummy.no-cards", "message": "no card recognised"}
    check = rummy.verify_contract(list(codes), deal_number, rules)
    return {"met": check.met, "melds": [m.codes() for m in check.melds], "rule": check.rule, "message": check.message}
