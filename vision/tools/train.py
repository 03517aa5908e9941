"""``python -m vision train``: reproduce the shipped index classifier from the glyph generator.

The glyphs are drawn with every Latin font face on the machine (DejaVu excluded: the development set
is drawn with it).  The shipped model was trained with the Debian font packages that ``bin/test``
installs (FONTS there); the same packages, seeds and machine give the same model.

The classifier is three perceptrons, each trained on its own seed's glyphs, whose probabilities
are averaged (``averaged`` below).  One perceptron's errors depend on its seed and on the machine:
trained again on the same glyphs on another machine (most likely a BLAS that sums in another order),
the single perceptron shipped before measured a point less development-set table recall, and single
perceptrons of seeds 1-5 spread over two points.  Where three disagree their mean is unsure, as it
should be.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ..arrays import F32, I64
from ..model import CLASSES, MODEL_PATH, Mlp
from .glyphset import glyph_dataset

SEEDS = (1, 2, 3)
PER_CLASS = 2500
EPOCHS = 30


def train(out: Path = MODEL_PATH, *, per_class: int = PER_CLASS, epochs: int = EPOCHS,
          seeds: Sequence[int] = SEEDS, fonts: list[str] | None = None, log: Callable[[str], object] = print) -> Path:
    """Generate glyphs (fonts and drawn suits, distorted) for each seed, train a perceptron on each,
    save their average to ``out``.  ``fonts``: the index fonts (default all; the held-out folds of
    ``vision.tools.heldout`` leave some families out)."""
    models = []
    for seed in seeds:
        x, y = glyph_dataset(per_class, seed, fonts)
        log(f"{len(y)} glyphs generated (seed {seed}); training {epochs} epochs")
        models.append(train_mlp(x, y, epochs=epochs, seed=seed, log=log))
    averaged(models).save(out)
    log(f"saved {out} ({len(models)} perceptrons averaged)")
    return out


def averaged(models: list[Mlp]) -> Mlp:
    """One ensemble of ``models``, whose probabilities are the mean of theirs: their hidden layers
    side by side (each input standardisation folded into its first layer), each member's output
    layer reading only its own hidden units.  Where the members disagree the mean is unsure, as it
    should be; a mean of logits would let one member's overconfidence carry it."""
    k, hidden = len(CLASSES), [m.w1.shape[1] for m in models]
    w1 = np.concatenate([m.w1 / m.std[:, None] for m in models], axis=1)
    b1 = np.concatenate([m.b1 - (m.mean / m.std) @ m.w1 for m in models])
    w2 = np.zeros((sum(hidden), k * len(models)), np.float32)
    row = 0
    for i, m in enumerate(models):
        w2[row : row + hidden[i], i * k : (i + 1) * k] = m.w2
        row += hidden[i]
    b2 = np.concatenate([m.b2 for m in models])
    f = w1.shape[0]
    return Mlp(np.zeros(f, np.float32), np.ones(f, np.float32), w1.astype(np.float32), b1.astype(np.float32),
               w2.astype(np.float32), b2.astype(np.float32))


def train_mlp(x: F32, y: I64, *, hidden: int = 192, epochs: int = 40, seed: int = 0, lr: float = 2e-3,
              batch: int = 256, noise: float = 0.5, log: Callable[[str], object] | None = print) -> Mlp:
    """Train with Adam on cross-entropy (plain numpy, deterministic for a seed)."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    std = np.maximum(x.std(axis=0), 0.1)  # a floor: a pixel that never inks in training must not explode at run time
    z = (x - mean) / std
    n, f = z.shape
    k = len(CLASSES)
    params = {
        "w1": rng.normal(0, np.sqrt(2 / f), (f, hidden)).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": rng.normal(0, np.sqrt(2 / hidden), (hidden, k)).astype(np.float32),
        "b2": np.zeros(k, np.float32),
    }
    m = {key: np.zeros_like(v) for key, v in params.items()}
    v = {key: np.zeros_like(val) for key, val in params.items()}
    step = 0
    onehot = np.eye(k, dtype=np.float32)[y]
    for epoch in range(epochs):
        order = rng.permutation(n)
        loss_sum = 0.0
        for i in range(0, n, batch):
            idx = order[i : i + batch]
            xb, yb = z[idx], onehot[idx]
            # Input noise: no single pixel of one typeface may decide a class (robustness to unseen designs).
            xb = xb + rng.normal(0, noise, xb.shape).astype(np.float32)
            h_pre = xb @ params["w1"] + params["b1"]
            h = np.maximum(h_pre, 0)
            logits = h @ params["w2"] + params["b2"]
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            loss_sum += float(-(yb * np.log(p + 1e-9)).sum())
            g_logits = (p - yb) / len(idx)
            grads = {"w2": h.T @ g_logits + 1e-4 * params["w2"], "b2": g_logits.sum(axis=0)}
            g_h = g_logits @ params["w2"].T
            g_h[h_pre <= 0] = 0
            grads["w1"] = xb.T @ g_h + 1e-4 * params["w1"]
            grads["b1"] = g_h.sum(axis=0)
            step += 1
            rate = lr * (0.5 ** (epoch / 15))
            for key in params:
                m[key] = 0.9 * m[key] + 0.1 * grads[key]
                v[key] = 0.999 * v[key] + 0.001 * grads[key] ** 2
                mh = m[key] / (1 - 0.9**step)
                vh = v[key] / (1 - 0.999**step)
                params[key] -= (rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        if log:
            log(f"epoch {epoch + 1}/{epochs}: loss {loss_sum / n:.4f}")
    return Mlp(mean.astype(np.float32), std.astype(np.float32), params["w1"], params["b1"], params["w2"], params["b2"])
