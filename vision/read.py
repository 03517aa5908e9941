"""From a card's four corners to its code: rectify, read both index corners, combine."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from .cards import rectify
from .config import RecognizerConfig
from .index_reader import RANKS, SUITS, CornerRead, read_corner
from .model import Mlp

CODES = [r + s for r in RANKS for s in SUITS]


def corner_crop(card: np.ndarray, config: RecognizerConfig) -> np.ndarray:
    """The top-left index corner of a canonical card."""
    h, w = card.shape[:2]
    return card[: int(config.corner_h * h), : int(config.corner_w * w)]


def read_card(image: np.ndarray, quad: np.ndarray, model: Mlp, config: RecognizerConfig,
              *, both_corners: bool = True) -> dict[str, Any] | None:
    """Read the card whose corners are ``quad`` (clockwise, portrait order guessed).

    Returns the contract's fields: code, confidence, corners (TL, TR, BR, BL as printed), and
    ``guesses`` when the code is "unknown".  With ``both_corners=False`` (a hypothesis "this is the
    card's top-left corner" in a table scene) a corner with no index gives None: no card there.
    """
    card = rectify(image, quad, config)
    top = read_corner(corner_crop(card, config), model, config)
    bottom = read_corner(corner_crop(cv2.rotate(card, cv2.ROTATE_180), config), model, config) if both_corners else CornerRead(None)
    if not both_corners and top.probs is None and not top.joker_text:
        return None
    code, confidence, guesses, flipped = _combine(top, bottom, config, both_corners)
    corners = np.roll(quad, -2, axis=0) if flipped else quad
    out: dict[str, Any] = {
        "code": code if confidence >= config.unknown_below else "unknown",
        "confidence": round(float(confidence), 4),
        "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in corners],
    }
    if out["code"] == "unknown":
        out["guesses"] = guesses
    return out


def _combine(top: CornerRead, bottom: CornerRead, config: RecognizerConfig, both: bool) -> tuple[str, float, list[dict[str, Any]], bool]:
    reads = [r for r in (top, bottom) if r.probs is not None]
    if not reads:
        if top.joker_text or bottom.joker_text:
            return "JK", 0.93, [{"code": "JK", "confidence": 0.93}], False
        if both and not top.ink and not bottom.ink:
            # Nothing printed in either index corner: a Joker without index (a normal card always has one).
            c = config.joker_no_index_confidence
            return "JK", c, [{"code": "JK", "confidence": c}], False
        c = config.joker_no_index_confidence * 0.6
        return "JK", c, [{"code": "JK", "confidence": c}], False
    if len(reads) == 2:
        p1, p2 = top.probs, bottom.probs
        joint = p1 * p2  # type: ignore[operator]
        p = joint / joint.sum() if joint.sum() > 1e-12 else (p1 + p2) / 2  # type: ignore[operator]
        best = int(np.argmax(p))
        # Calibration: a confident read needs both corners to say the same card with confidence;
        # the geometric mean keeps one sure corner from covering for an unsure one, and a
        # disagreement caps the confidence so that the tablet asks.
        agree = int(np.argmax(p1)) == int(np.argmax(p2)) == best  # type: ignore[arg-type]
        a, b = float(p1.ravel()[best]), float(p2.ravel()[best])  # type: ignore[union-attr]
        c = float(np.sqrt(a * b)) if agree else min(0.6, 0.8 * max(a, b))
        scale = c / max(float(p.ravel()[best]), 1e-12)
        flipped = float(p2.max()) > float(p1.max()) + 0.05  # type: ignore[union-attr]
    else:
        p = reads[0].probs
        flipped = top.probs is None
        scale = config.single_corner_factor
    flat = p.ravel() * scale  # type: ignore[union-attr]
    order = np.argsort(flat)[::-1][:3]
    guesses = [{"code": CODES[i], "confidence": round(float(flat[i]), 4)} for i in order]
    return CODES[order[0]], float(flat[order[0]]), guesses, flipped
