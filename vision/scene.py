"""Table scenes: every card on an overhead view of the felt, overlapping hands included.

Cards are white on a coloured felt, so the card-white regions are found first.  A region that looks
like one card is read whole (both index corners).  Otherwise the region may hold a blackjack hand:
cards laid over each other with an offset, each lower card showing only its top-left index and a
strip, and the corner of a card lying over another one is inside the white region, seen only as an
edge.  So the cards of such a region are found by their indices: every small glyph with a smaller
glyph beside it, along an edge direction of the region, is a hypothesis "rank over suit", and one
"suit beside the rank" (a one-row index; kept only where the corner's read finds the suit there); a
blob of index size, when blur has run rank and suit together, is tried both ways along its length.  A
hypothesis must have a card edge close above and left of its rank (where a pip of the art has none);
the card is laid out from the rank with the card size measured in the scene, its corner rectified
and read, and of the hypotheses that read an index at one place the surest is kept.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from .arrays import F32, F64, I32, U8, Bools, Contour, as_contour, f32, f64, i32, u8
from .cards import card_mask, card_shaped, portrait_order, quad_of, whiteness
from .config import RecognizerConfig
from .features import glyph_features
from .index_reader import CornerRead
from .model import RANK_COLUMNS, SUIT_COLUMNS, Mlp, load_model
from .read import (
    card_from_corner,
    cnn_knows,
    cnn_with_pips,
    corner_at,
    countable,
    counted,
    index_corners,
    perceptron_witness,
    read_card,
    read_corner_at,
    scene_joker,
    scene_witness,
    with_pips,
)

if TYPE_CHECKING:
    from .detector import IndexPeak

ASPECT = 88 / 63


def find_cards(image: U8, config: RecognizerConfig, mask: U8 | None = None,
               model: Mlp | None = None) -> list[dict[str, Any]]:
    """Cards found in a table scene (H, W, 3) uint8 BGR: code, confidence, corners (TL, TR, BR, BL as
    printed).  ``mask`` is the image's ``card_mask`` when already made; ``model`` the classifier
    (the shipped one, or with an enrolled deck's profile)."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected a (H, W, 3) BGR image, got {image.shape}")
    model = model or load_model()
    if mask is None:
        mask = card_mask(image)
    regions = _card_regions(mask)
    scene = _Scene(image, regions)
    witness = partial(scene_witness, model=model, config=config)
    if _cnn_reads_scene(model, config):
        # The corner CNN reads the scene's indices, and the perceptron witnesses its cards and looks
        # for Jokers printing no index.
        scene.perceptron = config
        witness = partial(perceptron_witness, model=model, config=config)
        config = replace(config, corner_reader="cnn")
    h_img = image.shape[0]
    measured = _against_peaks(_card_height(regions, h_img, scene.peaks(config)), scene, config)
    if measured is not None:
        doubt = _peaks_doubt(measured, scene, config)
        if doubt is None:
            cards, card_h = _cards_at(scene, regions, measured, model, config), measured
        else:
            # The detector's peaks put the cards smaller than the outlines do (a hand's straight edge
            # running on over several cards, taken for one card's): both sizes are tried, and the one
            # whose cards cover the card-white regions best is kept.
            cards, card_h = _best_size(scene, regions, mask, (measured, doubt), model, config)
    else:
        # No card's outline to go by (every region a hand, no top card showing a whole long and short
        # edge): the cards are read at a small, a middle and a large card size of the scenes' span
        # (85-210 px in 720), and the size whose cards cover the card-white regions best is kept.
        cards, card_h = _best_size(scene, regions, mask, (0.13 * h_img, 0.2 * h_img, 0.27 * h_img), model, config)
    # (A Joker's art counted as one pip is no ace where its corners are blank to the perceptron.)
    return _finished(image, _peak_cards(scene, regions, witness(cards, image), card_h, model, config), model,
                     scene.perceptron or config)


def _cnn_reads_scene(model: Mlp, config: RecognizerConfig) -> bool:
    """Whether the corner CNN reads the scene's index corners with the perceptron its witness
    (``scene_reader`` "cnn", the perceptron the corner reader otherwise; not with the CNN kept out of
    scenes, ``cnn_witness_scenes`` "off").  An enrolled deck only where the CNN named its
    cards at enrolment (``read.cnn_knows``), the perceptron witnessing with the profile: a profile
    that teaches the perceptron the deck's own indices (court letters V, D, R, say), which the CNN,
    learning nothing from the enrolment, would not read, keeps the perceptron as the reader."""
    return (config.scene_reader == "cnn" and config.corner_reader == "mlp" and config.cnn_witness_scenes != "off"
            and cnn_knows(model, config))


def _best_size(scene: _Scene, regions: list[Contour], mask: U8, sizes: tuple[float, ...], model: Mlp,
               config: RecognizerConfig) -> tuple[list[dict[str, Any]], float]:
    """The scene's cards read at each card height of ``sizes``, and the size, whose cards cover the
    card-white regions best (too small a size leaves white uncovered, too large a one lays cards over
    the felt); the first of sizes alike."""
    white = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(white, regions, -1, 1, cv2.FILLED)
    best: tuple[float, list[dict[str, Any]], float] | None = None
    for card_h in sizes:
        alone: list[dict[str, Any]] = []  # lone cards nothing reads: their outlines are no size's merit
        cards = _cards_at(scene, regions, card_h, model, config, alone)
        laid = np.zeros_like(white)
        for c in cards:
            cv2.fillConvexPoly(laid, np.asarray(c["corners"]).round().astype(np.int32), 1)
        score = cv2.countNonZero(laid & white) / max(cv2.countNonZero(laid | white), 1)
        if best is None or score > best[0]:
            best = (score, cards + alone, card_h)
    assert best is not None
    return best[1], best[2]


def _finished(image: U8, cards: list[dict[str, Any]], model: Mlp, config: RecognizerConfig) -> list[dict[str, Any]]:
    """The scene's cards as read, each once (``_once``), weighed by the pips of the faces that show whole,
    none sure where two lie in one place (``_one_place_doubted``)."""
    return _one_place_doubted(_counted_on_top(image, _once(cards), model, config), config)


def _one_place_doubted(cards: list[dict[str, Any]], config: RecognizerConfig) -> list[dict[str, Any]]:
    """``cards`` with every two of different codes reported in one place made unsure (``witness_cap``: the
    dealer is asked): outlines overlapping by 0.6 of the smaller, centres within a sixth of a card, closer
    than any two cards of a hand lie (a fifth of a card or more apart, the development scenes' tightest
    spread).  Two cards cannot both show there: one was made of the other's ink, and which one the
    confidences do not tell (over 16 draws of unseen-face scenes, a hand's indices in a column read as a
    Joker's word at 0.93 over the 4♥ they belong to, and a Q♥'s index laid out over the K♦ below it read Q♥
    at 0.90 beside that K♦ at 0.85: the surer read the wrong one).  So too two reads of one code whose
    outlines overlap by 0.4 of the smaller with centres within 0.4 of a card: the top card of a hand
    reported twice, from each of its large indices, at 0.90 (three of 16 further draws), or two cards
    alike lying next to each other in a hand, which the dealer then confirms."""
    quads = [f32(np.asarray(c["corners"], np.float32)) for c in cards]
    areas = [abs(cv2.contourArea(q)) for q in quads]
    doubted: set[int] = set()
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            if "unknown" in (cards[i]["code"], cards[j]["code"]):
                continue
            inter, _ = cv2.intersectConvexConvex(quads[i], quads[j])
            height = float(np.linalg.norm(quads[i][3] - quads[i][0]) + np.linalg.norm(quads[j][3] - quads[j][0])) / 2
            apart = float(np.linalg.norm(quads[i].mean(axis=0) - quads[j].mean(axis=0))) / height
            overlap = inter / max(min(areas[i], areas[j]), 1e-6)
            if cards[i]["code"] != cards[j]["code"]:
                if overlap >= 0.6 and apart <= 1 / 6:
                    doubted |= {i, j}
            elif overlap >= 0.4 and apart <= 0.4:
                # One code twice, overlapping: two cards alike in a hand, or one card's two indices each
                # laid out as a card (``_once`` merges those only where the outlines nearly coincide).
                doubted |= {i, j}
    return [{**c, "confidence": round(min(float(c["confidence"]), config.witness_cap), 4)} if i in doubted else c
            for i, c in enumerate(cards)]


def _once(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``cards`` with a card read twice in one place kept once, the surer read (of two as sure, the
    tighter outline): the same code on outlines one nearly inside the other (0.8 of the smaller) with
    centres within a fifth of a card.  Its two indices each laid out as a card, one outline a little
    off, escaped the merging of a card's corners (a 4♦ and a 5♥ reported twice at 0.9 with hands spread
    as the development scenes' are).  Two cards of one code in a hand lie a quarter of a card or more
    apart, and overlap less.  So too the same code on outlines turned opposite ways (one laid out from
    each of a card's two indices) that overlap by 0.4 of the smaller with centres within 0.4 of a card:
    the cards of a hand lie turned alike, so two turned half round from each other in one place are the
    top card of a hand read at both its indices, each outline laid out a little long (seeds 83-84 of
    ``bench/scene_misses.py``: five top cards reported twice so, both asked)."""
    quads = [f32(np.asarray(c["corners"], np.float32)) for c in cards]
    areas = [abs(cv2.contourArea(q)) for q in quads]
    order = sorted(range(len(cards)), key=lambda i: (-float(cards[i]["confidence"]), areas[i]))
    kept: list[int] = []
    for i in order:
        if cards[i]["code"] != "unknown" and any(
                cards[j]["code"] == cards[i]["code"] and _one_place(quads[i], quads[j], areas[i], areas[j]) for j in kept):
            continue
        kept.append(i)
    return [cards[i] for i in sorted(kept)]


def _one_place(a: F32, b: F32, area_a: float, area_b: float) -> bool:
    """Whether two outlines of one code are one card read twice (``_once``)."""
    inter, _ = cv2.intersectConvexConvex(a, b)
    height = float(np.linalg.norm(b[3] - b[0]) + np.linalg.norm(a[3] - a[0])) / 2
    overlap, apart = inter / max(min(area_a, area_b), 1e-6), float(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0))) / height
    if overlap >= 0.8 and apart <= 0.2:
        return True
    down_a, down_b = _unit((a[3] - a[0]).astype(np.float64)), _unit((b[3] - b[0]).astype(np.float64))
    return bool(float(down_a @ down_b) < -0.7 and overlap >= 0.4 and apart <= 0.4)


def _counted_on_top(image: U8, cards: list[dict[str, Any]], model: Mlp, config: RecognizerConfig) -> list[dict[str, Any]]:
    """``cards`` with each one read unsure or unknown whose face shows whole weighed by its pips, as a
    shoe scan's (``read.counted``): a card alone, or the top card of a hand (``_on_top``).  A lower
    card's face is covered, and the card above shows its own pips there."""
    quads = [f32(np.asarray(c["corners"], np.float32)) for c in cards]
    out = []
    for i, card in enumerate(cards):
        q = quads[i]
        if not countable(card, config) or not _inside(q, image.shape, margin=0.0) or not _on_top(i, quads):
            out.append(card)
        else:
            out.append(counted(card, image, q, model, config, scene=True))
    return out


def _on_top(i: int, quads: list[F32]) -> bool:
    """Whether card ``i`` lies over every card whose outline it overlaps: a hand's cards are laid each
    a little to the right of the one below, whose top-left index shows, so the card above has its own
    top-left corner on the card below and not the other way round."""
    qi = quads[i]
    area = abs(cv2.contourArea(qi))
    for j, qj in enumerate(quads):
        if j == i:
            continue
        inter, _ = cv2.intersectConvexConvex(qi, qj)
        if inter <= 0.02 * area:
            continue
        if not (_on_card(_index_point(qi), qj) and not _on_card(_index_point(qj), qi)):
            return False
    return True


def _index_point(q: F32) -> tuple[float, float]:
    """A point of the card's top-left index: a tenth of its width and height in from its corner."""
    p = q[0] + 0.1 * (q[1] - q[0]) + 0.1 * (q[3] - q[0])
    return float(p[0]), float(p[1])


def _on_card(point: tuple[float, float], quad: Any, margin: float = 0.0) -> bool:
    """Whether ``point`` lies on the card ``quad`` (TL, TR, BR, BL), or within ``margin`` of its width and
    height of it."""
    u, t = _places(point, np.asarray(quad, np.float64)[None])
    return bool(-margin <= u[0] <= 1 + margin and -margin <= t[0] <= 1 + margin)


def _card_regions(mask: U8) -> list[Contour]:
    """The outlines of a scene's card-white regions (``card_mask``) large enough to hold a card."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    min_area = (0.1 * mask.shape[0]) ** 2 * 0.35
    return [as_contour(c) for c in contours if cv2.contourArea(c) >= min_area]


def peak_layouts(image: U8, config: RecognizerConfig, card_h: float | None = None) -> list[IndexHypothesis]:
    """The cards the peak pass (``_peak_cards``) lays out from the learned detector's index centres
    in a scene: at the scene's measured card height, or at ``card_h`` where none is measured (the
    corner CNN's scene corpus, ``vision/tools/cnn_scene_data.py``, reads its crops from these)."""
    regions = _card_regions(card_mask(image))
    measured = _card_height(regions, image.shape[0]) or card_h
    if measured is None:
        return []
    return _peak_layouts(_Scene(image, regions), regions, measured, config)


def _peak_layouts(scene: _Scene, regions: list[Contour], card_h: float, config: RecognizerConfig) -> list[IndexHypothesis]:
    """The cards laid out from the detector's peaks in every (trimmed) region of ``scene``."""
    return [hyp for contour in _trimmed(regions, card_h) for hyp in _detector_hypotheses(scene, contour, card_h, config)]


def _peak_cards(scene: _Scene, regions: list[Contour], cards: list[dict[str, Any]], card_h: float, model: Mlp,
                config: RecognizerConfig) -> list[dict[str, Any]]:
    """``cards`` weighed by the corner CNN's reads at the learned detector's index centres, with
    ``config.peak_reader`` on:

    - where a card of ``cards`` has its top-left index at a peak and the CNN reads another card there
      (``peak_read_min`` or more), a sure card is made unsure where the CNN's read is
      ``witness_veto`` or more (and is the CNN's read, unsure, where that is sure too), and an
      unsure card is the CNN's read unless surer than it by ``peak_margin`` (``_weighed_at_index``),
      or unless another card lying near has that code (the crop took in its index: the unsure card
      is left as it is);
    - where no card accounts for a peak (none has its top-left or bottom-right index corner there:
      a lower card of a hand whose index the glyph rules did not find or the perceptron did not
      read), the CNN's read there is a card of its own, unsure, unless a card of that code lies there
      already; so too where a card's index corner holds the peak but not at its top-left index and
      the CNN reads there surely a card of another code (a lower card's index under a card laid out
      a little off).

    A Joker's word read at a peak (``peak_joker``) is a read like any other there: the card at that
    index, or one of its own.  What it names is at most ``witness_cap`` sure: the dealer confirms it.
    Only where the CNN is the scene's witness (``cnn_witness_scenes``, and for an enrolled deck
    ``cnn_witness_enrolled``); with the CNN as the corner reader (``corner_reader``) too, where the
    peaks find the lower cards the glyph rules laid out no hypothesis for."""
    if (config.peak_reader != "on" or config.index_detector != "on" or config.cnn_witness_scenes == "off"
            or model.profile is not None and config.cnn_witness_enrolled == "off"):
        return cards
    quads = np.array([c["corners"] for c in cards], np.float64).reshape(-1, 4, 2)
    turned = np.roll(quads, -2, axis=1)  # each card turned half round: its bottom-right index corner
    hyps: list[tuple[IndexHypothesis, list[int]]] = []  # a peak, and the cards whose top-left index it is
    held_only: list[tuple[IndexHypothesis, set[str]]] = []  # a peak in cards' index corners, not at a top-left index
    for hyp in _peak_layouts(scene, regions, card_h, config):
        u, t = _places(hyp.anchor, quads)
        held = _in_corner_at(u, t, config) | _in_corner_at(*_places(hyp.anchor, turned), config)
        # where the card prints its top-left index: a quarter of its width, three tenths of its height
        at_index = (u >= -0.05) & (u <= 0.25) & (t >= -0.05) & (t <= 0.3)
        at = [int(i) for i in np.flatnonzero(held & at_index)]
        if at or not held.any():
            hyps.append((hyp, at))
        else:
            held_only.append((hyp, {str(cards[int(i)]["code"]) for i in np.flatnonzero(held)}))
    if not hyps and not held_only:
        return cards
    reads = [(card, hyp, at) for card, (hyp, at) in zip(_surest_reads(scene.image, [h for h, _ in hyps], model, config), hyps, strict=True)
             if card is not None]
    # A peak in a card's other index corner (or its corner laid out a little off) is that card's index,
    # unless the CNN reads surely another card there: then a card the outlines hid (a lower card whose
    # index the card above was laid over).
    reads += [(card, hyp, []) for card, (hyp, codes) in zip(_cnn_cards(scene.image, [h.quad for h, _ in held_only], model, config,
                                                                       jokers=True),
                                                           held_only, strict=True)
              if card is not None and card["confidence"] >= _sure_at_one_corner(config) and card["code"] not in codes]
    out = list(cards)
    weighed: set[int] = set()
    added: list[tuple[IndexHypothesis, dict[str, Any]]] = []
    for read, hyp, at in sorted(reads, key=lambda r: -float(r[0]["confidence"])):
        if at:
            for i in at:
                if i not in weighed:
                    weighed.add(i)  # by the surest read at its index only
                    if out[i]["confidence"] < config.witness_sure and any(
                            c["code"] == read["code"] and _near(hyp.anchor, c["corners"]) for j, c in enumerate(out) if j != i):
                        continue  # a card lying near holds the code the CNN reads: the crop took in its index
                    out[i] = _weighed_at_index(out[i], _checked_at_outline(scene.image, out[i], read, model, config), config)
            continue
        card = {**read, "confidence": round(min(float(read["confidence"]), config.witness_cap), 4)}
        if any(c["code"] == card["code"] and _on_or_by(hyp.anchor, c["corners"]) for c in out):
            continue  # a card read already, its outline laid out a little off: the same card
        if any(_in_corner(hyp.anchor, k.quad, config) or _in_corner(hyp.anchor, np.roll(k.quad, -2, axis=0), config)
               or _in_corner(k.anchor, hyp.quad, config) or _in_corner(k.anchor, np.roll(hyp.quad, -2, axis=0), config)
               or c["code"] == card["code"] and _near(hyp.anchor, c["corners"]) for k, c in added):
            continue  # the same card's other index, or the same index twice
        added.append((hyp, card))
    return out + [c for _, c in added]


def _weighed_at_index(card: dict[str, Any], read: dict[str, Any], config: RecognizerConfig) -> dict[str, Any]:
    """A scene's ``card`` weighed by the CNN's ``read`` at a detector peak on its top-left index: a
    sure card the CNN reads as another one with some confidence (``witness_veto``) is made unsure
    (``witness_cap``), its code kept, or where the CNN's read is sure too (``_sure_at_one_corner``),
    the CNN's read, unsure; an unsure card the CNN reads as another one is the CNN's read, unsure,
    unless the card is surer by more than ``peak_margin``: where the two disagree on an unsure card,
    the CNN's read at the detector's peak was right four times as often as the card read at its
    outline, and twice as often where the card was the surer (scenes of unseen faces, docs/vision.md
    "Session 18")."""
    if card["code"] == read["code"]:
        return card
    if card["confidence"] >= config.witness_sure:
        if read["confidence"] < config.witness_veto:
            return card
        if read["confidence"] < _sure_at_one_corner(config):
            return {**card, "confidence": round(min(float(card["confidence"]), config.witness_cap), 4)}
    elif read["confidence"] <= card["confidence"] - config.peak_margin:
        return card
    named = {k: v for k, v in card.items() if k != "guesses"}
    return {**named, "code": read["code"], "confidence": round(min(float(read["confidence"]), config.witness_cap), 4)}


def _checked_at_outline(image: U8, card: dict[str, Any], read: dict[str, Any], model: Mlp,
                        config: RecognizerConfig) -> dict[str, Any]:
    """The CNN's sure ``read`` at a peak on a sure ``card``'s index, made just unsure where the CNN
    reads the card's own code at the card's own outline (the peak's layout took in something else:
    a development K♥ was read 4♥ there); the card is then only made unsure (``_weighed_at_index``)."""
    sure = _sure_at_one_corner(config)
    if card["confidence"] < config.witness_sure or read["confidence"] < sure or read["code"] == card["code"]:
        return read
    (own,) = _cnn_cards(image, [f32(np.asarray(card["corners"], np.float32))], model, config)
    if own is None or own["code"] != card["code"]:
        return read
    return {**read, "confidence": _just_unsure(config)}


def _sure_at_one_corner(config: RecognizerConfig) -> float:
    """A sure read of one index corner (the CNN's at a peak): ``witness_sure`` of the corner's odds,
    scaled as a card read from one corner is (``single_corner_factor``)."""
    return config.witness_sure * config.single_corner_factor


def _just_unsure(config: RecognizerConfig) -> float:
    """A one-corner read's confidence just below sure (``_sure_at_one_corner``)."""
    return round(_sure_at_one_corner(config) - 1e-4, 4)


def _surest_reads(image: U8, hyps: list[IndexHypothesis], model: Mlp, config: RecognizerConfig) -> list[dict[str, Any] | None]:
    """The corner CNN's card at each hypothesis laid out from a detector peak, or None where it reads
    no card of ``peak_read_min`` or more.  The detector places the index within a few pixels, but
    the card's outline laid out from it is a little off, and the CNN reads a corner best with the
    index where it was trained to see it: a peak whose card the CNN does not read surely
    (``witness_sure``) as laid out is read again from eight more layouts, the index moved by 3% of
    the card each way, and the surest read is taken, never as sure (``_sure_at_one_corner``): the
    surest of nine looks is surer than any one look is right."""
    first = _cnn_cards(image, [h.quad for h in hyps], model, config, jokers=True)
    again = [i for i, c in enumerate(first) if c is None or c["confidence"] < _sure_at_one_corner(config)]
    shifts = [(du, dt) for du in (-0.03, 0.0, 0.03) for dt in (-0.03, 0.0, 0.03) if du or dt]
    more = _cnn_cards(image, [_shifted(hyps[i].quad, du, dt) for i in again for du, dt in shifts], model, config)
    best = list(first)
    below_sure = _just_unsure(config)
    for k, i in enumerate(again):
        for card in more[k * len(shifts):(k + 1) * len(shifts)]:
            surest = best[i]
            if card is not None and (surest is None or card["confidence"] > surest["confidence"]):
                best[i] = {**card, "confidence": min(float(card["confidence"]), below_sure)}
    return [c if c is not None and c["confidence"] >= config.peak_read_min else None for c in best]


def _cnn_cards(image: U8, quads: list[F32], model: Mlp, config: RecognizerConfig, *,
               jokers: bool = False) -> list[dict[str, Any] | None]:
    """The corner CNN's card (``card_from_corner``) read at the top-left index corner of each card
    of ``quads``, in one pass, its suit weighed by the card's first pip where its shape is unsure
    (``cnn_with_pips``; the pip read by ``model``), or None where it reads no rank (a Joker's word, a
    blank corner, art).  ``jokers``: a Joker (``witness_cap``) where the CNN reads "JOKER" down the
    corner with probability ``config.peak_joker`` or more (a detector peak's corner)."""
    if not quads:
        return []
    from .cnn import JOKER, corner_read, load_cnn

    kind, suit = load_cnn().probabilities([corner_at(image, q, config) for q in quads])
    out: list[dict[str, Any] | None] = []
    for j, q in enumerate(quads):
        read = cnn_with_pips(image, q, model, config, corner_read(kind[j], suit[j]))
        if jokers and read.joker_text and float(kind[j, JOKER]) >= config.peak_joker:
            out.append(card_from_corner(read, q, config))  # JK, at witness_cap
            continue
        card = card_from_corner(read, q, config) if read.probs is not None else None
        out.append(card if card is not None and card["code"] not in ("unknown", "JK") else None)
    return out


def _places(point: tuple[float, float], quads: F64) -> tuple[F64, F64]:
    """Where ``point`` lies on each card of ``quads`` (N, 4, 2: TL, TR, BR, BL): fractions of the
    card's width along its top edge and of its height down its side, from its top-left corner."""
    tl = quads[:, 0]
    across, down = quads[:, 1] - tl, quads[:, 3] - tl
    rel = np.asarray(point, np.float64) - tl
    u = (rel * across).sum(axis=1) / np.maximum((across * across).sum(axis=1), 1e-9)
    t = (rel * down).sum(axis=1) / np.maximum((down * down).sum(axis=1), 1e-9)
    return f64(u), f64(t)


class _Region:
    """A card-white region's box (padded by 2 px, within the picture) and what is made of it once:
    its outline filled (``filled``, 0/1) and eroded (``inside``), its whiteness, the directions of
    its straight edges and, when asked, its edges."""

    def __init__(self, image: U8, contour: Contour) -> None:
        x, y, w, h = cv2.boundingRect(contour)
        pad = 2
        x0, y0 = max(x - pad, 0), max(y - pad, 0)
        x1, y1 = min(x + w + pad, image.shape[1]), min(y + h + pad, image.shape[0])
        self.origin = (x0, y0)
        roi = image[y0:y1, x0:x1]
        filled = np.zeros(roi.shape[:2], np.uint8)
        cv2.drawContours(filled, [contour - [x0, y0]], -1, 1, cv2.FILLED)
        self.filled = filled
        self.inside = u8(cv2.erode(filled, np.ones((3, 3), np.uint8)))
        self.grey = whiteness(roi)
        self.angles = _edge_angles(contour)
        self._edges: U8 | None = None

    def edges(self) -> U8:
        """The region box's edges (Canny on the lightly blurred whiteness), dilated by one pixel."""
        if self._edges is None:
            self._edges = u8(cv2.dilate(cv2.Canny(cv2.GaussianBlur(self.grey, (3, 3), 0), 15, 40), np.ones((3, 3), np.uint8)))
        return self._edges


class _Scene:
    """One picture, with the work on it that does not depend on the card size it is read at.

    ``find_cards`` reads a scene without a measured card size at three sizes; a region that the
    trimming of table markings leaves with the same outline at two sizes (4 of 15 on the development
    scenes) has its box, grey levels, edges and outline directions made once.  (A corner read depends
    on the card size through the glyphs found and the card laid out: none repeats.)  Made per
    ``find_cards`` call and dropped with it: nothing carries over to another picture."""

    def __init__(self, image: U8, regions: list[Contour] | None = None) -> None:
        self.image = image
        # With the CNN reading the scene's indices (``scene_reader``), the configuration in which the
        # perceptron reads: it looks for the Jokers that print no index (``_cards_at``) and counts the
        # pips of whole faces (``_finished``).
        self.perceptron: RecognizerConfig | None = None
        self._regions: dict[tuple[str, tuple[int, ...], bytes], _Region] = {}
        self._outlines = regions or []
        self._peaks: list[IndexPeak] | None = None
        self.learned: dict[tuple[str, tuple[int, ...], bytes, float], list[IndexHypothesis]] = {}

    def peaks(self, config: RecognizerConfig) -> list[IndexPeak]:
        """The index centres the learned detector finds around the scene's card-white regions (run
        once per picture, when ``config.index_detector`` is on)."""
        if self._peaks is None:
            if config.index_detector != "on" or not self._outlines:
                self._peaks = []
            else:
                from .detector import load_detector

                xs = np.concatenate([c[:, 0] for c in self._outlines])
                roi = (int(xs[:, 0].min()), int(xs[:, 1].min()), int(xs[:, 0].max()) + 1, int(xs[:, 1].max()) + 1)
                self._peaks = load_detector().peaks(self.image, config.detector_peak, roi)
        return self._peaks

    def region(self, contour: Contour) -> _Region:
        """The ``_Region`` of an outline."""
        key = _key(contour)
        if key not in self._regions:
            self._regions[key] = _Region(self.image, contour)
        return self._regions[key]


def _key(a: Contour) -> tuple[str, tuple[int, ...], bytes]:
    """A dictionary key of an outline's points."""
    return a.dtype.str, a.shape, a.tobytes()


def _cards_at(scene: _Scene, regions: list[Contour], card_h: float, model: Mlp,
              config: RecognizerConfig, alone: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The cards of the scene's card-white ``regions``, the cards being ``card_h`` pixels tall.  A card
    alone whose index nothing reads is among them, unknown, or put in ``alone`` when that is given (the
    cards of a size chosen by how well they cover the regions: its outline, the region's own, covers it
    at any size)."""
    image = scene.image
    found: list[dict[str, Any]] = []
    for contour in _bitten_read(scene, regions, card_h, model, config, found):
        single = None  # the region read whole, when that names a card
        whole = None
        if _maybe_single(contour):
            # One card, or two lying nearly one over the other: read it whole first, and only when
            # that gives no sure card look for the cards of a hand.
            quad = portrait_order(quad_of(contour))
            crops = index_corners(image, quad, config)
            whole = read_card(image, quad, model, config, pips=True, scene=True, corners=crops)
            if scene.perceptron is not None and whole["code"] == "unknown" and _joker_guess(whole):
                # Neither corner holds an index the CNN reads, and the CNN sees something in them: the
                # perceptron, the scene's witness, tells whether they are blank paper (a Joker that
                # prints no index; a card's edge shown in a corner crop looks inked to the CNN).
                blank = read_card(image, quad, model, scene.perceptron, pips=True, scene=True, corners=crops)
                if blank["code"] == "JK":
                    whole = blank
            if whole["code"] != "unknown":
                if whole["confidence"] >= 0.9:
                    found.append(whole)
                    continue
                single = whole
        by_index = _index_cards(scene, contour, card_h, model, config)
        if whole is not None and len(by_index) <= 1 and all(c["confidence"] < 0.9 for c in by_index):
            # A card alone that nothing names surely: a Joker whose corners print no index the perceptron
            # reads (blank, or "JOKER" in a face it does not know: its "J" taken for a Jack's) is one,
            # asked, where the CNN finds both corners a Joker's; the unsure reads of its corners go.
            joker = scene_joker(quad, crops, model, scene.perceptron or config) if _inside(quad, image.shape) else None
            if joker is not None:
                found.append(joker)
                continue
        found.extend(by_index)
        if by_index:
            joker = _unindexed_top_card(image, contour, by_index, card_h, model, scene.perceptron or config)
            if joker is not None:
                found.append(joker)
        if single is not None and len(by_index) <= 1:
            # Not sure, but no hand either: the whole card's two corners are still the best evidence.
            found.append(single)
        elif whole is not None and single is None and not by_index:
            # A card alone whose index nothing reads (small and blurred): unknown, for its pips to count
            # (``_counted_on_top``) or the dealer to be asked, rather than left out.
            (found if alone is None else alone).append(whole)
    return _merge(found, card_h)


def _joker_guess(card: dict[str, Any]) -> bool:
    """Whether an unknown card's first guess is a Joker (no rank read in either corner)."""
    guesses = card.get("guesses") or []
    return bool(guesses) and guesses[0]["code"] == "JK"


def _bitten_read(scene: _Scene, regions: list[Contour], card_h: float, model: Mlp, config: RecognizerConfig,
                 found: list[dict[str, Any]]) -> list[Contour]:
    """The regions cut down to their card bodies (``_trimmed``), but for a card alone with a bite out of
    its outline (a chip on its edge: ``_bitten_single``) read whole and surely, which goes into ``found``
    (trimming would cut the card apart at the chip)."""
    out: list[Contour] = []
    for contour in regions:
        if not _maybe_single(contour) and _bitten_single(contour, card_h):
            # The card's corners as its outline's sides meet, and, where the bite took a corner, as
            # the smallest rectangle around it has them.
            whole = _surest_whole(scene.image, contour, model, config)
            if whole is not None:
                found.append(whole)
                continue
        out.extend(_trimmed([contour], card_h))
    return out


def _surest_whole(image: U8, contour: Contour, model: Mlp, config: RecognizerConfig) -> dict[str, Any] | None:
    """A card alone with a bite out of its outline read whole surely, else None: laid out as its outline's
    sides meet, and where the bite took a corner (that read not sure), as the smallest rectangle around
    the outline has it."""
    for quad in (quad_of(contour), f32(cv2.boxPoints(cv2.minAreaRect(contour)))):
        whole = read_card(image, portrait_order(quad), model, config, pips=True, scene=True)
        if whole["code"] != "unknown" and whole["confidence"] >= 0.9:
            return whole
    return None


def _bitten_single(contour: Contour, card_h: float) -> bool:
    """One card with a bite out of its outline (a chip on its edge): its convex hull is one card's
    shape and size, and the region fills most of it."""
    hull = as_contour(cv2.convexHull(contour))
    if not card_shaped(hull, 0.88, (1.25, 1.55)):
        return False
    long_side = max(cv2.minAreaRect(hull)[1])
    return 0.85 * card_h <= long_side <= 1.15 * card_h and cv2.contourArea(contour) >= 0.5 * cv2.contourArea(hull)


def _unindexed_top_card(image: U8, contour: Contour, cards: list[dict[str, Any]], card_h: float,
                        model: Mlp, config: RecognizerConfig) -> dict[str, Any] | None:
    """A Joker printed without an index lying on top of a hand: a strip of the region that none of
    the cards read by their indices covers, where a card turned like them fits, with blank corners;
    or such a strip that is a whole card by itself (``_whole_card_apart``)."""
    x, y, w, h = cv2.boundingRect(contour)
    region = np.zeros((h, w), np.uint8)
    cv2.drawContours(region, [contour - [x, y]], -1, 255, cv2.FILLED)
    covered = np.zeros_like(region)
    for c in cards:
        cv2.fillConvexPoly(covered, (np.asarray(c["corners"]) - [x, y]).round().astype(np.int32), 255)
    k = max(3, int(0.08 * card_h) | 1)
    rest = u8(cv2.morphologyEx(region & ~covered, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))))
    if cv2.countNonZero(rest) < 0.1 * card_h * card_h / ASPECT:
        return None
    q = np.asarray(cards[0]["corners"], np.float64)
    down, right = _unit(q[3] - q[0]), _unit(q[1] - q[0])
    ys, xs = np.nonzero(rest)
    pts = np.stack([xs, ys], axis=1).astype(np.float64)
    u, t = pts @ right, pts @ down
    hh, ww = card_h, card_h / ASPECT
    best, best_fit = None, 0.0
    for u0 in (u.min(), u.max() - ww):
        for t0 in (t.min(), t.max() - hh):
            corner = u0 * right + t0 * down
            quad = np.array([corner, corner + ww * right, corner + ww * right + hh * down, corner + hh * down])
            fit = float(((u >= u0 - 2) & (u <= u0 + ww + 2) & (t >= t0 - 2) & (t <= t0 + hh + 2)).mean())
            white = float(_on_white(quad[None], region, (x, y), image.shape[:2])[0])
            if fit >= 0.85 and white >= 0.9 and fit + white > best_fit:
                best, best_fit = quad, fit + white
    if best is None:
        best = _whole_card_apart(rest, card_h)
    if best is None or not _inside(best + [x, y], image.shape[:2]):
        return None  # (a card running off the picture shows no corner there: blank is no sign of a Joker)
    card = read_card(image, portrait_order((best + [x, y]).astype(np.float32)), model, config, scene=True)
    return card if card["code"] == "JK" else None


def _whole_card_apart(rest: U8, card_h: float) -> F64 | None:
    """The outline of a whole card lying apart among the strips ``rest`` that no read index accounts
    for, or None: a strip of a card's size and shape by itself, nearly filling its least rectangle (a
    region joined to another hand by a table marking may hold a Joker lying by itself, turned its own
    way).  A part of a card read with a wrong outline is smaller, or not a rectangle."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(rest)
    area = card_h * card_h / ASPECT
    for i in range(1, n):
        if not 0.75 * area <= stats[i, cv2.CC_STAT_AREA] <= 1.3 * area:
            continue
        ys, xs = np.nonzero(labels == i)
        box = cv2.boxPoints(cv2.minAreaRect(np.stack([xs, ys], axis=1).astype(np.float32))).astype(np.float64)
        sides = sorted((float(np.linalg.norm(box[1] - box[0])), float(np.linalg.norm(box[2] - box[1]))))
        if (0.85 * card_h <= sides[1] <= 1.2 * card_h and 1.25 <= sides[1] / max(sides[0], 1.0) <= 1.6
                and stats[i, cv2.CC_STAT_AREA] >= 0.92 * sides[0] * sides[1]):
            return f64(box)
    return None


def _inside(quad: F32 | F64, shape: tuple[int, ...], margin: float = 2.0) -> bool:
    """Whether a card's corners all lie in a picture of ``shape`` (H, W), within ``margin`` pixels."""
    q = np.asarray(quad, np.float64)
    return bool((q[:, 0] >= -margin).all() and (q[:, 0] <= shape[1] - 1 + margin).all()
                and (q[:, 1] >= -margin).all() and (q[:, 1] <= shape[0] - 1 + margin).all())


def _trimmed(regions: list[Contour], card_h: float) -> list[Contour]:
    """The regions cut down to their card bodies: light table markings (a printed arc, a line, the
    letters of "BLACKJACK PAYS 3 TO 2") can pass for card-white and join a card's region or make
    regions of their own.  An opening wider than their strokes and narrower than any visible strip of
    a card keeps the bodies; the region near them is kept, and a region with no body is dropped."""
    k = max(5, int(0.12 * card_h) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    body_area = 0.25 * card_h * card_h / ASPECT
    out: list[Contour] = []
    for contour in regions:
        x, y, w, h = cv2.boundingRect(contour)
        filled = np.zeros((h + 2 * k, w + 2 * k), np.uint8)
        cv2.drawContours(filled, [contour - [x - k, y - k]], -1, 255, cv2.FILLED)
        body = u8(cv2.morphologyEx(filled, cv2.MORPH_OPEN, kernel))
        if cv2.countNonZero(body) < body_area:
            continue
        if cv2.countNonZero(body) > 0.9 * cv2.countNonZero(filled):
            out.append(contour)  # nothing thin attached: keep the outline as found
            continue
        kept = filled & u8(cv2.dilate(body, kernel))
        parts, _ = cv2.findContours(kept, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        out.extend(as_contour(p + [x - k, y - k]) for p in parts if cv2.contourArea(p) >= body_area)
    return out


def _index_cards(scene: _Scene, contour: Contour, card_h: float, model: Mlp,
                 config: RecognizerConfig) -> list[dict[str, Any]]:
    """Cards of a region found by their indices: every glyph with a smaller glyph beside it is a
    hypothesis "rank over suit" or "suit beside the rank"; the card is laid out from there and its
    corner read.  Of the hypotheses that read an index at one place, the surest is kept."""
    reads: list[tuple[float, IndexHypothesis, CornerRead]] = []
    image = scene.image
    hyps = _index_hypotheses(scene, contour, card_h, model, config)
    if config.index_detector == "on":
        hyps += _detector_hypotheses(scene, contour, card_h, config)
    for hyp in hyps:
        if any(r[0] >= 0.85 and math.dist(hyp.anchor, r[1].anchor) <= config.index_spacing * max(hyp.rank_h, r[1].rank_h) for r in reads):
            continue  # an index already read surely here: another hypothesis of it would lose
        if hyp.learned and any(math.dist(hyp.anchor, r[1].anchor) <= config.index_spacing * max(hyp.rank_h, r[1].rank_h)
                               or _other_corner(hyp, r[1], config) for r in reads):
            # The detector fills the glyph rules' gaps: where they read an index, theirs stands; and
            # the other index of a card read already is no card (laid out from a peak, its outline is
            # not exact enough for the merging of a card's two corners).
            continue
        read = read_corner_at(image, hyp.quad, model, config, hyp.rank_at, scene=True)
        if hyp.beside and not read.beside:
            continue  # laid out for a suit beside the rank, read with one under it: a card turned a quarter wrong
        if read.joker_text:
            # "JOKER" down the corner: surer than any rank read off one of its letters.
            reads.append((2.0, hyp, read))
            continue
        if read.probs is None or read.score < config.index_rank_score:
            continue
        reads.append((float(read.probs.max()) * read.score, hyp, read))
    reads.sort(key=lambda r: r[0], reverse=True)
    kept: list[tuple[float, IndexHypothesis, CornerRead]] = []
    for r in reads:
        if any(math.dist(r[1].anchor, k[1].anchor) <= config.index_spacing * max(r[1].rank_h, k[1].rank_h) for k in kept):
            continue
        if any(k[2].joker_text and _in_corner(r[1].anchor, k[1].quad, config) for k in kept):
            continue  # another letter of the word
        kept.append(r)
    return [card_from_corner(with_pips(image, hyp.quad, model, config, read), hyp.quad, config) for _, hyp, read in kept]


def _detector_hypotheses(scene: _Scene, contour: Contour, card_h: float,
                         config: RecognizerConfig) -> list[IndexHypothesis]:
    """Cards laid out from the learned detector's index centres inside a card-white region: from the
    centre, the card's "down" it predicts (turned onto the region's edge directions when one runs
    within 14 degrees), the index centre's place on its card it predicts, and the scene's card size.
    The rank's place is left to the corner's read (the glyph nearest the corner).  Made once per
    region and card size (the CNN's pass at the peaks asks again)."""
    key = (*_key(contour), card_h)
    if key not in scene.learned:
        scene.learned[key] = _laid_from_peaks(scene, contour, card_h, config)
    return scene.learned[key]


def _laid_from_peaks(scene: _Scene, contour: Contour, card_h: float,
                     config: RecognizerConfig) -> list[IndexHypothesis]:
    """``_detector_hypotheses``, made."""
    region = scene.region(contour)
    x0, y0 = region.origin
    inside = [p for p in scene.peaks(config) if cv2.pointPolygonTest(contour, (p.x, p.y), True) >= -2.0]
    if not inside:
        return []
    downs = np.array([p.down for p in inside], np.float64)
    snapped = _snap_all(downs, region.angles)
    hh, ww = card_h, card_h / ASPECT
    quads = []
    for p, raw, snap in zip(inside, downs, snapped, strict=True):
        down = raw / (np.linalg.norm(raw) + 1e-12) if snap is None else snap
        right = np.array([down[1], -down[0]])
        u, t = min(max(p.corner[0], 0.04), 0.2), min(max(p.corner[1], 0.04), 0.25)
        corner = np.array([p.x, p.y]) - u * ww * right - t * hh * down
        quads.append([corner, corner + ww * right, corner + ww * right + hh * down, corner + hh * down])
    q = np.array(quads, np.float32)
    white = _on_white(q - [x0, y0], region.filled, (x0, y0), scene.image.shape[:2]) >= config.index_on_white
    rank_h = 0.09 * card_h
    return [IndexHypothesis(q[i], (p.x, p.y), rank_h, None, learned=True) for i, p in enumerate(inside) if white[i]]


def _shifted(quad: F32, du: float, dt: float) -> F32:
    """``quad`` (TL, TR, BR, BL) moved by ``du`` of its width along its top edge and ``dt`` of its
    height down its side (the index it was laid out from then lies that much nearer its top left)."""
    q = quad.astype(np.float64)
    move = du * (q[1] - q[0]) + dt * (q[3] - q[0])
    return f32((q + move).astype(np.float32))


def _on_or_by(point: tuple[float, float], corners: Any) -> bool:
    """Whether ``point`` lies on the card ``corners`` or within a tenth of its width and height of it: a
    peak there is that card's own index, its outline laid out a little off.  (Beyond, a card of the same
    code lying beside it in a hand, as a shoe of several decks deals them: its index shows, so it lies
    off the card above.)"""
    return _on_card(point, corners, margin=0.1)


def _near(point: tuple[float, float], corners: Any) -> bool:
    """Whether ``point`` lies within one card height of the centre of the card ``corners``."""
    q = np.asarray(corners, np.float64)
    return bool(np.linalg.norm(q.mean(axis=0) - point) < np.linalg.norm(q[3] - q[0]))


def _other_corner(hyp: IndexHypothesis, read: IndexHypothesis, config: RecognizerConfig) -> bool:
    """Whether ``hyp`` lies at the other index corner (bottom right, turned half round) of the card
    laid out for ``read``."""
    a, b = hyp.quad.astype(np.float64), read.quad.astype(np.float64)
    if float(_unit(a[3] - a[0]) @ _unit(b[3] - b[0])) > -0.7:
        return False
    return _in_corner(hyp.anchor, np.roll(read.quad, -2, axis=0), config)


def _in_corner(point: tuple[float, float], quad: F32, config: RecognizerConfig) -> bool:
    """Whether ``point`` lies in the index corner of the card ``quad`` (TL, TR, BR, BL), a little
    longer than the corner that is read (a word runs on below it)."""
    return bool(_in_corner_at(*_places(point, quad.astype(np.float64)[None]), config)[0])


def _in_corner_at(u: F64, t: F64, config: RecognizerConfig) -> Bools:
    """Whether places on cards (``_places``) lie in their index corners, as ``_in_corner``."""
    return (u >= -0.05) & (u <= config.corner_w) & (t >= -0.05) & (t <= 0.55)


def _ceil_of(fraction: float) -> U8:
    """(256,) uint8: for each paper level p, the ceiling of ``fraction`` x p (multiplied in float32,
    as numpy multiplies a float32 image): a grey level g is below the fraction of p exactly when
    g < this[p].  (A table lookup and an 8-bit comparison: five times faster than float32 image
    arithmetic, the same pixels.)"""
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"expected a fraction of the paper level in [0, 1], got {fraction}")
    return u8(np.ceil(np.float32(fraction) * np.arange(256, dtype=np.float32)).astype(np.uint8))


@dataclass(frozen=True, slots=True)
class IndexHypothesis:
    """A card laid out from a candidate index: ``quad`` (TL, TR, BR, BL), the rank glyph's centre and height."""

    quad: F32
    anchor: tuple[float, float]
    rank_h: float
    rank_at: tuple[float, float] | None  # the rank glyph's centre, as fractions of the card's width and height (None: not known)
    beside: bool = False  # laid out for a suit printed beside the rank (one row), not under it
    learned: bool = False  # laid out from the learned detector's peak (its rank found by the corner's read)


def _index_hypotheses(scene: _Scene, contour: Contour, card_h: float, model: Mlp,  # noqa: C901
                      config: RecognizerConfig) -> list[IndexHypothesis]:
    """Card quads (TL, TR, BR, BL) laid out from candidate index glyph pairs inside a card region."""
    image, region = scene.image, scene.region(contour)
    x0, y0 = region.origin
    filled, inside, grey = region.filled, region.inside, region.grey
    k = max(5, int(0.12 * card_h) | 1)
    paper = u8(cv2.dilate(grey, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))))
    # Ink: darker than 0.78 of the paper around it (inside the region).
    ink = u8(cv2.compare(grey, cv2.LUT(paper, _ceil_of(0.78)), cv2.CMP_LT)) & inside
    n, labels, stats, cents = _components(ink)
    if n <= 2:
        return []
    angles = region.angles
    blobs = (labels, stats)  # as cut: a blob may be a small index run together by blur
    # A blob too big for a glyph may be a glyph joined by grey (a card's shadow line, blur) to a
    # card's edge or to its neighbour: within it only the dark ink is kept.
    big = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) > 0.16 * card_h
    big[0] = False
    if big.any():
        dark_below = _ceil_of(config.index_dark_ink)
        for label in np.nonzero(big)[0]:
            bx, by, bw, bh = stats[label, :4]
            box = (slice(by, by + bh), slice(bx, bx + bw))
            pale = (labels[box] == label) & (grey[box] >= dark_below[paper[box]])
            ink[box][pale] = 0
        n, labels, stats, cents = _components(ink)
    size = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]).astype(np.float64)
    ok = (size >= max(3.0, 0.02 * card_h)) & (size <= 0.16 * card_h) & (stats[:, cv2.CC_STAT_AREA] >= 5)
    ok[0] = False
    idx = np.nonzero(ok)[0]
    if len(idx) < 2:
        return []
    c = cents[idx]
    sz = size[idx]
    d = np.linalg.norm(c[:, None, :] - c[None, :, :], axis=2)
    ratio = sz[None, :] / sz[:, None]
    pair = (d >= 0.45 * sz[:, None]) & (d <= 2.0 * sz[:, None]) & (ratio >= 0.25) & (ratio <= 1.0)
    pair &= sz[:, None] >= 0.04 * card_h

    cache: dict[int, F64] = {}

    def pixels(label: int, of: tuple[I32, I32] = (labels, stats)) -> F64:
        ls, st = of
        sx, sy, sw, sh = st[label, :4]
        ys, xs = np.nonzero(ls[sy : sy + sh, sx : sx + sw] == label)
        return np.stack([xs + sx, ys + sy], axis=1).astype(np.float64)

    def glyph(label: int) -> F64:
        if label not in cache:
            cache[label] = pixels(label)
        return cache[label]

    # Glyphs of about one height side by side: the digits of a two-digit rank.
    digits = (d > 0.3 * sz[:, None]) & (d < 1.35 * sz[:, None]) & (sz >= 0.7 * sz[:, None]) & (sz <= 1.4 * sz[:, None])
    # (rank glyph's pixels, the card's "down", and for a suit beside the rank that glyph's pixels)
    candidates: list[tuple[F64, F64, F64 | None]] = []
    # An index's rank and suit are stacked along the card's length, so along an edge of the region
    # (the cards of a hand lie within a few degrees of each other).
    firsts, seconds = np.nonzero(pair)
    snapped = _snap_all(c[seconds] - c[firsts], angles)
    # Some decks print the suit beside the rank, in one row: the smaller glyph lies along the card's
    # width, and the card's "down" is a quarter turn from it.  Both are tried; the corner's read
    # (``index_reader``) takes the glyph for a suit only where the classifier sees one.
    beside = [None if v is None else np.array([-v[1], v[0]]) for v in snapped]
    in_row: list[tuple[F64, F64, F64 | None]] = []
    pairs = zip(np.concatenate([firsts, firsts]), np.concatenate([seconds, seconds]), snapped + beside, strict=True)
    for k, (a, b, down) in enumerate(pairs):
        if down is None:
            continue
        # The second digit of a two-digit rank ("10", Finnish "11"-"13") is read with the digit
        # of its height that stands just before it.
        pts = glyph(idx[a])
        before = np.nonzero(digits[a])[0]
        if len(before):
            right = np.array([down[1], -down[0]])
            du, dt = (c[before] - c[a]) @ right, (c[before] - c[a]) @ down
            before = before[(du < -0.3 * sz[a]) & (du > -1.3 * sz[a]) & (np.abs(dt) < 0.25 * sz[a])]
        if len(before):
            pts = np.concatenate([pts, *(glyph(idx[j]) for j in before)])
        if k < len(snapped):
            candidates.append((pts, down, None))
        else:
            in_row.append((pts, down, glyph(idx[b])))
    # Under blur a small index's rank and suit run together: an elongated blob of about an index's
    # size is tried both ways along its length, its first half as the rank.
    size0 = np.maximum(blobs[1][:, cv2.CC_STAT_WIDTH], blobs[1][:, cv2.CC_STAT_HEIGHT])
    merged = np.nonzero((size0 >= 0.06 * card_h) & (size0 <= 0.3 * card_h) & (blobs[1][:, cv2.CC_STAT_AREA] >= 12))[0]
    elongated: list[F64] = []
    axes: list[F64] = []
    for label in merged[merged > 0]:
        pts = pixels(label, blobs)
        (_, _), (rw, rh), ang = cv2.minAreaRect(pts.astype(np.float32))
        if min(rw, rh) <= 0 or max(rw, rh) / min(rw, rh) < 1.5:
            continue
        theta = math.radians(ang) + (0 if rw >= rh else math.pi / 2)
        axis = np.array([math.cos(theta), math.sin(theta)])
        elongated.append(pts)
        axes += [axis, -axis]
    # (Snapped in one batch: the same arithmetic, element by element, as one direction at a time.)
    ways = _snap_all(np.array(axes).reshape(-1, 2), angles)
    for i, pts in enumerate(elongated):
        for down in ways[2 * i : 2 * i + 2]:
            if down is None:
                continue
            t = pts @ down
            candidates.append((pts[t <= t.min() + 0.55 * (t.max() - t.min())], down, None))
    candidates += in_row
    candidates += _run_together_in_row(blobs, merged[merged > 0].tolist(), angles, pixels)
    if not candidates:
        return []
    edges = region.edges()
    # Each candidate's card, laid out from its rank glyph with the scene's card size.  The glyph's
    # extent across and down its card is taken per candidate (a matrix product's rounding depends
    # on the batch); the layout from there is done for all candidates at once.
    n_cand = len(candidates)
    downs_all = np.array([down for _, down, _ in candidates])
    rights = np.stack([downs_all[:, 1], -downs_all[:, 0]], axis=1)
    us = [pts @ rights[j] for j, (pts, _, _) in enumerate(candidates)]
    ts = [pts @ downs_all[j] for j, (pts, _, _) in enumerate(candidates)]
    starts = np.cumsum([0] + [len(u) for u in us[:-1]])
    u_all, t_all = np.concatenate(us), np.concatenate(ts)
    u0, u1 = np.minimum.reduceat(u_all, starts), np.maximum.reduceat(u_all, starts)
    t0, t1 = np.minimum.reduceat(t_all, starts), np.maximum.reduceat(t_all, starts)
    extent = np.stack([u0, u1, t0, t1], axis=1)
    rank_hs = t1 - t0 + 1
    margins = np.maximum(2.0, 0.35 * rank_hs)
    corners = (u0 - margins)[:, None] * rights + (t0 - margins)[:, None] * downs_all + [x0, y0]
    hhs = np.maximum(card_h, 9.0 * rank_hs)
    wws = hhs / ASPECT
    across, along = wws[:, None] * rights, hhs[:, None] * downs_all
    quads = np.stack([corners, corners + across, corners + across + along, corners + along], axis=1).astype(np.float32)
    # A card laid off the white of the cards is no card: pips of a card's face, not an index.
    on_white = _on_white(quads - [x0, y0], filled, (x0, y0), image.shape[:2])
    white = on_white >= config.index_on_white
    # An index has a card edge close above and close left of its rank; a pip of the art has none.
    cornered = np.zeros(n_cand, bool)
    if white.any():
        cornered[white] = _near_corner_all(edges, extent[white], rights[white], downs_all[white], rank_hs[white])
    out: list[IndexHypothesis] = []
    upright: list[U8] = []
    sides: list[U8] = []  # the suit glyphs of hypotheses "suit beside the rank", upright
    origins = np.zeros((n_cand, 2))
    downs = np.zeros((n_cand, 2))
    rows = np.zeros(n_cand, bool)
    for j in np.nonzero(cornered)[0].tolist():
        pts, down, side = candidates[j]
        one_row = side is not None
        origin, rank_h = corners[j], float(rank_hs[j])
        if out:
            near = np.hypot(*(origins[: len(out)] - origin).T) < 0.25 * rank_h
            # (A hypothesis "suit beside the rank" is read even where one "rank over suit" lays out
            # the same card: it is kept only when its read finds the suit beside the rank.)
            if np.any(near & (downs[: len(out)] @ down > 0.94) & (rows[: len(out)] == one_row)):
                continue  # the same hypothesis again (another suit glyph, the other digit of a 10)
        anchor = (float(pts[:, 0].mean() + x0), float(pts[:, 1].mean() + y0))
        m, ww, hh = margins[j], wws[j], hhs[j]
        rank_at = (float((m + (u1[j] - u0[j]) / 2) / ww), float((m + rank_h / 2) / hh))
        origins[len(out)], downs[len(out)], rows[len(out)] = origin, down, one_row
        out.append(IndexHypothesis(quads[j], anchor, rank_h, rank_at, one_row))
        upright.append(_upright_glyph(us[j], ts[j]))
        if side is not None:
            sides.append(_upright_glyph(side @ rights[j], side @ down))
    if not out:
        return out
    # A first look at the rank glyphs as they stand in the photograph (one batch): what is plainly
    # not a rank (a pip, a stroke of the art) is not worth rectifying and reading.  Nor is a
    # hypothesis "suit beside the rank" whose suit glyph is plainly no suit (a 10's "0"; a batch of
    # its own, so the rank glyphs' first look is the same with or without them).
    feats = np.stack([glyph_features(g) for g in upright])
    p = model.probabilities(feats)
    rank_mass = p[:, RANK_COLUMNS].sum(axis=1)
    if model.profile is not None:
        rank_mass = np.maximum(rank_mass, model.profile.rank_likeness(feats, config))  # an enrolled deck's rank glyph
    suited = np.ones(len(out), bool)
    if sides:
        suit_mass = model.probabilities(np.stack([glyph_features(g) for g in sides]))[:, SUIT_COLUMNS].sum(axis=1)
        suited[[i for i, h in enumerate(out) if h.beside]] = suit_mass >= config.index_prefilter
    order = np.argsort(-rank_mass, kind="stable")  # the likeliest first: their reads settle the rest
    return [out[i] for i in order if rank_mass[i] >= config.index_prefilter and suited[i]]


def _run_together_in_row(blobs: tuple[I32, I32], labels: list[int], angles: F64,
                         pixels: Any) -> list[tuple[F64, F64, F64 | None]]:
    """Hypotheses "suit beside the rank" from single blobs of index size: blur runs a small one-row
    index's rank and suit together into one blob longer than tall.  Each way along its length, the
    first half is taken for the rank and the rest for the suit beside it (the card's "down" a
    quarter turn from that length); the corner's read parts the blob at its waist."""
    found: list[F64] = []
    axes: list[F64] = []
    for label in labels:
        pts = pixels(label, blobs)
        (_, _), (rw, rh), ang = cv2.minAreaRect(pts.astype(np.float32))
        if min(rw, rh) <= 0 or max(rw, rh) / min(rw, rh) < 1.25:
            continue
        theta = math.radians(ang) + (0 if rw >= rh else math.pi / 2)
        right = np.array([math.cos(theta), math.sin(theta)])
        found.append(pts)
        axes += [np.array([-right[1], right[0]]), np.array([right[1], -right[0]])]
    if not found:
        return []
    out: list[tuple[F64, F64, F64 | None]] = []
    ways = _snap_all(np.array(axes).reshape(-1, 2), angles)
    for i, pts in enumerate(found):
        for down in ways[2 * i : 2 * i + 2]:
            if down is None:
                continue
            u = pts @ np.array([down[1], -down[0]])
            first = u <= u.min() + 0.5 * (u.max() - u.min())
            out.append((pts[first], down, pts[~first]))
    return out


_GRID = np.stack(np.meshgrid(np.linspace(0.08, 0.92, 6), np.linspace(0.06, 0.94, 8)), axis=-1).reshape(-1, 2)


def _on_white(quads: F32 | F64, region: U8, offset: tuple[int, int], image_hw: tuple[int, int]) -> F64:
    """For each card of ``quads`` (N, 4, 2: TL, TR, BR, BL, in ``region``'s coordinates), the share of
    it that lies on the region's white; what falls outside the picture counts as white (a card cut
    by the frame)."""
    u, t = _GRID[None, :, :1], _GRID[None, :, 1:]
    q = quads.astype(np.float64)
    pts = q[:, None, 0] + u * (q[:, None, 1] - q[:, None, 0]) + t * (q[:, None, 3] - q[:, None, 0])
    xs, ys = np.rint(pts[..., 0]).astype(int), np.rint(pts[..., 1]).astype(int)
    gx, gy = xs + offset[0], ys + offset[1]
    white = (gx < 0) | (gy < 0) | (gx >= image_hw[1]) | (gy >= image_hw[0])
    h, w = region.shape
    ok = (xs >= 0) & (ys >= 0) & (xs < w) & (ys < h)
    white[ok] |= region[ys[ok], xs[ok]] > 0
    share: F64 = white.mean(axis=1)
    return share


def _upright_glyph(u: F64, t: F64) -> U8:
    """A glyph's pixels, at (u, t) across and down the card, drawn upright as a small binary mask."""
    cols = np.rint(u - u.min()).astype(int) + 1
    rows = np.rint(t - t.min()).astype(int) + 1
    m = np.zeros((rows.max() + 2, cols.max() + 2), np.uint8)
    m[rows, cols] = 255
    return u8(cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((2, 2), np.uint8)))


def _near_corner_all(edges: U8, box: F64, right: F64, down: F64, rank_h: F64) -> Bools:
    """For each of N rank glyphs, whether an edge (the card's own border, against the felt or over
    another card) lies close above and close left of it, as it does at an index and not at a pip of
    the art.  ``box`` (N, 4) holds each glyph's u0, u1, t0, t1 (across and down its card), ``right``
    and ``down`` (N, 2) the card's directions.  Three parallel rays go up and three go left from the
    glyph, from clear of its own (dilated) outline to a rank height away; any of them meeting an
    edge, or leaving the region's box (leaving the card), will do."""
    u0, u1, t0, t1 = box.T
    steps = np.arange(3.0, float(rank_h.max()) + 4.0, 1.0)
    valid = steps[None, :] < rank_h[:, None] + 4.0  # (N, S): the steps of each glyph's reach
    offsets = np.array([-1.0, 0.0, 1.0])
    h, w = edges.shape

    def hit(start: F64, direction: F64, across: F64, spread: F64) -> Bools:
        p = (start[:, None, None, :] + (spread[:, None] * offsets)[:, :, None, None] * across[:, None, None, :]
             + steps[None, None, :, None] * direction[:, None, None, :])  # (N, 3, S, 2)
        xs, ys = np.rint(p[..., 0]).astype(int), np.rint(p[..., 1]).astype(int)
        inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        met = np.zeros(inside.shape, bool)
        met[inside] = edges[ys[inside], xs[inside]] > 0
        out: Bools = ((met | ~inside) & valid[:, None, :]).any(axis=(1, 2))
        return out

    top = ((u0 + u1) / 2)[:, None] * right + t0[:, None] * down
    left = u0[:, None] * right + ((t0 + t1) / 2)[:, None] * down
    return hit(top, -down, right, 0.3 * (u1 - u0)) & hit(left, -right, down, 0.3 * (t1 - t0))


def _components(ink: U8) -> tuple[int, I32, I32, F64]:
    """``cv2.connectedComponentsWithStats`` (8-connected): count, labels, stats, centroids."""
    n, labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    return n, i32(labels), i32(stats), f64(cents)


def _unit(v: F64) -> F64:
    unit: F64 = v / (np.linalg.norm(v) + 1e-12)
    return unit


def _edge_angles(contour: Contour) -> F64:
    """Directions (radians, modulo pi/2) of the long straight edges of a region's outline."""
    peri = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, max(2.0, 0.006 * peri), True).reshape(-1, 2).astype(np.float64)
    seg = np.roll(poly, -1, axis=0) - poly
    length = np.linalg.norm(seg, axis=1)
    long_ = seg[length >= 0.1 * peri / 8]
    angles: F64 = np.mod(np.arctan2(long_[:, 1], long_[:, 0]), np.pi / 2)
    return angles


def _snap_all(vectors: F64, angles: F64, tol: float = math.radians(14)) -> list[F64 | None]:
    """The directions of ``vectors`` (N, 2), each turned onto the nearest edge direction of the region
    (modulo 90 degrees) as a unit vector, or None where no edge runs within ``tol`` of it."""
    if len(vectors) == 0:
        return []
    a = np.arctan2(vectors[:, 1], vectors[:, 0])
    if len(angles) == 0:
        return [np.array([math.cos(v), math.sin(v)]) for v in a]
    diff = (angles[None, :] - a[:, None] + np.pi / 4) % (np.pi / 2) - np.pi / 4
    j = np.argmin(np.abs(diff), axis=1)
    best = diff[np.arange(len(a)), j]
    a = a + best
    units = np.stack([np.cos(a), np.sin(a)], axis=1)
    return [u if abs(d) <= tol else None for u, d in zip(units, best, strict=True)]


def _looks_single(contour: Contour) -> bool:
    """Surely one card: a region that holds one card and nothing else."""
    return card_shaped(contour, 0.93, (1.25, 1.55))


def _maybe_single(contour: Contour) -> bool:
    """Roughly a card's shape under the camera's tilt (looser than ``_looks_single``)."""
    return card_shaped(contour, 0.82, (1.15, 1.8))


def _card_height(regions: list[Contour], h_img: int, peaks: Sequence[IndexPeak] = ()) -> float | None:
    """The card height in pixels: from regions that hold one card (where the learned detector's
    ``peaks`` find no more than two index corners on them); else from the straight edges of hands'
    outlines (the top card of a hand shows a whole long edge and a whole short edge in one card's
    proportion); else None."""
    singles = [max(cv2.minAreaRect(c)[1]) for c in regions if _looks_single(c) and not _many_indices(c, peaks)]
    edges = [e for e in map(_whole_card_edges, regions) if e is not None and 0.1 * h_img <= e <= 0.45 * h_img]
    if singles or edges:
        return float(np.median(singles + edges))
    return None


def _many_indices(contour: Contour, peaks: Sequence[IndexPeak]) -> bool:
    """Whether the learned detector finds three index corners or more on a region: more than one card
    prints (a hand of cards lying nearly one over the other can have a card's shape)."""
    return sum(cv2.pointPolygonTest(contour, (p.x, p.y), False) >= 0 for p in peaks) >= 3


def _against_peaks(measured: float | None, scene: _Scene, config: RecognizerConfig) -> float | None:
    """A card height measured off the outlines, unless the learned detector's peaks (three or more)
    put the cards at half or twice that size: a table marking (a printed arc, a line of letters)
    joining the cards of several hands into one region can show straight edges in a card's proportion
    twice a card's size.  Then None: the scene is read at the span's sizes, as with no measure.  (The
    detector's own sizes are too rough to read by: 5-95% of them within 0.74-1.31 of the truth on
    scenes of unseen faces, against 0.93-1.00 measured.)"""
    peaks = scene.peaks(config)
    if measured is None or len(peaks) < 3:
        return measured
    ratio = measured / float(np.median([p.card_h for p in peaks]))
    return measured if 1 / config.peak_size_ratio <= ratio <= config.peak_size_ratio else None


def _peaks_doubt(measured: float, scene: _Scene, config: RecognizerConfig) -> float | None:
    """The learned detector's card height (the median of its peaks', five or more of them) where it is
    ``config.peak_size_doubt`` times smaller than the ``measured`` one or more, else None.  Only smaller:
    an outline's measure errs large (a hand's cards fanned along their length show one straight edge
    over several cards), and where the detector put the cards larger, the measure was right (seeds
    81-84 of ``bench/scene_misses.py``: of three such scenes, two read four cards fewer and one false
    more at the detector's size, one a card more)."""
    peaks = scene.peaks(config)
    if len(peaks) < 5:
        return None
    theirs = float(np.median([p.card_h for p in peaks]))
    return theirs if measured / theirs >= config.peak_size_doubt else None


def _whole_card_edges(contour: Contour) -> float | None:
    """A card height read off a region's outline: its longest straight edge and the longest edge
    square to it, when the two stand as a card's height and width; else None."""
    peri = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, max(2.0, 0.005 * peri), True).reshape(-1, 2).astype(np.float64)
    seg = np.roll(poly, -1, axis=0) - poly
    length = np.linalg.norm(seg, axis=1)
    angle = np.mod(np.arctan2(seg[:, 1], seg[:, 0]), np.pi)
    off = np.abs((angle - angle[int(np.argmax(length))] + np.pi / 2) % np.pi - np.pi / 2)
    along = float(length[off < math.radians(10)].max())
    square = length[np.abs(off - np.pi / 2) < math.radians(10)]
    if len(square) == 0:
        return None
    across = float(square.max()) * ASPECT
    if not 0.85 <= along / across <= 1.2:
        return None
    height = max(along, across)
    if cv2.contourArea(contour) < 0.9 * height * height / ASPECT:
        return None  # less white than one whole card: a printed marking, a chip's rim
    return height


_Read = tuple[str, F64, F64, F64]  # a card read: code, centre, "down" (unit), top-left corner


def _merge(cards: list[dict[str, Any]], card_h: float) -> list[dict[str, Any]]:
    """One entry per card, the surest read kept.

    Reads of one card: the same code with centres within a third of a card (two index corners laid
    out with the scene's card size), or, naming different codes, laid out from opposite corners with
    centres within a fifth of a card.  But a card has one top-left corner: a read turned the same way
    as one already taken for a card, from another place or naming another code, is another card
    (the cards of a hand lie nearly one over the other, turned alike), unless the two top-left corners
    are within a tenth of a card: a card lying that near over another would hide its index, so that is
    one corner read twice (a "10" as TD and its "1" as a Finnish ace).
    """
    cards = sorted(cards, key=lambda c: c["confidence"], reverse=True)
    groups: list[list[_Read]] = []
    kept: list[dict[str, Any]] = []
    for c in cards:
        q = np.asarray(c["corners"], np.float64)
        me = (c["code"], q.mean(axis=0), _unit(q[3] - q[0]), q[0])
        for group in groups:
            if any(float(m[2] @ me[2]) > 0.7 and (m[0] != me[0] or math.dist(m[3], me[3]) > 0.15 * card_h)
                   and math.dist(m[3], me[3]) > 0.1 * card_h for m in group):
                continue  # the group's card already has its corner turned this way elsewhere
            if any(_one_card(m, me, card_h) for m in group):
                group.append(me)
                break
        else:
            groups.append([me])
            kept.append(c)
    return kept


def _one_card(a: _Read, b: _Read, card_h: float) -> bool:
    """Whether two reads (code, centre, down, corner) are of one card."""
    gap = math.dist(a[1], b[1])
    if float(a[2] @ b[2]) > 0.7 and math.dist(a[3], b[3]) <= 0.1 * card_h:
        return True  # one top-left corner read twice (a card over another hides the index it lies this near)
    if a[0] == b[0]:
        return gap <= 0.35 * card_h
    # Two corners of one card read differently: a misread rank or suit, never the other colour
    # (colour is read surely at any size).
    return gap <= 0.2 * card_h and float(a[2] @ b[2]) < -0.7 and bool(_colour(a[0]) & _colour(b[0]))


def _colour(code: str) -> set[str]:
    """The colours a code's card may be printed in (a Joker either)."""
    if code == "JK" or code == "unknown":
        return {"red", "black"}
    return {"red"} if code[1] in "HD" else {"black"}
