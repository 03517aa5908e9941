"""Labelled glyph samples for training the index classifier, drawn from fonts and shapes with the
distortions of real scans (size, blur, noise, stroke weight, slant, outline-only strokes)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from ..arrays import F32, I64, U8, Floats, f32, u8
from ..features import glyph_features
from ..model import CLASSES, JUNK
from .glyphs import SUIT_CHARS, drawn_suit, font_files, suit_font_files, text_mask

JUNK_LETTERS = "BEGLMNOPRUVWXYZbdeopqrs%&#@?"


def augment(mask64: U8, rng: np.random.Generator, height: int, source: int | None = None) -> U8:
    """Distort a clean glyph mask and bring it to ``height`` px, binarised as the reader does.

    With ``source``, the glyph is first drawn only ``source`` px tall, blurred and noised there, and
    enlarged to ``height``: a glyph photographed a few pixels tall and enlarged by the rectification
    (a table scene's index) is such a smooth blob of its blurred pixels.
    """
    m = mask64
    pad = 12
    m = np.pad(m, pad)
    h, w = m.shape
    angle = rng.normal(0, 3.5)
    shear = rng.normal(0, 0.06)
    sx = rng.uniform(0.8, 1.15)
    a = np.array([[sx, shear, 0], [0, 1, 0]], np.float64)
    rot = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    full = np.vstack([rot, [0, 0, 1]]) @ np.vstack([a, [0, 0, 1]])
    m = u8(cv2.warpAffine(m, full[:2], (int(w * 1.2), h), flags=cv2.INTER_LINEAR))
    k = int(rng.integers(-2, 4))
    if k > 0:
        m = u8(cv2.dilate(m, np.ones((k, k), np.uint8)))
    elif k < 0:
        m = u8(cv2.erode(m, np.ones((2, 2), np.uint8)))
    ys, xs = np.nonzero(m > 127)
    if len(ys) == 0:
        return mask64
    m = m[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    drawn = source or height
    scale = drawn / m.shape[0]
    small = cv2.resize(m, (max(1, int(round(m.shape[1] * scale))), drawn), interpolation=cv2.INTER_AREA)
    img: Floats = 255.0 - np.pad(small, 3).astype(np.float32) * rng.uniform(0.6, 1.0)
    sigma = rng.uniform(0, 1.0)
    if sigma > 0.2:
        img = f32(cv2.GaussianBlur(img, (0, 0), sigma))
    img += rng.normal(0, rng.uniform(0, 12), img.shape)
    if drawn != height:
        up = height / drawn
        img = f32(cv2.resize(img, (max(1, int(round(img.shape[1] * up))), int(round(img.shape[0] * up))),
                             interpolation=cv2.INTER_CUBIC))
    grey = np.clip(img, 0, 255).astype(np.uint8)
    _, binary = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    out = u8(binary)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(out, connectivity=8)
    if n > 1:  # keep what a reader would: components above speck size
        keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= max(2, 0.02 * out.size)]
        out = np.isin(labels, keep).astype(np.uint8) * 255
    return out


def clean_glyph(label: str, rng: np.random.Generator, fonts: list[str], suit_fonts: list[str]) -> U8:
    """A clean 64-px mask for class ``label``."""
    if label in ("S", "H", "D", "C"):
        if rng.random() < 0.55 and suit_fonts:
            return text_mask(SUIT_CHARS[label], suit_fonts[int(rng.integers(len(suit_fonts)))], 64)
        return drawn_suit(label, 64, rng)
    font = fonts[int(rng.integers(len(fonts)))]
    stroke = int(rng.integers(2, 5)) if rng.random() < 0.2 else 0
    condense = rng.uniform(0.45, 1.05) if len(label) == 2 else 1.0  # two-digit indices are often squeezed
    if label == "junk":
        kind = rng.random()
        if kind < 0.45:
            return text_mask(JUNK_LETTERS[int(rng.integers(len(JUNK_LETTERS)))], font, 64, stroke=stroke)
        m = np.zeros((64, 64), np.uint8)
        for _ in range(int(rng.integers(1, 4))):
            shape = rng.random()
            p = rng.integers(0, 64, 4)
            if shape < 0.4:
                cv2.line(m, (int(p[0]), int(p[1])), (int(p[2]), int(p[3])), 255, int(rng.integers(2, 9)))
            elif shape < 0.7:
                cv2.ellipse(m, (32, 32), (int(rng.integers(8, 30)), int(rng.integers(8, 30))), float(rng.uniform(0, 180)),
                            0, float(rng.uniform(60, 360)), 255, int(rng.integers(2, 8)))
            else:
                cv2.rectangle(m, (int(p[0]), int(p[1])), (int(p[2]), int(p[3])), 255, int(rng.choice([-1, 3, 6])))
        if not m.any():
            m[20:44, 20:44] = 255
        return m
    if rng.random() < 0.25:
        return hershey_mask(label, rng)
    return text_mask(label, font, 64, stroke=stroke, condense=condense)


HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX,
           cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL)


def hershey_mask(text: str, rng: np.random.Generator) -> U8:
    """``text`` in one of OpenCV's stroke (Hershey) fonts: the drawn-with-a-pen index style."""
    font = HERSHEY[int(rng.integers(len(HERSHEY)))]
    thick = int(rng.integers(2, 9))
    canvas = np.zeros((140, 60 + 70 * len(text)), np.uint8)
    cv2.putText(canvas, text, (20, 110), font, 3.0, 255, thick, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas)
    return canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def glyph_dataset(per_class: int, seed: int, fonts: list[str] | None = None) -> tuple[F32, I64]:
    """Features (N, F) and labels (N,): ``per_class`` glyphs of every class (twice for junk), about a
    third of them also drawn small and enlarged.  ``fonts``: the index fonts to draw with (default
    every one of ``font_files``); the suit fonts are then those of them that carry the suits."""
    rng = np.random.default_rng(seed)
    suit_fonts = suit_font_files()
    if fonts is None:
        fonts = font_files()
    else:
        suit_fonts = [p for p in suit_fonts if p in fonts or p not in font_files()]
    xs, ys = [], []
    for ci, label in enumerate(CLASSES):
        count = per_class * (2 if ci == JUNK else 1)
        for _ in range(count):
            mask = clean_glyph(label, rng, fonts, suit_fonts)
            height = int(round(math.exp(rng.uniform(math.log(8), math.log(44)))))
            xs.append(glyph_features(augment(mask, rng, height)))
            ys.append(ci)
            if height >= 12 and rng.random() < 0.5:
                # The same glyph as a table scene's small index shows it (see ``augment``).
                source = int(rng.integers(5, min(13, height)))
                xs.append(glyph_features(augment(mask, rng, height, source)))
                ys.append(ci)
    return np.stack(xs), np.array(ys, np.int64)
