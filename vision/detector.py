"""The learned index detector at run time: a small fully-convolutional network that finds the index
corners of the cards of a table scene, with onnxruntime from ``models/index_detector.onnx`` (a session
may be run from several threads at once; OpenCV's dnn network may not).
No torch at run time.

The network sees the scene's darkest colour channel (ink of either colour and the felt are dark
there, the cards' paper light) reduced to ``INPUT_H`` rows (a card 85 px tall in 720 is 42 px tall
there, its small index a few pixels).  Its outputs, at a stride of ``STRIDE`` input pixels:

- ``heat``: a logit per cell of a visible index's centre lying there (an index covered by another
  card or a chip is no index);
- ``down``: the card's "down" as its index reads (cos, sin), at the index's cells;
- ``offset``: where in its cell the centre lies (x, y, in cells);
- ``size``: log of the card's height in input pixels over 50;
- ``corner``: the index centre as fractions of the card's width and height from the card's own
  top-left corner (the design's index layout).

``IndexDetector.peaks`` gives the local maxima of ``heat`` above a threshold as ``IndexPeak``s in
the picture's pixels.  ``scene.py`` lays a card out from each (behind ``RecognizerConfig.index_detector``).

Training and its corpus: ``vision/tools/detect_train.py``.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from .arrays import F32, U8
from .runtime import session

INPUT_H = 360  # the scene's height as the network sees it
STRIDE = 4  # input pixels per output cell
OUTPUTS = ("heat", "down", "offset", "size", "corner")
ROI_MARGIN = 24  # input px kept around a region of interest (the network's reach is about 70)
MODEL_PATH = Path(__file__).with_name("models") / "index_detector.onnx"


def reduce(image: U8) -> tuple[U8, float, float]:
    """A BGR scene (H, W, 3) uint8 as the network sees it: its darkest channel (INPUT_H, w) uint8
    (``w`` a multiple of 8, the aspect kept), and the input pixels per picture pixel across and down."""
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected a (H, W, 3) uint8 BGR image, got {image.shape} {image.dtype}")
    h, w = image.shape[:2]
    if h < 8 or w < 8:
        raise ValueError(f"expected an image at least 8 x 8 px, got {w} x {h}")
    b, g, r = cv2.split(image)
    dark = cv2.min(cv2.min(b, g), r)
    width = max(8, int(round(w * INPUT_H / h / 8)) * 8)
    small: U8 = np.asarray(cv2.resize(dark, (width, INPUT_H), interpolation=cv2.INTER_AREA), np.uint8)
    return small, width / w, INPUT_H / h


def normalise(small: U8) -> F32:
    """The network's input (1, 1, h, w) float32 of a reduced scene (``reduce``)."""
    blob: F32 = ((small.astype(np.float32) / 255.0 - 0.5) / 0.25)[None, None]
    return blob


def prepare(image: U8) -> tuple[F32, float, float]:
    """The network's input (1, 1, INPUT_H, w) float32 of a BGR scene (H, W, 3) uint8, and the input
    pixels per picture pixel across and down."""
    small, sx, sy = reduce(image)
    return normalise(small), sx, sy


@dataclass(frozen=True, slots=True)
class IndexPeak:
    """An index centre the detector found: where (picture px), how sure (0-1), the card's ``down``
    (unit vector, picture px), its height (picture px) and the index centre's place on its card
    (fractions of the card's width and height from its top-left corner)."""

    x: float
    y: float
    score: float
    down: tuple[float, float]
    card_h: float
    corner: tuple[float, float]


class IndexDetector:
    """The exported network and its peak threshold."""

    def __init__(self, path: Path = MODEL_PATH) -> None:
        self.session = session(path)
        self.input = self.session.get_inputs()[0].name
        meta = json.loads(path.with_suffix(".json").read_text())
        self.threshold = float(meta.get("threshold", 0.3))
        self.outputs = list(meta.get("outputs", OUTPUTS))

    def maps(self, image: U8, roi: tuple[int, int, int, int] | None = None) -> tuple[dict[str, F32], float, float, int, int]:
        """The network's output maps (each (C, h, w)) for a BGR scene, or for the part of it around
        ``roi`` (x0, y0, x1, y1 picture px; the network is fully convolutional); the input pixels per
        picture pixel across and down; and where the maps' first cell starts (input px)."""
        small, sx, sy = reduce(image)
        ox = oy = 0
        if roi is not None:
            h, w = small.shape
            x0, y0 = max(int(roi[0] * sx) - ROI_MARGIN, 0) // 8 * 8, max(int(roi[1] * sy) - ROI_MARGIN, 0) // 8 * 8
            x1, y1 = min(int(math.ceil(roi[2] * sx)) + ROI_MARGIN, w), min(int(math.ceil(roi[3] * sy)) + ROI_MARGIN, h)
            x1, y1 = min(x0 + max(8, -(-(x1 - x0) // 8) * 8), w), min(y0 + max(8, -(-(y1 - y0) // 8) * 8), h)
            small, ox, oy = small[y0:y1, x0:x1], x0, y0
        out = self.session.run(self.outputs, {self.input: normalise(small)})
        return {name: np.asarray(o[0], np.float32) for name, o in zip(self.outputs, out, strict=True)}, sx, sy, ox, oy

    def peaks(self, image: U8, threshold: float | None = None,
              roi: tuple[int, int, int, int] | None = None) -> list[IndexPeak]:
        """The index centres found in a BGR scene (H, W, 3) uint8 (around ``roi``, x0, y0, x1, y1
        picture px, when given), surest first."""
        maps, sx, sy, ox0, oy0 = self.maps(image, roi)
        heat = 1.0 / (1.0 + np.exp(-maps["heat"][0]))
        cut = self.threshold if threshold is None else threshold
        local = cv2.dilate(heat, np.ones((3, 3), np.uint8))
        ys, xs = np.nonzero((heat >= local) & (heat >= cut))
        out: list[IndexPeak] = []
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
            ox, oy = float(maps["offset"][0, y, x]), float(maps["offset"][1, y, x])
            cx, cy = (x + 0.5 + ox) * STRIDE + ox0, (y + 0.5 + oy) * STRIDE + oy0
            c, s = float(maps["down"][0, y, x]), float(maps["down"][1, y, x])
            # The direction in the picture: the input is scaled a little differently across and down.
            dx, dy = c / sx, s / sy
            norm = math.hypot(dx, dy) or 1.0
            card_h = 50.0 * math.exp(float(maps["size"][0, y, x])) / sy
            corner = (float(maps["corner"][0, y, x]), float(maps["corner"][1, y, x]))
            out.append(IndexPeak(cx / sx, cy / sy, float(heat[y, x]), (dx / norm, dy / norm), card_h, corner))
        out.sort(key=lambda p: -p.score)
        return out


def load_detector(path: Path | None = None) -> IndexDetector:
    """The index detector at ``path``, else the file the environment variable
    ``VISION_DETECTOR_MODEL`` names (to measure another model), else the shipped one; loaded once per path."""
    return _load(path or Path(os.environ.get("VISION_DETECTOR_MODEL") or MODEL_PATH))


@cache
def _load(path: Path) -> IndexDetector:
    return IndexDetector(path)
