"""A shoe scan's face counts its pips: where the index corners are read unsure, a number card's rank
is the number of its pips (an ace's one pip in the middle), whatever the index's font or layout."""

import cv2
import numpy as np
import pytest

from vision import recognize
from vision.config import DEFAULT_CONFIG
from vision.model import load_model
from vision.pips import pip_count
from vision.read import counted
from vision.tools.synth import (
    CARD_H,
    CARD_W,
    _background,
    _pip_layout,
    _warp_card,
    card_quad,
    random_style,
    render_card,
    shoe_image,
)

NUMBERS = [r + s for r in "A23456789T" for s in "SHDC"]
FACES = [r + s for r in "JQK" for s in "SHDC"] + ["JK"] * 4


def _scan(code: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A shoe scan of ``code`` in a random design of our own renderer, and the card's quad."""
    rng = np.random.default_rng(seed)
    img, label = shoe_image(code, rng, random_style(rng))
    return img, np.asarray(label["corners"], np.float32)


def test_the_pips_count_a_number_cards_rank_and_never_another():
    model = load_model()
    counts = [(code, pip_count(*_scan(code, 500 + i), model, DEFAULT_CONFIG)) for i, code in enumerate(NUMBERS)]
    said = [(code, c) for code, c in counts if c is not None]
    # Most faces give a count (a glare, an index reaching into the middle or pips run together give none) ...
    assert len(said) >= 0.6 * len(NUMBERS), counts
    # ... and a count given is the card's rank, its suit's colour the card's.
    assert all(c.rank == code[0] for code, c in said), [(code, c.rank) for code, c in said if c.rank != code[0]]
    assert all(c.suits["SHDC".index(code[1])] > 0.01 for code, c in said)


def test_court_cards_and_jokers_count_nothing():
    model = load_model()
    for i, code in enumerate(FACES):
        img, quad = _scan(code, 700 + i)
        assert pip_count(img, quad, model, DEFAULT_CONFIG) is None, code


def _eight_with_a_pip_half_gone(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """An 8 of hearts on the felt with half of one pip washed out (paper-white), and its quad."""
    rng = np.random.default_rng(seed)
    style = random_style(rng, finnish=False)
    face, alpha = render_card("8H", style, rng)
    x, y = _pip_layout(8)[0]
    cx, cy = int(x * CARD_W), int(y * CARD_H)
    face[cy - int(0.06 * CARD_H) : cy + int(0.06 * CARD_H), cx : cx + int(0.08 * CARD_W)] = face[2, CARD_W // 2]
    canvas = _background(520, 420, rng, felt=True)
    quad = card_quad(210, 260, 400, 5.0, 0.005, rng)
    _warp_card(face, alpha, canvas, quad)
    return np.clip(canvas, 0, 255).astype(np.uint8), quad


def test_a_pip_half_washed_out_gives_no_count_rather_than_one_fewer():
    model = load_model()
    for seed in range(3):
        img, quad = _eight_with_a_pip_half_gone(seed)
        got = pip_count(img, quad, model, DEFAULT_CONFIG)
        assert got is None or got.rank == "8", got


def test_an_unsure_index_read_gives_way_to_the_count_and_the_tablet_asks():
    model = load_model()
    img, quad = _scan("6S", 11)
    assert pip_count(img, quad, model, DEFAULT_CONFIG) is not None
    corners = quad.round(2).tolist()
    # Read as a Jack of diamonds, unsure (a 6 of a serif face taken for a J): the six pips say 6, of spades.
    got = counted({"code": "JD", "confidence": 0.89, "corners": corners}, img, quad, model, DEFAULT_CONFIG)
    assert got["code"] == "6S" and got["confidence"] <= DEFAULT_CONFIG.witness_cap
    # Read with the suit of the other shape of its colour (a small club index taken for a spade): the pips' suit.
    got = counted({"code": "6C", "confidence": 0.8, "corners": corners}, img, quad, model, DEFAULT_CONFIG)
    assert got == {"code": "6S", "confidence": 0.8, "corners": corners}
    # Unknown, its first guess the count's: named, unsure.
    unknown = {"code": "unknown", "confidence": 0.42, "corners": corners,
               "guesses": [{"code": "6S", "confidence": 0.42}, {"code": "5S", "confidence": 0.3}]}
    got = counted(unknown, img, quad, model, DEFAULT_CONFIG)
    assert got == {"code": "6S", "confidence": DEFAULT_CONFIG.unknown_below, "corners": corners}
    # A sure read stands, and so does an unsure one the count agrees with.
    for card in ({"code": "5S", "confidence": 0.95, "corners": corners}, {"code": "6S", "confidence": 0.7, "corners": corners}):
        assert counted(card, img, quad, model, DEFAULT_CONFIG) == card


@pytest.mark.parametrize("seed", [1, 2])
def test_a_card_joined_by_a_glare_on_the_felt_is_still_found(seed):
    # A hot spot of the light whitens a patch of the felt touching the card's side: the card-white
    # region bulges there and is no card's shape.  It was read as a table scene and gave no card.
    rng = np.random.default_rng(seed)
    face, alpha = render_card("2D", random_style(rng, finnish=False), rng)
    canvas = _background(380, 360, rng, felt=True)
    quad = card_quad(175, 185, 220, -10.0, 0.005, rng)
    _warp_card(face, alpha, canvas, quad)
    left = (quad[0] + quad[3]) / 2 + [0, 30]
    cv2.circle(canvas, (int(left[0]) - 8, int(left[1])), 26, (250, 250, 250), -1)
    img = cv2.GaussianBlur(np.clip(canvas, 0, 255).astype(np.uint8), (0, 0), 1.0)
    cards = recognize(img)
    assert [c["code"] for c in cards] == ["2D"], cards


def test_a_card_filling_the_frame_with_a_glare_that_bent_its_outline_is_read_on_its_body():
    # An unseen face's 5 of spades (EB Garamond italic, heldout's draw at seed 11) with a hot spot of
    # the light joined to its side: the region took a third of the frame, its outline bent, and the
    # card read J at 0.6.  On the body's outline its pips count 5.
    from vision.tools.heldout import deck, unseen_decks
    from vision.tools.synth import CODES, INDEX_LAYOUTS, design_style

    found = [(font, number) for name, font, number in unseen_decks() if name == "EBGaramond12-Italic"]
    assert found, "bin/test installs the fonts (fonts-ebgaramond)"
    font, number = found[0]
    design, finnish = deck(number, INDEX_LAYOUTS.index("under"))
    style = design_style(design, font, finnish=finnish, index="under")
    rng = np.random.default_rng([11, design])
    codes = [CODES[int(i)] for i in rng.permutation(len(CODES))]
    scans = [shoe_image(codes[i], rng, style) for i in range(17)]
    img, label = scans[16]
    assert label["code"] == "5S"
    assert [c["code"] for c in recognize(img)] == ["5S"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_where_the_bent_outline_and_the_body_read_alike_the_read_stands(seed):
    # A white disc joined to the side of a card filling the frame: both outlines read the 5 of
    # spades; the bent one's read, its index corners where they were, is kept as sure as it is.
    rng = np.random.default_rng(seed)
    face, alpha = render_card("5S", random_style(rng, finnish=False), rng)
    canvas = _background(300, 280, rng, felt=True)
    quad = card_quad(135, 150, 230, 8.0, 0.005, rng)
    _warp_card(face, alpha, canvas, quad)
    right = quad[1] * 0.7 + quad[2] * 0.3
    cv2.circle(canvas, (int(right[0]) + 14, int(right[1])), 26, (250, 250, 250), -1)
    img = cv2.GaussianBlur(np.clip(canvas, 0, 255).astype(np.uint8), (0, 0), 1.0)
    cards = recognize(img)
    assert [c["code"] for c in cards] == ["5S"] and cards[0]["confidence"] >= 0.85, cards


def test_the_pip_counter_has_a_switch(monkeypatch):
    from dataclasses import replace

    from vision.config import RecognizerConfig

    with pytest.raises(ValueError, match="pip_counter"):
        RecognizerConfig(pip_counter="yes")
    monkeypatch.delenv("VISION_PIP_COUNTER", raising=False)
    assert RecognizerConfig().pip_counter == "on"
    monkeypatch.setenv("VISION_PIP_COUNTER", "off")
    assert RecognizerConfig().pip_counter == "off"
    img, quad = _scan("6S", 11)
    card = {"code": "JD", "confidence": 0.89, "corners": quad.round(2).tolist()}
    assert counted(card, img, quad, load_model(), replace(DEFAULT_CONFIG, pip_counter="off")) == card


def test_in_a_scene_a_card_whose_face_shows_whole_is_counted_and_a_covered_one_is_not():
    """A table scene's unsure cards are weighed by their pips where the face shows whole: a card alone
    and the top card of a hand; the lower card's face holds the upper card's pips, and is left as read."""
    from vision.scene import _counted_on_top

    model = load_model()
    rng = np.random.default_rng(3)
    style = random_style(rng, finnish=False)
    canvas = _background(720, 1280, rng, felt=True)
    h = 200.0
    lone = card_quad(300, 360, h, 3.0, 0.0, rng)
    lower = card_quad(800, 360, h, 0.0, 0.0, rng)
    upper = card_quad(800 + 0.32 * h, 360 + 0.064 * h, h, 0.0, 0.0, rng)
    for code, quad in (("7C", lone), ("6S", lower), ("9H", upper)):
        face, alpha = render_card(code, style, rng)
        _warp_card(face, alpha, canvas, quad)
    img = np.clip(canvas, 0, 255).astype(np.uint8)
    for q in (lone, upper):
        assert pip_count(img, np.asarray(q, np.float32), model, DEFAULT_CONFIG) is not None

    def read(code: str, confidence: float, quad: np.ndarray) -> dict:
        return {"code": code, "confidence": confidence, "corners": np.asarray(quad).round(2).tolist()}

    unsure = [read("TC", 0.6, lone), read("5S", 0.6, lower), read("8H", 0.6, upper)]
    assert [c["code"] for c in _counted_on_top(img, unsure, model, DEFAULT_CONFIG)] == ["7C", "5S", "9H"]
    sure = [read("TC", 0.95, lone), read("5S", 0.6, lower), read("8H", 0.95, upper)]
    assert [c["code"] for c in _counted_on_top(img, sure, model, DEFAULT_CONFIG)] == ["TC", "5S", "8H"]
