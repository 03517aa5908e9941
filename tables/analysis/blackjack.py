"""Blackjack: expected values of every play, the computed basic strategy, and the house edge.

Method (documented in docs/analysis.md):

* **Dealer**: exact outcome probabilities by recursion over the remaining shoe (``dealer.py``),
  from the shoe minus the player's first two cards and the up card.  With the peek the dealer's
  outcomes are conditioned on no blackjack, and so is the player's next card (the hole card is known
  not to be the blackjack-making card).
* **Player**: for a given shoe, the values of stand/hit/double/split/surrender follow from a
  recursion over the player's *total* states (hard total, Ace held), the player drawing from that
  shoe (the cards the player hits are not removed again; the dealer's outcome probabilities are not
  updated for them).  A split plays two independent hands of one card each (one split, so a pair
  after a split is played as a total).
* **Basic strategy** is *total-dependent*: each decision is the best play for the total against the
  up card computed from the full shoe minus the up card.  The house edge plays that table on every
  initial hand, each valued with its own three-card composition (shoe minus both player cards and the
  up card).  Insurance is never taken (it is a separate bet, see ``sidebets.insurance_rtp``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal

import numpy as np

from tables.engine.cards import Card
from tables.engine.rulesets import BlackjackRules
from tables.engine.strategy import Chart
from tables.engine.strategy import recommend as chart_recommend

from .dealer import (
    BLACKJACK,
    BUST,
    INFINITE_P,
    RANKS,
    FloatArray,
    blackjack_probability,
    dealer_distribution,
    full_shoe,
    remove,
    soft_total,
)

Action = Literal["S", "H", "D", "P", "R"]
ACTION_NAMES = {"S": "stand", "H": "hit", "D": "double", "P": "split", "R": "surrender"}
UP_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)  # 2..9, 10, A as printed in charts


def up_label(up: int) -> str:
    return "A" if up == 0 else RANKS[up]


@dataclass(frozen=True)
class Situation:
    """What the player faces: draw probabilities and the dealer's outcome distribution."""

    p: FloatArray  # (10,) next-card probabilities for the player
    dealer: FloatArray  # (7,) OUTCOMES; conditional on no blackjack after a peek
    stand: FloatArray  # (22,) EV of standing on each total 0..21


def _stand_values(dealer: FloatArray) -> FloatArray:
    ev = np.zeros(22)
    finals = dealer[:5]  # 17..21
    for t in range(22):
        win = dealer[BUST] + sum(finals[i] for i in range(5) if 17 + i < t)
        lose = dealer[BLACKJACK] + sum(finals[i] for i in range(5) if 17 + i > t)
        ev[t] = win - lose
    return ev


def situation(shoe: tuple[int, ...] | None, up: int, rules: BlackjackRules) -> Situation:
    """The player's situation against up card ``up`` with ``shoe`` left (up and player cards removed)."""
    peeked = rules.dealer_peeks and up in (0, 9)
    dealer = dealer_distribution(shoe, up, hits_soft_17=rules.dealer_hits_soft_17, peek=peeked)
    if shoe is None:
        p = np.array(INFINITE_P)  # infinite deck: the hole card does not change the next card's odds
    else:
        n = np.asarray(shoe, dtype=np.float64)
        total = n.sum()
        p = n / total
        if peeked:
            # Next card given the hole card is not the blackjack-making class: average over holes.
            bj = 9 if up == 0 else 0
            hole = n.copy()
            hole[bj] = 0.0
            hole /= hole.sum()
            p = np.array([sum(hole[h] * (n[c] - (c == h)) for h in range(10)) / (total - 1) for c in range(10)])
    return Situation(p=p, dealer=dealer, stand=_stand_values(dealer))


def _next(hard: int, ace: bool, card: int) -> tuple[int, bool]:
    return hard + card + 1, ace or card == 0


@dataclass
class HandValues:
    """Values of the total states (hard 2..21 x Ace held) under the best stand/hit play."""

    stand: dict[tuple[int, bool], float]
    hit: dict[tuple[int, bool], float]
    best: dict[tuple[int, bool], float]
    plays: dict[tuple[int, bool], str]


def hand_values(sit: Situation, rules: BlackjackRules, plays: dict[tuple[int, bool], str] | None = None) -> HandValues:
    """Stand/hit values of every total state; the play is the best one unless ``plays`` fixes it."""
    stand: dict[tuple[int, bool], float] = {}
    hit: dict[tuple[int, bool], float] = {}
    best: dict[tuple[int, bool], float] = {}
    chosen: dict[tuple[int, bool], str] = {}
    for hard in range(21, 1, -1):
        for ace in (True, False):
            total = soft_total(hard, ace)
            s = float(sit.stand[total])
            h = 0.0
            for c in range(10):
                h2, a2 = _next(hard, ace, c)
                h += sit.p[c] * (best[(h2, a2)] if h2 <= 21 else -1.0)
            key = (hard, ace)
            stand[key], hit[key] = s, h
            if total == 21 and rules.auto_stand_21:
                play = "S"
            elif plays is not None and key in plays:
                play = plays[key]
            else:
                play = "S" if s >= h else "H"
            chosen[key] = play
            best[key] = s if play == "S" else h
    return HandValues(stand, hit, best, chosen)


def double_value(sit: Situation, hard: int, ace: bool) -> float:
    """EV (per unit of the original bet) of doubling on (hard, ace): one card, twice the stake."""
    v = 0.0
    for c in range(10):
        h2, a2 = _next(hard, ace, c)
        v += sit.p[c] * (float(sit.stand[soft_total(h2, a2)]) if h2 <= 21 else -1.0)
    return 2.0 * v


def _split_hand_value(sit: Situation, rules: BlackjackRules, hv: HandValues, card: int,
                      after: dict[tuple[int, bool], str] | None) -> float:
    """EV of one hand after splitting a pair of ``card``: the second card, then the play."""
    can_double = rules.double_after_split and rules.double_on == "any_two"
    v = 0.0
    for c in range(10):
        hard, ace = _next(card + 1, card == 0, c)
        total = soft_total(hard, ace)
        if card == 0 and rules.split_aces_one_card:
            v += sit.p[c] * float(sit.stand[total])  # one card each; A+T is 21, not a blackjack
            continue
        options = {"S": hv.stand[(hard, ace)], "H": hv.hit[(hard, ace)]}
        if rules.auto_stand_21 and total == 21:
            options = {"S": options["S"]}
        elif can_double:
            options["D"] = double_value(sit, hard, ace)
        play = after[(hard, ace)] if after is not None and after.get((hard, ace)) in options else None
        v += sit.p[c] * (options[play] if play else max(options.values()))
    return v


def split_value(sit: Situation, rules: BlackjackRules, hv: HandValues, card: int,
                after: dict[tuple[int, bool], str] | None = None) -> float:
    """EV of splitting a pair of ``card`` (two hands, each one unit)."""
    return 2.0 * _split_hand_value(sit, rules, hv, card, after)


def surrender_offered(rules: BlackjackRules, up: int) -> bool:
    """Surrender is offered only against an Ace ("vs_ace") in these rule sets."""
    return rules.surrender == "vs_ace" and up == 0


def two_card_options(sit: Situation, rules: BlackjackRules, hv: HandValues, a: int, b: int, up: int,
                     *, after: dict[tuple[int, bool], str] | None = None) -> dict[str, float]:
    """EV of every play allowed on the initial two cards ``a``, ``b`` (classes) against ``up``."""
    hard, ace = _next(a + 1, a == 0, b)
    total = soft_total(hard, ace)
    opts = {"S": hv.stand[(hard, ace)]}
    if not (rules.auto_stand_21 and total == 21):
        opts["H"] = hv.hit[(hard, ace)]
        opts["D"] = double_value(sit, hard, ace)
    if a == b and rules.max_hands >= 2:
        opts["P"] = split_value(sit, rules, hv, a, after)
    if surrender_offered(rules, up):
        opts["R"] = -0.5
    return opts


@dataclass
class Strategy:
    """A computed total-dependent basic strategy for one rule set and shoe."""

    rules: BlackjackRules
    decks: int | None
    # [up][row] -> action with its fallback, e.g. "D/H" (double, else hit), "R/S", "P", "H"
    hard: dict[int, dict[int, str]]
    soft: dict[int, dict[int, str]]
    pairs: dict[int, dict[int, str]]
    # total-state plays (3+ cards) and after a split, per up card
    multi: dict[int, dict[tuple[int, bool], str]]
    after_split: dict[int, dict[tuple[int, bool], str]]
    ev: dict[int, dict[str, dict[str, float]]]  # [up]["hard 16"|"soft 18"|"pair 8"][action] -> EV

    @cached_property
    def chart(self) -> Chart:
        """The strategy as the engine reads it (``tables.engine.strategy.Chart``)."""
        return Chart(self.hard, self.soft, self.pairs, self.multi)

    def action(self, up: int, cards: list[int], *, can_double: bool, can_split: bool,
               can_surrender: bool) -> str:
        """The play for a hand of card classes against up card class ``up``."""
        return self.chart.action(up, cards, can_double=can_double, can_split=can_split, can_surrender=can_surrender)


def _entry(opts: dict[str, float], fallback_opts: dict[str, float]) -> str:
    best = max(opts, key=lambda k: opts[k])
    if best in ("D", "R"):
        fb = max((k for k in fallback_opts if k in ("S", "H")), key=lambda k: fallback_opts[k])
        return f"{best}/{fb}"
    return best


def _table_shoe(decks: int | None, *cards: int) -> tuple[int, ...] | None:
    return None if decks is None else remove(full_shoe(decks), *cards)


def compute_strategy(rules: BlackjackRules, decks: int | None = -1) -> Strategy:
    """Compute the total-dependent basic strategy (``decks`` None: infinite deck; -1: the rules' decks)."""
    d = rules.decks if decks == -1 else decks
    hard_t: dict[int, dict[int, str]] = {}
    soft_t: dict[int, dict[int, str]] = {}
    pair_t: dict[int, dict[int, str]] = {}
    multi: dict[int, dict[tuple[int, bool], str]] = {}
    after: dict[int, dict[tuple[int, bool], str]] = {}
    evs: dict[int, dict[str, dict[str, float]]] = {}
    for up in UP_ORDER:
        sit = situation(_table_shoe(d, up), up, rules)
        hv = hand_values(sit, rules)
        multi[up] = hv.plays
        can_dbl_after = rules.double_after_split and rules.double_on == "any_two"
        after[up] = {}
        for (hard, ace), play in hv.plays.items():
            if can_dbl_after and double_value(sit, hard, ace) > max(hv.stand[(hard, ace)], hv.hit[(hard, ace)]):
                after[up][(hard, ace)] = "D"
            else:
                after[up][(hard, ace)] = play
        hard_t[up], soft_t[up], pair_t[up], evs[up] = {}, {}, {}, {}
        # Two-card hands by total: a representative non-pair hand for each total.
        for total in range(5, 21):
            a, b = _representative_hard(total)
            opts = two_card_options(sit, rules, hv, a, b, up)
            opts.pop("P", None)
            hard_t[up][total] = _entry(opts, opts)
            evs[up][f"hard {total}"] = opts
        for other in range(1, 9):  # A,2 .. A,9 = soft 13 .. soft 20
            total = 12 + other
            opts = two_card_options(sit, rules, hv, 0, other, up)
            soft_t[up][total] = _entry(opts, opts)
            evs[up][f"soft {total}"] = opts
        for card in range(10):
            opts = two_card_options(sit, rules, hv, card, card, up, after=after[up])
            best = max(opts, key=lambda k: opts[k])
            pair_t[up][card] = "P" if best == "P" else "-"
            evs[up][f"pair {up_label(card)}"] = opts
    return Strategy(rules, d, hard_t, soft_t, pair_t, multi, after, evs)


def _representative_hard(total: int) -> tuple[int, int]:
    """Two non-Ace, non-pair card classes summing to ``total`` (5..20); 20 is taken as T-T's total."""
    for a in range(9, 0, -1):  # class index 9 is ten-valued (value 10)
        b_val = total - (a + 1)
        if 2 <= b_val <= 10 and b_val != a + 1:
            return a, b_val - 1
    return (9, 9) if total == 20 else (1, total - 3)


@dataclass
class HouseEdge:
    """Result of ``house_edge``: expected return per initial unit and its pieces."""

    ev: float
    house_edge: float
    rtp: float
    by_up: dict[str, float]
    blackjack_probability: float
    blackjack_win_probability: float  # player blackjack and the dealer has none: paid at blackjack odds
    method: str


def _pair_weights(shoe: tuple[int, ...] | None):  # type: ignore[no-untyped-def]
    """(a, b, up, probability) of every initial deal, a <= b (order of the player's cards ignored)."""
    if shoe is None:
        p = INFINITE_P
        for a in range(10):
            for b in range(a, 10):
                for up in range(10):
                    yield a, b, up, (2 if a != b else 1) * p[a] * p[b] * p[up]
        return
    n = list(shoe)
    total = sum(n)
    for a in range(10):
        for b in range(a, 10):
            pab = (2 if a != b else 1) * n[a] * (n[b] - (a == b)) / (total * (total - 1))
            for up in range(10):
                left = n[up] - (up == a) - (up == b)
                if left > 0 and pab > 0:
                    yield a, b, up, pab * left / (total - 2)


def initial_hand_ev(strategy: Strategy, a: int, b: int, up: int, shoe: tuple[int, ...] | None,
                    *, best_first_play: bool = False, blackjack_pays: float = 1.5) -> float:
    """EV of the initial hand a,b vs up (classes), played by ``strategy``, with ``shoe`` left.

    ``best_first_play`` takes the best first play for this very composition (two-card
    composition-dependent strategy) instead of the table's total-dependent one.
    """
    rules = strategy.rules
    sit = situation(shoe, up, rules)
    pbj = blackjack_probability(shoe, up)
    player_bj = {a, b} == {0, 9}
    if player_bj:
        # 3:2 unless the dealer also has one (a push); blackjack is never surrendered or insured.
        return (1.0 - pbj) * blackjack_pays
    hv = hand_values(sit, rules, plays=strategy.multi[up])
    opts = two_card_options(sit, rules, hv, a, b, up, after=strategy.after_split[up])
    choice = strategy.action(up, [a, b], can_double=True, can_split=rules.max_hands >= 2,
                             can_surrender=surrender_offered(rules, up))
    value = max(opts.values()) if best_first_play or choice not in opts else opts[choice]
    if rules.dealer_peeks and up in (0, 9):
        return pbj * -1.0 + (1.0 - pbj) * value
    return value


def house_edge(rules: BlackjackRules, decks: int | None = -1, strategy: Strategy | None = None,
               *, best_first_play: bool = False, blackjack_pays: float = 1.5) -> HouseEdge:
    """Expected return of the computed basic strategy under ``rules`` (per unit initial bet)."""
    d = rules.decks if decks == -1 else decks
    strat = strategy or compute_strategy(rules, d)
    full = None if d is None else full_shoe(d)
    ev = 0.0
    by_up = dict.fromkeys((up_label(u) for u in UP_ORDER), 0.0)
    p_bj = p_bj_win = 0.0
    for a, b, up, w in _pair_weights(full):
        shoe = None if full is None else remove(full, a, b, up)
        e = initial_hand_ev(strat, a, b, up, shoe, best_first_play=best_first_play,
                            blackjack_pays=blackjack_pays)
        ev += w * e
        by_up[up_label(up)] += w * e
        if {a, b} == {0, 9}:
            p_bj += w
            p_bj_win += w * (1.0 - blackjack_probability(shoe, up))
    first = ("first play composition-dependent (best for the two cards and up card), later plays by total"
             if best_first_play else "total-dependent basic strategy")
    return HouseEdge(
        ev=ev, house_edge=-ev, rtp=1.0 + ev, by_up=by_up, blackjack_probability=p_bj,
        blackjack_win_probability=p_bj_win,
        method=f"{first}; dealer exact over the shoe minus the player's two cards and the up card; "
               "player's draws from that shoe; split hands independent, one split",
    )


def strategy_chart(strategy: Strategy) -> dict[str, dict[str, dict[str, str]]]:
    """The strategy table as JSON: rows "hard 5".."hard 20", "soft 13".."soft 20", "pair A".."pair 10"."""
    out: dict[str, dict[str, dict[str, str]]] = {"hard": {}, "soft": {}, "pairs": {}}
    for up in UP_ORDER:
        col = up_label(up)
        for t, e in strategy.hard[up].items():
            out["hard"].setdefault(str(t), {})[col] = e
        for t, e in strategy.soft[up].items():
            out["soft"].setdefault(str(t), {})[col] = e
        for c, e in strategy.pairs[up].items():
            out["pairs"].setdefault(up_label(c), {})[col] = e
    return out


@lru_cache(maxsize=32)
def cached_strategy(rules: BlackjackRules) -> Strategy:
    """The computed basic strategy of a rule set (computed once per rule set, about 0.1 s)."""
    return compute_strategy(rules)


def recommend(rules: BlackjackRules, player_cards: Sequence[Card], dealer_up: Card, can_double: bool,
              can_split: bool, can_surrender: bool) -> str:
    """The computed basic-strategy play, with the signature of ``tables.engine.strategy.recommend``.

    Answers ``hit``, ``stand``, ``double``, ``split`` or ``surrender`` from the total-dependent
    strategy computed for ``rules``, read by the engine as a ``Chart`` (Mini Blackjack's hints).
    """
    return chart_recommend(rules, player_cards, dealer_up, can_double, can_split, can_surrender,
                           chart=cached_strategy(rules).chart)


def hint_chart(rules: BlackjackRules) -> Chart:
    """The chart the live round's hints read for ``rules`` (computed once per rule set)."""
    return cached_strategy(rules).chart
