"""The corner CNN at run time: reads a rectified index corner (rank, suit, "JOKER", blank, no index)
with onnxruntime from ``models/corner_cnn.onnx`` (3.5 times faster than OpenCV's dnn module on this
small network: 0.4 against 1.5 ms for a card's two corners on one core).  No torch at run time.

The network sees the corner as ``read.read_corner_at`` crops it (``corner_w`` x ``corner_h`` of the
canonical 180 x 252 card, 54 x 95 px), reduced to ``INPUT_W`` x ``INPUT_H`` in two channels: the
darkest of the three colour channels (ink of either colour is dark there) stretched between the
crop's ink and paper levels, and the redness of the ink (red minus the larger of green and blue) on
the same scale.  It has two heads: a kind (``KINDS``: the 13 ranks, whatever the deck prints for
them, Finnish 1, 11, 12, 13 included; "JOKER" written down the corner; a blank corner; anything
else) and a suit.  Both are calibrated by temperature (stored beside the model); a corner's card
odds are P(rank) x P(suit).

The shipped file is the network in 8-bit integers (onnxruntime's static quantization, weights in 7
bits so that CPUs with and without the VNNI instructions read alike; ``train-cnn --quantize``), its
forward pass about three times as fast as the float network's, which lies beside it
(``models/corner_cnn.fp32.onnx``, the one to train on from).

Training and its corpus: ``vision/tools/cnn_train.py``, ``vision/tools/cnn_data.py``.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from .index_reader import CornerRead
from .runtime import session

RANKS = "A23456789TJQK"
SUITS = "SHDC"
KINDS: tuple[str, ...] = (*RANKS, "joker", "blank", "none")
JOKER, BLANK, NONE = 13, 14, 15
CORNER_W, CORNER_H = 54, 95  # the canonical corner crop (config.corner_w x card_width, corner_h x card_height)
INPUT_W, INPUT_H = 40, 64
MODEL_PATH = Path(__file__).with_name("models") / "corner_cnn.onnx"


def prepare(corners: list[np.ndarray]) -> np.ndarray:
    """The network's input (N, 2, INPUT_H, INPUT_W) float32 for BGR uint8 corner crops (h, w, 3)."""
    out = np.empty((len(corners), 2, INPUT_H, INPUT_W), np.float32)
    for i, corner in enumerate(corners):
        if corner.ndim != 3 or corner.shape[2] != 3:
            raise ValueError(f"expected a (h, w, 3) corner, got {corner.shape}")
        small = cv2.resize(corner, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA).astype(np.float32)
        b, g, r = small[:, :, 0], small[:, :, 1], small[:, :, 2]
        grey = np.minimum(np.minimum(b, g), r)
        flat = grey.ravel()
        k_lo, k_hi = int(0.02 * (flat.size - 1)), int(0.9 * (flat.size - 1))
        part = np.partition(flat, (k_lo, k_hi))  # the k-th smallest, as a full sort has them
        lo, hi = float(part[k_lo]), float(part[k_hi])
        span = max(hi - lo, 24.0)
        out[i, 0] = np.clip((grey - lo) / span, -0.5, 1.5)
        out[i, 1] = np.clip((r - np.maximum(b, g)) / span, -0.5, 1.5)
    return out


class CornerCnn:
    """The exported network with its temperatures."""

    def __init__(self, path: Path = MODEL_PATH) -> None:
        self.session = session(path)
        self.input = self.session.get_inputs()[0].name
        meta = json.loads(path.with_suffix(".json").read_text())
        self.t_kind = float(meta["t_kind"])
        self.t_suit = float(meta["t_suit"])
        self.outputs = list(meta.get("outputs", ["kind", "suit"]))

    def probabilities(self, corners: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Calibrated (N, len(KINDS)) kind and (N, 4) suit probabilities of BGR corner crops."""
        kind, suit = self.session.run(self.outputs, {self.input: prepare(corners)})
        return _softmax(kind / self.t_kind), _softmax(suit / self.t_suit)


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def load_cnn(path: Path | None = None) -> CornerCnn:
    """The corner CNN at ``path``, else the file the environment variable ``VISION_CNN_MODEL`` names
    (to measure another model), else the shipped one; loaded once per path."""
    return _load(path or Path(os.environ.get("VISION_CNN_MODEL") or MODEL_PATH))


@cache
def _load(path: Path) -> CornerCnn:
    return CornerCnn(path)


def corner_read(kind: np.ndarray, suit: np.ndarray) -> CornerRead:
    """A ``CornerRead`` from one corner's calibrated kind (len(KINDS)) and suit (4) probabilities:
    rank x suit odds when a rank is the likeliest kind, else what the corner shows instead, its
    probability the read's ``score``."""
    best = int(np.argmax(kind))
    if best == JOKER:
        return CornerRead(None, joker_text=True, ink=True, score=float(kind[JOKER]))
    if best == BLANK:
        return CornerRead(None, ink=False, score=float(kind[BLANK]))
    if best == NONE:
        return CornerRead(None, ink=True, score=float(kind[NONE]))
    rank_mass = float(kind[:13].sum())
    return CornerRead(np.outer(kind[:13], suit), ink=True, score=rank_mass / max(rank_mass + float(kind[13:].sum()), 1e-9),
                      suit_px=99.0)


def read_corner_cnn(corner: np.ndarray) -> CornerRead:
    """Read an upright corner crop (h, w, 3) uint8 BGR with the corner CNN."""
    kind, suit = load_cnn().probabilities([corner])
    return corner_read(kind[0], suit[0])
