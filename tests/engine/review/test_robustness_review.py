"""Malformed input never escapes as anything but a ValueError naming a field, and well-formed rounds
keep the contract's arithmetic (total_net is the sum of the nets; paying exactly what is due leaves no
discrepancy), for Finnish 27 and both blackjack games."""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine import verify_round
from tables.engine.errors import InvalidInput

F27: dict[str, Any] = {
    "game": "finnish-27", "table_minimum": "10.00", "dealer": {"cards": ["9C", "9D"]},
    "seats": [{"seat": 1, "wagers": {"main": "10.00"}, "hands": [{"cards": ["9S", "9H", "9D"]}],
               "paid": {"main": "10.00", "bonus": "9990.00"}}],
    "pay_table": {"lines": [{"name": "jo-jo", "pays": {"odds": "1:1"}}]}, "rules": {"decks": 6},
}  # fmt: skip
UNL: dict[str, Any] = {
    "game": "unlimited-blackjack", "table_minimum": "5.00", "dealer": {"cards": ["6H", "TC", "9S"]},
    "pay_table": {"lines": [{"name": "perfect-pairs/perfect", "pays": {"odds": "25:1"}}]},
    "rules": {"dealer_hits_soft_17": False},
    "seats": [{"seat": 3, "player": "p", "wagers": {"main": "10.00", "perfect-pairs": "5.00", "21+3": "5.00"},
               "hands": [{"cards": ["8S", "3D", "QC"], "doubled": False, "surrendered": False},
                         {"cards": ["8H", "9C"], "doubled": False, "surrendered": False}],
               "behind": [{"wagers": {"main": "5.00", "insurance": "2.50"}, "double_along": True,
                           "follow_split": "both", "player": "q"}],
               "paid": {"main": "20.00", "behind": "10.00", "perfect-pairs": "30.00"}},
              {"seat": 5, "behind": [{"wagers": {"main": "5.00"}}]}],
}  # fmt: skip
MINI: dict[str, Any] = {
    "game": "mini-blackjack", "table_minimum": "5.00", "dealer": {"cards": ["AS", "7H"]},
    "seats": [{"seat": 2, "wagers": {"main": "10.00", "insurance": "5.00"}, "hands": [{"cards": ["TS", "9D"]}],
               "paid": {"main": "10.00"}}],
}  # fmt: skip

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "x", "10.00", "-1", "0", "1e300", "NaN", "AS", "JK", "10H", "ZZ", "both", "first"]),
    st.just([]), st.just({}), st.just([None]), st.just(["AS"] * 9), st.just({"cards": 1}), st.just([{}]),
)


def _paths(obj: Any, pre: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [pre] if pre else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*pre, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*pre, i))
    return out


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    base = copy.deepcopy(draw(st.sampled_from([F27, UNL, MINI])))
    for _ in range(draw(st.integers(1, 2))):
        paths = _paths(base)
        path = draw(st.sampled_from(paths))
        parent: Any = base
        for k in path[:-1]:
            parent = parent[k]
        if isinstance(parent, dict) and draw(st.booleans()) and draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = copy.deepcopy(draw(JUNK))  # st.just objects are shared between draws
    return base


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_requests_answer_or_raise_a_value_error_with_a_field(req):
    try:
        answer = verify_round(req)
    except InvalidInput as exc:
        assert exc.field
        return
    assert set(answer) >= {"seats", "violations", "discrepancies"}


def _due(lines: list[dict[str, Any]]) -> dict[str, str]:
    due: dict[str, Decimal] = {}
    for ln in lines:
        net = Decimal(ln["net"])
        due[ln["bet"]] = due.get(ln["bet"], Decimal("0.00")) + max(net, Decimal("0.00"))
    return {k: str(v) for k, v in due.items()}


@settings(max_examples=200, deadline=None)
@given(
    game=st.sampled_from(["unlimited-blackjack", "mini-blackjack"]),
    player=st.lists(st.sampled_from(["AS", "KD", "9C", "7H", "5S", "2D", "TH", "8C"]), min_size=2, max_size=4),
    dealer=st.lists(st.sampled_from(["AH", "QS", "6D", "9S", "4C", "3H"]), min_size=2, max_size=4),
    main=st.sampled_from(["10.00", "5.01", "25.00", "0.01"]),
)
def test_paying_what_is_due_leaves_no_discrepancy_and_total_net_is_the_sum(game, player, dealer, main):
    s: dict[str, Any] = {"seat": 1, "wagers": {"main": main}, "hands": [{"cards": player}]}
    req = {"game": game, "table_minimum": "5.00", "dealer": {"cards": dealer}, "seats": [s]}
    answer = verify_round(req)
    lines = answer["seats"][0]["lines"]
    assert Decimal(answer["seats"][0]["total_net"]) == sum((Decimal(ln["net"]) for ln in lines), Decimal(0))
    for ln in lines:
        assert ln["net"] == f"{Decimal(ln['net']):.2f}" and ln["wager"] == f"{Decimal(ln['wager']):.2f}"
    s["paid"] = _due(lines)
    assert verify_round(req)["discrepancies"] == []
