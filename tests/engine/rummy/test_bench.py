"""Benchmarks (run with --benchmark-enable -m "slow or not slow"); timings are reported, never asserted."""

from __future__ import annotations

import pytest

from tables.engine import rummy
from tables.engine.cards import parse_cards

SCAN = "QC 7S 3H 9C 4H TC JK 6H 7D JC 7H 5S".split()


@pytest.mark.slow
def test_bench_verify_contract_from_twelve_scanned_cards(benchmark):
    result = benchmark(rummy.verify_contract, SCAN[:11], 6)
    assert result.met


@pytest.mark.slow
def test_bench_find_contract_in_a_twelve_card_hand(benchmark):
    hand = parse_cards("7S 7H 7D 3H 4H JK 6H 9C TC JC QC KS 2D")
    result = benchmark(rummy.find_contract, hand, 6)
    assert result is not None
