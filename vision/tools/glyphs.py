"""Glyph rendering for the synthetic generator: font outlines (via matplotlib's font machinery) and drawn suits.

Used only to make training and test data; the recogniser's runtime needs numpy and cv2 alone.
"""

from __future__ import annotations

import glob
import math
import os
from functools import cache, lru_cache

import cv2
import numpy as np

from ..arrays import F64, U8, u8

SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}

# Fonts to draw indices with.  DejaVu is left out on purpose: the development set is drawn with it,
# and keeping it out of training keeps that set an honest measure of unseen fonts.
_FONT_PATTERNS = [
    "/usr/share/fonts/truetype/*/*.ttf",
    "/usr/share/fonts/truetype/*/*.otf",
    "/usr/share/fonts/opentype/*/*.otf",
    "/usr/share/fonts/opentype/*/*.ttf",
]
# Noto ships a font per script: keep its Latin faces only.
_NOTO_KEEP = ("notosans-", "notoserif-", "notosansmono-")
# FreeSerif Bold draws a club at the spade's code point (U+2660) and a spade at the club's (U+2663):
# its suits would teach the classifier, and label test cards, the wrong way round.
_SUITS_SWAPPED = ("freeserifbold",)
# Linux Biolinum Keyboard draws every character as a keycap, a box around the letter: no index.
_SKIP = ("linbiolinum_k.", "dejavu", "d050000l", "z003", "standardsymbols", "italic", "oblique", "ital", "bdit", "bi.", "symbol",
         "emoji", "math", "thin", "hairline")


def all_font_files() -> list[str]:
    """Every TrueType/OpenType file on the machine, the classifier's left-out fonts included (sorted)."""
    return sorted({path for pattern in _FONT_PATTERNS for path in glob.glob(pattern)})


def font_files() -> list[str]:
    """Index fonts available on this machine (sorted, so a seed gives the same data)."""
    files = set()
    for pattern in _FONT_PATTERNS:
        for path in glob.glob(pattern):
            name = os.path.basename(path).lower()
            if "/noto/" in path and not name.startswith(_NOTO_KEEP):
                continue
            if not any(s in name for s in _SKIP) and has_glyphs(path, "0123456789AJQK"):
                files.add(path)
    if not files:  # a bare machine: DejaVu rather than nothing (test images only; see bin/test)
        files.update(glob.glob("/usr/share/fonts/truetype/dejavu/DejaVuSans*.ttf"))
    if not files:
        raise RuntimeError("no TrueType/OpenType fonts found: install the font packages listed in bin/test")
    return sorted(files)


def suit_font_files() -> list[str]:
    """Fonts that carry the four suit symbols (DejaVu excluded, as above)."""
    out = []
    for path in font_files() + sorted(glob.glob("/usr/share/fonts/truetype/noto/NotoSansSymbols2-*.ttf")):
        if any(s in os.path.basename(path).lower() for s in _SUITS_SWAPPED):
            continue
        if has_glyphs(path, "".join(SUIT_CHARS.values())):
            out.append(path)
    return out


@cache
def has_glyphs(path: str, text: str) -> bool:
    try:
        from matplotlib.ft2font import FT2Font

        font = FT2Font(path)
        return all(font.get_char_index(ord(ch)) != 0 for ch in text)
    except Exception:
        return False


@lru_cache(maxsize=4096)
def _outline(text: str, path: str) -> tuple[F64, ...]:
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    tp = TextPath((0, 0), text, size=100, prop=FontProperties(fname=path))
    return tuple(a for a in (np.asarray(p, dtype=np.float64) for p in tp.to_polygons()) if len(a) >= 3)


def text_mask(text: str, path: str, height: int, *, stroke: int = 0, condense: float = 1.0) -> U8:
    """A binary mask (uint8 0/255) of ``text`` in the font at ``path``, ``height`` px tall, tightly cropped.

    ``stroke`` > 0 draws only the outline with that thickness (the "stroked lines" style).
    """
    polys = _outline(text, path)
    if not polys:
        raise ValueError(f"font {path} cannot draw {text!r}")
    pts = np.concatenate(polys)
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    scale = (height - 1) / max(y1 - y0, 1e-6)
    w = int(math.ceil((x1 - x0) * scale * condense)) + 3
    h = height + 2
    mask = np.zeros((h, w), np.uint8)
    for poly in polys:
        q = np.empty_like(poly)
        q[:, 0] = (poly[:, 0] - x0) * scale * condense + 1
        q[:, 1] = (y1 - poly[:, 1]) * scale + 1
        q = np.round(q * 16).astype(np.int32)
        if stroke:
            cv2.polylines(mask, [q], True, 255, stroke, cv2.LINE_AA, shift=4)
        else:
            layer = np.zeros_like(mask)
            cv2.fillPoly(layer, [q], 255, cv2.LINE_AA, shift=4)
            mask = u8(cv2.bitwise_xor(mask, layer))  # even-odd: holes of 0, 4, 6, 8, 9, A, Q, ...
    return mask


def drawn_suit(suit: str, height: int, rng: np.random.Generator) -> U8:
    """A suit drawn from shapes (not a font), with random proportions; uint8 mask, tightly cropped."""
    s = 200
    m: U8 = np.zeros((s, s), np.uint8)
    c = s // 2
    if suit == "D":
        a = rng.uniform(0.55, 0.8)
        curve = rng.uniform(0.0, 0.12)
        pts = []
        for t in np.linspace(0, 2 * math.pi, 64, endpoint=False):
            x, y = math.sin(t), -math.cos(t)
            k = 1 - curve * (1 - abs(math.cos(2 * t)))  # concave sides
            pts.append((c + 90 * a * x * k * (1 - abs(y)) / max(1 - abs(y), 1e-6) * (1 - abs(y)) ** 0, c + 90 * y))
        pts = [(c + 90 * a * (1 - abs(y - c) / 90) * (1 if x >= c else -1) * (1 - curve * 0.5), y) for x, y in pts]
        m = u8(cv2.fillPoly(m, [np.array(pts, np.int32)], 255))
    elif suit in ("H", "S"):
        r = rng.uniform(36, 48)
        sep = rng.uniform(0.75, 0.95) * r
        tip = rng.uniform(70, 95)
        cy = c - rng.uniform(15, 30)
        cv2.circle(m, (int(c - sep), int(cy)), int(r), 255, -1)
        cv2.circle(m, (int(c + sep), int(cy)), int(r), 255, -1)
        tri = np.array([(c - sep - r * 0.95, cy + r * 0.3), (c + sep + r * 0.95, cy + r * 0.3), (c, cy + tip)], np.int32)
        cv2.fillPoly(m, [tri], 255)
        if suit == "S":
            m = u8(cv2.flip(m, 0))
            ys = np.nonzero(m.any(axis=1))[0]
            base = ys.max()
            stem_w = rng.uniform(6, 14)
            foot = rng.uniform(22, 40)
            stem = np.array([(c - stem_w, base - 25), (c + stem_w, base - 25), (c + foot, base + 40), (c - foot, base + 40)], np.int32)
            m = np.pad(m, ((0, 60), (0, 0)))
            cv2.fillPoly(m, [stem], 255)
    else:  # clubs
        r = rng.uniform(26, 34)
        d = rng.uniform(1.0, 1.35) * r
        cv2.circle(m, (c, int(c - d)), int(r), 255, -1)
        cv2.circle(m, (int(c - d), int(c + r * 0.3)), int(r), 255, -1)
        cv2.circle(m, (int(c + d), int(c + r * 0.3)), int(r), 255, -1)
        cv2.circle(m, (c, int(c)), int(r * 0.6), 255, -1)
        stem_w = rng.uniform(5, 12)
        foot = rng.uniform(20, 36)
        m = np.pad(m, ((0, 60), (0, 0)))
        stem = np.array([(c - stem_w, c), (c + stem_w, c), (c + foot, c + r + 55), (c - foot, c + r + 55)], np.int32)
        cv2.fillPoly(m, [stem], 255)
    return crop_to_height(m, height)


def crop_to_height(mask: U8, height: int) -> U8:
    """Crop a mask to its ink and scale it to ``height`` px."""
    ys, xs = np.nonzero(mask)
    if len(ys) == 0:
        raise ValueError("empty mask")
    m = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    scale = height / m.shape[0]
    w = max(1, int(round(m.shape[1] * scale)))
    return u8(cv2.resize(m, (w, height), interpolation=cv2.INTER_AREA))
