"""From a card's four corners to its code: rectify, read both index corners, combine."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import cv2
import numpy as np

from .arrays import F32, U8, Floats, u8
from .config import RecognizerConfig
from .index_reader import (
    RANKS,
    SUITS,
    CornerRead,
    cut_level,
    ink_levels,
    is_paper,
    read_corner,
    smooth_paper_share,
)
from .model import Mlp
from .pips import pip_count, pip_suit_weights, with_pip_suit

CODES = [r + s for r in RANKS for s in SUITS]


def read_corner_at(image: U8, quad: F32, model: Mlp, config: RecognizerConfig,
                   rank_at: tuple[float, float] | None = None, *, scene: bool = False,
                   corner: U8 | None = None) -> CornerRead:
    """Read the index in the top-left corner of the card ``quad`` (TL, TR, BR, BL), warping only that
    corner (``corner``: that warp, when already made); ``rank_at`` is where the rank glyph is, as
    fractions of the card's width and height; ``scene``, a table scene's card (a shoe scan's is read
    as it always was)."""
    w, h = config.card_width, config.card_height
    if corner is None:
        corner = corner_at(image, quad, config)
    if config.corner_reader == "cnn" and cnn_knows(model, config):
        from .cnn import read_corner_cnn

        return read_corner_cnn(corner)
    at = None if rank_at is None else (rank_at[0] * w, rank_at[1] * h)
    scale = _px_scale(quad, config)
    read = read_corner(corner, model, config, at, scale, scene=scene)
    if scene and read.probs is None and not read.joker_text and read.ink and scale < 1.0 and _inked_at_right(corner):
        # A large index whose suit is wider than the crop (a large rank over a wide heart) is cut by
        # the crop's right side, and a glyph cut by the crop is dropped: read a wider corner too.
        # (Only a table scene's card, where the corner is enlarged from the photograph: shoe scans
        # are read as before.)
        again = read_corner(corner_at(image, quad, config, config.corner_w_wide), model, config, at, scale, scene=True)
        if again.probs is not None:
            return again
    return read


def cnn_knows(model: Mlp, config: RecognizerConfig) -> bool:
    """Whether the corner CNN may read the deck's indices: any deck not enrolled, and an enrolled one whose
    cards it named at enrolment (``config.profile_cnn_share``); an enrolled deck printing indices of
    its own (court letters V, D, R) is read by the perceptron, which its profile taught."""
    return model.profile is None or model.profile.cnn_share() >= config.profile_cnn_share


def _inked_at_right(corner: U8) -> bool:
    """Whether ink (darker than Otsu's cut) reaches the right side of a corner crop."""
    grey, lo, hi, otsu = ink_levels(corner)
    return hi - lo >= 40 and int((grey[:, -2:] < cut_level(lo, hi, otsu)).sum()) >= 3


def corner_at(image: U8, quad: F32, config: RecognizerConfig, width: float | None = None) -> U8:
    """The top-left index corner of the card ``quad`` (TL, TR, BR, BL), rectified to the canonical
    card; ``width`` (a fraction of the card's width) instead of ``config.corner_w``."""
    w, h = config.card_width, config.card_height
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    size = (int((config.corner_w if width is None else width) * w), int(config.corner_h * h))
    return u8(cv2.warpPerspective(image, m, size, flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE))


def cnn_witness(card: dict[str, Any], image: U8, quads: list[F32], model: Mlp, config: RecognizerConfig, *,
                corners: list[U8] | None = None, reads: list[CornerRead] | None = None) -> dict[str, Any]:
    """A shoe scan's ``card`` (read by the perceptron from the index corners top left in ``quads``)
    weighed by the corner CNN's read of the same corners, in the mode ``config.cnn_witness``
    (``weigh``).  Off, with the CNN as the reader, or with an enrolled deck and ``cnn_witness_enrolled`` off: ``card``.  ``corners``:
    the corners of ``quads`` as ``corner_at`` warps them, when already made; ``reads``, the CNN's reads
    of them, when already made (``cnn_alone``).  (A table scene's cards are weighed all at once:
    ``scene_witness``.)"""
    mode = config.cnn_witness
    if mode == "off" or config.corner_reader != "mlp" or _enrolled_alone(model, config) or not _looked_at(card, mode, config):
        return card
    if reads is None:
        if corners is None:
            corners = [corner_at(image, q, config) for q in quads]
        reads = _cnn_reads(corners, config)
    return weigh(card, reads, mode, config)


def cnn_alone(corners: list[U8], quad: F32, model: Mlp, config: RecognizerConfig) -> tuple[dict[str, Any] | None, list[CornerRead] | None]:
    """A shoe scan's card read by the corner CNN alone from its two index ``corners`` (as
    ``index_corners`` cuts them from ``quad``), where both corners name the same card and together
    at least ``config.cnn_alone`` surely; else None.  With the CNN's reads of the corners (for the
    witness, when the perceptron reads the card after all), or None where the CNN is not asked (the
    witness off, the CNN the reader already, an enrolled deck)."""
    if config.cnn_witness == "off" or config.corner_reader != "mlp" or model.profile is not None:
        return None, None
    reads = _cnn_reads(corners, config)
    if config.cnn_alone > 1.0 or reads[0].probs is None or reads[1].probs is None:
        return None, reads
    code, confidence, guesses, flipped = _combine(reads[0], reads[1], config, True)
    if confidence < config.cnn_alone:
        return None, reads
    return _card(code, confidence, guesses, np.roll(quad, -2, axis=0) if flipped else quad, config), reads


def _enrolled_alone(model: Mlp, config: RecognizerConfig) -> bool:
    """Whether an enrolled deck's reads go without the witness (``config.cnn_witness_enrolled``)."""
    return model.profile is not None and config.cnn_witness_enrolled == "off"


def scene_witness(cards: list[dict[str, Any]], image: U8, model: Mlp, config: RecognizerConfig) -> list[dict[str, Any]]:
    """A table scene's ``cards`` weighed by the corner CNN's reads of their top-left index corners (a
    lower card of a hand shows only that one), in the mode ``config.cnn_witness_scenes``, all in one
    pass of the network.  "arbitrate" screens the scene's cards too (as "screen" does)."""
    mode = config.cnn_witness_scenes
    if mode == "off" or config.corner_reader != "mlp" or _enrolled_alone(model, config):
        return cards
    todo = [i for i, c in enumerate(cards) if _looked_at(c, mode, config)]
    if not todo:
        return cards
    reads = _cnn_reads([corner_at(image, np.asarray(cards[i]["corners"], np.float32), config) for i in todo], config)
    out = list(cards)
    for i, read in zip(todo, reads, strict=True):
        out[i] = _doubted(weigh(cards[i], [read], mode, config, screen=mode in ("screen", "arbitrate"),
                                margin=config.scene_witness_margin), read, config)
    return out


def perceptron_witness(cards: list[dict[str, Any]], image: U8, model: Mlp, config: RecognizerConfig) -> list[dict[str, Any]]:
    """A table scene's ``cards``, read by the corner CNN (``scene_reader`` "cnn"), weighed by the
    perceptron's reads of the same card: of its top-left index corner alone (a lower card of a hand
    shows only that one), and of its two index corners together (a card lying whole) where the
    top-left one reads surely enough for the two to be sure, or reads no index.  Where the perceptron
    names the card's code surely (``witness_sure``) and the CNN named it with some confidence
    (``witness_doubt`` of a corner's odds), the card is as sure as the perceptron's read; where the
    perceptron names another card surely and the CNN was sure, the card is made unsure
    (``witness_cap``).  The CNN's code is kept: where the two disagree on a scene's card the CNN was
    right nine times in ten (docs/vision.md "Session 32").  ``config``: the scene's, with the
    perceptron as the corner reader."""
    sure = config.witness_sure
    out = []
    for card in cards:
        confidence = float(card["confidence"])
        if card["code"] in ("unknown", "JK") or confidence < config.witness_doubt * config.single_corner_factor:
            out.append(card)  # (a read the CNN hardly names is not made sure, nor asked about)
            continue
        quad = np.asarray(card["corners"], np.float32)
        top = with_pips(image, quad, model, config, _rank_like(read_corner_at(image, quad, model, config, scene=True), config))
        reads = [_combine(top, CornerRead(None), config, False)[:2]]
        if top.probs is None or float(top.probs.max()) >= sure * sure - 1e-3:
            # Two corners are as sure as the geometric mean of their odds: below this in one, never sure
            # (to the four decimals a card's confidence is given in); where the top-left one reads no
            # index, the other is read alone.
            bottom = _rank_like(read_corner_at(image, np.roll(quad, -2, axis=0), model, config, scene=True), config)
            reads.append(_combine(top, bottom, config, True)[:2])
        agree = round(max((c for code, c in reads if code == card["code"]), default=0.0), 4)
        other = round(max((c for code, c in reads if code not in (card["code"], "JK")), default=0.0), 4)
        if agree >= sure and agree > confidence:
            card = {**card, "confidence": agree}
        elif confidence >= sure and other >= sure:
            card = {**card, "confidence": round(min(confidence, config.witness_cap), 4)}
        out.append(card)
    return out


def _doubted(card: dict[str, Any], read: CornerRead, config: RecognizerConfig) -> dict[str, Any]:
    """A table scene's sure ``card`` made unsure (``witness_cap``) where the corner CNN's ``read`` of its
    top-left index does not name it at least ``config.witness_doubt`` surely (read as one corner is)."""
    if card["code"] == "unknown" or card["confidence"] < config.witness_sure or config.witness_doubt <= 0:
        return card
    code, confidence, _, _ = _combine(read, CornerRead(None), config, False)
    if code == card["code"] and confidence >= config.witness_doubt:
        return card
    return {**card, "confidence": round(min(float(card["confidence"]), config.witness_cap), 4)}


def _cnn_reads(corners: list[U8], config: RecognizerConfig) -> list[CornerRead]:
    """The corner CNN's reads of index corner crops, in one pass (a rank glyph that looks like no
    rank is no read, as the perceptron's)."""
    from .cnn import corner_read, load_cnn

    kind, suit = load_cnn().probabilities(corners)
    reads = [_rank_like(corner_read(kind[i], suit[i]), config) for i in range(len(corners))]
    # A corner the CNN finds blank, or inked with no index, counts so only where most of it is paper
    # (elsewhere it is ``_INKED``, score 0: ``_on_paper`` tells the two apart).
    return [_INKED if r.probs is None and not r.joker_text and r.score > 0 and not _paper(c, config) else r
            for r, c in zip(reads, corners, strict=True)]


_INKED = CornerRead(None, ink=True)  # a corner with something on it, but no index read


def _paper(corner: U8, config: RecognizerConfig) -> bool:
    """Whether most of a corner crop is paper (``is_paper``): a blank corner is, noise is not."""
    grey, _, hi, _ = ink_levels(corner)
    return is_paper(grey, hi, config)


def _looked_at(card: dict[str, Any], mode: str, config: RecognizerConfig) -> bool:
    """Whether the CNN's read could change ``card`` in ``mode`` (a veto changes sure reads only)."""
    return mode != "veto" or card["code"] != "unknown" and card["confidence"] >= config.witness_sure


def weigh(card: dict[str, Any], reads: list[CornerRead], mode: str, config: RecognizerConfig, *,
          screen: bool = False, margin: float | None = None) -> dict[str, Any]:
    """The perceptron's ``card`` weighed by the corner CNN's ``reads`` of the same index corners.

    "veto" makes a sure read unsure when the CNN names another card with some confidence; "screen"
    also takes an unsure card for no card ("unknown", its read the first guess) where the CNN sees no
    rank index in its corners at all (art, a pip, a chip: a table scene's false cards); "agree" (no
    screening) also makes a read sure that the CNN names surely too; "rescue" also takes the CNN's
    read, with its confidence, where the perceptron names no card (unknown, or a Joker for want of an
    index) and the CNN names one; "arbitrate" also takes the CNN's read, unsure, where the
    perceptron's own read is unsure and the CNN names another card more surely, and names an unknown
    read unsure where the CNN names its first guess.  ``screen``: screen as "screen" does, in any mode,
    and take a Joker named from "JOKER" down a corner for no card where the CNN reads no word there
    (``_word_unseen``: a table scene's card).
    ``margin``: where the two disagree in "arbitrate", the CNN's read comes first unless the perceptron's
    is surer by more than this; None, a shoe scan's: ``config.witness_margin`` for an unsure read, and
    a sure read stands unless the CNN is surer still.  (A table scene's: ``scene_witness_margin``, for
    sure and unsure reads alike.)"""
    other = reads[1] if len(reads) > 1 else CornerRead(None)
    code, confidence, _, _ = _combine(reads[0], other, config, len(reads) > 1)
    sure = confidence >= config.witness_sure
    if ((mode == "screen" or screen) and card["code"] not in ("unknown", "JK") and card["confidence"] < config.witness_sure
            and all(r.probs is None for r in reads)) or (screen and _word_unseen(card, reads, confidence, config)):
        below = round(min(float(card["confidence"]), config.unknown_below - 0.01), 4)  # as an unknown read is
        return {**card, "code": "unknown", "confidence": below,
                "guesses": [{"code": card["code"], "confidence": card["confidence"]}]}
    own = card["code"] if card["code"] != "unknown" else card["guesses"][0]["code"] if card.get("guesses") else None
    named = {k: v for k, v in card.items() if k != "guesses"}
    if mode == "arbitrate" and code == "JK" != own and _cnn_joker(reads, config):
        # Both index corners a Joker's to the CNN ("JOKER" down the side, or blank paper), where the
        # perceptron took the word's "J" over its "O" for a Jack, or a sliver of the card's edge in a
        # blank corner for an index: the Joker first, and the tablet asks.
        return {**named, "code": "JK", "confidence": round(min(float(confidence), config.witness_cap), 4)}
    if code != own:
        if card["code"] != "unknown" and card["confidence"] >= config.witness_sure:
            if confidence < config.witness_veto:
                return card
            if mode == "arbitrate" and confidence > card["confidence"] - (margin or 0.0) and code != "JK":
                # Vetoed by a surer read of another card: the CNN's read first, and the tablet asks.
                return {**named, "code": code, "confidence": round(min(float(confidence), config.witness_cap), 4)}
            return {**card, "confidence": round(min(float(card["confidence"]), config.witness_cap), 4)}
        joker = code == "JK"  # a Joker only by its word read surely in a card's two corners, and asked
        if (mode not in ("rescue", "arbitrate") or confidence < config.unknown_below
                or joker and (confidence < config.witness_sure or len(reads) < 2)):
            return card
        nothing = card["code"] == "unknown" or card["code"] == "JK" and card["confidence"] < config.witness_sure
        if nothing:
            return {**named, "code": code, "confidence": round(float(min(confidence, config.witness_cap) if joker else confidence), 4)}
        if mode == "arbitrate" and confidence > card["confidence"] - (config.witness_margin if margin is None else margin):
            # Both unsure of their own reads, the CNN about as sure or surer (its unsure reads are
            # right more often than the perceptron's): its read first, and the tablet asks.
            return {**named, "code": code, "confidence": round(min(float(confidence), config.witness_cap), 4)}
        return card
    # An unknown card named a Joker from one corner stays unsure: a small index in a scene's corner can
    # pass for the word to the CNN (an A♦ of one unseen face, read "JOKER" in one corner at 0.93).
    one_corner_joker = card["code"] == "unknown" and code == "JK" and len(reads) < 2
    if mode in ("agree", "rescue", "arbitrate") and sure and confidence > card["confidence"] and not one_corner_joker:
        return {**named, "code": code, "confidence": round(float(confidence), 4)}
    if (mode == "arbitrate" and card["code"] == "unknown" and code == "JK" and len(reads) == 2
            and all(_on_paper(r) for r in reads)):
        # Neither reader finds a rank in either index corner, and both corners are card stock with
        # something on it (a frame's line, a small figure, the card's edge): a Joker printed without
        # an index.  Named, unsure (a normal card's index unread by both would be asked as well).
        return {**named, "code": "JK", "confidence": config.joker_art_confidence}
    if mode == "arbitrate" and card["code"] == "unknown" and confidence >= config.unknown_below:
        # The CNN names the perceptron's own first guess: named, unsure (a Joker's blank corners, seen
        # so by both, though the perceptron took a speck of its corner for ink).
        c = max(confidence, card["confidence"])
        return {**named, "code": code, "confidence": round(float(min(c, config.witness_cap) if one_corner_joker else c), 4)}
    return card


def _word_unseen(card: dict[str, Any], reads: list[CornerRead], confidence: float, config: RecognizerConfig) -> bool:
    """Whether a table scene's Joker, named by the perceptron from "JOKER" down a corner (surer than a
    Joker printed without an index, ``joker_no_index_confidence``), is one whose corners the CNN finds
    no word in, nor a card it names (``unknown_below``).  Letters of no word: a rank and suit read from
    a layout turned a quarter wrong (a Finnish "12" over its ♦, a "7♦" printed in one row), or court
    art.  Over six draws of unseen-face scenes (seeds 201-206, docs/vision.md "Session 32"), 14 such
    Jokers were reported where none lay, and none where one did: the CNN read each of those 10 words."""
    return (card["code"] == "JK" and float(card["confidence"]) > config.joker_no_index_confidence
            and not any(r.joker_text for r in reads) and confidence < config.unknown_below)


def _on_paper(read: CornerRead) -> bool:
    """Whether a CNN read (``_cnn_reads``) is of a corner of card stock showing no rank: blank, or inked
    with no index, on paper."""
    return read.probs is None and read.score > 0


def scene_joker(quad: F32, corners: list[U8], model: Mlp, config: RecognizerConfig) -> dict[str, Any] | None:
    """A table scene's whole card (``quad``, its two index ``corners`` as ``index_corners`` cuts them)
    that neither its corners' nor its indices' reads name: a Joker, unsure (``witness_cap``), where the
    corner CNN finds both index corners a Joker's (``_cnn_joker``: "JOKER" down the side in a font the
    perceptron does not read, or blank paper); else None.  The scene witness looks at one corner of each
    card only, a lower card's being covered."""
    if config.cnn_witness_scenes == "off" or config.corner_reader != "mlp" or _enrolled_alone(model, config):
        return None
    if not _cnn_joker(_cnn_reads(corners, config), config):
        return None
    c = config.witness_cap
    return _card("JK", c, [{"code": "JK", "confidence": c}], quad, config)


def _cnn_joker(reads: list[CornerRead], config: RecognizerConfig) -> bool:
    """Whether the CNN's reads of a card's two index corners (``_cnn_reads``) both say a Joker's, each
    with probability ``config.witness_joker`` or more: both "JOKER" down the side, or both blank."""
    return len(reads) == 2 and all(r.probs is None and r.score >= config.witness_joker for r in reads) and (
        all(r.joker_text for r in reads) or not any(r.ink for r in reads))


def with_pips(image: U8, quad: F32, model: Mlp, config: RecognizerConfig, read: CornerRead) -> CornerRead:
    """``read`` (of the index top left in ``quad``) with a suit too small to tell its shape weighed by
    the card's first pip."""
    if read.probs is None or read.suit_px >= config.suit_bays_px:
        return read
    ace = int(np.argmax(read.probs.sum(axis=1))) == 0
    if _plain_suit(read.probs) and not ace:
        return read  # the index's own suit already tells its shape plainly (an ace's big pip is asked anyway)
    scale = _px_scale(quad, config)
    weights = pip_suit_weights(image, quad, model, config, read, scale)
    if weights is None and ace:
        weights = pip_suit_weights(image, quad, model, config, read, scale, ace=True)
    return read if weights is None else with_pip_suit(read, weights)


# Where a small index's suit is on the card and how tall (fractions of the card's width and height):
# the corner CNN says neither, and the pip witness asks (``cnn_with_pips``).
CNN_SUIT_AT = (0.08, 0.15)
CNN_SUIT_H = 0.05


def cnn_with_pips(image: U8, quad: F32, model: Mlp, config: RecognizerConfig, read: CornerRead) -> CornerRead:
    """The corner CNN's ``read`` of the index top left in ``quad`` with its suit weighed by the card's
    first pip, as ``with_pips`` weighs the perceptron's small suits (a table scene's index of a few
    pixels: a spade and a club, a heart and a diamond, look alike there).  The CNN says neither where
    the suit is nor how tall: a small index's are taken (``CNN_SUIT_AT``, ``CNN_SUIT_H``)."""
    if read.probs is None or _plain_suit(read.probs):
        return read  # (an ace's pip too is asked only where its suit's shape is unsure: a lower card's is covered)
    card_px = float(_side_lengths(quad)[1]) / 2  # the card's height in the photograph
    guess = replace(read, suit_px=CNN_SUIT_H * card_px,
                    suit_at=(CNN_SUIT_AT[0] * config.card_width, CNN_SUIT_AT[1] * config.card_height))
    weighed = with_pips(image, quad, model, config, guess)
    return read if weighed is guess else replace(weighed, suit_px=read.suit_px, suit_at=read.suit_at)


def _plain_suit(probs: Floats) -> bool:
    """Whether a read's (rank x suit) odds tell the suit's shape plainly: 97% or more of its colour's
    two suits on one."""
    suits = probs.sum(axis=0)
    pair = suits[[1, 2]] if suits[1] + suits[2] > suits[0] + suits[3] else suits[[0, 3]]
    return bool(pair.max() >= 0.97 * pair.sum())


def _px_scale(quad: F32, config: RecognizerConfig) -> float:
    """Photograph pixels per pixel of the canonical card (its mean side lengths against the canonical ones)."""
    across, down = _side_lengths(quad)
    return float(across / (2 * config.card_width) + down / (2 * config.card_height)) / 2


def _side_lengths(quad: F32) -> tuple[float, float]:
    """The card ``quad``'s (TL, TR, BR, BL) top and bottom edges' lengths added, and its two sides'."""
    q = quad.astype(np.float64)
    return (float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])),
            float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])))


def card_from_corner(read: CornerRead, quad: F32, config: RecognizerConfig) -> dict[str, Any]:
    """The contract's card for a card of which only the top-left index could be read.  A Joker known
    by its word alone is not sure there: the indices of a hand's cards, each a step down and right of
    the one below, stand in a column like a word's letters (four Jokers at 0.93 where none lay, in 140
    unseen-face scenes with hands spread as the development scenes' are)."""
    code, confidence, guesses, _ = _combine(read, CornerRead(None), config, False)
    if code == "JK" and read.joker_text:
        confidence = min(confidence, config.witness_cap)
        guesses = [{"code": "JK", "confidence": confidence}]
    return _card(code, confidence, guesses, quad, config)


def index_corners(image: U8, quad: F32, config: RecognizerConfig) -> list[U8]:
    """The two index corners of the card ``quad``, rectified: as printed, and turned half round."""
    return [corner_at(image, quad, config), corner_at(image, np.roll(quad, -2, axis=0), config)]


def shows_card_stock(corners: list[U8], config: RecognizerConfig) -> bool:
    """Whether one of a shoe scan's card's index corners (``index_corners``) shows card stock
    (``config.card_paper_share``): a frame of noise taken whole for a card does not."""
    for corner in corners:
        grey, _, hi, _ = ink_levels(corner)
        if smooth_paper_share(grey, hi) >= config.card_paper_share:
            return True
    return False


def read_card(image: U8, quad: F32, model: Mlp, config: RecognizerConfig, *,
              pips: bool = False, scene: bool = False, corners: list[U8] | None = None) -> dict[str, Any]:
    """Read the card whose corners are ``quad`` (clockwise, portrait order guessed) from both its
    index corners.  Returns the contract's fields: code, confidence, corners (TL, TR, BR, BL as
    printed), and ``guesses`` when the code is "unknown".  ``scene``: a table scene's card (its
    small index may be blurred into one blob, a large one cut by the corner crop).  ``corners``: the
    two index corners when already cut (``index_corners``)."""
    # Only the two index corners are rectified: the card turned half round has the other one top left.
    turned = np.roll(quad, -2, axis=0)
    crops = index_corners(image, quad, config) if corners is None else corners
    reads = None
    if not scene:
        alone, reads = cnn_alone(crops, quad, model, config)
        if alone is not None:
            return alone
    top = _rank_like(read_corner_at(image, quad, model, config, scene=scene, corner=crops[0]), config)
    bottom = _rank_like(read_corner_at(image, turned, model, config, scene=scene, corner=crops[1]), config)
    if pips:
        # One pip is witness enough (weighing both corners by pips would count the suit twice).
        weighed = with_pips(image, quad, model, config, top)
        if weighed is top:
            bottom = with_pips(image, turned, model, config, bottom)
        top = weighed
    code, confidence, guesses, flipped = _combine(top, bottom, config, True)
    if (model.profile is not None and top.probs is None and bottom.probs is None and code == "JK"
            and confidence < config.profile_joker_confidence):
        # No index in either corner: an enrolled Joker shows its own art (or nothing) there.
        like = max(model.profile.joker_likeness(crop) for crop in crops)
        if like >= config.profile_joker_match:
            c = config.profile_joker_confidence
            code, confidence, guesses = "JK", c, [{"code": "JK", "confidence": c}]
    card = _card(code, confidence, guesses, turned if flipped else quad, config)
    if scene:
        return card  # weighed with the scene's other cards (``scene_witness``)
    return counted(cnn_witness(card, image, [quad, turned], model, config, corners=crops, reads=reads), image, quad, model, config)


def countable(card: dict[str, Any], config: RecognizerConfig) -> bool:
    """Whether ``counted`` asks the pips about ``card``: the counter on, the card read unsure or unknown."""
    return config.pip_counter != "off" and (card["code"] == "unknown" or card["confidence"] < config.witness_sure)


def counted(card: dict[str, Any], image: U8, quad: F32, model: Mlp, config: RecognizerConfig, *,
            scene: bool = False) -> dict[str, Any]:
    """A shoe scan's ``card`` (or a scene's whose face shows whole), read unsure from its index corners, weighed by its face's pips
    (``pip_count``): where they count another rank or show another suit, theirs comes first (unsure:
    the tablet asks); where they name an unknown read's first guess, it is named (unsure).  A sure
    read stands: a witness that counts from the face is not asked to overrule one.  Off with
    ``config.pip_counter``.

    ``scene``: a table scene's card, whose pips are a few pixels: their colour is plain but not
    their shape, so the index's suit is kept where it is of their colour (a club counted as a spade
    turned a right read wrong in seed 11's unseen-face scenes)."""
    if not countable(card, config):
        return card
    pips = pip_count(image, quad, model, config)
    if pips is None:
        return card
    own = card["code"] if card["code"] != "unknown" else card["guesses"][0]["code"] if card.get("guesses") else "JK"
    if scene and card["code"] == "JK" and pips.rank == "A" and _blank_corners(image, quad, model, config):
        return card  # one figure in the middle of a card with no ink in its index corners: a Joker's art
    # The pips' suit: printed large and several times, their likelier suit of their colour is right
    # even where the odds are even-handed (0.5-0.97: 979 of 979 generated and 50 of 50 development
    # faces, docs/vision.md); the index's is small.
    suit = SUITS[int(np.argmax(pips.suits))]
    if scene and own != "JK" and (own[1] in "HD") == (suit in "HD"):
        # The pips' grey shapes (``pip_shape``), all of them together, tell a club from a spade where
        # the binarised glyph cannot (19 clubs read as spades in 1,850 cards of unseen-face scenes).
        suit = own[1] if pips.shape_odds is None or abs(pips.shape_odds) < config.pip_shape_odds else (
            ("D" if pips.shape_odds > 0 else "H") if pips.red else ("C" if pips.shape_odds > 0 else "S"))
    code = pips.rank + suit
    named = {k: v for k, v in card.items() if k != "guesses"}
    if code == own:
        if card["code"] != "unknown":
            return card
        return {**named, "code": code, "confidence": round(max(float(card["confidence"]), config.unknown_below), 4)}
    confidence = max(min(float(card["confidence"]), config.witness_cap), config.unknown_below)
    return {**named, "code": code, "confidence": round(confidence, 4)}


def _blank_corners(image: U8, quad: F32, model: Mlp, config: RecognizerConfig) -> bool:
    """Whether neither index corner of the card ``quad`` holds ink (a Joker printed without an index;
    every other card prints one)."""
    return not any(read_corner_at(image, q, model, config, scene=True).ink for q in (quad, np.roll(quad, -2, axis=0)))


def _rank_like(read: CornerRead, config: RecognizerConfig) -> CornerRead:
    """``read``, or no read when its rank glyph does not look like a rank (art, a smudge, two glyphs
    run together): the ranks' odds of such a glyph are a guess however they are spread."""
    if read.probs is not None and read.score < config.index_rank_score:
        return CornerRead(None, ink=True)
    return read


def _card(code: str, confidence: float, guesses: list[dict[str, Any]], corners: F32,
          config: RecognizerConfig) -> dict[str, Any]:
    out: dict[str, Any] = {
        "code": code if confidence >= config.unknown_below else "unknown",
        "confidence": round(float(confidence), 4),
        "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in corners],
    }
    if out["code"] == "unknown":
        out["guesses"] = guesses
    return out


def _combine(top: CornerRead, bottom: CornerRead, config: RecognizerConfig, both: bool) -> tuple[str, float, list[dict[str, Any]], bool]:
    reads = [r.probs for r in (top, bottom) if r.probs is not None]
    if not reads:
        if top.joker_text or bottom.joker_text:
            return "JK", 0.93, [{"code": "JK", "confidence": 0.93}], False
        if both and not top.ink and not bottom.ink:
            # Nothing printed in either index corner: a Joker without index (a normal card always has one).
            c = config.joker_no_index_confidence
            return "JK", c, [{"code": "JK", "confidence": c}], False
        c = config.joker_no_index_confidence * 0.6
        return "JK", c, [{"code": "JK", "confidence": c}], False
    p: Floats
    if len(reads) == 2:
        p1, p2 = reads
        joint = p1 * p2
        p = joint / joint.sum() if joint.sum() > 1e-12 else (p1 + p2) / 2
        best = int(np.argmax(p))
        # Calibration: a confident read needs both corners to say the same card with confidence;
        # the geometric mean keeps one sure corner from covering for an unsure one, and a
        # disagreement caps the confidence so that the tablet asks.
        agree = int(np.argmax(p1)) == int(np.argmax(p2)) == best
        a, b = float(p1.ravel()[best]), float(p2.ravel()[best])
        c = float(np.sqrt(a * b)) if agree else min(0.6, 0.8 * max(a, b))
        scale = c / max(float(p.ravel()[best]), 1e-12)
        flipped = float(p2.max()) > float(p1.max()) + 0.05
    else:
        p = reads[0]
        flipped = top.probs is None
        scale = config.single_corner_factor
        if top.joker_text or bottom.joker_text:
            # One corner reads "JOKER" down its side, the other a card: most often the word's "J"
            # over its "O" taken for a rank over a suit (the letters run together, or too few in
            # the crop to show a column).  The corners disagree: the tablet asks, the Joker first
            # when the card read is a Jack.
            if int(np.argmax(p.sum(axis=1))) == RANKS.index("J"):
                c = config.joker_disputed_confidence
                return "JK", c, [{"code": "JK", "confidence": c}], False
            scale = min(scale, 0.6 / max(float(p.max()), 1e-12))
    flat = p.ravel() * scale
    order = np.argsort(flat)[::-1][:3]
    guesses = [{"code": CODES[i], "confidence": round(float(flat[i]), 4)} for i in order]
    return CODES[order[0]], float(flat[order[0]]), guesses, flipped
