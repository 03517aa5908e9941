"""``manage.py analyse``: the game math on the command line (shared/DESIGN.md, "Game math CLI").

Subcommands: ``rtp`` (exact return of a bet), ``dealer`` (dealer outcome chart), ``strategy``
(computed basic strategy), ``house-edge`` (a game's house edge; simulated for Finnish 27).
Readable tables by default, ``--json`` for machines; long simulations show a progress bar on stderr.
The command is a thin adapter: all the math is in ``tables.analysis`` (no Django there).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any, TypeVar

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.engine.errors import InvalidInput
from tables.engine.games import SLUGS, games_of_engine
from tables.engine.rulesets import BlackjackRules, Finnish27Rules, ShoeRules

GAMES = SLUGS
BLACKJACK = games_of_engine("blackjack")
R = TypeVar("R", bound=ShoeRules)


def _rules_of(game: str, kind: type[R], params: dict[str, Any] | None = None) -> R:
    """The game's published rules (``params`` over them) as the ``kind`` of rules the math takes;
    a CommandError naming the game when its rules are of another kind."""
    from tables.analysis import resolve_rules

    rules = resolve_rules(game, params)
    if not isinstance(rules, kind):
        raise CommandError(f"{game} has {type(rules).__name__}, not {kind.__name__}: no such analysis")
    return rules


class ProgressBar:
    """A one-line progress bar on stderr (only when stderr is a terminal or ``force``)."""

    def __init__(self, label: str, *, force: bool = False) -> None:
        self.label = label
        self.enabled = force or sys.stderr.isatty()
        self.start = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        frac = min(1.0, done / total)
        width = 30
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        rate = done / max(1e-9, time.perf_counter() - self.start)
        sys.stderr.write(f"\r{self.label} [{bar}] {100 * frac:5.1f}% {done:,}/{total:,} ({rate:,.0f}/s)")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _pct(x: float | None, digits: int = 4) -> str:
    return "-" if x is None else f"{100 * x:.{digits}f}%"


class Command(BaseCommand):
    help = "Game math: exact bet RTP, dealer outcome probabilities, computed basic strategy, house edge."
    requires_system_checks: list[str] = []  # pure math: needs no database, URLs or models

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="subcommand", required=True)

        rtp = sub.add_parser("rtp", help="exact RTP of a bet or bonus line")
        rtp.add_argument("--game", required=True, choices=GAMES)
        rtp.add_argument("--bet", required=True,
                         help="perfect-pairs, 21+3, insurance, main (blackjack); a bonus line (finnish-27)")
        rtp.add_argument("--decks", type=int, default=None, help="decks in the shoe (default: the rule set's)")
        rtp.add_argument("--jokers", type=int, default=0, help="Jokers in the shoe (side bets)")
        rtp.add_argument("--pay-table", default=None, help="pay table JSON ({\"lines\": [...]}) or @file")
        rtp.add_argument("--json", action="store_true")

        dealer = sub.add_parser("dealer", help="dealer outcome probabilities by up card")
        dealer.add_argument("--decks", default="6", help="number of decks, or 'inf' for an infinite deck")
        dealer.add_argument("--hit-soft-17", action="store_true")
        dealer.add_argument("--no-peek", action="store_true")
        dealer.add_argument("--json", action="store_true")

        strategy = sub.add_parser("strategy", help="computed basic strategy of a blackjack rule set")
        strategy.add_argument("--game", default="unlimited-blackjack", choices=BLACKJACK)
        strategy.add_argument("--decks", default=None, help="override the decks ('inf' for an infinite deck)")
        strategy.add_argument("--hit-soft-17", action="store_true")
        strategy.add_argument("--ev", action="store_true", help="also print the EV of every play")
        strategy.add_argument("--json", action="store_true")

        edge = sub.add_parser("house-edge", help="house edge of a game")
        edge.add_argument("--game", required=True, choices=GAMES)
        edge.add_argument("--strategy", default="improved", choices=("rule-text", "improved"))
        edge.add_argument("--rounds", type=int, default=10_000_000, help="simulated rounds (Finnish 27)")
        edge.add_argument("--seed", type=int, default=20261121)
        edge.add_argument("--threads", type=int, default=0, help="simulation threads (0: all cores)")
        edge.add_argument("--pay-table", default=None)
        edge.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            out = getattr(self, "_" + opts["subcommand"].replace("-", "_"))(opts)
        except InvalidInput as exc:
            raise CommandError(str(exc)) from exc
        if opts["json"]:
            self.stdout.write(json.dumps(out, indent=2))
        else:
            self.stdout.write(out["_text"] if "_text" in out else json.dumps(out, indent=2))

    # -- subcommands -------------------------------------------------------------------------------

    def _pay_table(self, text: str | None) -> object:
        if text is None:
            return None
        if text.startswith("@"):
            with open(text[1:], encoding="utf-8") as fh:
                text = fh.read()
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise CommandError(f"--pay-table is not valid JSON: {exc}") from exc

    def _rtp(self, o: dict[str, Any]) -> dict[str, Any]:
        from tables.analysis import resolve_rules
        from tables.analysis.sidebets import (
            insurance_return,
            perfect_pairs_return,
            twenty_one_plus_three_return,
        )
        from tables.engine.paytable import PayTable

        game, bet = o["game"], o["bet"]
        rules = resolve_rules(game, None)
        decks = o["decks"] or rules.decks
        table = PayTable.from_json(game, self._pay_table(o["pay_table"]))
        t0 = time.perf_counter()
        if game in BLACKJACK and bet == "perfect-pairs":
            res = perfect_pairs_return(decks, jokers=o["jokers"], pay_table=table, game=game).as_json()
        elif game in BLACKJACK and bet == "21+3":
            res = twenty_one_plus_three_return(decks, jokers=o["jokers"], pay_table=table, game=game).as_json()
        elif game in BLACKJACK and bet == "insurance":
            res = insurance_return(decks, pay_table=table, game=game).as_json()
        elif game in BLACKJACK and bet == "main":
            from dataclasses import replace

            from tables.analysis.blackjack import house_edge

            odds = table["main/blackjack"].odds
            he = house_edge(replace(_rules_of(game, BlackjackRules), decks=decks), blackjack_pays=float(odds or 1.5))
            res = {"game": game, "bet": "main", "decks": decks, "rtp": he.rtp, "house_edge": he.house_edge,
                   "outcomes": {"main/blackjack": {"probability": he.blackjack_win_probability,
                                                   "pays": float(odds or 1.5)}},
                   "by_up_card": he.by_up, "method": he.method}
        elif game == "finnish-27":
            from tables.analysis.finnish27 import exact_bonus_return

            res = exact_bonus_return(_rules_of(game, Finnish27Rules), table, bet, decks=decks)
        else:
            raise CommandError(f"no exact RTP for bet {bet!r} of {game}")
        res["seconds"] = time.perf_counter() - t0
        lines = [f"{game} {bet}: {decks} decks", f"{'outcome':28} {'probability':>12} {'pays':>8} {'contribution':>13}"]
        for name, v in res.get("outcomes", {}).items():
            pays = v.get("pays")
            contrib = v.get("contribution")
            lines.append(f"{name:28} {100 * v['probability']:11.5f}% {'' if pays is None else f'{pays:g}':>8} "
                         f"{'' if contrib is None else f'{contrib:+.6f}':>13}")
        if res.get("house_edge") is None:  # Finnish 27 lines: their share of the game's return only
            lines.append(f"sum of contributions {_pct(res['rtp'])} of the wager   ({res['seconds'] * 1000:.1f} ms)")
        else:
            lines.append(f"RTP {_pct(res['rtp'])}   house edge {_pct(res['house_edge'])}   ({res['seconds'] * 1000:.1f} ms)")
        return {**res, "_text": "\n".join(lines)} if not o["json"] else res

    def _dealer(self, o: dict[str, Any]) -> dict[str, Any]:
        from tables.analysis.dealer import dealer_chart

        decks = None if o["decks"] in ("inf", "infinite", "0") else int(o["decks"])
        chart = dealer_chart(decks, hits_soft_17=o["hit_soft_17"], peek=not o["no_peek"])
        if o["json"]:
            return chart  # exactly the contract: keyed by up card
        head = (f"Dealer outcomes, {'infinite deck' if decks is None else f'{decks} decks'}, "
                f"{'H17' if o['hit_soft_17'] else 'S17'}, "
                f"{'no peek (unconditional)' if o['no_peek'] else 'peek (given no blackjack; blackjack = found at the peek)'}")
        cols = ("17", "18", "19", "20", "21", "blackjack", "bust")
        lines = [head, "up  " + " ".join(f"{c:>9}" for c in cols)]
        for up, row in chart.items():
            lines.append(f"{up:>3} " + " ".join(f"{100 * row[c]:8.4f}%" for c in cols))
        return {"_text": "\n".join(lines)}

    def _strategy(self, o: dict[str, Any]) -> dict[str, Any]:
        from dataclasses import replace

        from tables.analysis.blackjack import compute_strategy, house_edge, strategy_chart, up_label

        rules = _rules_of(o["game"], BlackjackRules, {"dealer_hits_soft_17": True} if o["hit_soft_17"] else None)
        decks: int | None = rules.decks
        if o["decks"] is not None:
            decks = None if o["decks"] in ("inf", "infinite", "0") else int(o["decks"])
            if decks is not None:
                rules = replace(rules, decks=decks)
        strat = compute_strategy(rules, decks)
        he = house_edge(rules, decks, strat)
        chart = strategy_chart(strat)
        ev = {up_label(u): rows for u, rows in strat.ev.items()}
        res = {"game": o["game"], "decks": decks, "chart": chart, "house_edge": he.house_edge, "rtp": he.rtp,
               "method": he.method, "ev": ev,
               "legend": {"S": "stand", "H": "hit", "D/H": "double, else hit", "D/S": "double, else stand",
                          "R/H": "surrender, else hit", "R/S": "surrender, else stand", "P": "split",
                          "-": "do not split (play the total)"}}
        if o["json"]:
            return res
        ups = list(next(iter(chart["hard"].values())))
        lines = [f"Basic strategy, {o['game']}, {'infinite deck' if decks is None else f'{decks} decks'}",
                 f"house edge {_pct(he.house_edge)} (RTP {_pct(he.rtp)}); {he.method}"]
        for section, rows in chart.items():
            lines.append(f"{section:>6} " + " ".join(f"{u:>4}" for u in ups))
            for row, cells in rows.items():
                lines.append(f"{row:>6} " + " ".join(f"{cells[u]:>4}" for u in ups))
        lines.append("S stand, H hit, D/H double else hit, D/S double else stand, R/x surrender else x, P split")
        if o["ev"]:
            for up, ev_rows in ev.items():
                lines.append(f"-- EV against {up}")
                for row, opts in ev_rows.items():
                    lines.append(f"{row:>9} " + " ".join(f"{k}:{v:+.4f}" for k, v in opts.items()))
        return {"_text": "\n".join(lines)}

    def _house_edge(self, o: dict[str, Any]) -> dict[str, Any]:
        game = o["game"]
        if game in BLACKJACK:
            from tables.analysis.blackjack import house_edge

            he = house_edge(_rules_of(game, BlackjackRules))
            res: dict[str, Any] = {"game": game, "house_edge": he.house_edge, "rtp": he.rtp, "ci95": None,
                                   "rounds": None, "method": he.method,
                                   "bonus": {"main/blackjack": he.blackjack_win_probability * 1.5},
                                   "by_up_card": he.by_up}
        elif game == "finnish-27":
            from tables.analysis.finnish27 import simulate

            bar = ProgressBar(f"finnish-27 {o['strategy']}")
            res = simulate(_rules_of(game, Finnish27Rules), rounds=o["rounds"], strategy=o["strategy"],
                           seed=o["seed"], threads=o["threads"],
                           pay_table_json=self._pay_table(o["pay_table"]), progress=bar)
        else:
            raise CommandError(f"{game} is a player-versus-player game: the house has no edge to compute")
        if o["json"]:
            return res
        lines = [f"{game}: house edge {_pct(res['house_edge'])}"
                 + (f" ± {_pct(res['ci95'])} (95% CI, {res['rounds']:,} rounds)" if res.get("ci95") else ""),
                 f"method: {res.get('method', '')}"]
        for name, v in (res.get("bonus") or {}).items():
            lines.append(f"  {name:30} {v:+.6f} per unit wager")
        if res.get("rounds_per_second"):
            lines.append(f"{res['rounds_per_second']:,.0f} rounds/s")
        return {"_text": "\n".join(lines)}
