"""A small multilayer perceptron in numpy: the index classifier's inference (and its training)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

CLASSES = (
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",  # standard indices
    "1", "11", "12", "13",  # Finnish indices of A, J, Q, K
    "S", "H", "D", "C",  # suits
    "junk",  # anything else: art, pips' fragments, printed letters
)  # fmt: skip
RANK_CLASSES = tuple(range(17))
SUIT_CLASSES = (17, 18, 19, 20)
JUNK = 21
RANK_OF = {
    "A": "A", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "10": "T",
    "J": "J", "Q": "Q", "K": "K", "1": "A", "11": "J", "12": "Q", "13": "K",
}  # fmt: skip

MODEL_PATH = Path(__file__).with_name("models") / "index_mlp.npz"


@dataclass(frozen=True)
class Mlp:
    """Weights of a one-hidden-layer perceptron with input standardisation."""

    mean: np.ndarray
    std: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    # An enrolled deck's index glyphs (``profile.DeckProfile``): the reader weighs its reads by them.
    profile: Any = None

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """Class probabilities (N, len(CLASSES)) for features (N, F): of an ensemble (``w2`` with a
        block of classes per member), the mean of its members' probabilities."""
        z = (x - self.mean) / self.std
        h = np.maximum(z @ self.w1 + self.b1, 0)
        logits = (h @ self.w2 + self.b2).reshape(len(x), -1, len(CLASSES))
        logits -= logits.max(axis=2, keepdims=True)
        e = np.exp(logits)
        return (e / e.sum(axis=2, keepdims=True)).mean(axis=1)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **{k: getattr(self, k).astype(np.float32) for k in ("mean", "std", "w1", "b1", "w2", "b2")})


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


_MODEL: Mlp | None = None


def load_model(path: Path = MODEL_PATH) -> Mlp:
    """The shipped classifier (loaded once)."""
    global _MODEL
    if _MODEL is None or path != MODEL_PATH:
        with np.load(path) as data:
            model = Mlp(*(data[k] for k in ("mean", "std", "w1", "b1", "w2", "b2")))
        if path != MODEL_PATH:
            return model
        _MODEL = model
    return _MODEL


def train_mlp(x: np.ndarray, y: np.ndarray, *, hidden: int = 192, epochs: int = 40, seed: int = 0,
              lr: float = 2e-3, batch: int = 256, noise: float = 0.5, log=print) -> Mlp:  # type: ignore[no-untyped-def]
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
