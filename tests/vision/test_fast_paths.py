"""The faster ways some pipeline values are computed give the values of the plain ways."""

import cv2
import numpy as np
import pytest

from vision.cards import whiteness
from vision.features import glyph_features, turned_glyph_features
from vision.index_reader import ink_levels
from vision.model import load_model
from vision.scene import _ceil_of


def _blobs(rng: np.random.Generator, n: int) -> list[np.ndarray]:
    out = []
    for _ in range(n):
        m = np.zeros((int(rng.integers(1, 40)), int(rng.integers(1, 40))), np.uint8)
        for _ in range(int(rng.integers(0, 4))):
            a = (int(rng.integers(0, m.shape[1])), int(rng.integers(0, m.shape[0])))
            b = (int(rng.integers(0, m.shape[1])), int(rng.integers(0, m.shape[0])))
            cv2.line(m, a, b, 255, int(rng.integers(1, 5)))
        cv2.circle(m, (int(rng.integers(0, m.shape[1])), int(rng.integers(0, m.shape[0]))), int(rng.integers(0, 6)), 255, -1)
        out.append(m)
    return out


def test_a_glyphs_turned_features_are_those_of_the_glyph_turned():
    for m in _blobs(np.random.default_rng(0), 400):
        want = np.stack([glyph_features(np.ascontiguousarray(np.rot90(m, k))) for k in range(4)])
        assert np.array_equal(turned_glyph_features(m), want)


@pytest.mark.parametrize("shape", [(720, 1280), (300, 200), (95, 54), (1, 1)])
def test_whiteness_is_the_darkest_channel(shape):
    image = np.random.default_rng(1).integers(0, 256, (*shape, 3)).astype(np.uint8)
    assert np.array_equal(whiteness(image), image.min(axis=2))
    crop = image[shape[0] // 4 :, shape[1] // 3 :]  # a region of a picture (rows not contiguous)
    assert np.array_equal(whiteness(crop), crop.min(axis=2))


def test_ink_levels_are_the_2_and_90_percent_order_statistics():
    rng = np.random.default_rng(2)
    for _ in range(50):
        crop = rng.integers(0, 256, (int(rng.integers(2, 120)), int(rng.integers(2, 120)), 3)).astype(np.uint8)
        flat = crop.min(axis=2).ravel()
        k_lo, k_hi = int(0.02 * (flat.size - 1)), int(0.90 * (flat.size - 1))
        _, lo, hi, _ = ink_levels(crop)
        assert (lo, hi) == (float(np.sort(flat)[k_lo]), float(np.sort(flat)[k_hi]))


def test_a_batch_of_any_size_is_read_row_by_row_as_the_plain_perceptron_reads_it():
    model = load_model()
    rng = np.random.default_rng(3)
    x = (model.mean + model.std * rng.normal(size=(13, len(model.mean)))).astype(np.float32)
    for n in range(1, 14):
        h = np.maximum((x[:n] - model.mean) / model.std @ model.w1 + model.b1, 0)
        z = (h @ model.w2 + model.b2).reshape(n, -1, model.probabilities(x[:1]).shape[1])
        e = np.exp(z - z.max(axis=2, keepdims=True))
        want = (e / e.sum(axis=2, keepdims=True)).mean(axis=1)
        assert np.allclose(model.probabilities(x[:n]), want, atol=1e-6)


@pytest.mark.parametrize("fraction", [0.55, 0.78, 0.0, 1.0, 0.333])
def test_the_paper_fraction_table_marks_the_pixels_float32_arithmetic_marks(fraction):
    grey = np.arange(256, dtype=np.uint8)[:, None].repeat(256, axis=1)
    paper = np.ascontiguousarray(grey.T)
    want = grey.astype(np.float32) < fraction * paper.astype(np.float32)
    assert np.array_equal(grey < _ceil_of(fraction)[paper], want)
