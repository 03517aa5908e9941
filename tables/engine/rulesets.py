"""Rule-set parameters of each game: typed, validated, with the published values as defaults.

The back office stores a rule set as a JSON object of these parameters; ``rules_from_params`` turns
it into the frozen dataclass the engine plays by, and raises ``InvalidInput`` naming the field for
anything invalid.  One definition serves the back office, the engine and the math.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

from .errors import InvalidInput
from .shoe import ShoeSpec, ShuffleRule


def _int(name: str, value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InvalidInput(f"must be a whole number from {lo} to {hi}, got {value!r}", field=name)
    return value


def _bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(f"must be true or false, got {value!r}", field=name)
    return value


def _choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise InvalidInput(f"must be one of {', '.join(choices)}; got {value!r}", field=name)
    return str(value)


@dataclass(frozen=True)
class ParamSpec:
    """What a rule parameter may be: its words for a form, its range or its choices (checked in ``check``)."""

    label: str
    help: str = ""
    lo: int | None = None
    hi: int | None = None
    choices: tuple[str, ...] = ()
    words: tuple[str, ...] = ()  # each choice in words, for a games manager (the stored value is the choice)

    def word(self, value: object) -> str:
        """A choice in words (``cut_card`` → ``cut card``); any other value as it is."""
        for choice, word in zip(self.choices, self.words, strict=False):
            if str(value) == choice:
                return word
        return str(value)


# One home for the limits of every parameter: ``check`` enforces them and the back office's typed
# rule-set form is built from them (``parameters``).  A range missing here depends on other values
# (``shuffle_at`` on the shoe's size, ``max_players`` on ``min_players``) and is checked in ``check``.
SPECS: dict[str, ParamSpec] = {
    "decks": ParamSpec("Decks in the shoe", lo=1, hi=16),
    "jokers_per_deck": ParamSpec("Jokers per deck", lo=0, hi=4),
    "shuffle_rule": ParamSpec("Shuffle rule", "Cut card: shuffle after the round in which the cut card comes out. "
                              "Cards dealt: shuffle between rounds once the cards dealt reach \"Shuffle at\".",
                              choices=tuple(r.value for r in ShuffleRule), words=("cut card", "cards dealt")),
    "shuffle_at": ParamSpec("Shuffle at (cards)", "Cut-card position, or cards dealt that call for a shuffle; "
                            "at most the cards in the shoe"),
    "dealer_stands_hard": ParamSpec("Dealer stands on hard", "The dealer hits a hard total below this", lo=2, hi=27),
    "dealer_stands_soft": ParamSpec("Dealer stands on soft", "The dealer hits a soft total below this", lo=2, hi=27),
    "player_loses_over_hard": ParamSpec("Player loses over hard", "A player hand over this hard total loses at once",
                                        lo=27, hi=60),
    "seats": ParamSpec("Seats", lo=1, hi=9),
    "single_player": ParamSpec("Single player", "Mini Blackjack: one player on one of the seats"),
    "dealer_hits_soft_17": ParamSpec("Dealer hits soft 17"),
    "dealer_peeks": ParamSpec("Dealer peeks", "Off: no peek, a dealer blackjack takes doubled and split bets too"),
    "double_on": ParamSpec("Double on", "Which two-card hands may double",
                           choices=("any_two", "initial_two"),
                           words=("any two cards", "the hand's first two cards only")),
    "double_after_split": ParamSpec("Double after split"),
    "max_hands": ParamSpec("Hands after splits, at most", "2: one split", lo=1, hi=4),
    "split_aces_one_card": ParamSpec("Split Aces take one card"),
    "auto_stand_21": ParamSpec("Stand on 21 automatically"),
    "insurance": ParamSpec("Insurance", "Offered when the dealer shows an Ace"),
    "surrender": ParamSpec("Surrender", "Against an Ace: offered when the dealer shows an Ace, before any other "
                           "decision", choices=("none", "vs_ace"), words=("no surrender", "against an Ace")),
    "bet_behind": ParamSpec("Bets behind"),
    "interrupted_settle_hours": ParamSpec("Settle an interrupted round after (hours)",
                                          "0: an interrupted round waits for a pit boss", lo=0, hi=24 * 30),
    "starting_chips": ParamSpec("Starting chips", lo=1, hi=10**9),
    "ante": ParamSpec("Ante", lo=1, hi=10**9),
    "minimum_raise": ParamSpec("Minimum raise", "The player left of the dealer must raise by this", lo=1, hi=10**9),
    "two_initial_bets": ParamSpec("Two initial bets"),
    "bet_after_each_card": ParamSpec("A betting round after each card"),
    "no_house": ParamSpec("No house"),
    "charlie": ParamSpec("Charlie", "None, or a hand of 5, 7 or 10 cards", choices=("0", "5", "7", "10"),
                         words=("none", "5 cards", "7 cards", "10 cards")),
    "charlie_minimum_tiebreak": ParamSpec("Charlie: the minimum breaks ties"),
    "best_hand_ranking": ParamSpec("Best-hand ranking"),
    "odd_chip": ParamSpec("Odd chip goes to", choices=("first_left_of_dealer", "house", "next_pot"),
                          words=("the first player left of the dealer", "the house", "the next pot")),
    "min_players": ParamSpec("Players, at least", lo=2, hi=12),
    "max_players": ParamSpec("Players, at most", "From the minimum to 12"),
    "shoes": ParamSpec("Shoes by player count", 'One line per shoe, e.g. {"max_players": 4, "decks": 2, "jokers": 1} '
                       "is two decks and one Joker for up to 4 players"),
    "deals": ParamSpec("Deals", 'One line per deal, e.g. {"cards": 10, "contract": ["set", "sequence"]} is ten cards '
                       "dealt and a set and a sequence to lay down"),
    "card_scores": ParamSpec("Card scores", "A score for each of 2-9, T, J, Q, K, A and JK"),
    "set_min": ParamSpec("Cards in a set, at least", lo=2, hi=8),
    "sequence_min": ParamSpec("Cards in a sequence, at least", lo=2, hi=13),
    "deuces_wild": ParamSpec("Deuces wild", "Scored as Jokers (25)"),
    "numbers_score_five": ParamSpec("2-9 score 5"),
    "out_of_turn_penalty_cards": ParamSpec("Penalty cards for playing out of turn", lo=0, hi=5),
    "contract_exact_size": ParamSpec("Contract melds of the minimum size exactly"),
}


def _ranged(name: str, value: object) -> int:
    spec = SPECS[name]
    assert spec.lo is not None and spec.hi is not None  # noqa: S101  (a spec without a range is a bug here)
    return _int(name, value, spec.lo, spec.hi)


def _chosen(name: str, value: object) -> str:
    return _choice(name, value, SPECS[name].choices)


@dataclass(frozen=True)
class ShoeRules:
    """Shoe parameters every game has."""

    decks: int = 1
    jokers_per_deck: int = 0
    shuffle_rule: str = ShuffleRule.CUT_CARD.value  # "cut_card" | "cards_dealt"
    shuffle_at: int = 0  # cut-card position, or cards dealt that call for a shuffle

    def check_shoe(self) -> None:
        _ranged("decks", self.decks)
        _ranged("jokers_per_deck", self.jokers_per_deck)
        _chosen("shuffle_rule", self.shuffle_rule)
        size = self.decks * (52 + self.jokers_per_deck)
        _int("shuffle_at", self.shuffle_at, 1, size)

    @property
    def shoe(self) -> ShoeSpec:
        return ShoeSpec(self.decks, self.jokers_per_deck, ShuffleRule(self.shuffle_rule), self.shuffle_at)

    def check(self) -> None:
        self.check_shoe()

    def to_params(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Finnish27Rules(ShoeRules):
    """No-Bust Finnish 27 (shared/rules/finnish-27-no-bust.txt)."""

    decks: int = 6
    jokers_per_deck: int = 2
    shuffle_at: int = 243  # "after about four and a half decks" (rules/README.md)
    dealer_stands_hard: int = 24  # dealer hits hard < 24
    dealer_stands_soft: int = 25  # dealer hits soft < 25
    player_loses_over_hard: int = 35  # a player hand over hard 35 loses at once

    def check(self) -> None:
        self.check_shoe()
        _ranged("dealer_stands_hard", self.dealer_stands_hard)
        _ranged("dealer_stands_soft", self.dealer_stands_soft)
        _ranged("player_loses_over_hard", self.player_loses_over_hard)


@dataclass(frozen=True)
class BlackjackRules(ShoeRules):
    """Unlimited Blackjack and Mini Blackjack are two rule sets of one engine."""

    decks: int = 8
    shuffle_at: int = 208  # cut card about half way
    seats: int = 7
    single_player: bool = False  # Mini Blackjack: one player on one of the seats
    dealer_hits_soft_17: bool = False
    dealer_peeks: bool = False  # False: no peek, a dealer blackjack takes doubled and split bets too
    double_on: str = "any_two"  # "any_two" | "initial_two" (the first two cards of the hand only)
    double_after_split: bool = True
    max_hands: int = 2  # one split
    split_aces_one_card: bool = True
    auto_stand_21: bool = False
    insurance: bool = True  # offered when the dealer shows an Ace
    surrender: str = "vs_ace"  # "none" | "vs_ace" (offered only against an Ace, before other decisions)
    bet_behind: bool = True
    interrupted_settle_hours: int = 0  # 0: an interrupted round waits for a pit boss

    def check(self) -> None:
        self.check_shoe()
        if self.jokers_per_deck:
            raise InvalidInput("blackjack is played without Jokers", field="jokers_per_deck")
        _ranged("seats", self.seats)
        for name in ("single_player", "dealer_hits_soft_17", "dealer_peeks", "double_after_split",
                     "split_aces_one_card", "auto_stand_21", "insurance", "bet_behind"):
            _bool(name, getattr(self, name))
        _chosen("double_on", self.double_on)
        _ranged("max_hands", self.max_hands)
        _chosen("surrender", self.surrender)
        _ranged("interrupted_settle_hours", self.interrupted_settle_hours)


@dataclass(frozen=True)
class BluffjackRules(ShoeRules):
    """Bluffjack (shared/rules/bluffjack.txt) and its variants as options."""

    shuffle_rule: str = ShuffleRule.CARDS_DEALT.value
    shuffle_at: int = 1  # reshuffled before every hand
    starting_chips: int = 100
    ante: int = 1
    minimum_raise: int = 1  # the player left of the dealer must raise by this
    two_initial_bets: bool = False
    bet_after_each_card: bool = False
    no_house: bool = False
    charlie: int = 0  # 0 (none), 5, 7 or 10
    charlie_minimum_tiebreak: bool = False
    best_hand_ranking: bool = False
    odd_chip: str = "first_left_of_dealer"  # "first_left_of_dealer" | "house" | "next_pot"

    def check(self) -> None:
        self.check_shoe()
        _ranged("starting_chips", self.starting_chips)
        _ranged("ante", self.ante)
        _ranged("minimum_raise", self.minimum_raise)
        for name in ("two_initial_bets", "bet_after_each_card", "no_house", "charlie_minimum_tiebreak",
                     "best_hand_ranking"):
            _bool(name, getattr(self, name))
        if (isinstance(self.charlie, bool) or not isinstance(self.charlie, int)
                or str(self.charlie) not in SPECS["charlie"].choices):
            raise InvalidInput(f"must be 0 (no Charlie), 5, 7 or 10; got {self.charlie!r}", field="charlie")
        _chosen("odd_chip", self.odd_chip)


CONTRACT_MELDS = ("set", "sequence")


def _default_deals() -> list[dict[str, Any]]:
    s, q = "set", "sequence"
    return [
        {"cards": 10, "contract": [s, s]},
        {"cards": 10, "contract": [s, q]},
        {"cards": 10, "contract": [q, q]},
        {"cards": 10, "contract": [s, s, s]},
        {"cards": 12, "contract": [s, s, q]},
        {"cards": 12, "contract": [s, q, q]},
        {"cards": 12, "contract": [q, q, q]},
    ]


def _default_scores() -> dict[str, int]:
    return {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
            "T": 10, "J": 10, "Q": 10, "K": 10, "A": 15, "JK": 25}  # fmt: skip


def _default_shoes() -> list[dict[str, int]]:
    # "3 or 4 players: two decks + one joker; more than 5 players: three decks + two jokers".  The text
    # is silent on exactly 5 players; we give 5 players the larger shoe (12-card deals to 5 players
    # need 60 cards plus stock, which two decks serve poorly) — a rule-set option like the rest.
    return [{"max_players": 4, "decks": 2, "jokers": 1}, {"max_players": 8, "decks": 3, "jokers": 2}]


@dataclass(frozen=True)
class ContractRummyRules(ShoeRules):
    """Contract Rummy (second part of shared/rules/dealer-upcard-and-contract-rummy.txt)."""

    decks: int = 2
    jokers_per_deck: int = 1  # overridden per player count by ``shoes``
    shuffle_rule: str = ShuffleRule.CARDS_DEALT.value
    shuffle_at: int = 1
    min_players: int = 3
    max_players: int = 8
    shoes: list[dict[str, int]] = field(default_factory=_default_shoes)
    deals: list[dict[str, Any]] = field(default_factory=_default_deals)
    card_scores: dict[str, int] = field(default_factory=_default_scores)
    set_min: int = 3
    sequence_min: int = 4
    deuces_wild: bool = False  # variant: deuces wild, scored as Jokers (25)
    numbers_score_five: bool = False  # variant: 2-9 score 5
    out_of_turn_penalty_cards: int = 1
    contract_exact_size: bool = False  # True: contract melds must be of the minimum size (3-card sets, 4-card runs)

    # The shoe comes from ``shoes`` by player count: the shoe parameters every game has are unused here
    # (kept in the stored parameters, not offered in a form).
    UNUSED: ClassVar[tuple[str, ...]] = ("decks", "jokers_per_deck", "shuffle_rule", "shuffle_at")

    def check(self) -> None:
        _ranged("min_players", self.min_players)
        _int("max_players", self.max_players, self.min_players, 12)
        if not isinstance(self.shoes, list) or not self.shoes:
            raise InvalidInput("must be a list of {max_players, decks, jokers}", field="shoes")
        for i, shoe in enumerate(self.shoes):
            if not isinstance(shoe, dict) or set(shoe) != {"max_players", "decks", "jokers"}:
                raise InvalidInput("must be {max_players, decks, jokers}", field=f"shoes[{i}]")
            _int(f"shoes[{i}].max_players", shoe["max_players"], 1, 12)
            _int(f"shoes[{i}].decks", shoe["decks"], 1, 8)
            _int(f"shoes[{i}].jokers", shoe["jokers"], 0, 16)
        if max(s["max_players"] for s in self.shoes) < self.max_players:
            raise InvalidInput(f"no shoe is given for {self.max_players} players", field="shoes")
        if not isinstance(self.deals, list) or not self.deals:
            raise InvalidInput("must be a non-empty list of deals", field="deals")
        for i, deal in enumerate(self.deals):
            if not isinstance(deal, dict) or set(deal) != {"cards", "contract"}:
                raise InvalidInput("each deal is {cards, contract}", field=f"deals[{i}]")
            _int(f"deals[{i}].cards", deal["cards"], 1, 20)
            c = deal["contract"]
            if not isinstance(c, list) or not c or any(m not in CONTRACT_MELDS for m in c):
                raise InvalidInput(
                    f"a contract is a non-empty list of 'set' and 'sequence', got {c!r}", field=f"deals[{i}].contract"
                )
        expected = {"2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "JK"}
        if not isinstance(self.card_scores, dict) or set(self.card_scores) != expected:
            raise InvalidInput(f"must give a score for each of {sorted(expected)}", field="card_scores")
        for k, v in self.card_scores.items():
            _int(f"card_scores.{k}", v, 0, 1000)
        _ranged("set_min", self.set_min)
        _ranged("sequence_min", self.sequence_min)
        _bool("deuces_wild", self.deuces_wild)
        _bool("numbers_score_five", self.numbers_score_five)
        _ranged("out_of_turn_penalty_cards", self.out_of_turn_penalty_cards)
        _bool("contract_exact_size", self.contract_exact_size)

    def shoe_for(self, players: int) -> ShoeSpec:
        """The shoe for ``players`` players (decks and Jokers by player count)."""
        if not self.min_players <= players <= self.max_players:
            raise InvalidInput(f"{players} players; this game takes {self.min_players} to {self.max_players}", field="players")
        shoe = min((s for s in self.shoes if s["max_players"] >= players), key=lambda s: s["max_players"])
        return ShoeSpec(shoe["decks"], 0, ShuffleRule.CARDS_DEALT, 1, total_jokers=shoe["jokers"])


# The published rule sets (shared/rules/ and the readings of rules/README.md).
PUBLISHED_RULES: dict[str, ShoeRules] = {
    "finnish-27": Finnish27Rules(),
    "unlimited-blackjack": BlackjackRules(),
    "mini-blackjack": BlackjackRules(
        decks=4, shuffle_rule=ShuffleRule.CARDS_DEALT.value, shuffle_at=60, seats=3, single_player=True,
        dealer_peeks=True, double_on="initial_two", double_after_split=False, auto_stand_21=True,
        surrender="none", bet_behind=False, interrupted_settle_hours=48,
    ),
    "bluffjack": BluffjackRules(),
    "contract-rummy": ContractRummyRules(),
}


def rules_from_params(game: str, params: object) -> ShoeRules:
    """Build and validate the rules of ``game`` from stored parameters; missing keys take the published value."""
    if game not in PUBLISHED_RULES:
        raise InvalidInput(f"unknown game {game!r}", field="game")
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise InvalidInput("rule-set parameters must be an object", field="params")
    cls = type(PUBLISHED_RULES[game])
    known = {f.name for f in fields(cls)}
    unknown = sorted(str(k) for k in set(params) - known)  # str: a non-string key is refused, not a TypeError
    if unknown:
        raise InvalidInput(f"unknown parameter(s) {', '.join(unknown)} for {game}", field=unknown[0])
    base = PUBLISHED_RULES[game].to_params()
    base.update(params)
    rules = cls(**base)
    rules.check()
    return rules


@dataclass(frozen=True)
class Parameter:
    """One rule parameter of a game as a form shows it: kind, published value, range or choices, words."""

    name: str
    kind: str  # "int" | "bool" | "choice" | "json" (lists and objects: Contract Rummy's shoes, deals, scores)
    default: Any
    label: str
    help: str = ""
    lo: int | None = None
    hi: int | None = None
    choices: tuple[str, ...] = ()
    words: tuple[str, ...] = ()  # each choice in words

    def word(self, value: object) -> str:
        """A value as a games manager reads it: a choice in words, yes/no; else as it is."""
        if isinstance(value, bool):
            return "yes" if value else "no"
        return ParamSpec(self.label, choices=self.choices, words=self.words).word(value)


# A parameter whose range depends on others: while one of those is refused, its own range is unknown.
DEPENDS_ON: dict[str, tuple[str, ...]] = {
    "shuffle_at": ("decks", "jokers_per_deck"),
    "max_players": ("min_players",),
    "shoes": ("max_players", "min_players"),
}


def _fallback(name: str, work: dict[str, Any], published: dict[str, Any]) -> Any:
    """A value of ``name`` valid whatever the parameters it depends on (``DEPENDS_ON``) are."""
    if name == "shuffle_at":
        return 1
    if name == "max_players":
        return work.get("min_players", published["min_players"])
    if name == "shoes":  # the published shoes, the largest taking up to 12 players
        return [*published["shoes"][:-1], {**published["shoes"][-1], "max_players": 12}]
    return published[name]


def rules_problems(game: str, params: dict[str, Any], refused: Iterable[str] = ()) -> list[InvalidInput]:
    """Every invalid parameter of ``params`` at once, one error per parameter, each naming its field.

    ``check`` stops at the first error; here each refused value is set back to the published one and the
    rules are checked again, until they pass.  ``refused`` are parameters refused already (by a form's own
    field checks): they take the published value too.  A parameter whose range depends on a refused one
    (``DEPENDS_ON``) is not judged against a value nobody chose: its error waits for the next check.
    """
    published = PUBLISHED_RULES[game].to_params() if game in PUBLISHED_RULES else {}
    work = {k: v for k, v in params.items() if k not in set(refused)}
    seen = set(refused)
    problems: list[InvalidInput] = []
    for _ in range(2 * len(published) + 1):
        try:
            rules_from_params(game, work)
            break
        except InvalidInput as exc:
            name = (exc.field or "").split("[")[0].split(".")[0]
            if name not in published or (name in seen and work.get(name) == _fallback(name, work, published)):
                if name not in seen:
                    problems.append(exc)
                break  # nothing left to try: the rest waits for the next check
            if name not in seen and not any(d in seen for d in DEPENDS_ON.get(name, ())):
                problems.append(exc)
            # Set back to the published value; if that fails too (its range depends on chosen values), to one
            # that fits any of them, so that the check goes on to the parameters after it.
            work[name] = _fallback(name, work, published) if name in seen else published[name]
            seen.add(name)
    return problems


def parameters(game: str) -> list[Parameter]:
    """The parameters of ``game`` in the order of its rules, with the published values as defaults."""
    if game not in PUBLISHED_RULES:
        raise InvalidInput(f"unknown game {game!r}", field="game")
    published = PUBLISHED_RULES[game]
    out = []
    unused = getattr(published, "UNUSED", ())
    for f in fields(published):
        if f.name in unused:
            continue
        default = getattr(published, f.name)
        spec = SPECS.get(f.name, ParamSpec(f.name.replace("_", " ").capitalize()))
        if isinstance(default, bool):
            kind = "bool"
        elif spec.choices:
            kind = "choice"
        elif isinstance(default, int):
            kind = "int"
        else:
            kind = "json"
        out.append(Parameter(f.name, kind, default, spec.label, spec.help, spec.lo, spec.hi, spec.choices, spec.words))
    return out
