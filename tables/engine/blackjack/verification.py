"""Verification of a finished blackjack round (the ``verify_round`` contract of shared/DESIGN.md)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ..cards import Card, parse_card
from ..errors import InvalidCard, InvalidInput
from ..games import games_of_engine
from ..money import fmt, parse_amount
from ..paytable import PayTable
from ..rulesets import PUBLISHED_RULES, BlackjackRules, rules_from_params
from ..settlement import discrepancies, total_net
from ..shoe import Shoe
from ..verify import game_of, paid_of, pay_table_of, table_minimum_of
from .outcome import (
    BehindPlay,
    DealerView,
    HandPlay,
    SeatPlay,
    Settler,
    check_behind,
    check_dealer,
    check_hands,
)

BLACKJACK_GAMES = games_of_engine("blackjack")


def rules_of(request: dict[str, Any], game: str) -> BlackjackRules:
    """The published rule set of ``game``, or the request's ``rules`` parameters over it."""
    params = request.get("rules")
    rules = PUBLISHED_RULES[game] if params is None else rules_from_params(game, params)
    assert isinstance(rules, BlackjackRules)
    return rules


def _bool(obj: dict[str, Any], key: str, field: str, default: bool = False) -> bool:
    value = obj.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise InvalidInput(f"must be true or false, got {value!r}", field=f"{field}.{key}")
    return value


def _player(obj: dict[str, Any], field: str) -> str | None:
    value = obj.get("player")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise InvalidInput(f"a player id is a string or a whole number, got {value!r}", field=f"{field}.player")
    return str(value)


class _CardCounter:
    """Checks every card of the round against one shoe (an impossible card names its field)."""

    def __init__(self, rules: BlackjackRules) -> None:
        self.shoe = Shoe(rules.shoe)

    def cards(self, raw: object, field: str) -> list[Card]:
        if not isinstance(raw, list):
            raise InvalidInput("expected a list of card codes", field=field)
        out = []
        for i, token in enumerate(raw):
            f = f"{field}[{i}]"
            card = parse_card(token, field=f)
            try:
                self.shoe.deal(card)
            except InvalidCard as exc:
                raise InvalidCard(exc.message, field=f) from None
            out.append(card)
        return out


def _wagers(raw: object, field: str, allowed: tuple[str, ...]) -> dict[str, Decimal]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise InvalidInput("wagers must be an object mapping bet to amount", field=field)
    out = {}
    for key, value in raw.items():
        if key not in allowed:
            raise InvalidInput(f"unknown bet {key!r} here; expected one of {', '.join(allowed)}", field=f"{field}.{key}")
        out[key] = parse_amount(value, field=f"{field}.{key}")
    return out


def parse_seat(raw: object, field: str, counter: _CardCounter, side_bets: tuple[str, ...]) -> SeatPlay:
    """One seat of the request (cards checked through the round's shoe)."""
    if not isinstance(raw, dict):
        raise InvalidInput("a seat is an object", field=field)
    number = raw.get("seat")
    if isinstance(number, bool) or not isinstance(number, int):
        raise InvalidInput(f"seat must be a whole number, got {number!r}", field=f"{field}.seat")
    wagers = _wagers(raw.get("wagers"), f"{field}.wagers", ("main", "insurance", *side_bets))
    hands_raw = raw.get("hands", [])
    if not isinstance(hands_raw, list):
        raise InvalidInput("hands must be a list", field=f"{field}.hands")
    hands = []
    for i, h in enumerate(hands_raw):
        hf = f"{field}.hands[{i}]"
        if not isinstance(h, dict):
            raise InvalidInput("a hand is an object with cards", field=hf)
        cards = counter.cards(h.get("cards"), f"{hf}.cards")
        if len(cards) < 2:
            raise InvalidInput("a hand holds at least two cards (a split hand gets its second card at once)",
                               field=f"{hf}.cards")
        hands.append(HandPlay(cards, _bool(h, "doubled", hf), _bool(h, "surrendered", hf)))
    main = wagers.get("main")
    if main is None:
        if hands or len(wagers):
            raise InvalidInput("a seat that plays has a main bet (side bets only with a main bet)",
                               field=f"{field}.wagers.main")
    elif not hands:
        raise InvalidInput("a seat with a main bet has at least one hand", field=f"{field}.hands")
    behind_raw = raw.get("behind", [])
    if not isinstance(behind_raw, list):
        raise InvalidInput("behind must be a list", field=f"{field}.behind")
    behind = []
    for j, b in enumerate(behind_raw):
        bf = f"{field}.behind[{j}]"
        if not isinstance(b, dict):
            raise InvalidInput("a bet behind is an object", field=bf)
        bw = _wagers(b.get("wagers"), f"{bf}.wagers", ("main", "insurance"))
        if "main" not in bw:
            raise InvalidInput("a bet behind has a main wager", field=f"{bf}.wagers.main")
        follow = b.get("follow_split", "both")
        if follow not in ("both", "first"):
            raise InvalidInput(f"follow_split is \"both\" or \"first\", got {follow!r}", field=f"{bf}.follow_split")
        behind.append(BehindPlay(bw["main"], bw.get("insurance"), _bool(b, "double_along", bf), follow,
                                 _player(b, bf)))
    return SeatPlay(
        number, main, hands, wagers.get("perfect-pairs"), wagers.get("21+3"), wagers.get("insurance"), behind,
        _player(raw, field), _bool(raw, "refuses_bets_behind", field),
    )


def verify(request: dict[str, Any]) -> dict[str, Any]:
    """Verify a finished Unlimited or Mini Blackjack round: lines, violations, discrepancies."""
    game = game_of(request)
    if game not in BLACKJACK_GAMES:
        raise InvalidInput(f"not a blackjack game: {game!r}", field="game")
    rules = rules_of(request, game)
    tmin = table_minimum_of(request)
    pay_table = pay_table_of(request, game)
    return verify_parsed(request, game, rules, tmin, pay_table)


def side_bets_of(pay_table: PayTable) -> tuple[str, ...]:
    """The side bets a pay table has lines for (Unlimited: perfect-pairs and 21+3; Mini: none)."""
    return tuple(b for b in ("perfect-pairs", "21+3") if any(name.startswith(b + "/") for name in pay_table))


def verify_parsed(
    request: dict[str, Any], game: str, rules: BlackjackRules, tmin: Decimal, pay_table: PayTable
) -> dict[str, Any]:
    """Verify with the rules, table minimum and pay table already parsed."""
    counter = _CardCounter(rules)
    dealer_raw = request.get("dealer")
    if not isinstance(dealer_raw, dict):
        raise InvalidInput("dealer must be an object with cards", field="dealer")
    dealer_cards = counter.cards(dealer_raw.get("cards"), "dealer.cards")
    if len(dealer_raw.get("cards") or []) < 2:
        raise InvalidInput("the dealer's hand holds at least two cards (up card and hole card)", field="dealer.cards")
    seats_raw = request.get("seats")
    if not isinstance(seats_raw, list) or not seats_raw:
        raise InvalidInput("seats must be a non-empty list", field="seats")
    if rules.single_player and len(seats_raw) != 1:
        raise InvalidInput(f"a {game} round has exactly one seat, got {len(seats_raw)}", field="seats")
    side_bets = side_bets_of(pay_table)
    seats: list[SeatPlay] = []
    seen: set[int] = set()
    paid: list[dict[str, Decimal] | None] = []
    for i, raw in enumerate(seats_raw):
        seat = parse_seat(raw, f"seats[{i}]", counter, side_bets)
        if not 1 <= seat.seat <= rules.seats:
            raise InvalidInput(f"seat {seat.seat} does not exist: the table has seats 1-{rules.seats}",
                               field=f"seats[{i}].seat")
        if seat.seat in seen:
            raise InvalidInput(f"seat {seat.seat} is given twice", field=f"seats[{i}].seat")
        seen.add(seat.seat)
        seats.append(seat)
        paid.append(paid_of(raw, f"seats[{i}]"))
    dealer = DealerView.of(dealer_cards)
    settler = Settler(rules, pay_table, tmin, dealer)
    out_seats = []
    violations: list[dict[str, Any]] = []
    found: list[dict[str, Any]] = []
    for seat, seat_paid in zip(seats, paid, strict=True):
        lines = settler.seat_lines(seat)
        out_seats.append({"seat": seat.seat, "lines": [line.as_json() for line in lines],
                          "total_net": fmt(total_net(lines))})
        violations.extend(check_hands(seat, rules, dealer))
        violations.extend(check_behind(seat, rules, dealer))
        found.extend(discrepancies(seat.seat, lines, seat_paid))
    violations.extend(check_dealer(seats, rules, dealer))
    return {"seats": out_seats, "violations": violations, "discrepancies": found}
