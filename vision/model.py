"""A small multilayer perceptron in numpy: the index classifier's inference (its training is in
``vision.tools.train``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from .arrays import F32, U8, Floats
from .config import DEFAULT_CONFIG, RecognizerConfig

CLASSES = (
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",  # standard indices
    "1", "11", "12", "13",  # Finnish indices of A, J, Q, K
    "S", "H", "D", "C",  # suits
    "junk",  # anything else: art, pips' fragments, printed letters
)  # fmt: skip
RANK_CLASSES = tuple(range(17))
SUIT_CLASSES = (17, 18, 19, 20)
# The same classes as column slices of a probability array: a view, where indexing by the tuples copies.
RANK_COLUMNS = slice(RANK_CLASSES[0], RANK_CLASSES[-1] + 1)
SUIT_COLUMNS = slice(SUIT_CLASSES[0], SUIT_CLASSES[-1] + 1)
JUNK = 21
RANK_OF = {
    "A": "A", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "10": "T",
    "J": "J", "Q": "Q", "K": "K", "1": "A", "11": "J", "12": "Q", "13": "K",
}  # fmt: skip

MODEL_PATH = Path(__file__).with_name("models") / "index_mlp.npz"


class GlyphWeigher(Protocol):
    """What rides on the classifier as an enrolled deck (``profile.DeckProfile``; during enrolment
    the recorder that keeps the glyphs read)."""

    def weigh(self, feats: F32, p: F32, config: RecognizerConfig = DEFAULT_CONFIG) -> F32:
        """Class probabilities ``p`` (M, classes) of glyphs ``feats`` (M, F), rows 0 and 1 (the rank
        and suit glyphs) weighed by the enrolled glyphs."""
        ...

    def rank_likeness(self, feats: F32, config: RecognizerConfig = DEFAULT_CONFIG) -> Floats:
        """(M,): how surely each glyph of ``feats`` (M, F) is an enrolled rank glyph (0 to 1)."""
        ...

    def joker_likeness(self, corner: U8) -> float:
        """How much an index corner crop (h, w, 3) looks like an enrolled Joker's corner (0 to 1)."""
        ...

    def cnn_share(self) -> float:
        """The share of the deck's cards the corner CNN named right at enrolment (0 to 1)."""
        ...


@dataclass(frozen=True)
class Mlp:
    """Weights of a one-hidden-layer perceptron with input standardisation."""

    mean: F32  # (F,)
    std: F32  # (F,)
    w1: F32  # (F, hidden)
    b1: F32  # (hidden,)
    w2: F32  # (hidden, classes x members)
    b2: F32  # (classes x members,)
    # An enrolled deck's index glyphs (``profile.DeckProfile``): the reader weighs its reads by them.
    profile: GlyphWeigher | None = None

    def probabilities(self, x: F32) -> F32:
        """Class probabilities (N, len(CLASSES)) for features (N, F): of an ensemble (``w2`` with a
        block of classes per member), the mean of its members' probabilities."""
        z = (x - self.mean) / self.std
        h = np.maximum(_by_few_rows(z, self.w1) + self.b1, 0)
        logits = (h @ self.w2 + self.b2).reshape(len(x), -1, len(CLASSES))
        logits -= logits.max(axis=2, keepdims=True)
        e = np.exp(logits)
        probs: F32 = (e / e.sum(axis=2, keepdims=True)).mean(axis=1)  # (numpy's stubs type a mean as Any)
        return probs

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **{k: getattr(self, k).astype(np.float32) for k in ("mean", "std", "w1", "b1", "w2", "b2")})


def _by_few_rows(a: F32, b: F32) -> F32:
    """``a @ b`` (N, K) x (K, M), 4 rows of ``a`` at a time.

    OpenBLAS multiplies a few rows (rows x M x K up to about a million) by a matrix without first
    copying the matrix into its blocked layout.  For the first layer's weights (425 x 576), timed
    on one core (2026-11-26): 15 us for 2 rows, 27 us for 3, 17 us for 4, 70-140 us for 5 to 7
    rows (where it copies them).  So rows go 4 at a time, the last block filled up with zero rows.
    A row's products come out the same to the bit however many rows are multiplied with it, from
    2 rows on (checked for 2 to 64 rows); a single row goes through another routine (gemv) with
    other rounding, and 1 or 2 rows are multiplied as they come.
    """
    n = len(a)
    if n <= 2:
        return a @ b
    rows = -(-n // 4) * 4
    padded = np.zeros((rows, a.shape[1]), a.dtype)
    padded[:n] = a
    out = np.empty((rows, b.shape[1]), np.result_type(a, b))
    for start in range(0, rows, 4):
        np.matmul(padded[start : start + 4], b, out=out[start : start + 4])
    return out[:n]


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
