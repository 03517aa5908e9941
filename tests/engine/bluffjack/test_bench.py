"""Benchmarks (run with --benchmark-enable -m "slow or not slow"); timings are reported, never asserted."""

from __future__ import annotations

import pytest

from tables.engine import verify_round

REQUEST = {
    "game": "bluffjack", "dealer": "ann",
    "players": [{"player": "ann", "stack": 100, "cards": ["9S", "7H"]},
                {"player": "bob", "stack": 100, "cards": ["8S", "5C", "TH"]},
                {"player": "cy", "stack": 100, "cards": ["KD", "6D", "9C"]}],
    "actions": [{"player": "bob", "action": "raise", "by": 1}, {"player": "cy", "action": "call"},
                {"player": "ann", "action": "fold"}, {"player": "bob", "action": "hit"},
                {"player": "cy", "action": "hit"},
                {"player": "bob", "action": "check"}, {"player": "cy", "action": "check"}],
}


@pytest.mark.slow
def test_bench_verify_a_bluffjack_hand(benchmark):
    answer = benchmark(verify_round, REQUEST)
    assert answer["house"] == 5
