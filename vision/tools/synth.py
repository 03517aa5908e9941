"""Synthetic, labelled card images: our own cards drawn from fonts and shapes, on shoe-scan and
table-scene backgrounds with the distortions of real cameras.  Seeded and reproducible.

Used by the tests (a fresh clone has no outside images) and by ``python -m vision generate``.  The
fonts and suit shapes come from ``vision.tools.glyphs``; no third-party deck artwork is used.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..arrays import F32, F64, U8, f32, u8
from .glyphs import SUIT_CHARS, all_font_files, drawn_suit, font_files, suit_font_files, text_mask

RANKS = "A23456789TJQK"
SUITS = "SHDC"
CODES = [r + s for s in SUITS for r in RANKS] + ["JK"]
STANDARD = {"T": "10"}
FINNISH = {"A": "1", "T": "10", "J": "11", "Q": "12", "K": "13"}
CARD_W, CARD_H = 250, 350  # 63 x 88 mm


@dataclass(frozen=True)
class CardStyle:
    """How a deck draws its indices."""

    font: str
    suit_font: str | None  # None: suits drawn from shapes
    finnish: bool
    stroke: int  # 0 filled, >0 outline-only strokes
    index_h: float  # rank height as a fraction of the card height
    joker_text: bool  # the Joker prints "JOKER" down its corners (else no index)
    red: tuple[int, int, int]
    # A deck of one design prints every card alike; None draws these afresh for every card (as
    # ``random_style`` does: many designs at once).
    layout: tuple[float, float, float] | None = None  # suit height / rank height, index x and y (fractions of the card)
    corner_r: float | None = None  # rounded corner's radius (fraction of the card's width)
    paper: tuple[int, int, int] | None = None
    suit_seed: int | None = None  # drawn suits (and pips) have one shape per suit
    court: str | None = None  # the letters printed for J, Q, K (e.g. "VDR" as French decks print Valet, Dame, Roi)
    # The index layout of a design (``INDEX_LAYOUTS``); None draws the suit under the rank in two corners.
    index_layout: str | None = None


# Index layouts a design can print (``design_style(..., index=...)``, ``generate --index``):
# the suit under the rank (the generator's own layout, named), the suit beside the rank (one row,
# the rank three quarters as tall), small (5.5-7% of the card's height) or large (12-14%) indices,
# and an index in one corner only (top left; the bottom-right corner is blank).
INDEX_LAYOUTS = ("under", "beside", "small", "large", "one-corner")


def design_style(seed: int, font: str | None = None, *, finnish: bool | None = None, court: str | None = None,
                 index: str | None = None) -> CardStyle:
    """One deck design, fixed by ``seed``: every card of it has the same fonts, index layout, suit
    shapes and paper.  ``font`` (a path, or a part of a font file's name) chooses the index font among
    every font on the machine, also those the classifier's training leaves out (italics, DejaVu);
    ``court`` the three letters the deck prints for J, Q, K; ``index`` one of ``INDEX_LAYOUTS``
    (None: as before, the suit under the rank, the design's own size)."""
    if court is not None and (len(court) != 3 or not court.isalpha()):
        raise ValueError(f"court must be three letters (for J, Q, K), got {court!r}")
    if index is not None and index not in INDEX_LAYOUTS:
        raise ValueError(f"index must be one of {', '.join(INDEX_LAYOUTS)}, got {index!r}")
    rng = np.random.default_rng([seed, 7919])
    style = random_style(rng, finnish=finnish)
    if font is not None:
        style = replace(style, font=find_font(font))
    if court is not None:
        style = replace(style, finnish=False, court=court.upper())
    style = replace(
        style,
        layout=(float(rng.uniform(0.7, 0.95)), float(rng.uniform(0.03, 0.06)), float(rng.uniform(0.025, 0.05))),
        corner_r=float(rng.uniform(0.03, 0.08)),
        paper=(int(rng.integers(235, 256)), int(rng.integers(235, 256)), int(rng.integers(235, 256))),
        suit_seed=seed,
    )
    if index is None:
        return style
    # Drawn from a generator of its own, so that the design's other choices stay those of ``seed``.
    sizes = np.random.default_rng([seed, 104729])
    if index == "small":
        style = replace(style, index_h=float(sizes.uniform(0.055, 0.07)))
    elif index == "large":
        style = replace(style, index_h=float(sizes.uniform(0.12, 0.14)))
    return replace(style, index_layout=index)


def find_font(name: str) -> str:
    """A font file: ``name`` itself, or the first (sorted) font file on the machine whose file name
    contains ``name`` (case-insensitive)."""
    if Path(name).is_file():
        return name
    found = sorted(p for p in all_font_files() if name.lower() in Path(p).name.lower())
    if not found:
        raise ValueError(f"no font file on this machine matches {name!r}")
    return found[0]


def random_style(rng: np.random.Generator, *, finnish: bool | None = None) -> CardStyle:
    """A random deck design."""
    fonts = font_files()
    suits = suit_font_files()
    return CardStyle(
        font=fonts[int(rng.integers(len(fonts)))],
        suit_font=suits[int(rng.integers(len(suits)))] if rng.random() < 0.5 and suits else None,
        finnish=bool(rng.random() < 0.5) if finnish is None else finnish,
        stroke=int(rng.integers(3, 6)) if rng.random() < 0.15 else 0,
        index_h=float(rng.uniform(0.075, 0.11)),
        joker_text=bool(rng.random() < 0.5),
        red=(int(rng.integers(0, 60)), int(rng.integers(0, 50)), int(rng.integers(170, 235))),
    )


def _paste(card: U8, mask: U8, x: int, y: int, colour: tuple[int, int, int]) -> None:
    h, w = mask.shape
    h = min(h, card.shape[0] - y)
    w = min(w, card.shape[1] - x)
    if h <= 0 or w <= 0:
        return
    a = mask[:h, :w].astype(np.float32)[:, :, None] / 255.0
    region = card[y : y + h, x : x + w].astype(np.float32)
    card[y : y + h, x : x + w] = (region * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def render_card(code: str, style: CardStyle, rng: np.random.Generator) -> tuple[U8, U8]:
    """A card face (CARD_H, CARD_W, 3) BGR on white, and its alpha mask (rounded corners)."""
    card, alpha, _ = render_card_indexed(code, style, rng)
    return card, alpha


# Where a card face's indices are: the top-left index's box (x0, y0, x1, y1 in the face's pixels,
# rank and suit together, or the "JOKER" column) and the box of its copy turned half round in the
# bottom-right corner (None for a one-corner design); both None for a Joker without an index.
IndexBoxes = tuple[tuple[float, float, float, float] | None, tuple[float, float, float, float] | None]


def render_card_indexed(code: str, style: CardStyle, rng: np.random.Generator) -> tuple[U8, U8, IndexBoxes]:
    """``render_card``, and where its indices are printed (``IndexBoxes``): the same face for the
    same random numbers."""
    card = np.full((CARD_H, CARD_W, 3), 255, np.uint8)
    card[:] = style.paper or (int(rng.integers(235, 256)), int(rng.integers(235, 256)), int(rng.integers(235, 256)))
    alpha = np.zeros((CARD_H, CARD_W), np.uint8)
    r = int(CARD_W * (style.corner_r if style.corner_r is not None else rng.uniform(0.03, 0.08)))
    cv2.rectangle(alpha, (r, 0), (CARD_W - 1 - r, CARD_H - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (CARD_W - 1, CARD_H - 1 - r), 255, -1)
    for cx, cy in ((r, r), (CARD_W - 1 - r, r), (r, CARD_H - 1 - r), (CARD_W - 1 - r, CARD_H - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    if code == "JK":
        colour = (20, 20, 20) if rng.random() < 0.5 else style.red
        star = [(CARD_W / 2 + 70 * math.cos(a) * (1 if i % 2 == 0 else 0.45),
                 CARD_H / 2 + 70 * math.sin(a) * (1 if i % 2 == 0 else 0.45))
                for i, a in enumerate(np.linspace(-math.pi / 2, 3 * math.pi / 2, 10, endpoint=False))]  # fmt: skip
        cv2.fillPoly(card, [np.array(star, np.int32)], colour, cv2.LINE_AA)
        box: tuple[float, float, float, float] | None = None
        if style.joker_text:
            lh = int(style.index_h * CARD_H * 0.7)
            y = int(CARD_H * 0.03)
            widest = 0
            for ch in "JOKER":
                m = text_mask(ch, style.font, lh)
                _paste(card, m, int(CARD_W * 0.05), y, colour)
                widest = max(widest, m.shape[1])
                y += lh + max(2, lh // 5)
            box = (CARD_W * 0.05, CARD_H * 0.03, int(CARD_W * 0.05) + widest, y)
        _mirror_corner(card)
        return card, alpha, (box, _mirrored_box(box, 0.2, 0.36))
    rank, suit = code[0], code[1]
    colour = style.red if suit in "HD" else (20, 20, 20)
    label = (FINNISH if style.finnish else STANDARD).get(rank, rank)
    if style.court and rank in "JQK":
        label = style.court["JQK".index(rank)]
    beside = style.index_layout == "beside"
    rh = int(style.index_h * CARD_H * (0.75 if beside else 1.0))
    rmask = text_mask(label, style.font, rh, stroke=style.stroke, condense=0.8 if len(label) == 2 else 1.0)
    sh = int(rh * (style.layout[0] if style.layout else rng.uniform(0.7, 0.95)))
    smask = text_mask(SUIT_CHARS[suit], style.suit_font, sh) if style.suit_font else drawn_suit(suit, sh, _suit_rng(style, suit, rng))
    if style.layout:
        x0, y0 = int(CARD_W * style.layout[1]), int(CARD_H * style.layout[2])
    else:
        x0, y0 = int(CARD_W * rng.uniform(0.03, 0.06)), int(CARD_H * rng.uniform(0.025, 0.05))
    cx = x0 + rmask.shape[1] // 2
    _paste(card, rmask, x0, y0, colour)
    if beside:  # one row: the suit right of the rank, their middles level
        index_right = x0 + rmask.shape[1] + max(2, rh // 6) + smask.shape[1]
        sy = y0 + (rmask.shape[0] - smask.shape[0]) // 2
        _paste(card, smask, x0 + rmask.shape[1] + max(2, rh // 6), sy, colour)
        index_bottom = max(y0 + rmask.shape[0], sy + smask.shape[0])
    else:
        index_right = max(x0 + rmask.shape[1], cx + smask.shape[1] - smask.shape[1] // 2)
        _paste(card, smask, max(1, cx - smask.shape[1] // 2), y0 + rh + max(2, rh // 6), colour)
        index_bottom = y0 + rh + max(2, rh // 6) + smask.shape[0]
    index_box = (float(min(x0, max(1, cx - smask.shape[1] // 2))), float(y0), float(index_right), float(index_bottom))
    # The middle: pips for number cards, a framed letter for courts (kept clear of the index corner).
    if rank in "JQK":
        frame_x = int(CARD_W * 0.22) if style.index_layout is None else max(int(CARD_W * 0.22), index_right + 4)
        cv2.rectangle(card, (frame_x, int(CARD_H * 0.16)), (int(CARD_W * 0.78), int(CARD_H * 0.84)), colour, 2)
        big = text_mask(label, style.font, int(CARD_H * 0.3))
        _paste(card, big, (CARD_W - big.shape[1]) // 2, int(CARD_H * 0.35), colour)
    else:
        n = 1 if rank == "A" else int(label) if label.isdigit() and int(label) <= 10 else 1
        pip_h = int(CARD_H * (0.22 if n == 1 else 0.1))
        pip = text_mask(SUIT_CHARS[suit], style.suit_font, pip_h) if style.suit_font else drawn_suit(suit, pip_h, _suit_rng(style, suit, rng))
        for px, py in _pip_layout(n):
            # As printed on real decks, the pips of the lower half stand the other way up.
            glyph = u8(cv2.rotate(pip, cv2.ROTATE_180)) if py > 0.5 else pip
            _paste(card, glyph, int(px * CARD_W - pip.shape[1] / 2), int(py * CARD_H - pip.shape[0] / 2), colour)
    if style.index_layout == "one-corner":
        return card, alpha, (index_box, None)
    mirror_w, mirror_h = 0.36 if beside else 0.3 if style.index_layout == "large" else 0.2, 0.15 if beside else 0.36
    _mirror_corner(card, width=mirror_w, height=mirror_h)
    return card, alpha, (index_box, _mirrored_box(index_box, mirror_w, mirror_h))


def _mirrored_box(box: tuple[float, float, float, float] | None, width: float,
                  height: float) -> tuple[float, float, float, float] | None:
    """The box, in the face's pixels, of the top-left index ``box`` as ``_mirror_corner`` copies it
    (the part within ``width`` x ``height`` of the card, turned half round to the bottom-right)."""
    if box is None:
        return None
    x1, y1 = min(box[2], int(CARD_W * width)), min(box[3], int(CARD_H * height))
    if x1 <= box[0] or y1 <= box[1]:
        return None
    return (CARD_W - x1, CARD_H - y1, CARD_W - box[0], CARD_H - box[1])


def _suit_rng(style: CardStyle, suit: str, rng: np.random.Generator) -> np.random.Generator:
    """The random numbers a drawn suit's proportions come from: the card's own, or the design's for that suit."""
    return rng if style.suit_seed is None else np.random.default_rng([style.suit_seed, SUITS.index(suit)])


def _mirror_corner(card: U8, *, width: float = 0.2, height: float = 0.36) -> None:
    """Copy the top-left index (within ``width`` x ``height`` of the card), turned half round, to the
    bottom-right corner."""
    h, w = card.shape[:2]
    ch, cw = int(h * height), int(w * width)
    card[h - ch :, w - cw :] = cv2.rotate(card[:ch, :cw], cv2.ROTATE_180)


def _pip_layout(n: int) -> list[tuple[float, float]]:
    """Pip centres (fractions of width and height) of a number card, laid out as on real decks: two
    columns from a fifth to four fifths of the height, the odd pips on the centre line."""
    left, mid, right = 0.32, 0.5, 0.68
    top, bottom = 0.2, 0.8
    if n <= 3:
        return [(mid, y) for y in ([0.5], [top, bottom], [top, 0.5, bottom])[n - 1]]
    rows = {4: [top, bottom], 5: [top, bottom], 6: [top, 0.5, bottom], 7: [top, 0.5, bottom],
            8: [top, 0.5, bottom], 9: [top, 0.4, 0.6, bottom], 10: [top, 0.4, 0.6, bottom]}[n]
    centre = {4: [], 5: [0.5], 6: [], 7: [0.35], 8: [0.35, 0.65], 9: [0.5], 10: [0.3, 0.7]}[n]
    return [(x, y) for y in rows for x in (left, right)] + [(mid, y) for y in centre]


def _lighting(img: F32, rng: np.random.Generator, *, hotspot: bool) -> F32:
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    grad = 1 + rng.uniform(0, 0.3) * ((xx / w - 0.5) * math.cos(a) + (yy / h - 0.5) * math.sin(a))
    vig = 1 - rng.uniform(0, 0.3) * (((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * 2)
    out = img.astype(np.float32) * (grad * vig)[:, :, None] * rng.uniform(0.85, 1.1)
    if hotspot:
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        out += 120 * np.exp(-(((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * (0.15 * max(h, w)) ** 2)))[:, :, None]
    lit: F32 = np.clip(out, 0, 255)
    return lit


def _camera(img: F32, rng: np.random.Generator, blur: float) -> U8:
    sensed = img.astype(np.float32)
    if blur > 0.2:
        sensed = f32(cv2.GaussianBlur(sensed, (0, 0), blur))
    sensed += rng.normal(0, rng.uniform(1, 6), sensed.shape)
    out = np.clip(sensed, 0, 255).astype(np.uint8)
    q = int(rng.integers(45, 91))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return out if decoded is None else u8(decoded)


def _background(h: int, w: int, rng: np.random.Generator, felt: bool) -> F32:
    base: tuple[int, ...]
    if felt:
        base = [(40, 110, 30), (120, 60, 20), (30, 30, 120)][int(rng.integers(3))]  # green, blue, red (BGR)
    else:
        base = tuple(int(v) for v in rng.integers(15, 60, 3))
    bg = np.zeros((h, w, 3), np.float32) + np.array(base, np.float32)
    bg += rng.normal(0, 6, (h, w, 3))
    return bg


def _warp_card(face: U8, alpha: U8, canvas: F32, quad: F32, shadow: bool = True) -> None:
    h, w = canvas.shape[:2]
    src = np.array([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    if shadow:
        cover = cv2.warpPerspective(alpha, m, (w, h)).astype(np.float32) / 255.0
        sh = f32(cv2.GaussianBlur(np.roll(cover, (4, 4), axis=(0, 1)), (0, 0), 4))
        canvas *= (1 - 0.45 * sh)[:, :, None]
    f = cv2.warpPerspective(face, m, (w, h), flags=cv2.INTER_AREA).astype(np.float32)
    a = cv2.warpPerspective(alpha, m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)[:, :, None] / 255.0
    canvas[:] = canvas * (1 - a) + f * a


def card_quad(cx: float, cy: float, height: float, angle_deg: float, tilt: float, rng: np.random.Generator) -> F32:
    """Corners TL, TR, BR, BL of a card centred at (cx, cy), rotated, with a little perspective."""
    w = height * CARD_W / CARD_H
    pts = np.array([[-w / 2, -height / 2], [w / 2, -height / 2], [w / 2, height / 2], [-w / 2, height / 2]])
    pts += rng.normal(0, tilt * height, pts.shape)
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    quad: F32 = (pts @ rot.T + [cx, cy]).astype(np.float32)  # (numpy's stubs: a matrix product is Any)
    return quad


def shoe_image(code: str, rng: np.random.Generator, style: CardStyle | None = None) -> tuple[U8, dict[str, Any]]:
    """A one-card shoe scan and its label (code, corners as printed)."""
    style = style or random_style(rng)
    face, alpha = render_card(code, style, rng)
    h = int(rng.integers(300, 801))
    w = int(h * rng.uniform(0.75, 1.0))
    canvas = _background(h, w, rng, felt=bool(rng.random() < 0.5))
    angle = rng.uniform(-15, 15) + (180 if rng.random() < 0.5 else 0)
    fill = rng.uniform(0.6, 0.9)
    card_h = min(h * fill, w * fill * CARD_H / CARD_W / 1.15)
    quad = card_quad(w / 2 + rng.uniform(-0.05, 0.05) * w, h / 2 + rng.uniform(-0.05, 0.05) * h, card_h, angle, 0.02, rng)
    _warp_card(face, alpha, canvas, quad)
    img = _camera(_lighting(canvas, rng, hotspot=bool(rng.random() < 0.2)), rng, rng.uniform(0, 1.5))
    return img, {"code": code, "corners": quad.round(2).tolist(), "width": w, "height": h}


def table_image(rng: np.random.Generator, n_cards: int | None = None, style: CardStyle | None = None,
                width: int = 1280, height: int = 720, *, indices: bool = False) -> tuple[U8, dict[str, Any]]:
    """An overhead table scene with 1-12 cards, some in overlapping hands, chips and printed text.

    ``indices``: every card's label also says where its indices are in the picture (``"indices"``,
    see ``_index_labels``) and how tall the card is (``"height_px"``); the picture and the other
    labels are the same either way (the same random numbers are drawn)."""
    style = style or random_style(rng)
    canvas = _background(height, width, rng, felt=True)
    if rng.random() < 0.5:  # printed table markings: letters and digits that are not cards
        marks = np.zeros((height, width), np.uint8)
        cv2.putText(marks, "BLACKJACK PAYS 3 TO 2", (int(width * 0.3), int(height * 0.55)),
                    cv2.FONT_HERSHEY_COMPLEX, 1.2, 255, 2, cv2.LINE_AA)  # fmt: skip
        cv2.ellipse(marks, (width // 2, -200), (700, 700), 0, 30, 150, 255, 3, cv2.LINE_AA)
        ink = marks.astype(np.float32)[:, :, None] / 255.0
        canvas[:] = canvas * (1 - ink) + np.array((150, 190, 205), np.float32) * ink
    n = n_cards or int(rng.integers(1, 13))
    # As the scenes to be read span (shared/data/cards-dev/README.md), in 720 px of height.
    card_h = float(rng.uniform(85, 210)) * height / 720
    cards: list[dict[str, Any]] = []
    drawn: list[tuple[F32, IndexBoxes]] = []
    placed: list[tuple[float, float]] = []
    group = 0
    while len(cards) < n:
        size = min(n - len(cards), int(rng.integers(1, 5)))
        for _ in range(50):
            cx, cy = rng.uniform(0.1, 0.9) * width, rng.uniform(0.2, 0.8) * height
            if all(math.hypot(cx - px, cy - py) > card_h * 1.6 for px, py in placed):
                break
        placed.append((cx, cy))
        angle = rng.uniform(0, 360)
        a = math.radians(angle)
        for k in range(size):
            code = CODES[int(rng.integers(len(CODES) - 1))] if k < size - 1 else CODES[int(rng.integers(len(CODES)))]
            off = k * card_h * 0.32
            quad = card_quad(cx + off * math.cos(a) - 0.2 * off * math.sin(a),
                             cy + off * math.sin(a) + 0.2 * off * math.cos(a), card_h, angle + rng.normal(0, 4), 0.01, rng)
            face, alpha, boxes = render_card_indexed(code, style, rng)
            _warp_card(face, alpha, canvas, quad)
            cards.append({"code": code, "corners": quad.round(2).tolist(), "group": group, "stack_pos": k,
                          "top_of_stack": k == size - 1})  # fmt: skip
            drawn.append((quad, boxes))
        group += 1
    chips: list[tuple[int, int]] = []
    for _ in range(int(rng.integers(0, 5))):
        c = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
        chips.append(c)
        colour = [(180, 60, 30), (40, 40, 40), (40, 160, 40), (30, 30, 170)][int(rng.integers(4))]
        cv2.circle(canvas, c, CHIP_R, colour, -1)
        for k in range(8):
            t = k * math.pi / 4
            cv2.line(canvas, (int(c[0] + 20 * math.cos(t)), int(c[1] + 20 * math.sin(t))),
                     (int(c[0] + 26 * math.cos(t)), int(c[1] + 26 * math.sin(t))), (240, 240, 240), 4)  # fmt: skip
    img = _camera(_lighting(canvas, rng, hotspot=False), rng, rng.uniform(0, 1.0))
    if indices:
        for i, (card, (quad, boxes)) in enumerate(zip(cards, drawn, strict=True)):
            card["indices"] = _index_labels(quad, boxes, [q for q, _ in drawn[i + 1 :]], chips, (height, width))
            card["height_px"] = round(float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2, 2)
    return img, {"codes": sorted(c["code"] for c in cards), "cards": cards, "width": width, "height": height}


CHIP_R = 26  # a chip's radius in a table scene (px)


def _index_labels(quad: F32, boxes: IndexBoxes, above: list[F32], chips: list[tuple[int, int]],
                  hw: tuple[int, int]) -> list[dict[str, Any]]:
    """Where a card's indices lie in the picture: for each printed index (top left, and its copy
    turned half round bottom right), its ``centre`` and ``box`` (four points, the face's box mapped
    through the card's ``quad``), the card's ``down`` as the index reads (a unit vector), ``corner``
    (the index centre as fractions of the card's width and height from its own top-left corner),
    the share of its box ``covered`` by the cards drawn later (``above``), chips, or the picture's
    edge, and ``visible`` (less than a fifth covered)."""
    src = np.array([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    q = quad.astype(np.float64)
    down = (q[3] - q[0] + q[2] - q[1]) / 2
    down /= np.linalg.norm(down) + 1e-12
    out: list[dict[str, Any]] = []
    for which, box in enumerate(boxes):
        if box is None:
            continue
        x0, y0, x1, y1 = box
        pts = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1], [(x0 + x1) / 2, (y0 + y1) / 2]], np.float32)
        mapped = cv2.perspectiveTransform(pts[None], m)[0].astype(np.float64)
        corner = ((x0 + x1) / 2 / CARD_W, (y0 + y1) / 2 / CARD_H)
        if which == 1:  # read turned half round: its own top-left is the face's bottom-right
            corner = (1 - corner[0], 1 - corner[1])
        out.append({"centre": mapped[4].round(2).tolist(), "box": mapped[:4].round(2).tolist(),
                    "down": (down if which == 0 else -down).round(4).tolist(),
                    "corner": [round(corner[0], 4), round(corner[1], 4)],
                    "covered": round(_covered(mapped[:4], above, chips, hw), 3)})  # fmt: skip
        out[-1]["visible"] = out[-1]["covered"] < 0.2
    return out


def _covered(box: F64, above: list[F32], chips: list[tuple[int, int]], hw: tuple[int, int]) -> float:
    """The share of the quadrilateral ``box`` (4, 2) hidden by the cards ``above``, the chips or the
    picture's edge."""
    x, y, w, h = cv2.boundingRect(box.round().astype(np.int32))
    w, h = w + 2, h + 2
    inside = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(inside, (box - [x, y]).round().astype(np.int32), 1)
    area = int(inside.sum())
    if area == 0:
        return 1.0
    hidden = np.zeros_like(inside)
    for q in above:
        cv2.fillConvexPoly(hidden, (q.astype(np.float64) - [x, y]).round().astype(np.int32), 1)
    for cx, cy in chips:
        cv2.circle(hidden, (cx - x, cy - y), CHIP_R, 1, -1)
    ys, xs = np.mgrid[0:h, 0:w]
    hidden[(xs + x < 0) | (ys + y < 0) | (xs + x >= hw[1]) | (ys + y >= hw[0])] = 1
    return float((inside & hidden).sum()) / area


def generate(outdir: Path, kind: str, n: int, seed: int, *, height: int = 720, design: int | None = None,
             font: str | None = None, finnish: bool | None = None, court: str | None = None,
             index: str | None = None) -> Path:
    """Write ``n`` labelled images of ``kind`` (shoe|table) and labels.json in the cards-dev format;
    table scenes ``height`` px tall (16:9).  Without ``design`` every image has a random design of its
    own; with it every card is of the one design ``design_style(design, font, finnish=finnish)``
    (``seed`` then varies only the scans: pose, light, camera, and the scenes' cards)."""
    if kind not in ("shoe", "table"):
        raise ValueError(f"kind must be shoe or table, got {kind!r}")
    style = None if design is None else design_style(design, font, finnish=finnish, court=court, index=index)
    if style is None and (font is not None or finnish is not None or court is not None or index is not None):
        raise ValueError("--font, --finnish, --court and --index choose a deck design: give --design too")
    outdir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    images = []
    for i in range(n):
        if kind == "shoe":
            code = CODES[i % len(CODES)]
            img, label = shoe_image(code, rng, style)
            name = f"s{i:05d}.jpg"
        else:
            img, label = table_image(rng, style=style, width=height * 16 // 9, height=height)
            name = f"t{i:04d}.jpg"
        cv2.imwrite(str(outdir / name), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        images.append({"file": name, "design": "synthetic" if design is None else f"design-{design}", **label})
    path = outdir / "labels.json"
    path.write_text(json.dumps({"kind": kind, "split": f"synthetic-seed-{seed}", "codes": CODES, "images": images}))
    return path
