"""Contract Rummy (second part of shared/rules/dealer-upcard-and-contract-rummy.txt): melds, contracts, scores.

Melds.  A set is ``rules.set_min`` (3) or more cards of one rank; a sequence is
``rules.sequence_min`` (4) or more consecutive cards of one suit, the Ace high (Q-K-A) or low
(A-2-3), never round the corner (K-A-2).  Jokers, and deuces under ``deuces_wild``, are wild: each
stands for a declared card, written ``JK=9H`` (a deuce: ``2C=9H``; a deuce written plainly is the
deuce itself).  A wild left undeclared is given the card it must stand for (the lowest gap of a
sequence, else its upper end, else its lower end; in a set, the rank of the set in the first suit
not already shown) and the declaration is reported, so the dealer can read it out.

Contracts are rule-set data (``rules.deals``: cards dealt and the list of melds asked for).  A
contract is met only by exactly the melds it asks for, no more and no fewer; two sequences of one
suit must be separated by at least one card (3-4-5-6 and 7-8-9-T of hearts touch and are refused;
so are overlapping ones).  Melds may be longer than the minimum unless ``contract_exact_size``.

Dealer-assist helpers: ``verify_contract(cards_or_melds, deal_number, rules)`` checks a laid-down
contract — either melds (lists of codes) or a flat list of scanned cards, which is split into the
contract's melds if that can be done — and ``score_hand(cards, rules)`` scores the cards left in a
hand.  ``find_contract(hand, deal_number, rules)`` finds melds in a hand that would meet a contract.

Live flow: ``new_game(rules, players, dealer=...)``, then per deal ``start_deal(state, shoe_order)``
and the turn actions, each a verify_/can_/do triple that refuses with ``RuleViolation`` and leaves
the state unchanged: ``take_discard``, ``decline_discard``, ``claim_discard`` / ``pass_claim`` (the
out-of-turn claim, with its penalty card from the stock), ``draw_stock``, ``reshuffle_discards``,
``lay_down``, ``lay_off``, ``trade_joker``, ``discard``.  ``next_step(state)`` says what comes next.
The engine holds the order of the stock (from the electronic shuffle the service records), so every
card is accounted for: hands + melds + stock + discards = the shoe.

Readings where the text is silent (decided here):

- Shoe by player count: ``rules.shoes`` (published: up to 4 players 2 decks + 1 Joker; 5 to 8
  players 3 decks + 2 Jokers — see rulesets.py).  The first dealer is given (the low-card draw
  happens at the table); the deal passes left; play starts left of the dealer.
- The discard claim: once the player in turn declines the top discard, the right to take it passes
  clockwise from his left to every other player but the one who discarded it (a player does not buy
  back his own discard: "any other player" read as other than the two whose turns it closes and
  opens; the deal's upcard, nobody's discard, may be claimed by all the others); the first to claim
  it takes it plus ``out_of_turn_penalty_cards`` from the stock and does nothing else now.  A claim needs enough stock for the penalty.  Then the player
  in turn draws from the stock.
- Stock exhausted: when a player must draw from an empty stock, the dealer shuffles the whole
  discard pile into a new stock (the text: "the discard pile is shuffled").  If there is no discard
  either, the deal ends with nobody out and every hand is scored.
- Laying off and trading a Joker need the player's own contract met on an earlier turn ("in the
  subsequent turns"); trading gives the exact declared card for the wild, which goes to the hand.
  Lay-offs are not bound by the separation rule (it governs the contract).
- Every turn ends with a discard, so a player never melds or lays off his last card: going out is
  discarding the last card.
- Scoring: ``card_scores`` by rank (published: 2-9 face, T J Q K 10, A 15, Joker 25); with
  ``numbers_score_five`` 2-9 score 5; with ``deuces_wild`` a deuce scores as a Joker (this wins over
  ``numbers_score_five``).  Cumulative scores; lowest total after the last deal wins (ties share).
  The bonus-points and out-of-turn Joker substitution variants of the text are not implemented.

Verification (``verify(request)`` via ``tables.engine.verify_round``), a finished deal::

    {"game": "contract-rummy", "rules": {...}, "deal": 6,
     "players": [{"player": "ann", "contract": [["7S", "7H", "7D"], ["3H", "4H", "JK=5H", "6H"],
                                                ["9C", "TC", "JC", "QC"]],   # as laid down, optional
                  "hand": [], "score_before": 30, "score": 0}, ...]}          # score: claimed, optional

Answer: ``{"game", "deal", "contract", "players": [{"player", "contract_met", "melds", "went_out",
"lines": [{"item": "hand", "cards", "points", "detail"}], "score", "total"}], "violations",
"discrepancies"}``.  Violations: a contract that does not meet the deal's contract, going out without
a contract, more than one player out.  A claimed ``score`` that differs is a discrepancy.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, Rank, Suit, format_cards, parse_card, parse_cards
from ..errors import InvalidInput, RuleViolation
from ..round import DecisionMade, Prompt, can
from ..rulesets import ContractRummyRules, rules_from_params
from ..shoe import ShoeSpec

Event = Any
RANKS_BY_VALUE = {int(r): r for r in Rank} | {1: Rank.ACE}


# --------------------------------------------------------------------------------------------- cards


def is_wild(card: Card, rules: ContractRummyRules) -> bool:
    """Jokers always; deuces too under ``deuces_wild``."""
    return card.is_joker or (rules.deuces_wild and card.rank is Rank.TWO)


def card_score(card: Card, rules: ContractRummyRules) -> int:
    """Points a card left in hand counts."""
    if card.rank is None:
        return rules.card_scores["JK"]
    if rules.deuces_wild and card.rank is Rank.TWO:
        return rules.card_scores["JK"]  # "they also count for 25 points"
    if rules.numbers_score_five and Rank.TWO <= card.rank <= Rank.NINE:
        return 5
    return rules.card_scores[card.rank.code]


def score_hand(cards: Iterable[Card | str], rules: ContractRummyRules | None = None) -> int:
    """The score of the cards left in a hand (codes or cards)."""
    rules = rules or ContractRummyRules()
    return sum(card_score(parse_card(c, field="cards"), rules) for c in cards)


def score_detail(cards: Sequence[Card], rules: ContractRummyRules) -> str:
    """The score written out (``"KD 10 + AS 15 + JK 25 = 50"``)."""
    if not cards:
        return "no cards left: 0"
    parts = " + ".join(f"{c.code} {card_score(c, rules)}" for c in cards)
    return f"{parts} = {sum(card_score(c, rules) for c in cards)}"


# --------------------------------------------------------------------------------------------- melds


@dataclass(frozen=True, slots=True)
class MeldCard:
    """A card in a meld: the physical ``card`` and the card it stands for (itself unless wild)."""

    card: Card
    as_card: Card

    @property
    def code(self) -> str:
        return self.card.code if self.card == self.as_card else f"{self.card.code}={self.as_card.code}"


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid set or sequence; a sequence's cards run from ``low`` to ``high`` (Ace 1 or 14)."""

    kind: str  # set | sequence
    cards: tuple[MeldCard, ...]
    low: int = 0
    high: int = 0
    owner: str = ""

    @property
    def suit(self) -> Suit | None:
        return self.cards[0].as_card.suit if self.kind == "sequence" else None

    @property
    def rank(self) -> Rank | None:
        return self.cards[0].as_card.rank if self.kind == "set" else None

    def codes(self) -> list[str]:
        return [m.code for m in self.cards]

    def physical(self) -> list[Card]:
        return [m.card for m in self.cards]

    def describe(self) -> str:
        if self.kind == "set":
            assert self.rank is not None
            return f"set of {self.rank.code}s ({' '.join(self.codes())})"
        return f"sequence {' '.join(self.codes())}"


def parse_meld_card(token: object, rules: ContractRummyRules, *, field: str) -> tuple[Card, Card | None]:
    """``"9H"`` → (9H, 9H); ``"JK=9H"`` → (JK, 9H); a wild without declaration → (JK, None)."""
    if isinstance(token, MeldCard):
        return token.card, token.as_card
    if isinstance(token, tuple) and len(token) == 2 and isinstance(token[0], Card):
        return token[0], token[1]  # already parsed (the contract search passes these)
    if isinstance(token, str) and "=" in token:
        left, right = token.split("=", 1)
        card, as_card = parse_card(left, field=field), parse_card(right, field=field)
        if as_card.is_joker:
            raise InvalidInput("a wild card is declared as a real card, e.g. JK=9H", field=field)
        if not is_wild(card, rules) and card != as_card:
            raise InvalidInput(f"{card.code} is not wild and cannot stand for {as_card.code}", field=field)
        return card, as_card
    card = parse_card(token, field=field)
    return card, (None if card.is_joker else card)  # a plain deuce is itself, even when deuces are wild


def _seq_value_options(rank: Rank) -> tuple[int, ...]:
    return (1, 14) if rank is Rank.ACE else (int(rank),)


def _card_of(value: int, suit: Suit) -> Card:
    return Card(RANKS_BY_VALUE[value], suit)


def _as_set(items: list[tuple[Card, Card | None]], rules: ContractRummyRules) -> Meld:
    if len(items) < rules.set_min:
        raise RuleViolation("rummy.meld-too-short", f"a set needs {rules.set_min} or more cards, got {len(items)}")
    ranks = {a.rank for _, a in items if a is not None}
    if len(ranks) > 1:
        raise RuleViolation("rummy.set-mixed-ranks",
                            f"a set is cards of one rank; got {', '.join(sorted(r.code for r in ranks if r))}")
    if not ranks:
        raise RuleViolation("rummy.wild-undeclared", "a set of wild cards only: declare the rank it stands for")
    rank = ranks.pop()
    assert rank is not None
    shown = [a.suit for _, a in items if a is not None]
    free = [s for s in Suit if s not in shown] or list(Suit)
    out = []
    for card, as_card in items:
        if as_card is None:
            as_card = Card(rank, free[0])
            free = free[1:] or list(Suit)
        out.append(MeldCard(card, as_card))
    return Meld("set", tuple(out))


def _as_sequence(items: list[tuple[Card, Card | None]], rules: ContractRummyRules) -> list[Meld]:
    """Every valid reading of ``items`` as a sequence (an Ace may read low or high); [] if none."""
    if len(items) < rules.sequence_min:
        raise RuleViolation("rummy.meld-too-short",
                            f"a sequence needs {rules.sequence_min} or more cards, got {len(items)}")
    suits = {a.suit for _, a in items if a is not None}
    if len(suits) > 1:
        raise RuleViolation("rummy.sequence-mixed-suits",
                            f"a sequence is cards of one suit; got {', '.join(sorted(str(s) for s in suits))}")
    if not suits:
        raise RuleViolation("rummy.wild-undeclared", "a sequence of wild cards only: declare the cards it stands for")
    suit = suits.pop()
    assert suit is not None
    fixed = [(c, a) for c, a in items if a is not None]
    wilds = [c for c, a in items if a is None]
    readings: list[Meld] = []
    for values in itertools.product(*(_seq_value_options(a.rank) for _, a in fixed if a.rank)):
        if len(set(values)) != len(values):
            continue
        lo, hi = min(values), max(values)
        gaps = [v for v in range(lo, hi + 1) if v not in values]
        if len(gaps) > len(wilds):
            continue
        extra = len(wilds) - len(gaps)
        up = min(extra, 14 - hi)  # spare wilds extend the top first, then the bottom
        down = extra - up
        if lo - down < 1:
            continue
        fill = gaps + list(range(hi + 1, hi + 1 + up)) + list(range(lo - down, lo))
        placed = [(v, MeldCard(c, a)) for v, (c, a) in zip(values, fixed, strict=True)]
        placed += [(v, MeldCard(w, _card_of(v, suit))) for v, w in zip(fill, wilds, strict=True)]
        placed.sort(key=lambda p: p[0])
        meld = Meld("sequence", tuple(m for _, m in placed), placed[0][0], placed[-1][0])
        if meld not in readings:
            readings.append(meld)
    return readings


def _sequence_failure(items: list[tuple[Card, Card | None]]) -> RuleViolation:
    ranks = {a.rank for _, a in items if a is not None}
    if Rank.ACE in ranks and Rank.KING in ranks and Rank.TWO in ranks:
        return RuleViolation("rummy.round-the-corner",
                             "a sequence may not go round the corner (K-A-2): the Ace is either high or low")
    return RuleViolation("rummy.sequence-not-consecutive",
                         f"not consecutive: {format_cards(a for _, a in items if a is not None)}")


def meld_readings(tokens: Sequence[object], rules: ContractRummyRules, kind: str | None = None,
                  *, field: str = "meld") -> list[Meld]:
    """Every valid reading of ``tokens`` as a meld (of ``kind`` if given); ``RuleViolation`` if none."""
    items = [parse_meld_card(t, rules, field=f"{field}[{i}]") for i, t in enumerate(tokens)]
    # Under deuces_wild a plain deuce is itself or a wild: try it as itself first.
    flex = [i for i, (c, a) in enumerate(items) if rules.deuces_wild and c.rank is Rank.TWO and a == c]
    first_errors: list[RuleViolation] = []
    readings: list[Meld] = []
    for as_wild in itertools.product((False, True), repeat=len(flex)):
        trial = list(items)
        for i, w in zip(flex, as_wild, strict=True):
            if w:
                trial[i] = (items[i][0], None)
        errors: list[RuleViolation] = []
        if kind in (None, "set"):
            try:
                readings.append(_as_set(trial, rules))
            except RuleViolation as exc:
                errors.append(exc)
        if kind in (None, "sequence"):
            try:
                found = _as_sequence(trial, rules)
                readings += [m for m in found if m not in readings]
                if not found:
                    errors.append(_sequence_failure(trial))
            except RuleViolation as exc:
                errors.append(exc)
        if not any(as_wild):
            first_errors = errors
        if readings:
            return readings
    errors = first_errors
    if kind is None:
        # name the reason of the reading the cards came closest to: a pair of equal ranks reads as a set
        naturals = [a for _, a in items if a is not None]
        looks_like_set = len({a.rank for a in naturals}) == 1 and len(naturals) > 1
        raise errors[0] if looks_like_set or len(errors) == 1 else errors[1]
    raise errors[0]


def make_meld(tokens: Sequence[object], rules: ContractRummyRules, kind: str | None = None) -> Meld:
    """The meld ``tokens`` make (a set if it reads both ways); ``RuleViolation`` naming the rule if none."""
    return meld_readings(tokens, rules, kind)[0]


def _separated(a: Meld, b: Meld) -> bool:
    return a.suit != b.suit or a.low > b.high + 1 or b.low > a.high + 1


def _plural(kinds: Sequence[str]) -> str:
    c = Counter(kinds)
    words = {1: "one", 2: "two", 3: "three", 4: "four"}
    parts = [f"{words.get(n, str(n))} {k}{'s' if n > 1 else ''}" for k, n in sorted(c.items())]
    return " and ".join(parts) if parts else "no melds"


def check_contract(melds: Sequence[Sequence[object]], contract: Sequence[str], rules: ContractRummyRules,
                   *, field: str = "melds") -> list[Meld]:
    """The melds if they meet ``contract`` exactly; else ``RuleViolation`` naming the rule."""
    if len(melds) != len(contract):
        raise RuleViolation("rummy.contract-melds",
                            f"the contract is exactly {_plural(contract)}; {len(melds)} meld(s) were laid down")
    options = [meld_readings(m, rules, field=f"{field}[{i}]") for i, m in enumerate(melds)]
    want = Counter(contract)
    touching: RuleViolation | None = None
    size: RuleViolation | None = None
    for combo in itertools.product(*options):
        if Counter(m.kind for m in combo) != want:
            continue
        seqs = [m for m in combo if m.kind == "sequence"]
        bad = next(((a, b) for a, b in itertools.combinations(seqs, 2) if not _separated(a, b)), None)
        if bad:
            touching = RuleViolation(
                "rummy.sequences-not-separated",
                f"two sequences of one suit must be separated by at least one card: "
                f"{' '.join(bad[0].codes())} and {' '.join(bad[1].codes())}")
            continue
        if rules.contract_exact_size:
            long = next((m for m in combo if len(m.cards) != (rules.set_min if m.kind == "set" else rules.sequence_min)), None)
            if long:
                size = RuleViolation("rummy.contract-exact-size",
                                     f"contract melds are laid at their minimum size: {long.describe()} is longer")
                continue
        return list(combo)
    if touching:
        raise touching
    if size:
        raise size
    got = [options[i][0].kind for i in range(len(options))]
    raise RuleViolation("rummy.contract-melds", f"the contract is exactly {_plural(contract)}; got {_plural(got)}")


@dataclass(frozen=True)
class ContractCheck:
    """Whether laid-down cards meet a deal's contract, the melds read, and the reason if not."""

    met: bool
    contract: tuple[str, ...]
    melds: tuple[Meld, ...] = ()
    rule: str | None = None
    message: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"met": self.met, "contract": list(self.contract), "melds": [m.codes() for m in self.melds],
                "kinds": [m.kind for m in self.melds], "rule": self.rule, "message": self.message}


def contract_of(deal_number: int, rules: ContractRummyRules) -> tuple[str, ...]:
    """The contract of deal ``deal_number`` (1-based)."""
    if isinstance(deal_number, bool) or not isinstance(deal_number, int) or not 1 <= deal_number <= len(rules.deals):
        raise InvalidInput(f"deal is a number from 1 to {len(rules.deals)}, got {deal_number!r}", field="deal")
    return tuple(rules.deals[deal_number - 1]["contract"])


def verify_contract(cards_or_melds: Sequence[Any], deal_number: int,
                    rules: ContractRummyRules | None = None) -> ContractCheck:
    """Check a laid-down contract: melds (lists of codes) or a flat list of scanned cards."""
    rules = rules or ContractRummyRules()
    contract = contract_of(deal_number, rules)
    if not isinstance(cards_or_melds, list | tuple) or not cards_or_melds:
        raise InvalidInput("expected melds (lists of card codes) or a list of card codes", field="cards")
    try:
        if all(isinstance(m, list | tuple | Meld) for m in cards_or_melds):
            melds = [m.codes() if isinstance(m, Meld) else m for m in cards_or_melds]
            found = check_contract(melds, contract, rules)
        else:
            found = _partition(cards_or_melds, contract, rules)
    except RuleViolation as exc:
        return ContractCheck(False, contract, rule=exc.rule, message=exc.message)
    return ContractCheck(True, contract, tuple(found), message=f"{_plural(contract)}: " + "; ".join(m.describe() for m in found))


def _partition(tokens: Sequence[Any], contract: Sequence[str], rules: ContractRummyRules) -> list[Meld]:
    """Split a flat list of cards into exactly the contract's melds, using every card."""
    cards = [parse_meld_card(t, rules, field=f"cards[{i}]") for i, t in enumerate(tokens)]
    cards.sort(key=lambda ca: ca[1] is None or is_wild(ca[0], rules))  # grow each meld from a natural card
    need = sorted(contract)
    found = _partition_rec(cards, list(need), rules, [])
    if found is None:
        raise RuleViolation("rummy.contract-melds",
                            (f"these {len(cards)} cards" if len(cards) != 1 else "one card")
                            + f" cannot be split into exactly {_plural(contract)}"
                            + (" (sequences of one suit must be separated by a card)" if contract.count("sequence") > 1 else ""))
    return found


def _partition_rec(rest: list[tuple[Card, Card | None]], need: list[str], rules: ContractRummyRules,
                   done: list[Meld]) -> list[Meld] | None:
    if not rest:
        return done if not need else None
    if not need or rest[0][1] is None:
        return None  # cards left over, or only wilds left
    first, others = rest[0], rest[1:]
    assert first[1] is not None
    for kind in sorted(set(need)):
        if kind == "set":
            pool = [i for i, (c, a) in enumerate(others) if a is None or is_wild(c, rules) or a.rank == first[1].rank]
        else:
            pool = [i for i, (c, a) in enumerate(others) if a is None or is_wild(c, rules) or a.suit == first[1].suit]
        lo = (rules.set_min if kind == "set" else rules.sequence_min) - 1
        for size in range(lo, len(pool) + 1):
            for pick in itertools.combinations(pool, size):
                chosen = [first] + [others[i] for i in pick]
                try:
                    readings = meld_readings(chosen, rules, kind)
                except RuleViolation:
                    continue
                left = [o for i, o in enumerate(others) if i not in pick]
                for meld in readings:
                    if kind == "sequence" and any(m.kind == "sequence" and not _separated(m, meld) for m in done):
                        continue
                    if rules.contract_exact_size and len(meld.cards) != lo + 1:
                        continue
                    remaining = list(need)
                    remaining.remove(kind)
                    got = _partition_rec(left, remaining, rules, done + [meld])
                    if got is not None:
                        return got
    return None


def find_contract(hand: Sequence[Card], deal_number: int, rules: ContractRummyRules | None = None) -> list[Meld] | None:  # noqa: C901  (complexity ratchet: existing, to be split)
    """Melds of minimum size from ``hand`` that meet the deal's contract (leaving a card to discard), or None."""
    rules = rules or ContractRummyRules()
    contract = sorted(contract_of(deal_number, rules))
    wild_idx = [i for i, c in enumerate(hand) if is_wild(c, rules)]
    # A candidate: kind, the naturals it uses (hand indices), its slots in order (hand index, or None for a
    # wild, with the card each slot stands for), low, high.  Wilds are a count until the end, so no
    # choice of which Joker goes where can hide a solution.
    Slot = tuple[int | None, Card]
    candidates: list[tuple[str, frozenset[int], tuple[Slot, ...], int, int]] = []
    for rank in Rank:
        nat = [i for i, c in enumerate(hand) if c.rank is rank and i not in wild_idx]
        for n_nat in range(max(1, rules.set_min - len(wild_idx)), min(len(nat), rules.set_min) + 1):
            for pick in itertools.combinations(nat, n_nat):
                shown = [hand[i].suit for i in pick]
                free = [s for s in Suit if s not in shown] or list(Suit)
                slots: tuple[Slot, ...] = tuple((i, hand[i]) for i in pick) + tuple(
                    (None, Card(rank, free[k % len(free)])) for k in range(rules.set_min - n_nat))
                candidates.append(("set", frozenset(pick), slots, 0, 0))
    for suit in Suit:
        for start in range(1, 16 - rules.sequence_min):
            values = list(range(start, start + rules.sequence_min))
            options: list[list[int | None]] = []
            for v in values:
                nats = [i for i, c in enumerate(hand) if i not in wild_idx and c.suit is suit and c.rank is RANKS_BY_VALUE[v]]
                options.append(list(nats) if nats else [None])
            for choice in itertools.product(*options):
                if all(i is None for i in choice) or choice.count(None) > len(wild_idx):
                    continue
                slots = tuple((i, _card_of(v, suit)) for i, v in zip(choice, values, strict=True))
                candidates.append(("sequence", frozenset(i for i in choice if i is not None), slots,
                                   start, values[-1]))

    def build(chosen: list[tuple[str, frozenset[int], tuple[Slot, ...], int, int]]) -> list[Meld]:
        wilds = iter(wild_idx)
        melds = []
        for kind, _, slots, lo, hi in chosen:
            cards = tuple(MeldCard(hand[i] if i is not None else hand[next(wilds)], as_card) for i, as_card in slots)
            melds.append(Meld(kind, cards, lo, hi))
        return melds

    def search(need: list[str], used: frozenset[int], wilds: int, done: list[Any]) -> list[Meld] | None:
        if not need:
            return build(done) if len(used) + wilds < len(hand) else None
        for cand in candidates:
            kind, nats, slots, lo, hi = cand
            n_wild = sum(1 for i, _ in slots if i is None)
            if kind != need[0] or used & nats or wilds + n_wild > len(wild_idx):
                continue
            if kind == "sequence" and any(
                    d[0] == "sequence" and d[2][0][1].suit == suit_of(slots) and not (lo > d[4] + 1 or d[3] > hi + 1)
                    for d in done):
                continue
            got = search(need[1:], used | nats, wilds + n_wild, done + [cand])
            if got is not None:
                return got
        return None

    def suit_of(slots: tuple[Slot, ...]) -> Suit | None:
        return slots[0][1].suit

    return search(contract, frozenset(), 0, [])


# --------------------------------------------------------------------------------------------- state


@dataclass
class RummyPlayer:
    """A player: hand, whether his contract is met this deal, and scores."""

    name: str
    hand: list[Card] = field(default_factory=list)
    met_turn: int | None = None  # turn number on which the contract was met this deal
    scores: list[int] = field(default_factory=list)  # per deal

    @property
    def total(self) -> int:
        return sum(self.scores)


@dataclass(frozen=True, slots=True)
class DealScored:
    """Event: the deal is over; ``scores`` per player for this deal, ``out`` who went out (if anyone)."""

    deal: int
    out: str | None
    scores: tuple[tuple[str, int], ...]


@dataclass
class RummyState:
    """A Contract Rummy game followed deal by deal."""

    rules: ContractRummyRules
    players: list[RummyPlayer]  # seat order, clockwise
    dealer: int
    deal_index: int = -1  # 0-based; -1 before the first deal
    phase: str = "ready"  # ready | draw | claim | stock | play | over
    shoe: ShoeSpec | None = None
    stock: list[Card] = field(default_factory=list)  # top card last
    discards: list[Card] = field(default_factory=list)  # top card last
    melds: list[Meld] = field(default_factory=list)
    turn: int = 0
    turn_number: int = 0
    claim_queue: list[int] = field(default_factory=list)
    out: str | None = None
    winners: list[str] = field(default_factory=list)

    def player(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise InvalidInput(f"no player {name!r} at this table", field="player")

    @property
    def deal_number(self) -> int:
        return self.deal_index + 1

    @property
    def contract(self) -> tuple[str, ...]:
        return tuple(self.rules.deals[self.deal_index]["contract"])

    def all_cards(self) -> Counter[Card]:
        """Every card on the table: hands + melds + stock + discards (equals the shoe during a deal)."""
        counts: Counter[Card] = Counter(self.stock) + Counter(self.discards)
        for p in self.players:
            counts.update(p.hand)
        for m in self.melds:
            counts.update(m.physical())
        return counts

    def snapshot(self) -> RummyState:
        return copy.deepcopy(self)


def new_game(rules: ContractRummyRules | None, players: list[str], *, dealer: str | None = None) -> RummyState:
    """Seat the players clockwise; ``dealer`` deals first (the low-card draw is made at the table)."""
    rules = rules or ContractRummyRules()
    if not isinstance(players, list) or len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise InvalidInput("players must be a list of distinct names", field="players")
    shoe = rules.shoe_for(len(players))
    state = RummyState(rules, [RummyPlayer(n) for n in players], 0, shoe=shoe)
    state.dealer = state.player(dealer) if dealer is not None else 0
    return state


def _name(state: RummyState, seat: int) -> str:
    return state.players[seat].name


def _left(state: RummyState, seat: int) -> int:
    return (seat + 1) % len(state.players)


# --------------------------------------------------------------------------------------------- deal


def verify_start_deal(state: RummyState, shoe_order: Sequence[Card]) -> None:
    """A deal starts between deals with a full shoe for this table."""
    if state.phase != "ready":
        raise RuleViolation("rummy.deal-in-progress", f"cannot deal now (phase {state.phase!r})")
    assert state.shoe is not None
    if Counter(shoe_order) != state.shoe.composition():
        raise InvalidInput(f"the shuffled shoe must be exactly {state.shoe.decks} decks + {state.shoe.jokers} Joker(s) "
                           f"({state.shoe.size} cards), got {len(shoe_order)} cards", field="shoe_order")
    cards = state.rules.deals[state.deal_index + 1]["cards"]
    if cards * len(state.players) + 2 > len(shoe_order):
        raise RuleViolation("rummy.shoe-too-small", f"{cards} cards to {len(state.players)} players does not fit the shoe")


def can_start_deal(state: RummyState, shoe_order: Sequence[Card]) -> bool:
    return can(verify_start_deal, state, shoe_order)


def start_deal(state: RummyState, shoe_order: Sequence[Card] | None = None, rng: random.Random | None = None) -> list[Event]:
    """Deal the next deal from ``shoe_order`` (top card first; shuffled here if None)."""
    assert state.shoe is not None
    order = list(shoe_order) if shoe_order is not None else state.shoe.shuffled(rng)
    verify_start_deal(state, order)
    state.deal_index += 1
    cards = state.rules.deals[state.deal_index]["cards"]
    state.melds, state.out, state.claim_queue = [], None, []
    for p in state.players:
        p.hand, p.met_turn = [], None
    deck = list(order)
    n = len(state.players)
    for _ in range(cards):
        for k in range(1, n + 1):  # clockwise from the dealer's left
            state.players[(state.dealer + k) % n].hand.append(deck.pop(0))
    state.discards = [deck.pop(0)]  # the upcard
    state.stock = list(reversed(deck))  # top card last
    state.turn, state.turn_number, state.phase = _left(state, state.dealer), 1, "draw"
    return [DecisionMade(f"player:{_name(state, state.dealer)}", "deal", str(cards))]


# --------------------------------------------------------------------------------------------- turn


def _turn_of(state: RummyState, name: str, phases: tuple[str, ...], action: str) -> int:
    seat = state.player(name)
    if seat != state.turn and state.phase not in ("ready", "over"):
        raise RuleViolation("rummy.out-of-turn", f"{name} cannot {action}: it is {_name(state, state.turn)}'s turn")
    if state.phase not in phases:
        raise RuleViolation(f"rummy.no-{action}-now", f"{name} cannot {action} now (phase {state.phase!r})")
    return seat


def verify_take_discard(state: RummyState, player: str) -> None:
    """The player in turn may take the top discard before drawing."""
    _turn_of(state, player, ("draw",), "take-discard")
    if not state.discards:
        raise RuleViolation("rummy.no-discard", "the discard pile is empty")


def can_take_discard(state: RummyState, player: str) -> bool:
    return can(verify_take_discard, state, player)


def take_discard(state: RummyState, player: str) -> list[Event]:
    """The player in turn takes the top discard as his draw."""
    verify_take_discard(state, player)
    card = state.discards.pop()
    state.players[state.turn].hand.append(card)
    state.phase = "play"
    return [DecisionMade(f"player:{player}", "take-discard", card.code)]


def verify_decline_discard(state: RummyState, player: str) -> None:
    """The player in turn may decline the discard (others may then claim it)."""
    _turn_of(state, player, ("draw",), "decline-discard")


def can_decline_discard(state: RummyState, player: str) -> bool:
    return can(verify_decline_discard, state, player)


def decline_discard(state: RummyState, player: str) -> list[Event]:
    """Decline the discard: the right to it passes clockwise, the player who discarded it left out (the
    player before this one; on the deal's first turn the upcard is nobody's discard); then the player
    draws from the stock."""
    verify_decline_discard(state, player)
    n = len(state.players)
    others = n - 1 if state.turn_number == 1 else n - 2
    state.claim_queue = [(state.turn + k) % n for k in range(1, others + 1)] if state.discards else []
    state.phase = "claim" if state.claim_queue else "stock"
    return [DecisionMade(f"player:{player}", "decline-discard")]


def _claimant(state: RummyState, name: str, action: str) -> int:
    seat = state.player(name)
    if state.phase != "claim":
        raise RuleViolation(f"rummy.no-{action}-now", f"no claim of the discard is open (phase {state.phase!r})")
    if state.claim_queue[0] != seat:
        raise RuleViolation("rummy.claim-out-of-order",
                            f"the right to the discard is with {_name(state, state.claim_queue[0])}, not {name}")
    return seat


def verify_claim_discard(state: RummyState, player: str) -> None:
    """A player out of turn may claim a declined discard when the right reaches him."""
    _claimant(state, player, "claim")
    if len(state.stock) < state.rules.out_of_turn_penalty_cards:
        raise RuleViolation("rummy.claim-needs-stock", "the stock cannot give the penalty card now")


def can_claim_discard(state: RummyState, player: str) -> bool:
    return can(verify_claim_discard, state, player)


def claim_discard(state: RummyState, player: str) -> list[Event]:
    """Take the declined discard out of turn, plus the penalty card(s) from the stock."""
    verify_claim_discard(state, player)
    seat = state.player(player)
    hand = state.players[seat].hand
    card = state.discards.pop()
    hand.append(card)
    penalty = [state.stock.pop() for _ in range(state.rules.out_of_turn_penalty_cards)]
    hand.extend(penalty)
    state.claim_queue, state.phase = [], "stock"
    return [DecisionMade(f"player:{player}", "claim-discard", card.code),
            DecisionMade(f"player:{player}", "penalty-card", format_cards(penalty), forced=True)]


def verify_pass_claim(state: RummyState, player: str) -> None:
    """The player holding the right to the discard may pass it on."""
    _claimant(state, player, "pass")


def can_pass_claim(state: RummyState, player: str) -> bool:
    return can(verify_pass_claim, state, player)


def pass_claim(state: RummyState, player: str) -> list[Event]:
    """Pass the right to the discard to the left; after the last, the player in turn draws."""
    verify_pass_claim(state, player)
    state.claim_queue.pop(0)
    if not state.claim_queue:
        state.phase = "stock"
    return [DecisionMade(f"player:{player}", "pass-claim")]


def verify_draw_stock(state: RummyState, player: str) -> None:
    """The player in turn draws from the stock after the discard is settled; the stock must hold a card."""
    _turn_of(state, player, ("draw", "stock"), "draw-stock")
    if state.phase == "draw" and state.discards:
        raise RuleViolation("rummy.decline-first", "decline the discard first: the others may claim it")
    if not state.stock:
        raise RuleViolation("rummy.stock-empty", "the stock is exhausted: the dealer shuffles the discards first")


def can_draw_stock(state: RummyState, player: str) -> bool:
    return can(verify_draw_stock, state, player)


def draw_stock(state: RummyState, player: str) -> list[Event]:
    """Draw the top card of the stock."""
    verify_draw_stock(state, player)
    card = state.stock.pop()
    state.players[state.turn].hand.append(card)
    state.phase = "play"
    return [DecisionMade(f"player:{player}", "draw-stock", card.code)]


def verify_reshuffle_discards(state: RummyState, order: Sequence[Card] | None = None) -> None:
    """Only when a stock draw is due and the stock is exhausted; ``order`` is the discards reshuffled."""
    if state.phase not in ("draw", "stock") or state.stock:
        raise RuleViolation("rummy.no-reshuffle-now", "the discards are reshuffled only when the stock is exhausted")
    if order is not None and Counter(order) != Counter(state.discards):
        raise InvalidInput("the new stock must be exactly the discard pile, reshuffled", field="order")


def can_reshuffle_discards(state: RummyState) -> bool:
    return can(verify_reshuffle_discards, state)


def reshuffle_discards(state: RummyState, order: Sequence[Card] | None = None,
                       rng: random.Random | None = None) -> list[Event]:
    """The original dealer shuffles the discard pile into a new stock (``order``: top card first).

    With no discards either the deal ends with nobody out and every hand is scored.
    """
    verify_reshuffle_discards(state, order)
    if not state.discards:
        return _end_deal(state, None)
    if order is None:
        order = list(state.discards)
        (rng or random.Random()).shuffle(order)
    state.stock = list(reversed(order))
    state.discards = []
    if state.phase == "draw":
        state.phase = "stock"
    return [DecisionMade(f"player:{_name(state, state.dealer)}", "reshuffle-discards", str(len(state.stock)))]


def _take_from_hand(hand: list[Card], cards: Iterable[Card], who: str) -> list[Card]:
    """``hand`` without ``cards`` (multiset); ``RuleViolation`` if one is not there."""
    left = list(hand)
    for card in cards:
        if card not in left:
            raise RuleViolation("rummy.card-not-in-hand", f"{card.code} is not in {who}'s hand")
        left.remove(card)
    return left


def _in_play(state: RummyState, player: str, action: str) -> int:
    return _turn_of(state, player, ("play",), action)


def verify_lay_down(state: RummyState, player: str, melds: Sequence[Sequence[object]]) -> None:
    """The contract: exactly the deal's melds, from the hand, keeping a card to discard; returns them."""
    _check_lay_down(state, player, melds)


def _check_lay_down(state: RummyState, player: str, melds: Sequence[Sequence[object]]) -> list[Meld]:
    """The contract: exactly the deal's melds, from the hand, keeping a card to discard; returns them."""
    seat = _in_play(state, player, "lay-down")
    p = state.players[seat]
    if p.met_turn is not None:
        raise RuleViolation("rummy.contract-already-met", f"{player} has met this deal's contract: lay off instead")
    found = check_contract(melds, state.contract, state.rules)
    left = _take_from_hand(p.hand, (c for m in found for c in m.physical()), player)
    if not left:
        raise RuleViolation("rummy.keep-a-discard", "every turn ends with a discard: keep one card in hand")
    return found


def can_lay_down(state: RummyState, player: str, melds: Sequence[Sequence[object]]) -> bool:
    return can(verify_lay_down, state, player, melds)


def lay_down(state: RummyState, player: str, melds: Sequence[Sequence[object]]) -> list[Event]:
    """Lay down the contract's melds."""
    found = _check_lay_down(state, player, melds)
    seat = state.player(player)
    p = state.players[seat]
    p.hand = _take_from_hand(p.hand, (c for m in found for c in m.physical()), player)
    for m in found:
        state.melds.append(Meld(m.kind, m.cards, m.low, m.high, owner=player))
    p.met_turn = state.turn_number
    return [DecisionMade(f"player:{player}", "lay-down", " | ".join(" ".join(m.codes()) for m in found))]


def _extended(meld: Meld, card: Card, as_card: Card | None, rules: ContractRummyRules) -> Meld:
    """``meld`` with ``card`` added (at the end it fits); ``RuleViolation`` if it does not fit."""
    if as_card is None and is_wild(card, rules):
        if meld.kind == "set":
            assert meld.rank is not None
            as_card = Card(meld.rank, Suit.SPADES)
        else:
            assert meld.suit is not None
            as_card = _card_of(meld.high + 1 if meld.high < 14 else meld.low - 1, meld.suit) if (
                meld.high < 14 or meld.low > 1) else None
            if as_card is None:
                raise RuleViolation("rummy.lay-off-does-not-fit", f"{meld.describe()} runs from Ace to Ace")
    elif as_card is None:
        as_card = card
    if meld.kind == "set":
        if as_card.rank != meld.rank:
            raise RuleViolation("rummy.lay-off-does-not-fit", f"{as_card.code} does not fit the {meld.describe()}")
        return Meld("set", meld.cards + (MeldCard(card, as_card),), owner=meld.owner)
    assert as_card.rank is not None
    for v in _seq_value_options(as_card.rank):
        if as_card.suit == meld.suit and v in (meld.low - 1, meld.high + 1):
            cards = (MeldCard(card, as_card),) + meld.cards if v < meld.low else meld.cards + (MeldCard(card, as_card),)
            return Meld("sequence", cards, min(v, meld.low), max(v, meld.high), owner=meld.owner)
    if as_card.rank is Rank.ACE or (meld.low == 1 and as_card.rank is Rank.KING) or (meld.high == 14 and as_card.rank is Rank.TWO):
        raise RuleViolation("rummy.round-the-corner", f"{as_card.code} would take the {meld.describe()} round the corner")
    raise RuleViolation("rummy.lay-off-does-not-fit", f"{as_card.code} does not extend the {meld.describe()} at either end")


def _may_lay_off(state: RummyState, player: str, action: str) -> int:
    seat = _in_play(state, player, action)
    p = state.players[seat]
    if p.met_turn is None:
        raise RuleViolation("rummy.contract-not-met", f"{player} must meet his own contract before he may {action}")
    if p.met_turn == state.turn_number:
        raise RuleViolation("rummy.lay-off-next-turn",
                            f"{player} met his contract this turn: he may {action} from his next turn")
    return seat


def _meld_at(state: RummyState, meld: int) -> Meld:
    if isinstance(meld, bool) or not isinstance(meld, int) or not 0 <= meld < len(state.melds):
        raise InvalidInput(f"no meld number {meld!r} on the table ({len(state.melds)} melds)", field="meld")
    return state.melds[meld]


def verify_lay_off(state: RummyState, player: str, card: object, meld: int) -> None:
    """Lay ``card`` (``"JK=9H"`` for a declared wild) off on meld number ``meld``; returns the new meld."""
    _check_lay_off(state, player, card, meld)


def _check_lay_off(state: RummyState, player: str, card: object, meld: int) -> Meld:
    """Lay ``card`` (``"JK=9H"`` for a declared wild) off on meld number ``meld``; returns the new meld."""
    seat = _may_lay_off(state, player, "lay off")
    target = _meld_at(state, meld)
    physical, as_card = parse_meld_card(card, state.rules, field="card")
    left = _take_from_hand(state.players[seat].hand, [physical], player)
    if not left:
        raise RuleViolation("rummy.keep-a-discard", "every turn ends with a discard: keep one card in hand")
    try:
        return _extended(target, physical, as_card, state.rules)
    except RuleViolation:
        if as_card == physical and is_wild(physical, state.rules):  # a plain deuce: itself, else a wild
            return _extended(target, physical, None, state.rules)
        raise


def can_lay_off(state: RummyState, player: str, card: object, meld: int) -> bool:
    return can(verify_lay_off, state, player, card, meld)


def lay_off(state: RummyState, player: str, card: object, meld: int) -> list[Event]:
    """Add a card from the hand to a meld on the table (his own or an opponent's)."""
    new = _check_lay_off(state, player, card, meld)
    seat = state.player(player)
    added = next(m for m in new.cards if m not in state.melds[meld].cards or new.cards.count(m) > state.melds[meld].cards.count(m))
    state.players[seat].hand.remove(added.card)
    state.melds[meld] = new
    return [DecisionMade(f"player:{player}", "lay-off", f"{added.code} on meld {meld}")]


def verify_trade_joker(state: RummyState, player: str, meld: int, card: object) -> None:
    """The real card for a wild in a meld; returns the wild's position in the meld."""
    _check_trade_joker(state, player, meld, card)


def _check_trade_joker(state: RummyState, player: str, meld: int, card: object) -> int:
    """The real card for a wild in a meld; returns the wild's position in the meld."""
    seat = _may_lay_off(state, player, "trade a Joker")
    target = _meld_at(state, meld)
    real = parse_card(card, field="card")
    _take_from_hand(state.players[seat].hand, [real], player)
    for k, m in enumerate(target.cards):
        if m.card != m.as_card and m.as_card == real:
            return k
    raise RuleViolation("rummy.no-wild-for-card", f"no wild card in the {target.describe()} stands for {real.code}")


def can_trade_joker(state: RummyState, player: str, meld: int, card: object) -> bool:
    return can(verify_trade_joker, state, player, meld, card)


def trade_joker(state: RummyState, player: str, meld: int, card: object) -> list[Event]:
    """Put the real card in place of the wild standing for it; the wild goes to the player's hand."""
    k = _check_trade_joker(state, player, meld, card)
    real = parse_card(card)
    target = state.melds[meld]
    wild = target.cards[k].card
    cards = list(target.cards)
    cards[k] = MeldCard(real, real)
    state.melds[meld] = Meld(target.kind, tuple(cards), target.low, target.high, target.owner)
    hand = state.players[state.player(player)].hand
    hand.remove(real)
    hand.append(wild)
    return [DecisionMade(f"player:{player}", "trade-joker", f"{real.code} for {wild.code} in meld {meld}")]


def verify_discard(state: RummyState, player: str, card: object) -> None:
    """The turn ends with a discard of a card from the hand."""
    _check_discard(state, player, card)


def _check_discard(state: RummyState, player: str, card: object) -> Card:
    """The turn ends with a discard of a card from the hand."""
    seat = _in_play(state, player, "discard")
    physical = parse_card(card, field="card")
    _take_from_hand(state.players[seat].hand, [physical], player)
    return physical


def can_discard(state: RummyState, player: str, card: object) -> bool:
    return can(verify_discard, state, player, card)


def discard(state: RummyState, player: str, card: object) -> list[Event]:
    """Discard, ending the turn; discarding the last card goes out and ends the deal."""
    physical = _check_discard(state, player, card)
    p = state.players[state.turn]
    p.hand.remove(physical)
    state.discards.append(physical)
    events: list[Event] = [DecisionMade(f"player:{player}", "discard", physical.code)]
    if not p.hand:
        return events + _end_deal(state, player)
    state.turn = _left(state, state.turn)
    state.turn_number += 1
    state.phase = "draw"
    return events


def _end_deal(state: RummyState, out: str | None) -> list[Event]:
    scores = tuple((p.name, score_hand(p.hand, state.rules)) for p in state.players)
    for p, (_, s) in zip(state.players, scores, strict=True):
        p.scores.append(s)
    state.out = out
    state.dealer = _left(state, state.dealer)
    events: list[Event] = [DealScored(state.deal_number, out, scores)]
    if state.deal_number >= len(state.rules.deals):
        best = min(p.total for p in state.players)
        state.winners = [p.name for p in state.players if p.total == best]
        state.phase = "over"
    else:
        state.phase = "ready"
    return events


def next_step(state: RummyState) -> Prompt:
    """What the table waits for now."""
    extra: dict[str, Any] = {"deal": state.deal_number, "stock": len(state.stock),
                             "top_discard": state.discards[-1].code if state.discards else None}
    if state.phase == "over":
        return Prompt("over", None, "nothing", reason=f"game over: lowest score {', '.join(state.winners)}", extra=extra)
    if state.phase == "ready":
        nxt = state.rules.deals[state.deal_index + 1]
        return Prompt("ready", "dealer", "start_deal", ("start_deal",),
                      reason=f"deal {state.deal_number + 1}: {nxt['cards']} cards each, contract {_plural(nxt['contract'])}; "
                             f"{_name(state, state.dealer)} deals", extra=extra)
    who = f"player:{_name(state, state.turn)}"
    if state.phase == "claim":
        seat = state.claim_queue[0]
        if len(state.stock) < state.rules.out_of_turn_penalty_cards:  # no claim without its penalty card(s)
            return Prompt("claim", f"player:{_name(state, seat)}", "decision", ("pass_claim",), forced="pass_claim",
                          reason=f"{_name(state, seat)} passes the {state.discards[-1].code}: the stock cannot give "
                                 "the penalty card for an out-of-turn claim", extra=extra)
        return Prompt("claim", f"player:{_name(state, seat)}", "decision", ("claim_discard", "pass_claim"),
                      reason=f"{_name(state, seat)} may take the {state.discards[-1].code} out of turn "
                             f"(plus {state.rules.out_of_turn_penalty_cards} penalty card from the stock) or pass", extra=extra)
    if state.phase in ("draw", "stock") and not state.stock and not (state.phase == "draw" and state.discards):
        return Prompt(state.phase, "dealer", "reshuffle", ("reshuffle_discards",),
                      reason="the stock is exhausted: the dealer shuffles the discard pile into a new stock", extra=extra)
    if state.phase == "draw":
        return Prompt("draw", who, "decision", ("take_discard", "decline_discard"),
                      reason=f"{_name(state, state.turn)}: take the {state.discards[-1].code} or decline it", extra=extra)
    if state.phase == "stock":
        return Prompt("stock", who, "decision", ("draw_stock",), forced="draw_stock",
                      reason=f"{_name(state, state.turn)} draws the top card of the stock", extra=extra)
    p = state.players[state.turn]
    allowed = ["discard"]
    if p.met_turn is None:
        allowed.insert(0, "lay_down")
    elif p.met_turn < state.turn_number:
        allowed[:0] = ["lay_off", "trade_joker"]
    return Prompt("play", who, "decision", tuple(allowed),
                  reason=f"{p.name}: " + ("lay down the contract if you can, " if p.met_turn is None else "")
                  + ("lay off if you wish, " if "lay_off" in allowed else "") + "then discard", extra=extra)


# ------------------------------------------------------------------------------------- verification


def verify(request: dict[str, Any]) -> dict[str, Any]:  # noqa: C901  (complexity ratchet: existing, to be split)
    """Verify a finished deal: contracts laid down, who went out, each player's score (module docstring)."""
    rules = rules_from_params("contract-rummy", request.get("rules"))
    assert isinstance(rules, ContractRummyRules)
    deal_number = request.get("deal")
    contract = contract_of(deal_number, rules)  # type: ignore[arg-type]
    raw = request.get("players")
    if not isinstance(raw, list) or not raw:
        raise InvalidInput("players must be a non-empty list", field="players")
    shoe = rules.shoe_for(len(raw))
    seen: Counter[Card] = Counter()
    out_players, violations, discrepancies = [], [], []
    names: set[str] = set()
    gone_out = []
    for k, pl in enumerate(raw):
        f = f"players[{k}]"
        if not isinstance(pl, dict) or not isinstance(pl.get("player"), str) or pl["player"] in names:
            raise InvalidInput("each player is {player, hand[, contract, score_before, score]} with a distinct name", field=f)
        name = pl["player"]
        names.add(name)
        hand = parse_cards(pl.get("hand", []), field=f"{f}.hand")
        seen.update(hand)
        laid = pl.get("contract")
        met, melds = False, []
        if laid is not None:
            if not isinstance(laid, list) or not all(isinstance(m, list) for m in laid):
                raise InvalidInput("contract is a list of melds, each a list of card codes", field=f"{f}.contract")
            for i, m in enumerate(laid):
                seen.update(parse_meld_card(t, rules, field=f"{f}.contract[{i}][{j}]")[0] for j, t in enumerate(m))
            try:
                found = check_contract(laid, contract, rules, field=f"{f}.contract")
                met, melds = True, [m.codes() for m in found]
            except RuleViolation as exc:
                violations.append({"rule": exc.rule, "message": f"{name}'s contract: {exc.message}"})
        before = pl.get("score_before", 0)
        if isinstance(before, bool) or not isinstance(before, int) or before < 0:
            raise InvalidInput(f"score_before is a whole number, got {before!r}", field=f"{f}.score_before")
        score = score_hand(hand, rules)
        if not hand:
            gone_out.append(name)
            if not met:
                violations.append({"rule": "rummy.out-without-contract",
                                   "message": f"{name} has no cards left but did not meet the contract of deal {deal_number}"})
        line = {"item": "hand", "cards": format_cards(hand), "points": score, "detail": score_detail(hand, rules)}
        out_players.append({"player": name, "contract_met": met, "melds": melds, "went_out": not hand,
                            "lines": [line], "score": score, "total": before + score})
        if "score" in pl:
            claimed = pl["score"]
            if isinstance(claimed, bool) or not isinstance(claimed, int):
                raise InvalidInput(f"score is a whole number, got {claimed!r}", field=f"{f}.score")
            if claimed != score:
                discrepancies.append({"player": name, "claimed": claimed, "due": score, "difference": claimed - score})
    for card, n in seen.items():
        if n > shoe.copies(card):
            raise InvalidInput(f"impossible card {card.code}: {n} copies listed, the shoe holds {shoe.copies(card)}",
                               field="players")
    if len(gone_out) > 1:
        violations.append({"rule": "rummy.one-player-out", "message": f"only one player goes out; {', '.join(gone_out)} have no cards"})
    return {"game": "contract-rummy", "deal": deal_number, "contract": list(contract), "players": out_players,
            "violations": violations, "discrepancies": discrepancies}
