"""Small table-scene indices whose rank and suit blur ran together into one blob: parted at the
blob's waist (a rank over its suit, or a suit beside the rank in one row), only where the corner is
enlarged from the photograph (a scene's card), so shoe scans read as before.  The scenes are our
own renders of faces the classifier was not trained on (italics), with seeds apart from
``heldout``'s."""

import cv2
import numpy as np
import pytest

from vision import recognize
from vision.config import DEFAULT_CONFIG
from vision.index_reader import RANKS, SUITS, _split_column_waist, _split_waist, read_corner
from vision.model import load_model
from vision.read import _px_scale, corner_at, read_corner_at
from vision.tools.glyphs import font_files
from vision.tools.synth import design_style, find_font, table_image


def _scene(font: str, design: int, index: str, nth: int):
    style = design_style(design, font, finnish=False, index=index)
    rng = np.random.default_rng([900, design])
    for _ in range(nth + 1):
        img, label = table_image(rng, style=style)
    return img, label


def _labels(mask: np.ndarray) -> tuple[np.ndarray, tuple[int, int, int, int, int]]:
    labels = (mask > 0).astype(np.int32)
    ys, xs = np.nonzero(labels)
    return labels, (
        int(ys.min()),
        int(xs.min()),
        int(xs.max() - xs.min() + 1),
        int(ys.max() - ys.min() + 1),
        1,
    )


def test_a_rank_over_its_suit_joined_by_a_thread_is_parted_at_the_waist():
    mask = np.zeros((40, 20), np.uint8)
    cv2.ellipse(mask, (10, 10), (7, 9), 0, 0, 360, 255, -1)  # the rank
    cv2.fillPoly(mask, [np.array([[10, 21], [17, 29], [10, 37], [3, 29]])], 255)  # a diamond under it
    mask[19:22, 9:11] = 255  # blur's thread between them
    labels, blob = _labels(mask)
    parted = _split_waist(labels, blob)
    assert parted is not None
    _, rank, suit = parted
    assert rank[0] + rank[3] <= suit[0] + 1 and suit[3] >= 12


def test_one_tall_glyph_is_not_parted():
    mask = np.zeros((40, 20), np.uint8)
    mask[2:38, 5:15] = 255  # a bar: no waist
    labels, blob = _labels(mask)
    assert _split_waist(labels, blob) is None


def test_a_rank_and_the_suit_beside_it_joined_by_a_thread_are_parted_at_the_waist():
    mask = np.zeros((20, 40), np.uint8)
    cv2.ellipse(mask, (9, 10), (7, 9), 0, 0, 360, 255, -1)  # the rank's last glyph
    cv2.fillPoly(mask, [np.array([[29, 3], [36, 10], [29, 17], [22, 10]])], 255)  # a diamond beside it
    mask[9:11, 15:23] = 255
    labels, blob = _labels(mask)
    parted = _split_column_waist(labels, blob)
    assert parted is not None
    _, left, right = parted
    assert left[1] + left[2] <= right[1] + 1


@pytest.mark.parametrize("font", ["Hack-Italic.ttf"])
def test_small_indices_run_together_are_read_in_a_scene(font):
    assert find_font(font) not in font_files()  # an italic: left out of the classifier's training
    img, label = _scene(font, 7060, "small", 1)
    got = {c["code"] for c in recognize(img)}
    assert {"6C", "6D"} <= got, got  # both missed before: "6" and its suit one blob


def test_a_one_row_index_run_together_is_found_in_a_scene():
    img, label = _scene("OpenSans-Italic.ttf", 7041, "beside", 1)
    got = {c["code"] for c in recognize(img)}
    assert {"AH", "AS"} <= got, got


def test_a_shoe_scans_corner_and_a_corner_not_enlarged_are_not_parted():
    img, label = _scene("Hack-Italic.ttf", 7060, "small", 1)
    (card,) = [c for c in label["cards"] if c["code"] == "6D"]
    quad = np.asarray(card["corners"], np.float32)
    corner = corner_at(img, quad, DEFAULT_CONFIG)
    scale = _px_scale(quad, DEFAULT_CONFIG)
    scene_read = read_corner(corner, load_model(), DEFAULT_CONFIG, None, scale, scene=True)
    assert scene_read.probs is not None
    assert np.unravel_index(np.argmax(scene_read.probs), scene_read.probs.shape) == (5, 2)  # 6D
    # The same crop read as a shoe scan's corner, or as a scene's not enlarged from the photograph:
    # as before, no index.
    assert read_corner(corner, load_model(), DEFAULT_CONFIG, None, scale).probs is None
    assert read_corner(corner, load_model(), DEFAULT_CONFIG, None, 1.0, scene=True).probs is None


def test_a_large_index_whose_suit_is_wider_than_the_corner_crop_is_read_from_a_wider_crop():
    style = design_style(7051, "DejaVuSansCondensed.ttf", finnish=True, index="large")
    img, label = table_image(np.random.default_rng([900, 7051]), style=style)
    reads = {}
    for card in label["cards"]:
        if card["code"] in ("5H", "9H"):
            quad = np.asarray(card["corners"], np.float32)
            assert (
                read_corner_at(img, quad, load_model(), DEFAULT_CONFIG).probs is None
            )  # as a shoe scan's: as before
            read = read_corner_at(img, quad, load_model(), DEFAULT_CONFIG, scene=True)
            assert read.probs is not None, card["code"]  # the heart, cut by the narrow crop, was dropped
            r, s = np.unravel_index(np.argmax(read.probs), read.probs.shape)
            reads[card["code"]] = RANKS[r] + SUITS[s]
    assert reads == {"5H": "5H", "9H": "9H"}
