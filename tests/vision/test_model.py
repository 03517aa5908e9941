import numpy as np

from vision.model import CLASSES, Mlp, load_model
from vision.tools.train import averaged


def _logits(m: Mlp, x: np.ndarray) -> np.ndarray:
    h = np.maximum((x - m.mean) / m.std @ m.w1 + m.b1, 0)
    return h @ m.w2 + m.b2


def test_the_ensemble_gives_the_mean_of_its_members_probabilities():
    rng = np.random.default_rng(0)
    f, k = 12, len(CLASSES)
    members = [Mlp(rng.normal(0, 1, f).astype(np.float32), rng.uniform(0.5, 2, f).astype(np.float32),
                   rng.normal(0, 1, (f, 5)).astype(np.float32), rng.normal(0, 1, 5).astype(np.float32),
                   rng.normal(0, 1, (5, k)).astype(np.float32), rng.normal(0, 1, k).astype(np.float32))
               for _ in range(3)]  # fmt: skip
    x = rng.normal(0, 1, (7, f)).astype(np.float32)
    want = np.mean([m.probabilities(x) for m in members], axis=0)
    for m in members:  # each member alone is the plain perceptron
        z = _logits(m, x)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        assert np.allclose(m.probabilities(x), p / p.sum(axis=1, keepdims=True), atol=1e-6)
    assert np.allclose(averaged(members).probabilities(x), want, atol=1e-5)


def test_training_makes_a_classifier_of_every_class(tmp_path):
    from vision.tools.train import train

    out = train(tmp_path / "m.npz", per_class=6, epochs=1, seeds=(1, 2), log=lambda *a: None)
    model = load_model(out)
    shipped = load_model()
    assert model.w1.shape == (shipped.w1.shape[0], 2 * 192) and model.w2.shape == (2 * 192, 2 * len(CLASSES))
    assert np.allclose(model.probabilities(np.zeros((1, model.w1.shape[0]), np.float32)).sum(), 1.0)


def test_every_suit_font_draws_each_suit_at_its_own_code_point():
    """The training glyphs and generated cards take a font's suits by code point: a font that draws
    them the wrong way round (FreeSerif Bold swaps spade and club) would teach the classifier, and
    label test cards, wrongly.  Each font's suit must look most like the fonts' mean of that suit."""
    import cv2
    import pytest

    from vision.tools.glyphs import SUIT_CHARS, suit_font_files, text_mask

    fonts = suit_font_files()
    if len(fonts) < 5:
        pytest.skip("too few suit fonts on this machine for a majority (bin/test installs them)")
    shapes = {s: np.stack([cv2.resize(text_mask(ch, f, 40), (40, 40)) / 255.0 for f in fonts])
              for s, ch in SUIT_CHARS.items()}  # fmt: skip
    mean = {s: g.mean(axis=0) for s, g in shapes.items()}
    wrong = [(f, s, t) for s, g in shapes.items() for f, glyph in zip(fonts, g, strict=True)
             if (t := min(mean, key=lambda t: float(np.abs(glyph - mean[t]).mean()))) != s]  # fmt: skip
    assert not wrong, f"suits drawn as another suit (font, suit, looks like): {wrong}"


def test_no_index_font_draws_its_glyphs_in_boxes():
    """A keyboard font (Linux Biolinum Keyboard) draws each character as a keycap: a box around the
    letter, which no card prints as an index.  An "A" of an index font has ink at its left edge only
    at its foot; a keycap's box runs down the whole edge."""
    from vision.tools.glyphs import font_files, text_mask

    boxed = [f for f in font_files() if (text_mask("A", f, 48)[:, :2] > 127).any(axis=1).mean() > 0.5]
    assert not boxed
