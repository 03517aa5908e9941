"""Game math: exact side-bet RTP, dealer outcome probabilities, basic strategy, house edge.

Pure Python + numpy (+ numba for the Finnish 27 simulation); no Django import.  The back office calls
``paytable_rtp`` when a pay table is saved: it returns at once every line that is computed exactly,
and marks the lines that need the simulation (``simulated``), which a Celery task computes with
``tables.analysis.finnish27.simulate`` and caches per pay-table version.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from tables.engine.errors import InvalidInput
from tables.engine.games import game as game_spec
from tables.engine.games import games_of_engine
from tables.engine.paytable import PayTable
from tables.engine.rulesets import BlackjackRules, Finnish27Rules, ShoeRules, rules_from_params

__all__ = ["paytable_rtp", "resolve_rules"]

BLACKJACK_GAMES = games_of_engine("blackjack")


def resolve_rules(game: str, rules: ShoeRules | Mapping[str, Any] | None) -> ShoeRules:
    """A rule-set object from a rule set, stored parameters, or None (the published rules)."""
    if isinstance(rules, ShoeRules):
        return rules
    return rules_from_params(game, dict(rules) if rules is not None else None)


def _line(name: str, label: str, pays: str, bet: str, probability: float | None, contribution: float | None,
          method: str) -> dict[str, Any]:
    return {"name": name, "label": label, "pays": pays, "bet": bet, "probability": probability,
            "contribution": contribution, "method": method}


def _bet(rtp: float | None, method: str, **extra: Any) -> dict[str, Any]:
    return {"rtp": rtp, "house_edge": None if rtp is None else 1.0 - rtp, "method": method, **extra}


def paytable_rtp(game: str, pay_table_json: object, rules: ShoeRules | Mapping[str, Any] | None = None
                 ) -> dict[str, Any]:
    """RTP and house edge per line and per bet of a pay table, for the back office.

    ``pay_table_json`` is the ``{"lines": [...]}`` document (None: the published table).  Each line
    has ``probability`` and ``contribution`` (probability x pay, per unit wager) when computed
    exactly; ``method`` says how: ``exact`` (combinatorial enumeration), ``computed`` (basic-strategy
    analysis), or ``simulated`` (left to the simulation task; ``probability`` is then None).
    """
    table = PayTable.from_json(game, pay_table_json)
    rs = resolve_rules(game, rules)
    if game in BLACKJACK_GAMES:
        assert isinstance(rs, BlackjackRules)
        return _blackjack(game, table, rs)
    if game == "finnish-27":
        assert isinstance(rs, Finnish27Rules)
        from .finnish27 import paytable_lines  # numba is imported only for this game

        return paytable_lines(table, rs)
    if not game_spec(game).house_banked:
        return {"game": game, "lines": [], "bets": {}, "pending": [],
                "note": "player-versus-player game: the house takes no side, there is no RTP"}
    raise InvalidInput(f"unknown game {game!r}", field="game")


def _blackjack(game: str, table: PayTable, rules: BlackjackRules) -> dict[str, Any]:
    from .blackjack import house_edge
    from .sidebets import insurance_return, perfect_pairs_return, twenty_one_plus_three_return

    lines: list[dict[str, Any]] = []
    bets: dict[str, dict[str, Any]] = {}
    exact = []
    names = set(table)  # PayTable's lookup raises on a missing line, so test membership on the names
    if "perfect-pairs/perfect" in names:
        exact.append(perfect_pairs_return(rules.decks, pay_table=table, game=game))
    if "21+3/flush" in names:
        exact.append(twenty_one_plus_three_return(rules.decks, pay_table=table, game=game))
    if rules.insurance:
        exact.append(insurance_return(rules.decks, pay_table=table, game=game))
    for ret in exact:
        for o in ret.outcomes:
            if o.name == "lose":
                continue
            pl = table[o.name]
            lines.append(_line(o.name, pl.label, pl.pays_text, ret.bet, float(o.probability),
                               float(o.contribution), "exact"))
        bets[ret.bet] = _bet(float(ret.rtp), "exact", rtp_exact=f"{ret.rtp.numerator}/{ret.rtp.denominator}")
    bj_line, win_line = table["main/blackjack"], table["main/win"]
    if win_line.odds == 1 and bj_line.odds is not None:
        he = house_edge(rules, blackjack_pays=float(bj_line.odds))
        bets["main"] = _bet(he.rtp, "computed", detail=he.method)
        p_bj = he.blackjack_win_probability  # a blackjack against a dealer blackjack is a push
        lines.insert(0, _line("main/blackjack", bj_line.label, bj_line.pays_text, "main", p_bj,
                              p_bj * float(bj_line.odds), "computed"))
        lines.insert(1, _line("main/win", win_line.label, win_line.pays_text, "main", None, None, "computed"))
    else:
        bets["main"] = _bet(None, "unsupported",
                            detail="the basic-strategy analysis assumes even-money wins and odds on a blackjack")
    return {"game": game, "lines": lines, "bets": bets, "pending": []}


def fraction_text(x: Fraction) -> str:
    """An exact fraction as ``"p/q"``."""
    return f"{x.numerator}/{x.denominator}"
