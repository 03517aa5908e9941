"""Where a table scene's recall and precision are lost, on decks of faces never trained on.

Usage: .venv/bin/python bench/scene_misses.py SEED [SEED ...] [--json OUT]

Draws the scenes ``bench/scene_sure_reads.py`` draws for the same seeds (every unseen-face deck in
every index layout, two scenes each, the stream ``[seed, design, 99]``; the generator's index labels
asked for, which leaves the pictures as they are) and reads them with the shipped ``vision.recognize``.
Each card laid is matched to a reported card of its code whose centre lies within half a card of its
own (nearest first); a card laid and not matched is *missed*: *misread* where an unmatched named card
lies within half a card of it, else *not found*.  A named card matched to no card laid is *false*.
The misses are broken down by the card's height in the picture, its index layout, whether it is the
top card of its hand, whether its top-left index shows (and where it does not, whether the bottom-right
one does), and Jokers; and for every card laid, the
corner CNN's read of its top-left index at its true outline (as ``read.scene_witness`` reads a scene
card's corner) tells a card the network could have named from one the reader could not have.
Prints tables; with ``--json``, writes every card's row.  Reports numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from vision import recognize  # noqa: E402
from vision.config import DEFAULT_CONFIG  # noqa: E402
from vision.index_reader import CornerRead  # noqa: E402
from vision.read import _cnn_reads, _combine, corner_at  # noqa: E402
from vision.tools.heldout import deck, unseen_decks  # noqa: E402
from vision.tools.synth import INDEX_LAYOUTS, design_style, table_image  # noqa: E402


def _centre(corners: Any) -> np.ndarray:
    return np.asarray(corners, np.float64).mean(axis=0)


def _cnn_at(img: np.ndarray, corners: Any) -> tuple[str, float]:
    """The corner CNN's card and confidence at the top-left index of the true outline ``corners``."""
    (read,) = _cnn_reads([corner_at(img, np.asarray(corners, np.float32), DEFAULT_CONFIG)], DEFAULT_CONFIG)
    code, confidence, _, _ = _combine(read, CornerRead(None), DEFAULT_CONFIG, False)
    return str(code), round(float(confidence), 4)


def classify(laid: list[dict[str, Any]], got: list[dict[str, Any]]) -> tuple[list[str], list[int]]:
    """Each card laid's status (found, misread, not found), and the false cards (indices into ``got``):
    a card laid is found by a reported card of its code whose centre lies within half a card of its
    own (the nearest pairs matched first, each read to one card); one not found is misread where an
    unmatched named card lies that near."""
    pairs = sorted(
        (float(np.linalg.norm(_centre(g["corners"]) - _centre(card["corners"]))) / float(card["height_px"]), i, j)
        for i, card in enumerate(laid) for j, g in enumerate(got) if g["code"] == card["code"]
    )  # fmt: skip
    matched: list[int | None] = [None] * len(laid)
    used: set[int] = set()
    for d, i, j in pairs:  # the nearest pairs first
        if d < 0.5 and matched[i] is None and j not in used:
            matched[i] = j
            used.add(j)
    false = [j for j, g in enumerate(got) if j not in used and g["code"] != "unknown"]
    statuses = []
    for card, j in zip(laid, matched, strict=True):
        h, centre = float(card["height_px"]), _centre(card["corners"])
        near = any(float(np.linalg.norm(_centre(got[f]["corners"]) - centre)) / h < 0.5 for f in false)
        statuses.append("found" if j is not None else "misread" if near else "not found")
    return statuses, false


def scene_rows(img: np.ndarray, label: dict[str, Any], where: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per card laid (found, misread, not found) and per false card of one scene."""
    got = recognize(img)
    laid = label["cards"]
    statuses, false = classify(laid, got)
    rows: list[dict[str, Any]] = []
    for card, status in zip(laid, statuses, strict=True):
        visible = [i["visible"] for i in card["indices"]]
        cnn_code, cnn_conf = _cnn_at(img, card["corners"])
        rows.append({**where, "code": card["code"], "status": status,
                     "top": bool(card["top_of_stack"]), "height": round(float(card["height_px"]), 1),
                     "index_shows": bool(visible[0]) if visible else False,
                     "other_index_shows": any(bool(v) for v in visible[1:]),
                     "cnn": cnn_code, "cnn_confidence": cnn_conf})  # fmt: skip
    for f in false:
        centre = _centre(got[f]["corners"])
        on_card = any(float(np.linalg.norm(_centre(c["corners"]) - centre)) / float(c["height_px"]) < 0.5 for c in laid)
        rows.append({**where, "code": got[f]["code"], "status": "false", "confidence": float(got[f]["confidence"]),
                     "on_card": on_card})
    return rows


def draw(seeds: list[int], log: Callable[[str], object] = print) -> list[dict[str, Any]]:
    """Every row of every scene of ``seeds``."""
    rows: list[dict[str, Any]] = []
    for seed in seeds:
        for name, font, number in unseen_decks():
            for li, layout in enumerate(INDEX_LAYOUTS):
                design, finnish = deck(number, li)
                style = design_style(design, font, finnish=finnish, index=layout)
                rng = np.random.default_rng([seed, design, 99])
                for k in range(2):
                    img, label = table_image(rng, style=style, indices=True)
                    rows += scene_rows(img, label, {"seed": seed, "deck": name, "layout": layout, "scene": k})
        log(f"seed {seed} read")
    return rows


def _table(title: str, key: Callable[[dict[str, Any]], Any], laid: list[dict[str, Any]]) -> None:
    """Cards laid and missed by ``key``."""
    print(f"\n{title}: missed / laid (misread, not found)")
    keys = sorted({key(r) for r in laid}, key=str)
    for k in keys:
        rs = [r for r in laid if key(r) == k]
        s = Counter(r["status"] for r in rs)
        missed = s["misread"] + s["not found"]
        print(f"  {k!s:>14}: {missed:5d} / {len(rs):5d} = {missed / len(rs):6.1%}  ({s['misread']}, {s['not found']})")


def report(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Print the breakdowns; return the totals."""
    laid = [r for r in rows if r["status"] != "false"]
    false = [r for r in rows if r["status"] == "false"]
    s = Counter(r["status"] for r in laid)
    totals = {"cards": len(laid), "found": s["found"], "misread": s["misread"], "not_found": s["not found"],
              "false": len(false), "false_on_a_card": sum(r["on_card"] for r in false)}  # fmt: skip
    print(json.dumps(totals))
    _table("card height (px, of 720)", lambda r: f"{int(r['height'] // 20 * 20)}-{int(r['height'] // 20 * 20 + 19)}", laid)
    _table("index layout", lambda r: r["layout"], laid)
    _table("top card of its hand", lambda r: r["top"], laid)
    _table("top-left index shows", lambda r: r["index_shows"], laid)
    _table("top-left index covered: the bottom-right one shows",
           lambda r: r["other_index_shows"], [r for r in laid if not r["index_shows"]])
    _table("Joker", lambda r: r["code"] == "JK", laid)
    _table("deck", lambda r: r["deck"], laid)
    print("\nthe corner CNN at the true outline's top-left index:")
    for status in ("found", "misread", "not found"):
        rs = [r for r in laid if r["status"] == status]
        c = Counter(("right" if r["cnn"] == r["code"] else "wrong") + (" >= 0.5" if r["cnn_confidence"] >= 0.5 else " < 0.5") for r in rs)
        print(f"  {status:>9} ({len(rs)}): " + ", ".join(f"{k} {c[k]}" for k in ("right >= 0.5", "right < 0.5", "wrong >= 0.5", "wrong < 0.5")))
    print("\nfalse cards by confidence: " + ", ".join(
        f"{lo:.1f}-{lo + 0.1:.1f} {sum(lo <= r['confidence'] < lo + 0.1 for r in false)}" for lo in np.arange(0.0, 1.0, 0.1)))
    return totals


def main() -> None:
    """Parse, draw, report, and write the rows where asked."""
    parser = argparse.ArgumentParser()
    parser.add_argument("seeds", type=int, nargs="+")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows = draw(args.seeds)
    report(rows)
    if args.json:
        args.json.write_text(json.dumps(rows))


if __name__ == "__main__":
    main()
