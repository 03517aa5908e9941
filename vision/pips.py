"""A second witness for a small index's suit: the card's first pip.

A suit printed a few pixels tall in the photograph cannot tell a spade from a club, or a heart from
a diamond (blur fills a club's lobes and a heart's notch).  The pips of the card's face are printed
several times larger, and the first of them stands upright just right of and below the index.  When
the index's suit is small, the largest suit-shaped glyph of the index's colour near the corner is
read, and its shape decides between the two suits of that colour.  The colour itself stays the
index's (a strong cue at any size), and so does the rank.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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


# The pip count: a whole card's face (a shoe scan), warped this size (pixels, portrait), is searched
# for its pips inside these margins (fractions of the width and height: clear of the index columns).
FACE_W, FACE_H = 90, 126
FACE_X, FACE_Y = 0.14, 0.07
RANKS_BY_COUNT = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T"}


@dataclass(frozen=True, slots=True)
class PipCount:
    """What a card's face says by its pips alone: the rank they count, and their suit's odds (S, H,
    D, C) from the pips' shape and colour."""

    rank: str
    suits: Floats
    # The pips' shape read from their grey levels (``pip_shape``): the summed log-odds of their colour
    # pair's second suit (C against S, D against H), over the pips clear of the face's middle row;
    # None where none is, or the reader is not shipped.
    shape_odds: float | None = None
    red: bool = False
    shape_patches: tuple[F32, ...] = ()


def pip_count(image: U8, quad: F32, model: Mlp, config: RecognizerConfig) -> PipCount | None:
    """The rank the pips of the card ``quad`` (TL, TR, BR, BL, either way up) count, with their suit,
    or None where the face does not show plainly a number card's pips: two to ten ink shapes of one
    size that read as a suit and nothing else printed among them (court art, a Joker, pips run together
    or washed out by a glare, an index reaching into the middle), or an ace's one large pip in the middle.

    Independent of the index's font and layout (the pips are printed large): a witness where the
    index corners are read unsure (``read.counted``)."""
    w, h = FACE_W, FACE_H
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    face = u8(cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE))
    x0, y0 = int(FACE_X * w), int(FACE_Y * h)
    face = face[y0 : h - y0, x0 : w - x0]
    # Ink: darker than the paper around it, or red (a pale red pip in a glare is still red).
    grey = face.min(axis=2)
    paper = cv2.blur(u8(cv2.dilate(grey, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (15, 15)))), (9, 9))
    dark = (grey.astype(np.int32) * 100 < 62 * paper.astype(np.int32)) & (paper >= 60)
    pix = face.astype(np.int16)
    redness_map = pix[:, :, 2] - np.maximum(pix[:, :, 0], pix[:, :, 1])
    red = redness_map > config.red_threshold + 12
    ink = (dark | red).astype(np.uint8)
    n, cc_labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    labels = i32(cc_labels)
    rh, rw = ink.shape
    area = stats[1:, cv2.CC_STAT_AREA]
    sig = np.nonzero(area >= 0.004 * w * h)[0] + 1
    if len(sig) == 0:
        return None
    # The pips: every shape bigger than a speck beside the larger ones, all of one size (a pip half
    # washed out, two run together, a letter or a figure beside them: no count).
    med = float(np.median(area[sig - 1]))
    sig = np.nonzero(area >= 0.25 * med)[0] + 1
    if len(sig) > 10:
        return None
    xs, ys, cws, chs = (stats[sig, i] for i in range(4))
    if ((xs == 0) | (ys == 0) | (xs + cws >= rw) | (ys + chs >= rh)).any():
        return None  # cut by the margins: an index or art reaching in, or the card's edge
    shapes = area[sig - 1]
    med, med_h = float(np.median(shapes)), float(np.median(chs))
    if (shapes < 0.6 * med).any() or (shapes > 1.67 * med).any() or (chs < 0.7 * med_h).any() or (chs > 1.43 * med_h).any():
        return None
    if int(ink.sum()) - int(shapes.sum()) > 0.1 * shapes.sum():
        return None  # more ink besides the pips than specks: art, a frame, a pattern
    # A glare can wash a pip out whole, and the rest count one fewer: looked at again for fainter ink
    # (below three quarters of the paper's level, or pinkish), no pip-sized shape may lie outside the pips.
    faint = ((grey.astype(np.int32) * 100 < 75 * paper.astype(np.int32)) & (paper >= 60)) | (redness_map > 20)
    faint &= u8(cv2.dilate(ink, np.ones((3, 3), np.uint8))) == 0
    _, _, fstats, _ = cv2.connectedComponentsWithStats(faint.astype(np.uint8), connectivity=8)
    if (fstats[1:, cv2.CC_STAT_AREA] >= 0.25 * med).any():
        return None
    if ((cws < 0.5 * chs) | (cws > 2.0 * chs)).any():
        return None
    centres = cents[sig] + [x0, y0]
    if len(sig) == 1:
        cx, cy = centres[0]
        if abs(cx - w / 2) > 0.12 * w or abs(cy - h / 2) > 0.12 * h or med_h < 0.12 * h:
            return None
    elif med_h > 0.2 * h:
        return None
    masks, owner = [], []
    for j, label in enumerate(sig):
        box = (slice(ys[j], ys[j] + chs[j]), slice(xs[j], xs[j] + cws[j]))
        mask = u8((labels[box] == label).astype(np.uint8) * 255)
        # The pips of the upper half stand upright (either way up the card is warped); the middle one
        # and the lower ones may stand either way: both are asked.
        turns = [mask] if centres[j][1] < 0.45 * h else [mask, u8(cv2.rotate(mask, cv2.ROTATE_180))]
        masks.extend(turns)
        owner.extend([j] * len(turns))
    p = model.probabilities(np.stack([glyph_features(mk) for mk in masks]))[:, SUIT_COLUMNS]
    if len(sig) == 1 and float(p.sum(axis=1).max()) < config.pip_suit_mass:
        return None  # one shape in the middle that is no suit: a figure, a letter, a Joker's art
    # The colour says which two suits (a spade turned round reads as a heart); the shape, between them.
    red_pips = bool(redness(face[ink > 0]) > config.red_threshold)
    pair = [1, 2] if red_pips else [0, 3]
    suits = np.zeros(4)
    suits[pair] = p[:, pair].sum(axis=0) + 1e-3
    boxes = [(int(xs[j]), int(ys[j]), int(cws[j]), int(chs[j])) for j in range(len(sig))]
    patches = _shape_patches(grey, u8(paper), boxes, [float(c[1]) for c in cents[sig]], face.shape[0] + 2 * y0, y0)
    from .pip_shape import load_pip_shape

    shape = load_pip_shape()
    odds = float(shape.log_odds(patches, red_pips).sum()) if shape is not None and patches else None
    return PipCount(RANKS_BY_COUNT[len(sig)], suits / suits.sum(), odds, red_pips, tuple(patches))


def _shape_patches(grey: U8, paper: U8, boxes: list[tuple[int, int, int, int]], ys: list[float], full_h: int,
                   y0: int) -> list[F32]:
    """The grey patches (``pip_shape.pip_patch``) of the pips of the face's upper part (upright) and
    lower part (turned back); a middle pip may stand either way and is left out.  ``boxes`` and ``ys``
    (the pips' centres) are in ``grey``, the face of height ``full_h`` cut by ``y0`` at top and bottom."""
    from .pip_shape import pip_patch

    patches = []
    for box, cy in zip(boxes, ys, strict=True):
        at = (cy + y0) / full_h
        if 0.45 <= at <= 0.55:
            continue
        x, y, w, h = box
        level = float(paper[min(y + h // 2, paper.shape[0] - 1), min(x + w // 2, paper.shape[1] - 1)])
        patches.append(pip_patch(grey, box, level, turned=at > 0.55))
    return patches
