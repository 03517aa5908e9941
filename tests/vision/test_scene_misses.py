"""``bench/scene_misses.py``'s matching of the cards read to the cards laid (the breakdown of a scene's
recall stands on it)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

_SPEC = importlib.util.spec_from_file_location("scene_misses", Path(__file__).resolve().parents[2] / "bench" / "scene_misses.py")
assert _SPEC is not None and _SPEC.loader is not None
scene_misses = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(scene_misses)


def _card(code: str, x: float, y: float, h: float = 100.0) -> dict[str, Any]:
    w = h * 63 / 88
    return {"code": code, "corners": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]], "height_px": h}


def test_a_card_is_found_misread_or_not_found_and_a_named_card_no_card_accounts_for_is_false() -> None:
    laid = [_card("AS", 0, 0), _card("3C", 300, 0), _card("7H", 600, 0), _card("7H", 630, 10)]
    got = [
        _card("AS", 10, 5),  # the ace, a little off: found
        _card("3S", 305, 0),  # the 3 of clubs read as a spade: misread, and a false card
        _card("7H", 900, 0),  # a 7 of hearts more than half a card from either: false
        _card("7H", 632, 8),  # the nearer 7 of hearts matched to the card it lies on
        _card("KD", 1200, 400) | {"code": "unknown"},  # an unknown card is neither found nor false
    ]
    statuses, false = scene_misses.classify(laid, got)
    assert statuses == ["found", "misread", "not found", "found"]
    assert false == [1, 2]


def test_one_read_matches_one_card_only() -> None:
    laid = [_card("9D", 0, 0), _card("9D", 20, 0)]
    statuses, false = scene_misses.classify(laid, [_card("9D", 18, 0)])
    assert sorted(statuses) == ["found", "not found"] and false == []
