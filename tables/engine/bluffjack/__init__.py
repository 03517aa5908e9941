"""Bluffjack (shared/rules/bluffjack.txt): a pot game, poker betting over blackjack hands.

Live flow.  ``new_game(rules, players)`` seats the players (seat order is clockwise: the player "to
the left" of seat i is seat i+1).  Each action is a triple (shared/STYLE.md): ``verify_<action>``
raises ``RuleViolation`` naming the rule, ``can_<action>`` gives the tablet's bool, ``<action>``
applies it and returns the events.  An action that is refused (or a bad card) leaves the state
unchanged: every check runs before anything is written.  ``next_step(state)`` says what comes
next.  Actions: ``start_hand``, ``deal(card)``, ``call``, ``raise_(by)``, ``fold``, ``hit``,
``stand``, ``settle``.

Readings where the text is silent (decided here; a regulator-style "rules of play card"):

- Antes.  Every player still in the game antes ``rules.ante`` when the hand starts (the text lists
  the ante after the deal; the order changes nothing).  A player holding fewer chips antes them all
  and is all-in.
- Betting.  Chips are whole.  "Call" when nothing is owed is a check.  A raise puts in what is owed
  plus ``by`` chips; ``by`` is at least ``rules.minimum_raise`` unless the raise puts the player
  all-in.  Nobody may put in more chips than they hold (``bluffjack.raise-exceeds-stack``); a player
  who cannot meet a bet may call all-in for less, and side pots are formed as in poker (table
  stakes).  Folding is allowed only when a bet is owed (otherwise check): this keeps the biggest
  contributor of every hand in contention, so no side pot is ever left without a claimant.
- The forced raise.  In the first betting round of a hand the player to the left of the dealer acts
  first and must raise by exactly ``rules.minimum_raise`` (all-in if he holds less); he may not call
  or fold.  If the ante already put him all-in there is no forced raise.  With ``two_initial_bets``
  the forced raise belongs to the first of the two initial rounds only.
- How a betting round closes.  It starts at the first player left of the dealer who can still bet
  and goes clockwise.  Any raise (even an all-in raise for less than the minimum) reopens the
  action for everyone else.  The round closes when every player who is still in and not all-in has
  acted since the last raise and has put in as much as the highest total; a round in which at most
  one player can still bet and owes nothing closes at once.
- Drawing.  Clockwise from the dealer's left, each player still in who has not stood takes a card
  or stands, round after round, until all have stood.  A hand whose lowest total is over 21 is dead
  and takes no more cards (it is stood for the player); the player stays in for the betting and may
  still bluff, as the text allows a lone remaining player to win "even if they went over 21".
- ``bet_after_each_card``.  During the drawing, after each player's hit (and its card) or stand,
  that player calls, raises or folds against the highest total at the table; a player who has
  already stood still gets that betting turn each time play passes him ("must call or raise"; we
  also allow the fold, since nobody can be made to put chips in).  The final betting round follows.
- Charlies (``charlie`` = 5, 7 or 10).  A hand of that many cards *or more* with a total under 21 is
  a Charlie: it beats every other hand except a 21, whatever its total; between Charlies the higher
  total wins; ``charlie_minimum_tiebreak`` makes the longer Charlie win a tie on total.
- ``best_hand_ranking``: two-card 21s rank A-K suited, A-K, A-Q suited, A-Q, A-J suited, A-J, A-T
  suited, A-T; then any 21 of three or more cards; then Charlies; then 20 down to 2; then bust.
- Resolution, per pot (main pot and side pots): one player in contention wins it, bust or not (an
  unmatched part of a bet comes back this way); if all in contention are over 21 the pot goes to
  the house (``no_house``: it is set aside for the last remaining player of the game); otherwise the
  best hand wins and equal best hands split.  The indivisible remainder of a split follows
  ``odd_chip``: ``first_left_of_dealer`` (one chip each to the winners nearest the dealer's left, as
  in poker), ``house`` (to the house, or set aside under ``no_house``) or ``next_pot`` (added to the
  next hand's pot).
- After the hand.  Players without chips are eliminated; the button passes to the next player on
  the left who is still in the game.  When one player holds chips the game ends and he wins; under
  ``no_house`` he also takes the set-aside chips, and odd chips waiting for a next pot go to him in
  any case.  If the last hand leaves nobody with chips (all bust, everything to the house), the game
  ends without a winner; under ``no_house`` the set-aside chips are shared among that hand's players
  instead (odd chips to the first left of the dealer) and the game goes on.
- Chips are conserved at every step: stacks + pot + house + set aside + carried odd chips is
  constant (``total_chips``).

Verification (``verify(request)``, via ``tables.engine.verify_round``): a finished hand is replayed
through the live engine.  Request::

    {"game": "bluffjack",
     "rules": {"charlie": 5, ...},              # optional rule-set parameters (published defaults)
     "dealer": "ann",                          # who holds the button
     "players": [{"player": "ann", "stack": 100,           # chips before the ante
                  "cards": ["9S", "7H", "5D"]}, ...],       # in seat order, cards in the order dealt
     "carry": 0,                               # optional: odd chips brought into this pot
     "actions": [{"player": "bob", "action": "raise", "by": 1},
                 {"player": "cy", "action": "call"}, {"player": "ann", "action": "fold"},
                 {"player": "bob", "action": "hit"}, {"player": "bob", "action": "stand"}, ...],
     "paid": {"bob": 7, "house": 0}}           # optional: chips pushed to each player / the house

Antes and the deal are implied; a ``hit`` takes the player's next listed card.  Answer::

    {"players": [{"player": "bob", "committed": 3, "won": 7, "stack_after": 104,
                  "lines": [{"bet": "pot", "wager": 3, "result": "win", "net": 4, "detail": "..."}],
                  "total_net": 4}],
     "pots": [{"pot": "pot", "amount": 7, "in_contention": ["bob", "cy"], "result": "win",
               "winners": ["bob"], "detail": "..."}],
     "house": 0, "set_aside": 0, "carry": 0, "violations": [...], "discrepancies": [...]}

A rule-breaking action is a violation (``{"rule", "message"}``); the replay stops there and the hand
is settled as it lies (every player's listed cards count).  Malformed input raises ``InvalidInput``
naming the field.  Chips are whole numbers in the JSON.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, Rank, format_cards, parse_cards
from ..errors import InvalidInput, RuleViolation
from ..round import CardDealt, DecisionMade, Prompt, RoundSettled, can
from ..rulesets import BluffjackRules, rules_from_params
from ..shoe import Shoe

Event = Any


@dataclass(frozen=True, slots=True)
class PlayerEliminated:
    """Event: ``player`` has no chips left and leaves the game."""

    player: str


@dataclass(frozen=True, slots=True)
class GameWon:
    """Event: the game is over; ``player`` (None: nobody) holds every chip still in play."""

    player: str | None
    collected: int  # set-aside and carried chips the winner collected at the end


# ---------------------------------------------------------------------------------------------- hands


def hand_total(cards: list[Card]) -> int:
    """Blackjack total: 2-10 face value, J Q K 10, an Ace 11 when that stays at or under 21, else 1."""
    total = sum(_points(c) for c in cards)
    if any(c.rank is Rank.ACE for c in cards) and total + 10 <= 21:
        total += 10
    return total


def _points(card: Card) -> int:
    if card.rank is None:
        raise InvalidInput("Bluffjack is played without Jokers", field="cards")
    if card.rank is Rank.ACE:
        return 1
    return min(int(card.rank), 10)


def is_bust(cards: list[Card]) -> bool:
    """Whether the hand is over 21 (its lowest total is)."""
    return sum(_points(c) for c in cards) > 21


def is_charlie(cards: list[Card], rules: BluffjackRules) -> bool:
    """A Charlie: at least ``rules.charlie`` cards with a total under 21."""
    return rules.charlie > 0 and len(cards) >= rules.charlie and hand_total(cards) < 21


def hand_key(cards: list[Card], rules: BluffjackRules) -> tuple[int, ...]:
    """A sort key: the better hand has the larger key; equal keys tie."""
    if is_bust(cards):
        return (0,)
    total = hand_total(cards)
    if total == 21:
        if rules.best_hand_ranking and len(cards) == 2:
            other = next(c for c in cards if c.rank is not Rank.ACE) if cards[0].rank is not cards[1].rank else cards[0]
            assert other.rank is not None
            suited = 1 if cards[0].suit == cards[1].suit else 0
            return (4, int(other.rank), suited)
        return (3,)
    if is_charlie(cards, rules):
        return (2, total, len(cards) if rules.charlie_minimum_tiebreak else 0)
    return (1, total)


def describe_hand(cards: list[Card], rules: BluffjackRules) -> str:
    """The hand in words a dealer can read out (``"5-card Charlie 15"``, ``"21 (A-K suited)"``)."""
    if is_bust(cards):
        return f"bust {sum(_points(c) for c in cards)}"
    total = hand_total(cards)
    if total == 21 and rules.best_hand_ranking and len(cards) == 2:
        key = hand_key(cards, rules)
        name = {13: "K", 12: "Q", 11: "J", 10: "T"}[key[1]]
        return f"21 (A-{name}{' suited' if key[2] else ''})"
    if total == 21:
        return f"21 ({len(cards)} cards)"
    if is_charlie(cards, rules):
        return f"{len(cards)}-card Charlie {total}"
    return str(total)


# ---------------------------------------------------------------------------------------------- state


@dataclass
class Player:
    """A seat: chips behind, and this hand's cards and commitment."""

    name: str
    stack: int
    cards: list[Card] = field(default_factory=list)
    committed: int = 0  # chips put into this hand's pot (antes included)
    folded: bool = False
    stood: bool = False
    eliminated: bool = False
    in_hand: bool = False


@dataclass
class PotResult:
    """How one pot was resolved."""

    name: str
    amount: int
    in_contention: list[str]
    result: str  # win | split | house | set-aside
    winners: list[str]
    shares: dict[str, int]
    remainder: int
    remainder_to: str
    detail: str
    contributions: dict[str, int] = field(default_factory=dict)  # each player's part of this pot

    def as_json(self) -> dict[str, Any]:
        return {"pot": self.name, "amount": self.amount, "in_contention": self.in_contention,
                "result": self.result, "winners": self.winners, "shares": self.shares,
                "remainder": self.remainder, "remainder_to": self.remainder_to, "detail": self.detail}


@dataclass
class BluffjackState:
    """A Bluffjack game followed hand by hand."""

    rules: BluffjackRules
    players: list[Player]  # seat order, clockwise
    button: int  # seat index of the dealer
    phase: str = "ready"  # ready | deal | bet | draw | showdown | over
    street: str = ""  # first | second | draw | final
    house: int = 0
    set_aside: int = 0
    carry: int = 0  # odd chips waiting for the next pot
    pot_extra: int = 0  # carried chips brought into this hand's main pot
    hand_number: int = 0
    order: list[int] = field(default_factory=list)  # seats in this hand, from the dealer's left
    turn: int | None = None  # seat index whose turn it is
    acted: set[int] = field(default_factory=set)
    forced_raise_due: bool = False
    deal_queue: list[tuple[int, bool]] = field(default_factory=list)  # (seat, face up) still to deal
    draw_step: str = ""  # decide | card | bet
    shoe: Shoe | None = None
    winner: str | None = None
    last_pots: list[PotResult] = field(default_factory=list)
    last_lines: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    total_chips: int = 0
    seat_of: dict[str, int] = field(default_factory=dict)  # player name -> the table's seat number

    # -- derived
    @property
    def pot(self) -> int:
        """Chips in the middle: this hand's commitments plus carried odd chips."""
        return sum(p.committed for p in self.players) + self.pot_extra

    @property
    def chips_in_play(self) -> int:
        """Stacks + pot + the house's share; constant over the whole game."""
        return sum(p.stack for p in self.players) + self.pot + self.house + self.set_aside + self.carry

    def player(self, name: str) -> int:
        """Seat index of ``name``; ``InvalidInput`` if nobody by that name sits here."""
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise InvalidInput(f"no player {name!r} at this table", field="player")

    def current_bet(self) -> int:
        return max((self.players[i].committed for i in self.order), default=0)

    def to_call(self, seat: int) -> int:
        return self.current_bet() - self.players[seat].committed

    def snapshot(self) -> BluffjackState:
        """A deep copy (tests compare states before and after a refused action)."""
        return copy.deepcopy(self)


def actor(state: BluffjackState, seat: int) -> str:
    return f"player:{state.players[seat].name}"


def new_game(rules: BluffjackRules | None, players: list[str], *, dealer: str | None = None,
             stacks: dict[str, int] | None = None) -> BluffjackState:
    """Seat ``players`` (clockwise) with ``rules.starting_chips`` each (or ``stacks``)."""
    rules = rules or BluffjackRules()
    if not isinstance(players, list) or len(players) < 2:
        raise InvalidInput("Bluffjack needs 2 or more players", field="players")
    if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise InvalidInput("player names must be distinct non-empty strings", field="players")
    seated = []
    for name in players:
        chips = rules.starting_chips if stacks is None else stacks.get(name, rules.starting_chips)
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise InvalidInput(f"chips must be a whole number, got {chips!r}", field=f"stacks.{name}")
        seated.append(Player(name, chips, eliminated=chips == 0))
    if sum(1 for p in seated if not p.eliminated) < 2:
        raise InvalidInput("at least two players must hold chips", field="stacks")
    state = BluffjackState(rules, seated, 0)
    state.button = state.player(dealer) if dealer is not None else 0
    state.total_chips = state.chips_in_play
    return state


# ---------------------------------------------------------------------------------------- internals


def _live(state: BluffjackState) -> list[int]:
    """Seats still in this hand (not folded), from the dealer's left."""
    return [i for i in state.order if not state.players[i].folded]


def _can_bet(state: BluffjackState, seat: int) -> bool:
    p = state.players[seat]
    return not p.folded and p.stack > 0


def _put(state: BluffjackState, seat: int, chips: int) -> None:
    p = state.players[seat]
    assert 0 <= chips <= p.stack
    p.stack -= chips
    p.committed += chips


def _street_closed(state: BluffjackState) -> bool:
    bettors = [i for i in state.order if _can_bet(state, i)]
    if len(bettors) <= 1 and all(state.to_call(i) <= 0 for i in bettors):
        return True
    return all(i in state.acted and state.to_call(i) == 0 for i in bettors)


def _next_bettor(state: BluffjackState, after: int | None) -> int | None:
    """The next seat clockwise after ``after`` that must still act in this betting round."""
    order = state.order
    start = 0 if after is None else order.index(after) + 1
    for k in range(len(order)):
        i = order[(start + k) % len(order)]
        if _can_bet(state, i) and (i not in state.acted or state.to_call(i) > 0):
            return i
    return None


def _open_street(state: BluffjackState, street: str) -> None:
    state.phase, state.street, state.acted, state.turn = "bet", street, set(), None
    if len(_live(state)) <= 1:
        state.phase = "showdown"
        return
    if _street_closed(state):
        _close_street(state)
        return
    state.turn = _next_bettor(state, None)
    state.forced_raise_due = street == "first" and state.turn == state.order[0]


def _close_street(state: BluffjackState) -> None:
    state.turn, state.forced_raise_due = None, False
    if len(_live(state)) <= 1:
        state.phase = "showdown"
    elif state.street == "first" and state.rules.two_initial_bets:
        state.phase, state.street = "deal", "second"
        state.deal_queue = [(i, True) for i in _live(state)]
    elif state.street in ("first", "second"):
        _open_draw(state)
    elif state.street == "draw":
        _open_street(state, "final")
    else:
        state.phase = "showdown"


def _open_draw(state: BluffjackState) -> None:
    state.phase, state.street, state.acted, state.turn = "draw", "draw", set(), None
    _next_drawer(state, None)


def _next_drawer(state: BluffjackState, after: int | None) -> None:
    """Pass the drawing to the next player clockwise, or close the drawing when all have stood."""
    live = _live(state)
    if len(live) <= 1:
        state.phase, state.turn = "showdown", None
        return
    if all(state.players[i].stood for i in live):
        state.street = "draw"
        _open_street(state, "final")
        return
    order = state.order
    start = 0 if after is None else order.index(after) + 1
    for k in range(len(order)):
        i = order[(start + k) % len(order)]
        p = state.players[i]
        if p.folded:
            continue
        if not p.stood:
            state.turn, state.draw_step = i, "decide"
            return
        if state.rules.bet_after_each_card and _can_bet(state, i) and _others_can_respond(state, i):
            state.turn, state.draw_step = i, "bet"  # a player who held must still call or raise
            return
    raise AssertionError("unreachable: a live player has not stood")


def _others_can_respond(state: BluffjackState, seat: int) -> bool:
    return state.to_call(seat) > 0 or any(_can_bet(state, i) for i in _live(state) if i != seat)


def _after_draw_turn(state: BluffjackState, seat: int) -> None:
    """The drawing player's card or stand is done: his betting turn (variant) or the next player."""
    if state.rules.bet_after_each_card and _can_bet(state, seat) and _others_can_respond(state, seat):
        state.draw_step = "bet"
        return
    _next_drawer(state, seat)


def _after_bet(state: BluffjackState, seat: int) -> None:
    if state.phase == "draw":
        _next_drawer(state, seat)
        return
    if len(_live(state)) <= 1 or _street_closed(state):
        _close_street(state)
        return
    state.turn = _next_bettor(state, seat)


def _need_turn(state: BluffjackState, name: str, phases: tuple[str, ...], action: str) -> int:
    """The seat of ``name`` if it is his turn to ``action``; else ``RuleViolation``."""
    seat = state.player(name)
    if state.phase not in phases:
        raise RuleViolation(f"bluffjack.no-{action}-now", f"no {action} now: the hand is in phase {state.phase!r}")
    if state.turn != seat:
        whose = state.players[state.turn].name if state.turn is not None else "nobody"
        raise RuleViolation("bluffjack.out-of-turn", f"{name} cannot {action}: it is {whose}'s turn")
    return seat


def _in_betting_turn(state: BluffjackState, name: str, action: str) -> int:
    seat = _need_turn(state, name, ("bet", "draw"), action)
    if state.phase == "draw" and state.draw_step != "bet":
        raise RuleViolation(
            "bluffjack.no-bet-now",
            f"{name} cannot {action} now: during the drawing it is time to "
            + ("hit or stand" if state.draw_step == "decide" else "deal his card"),
        )
    return seat


# ----------------------------------------------------------------------------------------- actions


def verify_start_hand(state: BluffjackState) -> None:
    """A hand starts only between hands of a game that is not over."""
    if state.phase != "ready":
        raise RuleViolation("bluffjack.hand-in-progress", f"cannot start a hand: phase is {state.phase!r}")


def can_start_hand(state: BluffjackState) -> bool:
    return can(verify_start_hand, state)


def start_hand(state: BluffjackState) -> list[Event]:
    """Start a hand: antes from every player still in the game, then the deal."""
    verify_start_hand(state)
    n = len(state.players)
    state.hand_number += 1
    state.order = [(state.button + k) % n for k in range(1, n + 1)
                   if not state.players[(state.button + k) % n].eliminated]
    for p in state.players:
        p.cards, p.committed, p.folded, p.stood, p.in_hand = [], 0, False, False, False
    for i in state.order:
        state.players[i].in_hand = True
    state.pot_extra, state.carry = state.carry, 0
    state.shoe = Shoe(state.rules.shoe)  # reshuffled before every hand
    state.last_pots = []
    events: list[Event] = []
    for i in state.order:
        chips = min(state.rules.ante, state.players[i].stack)
        _put(state, i, chips)
        events.append(DecisionMade(actor(state, i), "ante", str(chips), forced=True))
    state.phase, state.street = "deal", "first"
    state.deal_queue = [(i, False) for i in state.order]
    if not state.rules.two_initial_bets:
        state.deal_queue += [(i, True) for i in state.order]
    return events


def verify_deal(state: BluffjackState, card: Card) -> None:
    """A card is due (the deal, or a hit) and the shoe can hold it."""
    if not (state.phase == "deal" or (state.phase == "draw" and state.draw_step == "card")):
        raise RuleViolation("bluffjack.no-card-due", f"no card is due now (phase {state.phase!r})")
    assert state.shoe is not None
    state.shoe.verify_deal(card)  # an impossible card is InvalidCard


def can_deal(state: BluffjackState, card: Card) -> bool:
    return can(verify_deal, state, card)


def deal(state: BluffjackState, card: Card) -> list[Event]:
    """Deal ``card`` to whoever it is due (next_step names him)."""
    verify_deal(state, card)
    assert state.shoe is not None
    state.shoe.deal(card)
    if state.phase == "deal":
        seat, face_up = state.deal_queue.pop(0)
        state.players[seat].cards.append(card)
        if not state.deal_queue:
            _open_street(state, state.street)
        return [CardDealt(actor(state, seat), card, face_up)]
    assert state.turn is not None
    seat = state.turn
    p = state.players[seat]
    p.cards.append(card)
    if is_bust(p.cards):
        p.stood = True  # a dead hand takes no more cards
    _after_draw_turn(state, seat)
    return [CardDealt(actor(state, seat), card, True)]


def verify_hit(state: BluffjackState, player: str) -> None:
    """Only the player whose drawing turn it is may take a card."""
    _need_turn(state, player, ("draw",), "hit")
    if state.draw_step != "decide":
        raise RuleViolation("bluffjack.no-hit-now", f"{player} has already hit or stood this turn")


def can_hit(state: BluffjackState, player: str) -> bool:
    return can(verify_hit, state, player)


def hit(state: BluffjackState, player: str) -> list[Event]:
    """The player takes a card (the dealer deals it next)."""
    verify_hit(state, player)
    state.draw_step = "card"
    return [DecisionMade(f"player:{player}", "hit")]


def verify_stand(state: BluffjackState, player: str) -> None:
    """Only the player whose drawing turn it is may stand."""
    _need_turn(state, player, ("draw",), "stand")
    if state.draw_step != "decide":
        raise RuleViolation("bluffjack.no-stand-now", f"{player} has already hit or stood this turn")


def can_stand(state: BluffjackState, player: str) -> bool:
    return can(verify_stand, state, player)


def stand(state: BluffjackState, player: str) -> list[Event]:
    """The player stands: no more cards this hand."""
    verify_stand(state, player)
    seat = state.player(player)
    state.players[seat].stood = True
    _after_draw_turn(state, seat)
    return [DecisionMade(f"player:{player}", "stand")]


def verify_call(state: BluffjackState, player: str) -> None:
    """Call (or check): the player's betting turn, and not the forced raise."""
    _in_betting_turn(state, player, "call")
    if state.forced_raise_due:
        raise RuleViolation("bluffjack.forced-raise",
                            f"{player}, left of the dealer, must raise by {state.rules.minimum_raise}")


def can_call(state: BluffjackState, player: str) -> bool:
    return can(verify_call, state, player)


def call(state: BluffjackState, player: str) -> list[Event]:
    """Put in what is owed (all-in if the stack is short); a check when nothing is owed."""
    verify_call(state, player)
    seat = state.player(player)
    chips = min(state.to_call(seat), state.players[seat].stack)
    _put(state, seat, chips)
    state.acted.add(seat)
    _after_bet(state, seat)
    return [DecisionMade(f"player:{player}", "call" if chips else "check", str(chips))]


def verify_raise(state: BluffjackState, player: str, by: int) -> None:
    """A raise of ``by`` chips over the call, within the stack, at least the minimum unless all-in."""
    seat = _in_betting_turn(state, player, "raise")
    if isinstance(by, bool) or not isinstance(by, int) or by < 1:
        raise InvalidInput(f"a raise is a whole number of chips, 1 or more; got {by!r}", field="by")
    p = state.players[seat]
    owed = state.to_call(seat)
    if owed + by > p.stack:
        raise RuleViolation(
            "bluffjack.raise-exceeds-stack",
            f"{player} holds {p.stack} chips: calling {owed} and raising {by} needs {owed + by}",
        )
    all_in = owed + by == p.stack
    minimum = state.rules.minimum_raise
    if state.forced_raise_due and by != minimum and not (all_in and by < minimum):
        raise RuleViolation("bluffjack.forced-raise",
                            f"{player}, left of the dealer, must raise by exactly {minimum}, not {by}")
    if by < minimum and not all_in:
        raise RuleViolation("bluffjack.minimum-raise", f"a raise is at least {minimum} chips unless all-in; got {by}")


def can_raise(state: BluffjackState, player: str, by: int) -> bool:
    return can(verify_raise, state, player, by)


def raise_(state: BluffjackState, player: str, by: int) -> list[Event]:
    """Call and raise by ``by`` chips; everyone else must answer again."""
    verify_raise(state, player, by)
    seat = state.player(player)
    chips = state.to_call(seat) + by
    forced = state.forced_raise_due
    _put(state, seat, chips)
    state.forced_raise_due = False
    state.acted = {seat}
    _after_bet(state, seat)
    return [DecisionMade(f"player:{player}", "raise", str(chips), forced=forced)]


def verify_fold(state: BluffjackState, player: str) -> None:
    """Fold: the player's betting turn, a bet is owed, and not the forced raise."""
    seat = _in_betting_turn(state, player, "fold")
    if state.forced_raise_due:
        raise RuleViolation("bluffjack.forced-raise",
                            f"{player}, left of the dealer, must raise by {state.rules.minimum_raise}")
    if state.to_call(seat) <= 0:
        raise RuleViolation("bluffjack.fold-with-nothing-owed", f"{player} owes nothing: check instead of folding")


def can_fold(state: BluffjackState, player: str) -> bool:
    return can(verify_fold, state, player)


def fold(state: BluffjackState, player: str) -> list[Event]:
    """The player gives up the hand and whatever he has put in."""
    verify_fold(state, player)
    seat = state.player(player)
    state.players[seat].folded = True
    state.acted.discard(seat)
    _after_bet(state, seat)
    return [DecisionMade(f"player:{player}", "fold")]


# -------------------------------------------------------------------------------------- resolution


def resolve_pots(state: BluffjackState) -> list[PotResult]:
    """Split the pot into main and side pots and resolve each (does not move chips)."""
    rules = state.rules
    seats = state.order
    committed = {i: state.players[i].committed for i in seats}
    live = _live(state)
    levels = sorted({c for c in committed.values() if c > 0})
    pots: list[tuple[int, list[int], dict[int, int]]] = []
    prev = 0
    for level in levels:
        part = {i: min(c, level) - min(c, prev) for i, c in committed.items()}
        eligible = [i for i in live if committed[i] >= level]
        if pots and (not eligible or eligible == pots[-1][1]):
            # Same claimants as the pot below (a folded player's chips), or none at all (cannot happen,
            # see "Folding" above): one pot, not a side pot.
            amount, elig, merged = pots[-1]
            pots[-1] = (amount + sum(part.values()), elig, {i: merged[i] + part[i] for i in merged})
        else:
            pots.append((sum(part.values()), eligible, part))
        prev = level
    if state.pot_extra:
        if pots:
            pots[0] = (pots[0][0] + state.pot_extra, pots[0][1], pots[0][2])
        else:
            pots.append((state.pot_extra, live, {}))
    results = []
    lone_hand = len(live) == 1
    for k, (amount, eligible, part) in enumerate(pots):
        contributions = {state.players[i].name: v for i, v in part.items() if v}
        name = "pot" if k == 0 else f"side-pot-{k}"
        names = [state.players[i].name for i in eligible]
        if len(eligible) == 1:
            w = names[0]
            why = ("every other player folded" if lone_hand
                   else "no other player in the hand put chips in at this level")
            results.append(PotResult(name, amount, names, "win", [w], {w: amount}, 0, "",
                                     f"{w} wins {amount}: {why} (wins even if over 21)", contributions))
            continue
        keys = {i: hand_key(state.players[i].cards, rules) for i in eligible}
        hands = ", ".join(f"{state.players[i].name} {describe_hand(state.players[i].cards, rules)}" for i in eligible)
        if all(key == (0,) for key in keys.values()):
            to = "set-aside" if rules.no_house else "house"
            results.append(PotResult(name, amount, names, to, [], {}, 0, "",
                                     f"all players in contention are over 21 ({hands}): {amount} to the "
                                     + ("side for the last remaining player (no house)" if rules.no_house else "house"),
                                     contributions))
            continue
        best = max(keys.values())
        winners = [i for i in eligible if keys[i] == best]
        wnames = [state.players[i].name for i in winners]
        share, rem = divmod(amount, len(winners))
        shares = {n: share for n in wnames}
        rem_to = ""
        if rem:
            if rules.odd_chip == "first_left_of_dealer":
                for n in wnames[:rem]:
                    shares[n] += 1
                rem_to = ",".join(wnames[:rem])
            elif rules.odd_chip == "house":
                rem_to = "set-aside" if rules.no_house else "house"
            else:
                rem_to = "next-pot"
        if len(winners) == 1:
            detail = f"{wnames[0]} wins {amount} with the best hand ({hands})"
        else:
            detail = f"{' and '.join(wnames)} tie ({hands}) and split {amount}: {share} each"
            if rem:
                detail += f"; {rem} odd chip{'s' if rem > 1 else ''} to {rem_to.replace(',', ', ')} (odd_chip={rules.odd_chip})"
        results.append(PotResult(name, amount, names, "win" if len(winners) == 1 else "split", wnames,
                                 shares, rem, rem_to, detail, contributions))
    return results


def settlement_lines(state: BluffjackState, pots: list[PotResult]) -> dict[str, list[dict[str, Any]]]:
    """Per player, one line per pot he put chips into or won: wager (his part), result, net, detail."""
    names = [state.players[i].name for i in state.order]
    live = {state.players[i].name for i in _live(state)}
    lines: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
    for pot in pots:
        for name in names:
            wager = pot.contributions.get(name, 0)
            won = pot.shares.get(name, 0)
            if not wager and not won:
                continue
            if name not in live:
                result, detail = "fold", f"{name} folded; {pot.detail}"
            elif name in pot.shares:
                result, detail = pot.result, pot.detail
            else:
                result, detail = ("bust" if pot.result in ("house", "set-aside") else "lose"), pot.detail
            lines[name].append({"bet": pot.name, "wager": wager, "result": result, "net": won - wager,
                                "detail": detail})
    return lines


def verify_settle(state: BluffjackState) -> None:
    """Settle only when the hand is over (one player left, or the final betting round closed)."""
    if state.phase != "showdown":
        raise RuleViolation("bluffjack.hand-not-over", f"the hand is not over (phase {state.phase!r})")


def can_settle(state: BluffjackState) -> bool:
    return can(verify_settle, state)


def settle(state: BluffjackState) -> list[Event]:  # noqa: C901  (complexity ratchet: existing, to be split)
    """Pay the pots, eliminate players without chips, pass the button left, end the game if won."""
    verify_settle(state)
    pots = resolve_pots(state)
    lines = settlement_lines(state, pots)
    for pot in pots:
        for name, chips in pot.shares.items():
            state.players[state.player(name)].stack += chips
        if pot.result == "house":
            state.house += pot.amount
        elif pot.result == "set-aside":
            state.set_aside += pot.amount
        if pot.remainder:
            if pot.remainder_to == "house":
                state.house += pot.remainder
            elif pot.remainder_to == "set-aside":
                state.set_aside += pot.remainder
            elif pot.remainder_to == "next-pot":
                state.carry += pot.remainder
    for p in state.players:
        p.committed = 0
    state.pot_extra = 0
    state.last_pots, state.last_lines = pots, lines
    events: list[Event] = [RoundSettled(tuple({"player": n, "lines": ls} for n, ls in lines.items()))]
    hand_players = list(state.order)
    if all(state.players[i].stack == 0 for i in hand_players) and state.rules.no_house:
        # Nobody would be left to take the set-aside chips: share them among this hand's players.
        share, rem = divmod(state.set_aside + state.carry, len(hand_players))
        for k, i in enumerate(hand_players):
            state.players[i].stack += share + (1 if k < rem else 0)
        state.set_aside = state.carry = 0
    for p in state.players:
        if not p.eliminated and p.stack == 0:
            p.eliminated = True
            events.append(PlayerEliminated(p.name))
    holders = [i for i, p in enumerate(state.players) if not p.eliminated]
    state.turn, state.street, state.acted, state.order = None, "", set(), []
    if len(holders) <= 1:
        state.phase = "over"
        collected = 0
        if holders:
            w = state.players[holders[0]]
            collected = state.carry + (state.set_aside if state.rules.no_house else 0)
            w.stack += collected
            state.carry = 0
            if state.rules.no_house:
                state.set_aside = 0
            state.winner = w.name
        events.append(GameWon(state.winner, collected))
        return events
    n = len(state.players)
    state.button = next((state.button + k) % n for k in range(1, n + 1)
                        if not state.players[(state.button + k) % n].eliminated)
    state.phase = "ready"
    return events


# -------------------------------------------------------------------------------------- next step


def next_step(state: BluffjackState) -> Prompt:
    """What the table waits for now."""
    extra = {"pot": state.pot, "hand": state.hand_number}
    if state.phase == "over":
        return Prompt("over", None, "nothing", reason=f"game over: {state.winner or 'nobody'} holds the chips", extra=extra)
    if state.phase == "ready":
        return Prompt("ready", "dealer", "start_hand", ("start_hand",),
                      reason=f"start hand {state.hand_number + 1}: antes of {state.rules.ante}; "
                             f"{state.players[state.button].name} deals", extra=extra)
    if state.phase == "showdown":
        return Prompt("showdown", "dealer", "settle", ("settle",), reason="the hand is over: settle the pot", extra=extra)
    if state.phase == "deal":
        seat, face_up = state.deal_queue[0]
        return Prompt("deal", actor(state, seat), "card",
                      reason=f"deal {state.players[seat].name} a card face {'up' if face_up else 'down'}", extra=extra)
    assert state.turn is not None
    seat = state.turn
    who = actor(state, seat)
    p = state.players[seat]
    if state.phase == "draw" and state.draw_step == "decide":
        return Prompt("draw", who, "decision", ("hit", "stand"),
                      reason=f"{p.name} holds {describe_hand(p.cards, state.rules)}: hit or stand", extra=extra)
    if state.phase == "draw" and state.draw_step == "card":
        return Prompt("draw", who, "card", reason=f"deal {p.name} the card they asked for", extra=extra)
    owed = state.to_call(seat)
    extra |= {"to_call": owed, "stack": p.stack, "minimum_raise": state.rules.minimum_raise}
    if state.forced_raise_due:
        return Prompt(state.phase, who, "decision", ("raise",), forced="raise",
                      reason=f"{p.name}, left of the dealer, must raise by {state.rules.minimum_raise}", extra=extra)
    allowed = ["call"]
    if p.stack > owed:
        allowed.append("raise")
    if owed > 0:
        allowed.append("fold")
    why = f"{p.name}: " + (f"call {min(owed, p.stack)}, raise or fold" if owed else "check or raise")
    if state.phase == "draw" and p.stood:
        why = f"{p.name} has stood but must still call or raise (or fold): {min(owed, p.stack)} to call"
    return Prompt(state.phase, who, "decision", tuple(allowed), reason=why, extra=extra)


# ------------------------------------------------------------------------------------ verification


def _chips(value: object, field_name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput(f"chips are a whole number, 0 or more; got {value!r}", field=field_name)
    return value


def verify(request: dict[str, Any]) -> dict[str, Any]:  # noqa: C901  (complexity ratchet: existing, to be split)
    """Verify a finished Bluffjack hand (see the module docstring for the documents)."""
    rules = rules_from_params("bluffjack", request.get("rules"))
    assert isinstance(rules, BluffjackRules)
    raw_players = request.get("players")
    if not isinstance(raw_players, list) or len(raw_players) < 2:
        raise InvalidInput("players must be a list of 2 or more players in seat order", field="players")
    names: list[str] = []
    stacks: dict[str, int] = {}
    cards: dict[str, list[Card]] = {}
    for k, raw in enumerate(raw_players):
        f = f"players[{k}]"
        if not isinstance(raw, dict):
            raise InvalidInput("each player is an object {player, stack, cards}", field=f)
        name = raw.get("player")
        if not isinstance(name, str) or not name or name in stacks:
            raise InvalidInput(f"player must be a distinct non-empty name, got {name!r}", field=f"{f}.player")
        names.append(name)
        stacks[name] = _chips(raw.get("stack"), f"{f}.stack")
        cards[name] = parse_cards(raw.get("cards", []), field=f"{f}.cards")
    dealer = request.get("dealer", names[0])
    if dealer not in stacks:
        raise InvalidInput(f"dealer {dealer!r} is not one of the players", field="dealer")
    state = new_game(rules, names, dealer=dealer, stacks=stacks)
    state.carry = _chips(request.get("carry", 0), "carry")
    state.total_chips = state.chips_in_play
    actions = request.get("actions", [])
    if not isinstance(actions, list):
        raise InvalidInput("actions must be a list", field="actions")
    violations: list[dict[str, str]] = []
    start_hand(state)
    next_card = dict.fromkeys(names, 0)
    a = 0

    def deal_next(seat: int) -> None:
        name = state.players[seat].name
        hand = cards[name]
        if next_card[name] >= len(hand):
            raise InvalidInput(f"{name} needs another card here but only {len(hand)} are listed",
                               field=f"players[{names.index(name)}].cards")
        card = hand[next_card[name]]
        try:
            deal(state, card)
        except InvalidInput as exc:
            exc.field = f"players[{names.index(name)}].cards[{next_card[name]}]"
            raise
        next_card[name] += 1

    stopped = False
    while state.phase not in ("showdown", "over"):
        prompt = next_step(state)
        if prompt.needs == "card":
            assert state.phase == "deal" or state.turn is not None
            deal_next(state.deal_queue[0][0] if state.phase == "deal" else state.turn)  # type: ignore[arg-type]
            continue
        if a >= len(actions):
            raise InvalidInput(f"the hand is not finished: next, {prompt.reason}", field="actions")
        act = actions[a]
        f = f"actions[{a}]"
        if not isinstance(act, dict) or not isinstance(act.get("player"), str) or "action" not in act:
            raise InvalidInput("each action is {player, action[, by]}", field=f)
        who, what = act["player"], act["action"]
        if who not in stacks:
            raise InvalidInput(f"unknown player {who!r}", field=f"{f}.player")
        try:
            if what in ("call", "check"):
                call(state, who)
            elif what == "raise":
                raise_(state, who, act.get("by"))  # type: ignore[arg-type]
            elif what == "fold":
                fold(state, who)
            elif what == "hit":
                hit(state, who)
            elif what == "stand":
                stand(state, who)
            else:
                raise InvalidInput(f"unknown action {what!r}: call, check, raise, fold, hit or stand", field=f"{f}.action")
        except RuleViolation as exc:
            violations.append({"rule": exc.rule, "message": f"{f}: {exc.message}; the rest of the hand "
                               f"({len(actions) - a} action(s)) was not replayed"})
            stopped = True
            break
        except InvalidInput as exc:
            if exc.field == "by":
                exc.field = f"{f}.by"
            raise
        a += 1
    if stopped:
        # Settle as the hand lies: every listed card counts, and nobody else folds.
        for name in names:
            state.players[state.player(name)].cards = list(cards[name])
        state.phase = "showdown"
    else:
        if a < len(actions):
            violations.append({"rule": "bluffjack.action-after-hand-over",
                               "message": f"actions[{a}] and after: the hand was already over"})
        for k, name in enumerate(names):
            if next_card[name] < len(cards[name]):
                violations.append({"rule": "bluffjack.card-not-dealt",
                                   "message": f"players[{k}].cards: {format_cards(cards[name][next_card[name]:])} "
                                              f"listed for {name} but never dealt in this hand"})
    committed = {p.name: p.committed for p in state.players}
    settle(state)
    lines_by = state.last_lines
    won = {n: sum(pot.shares.get(n, 0) for pot in state.last_pots) for n in names}
    players_out = []
    for name in names:
        lines = lines_by.get(name, [])
        players_out.append({"player": name, "committed": committed[name], "won": won[name],
                            "stack_after": state.players[state.player(name)].stack,
                            "lines": lines, "total_net": won[name] - committed[name]})
    house_take = state.house
    discrepancies = []
    paid = request.get("paid")
    if paid is not None:
        if not isinstance(paid, dict):
            raise InvalidInput("paid maps a player (or 'house') to the chips pushed to him", field="paid")
        due = {n: won[n] for n in names} | {"house": house_take}
        for key in sorted(set(paid) | {k for k, v in due.items() if v}):
            if key not in due:
                raise InvalidInput(f"unknown player {key!r}", field=f"paid.{key}")
            p = _chips(paid.get(key, 0), f"paid.{key}")
            if p != due[key]:
                discrepancies.append({"player": key, "paid": p, "due": due[key], "difference": p - due[key]})
    return {"game": "bluffjack", "players": players_out, "pots": [p.as_json() for p in state.last_pots],
            "house": house_take, "set_aside": state.set_aside, "carry": state.carry,
            "violations": violations, "discrepancies": discrepancies}
