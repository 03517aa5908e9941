"""A small index's suit is settled by the card's first pip: clubs are not read as spades (nor hearts
as diamonds) when the index suit is only a few pixels tall in the photograph."""

from dataclasses import replace

import cv2
import numpy as np

from vision.config import DEFAULT_CONFIG
from vision.index_reader import CornerRead
from vision.model import load_model
from vision.pips import pip_suit_weights, with_pip_suit
from vision.read import _px_scale, read_corner_at
from vision.tools.synth import _background, _warp_card, card_quad, random_style, render_card

CODES = [r + s for s in "CSHD" for r in "4579T"]


def _small_card(code: str, seed: int, height: float = 120) -> tuple[np.ndarray, np.ndarray]:
    """A card about ``height`` px tall on the felt (at 120 px its index suit is some 6 px), slightly
    blurred, and its quad."""
    rng = np.random.default_rng(seed)
    style = replace(random_style(rng, finnish=False), index_h=0.085, stroke=0)
    face, alpha = render_card(code, style, rng)
    canvas = _background(240, 240, rng, felt=True)
    quad = card_quad(120, 120, height, float(rng.uniform(-30, 30)), 0.005, rng)
    _warp_card(face, alpha, canvas, quad)
    img = cv2.GaussianBlur(np.clip(canvas, 0, 255).astype(np.uint8), (0, 0), 0.6)
    return img, quad


def test_the_first_pip_tells_a_small_club_from_a_spade():
    # The index read as a suit too small to tell its shape would be: even odds within its colour.
    # The pip decides, the right way for (nearly) every card whose index was found.
    model = load_model()
    decided = right = 0
    for i, code in enumerate(CODES):
        img, quad = _small_card(code, 100 + i)
        read = read_corner_at(img, quad, model, DEFAULT_CONFIG)
        if read.probs is None or read.score < DEFAULT_CONFIG.index_rank_score:
            continue  # a thin index too small to find: not this test's business
        s, h, d, c = read.probs.sum(axis=0)
        even = np.array([s + c, h + d, h + d, s + c]) / 2
        blind = replace(read, probs=np.outer(read.probs.sum(axis=1), even))
        weights = pip_suit_weights(img, quad, model, DEFAULT_CONFIG, blind, _px_scale(quad, DEFAULT_CONFIG))
        if weights is None:
            continue
        decided += 1
        after = with_pip_suit(blind, weights).probs.sum(axis=0)
        right += "SHDC"[int(np.argmax(after))] == code[1]
    assert decided >= 0.5 * len(CODES)
    assert right >= decided - 1


def test_the_pips_of_a_card_85_px_tall_still_tell_its_suit():
    # The smallest cards of a scene print pips some 7-9 px tall: still larger, and sharper, than
    # the index's suit.
    model = load_model()
    decided = right = 0
    for i, code in enumerate(CODES):
        img, quad = _small_card(code, 300 + i, height=85)
        pair = [1, 2] if code[1] in "HD" else [0, 3]
        blind = np.zeros((13, 4))
        blind[:, pair] = 1 / 26  # the index's colour is known, its suit is not
        read = CornerRead(blind, ink=True, suit_px=4.5, suit_at=(12.0, 50.0))
        weights = pip_suit_weights(img, quad, model, DEFAULT_CONFIG, read, _px_scale(quad, DEFAULT_CONFIG))
        if weights is None:
            continue
        decided += 1
        right += "SHDC"[pair[int(np.argmax(weights[pair]))]] == code[1]
    assert decided >= 0.5 * len(CODES), decided
    assert right >= decided - 1, (right, decided)


def test_a_pip_behind_a_line_is_not_the_cards_own():
    # A line between the index and the pip (another card's edge laid over this one) silences the pip.
    from vision.index_reader import CornerRead

    model = load_model()
    img, quad = _small_card("5C", 7)
    read = CornerRead(np.full((13, 4), 1 / 52), ink=True, suit_px=6.0, suit_at=(12.0, 50.0))
    scale = _px_scale(quad, DEFAULT_CONFIG)
    weights = pip_suit_weights(img, quad, model, DEFAULT_CONFIG, read, scale)
    assert weights is not None and weights[3] > weights[0]
    # A dark edge down the card between the index column and the pips.
    a, b = quad[0] + 0.22 * (quad[1] - quad[0]), quad[3] + 0.22 * (quad[2] - quad[3])
    cv2.line(img, tuple(int(v) for v in a), tuple(int(v) for v in b), (200, 200, 200), 1)
    assert pip_suit_weights(img, quad, model, DEFAULT_CONFIG, read, scale) is None


def test_an_aces_one_pip_in_the_middle_tells_its_suit():
    model = load_model()
    decided = right = 0
    for i, code in enumerate(["AC", "AS", "AH", "AD"] * 3):
        img, quad = _small_card(code, 300 + i)
        read = read_corner_at(img, quad, model, DEFAULT_CONFIG)
        if read.probs is None or read.score < DEFAULT_CONFIG.index_rank_score:
            continue
        s, h, d, c = read.probs.sum(axis=0)
        blind = replace(read, probs=np.outer(read.probs.sum(axis=1), np.array([s + c, h + d, h + d, s + c]) / 2))
        weights = pip_suit_weights(img, quad, model, DEFAULT_CONFIG, blind, _px_scale(quad, DEFAULT_CONFIG), ace=True)
        if weights is None:
            continue
        decided += 1
        right += "SHDC"[int(np.argmax(with_pip_suit(blind, weights).probs.sum(axis=0)))] == code[1]
    assert decided >= 6
    assert right >= decided - 1


def test_the_corner_cnns_read_of_a_small_index_is_weighed_by_the_first_pip_too():
    # The CNN's read at a scene's peak says the colour but not the shape: half spade, half club (or
    # heart and diamond). The card's first pip settles it, as it does for the perceptron's reads.
    from vision.read import cnn_with_pips

    right = 0
    for i, code in enumerate(CODES):
        img, quad = _small_card(code, 500 + i)
        probs = np.zeros((13, 4))
        probs["A23456789TJQK".index(code[0]), [0, 3] if code[1] in "SC" else [1, 2]] = 0.45
        read = CornerRead(probs, ink=True, score=0.9, suit_px=99.0)
        weighed = cnn_with_pips(img, quad, load_model(), DEFAULT_CONFIG, read)
        assert weighed.probs is not None and weighed.suit_px == 99.0
        assert abs(weighed.probs.sum() - 0.9) < 1e-9  # the colour's odds kept
        right += "SHDC"[int(np.argmax(weighed.probs.sum(axis=0)))] == code[1]
    assert right >= 0.9 * len(CODES)  # half of them by chance without the pip
    plain = np.zeros((13, 4))
    plain[6, 3] = 0.9  # a club read plainly: not asked
    read = CornerRead(plain, ink=True, score=0.9, suit_px=99.0)
    img, quad = _small_card("7S", 1)
    assert cnn_with_pips(img, quad, load_model(), DEFAULT_CONFIG, read) is read
