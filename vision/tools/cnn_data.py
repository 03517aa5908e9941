"""Corpus of the corner CNN (``vision.cnn``): index corners rendered here, from the machine's fonts
and drawn shapes, as ``read.read_corner_at`` crops them from a photograph.

Each sample is the top-left corner of a canonical card (``corner_w`` x ``corner_h`` of a 180 x 252
card: 54 x 95 px, BGR), with its labels: a kind (a rank A..K, whatever the deck prints for it: the
Finnish 1, 11, 12, 13 are A, J, Q, K; "JOKER" down the corner; a blank corner; or anything that is
no index) and a suit.  Varied: index fonts (every Latin face on the machine, split by family into
training and held-out fonts), layouts (suit under or beside the rank, sizes, places, outlined
strokes), art beyond the index (pips, court frames, scribbles), negatives (pips, court art, an index
turned a quarter or half turn, felt), occluders, and the camera (resolution, blur, noise, JPEG,
light, shadow, colour cast, the card's outline fitted a little off).

No card artwork from anywhere else is used.  Used only to train and measure; never at run time.
"""

from __future__ import annotations

import glob
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cnn import BLANK, CORNER_H, CORNER_W, JOKER, KINDS, NONE, SUITS
from vision.tools.glyphs import (
    SUIT_CHARS,
    all_font_files,
    drawn_suit,
    font_files,
    has_glyphs,
    suit_font_files,
    text_mask,
)

Img = np.ndarray

FINNISH = {"A": "1", "T": "10", "J": "11", "Q": "12", "K": "13"}
RANK_ORDER = "A23456789TJQK"
SS = 2  # supersampling of the drawing
# A few glyph shapes that are not indices, for negatives and art.
_ART_TEXT = "BDEFGHLMNOPRSUVWXYZ#%&@?!*+"


@dataclass(frozen=True)
class Variety:
    """How widely a corpus varies its indices beyond the first corpus (whose seeds the defaults draw
    again, corner for corner)."""

    slant: float = 0.0  # the share of ranks drawn slanted like an italic (``_slanted``)
    smallest: float = 0.06  # the smallest rank, a share of the card's height; below 0.06 heights are log-uniform
    beside: float = 0.12  # the share of indices with the suit beside the rank
    italics: bool = False  # drawn with ``italic_fonts`` instead of the upright training fonts


PLAIN = Variety()
WIDE = Variety(slant=0.35, smallest=0.045, beside=0.2)
ITALIC = Variety(smallest=0.045, beside=0.2, italics=True)


def family(path: str) -> str:
    """A font file's family (its file name up to the first '-' or '_', without digits of optical size)."""
    name = os.path.basename(path).rsplit(".", 1)[0]
    base = name.split("-")[0].split("_")[0]
    for suffix in ("Bold", "Oblique", "Italic", "Regular"):
        if base.endswith(suffix) and base != suffix:
            base = base[: -len(suffix)]
    return base.rstrip("0123456789") or base


def split_fonts() -> tuple[list[str], list[str]]:
    """(training fonts, held-out fonts): every fifth family (sorted) is held out."""
    fonts = font_files()
    fams = sorted({family(p) for p in fonts})
    held = {f for i, f in enumerate(fams) if i % 5 == 2}
    return [p for p in fonts if family(p) not in held], [p for p in fonts if family(p) in held]


# Italic faces are left out of ``font_files`` (``glyphs._SKIP``) so that ``heldout --unseen`` reads italics
# no reader was trained on (``heldout.UNSEEN_FACES``).  ``italic_fonts`` gives the CNN the italics of other
# families: never those of the unseen faces' families, nor of families drawn from the same designs
# (Liberation 2 is Arimo, Tinos and Cousine; FreeSans, FreeSerif and FreeMono are URW's Nimbus; Carlito
# is Lato; NimbusSansNarrow is NimbusSans), nor of the CNN's own held-out families (``split_fonts``).
_UNSEEN_LIKE = ("dejavu", "tinos", "arimo", "cousine", "liberation", "nimbus", "free", "p052", "urw", "carlito",
                "lato", "ebgaramond", "z003", "notosansold")
_ITALIC = ("italic", "oblique", "ital", "ita.", "_rbi.", "_ri.", "-i.")
# Roboto (fonts-roboto) lies deeper than ``glyphs``' patterns reach.
_MORE_FONTS = "/usr/share/fonts/truetype/roboto/**/*.ttf"
ITALICS_PER_FAMILY = 3  # a few files of each family keep the families even (Roboto ships a dozen italics)


def italic_fonts() -> list[str]:
    """Italic and oblique faces the CNN may train on (sorted; at most ``ITALICS_PER_FAMILY`` a family,
    spread over its files): Latin faces with every index glyph, none of a held-out family's."""
    held = tuple({family(p) for p in split_fonts()[1]})
    by_family: dict[str, list[str]] = {}
    for path in sorted(set(all_font_files()) | set(glob.glob(_MORE_FONTS, recursive=True))):
        name, fam = os.path.basename(path).lower(), family(path)
        if (not any(s in name for s in _ITALIC) or name.startswith(_UNSEEN_LIKE) or fam.startswith(held)
                or any(s in name for s in ("thin", "hairline", "light")) or not has_glyphs(path, "0123456789AJQK")):
            continue
        by_family.setdefault(fam, []).append(path)
    out = []
    for paths in by_family.values():
        step = max(1, len(paths) // ITALICS_PER_FAMILY)
        out += paths[::step][:ITALICS_PER_FAMILY]
    return sorted(out)


def _suit_fonts(fonts: Sequence[str]) -> list[str]:
    fams = {family(p) for p in fonts}
    return [p for p in suit_font_files() if family(p) in fams or "Symbols2" in p]


def _paste(canvas: Img, mask: Img, x: int, y: int, colour: Sequence[float]) -> None:
    """Alpha-blend ``mask`` (uint8) in ``colour`` onto ``canvas`` (float32 BGR) at (x, y), clipped."""
    h, w = mask.shape
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, canvas.shape[1]), min(y + h, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    a = mask[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.float32)[:, :, None] / 255.0
    region = canvas[y0:y1, x0:x1]
    canvas[y0:y1, x0:x1] = region * (1 - a) + np.asarray(colour, np.float32) * a


def _noise(rng: np.random.Generator, shape: tuple[int, ...], sigma: float) -> Img:
    """Gaussian noise (float32) drawn at a quarter of the size and enlarged: the felt's texture."""
    small = rng.normal(0, sigma, (shape[0] // 4 + 1, shape[1] // 4 + 1, shape[2])).astype(np.float32)
    out: Img = cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST)
    return out


def _ink(rng: np.random.Generator, red: bool) -> tuple[float, float, float]:
    if red:
        return (float(rng.uniform(0, 80)), float(rng.uniform(0, 70)), float(rng.uniform(150, 240)))
    v = float(rng.uniform(0, 60))
    return (v + float(rng.uniform(0, 20)), v, v)


def _suit_mask(suit: str, height: int, suit_font: str | None, rng: np.random.Generator) -> Img:
    if suit_font is not None:
        try:
            out: Img = text_mask(SUIT_CHARS[suit], suit_font, height)
            return out
        except ValueError:
            pass
    drawn: Img = drawn_suit(suit, height, rng)
    return drawn


def _label_text(rank: str, finnish: bool) -> str:
    if finnish and rank in FINNISH:
        return FINNISH[rank]
    return "10" if rank == "T" else rank


def _slanted(mask: Img, k: float) -> Img:
    """``mask`` sheared to the right by ``k`` (x moves by k per pixel up): an italic drawn from an
    upright face (italic faces are held out of training, ``glyphs._SKIP``)."""
    h, w = mask.shape
    extra = int(math.ceil(abs(k) * h))
    m = np.array([[1, -k, k * h if k > 0 else 0], [0, 1, 0]], np.float32)
    out: Img = cv2.warpAffine(mask, m, (w + extra, h), flags=cv2.INTER_LINEAR, borderValue=0)
    return out


def _index(rank: str, suit: str, font: str, suit_font: str | None, rh: int, rng: np.random.Generator,
           finnish: bool, variety: Variety = PLAIN) -> tuple[Img, Img, bool]:
    """Rank and suit masks (SS-scaled) and whether the suit stands beside the rank."""
    label = _label_text(rank, finnish)
    stroke = int(rng.integers(2, 4)) * SS if rng.random() < 0.08 else 0
    condense = float(rng.uniform(0.6, 0.95)) if len(label) == 2 else float(rng.uniform(0.85, 1.1))
    rmask = text_mask(label, font, rh, stroke=stroke, condense=condense)
    if variety.slant > 0 and rng.random() < variety.slant:
        rmask = _slanted(rmask, float(rng.uniform(0.1, 0.3)))
    if rng.random() < 0.25:  # bolder or lighter than the face
        k = max(1, int(rh * rng.uniform(0.02, 0.06)))
        op = cv2.dilate if rng.random() < 0.6 else cv2.erode
        rmask = np.asarray(op(rmask, np.ones((k, k), np.uint8)), np.uint8)
    beside = bool(rng.random() < variety.beside)
    sh = max(4, int(rh * rng.uniform(0.55, 1.0) * (0.8 if beside else 1.0)))
    smask = _suit_mask(suit, sh, suit_font, rng)
    return rmask, smask, beside


def _draw_art(canvas: Img, rng: np.random.Generator, colour: Sequence[float], suit: str, suit_font: str | None,
              x_from: int, y_from: int, *, court: bool) -> None:
    """Art of the card's middle seen in the corner crop, right of ``x_from`` or below ``y_from``."""
    h, w = canvas.shape[:2]
    if court:
        x, y = int(x_from + rng.uniform(0, 0.1) * w), int(y_from * rng.uniform(0.5, 1.1))
        thick = int(rng.integers(1, 4)) * SS
        cv2.rectangle(canvas, (x, y), (w + 50, h + 50), tuple(float(c) for c in colour), thick, cv2.LINE_AA)
        for _ in range(int(rng.integers(2, 10))):  # scribbled court art inside the frame
            c = (int(rng.uniform(min(x, w - 1), w)), int(rng.uniform(min(y, h - 1), h)))
            ax = (int(rng.uniform(5, 40)) * SS, int(rng.uniform(5, 40)) * SS)
            col = _ink(rng, bool(rng.random() < 0.5)) if rng.random() < 0.5 else tuple(float(v) for v in rng.uniform(40, 220, 3))
            cv2.ellipse(canvas, c, ax, float(rng.uniform(0, 180)), 0, float(rng.uniform(90, 360)), col,
                        -1 if rng.random() < 0.4 else int(rng.integers(1, 4)) * SS, cv2.LINE_AA)
    else:
        ph = int(rng.uniform(0.08, 0.2) * 252 * SS)
        pip = _suit_mask(suit, ph, suit_font, rng)
        for _ in range(int(rng.integers(1, 4))):
            g = cv2.rotate(pip, cv2.ROTATE_180) if rng.random() < 0.3 else pip
            _paste(canvas, g, int(x_from + rng.uniform(0, 0.3) * w), int(rng.uniform(-0.1, 0.9) * h), colour)


def _base(rng: np.random.Generator, hh: int, ww: int) -> tuple[Img, tuple[float, ...], int]:
    """The paper of a card's top-left corner with its rounded corner on felt (float32 BGR)."""
    paper = tuple(float(v) for v in rng.uniform(225, 256, 3))
    if rng.random() < 0.1:  # a tinted card stock
        paper = tuple(float(v * rng.uniform(0.85, 1.0)) for v in paper)
    felt = [(40, 110, 30), (120, 60, 20), (30, 30, 120), (25, 25, 25), (200, 200, 200)][int(rng.integers(5))]
    canvas = np.empty((hh, ww, 3), np.float32)
    canvas[:] = felt
    canvas += _noise(rng, canvas.shape, 6)
    off = 12 * SS  # the card starts here: room for the outline's fit to be off
    r = int(rng.uniform(0.02, 0.09) * 180 * SS)
    alpha = np.zeros((hh, ww), np.uint8)
    cv2.rectangle(alpha, (off + r, off), (ww, hh), 255, -1)
    cv2.rectangle(alpha, (off, off + r), (ww, hh), 255, -1)
    cv2.circle(alpha, (off + r, off + r), r, 255, -1, cv2.LINE_AA)
    a = alpha.astype(np.float32)[:, :, None] / 255
    canvas[:] = canvas * (1 - a) + np.asarray(paper, np.float32) * a
    if rng.random() < 0.2:  # a printed border line
        inset = off + int(rng.uniform(0.01, 0.04) * 180 * SS)
        cv2.rectangle(canvas, (inset, inset), (ww + 10, hh + 10), _ink(rng, bool(rng.random() < 0.3)), SS, cv2.LINE_AA)
    return canvas, paper, off


def _rank_height(rng: np.random.Generator, variety: Variety) -> int:
    """A rank's height (SS-scaled pixels of a 252-pixel card): 6-15% of the card, or log-uniform from
    ``variety.smallest`` (small indices as often as large ones)."""
    if variety.smallest < 0.06:
        return int(math.exp(rng.uniform(math.log(variety.smallest), math.log(0.15))) * 252 * SS)
    return int(rng.uniform(0.06, 0.15) * 252 * SS)


def render_corner(rng: np.random.Generator, fonts: Sequence[str], suit_fonts: Sequence[str],
                  variety: Variety = PLAIN) -> tuple[Img, int, int]:
    """One labelled corner: (BGR uint8 (CORNER_H, CORNER_W, 3), kind index into KINDS, suit index into
    SUITS; the suit is -1 where the kind is no rank)."""
    hh, ww = (CORNER_H + 40) * SS, (CORNER_W + 40) * SS
    canvas, _paper, off = _base(rng, hh, ww)
    font = fonts[int(rng.integers(len(fonts)))]
    suit_font = suit_fonts[int(rng.integers(len(suit_fonts)))] if suit_fonts and rng.random() < 0.5 else None
    u = rng.random()
    kind, suit_i = NONE, -1
    x0 = off + int(rng.uniform(0.02, 0.08) * 180 * SS)
    y0 = off + int(rng.uniform(0.015, 0.07) * 252 * SS)
    rh = _rank_height(rng, variety)
    if u < 0.74:  # an index: rank over (or beside) suit
        rank = RANK_ORDER[int(rng.integers(13))]
        suit = SUITS[int(rng.integers(4))]
        kind, suit_i = KINDS.index(rank), SUITS.index(suit)
        colour = _ink(rng, suit in "HD")
        finnish = bool(rng.random() < 0.4)
        rmask, smask, beside = _index(rank, suit, font, suit_font, rh, rng, finnish, variety)
        _paste(canvas, rmask, x0, y0, colour)
        gap = int(rh * rng.uniform(0.05, 0.3))
        if beside:
            sx, sy = x0 + rmask.shape[1] + gap, y0 + int((rmask.shape[0] - smask.shape[0]) * rng.uniform(0.0, 0.6))
        else:
            cx = x0 + rmask.shape[1] // 2 + int(rng.uniform(-0.1, 0.1) * rmask.shape[1])
            sx, sy = cx - smask.shape[1] // 2, y0 + rmask.shape[0] + gap
        _paste(canvas, smask, sx, sy, colour)
        art_x = max(x0 + rmask.shape[1], sx + smask.shape[1]) + int(rng.uniform(0.03, 0.2) * 180 * SS)
        if rng.random() < 0.75:
            _draw_art(canvas, rng, colour, suit, suit_font, art_x, sy + smask.shape[0], court=rank in "JQK" and rng.random() < 0.8)
    elif u < 0.80:  # "JOKER" down the corner
        kind = JOKER
        colour = _ink(rng, bool(rng.random() < 0.5))
        lh = int(rh * rng.uniform(0.5, 0.8))
        y = y0
        for ch in "JOKER":
            m = text_mask(ch, font, lh)
            _paste(canvas, m, x0 + int(rng.uniform(-0.05, 0.05) * lh), y, colour)
            y += lh + max(2, int(lh * rng.uniform(0.05, 0.3)))
    elif u < 0.85:  # blank: a Joker printing no index, perhaps its art far off
        kind = BLANK
        if rng.random() < 0.4:
            colour = _ink(rng, bool(rng.random() < 0.5))
            c = (int(ww * rng.uniform(0.8, 1.2)), int(hh * rng.uniform(0.6, 1.1)))
            cv2.circle(canvas, c, int(rng.uniform(20, 40)) * SS, colour, -1, cv2.LINE_AA)
    else:  # no index: pips, court art, an index turned, felt, letters that are no rank
        kind = NONE
        colour = _ink(rng, bool(rng.random() < 0.5))
        v = rng.random()
        if v < 0.25:
            _draw_art(canvas, rng, colour, SUITS[int(rng.integers(4))], suit_font, int(x0 * rng.uniform(0.5, 1.0)), 0, court=False)
        elif v < 0.45:
            _draw_art(canvas, rng, colour, "S", suit_font, off + int(rng.uniform(0, 0.1) * 180 * SS), y0, court=True)
        elif v < 0.75:  # an index turned a quarter or half turn (a wrong hypothesis in a scene)
            rank = RANK_ORDER[int(rng.integers(13))]
            suit = SUITS[int(rng.integers(4))]
            rmask, smask, _ = _index(rank, suit, font, suit_font, rh, rng, bool(rng.random() < 0.4), variety)
            patch = np.zeros((rmask.shape[0] + smask.shape[0] + 4, max(rmask.shape[1], smask.shape[1])), np.uint8)
            patch[: rmask.shape[0], : rmask.shape[1]] = rmask
            sxx = (patch.shape[1] - smask.shape[1]) // 2
            patch[rmask.shape[0] + 4 :, sxx : sxx + smask.shape[1]] = smask
            turn = [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE][int(rng.integers(3))]
            _paste(canvas, cv2.rotate(patch, turn), x0, y0, colour)
        elif v < 0.88:  # letters or signs that are no rank
            ch = _ART_TEXT[int(rng.integers(len(_ART_TEXT)))]
            try:
                _paste(canvas, text_mask(ch, font, rh), x0, y0, colour)
            except ValueError:
                pass
        else:  # no card here: felt, a chip
            canvas[:] = [(40, 110, 30), (120, 60, 20), (30, 30, 120)][int(rng.integers(3))]
            canvas += _noise(rng, canvas.shape, 8)
            if rng.random() < 0.5:
                c = (int(rng.uniform(0, ww)), int(rng.uniform(0, hh)))
                cv2.circle(canvas, c, int(rng.uniform(15, 40)) * SS, tuple(float(x) for x in rng.uniform(20, 230, 3)), -1)
    if rng.random() < 0.15:
        _occlude(canvas, rng, x0, y0, rh)
    return _photograph(canvas, rng, off), kind, suit_i


def _occlude(canvas: Img, rng: np.random.Generator, x0: int, y0: int, rh: int) -> None:
    """Something over the corner's outer parts (another card's edge, a thumb), sparing the index."""
    hh, ww = canvas.shape[:2]
    if rng.random() < 0.6:  # another card lying over the right or lower part, its edge casting a shadow
        if rng.random() < 0.5:
            x = int(x0 + rh * rng.uniform(1.3, 2.5))
            pts = np.array([(x, 0), (ww, 0), (ww, hh), (x + int(rng.uniform(-30, 30) * SS), hh)], np.int32)
        else:
            y = int(y0 + rh * rng.uniform(2.3, 3.5))
            pts = np.array([(0, y), (ww, y + int(rng.uniform(-30, 30) * SS)), (ww, hh), (0, hh)], np.int32)
        shadow = np.zeros((hh, ww), np.uint8)
        cv2.fillPoly(shadow, [pts], 255)
        sh = cv2.GaussianBlur(shadow.astype(np.float32) / 255, (0, 0), 3 * SS)
        canvas *= (1 - 0.4 * sh)[:, :, None]
        cv2.fillPoly(canvas, [pts], tuple(float(v) for v in rng.uniform(220, 255, 3)), cv2.LINE_AA)
    else:  # a thumb or a chip's rim from the bottom
        c = (int(rng.uniform(0, ww)), int(hh + rng.uniform(0, 20) * SS))
        col = (float(rng.uniform(90, 160)), float(rng.uniform(120, 180)), float(rng.uniform(170, 230)))
        cv2.ellipse(canvas, c, (int(rng.uniform(20, 40)) * SS, int(rng.uniform(25, 45)) * SS), float(rng.uniform(0, 180)), 0, 360, col, -1, cv2.LINE_AA)


def _photograph(canvas: Img, rng: np.random.Generator, off: int) -> Img:
    """The corner as rectified from a photograph: outline fit a little off, the card at some size in
    the picture, light, blur, noise, JPEG; returned at the canonical corner size (BGR uint8)."""
    hh, ww = canvas.shape[:2]
    # Light: a gradient, a shadow edge, an overall gain and a colour cast.
    yy, xx = np.mgrid[0:hh, 0:ww].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    light = 1 + rng.uniform(0, 0.35) * ((xx / ww - 0.5) * math.cos(a) + (yy / hh - 0.5) * math.sin(a))
    if rng.random() < 0.2:
        b = rng.uniform(0, 2 * math.pi)
        d = (xx - ww * rng.uniform(0.2, 0.8)) * math.cos(b) + (yy - hh * rng.uniform(0.2, 0.8)) * math.sin(b)
        light *= 1 - rng.uniform(0.2, 0.55) / (1 + np.exp(np.clip(-d / (rng.uniform(1, 8) * SS), -60, 60)))
    img = canvas * light[:, :, None] * rng.uniform(0.6, 1.15) * rng.uniform(0.88, 1.08, 3).astype(np.float32)
    if rng.random() < 0.1:  # a hot spot
        cx, cy = rng.uniform(0, ww), rng.uniform(0, hh)
        img += 100 * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * (0.4 * hh) ** 2))[:, :, None]
    img = np.clip(img, 0, 255)
    # The outline fit: the canonical card's corner maps to where the card is, give or take.
    jitter = rng.normal(0, 1.6 * SS, (4, 2)) + rng.normal(0, 1.2 * SS, 2)
    cw, ch = CORNER_W * SS, CORNER_H * SS
    src = np.array([[off, off], [off + cw, off], [off + cw, off + ch], [off, off + ch]], np.float32) + jitter.astype(np.float32)
    ang = math.radians(rng.normal(0, 1.5))
    centre = src.mean(axis=0)
    rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]], np.float32)
    src = ((src - centre) @ rot.T * rng.uniform(0.95, 1.05) + centre).astype(np.float32)
    # The card's height in the photograph: from a table scene's 85 px to a shoe scan's 700.
    card_px = float(np.exp(rng.uniform(math.log(80), math.log(700))))
    scale = card_px / 252
    pw, ph = max(8, int(round(CORNER_W * scale))), max(12, int(round(CORNER_H * scale)))
    dst = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    photo: Img = cv2.warpPerspective(img, m, (pw, ph), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    sigma = rng.uniform(0, 1.0) if rng.random() < 0.85 else rng.uniform(1.0, 1.7)
    if sigma > 0.3:
        photo = cv2.GaussianBlur(photo, (0, 0), sigma)
    photo = photo + rng.normal(0, rng.uniform(0.5, 8), photo.shape).astype(np.float32)
    photo8 = np.clip(photo, 0, 255).astype(np.uint8)
    if rng.random() < 0.8:
        ok, buf = cv2.imencode(".jpg", photo8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
        if ok:
            photo8 = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    out: Img = cv2.resize(photo8, (CORNER_W, CORNER_H), interpolation=cv2.INTER_CUBIC)
    return out


def corpus(n: int, seed: int, fonts: Sequence[str], variety: Variety = PLAIN) -> tuple[Img, Img, Img]:
    """``n`` corners drawn with ``fonts``: (BGR uint8 (n, CORNER_H, CORNER_W, 3), kinds (n,), suits (n,))."""
    rng = np.random.default_rng(seed)
    suit_fonts = _suit_fonts(fonts)
    xs = np.empty((n, CORNER_H, CORNER_W, 3), np.uint8)
    kinds = np.empty(n, np.int64)
    suits = np.empty(n, np.int64)
    for i in range(n):
        xs[i], kinds[i], suits[i] = render_corner(rng, fonts, suit_fonts, variety)
    return xs, kinds, suits
