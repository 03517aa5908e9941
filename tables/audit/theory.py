"""Theory of a rule set and pay table for the hold audit: house edge and variance per unit, per bet kind.

Pure (engine + analysis only).  The edges come from the game-math package: exact side bets and the
computed basic-strategy edge for blackjack, the simulation for Finnish 27.  Variances:

- a side bet (and Finnish 27) pays ``b_i`` with probability ``p_i`` and loses the unit otherwise, so
  Var = sum p_i (b_i)^2 + p_lose - mean^2 (Finnish 27: a win pays 1 + bonus b_i; no pushes, ties go
  to the dealer, so Var = 1 + sum p_i (b_i^2 + 2 b_i) - mean^2 over the bonus lines' rates);
- the blackjack main bet (doubles, splits, blackjacks at 3:2) is estimated by playing rounds through
  the engine's ``play_round`` with the computed basic strategy (``analysis.blackjack.recommend``) — the strategy the floor
  simulator plays by — from a fixed seed, so the figure is reproducible.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from tables.engine.errors import InvalidInput
from tables.engine.games import games_of_engine, house_games
from tables.engine.paytable import PayTable
from tables.engine.rulesets import BlackjackRules, Finnish27Rules, rules_from_params

BLACKJACK_GAMES = games_of_engine("blackjack")
HOUSE_GAMES = house_games()


@dataclass(frozen=True, slots=True)
class Theory:
    """House edge and variance of the house result per unit wagered on one bet kind."""

    edge: float
    variance: float
    method: str

    def as_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)


def _odds(text: str) -> float:
    a, _, b = text.partition(":")
    return float(Fraction(int(a), int(b)))


def side_bet_variance(lines: list[dict[str, Any]], rtp: float) -> float:
    """Variance per unit of a bet paying ``pays`` odds with ``probability`` on each line, losing otherwise."""
    p_win = sum(float(ln["probability"]) for ln in lines)
    second = sum(float(ln["probability"]) * _odds(ln["pays"]) ** 2 for ln in lines) + (1.0 - p_win)
    mean = rtp - 1.0
    return max(second - mean * mean, 0.0)


def blackjack_main_variance(rules: BlackjackRules, pay_table: PayTable, rounds: int = 20_000,
                            seed: int = 20261121) -> float:
    """Variance per unit of the main bet, by the engine's round player with basic strategy."""
    from tables.analysis.blackjack import recommend
    from tables.engine.blackjack.live import SeatBet
    from tables.engine.blackjack.outcome import Settler
    from tables.engine.blackjack.simulate import play_round

    rng = random.Random(seed)
    unit = Decimal("1.00")
    settler = Settler(rules, pay_table, unit)
    bets = [SeatBet(seat=1, main=unit)]
    s1 = s2 = 0.0
    n = 0
    shoe = rules.shoe.shuffled(rng)
    pos = 0
    while n < rounds:
        if pos >= rules.shoe.shuffle_at or len(shoe) - pos < 40:
            shoe, pos = rules.shoe.shuffled(rng), 0
        it = iter(shoe[pos:])
        used = 0

        def counting(it: Any = it) -> Any:
            nonlocal used
            for c in it:
                used += 1
                yield c

        _, _, lines = play_round(rules, pay_table, unit, bets, counting(), decide=recommend, settler=settler)
        pos += used
        x = float(sum((ln.net for ln in lines[0] if ln.bet == "main"), Decimal(0)))
        s1 += x
        s2 += x * x
        n += 1
    mean = s1 / n
    return s2 / n - mean * mean


def bet_theory(game: str, params: dict[str, Any] | None, pay_lines: dict[str, Any] | None, *,
               f27_rounds: int = 400_000, bj_rounds: int = 20_000) -> dict[str, Theory]:
    """Per bet kind (``main``, ``perfect-pairs``, ``21+3``, ``insurance``): the house's edge and variance."""
    from tables.analysis import paytable_rtp

    if game not in HOUSE_GAMES:
        raise InvalidInput(f"{game} is not house-banked: the house holds nothing", field="game")
    rules = rules_from_params(game, params or None)
    table = PayTable.from_json(game, pay_lines or None)
    if game == "finnish-27":
        from tables.analysis.finnish27 import simulate

        assert isinstance(rules, Finnish27Rules)
        # Players make their free choices as the rule text advises (the floor simulator does too).
        sim = simulate(rules, rounds=f27_rounds, strategy="rule-text", pay_table_json=pay_lines or None)
        mean = -float(sim["house_edge"])
        second = 1.0
        for name, rate in sim["line_rates"].items():
            contribution = float(sim["bonus"].get(name, 0.0))
            if rate > 0:
                b = float(sim["bonus_simulated"].get(name, 0.0)) / rate  # units of one wager
                second += contribution * (b + 2.0)  # p_i (b_i^2 + 2 b_i) with p_i b_i = contribution
        return {"main": Theory(float(sim["house_edge"]), max(second - mean * mean, 0.0),
                               f"simulated, {sim['rounds']} rounds, rule-text strategy; ±{sim['ci95']:.4f} (95%)")}
    assert isinstance(rules, BlackjackRules)
    rtp = paytable_rtp(game, pay_lines or None, rules)
    out: dict[str, Theory] = {}
    for bet, info in rtp["bets"].items():
        if info.get("rtp") is None:
            continue
        if bet == "main":
            var = blackjack_main_variance(rules, table, rounds=bj_rounds)
            out[bet] = Theory(float(info["house_edge"]), var, f"{info['method']}; variance from {bj_rounds} engine rounds")
        else:
            lines = [ln for ln in rtp["lines"] if ln["bet"] == bet and ln["probability"] is not None]
            out[bet] = Theory(float(info["house_edge"]), side_bet_variance(lines, float(info["rtp"])), info["method"])
    return out
