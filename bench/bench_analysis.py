"""Benchmarks of the game math (issue 6): exact RTP times, Finnish 27 rounds per second, time to a
+-0.01% confidence interval.  Prints numbers, asserts nothing.

    .venv/bin/python bench/bench_analysis.py            # quick: about a minute
    .venv/bin/python bench/bench_analysis.py --full     # also runs the simulation to +-0.01% (95% CI)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tables.analysis import paytable_rtp  # noqa: E402
from tables.analysis.blackjack import house_edge  # noqa: E402
from tables.analysis.dealer import dealer_chart  # noqa: E402
from tables.analysis.sidebets import (  # noqa: E402
    insurance_return,
    perfect_pairs_return,
    twenty_one_plus_three_return,
)
from tables.engine.rulesets import PUBLISHED_RULES, Finnish27Rules  # noqa: E402


def best_of(fn: Callable[[], object], repeat: int = 7) -> float:
    fn()  # warm caches that are per process (classifier imports, dealer trees)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--full", action="store_true", help="run the Finnish 27 simulation to +-0.01%%")
    ap.add_argument("--rounds", type=int, default=50_000_000)
    args = ap.parse_args()
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}")
    print("== exact RTP (best of 7)")
    for name, fn in [
        ("Perfect Pairs, 8 decks", lambda: perfect_pairs_return(8)),
        ("21+3, 8 decks", lambda: twenty_one_plus_three_return(8)),
        ("insurance, 8 decks", lambda: insurance_return(8)),
        ("dealer chart, 6 decks", lambda: dealer_chart(6)),
    ]:
        print(f"  {name:28} {best_of(fn) * 1000:8.2f} ms")
    for game in ("unlimited-blackjack", "mini-blackjack"):
        rules = PUBLISHED_RULES[game]
        t = best_of(lambda r=rules: house_edge(r), 3)  # type: ignore[misc]
        print(f"  {game + ' house edge':28} {t * 1000:8.2f} ms  RTP {house_edge(rules).rtp * 100:.4f}%")  # type: ignore[arg-type]
        t = best_of(lambda g=game: paytable_rtp(g, None), 3)  # type: ignore[misc]
        print(f"  {game + ' paytable_rtp':28} {t * 1000:8.2f} ms")

    from tables.analysis import finnish27 as f

    rules = Finnish27Rules()
    t = time.perf_counter()
    f.exact_lines(rules, f.PayTable.published("finnish-27"))
    print(f"  {'finnish-27 exact lines':28} {(time.perf_counter() - t) * 1000:8.2f} ms (first call, then cached)")

    print("== Finnish 27 simulation (rule-text strategy)")
    f.simulate(rules, rounds=100_000, strategy="rule-text")  # compile or load the cache
    import numba

    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        rates = []
        for _ in range(3):
            res = f.simulate(rules, rounds=10_000_000, strategy="rule-text", threads=threads)
            rates.append(res["rounds_per_second"])
        print(f"  {threads} thread(s): {statistics.median(rates):,.0f} rounds/s (median of 3 x 10M rounds)")
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    res = f.simulate(rules, rounds=10_000_000, strategy="rule-text")
    sd = res["ci95"] / 1.96 * res["rounds"] ** 0.5
    need = (1.96 * sd / 1e-4) ** 2
    print(f"  per-round SD (variance-reduced) {sd:.3f} (plain {res['ci95_plain'] / 1.96 * res['rounds'] ** 0.5:.3f})")
    print(f"  rounds for +-0.01% (95% CI): {need:,.0f}; at {res['rounds_per_second']:,.0f} rounds/s: "
          f"{need / res['rounds_per_second']:.0f} s")
    if args.full:
        for strategy in ("rule-text", "improved"):
            t = time.perf_counter()
            res = f.simulate(rules, rounds=max(args.rounds, int(need)), strategy=strategy)
            print(f"  {strategy}: house edge {res['house_edge'] * 100:.4f}% +- {res['ci95'] * 100:.4f}% "
                  f"({res['rounds']:,} rounds, {res['rounds_per_second']:,.0f}/s, {time.perf_counter() - t:.0f} s "
                  "wall incl. strategy and tables)")


if __name__ == "__main__":
    main()
