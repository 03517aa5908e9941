"""Reading a card's index (rank over suit, or the suit beside the rank in one row) from its corner.

Input is the top-left corner of a rectified card, upright; output is a probability over the 52
codes, or nothing when the corner holds no index (many Jokers print none).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .arrays import F32, F64, I32, U8, Floats, i32, u8
from .cards import whiteness
from .config import RecognizerConfig
from .features import SIDE, glyph_features, turned_glyph_features
from .model import CLASSES, RANK_CLASSES, RANK_COLUMNS, RANK_OF, SUIT_COLUMNS, Mlp

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RED = (False, True, True, False)  # S H D C


@dataclass(frozen=True, slots=True)
class CornerRead:
    """What one corner says: ``probs`` (13, 4) over rank x suit, or None; ``joker_text`` when the
    corner shows a column of letters (a "JOKER" index) rather than rank over suit."""

    probs: Floats | None  # (13, 4)
    joker_text: bool = False
    ink: bool = False  # whether the corner had any ink at all
    score: float = 0.0  # how much the rank glyph looks like a rank (not like a suit, a pip, junk)
    suit_px: float = 0.0  # the suit glyph's height in the photograph (pixels)
    suit_at: tuple[float, float] = (0.0, 0.0)  # the suit glyph's centre in the corner crop (x, y)
    lone_one: bool = False  # the rank glyph reads as a Finnish "1" (the first digit of 10-13 too)
    beside: bool = False  # the suit was read beside the rank, in one row (not under it)


_EMPTY = CornerRead(None)
_INKED = CornerRead(None, ink=True)  # ink, but no index read
_JOKER_TEXT = CornerRead(None, joker_text=True, ink=True)
_FINNISH_ONE = CLASSES.index("1")
_TWO_DIGITS = [RANKS.index(r) for r in "TJQK"]  # printed 10, 11, 12, 13 in Finnish indices
_RANK_INDEX = np.array([RANKS.index(RANK_OF[CLASSES[c]]) for c in RANK_CLASSES])  # class -> rank (A..K)


def read_corner(corner: U8, model: Mlp, config: RecognizerConfig,
                rank_at: tuple[float, float] | None = None, px_scale: float = 1.0, *,
                scene: bool = False) -> CornerRead:
    """Read the index of an upright corner crop (h, w, 3) uint8 BGR.

    ``rank_at`` (x, y in the crop), when known, is where the rank glyph is; otherwise the rank is the
    glyph nearest the corner.  ``px_scale`` is the size of a crop pixel in pixels of the photograph:
    a suit only a few pixels tall in the photograph cannot tell a spade from a club (or a heart from
    a diamond) however it is enlarged, and its read says so.  ``scene``: a table scene's card, whose
    small index blur may have run into one blob (parted at its waist); a shoe scan's is not.
    """
    if corner.ndim != 3 or corner.shape[2] != 3:
        raise ValueError(f"expected a (h, w, 3) corner, got {corner.shape}")
    levels = ink_levels(corner)
    first = _read_corner(corner, model, config, cut="otsu", rank_at=rank_at, px_scale=px_scale, levels=levels,
                         scene=scene)
    if first.joker_text:
        return first
    if _strength(first) >= 0.8:
        if not first.lone_one:
            return first
        # A "1" is also the first digit of a 10 (or a Finnish 11-13) whose second digit this cut
        # lost (thin, pale): a lighter cut that reads the two digits surely sees more of the index.
        light = _read_corner(corner, model, config, cut="light", rank_at=rank_at, px_scale=px_scale, levels=levels,
                             scene=scene)
        two_digits = light.probs is not None and int(np.argmax(light.probs.sum(axis=1))) in _TWO_DIGITS
        return light if two_digits and _strength(light) >= 0.8 else first
    # Thin stroked indices, blurred, stay paler than Otsu's cut when big dark pips share the
    # corner: read again with a cut nearer the paper white and keep the surer reading.
    second = _read_corner(corner, model, config, cut="light", rank_at=rank_at, px_scale=px_scale, levels=levels,
                          scene=scene)
    reads = [r for r in (first, second) if r.probs is not None]
    if first.ink and max(map(_strength, reads), default=0.0) < 0.8:
        # No sure rank over suit: blur can run a small index's rank and suit into one blob (or
        # into the card's edge), which a cut nearer the ink's own darkness parts.
        third = _read_corner(corner, model, config, cut="dark", rank_at=rank_at, px_scale=px_scale, levels=levels,
                             scene=scene)
        if third.joker_text:
            # "JOKER" down the corner, its letters parted only by the darker cut: no rank read so
            # far is sure, and a column of letters is no rank over suit.
            return third
        # When Otsu's cut showed the "rank" for a pip (two pips alike, or a suit turned back), the
        # darker cut, whose ink is a part of Otsu's, sees parts of the same pips: no rank.
        vetoed = rank_at is not None and first.probs is not None and first.score == 0.0
        if third.probs is not None and not vetoed:
            reads.append(third)
    if not reads:
        return first
    return max(reads, key=_strength)


def _strength(read: CornerRead) -> float:
    """How surely a corner read names a card: its best odds, times how much its rank glyph looks
    like a rank at all."""
    return 0.0 if read.probs is None else float(read.probs.max()) * min(1.0, read.score / 0.9)


def ink_levels(crop: U8) -> tuple[U8, float, float, float]:
    """A BGR crop's grey (darkest channel), its ink and paper levels, and Otsu's cut between them."""
    grey = whiteness(crop)
    # The 2% and 90% quantiles (the k-th smallest levels) from the histogram of the 256 levels:
    # np.percentile's overhead is most of a small crop's cost, and a partition twice a histogram's.
    flat = grey.ravel()
    k_lo, k_hi = int(0.02 * (flat.size - 1)), int(0.90 * (flat.size - 1))
    at_most = np.cumsum(np.bincount(flat, minlength=256))  # pixels at or below each level
    lo, hi = np.searchsorted(at_most, (k_lo, k_hi), side="right")
    otsu, _ = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return grey, float(lo), float(hi), float(otsu)


def is_paper(grey: U8, hi: float, config: RecognizerConfig) -> bool:
    """Whether most of a corner is paper: ``config.blank_paper_share`` of its grey (darkest channel)
    within 40 levels of its paper level ``hi`` (``ink_levels``).  A blank corner is; noise is not."""
    return int(np.count_nonzero(grey >= hi - 40)) >= config.blank_paper_share * grey.size


def smooth_paper_share(grey: U8, hi: float) -> float:
    """The share of a corner's grey (darkest channel) that is card stock: within 40 levels of its paper
    level ``hi`` (``ink_levels``) and smooth, a 5 x 5 patch around it varying by at most 14 levels
    (standard deviation).  An index corner's margin is (0.45-0.87 on the development scans, 0.54-0.96
    on generated cards); noise and random pixels are not (0.00-0.10), whatever their brightness."""
    g = grey.astype(np.float32)
    mean = cv2.blur(g, (5, 5))
    var = cv2.blur(g * g, (5, 5)) - mean * mean
    return float(np.count_nonzero((g >= hi - 40) & (var <= 14.0 * 14.0))) / g.size


def cut_level(lo: float, hi: float, otsu: float, cut: str = "otsu") -> float:
    """The grey level under which a crop's pixels are ink, for ``ink_levels`` (ink ``lo``, paper
    ``hi``, Otsu's cut): "otsu" (never paler than 35% down from the paper), "light" (near the paper:
    thin strokes) or "dark" (near the ink's own darkness: glyphs that blur ran together)."""
    if cut == "light":
        return hi - 0.2 * (hi - lo)
    if cut == "dark":
        return lo + 0.4 * (hi - lo)
    return min(otsu, hi - 0.35 * (hi - lo))


def _read_corner(corner: U8, model: Mlp, config: RecognizerConfig, *, cut: str,  # noqa: C901
                 rank_at: tuple[float, float] | None, px_scale: float,
                 levels: tuple[U8, float, float, float], scene: bool = False) -> CornerRead:
    grey, lo, hi, otsu = levels
    if hi - lo < 40:
        return _EMPTY
    ink = (grey < cut_level(lo, hi, otsu, cut)).astype(np.uint8)
    h, w = ink.shape
    # Long straight lines are never part of an index: the card's own edge (a sliver of background
    # left by the rectification) and the frames of court-card art.  Removing them frees an index
    # that touches them ("10" printed close to the edge).
    # (A column or row with fewer ink pixels than a line's length holds no line: most corners.)
    tall, wide = max(3, int(0.45 * h)), max(3, int(0.6 * w))
    down = int(cv2.reduce(ink, 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S).max()) >= tall
    across = int(cv2.reduce(ink, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S).max()) >= wide
    if down or across:
        lines = np.zeros_like(ink)
        if down:
            lines |= u8(cv2.morphologyEx(ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, tall))))
        if across:
            # (Beyond the crop's left side is the card's edge: a suit cut there runs on as no line.)
            padded = cv2.copyMakeBorder(ink, 0, 0, wide, 0, cv2.BORDER_CONSTANT, value=0)
            opened = u8(cv2.morphologyEx(padded, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (wide, 1))))
            lines |= opened[:, wide:]
        ink &= 1 - u8(cv2.dilate(lines, np.ones((3, 3), np.uint8)))
    edge = max(2, int(round(0.012 * (w / 0.3))))  # ~1 % of the card's width: the rectified edge's sliver
    ink[:, :edge] = 0
    ink[:edge, :] = 0
    n, cc_labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    labels = i32(cc_labels)
    xs, ys, cws, chs, areas = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3], stats[:, 4]
    keep = (areas >= 0.0015 * h * w) & (chs >= 0.035 * h) & (chs <= 0.6 * h) & (cws <= 0.8 * w)
    # Cut by the crop: the card's edge, a shadow, or art running into the corner.
    keep &= (xs > 0) & (ys > 0) & (xs + cws < w) & (ys + chs < h)
    # The felt left outside a card's rounded corner: a blob against the band cleared above, lying
    # within a corner's radius (8% of the card's width) of the corner.  No index reaches so little
    # of the card (a small rank is at least 5.5% of the card's height tall below a 2.5% margin), and
    # read as a glyph it makes a blank corner (a Joker printed without an index) look inked.
    radius = 0.08 * h / config.corner_h * config.card_width / config.card_height
    keep &= ~(((xs <= edge) | (ys <= edge)) & (xs + cws <= radius) & (ys + chs <= radius))
    keep[0] = False
    # Glyphs at the crop's bottom (cut by it, or the top of one cut there): a column of letters
    # running on below the corner.
    cut_below = [x + cw / 2 for x, y, cw, ch in stats[1:, :4].tolist() if y + ch >= 0.95 * h and x > 0 and ch >= 0.035 * h]
    kept = np.nonzero(keep)[0]
    comps = [(y, x, cw, ch, i) for (x, y, cw, ch), i in zip(stats[kept, :4].tolist(), kept.tolist(), strict=True)]
    if not comps:
        # No glyph.  A corner that is blank paper says "no index" (a Joker without one); specks all
        # over it (noise, texture, not a card at all) say nothing.
        return CornerRead(None, ink=bool(ink.mean() > 0.05))
    comps.sort()
    # The index sits near the corner: start from the component nearest the top-left that is tall
    # enough for a rank (not a speck: the felt left in the corner by a card's rounded corner).
    comps.sort(key=lambda c: c[0] + 0.5 * c[1])
    first = next((c for c in comps if c[3] >= 0.1 * h), comps[0])
    if rank_at is not None:
        ax, ay = rank_at
        def off(c: tuple[int, int, int, int, int]) -> float:
            return max(0.0, abs(c[1] + c[2] / 2 - ax) - c[2] / 2) + max(0.0, abs(c[0] + c[3] / 2 - ay) - c[3] / 2)

        first = min(comps, key=lambda c: off(c) + 0.01 * abs(c[1] + c[2] / 2 - ax) + 0.01 * abs(c[0] + c[3] / 2 - ay))
        if off(first) > 0.1 * h:
            # No glyph where the rank was seen (this cut lost it): the nearest glyph is another one.
            return _INKED
    ry, rx, rw, rh = first[0], first[1], first[2], first[3]
    rank_ids = [first[4]]
    for y, x, cw, ch, i in (c for c in comps if c is not first):
        overlap = min(ry + rh, y + ch) - max(ry, y)
        if overlap > 0.6 * min(rh, ch) and x - (rx + rw) < 0.6 * rh and x + cw > rx - 0.6 * rh and 0.6 < ch / rh < 1.6:
            rank_ids.append(i)
            nx, ny = min(rx, x), min(ry, y)
            rw, rh = max(rx + rw, x + cw) - nx, max(ry + rh, y + ch) - ny
            rx, ry = nx, ny
    below = [c for c in comps if c[4] not in rank_ids and c[0] >= ry + 0.7 * rh
             and c[1] < rx + rw + 0.3 * rh and c[1] + c[2] > rx - 0.3 * rh]  # fmt: skip
    letters = _letter_column(comps, rx, rw, rh, cut_below)
    no_index = _JOKER_TEXT if letters else _INKED  # what the corner says when no rank over suit is found
    suit = _suit_under(below, (ry, rx, rw, rh))
    if suit is None and not below and len(rank_ids) == 1 and not letters:
        # A pale rank (thin strokes, blurred) run into its dark suit: parted where the dark ink begins.
        split = _split_pale_rank(grey, labels, (ry, rx, rw, rh, rank_ids[0]), lo, hi)
        if split is None and scene and px_scale < 1.0 and cut != "light":
            # A rank and suit of one darkness run together (a small index, its gap a pixel or two in
            # the photograph): parted at the blob's waist, when what lies under it is a suit.  Only
            # for a table scene's card, where the corner is enlarged from the photograph (shoe scans
            # are read as before), and not in the light cut: there a pale halo joins glyphs that
            # Otsu's cut parts, and a suit parted out of the halo has the shape of none.
            split = _split_waist(labels, (ry, rx, rw, rh, rank_ids[0]))
            if split is not None:
                lower = glyph_features(_glyph_mask(split[0], split[2]))
                if not suit_like(model.probabilities(lower[None])[0]):
                    split = None
        if split is not None:
            labels, (ry, rx, rw, rh, _), suit_comp = split
            n = int(labels.max()) + 1
            suit = _suit_under([suit_comp], (ry, rx, rw, rh))
    beside = None
    if suit is None and not letters:
        # No suit under the rank: the suit may be printed beside it, in one row ("10♥").  The glyph
        # the rank took for its last digit, or a smaller one beside it, is that suit when the
        # classifier sees a suit in it (a 10's "0" it sees as a rank); the rank is the glyphs before it.
        beside = _beside(comps, rank_ids, (ry, rx, rw, rh))
        if beside is not None and suit_like(model.probabilities(glyph_features(_glyph_mask(labels, beside[0]))[None])[0]):
            suit, (ry, rx, rw, rh), rank_ids = beside
        else:
            beside = None
            # Blur may run the suit into the rank's last glyph (a small one-row index): that glyph,
            # parted at its waist across the row, gives the suit when its right part looks like one.
            last = max((c for c in comps if c[4] in rank_ids), key=lambda c: c[1])
            parted = _split_column_waist(labels, last) if scene and px_scale < 1.0 and cut != "light" else None
            if parted is not None:
                labels2, left, right = parted
                side = _glyph_mask(labels2, right)
                if right[3] <= rh and suit_like(model.probabilities(glyph_features(side)[None])[0]):
                    labels, n = labels2, int(labels2.max()) + 1
                    row = [c for c in comps if c[4] in rank_ids and c is not last] + [left]
                    ry, rx = min(c[0] for c in row), min(c[1] for c in row)
                    rw = max(c[1] + c[2] for c in row) - rx
                    rh = max(c[0] + c[3] for c in row) - ry
                    suit, beside = right, (right, (ry, rx, rw, rh), [c[4] for c in row])
    if suit is None:
        return no_index
    is_rank = np.zeros(n, bool)
    is_rank[rank_ids] = True
    rank_mask = is_rank[labels[ry : ry + rh, rx : rx + rw]].astype(np.uint8) * 255
    sy, sx, sw, sh, si = suit
    suit_mask = _glyph_mask(labels, suit)
    # A suit a few pixels tall in the photograph is read from its darkest part as well: blur fills
    # the notches between a small club's lobes (or at a heart's top) with grey, which the cut above
    # takes for ink; the core keeps them.
    small_suit = sh * px_scale < config.suit_core_below_px
    masks = [rank_mask, suit_mask]
    if small_suit:
        g = grey[sy : sy + sh, sx : sx + sw]
        inked = g[suit_mask > 0]
        k = int(config.suit_core_fraction * (inked.size - 1))
        masks.append(((g <= np.partition(inked, k)[k]) & (suit_mask > 0)).astype(np.uint8) * 255)
    if rank_at is None:
        feats = np.stack([glyph_features(m) for m in masks])
    else:
        # A hypothesis (table scenes) may be turned a quarter or half turn from the card: the rank
        # glyph is also looked at turned back (in the same batch, after the others).
        rank_turns = turned_glyph_features(rank_mask)
        feats = np.concatenate([rank_turns[:1], [glyph_features(m) for m in masks[1:]], rank_turns[1:]])
    p = model.probabilities(feats)
    lone_one = bool(np.argmax(p[0]) == _FINNISH_ONE)
    if model.profile is not None:
        # An enrolled deck: glyphs like its enrolled rank and suit glyphs are read as those.  They are
        # compared with all the ink of their boxes: a rank printed in a frame (a keycap, a circle) is
        # the frame's glyph, its digit a glyph inside it.
        boxed = np.stack([glyph_features(ink[ry : ry + rh, rx : rx + rw]), glyph_features(ink[sy : sy + sh, sx : sx + sw])])
        p = model.profile.weigh(boxed, p, config)
    # The rank glyph's probability is shared among the ranks and junk, the suit glyph's among the
    # suits and junk; a rank glyph that looks like a suit (a pip of the art, a hypothesis turned the
    # wrong way round) keeps that mass against it, and so does a suit glyph that looks like a rank.
    if letters and not suit_like(p[1]):
        # A column of letters whose second is no suit: "JOKER" down the corner.  (A rank over a
        # plain suit with more glyphs under it, a chip's rim or pips, is an index.)
        return _JOKER_TEXT
    pr = np.bincount(_RANK_INDEX, weights=p[0, RANK_COLUMNS], minlength=13).astype(np.float64, copy=False)
    ps: Floats = p[1, SUIT_COLUMNS].copy()  # float32 here, float64 once weighed below
    rank_mass = float(pr.sum())  # of every class, junk included: does the glyph look like a rank at all?
    if rank_at is not None and rank_mass >= config.index_rank_score:
        # Turned back, the rank glyph looks more like a rank than as it stands: a hypothesis turned
        # a quarter or half turn from the card.
        turned = p[-3:]
        best_turned = float(turned[:, RANK_COLUMNS].sum(axis=1).max())
        # A pip printed upside down (the lower half of a card's art) may pass for a rank; turned
        # back it is plainly a suit.
        suit_turned = float(turned[:, SUIT_COLUMNS].sum(axis=1).max())
        if best_turned > rank_mass + 0.15 or suit_turned > rank_mass:
            rank_mass = 0.0
        # Two pips of the art one above the other are one symbol twice; a rank and its suit never are.
        if _same_shape(feats[0], feats[1]) > config.index_same_shape:
            rank_mass = 0.0
    pr /= pr.sum() + p[0, SUIT_COLUMNS].sum() + 1e-9
    ps /= ps.sum() + p[1, RANK_COLUMNS].sum() + 1e-9
    # Colour: red ink (hearts, diamonds) against black (spades, clubs); a strong cue that does not
    # depend on the deck's design.
    is_rank[si] = True
    y0, x0 = min(ry, sy), min(rx, sx)
    y1, x1 = max(ry + rh, sy + sh), max(rx + rw, sx + sw)
    red = redness(corner[y0:y1, x0:x1][is_rank[labels[y0:y1, x0:x1]]])
    is_red = red > config.red_threshold
    if small_suit:
        core = p[2, SUIT_COLUMNS]
        ps = ps * (core / (core.sum() + 1e-9) + 0.05)
    colour = np.array(RED) == is_red
    if abs(red - config.red_threshold) > config.red_sure_margin and ps[colour].sum() < 0.1 * ps[~colour].sum():
        # Plainly red or plainly black, and a suit glyph that looks like a suit of the other colour
        # (a fragment of the suit, a blot): the colour wins, the suit of that colour is open.
        ps = np.where(colour, ps + 0.02, 0.001 * ps)
    # (The bays are looked for in the suit's mask of the rectified corner: a suit large in the
    # photograph but small in the crop, as a shoe scan's suit printed beside its rank, shows them no
    # better than a suit that small in the photograph.)
    ps = ps * np.where(colour, 1.0, 0.03) * suit_shape_prior(suit_mask, min(sh, sh * px_scale), config)
    ps /= ps.sum() + 1e-12
    ps = _blur_suit(ps, sh * px_scale, config)
    return CornerRead(np.outer(pr, ps), ink=True, score=rank_mass, suit_px=sh * px_scale,
                      suit_at=(sx + sw / 2, sy + sh / 2), lone_one=lone_one, beside=beside is not None)


Comp = tuple[int, int, int, int, int]  # a glyph: (y, x, w, h, label) of its box in the corner crop


def _suit_under(below: list[Comp], rank: tuple[int, int, int, int]) -> Comp | None:
    """The suit under the rank (box ``rank``: y, x, w, h) among the glyphs ``below`` it: the sizeable
    glyph right under it, centred on it.  Slivers (a pip cut by the crop or by the line removal) and
    glyphs off to the side are pips of the card's art."""
    ry, rx, rw, rh = rank
    sized = [c for c in below if _suit_sized(c, rh)]
    if not sized:
        return None
    centre = rx + rw / 2
    suit = min(sized, key=lambda c: (c[0] - (ry + rh)) + 0.7 * abs(c[1] + c[2] / 2 - centre))
    return None if suit[0] - (ry + rh) > 1.5 * rh else suit


def _suit_sized(c: Comp, rh: int) -> bool:
    """Whether glyph ``c`` is large enough to be the suit of a rank ``rh`` tall."""
    return c[3] >= 0.3 * rh and c[2] >= 0.25 * rh


def _beside(comps: list[Comp], rank_ids: list[int],
            rank: tuple[int, int, int, int]) -> tuple[Comp, tuple[int, int, int, int], list[int]] | None:
    """The hypothesis "suit printed beside the rank, in one row": its suit glyph, and the rank's box
    (y, x, w, h) and glyph labels without it; None when no glyph could be that suit.

    The rank's row (``rank_ids``, box ``rank``) takes the glyphs level with it as further digits (a
    10's "0"); the last of them may be a suit of about the rank's height instead.  A suit smaller
    than a digit is not in the row: it is a sizeable glyph right of the row, level with its middle,
    as near as a further digit would be.  Either is no taller than the rank."""
    ry, rx, rw, rh = rank
    row = sorted((c for c in comps if c[4] in rank_ids), key=lambda c: c[1])
    if len(row) >= 2:
        side, rest = row[-1], row[:-1]
    else:
        mid = ry + rh / 2
        right = [c for c in comps if c[4] not in rank_ids and rx + rw / 2 < c[1] < rx + rw + 0.6 * rh
                 and c[0] <= mid <= c[0] + c[3] and _suit_sized(c, rh)]  # fmt: skip
        if not right:
            return None
        side, rest = min(right, key=lambda c: c[1]), row
    y0, x0 = min(c[0] for c in rest), min(c[1] for c in rest)
    y1, x1 = max(c[0] + c[3] for c in rest), max(c[1] + c[2] for c in rest)
    if side[3] > y1 - y0:
        return None  # taller than the rank: a pip of the art (an index's suit beside its rank is no taller)
    return side, (y0, x0, x1 - x0, y1 - y0), [c[4] for c in rest]


def suit_like(p: Floats) -> bool:
    """Whether a glyph whose class probabilities are ``p`` looks like a suit (rather than a rank, a
    letter or junk)."""
    return float(p[SUIT_COLUMNS].sum()) >= 0.5


def _glyph_mask(labels: I32, c: Comp) -> U8:
    y, x, w, h, i = c
    return u8((labels[y : y + h, x : x + w] == i).astype(np.uint8) * 255)


def redness(pixels: U8) -> float:
    """Mean R - max(G, B) of BGR ``pixels`` (N, 3): high for red ink, about 0 for black or grey."""
    if len(pixels) == 0:
        return 0.0
    pix = pixels.astype(np.int16)
    # (an exact integer sum over the count: the same value as np.mean's, without its overhead)
    return int((pix[:, 2] - np.maximum(pix[:, 0], pix[:, 1])).sum(dtype=np.int64)) / len(pix)


def _split_pale_rank(grey: U8, labels: I32, rank: tuple[int, int, int, int, int], lo: float,
                     hi: float) -> tuple[I32, tuple[int, int, int, int, int], tuple[int, int, int, int, int]] | None:
    """A "rank" blob that is a pale rank over a dark suit, run together: cut across where the dark
    ink of its lower part begins.  Returns the relabelled ``labels`` and the (y, x, w, h, label) of
    the rank and of the suit, or None when the blob holds no such dark lower part."""
    y, x, w, h, label = rank
    blob = labels[y : y + h, x : x + w] == label
    dark = ((grey[y : y + h, x : x + w] < cut_level(lo, hi, 0.0, "dark")) & blob).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    lower = [i for i in range(1, n) if stats[i, 1] >= 0.35 * h and stats[i, 3] >= 0.2 * h and stats[i, 2] >= 0.3 * w]
    if not lower:
        return None
    cut = int(stats[max(lower, key=lambda i: stats[i, 4]), 1])
    upper_rows = np.nonzero(blob[:cut].any(axis=1))[0]
    if cut < 0.35 * h or len(upper_rows) < 3 or dark[: max(1, cut - 1)].mean() > 0.5 * blob[:cut].mean():
        return None  # no rank above the dark part, or the "rank" is dark too (one glyph, not two)
    out = labels.copy()
    new = int(labels.max()) + 1
    part = out[y + cut : y + h, x : x + w]
    part[blob[cut:]] = new
    cols = np.nonzero(blob[:cut].any(axis=0))[0]
    rank_box = (y + int(upper_rows[0]), x + int(cols[0]), int(cols[-1] - cols[0] + 1), int(upper_rows[-1] - upper_rows[0] + 1), label)
    srows, scols = np.nonzero(blob[cut:])
    suit_box = (y + cut + int(srows.min()), x + int(scols.min()), int(scols.max() - scols.min() + 1), int(srows.max() - srows.min() + 1), new)
    return out, rank_box, suit_box


def _split_waist(labels: I32, rank: tuple[int, int, int, int, int]
                 ) -> tuple[I32, tuple[int, int, int, int, int], tuple[int, int, int, int, int]] | None:
    """A "rank" blob that is a rank over its suit run together by blur, both of one darkness: cut
    across at its waist, the narrowest row between 40% and 72% of its height, when that row is much
    narrower than the widest rows above and below it (two glyphs touching, not the middle of one).
    Returns the relabelled ``labels`` and the (y, x, w, h, label) of the rank and of the suit, or
    None.  (The caller keeps the cut only when the lower part looks like a suit: an "8" has a waist.)"""
    y, x, w, h, label = rank
    if h < 10 or h < 1.4 * w:
        return None  # too small to part, or not tall enough for two glyphs stacked
    blob = labels[y : y + h, x : x + w] == label
    rows = blob.sum(axis=1)
    lo_row, hi_row = int(0.4 * h), int(0.72 * h)
    cut = lo_row + int(np.argmin(rows[lo_row : hi_row + 1]))
    upper, lower = int(rows[:cut].max()), int(rows[cut + 1 :].max()) if cut + 1 < h else 0
    if rows[cut] > 0.45 * min(upper, lower):
        return None
    out = labels.copy()
    new = int(labels.max()) + 1
    part = out[y + cut : y + h, x : x + w]
    part[blob[cut:]] = new
    boxes = []
    for piece in (blob[:cut], blob[cut:]):
        rr, cc = np.nonzero(piece)
        if len(rr) == 0 or rr.max() - rr.min() + 1 < 0.25 * h:
            return None
        boxes.append((int(rr.min()), int(cc.min()), int(cc.max() - cc.min() + 1), int(rr.max() - rr.min() + 1)))
    (uy, ux, uw, uh), (ly, lx, lw, lh) = boxes
    return out, (y + uy, x + ux, uw, uh, label), (y + cut + ly, x + lx, lw, lh, new)


def _split_column_waist(labels: I32, glyph: Comp) -> tuple[I32, Comp, Comp] | None:
    """A glyph that is the last glyph of a one-row index and its suit run together by blur: cut
    down at its waist, the narrowest column between 35% and 75% of its width, when that column is
    much narrower than the tallest columns left and right of it.  Returns the relabelled ``labels``
    and the (y, x, w, h, label) of the left and the right part, or None."""
    y, x, w, h, label = glyph
    if w < 10 or w < 1.1 * h:
        return None  # too small to part, or not wide enough for two glyphs side by side
    blob = labels[y : y + h, x : x + w] == label
    cols = blob.sum(axis=0)
    lo_col, hi_col = int(0.35 * w), int(0.75 * w)
    cut = lo_col + int(np.argmin(cols[lo_col : hi_col + 1]))
    left, right = int(cols[:cut].max()), int(cols[cut + 1 :].max()) if cut + 1 < w else 0
    if cols[cut] > 0.45 * min(left, right):
        return None
    out = labels.copy()
    new = int(labels.max()) + 1
    part = out[y : y + h, x + cut : x + w]
    part[blob[:, cut:]] = new
    boxes = []
    for piece, dx in ((blob[:, :cut], 0), (blob[:, cut:], cut)):
        rr, cc = np.nonzero(piece)
        if len(rr) == 0 or cc.max() - cc.min() + 1 < 0.2 * w:
            return None
        boxes.append((y + int(rr.min()), x + dx + int(cc.min()), int(cc.max() - cc.min() + 1), int(rr.max() - rr.min() + 1)))
    (ly, lx, lw, lh), (qy, qx, qw, qh) = boxes
    return out, (ly, lx, lw, lh, label), (qy, qx, qw, qh, new)


def _same_shape(a: F32, b: F32) -> float:
    """Correlation (-1 to 1) of two glyphs' ``glyph_features`` images (each squared up on its ink and
    brought to one size)."""
    fa, fb = a[: SIDE * SIDE], b[: SIDE * SIDE]
    fa, fb = fa - fa.mean(), fb - fb.mean()
    return float(fa @ fb / (np.linalg.norm(fa) * np.linalg.norm(fb) + 1e-9))


def _blur_suit(ps: Floats, height_px: float, config: RecognizerConfig) -> Floats:
    """Suit probabilities (S, H, D, C) made as unsure as a suit ``height_px`` tall in the photograph
    is: the two suits of each colour are mixed towards even odds, fully at ``suit_px_blind`` and below,
    not at all from ``suit_px_sharp``; the colour stays as read."""
    lo, hi = config.suit_px_blind, config.suit_px_sharp
    f = min(1.0, max(0.0, (hi - height_px) / (hi - lo)))
    if f == 0.0:
        return ps
    black, red = (ps[0] + ps[3]) / 2, (ps[1] + ps[2]) / 2
    even = np.array([black, red, red, black])
    return (1 - f) * ps + f * even


def _letter_column(comps: list[tuple[int, int, int, int, int]], rx: int, rw: int, rh: int,
                   cut_below: list[float]) -> bool:
    """Four or more glyphs of about one size stacked in one column: a "JOKER" written down the corner.
    Three are enough when the column runs on below the crop (``cut_below``: the centres across of the
    glyphs at the crop's bottom): large letters, of which the corner holds only "JOK"."""
    centre = rx + rw / 2
    col = [c for c in comps if abs((c[1] + c[2] / 2) - centre) < 0.6 * max(rw, rh) and 0.5 < c[3] / rh < 1.6]
    runs_on = any(abs(x - centre) < 0.6 * max(rw, rh) for x in cut_below)
    if len(col) < (3 if runs_on else 4):
        return False
    if sum(1 for c in col if min(c[2], c[3]) >= 0.5 * max(c[2], c[3])) < 3:
        return False  # thin strokes: the dashes of a broken line (a court card's frame), not letters
    col.sort()
    gaps = [b[0] - (a[0] + a[3]) for a, b in zip(col, col[1:], strict=False)]
    return sum(1 for g in gaps[:4] if -0.2 * rh < g < 0.8 * rh) >= min(3, len(col) - 1)


def bays(mask: U8) -> tuple[int, int]:
    """Deep bays of a glyph's outline: (in its upper 60 %, in its top 40 % near the centre line).

    A club's three lobes leave two deep bays high up, a spade none (its bays are at the stem); a
    heart has a notch at the top centre, a diamond none.  These hold whatever the typeface.
    """
    m = (mask > 0).astype(np.uint8)
    x0, y0, w, h = cv2.boundingRect(m)
    if w == 0:
        return 0, 0
    m = m[y0 : y0 + h, x0 : x0 + w]
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    c = max(contours, key=cv2.contourArea)
    if len(c) < 4:
        return 0, 0
    try:
        d = cv2.convexityDefects(c, cv2.convexHull(c, returnPoints=False))
    except cv2.error:
        return 0, 0
    if d is None:
        return 0, 0
    d = d.reshape(-1, 4)
    x, y = c[d[:, 2], 0].T
    deep = d[:, 3] / 256
    upper = np.count_nonzero((deep > 0.08 * h) & (y < 0.6 * h))
    notch = np.count_nonzero((deep > 0.06 * h) & (y < 0.4 * h) & (np.abs(x - w / 2) < 0.25 * w))
    return int(upper), int(notch)


def suit_shape_prior(mask: U8, height_px: float, config: RecognizerConfig) -> F64:
    """A weight per suit (S, H, D, C) from the outline's bays (see ``bays``) of a suit ``height_px``
    tall in the photograph (the index reader passes the smaller of that and its height in ``mask``).

    A bay seen is strong evidence at any size.  A bay not seen is no evidence below
    ``suit_bays_px``: blur fills a small club's or heart's notches, and a blob without them is no
    spade or diamond for that.  From there on it weighs the club (or heart) by ``suit_bay_missing``,
    not much: blur fills the narrow bays of a compact club even 20 px tall.
    """
    missing = config.suit_bay_missing if height_px >= config.suit_bays_px else 1.0
    upper, notch = bays(mask)
    black = np.array([0.01, 1.0, 1.0, 1.0] if upper >= 1 else [1.0, 1.0, 1.0, missing], np.float64)
    red = np.array([1.0, 1.0, 0.01, 1.0] if notch >= 1 else [1.0, missing, 1.0, 1.0], np.float64)
    return black * red
