"""Table scenes: every card on an overhead view of the felt, overlapping hands included.

Cards are white on a coloured felt, so the card-white regions are found first.  A region may hold a
whole blackjack hand: cards laid over each other with an offset, each lower card showing only its
top-left index and a strip.  Every card, covered or not, shows at least one right-angled corner of
its outline with its index inside; so each right-angled, convex corner of a region's outline is a
hypothesis "the top-left corner of a card", the card's rectangle is laid from it along the two edges
with the card size measured in the scene, and the index is read there.  Hypotheses that read an
index are cards; two reads of one card (from its two index corners) are merged by position.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from .cards import card_mask, portrait_order, quad_of
from .config import RecognizerConfig
from .model import load_model
from .read import read_card

ASPECT = 88 / 63


def find_cards(image: np.ndarray, config: RecognizerConfig) -> list[dict[str, Any]]:
    """Cards found in a table scene (H, W, 3) uint8 BGR: code, confidence, corners (TL, TR, BR, BL as printed)."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected a (H, W, 3) BGR image, got {image.shape}")
    model = load_model()
    mask = card_mask(image)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    h_img = image.shape[0]
    min_area = (0.1 * h_img) ** 2 * 0.35
    regions = [c for c in contours if cv2.contourArea(c) >= min_area]
    card_h = _card_height(regions, h_img)
    found: list[dict[str, Any]] = []
    for contour in regions:
        if _maybe_single(contour):
            # One card, or two lying nearly one over the other: read it whole first, and only when
            # that gives no sure card look for the cards of a hand.
            single = read_card(image, portrait_order(quad_of(contour)), model, config)
            if single is not None and single["code"] != "unknown":
                found.append(single)
                continue
        for quad in _corner_hypotheses(contour, card_h, mask):
            card = read_card(image, quad, model, config, both_corners=False)
            if card is not None:
                found.append(card)
    return _merge(found, card_h)


def _looks_single(contour: np.ndarray) -> bool:
    (w, h) = cv2.minAreaRect(contour)[1]
    if min(w, h) <= 0:
        return False
    fill = cv2.contourArea(contour) / (w * h)
    return fill > 0.93 and 1.25 < max(w, h) / min(w, h) < 1.55


def _maybe_single(contour: np.ndarray) -> bool:
    """Roughly a card's shape under the camera's tilt (looser than ``_looks_single``)."""
    (w, h) = cv2.minAreaRect(contour)[1]
    if min(w, h) <= 0:
        return False
    fill = cv2.contourArea(contour) / (w * h)
    return fill > 0.82 and 1.15 < max(w, h) / min(w, h) < 1.8


def _card_height(regions: list[np.ndarray], h_img: int) -> float:
    """The card height in pixels: from regions that hold one card, else from the image size."""
    singles = [max(cv2.minAreaRect(c)[1]) for c in regions if _looks_single(c)]
    if singles:
        return float(np.median(singles))
    return 0.2 * h_img


def _corner_hypotheses(contour: np.ndarray, card_h: float, mask: np.ndarray) -> list[np.ndarray]:
    """Card quads (TL, TR, BR, BL) laid from each right-angled convex corner of the outline."""
    peri = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, max(2.0, 0.006 * peri), True).reshape(-1, 2).astype(np.float64)
    n = len(poly)
    if n < 3:
        return []
    # Shoelace area: its sign is the outline's turning direction; a convex corner turns the same way.
    area = float(np.sum(poly[:, 0] * np.roll(poly[:, 1], -1) - np.roll(poly[:, 0], -1) * poly[:, 1]))
    sign = 1.0 if area >= 0 else -1.0
    card_w = card_h / ASPECT
    # Long straight edges of the outline, in order; a rounded card corner leaves short chamfers
    # between them, so corners are where consecutive long edges meet.
    edges = []
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        if np.linalg.norm(b - a) >= 0.12 * card_h:
            edges.append((a, b))
    out = []
    for k in range(len(edges)):
        (a1, b1), (a2, b2) = edges[k - 1], edges[k]
        d1 = (b1 - a1) / np.linalg.norm(b1 - a1)
        d2 = (b2 - a2) / np.linalg.norm(b2 - a2)
        if abs(float(d1 @ d2)) > 0.35:  # not a right angle
            continue
        if float(np.linalg.norm(a2 - b1)) > 0.25 * card_h:  # not neighbours: something lies between
            continue
        cross = d1[0] * d2[1] - d1[1] * d2[0]
        if cross * sign < 0:  # a reflex (inward) corner: where one card lies over another
            continue
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            continue
        t = np.linalg.solve(m, a2 - a1)
        p = a1 + t[0] * d1
        u, v = d2, -d1
        # TL at p: TR along the short side, BL along the long side, clockwise on screen (y down).
        for short, long_ in ((u, v), (v, u)):
            if short[0] * long_[1] - short[1] * long_[0] <= 0:
                continue
            quad = np.array([p, p + card_w * short, p + card_w * short + card_h * long_, p + card_h * long_], np.float32)
            if _covered(mask, quad) > 0.85:
                out.append(quad)
    return out


def _covered(mask: np.ndarray, quad: np.ndarray) -> float:
    """Fraction of the quad's area that is card-white."""
    x, y, w, h = cv2.boundingRect(quad.astype(np.int32))
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, mask.shape[1]), min(y + h, mask.shape[0])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(poly, [(quad - [x0, y0]).astype(np.int32)], 1)
    total = poly.sum()
    inside = cv2.contourArea(quad.astype(np.float32))
    if total == 0 or inside <= 0:
        return 0.0
    return float((poly & (mask[y0:y1, x0:x1] > 0)).sum()) / max(inside, total)


def _merge(cards: list[dict[str, Any]], card_h: float) -> list[dict[str, Any]]:
    """One entry per card: reads whose centres lie within a fifth of a card are the same card."""
    cards = sorted(cards, key=lambda c: c["confidence"], reverse=True)
    kept: list[dict[str, Any]] = []
    for c in cards:
        centre = np.mean(c["corners"], axis=0)
        if all(math.dist(centre, np.mean(k["corners"], axis=0)) > 0.2 * card_h for k in kept):
            kept.append(c)
    return kept
