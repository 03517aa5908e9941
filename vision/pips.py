"""A second witness for a small index's suit: the card's first pip.

A suit printed a few pixels tall in the photograph cannot tell a spade from a club, or a heart from
a diamond (blur fills a club's lobes and a heart's notch).  The pips of the card's face are printed
several times larger, and the first of them stands upright just right of and below the index.  When
the index's suit is small, the largest suit-shaped glyph of the index's colour near the corner is
read, and its shape decides between the two suits of that colour.  The colour itself stays the
index's (a strong cue at any size), and so does the rank.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from .arrays import F32, U8, Floats, i32, u8
from .config import RecognizerConfig
from .features import glyph_features
from .index_reader import CornerRead, cut_level, ink_levels, redness, suit_shape_prior
from .model import SUIT_COLUMNS, Mlp

# Where the first pip can be, as fractions of the card's width and height (from the top-left corner):
# right of the index column and in the card's upper part (pips below the middle stand upside down).
REGION_W, REGION_H = 0.62, 0.45
# An ace's one pip is in the middle: the region reaches past it.
ACE_W, ACE_H = 0.8, 0.75


def pip_suit_weights(image: U8, quad: F32, model: Mlp, config: RecognizerConfig,
                     read: CornerRead, px_scale: float, *, ace: bool = False) -> Floats | None:
    """Weights over the suits (S, H, D, C) from the pip nearest the index of the card ``quad`` (TL, TR,
    BR, BL, the index top left), or None when no pip of the index's colour reads plainly as a suit.
    For an ``ace`` the pip is its one large pip in the middle of the card.

    Only the index colour's two suits are weighed (the other two get 1): the colour is the index's."""
    if read.probs is None:
        return None
    # Warped at about the photograph's own resolution: finer would only interpolate.
    k = min(1.0, max(0.5, px_scale))
    w, h = config.card_width * k, config.card_height * k
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    region_w, region_h, largest = (ACE_W, ACE_H, 0.4) if ace else (REGION_W, REGION_H, 0.2)
    size = (int(region_w * w), int(region_h * h))
    crop = u8(cv2.warpPerspective(image, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
    grey, lo, hi, otsu = ink_levels(crop)
    if hi - lo < 40:
        return None
    ink = (grey < cut_level(lo, hi, otsu)).astype(np.uint8)
    _, cc_labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    labels = i32(cc_labels)
    xs, ys, cws, chs, areas = (stats[:, i] for i in range(5))
    per_px = k / max(px_scale, 1e-6)  # crop pixels per pixel of the photograph
    big = max(1.25 * read.suit_px, config.pip_min_px) * per_px  # larger than the index's suit
    ok = (chs >= big) & (chs <= largest * h) & (cws >= 0.55 * chs) & (cws <= 1.5 * chs)
    ok &= (areas >= 0.3 * cws * chs) & (areas <= 0.9 * cws * chs)
    ok &= (xs > 0) & (ys > 0) & (xs + cws < size[0]) & (ys + chs < size[1])
    ok[0] = False
    red = float(read.probs[:, [1, 2]].sum()) > float(read.probs[:, [0, 3]].sum())
    cands: list[int] = []
    masks: list[U8] = []
    for label in np.nonzero(ok)[0]:
        box = (slice(ys[label], ys[label] + chs[label]), slice(xs[label], xs[label] + cws[label]))
        mask = labels[box] == label
        if (redness(crop[box][mask]) > config.red_threshold) == red:
            cands.append(int(label))
            masks.append(mask.astype(np.uint8) * 255)
    if not cands:
        return None
    p = model.probabilities(np.stack([glyph_features(mk) for mk in masks]))
    pair = [1, 2] if red else [0, 3]
    suit_at = (read.suit_at[0] * k, read.suit_at[1] * k)
    lines: U8 | None = None
    # The pip nearest the corner is the card's own (further on there may be another card's).
    for j in sorted(range(len(cands)), key=lambda j: ys[cands[j]] + xs[cands[j]]):
        suits: Floats = p[j, SUIT_COLUMNS]
        if suits.sum() < config.pip_suit_mass:
            continue
        i = cands[j]
        if lines is None:
            edges = u8(cv2.Canny(cv2.GaussianBlur(grey, (3, 3), 0), 20, 50))
            edges[cv2.dilate(ink, np.ones((5, 5), np.uint8)) > 0] = 0
            lines = u8(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
        if _crossed(lines, suit_at, (xs[i] + cws[i] / 2, ys[i] + chs[i] / 2)):
            # A line between the index and the pip (another card's edge over this one, a court
            # card's frame): the pip is not this card's own.
            continue
        suits = suits * suit_shape_prior(masks[j], chs[i] / per_px, config)
        weights = np.ones(4)
        weights[pair] = suits[pair] / (suits[pair].sum() + 1e-12)
        return weights
    return None


def _crossed(lines: U8, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether the segment from ``a`` to ``b`` (x, y) meets a line pixel."""
    n = int(max(abs(b[0] - a[0]), abs(b[1] - a[1]))) + 1
    xs = np.rint(np.linspace(a[0], b[0], n)).astype(int).clip(0, lines.shape[1] - 1)
    ys = np.rint(np.linspace(a[1], b[1], n)).astype(int).clip(0, lines.shape[0] - 1)
    return bool(lines[ys, xs].any())


def with_pip_suit(read: CornerRead, weights: Floats) -> CornerRead:
    """``read`` with its suit odds weighed by a pip's ``weights`` (its total probability kept)."""
    assert read.probs is not None
    probs = read.probs * weights[None, :]
    probs *= read.probs.sum() / (probs.sum() + 1e-12)
    return replace(read, probs=probs)
