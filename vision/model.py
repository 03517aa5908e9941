"""A small multilayer perceptron in numpy: the index classifier's inference (its training is in
``vision.tools.train``)."""

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
