"""Fuzz: whatever the request, verification answers or raises ``InvalidInput`` naming a field —
never an unexpected exception."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine import verify_round
from tables.engine.errors import InvalidInput

from .helpers import request

CODES = ["AS", "KD", "9S", "9H", "TS", "JK", "10h", "2c", "ZZ", "", "A", "1S"]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**15, 10**15) | st.floats(allow_nan=True)
    | st.sampled_from(CODES + ["10.00", "-5", "1e400", "NaN", "0.001", "1:2", "finnish-27"]) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8) | st.sampled_from(
        ["cards", "seat", "wagers", "main", "hands", "paid", "lines", "name", "pays", "odds", "table_minimum"]
    ), inner, max_size=5),
    max_leaves=20,
)  # fmt: skip


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, prefix + (i,))
    return out


def _check(req: Any) -> None:
    try:
        answer = verify_round(req)
    except InvalidInput as e:
        assert e.field, f"error without a field: {e}"
        return
    assert set(answer) == {"seats", "violations", "discrepancies"}


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), JSON)
def test_a_mutated_request_never_raises_unexpectedly(data: st.DataObject, junk: Any) -> None:
    req = request("KS 9D 4C", "KS 7D 5H", paid={"main": "10.00"})
    paths = _paths(req)[1:]
    path = data.draw(st.sampled_from(paths))
    target = req
    for key in path[:-1]:
        target = target[key]
    if data.draw(st.booleans()):
        target[path[-1]] = junk
    elif isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = copy.deepcopy(junk)
    _check(req)


@settings(max_examples=200)
@given(JSON)
def test_a_random_document_never_raises_unexpectedly(junk: Any) -> None:
    _check(junk)
    if isinstance(junk, dict):
        _check({"game": "finnish-27", **junk})


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(CODES), max_size=12),
    st.lists(st.sampled_from(CODES), max_size=12),
    st.sampled_from(["10.00", "-1", "0", "abc", 5, 5.5, None, "1e3", "99999999999999"]),
)
def test_random_cards_and_wagers_never_raise_unexpectedly(player: list[str], dealer: list[str], wager: Any) -> None:
    req = request(" ".join(player) or "AS", " ".join(dealer) or "AS")
    req["seats"][0]["wagers"]["main"] = wager
    _check(req)
