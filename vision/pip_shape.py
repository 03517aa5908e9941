"""The shape of a table scene's small pips, read from their grey levels.

A pip a few pixels tall in a table scene (a card 85-210 px in 720) loses its shape when it is cut to
ink and paper: a club's three lobes and a spade's point both come out a blob, and the perceptron's
glyph features, made for binarised glyphs, take the blob for a spade more often than for a club.  The
grey levels keep what the blur leaves: a club's lobes leave shallower ink between them, a spade's
point a slope.  This reader looks at each pip's grey patch (``PATCH`` x ``PATCH``, ink 1 and paper 0)
and gives the log-odds of the second suit of its colour's pair (club against spade, diamond against
heart); a face's pips all print one suit, so their log-odds add.

The weights (``models/pip_shape.npz``) are learnt by ``python -m vision train-pips``
(``vision/tools/pip_train.py``) from pips the project renders itself: drawn suits and the suit glyphs
of the training half of the suit fonts, on generated table scenes.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .arrays import F32, U8, Floats

PATCH = 16
MODEL_PATH = Path(__file__).with_name("models") / "pip_shape.npz"


def pip_patch(grey: U8, box: tuple[int, int, int, int], paper: float, *, turned: bool) -> F32:
    """A pip's grey patch: the box (x, y, w, h) of its ink in ``grey`` (the face's darkest channel, in
    which red ink is dark too), padded by a fifth of its larger side, squared, scaled to
    ``PATCH`` x ``PATCH``, as ink (1) against ``paper`` (0), turned half round where ``turned`` (a pip
    of the face's lower half)."""
    x, y, w, h = box
    side = max(w, h)
    pad = max(1, int(round(0.2 * side)))
    cx, cy = x + w / 2, y + h / 2
    half = side / 2 + pad
    x0, y0 = int(np.floor(cx - half)), int(np.floor(cy - half))
    x1, y1 = int(np.ceil(cx + half)), int(np.ceil(cy + half))
    padded = cv2.copyMakeBorder(grey, pad + side, pad + side, pad + side, pad + side, cv2.BORDER_REPLICATE)
    off = pad + side
    crop = padded[y0 + off : y1 + off, x0 + off : x1 + off].astype(np.float32)
    small = cv2.resize(crop, (PATCH, PATCH), interpolation=cv2.INTER_AREA)
    lo = float(small.min())
    ink = np.clip((paper - small) / max(paper - lo, 1.0), 0.0, 1.0)
    if turned:
        ink = ink[::-1, ::-1]
    return np.ascontiguousarray(ink, dtype=np.float32)


class PipShape:
    """Two small networks (``PATCH``² → hidden → 1), one per colour: the log-odds of club against spade
    (black pips) and of diamond against heart (red pips)."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.w = {k: np.asarray(v, np.float32) for k, v in weights.items()}

    def log_odds(self, patches: list[F32], red: bool) -> Floats:
        """Each patch's log-odds of its colour pair's second suit (C against S, D against H)."""
        if not patches:
            return np.zeros(0)
        key = "red" if red else "black"
        x = np.stack([p.reshape(-1) for p in patches]).astype(np.float32)
        x = (x - self.w[f"{key}_mean"]) / self.w[f"{key}_std"]
        hidden = np.maximum(x @ self.w[f"{key}_w1"] + self.w[f"{key}_b1"], 0.0)
        out: Floats = (hidden @ self.w[f"{key}_w2"] + self.w[f"{key}_b2"]).reshape(-1).astype(np.float64)
        return out


@lru_cache(maxsize=1)
def load_pip_shape(path: Path = MODEL_PATH) -> PipShape | None:
    """The shipped pip-shape reader, or None where its file is missing."""
    if not path.is_file():
        return None
    with np.load(path) as data:
        return PipShape({k: data[k] for k in data.files})
