"""The corner CNN's scene corpus: index corners as the peak pass (``scene._peak_cards``) reads them.

In a table scene the CNN reads a corner laid out from a peak of the learned index detector: the
card's outline is made from the peak's centre, its "down" and the scene's card size, so the index
sits a little off where a card's own outline puts it, on cards 85-210 px tall, blurred and
compressed, beside a neighbour's index.  The first corpus (``cnn_data``) draws corners at their
own outline; this one draws table scenes as the detector's corpus does (``detect_data.scene_style``:
training fonts only, designs numbered from 1,000,000), runs the real detector and the real layout
(``scene.peak_layouts``) and crops each layout as the reader does (``read.corner_at``), half of
them moved as the reader's second looks move them (``scene._shifted``, up to 3% of the card).

Labels from the scene's own truth (``synth.table_image(indices=True)``): a layout whose peak lies at
a printed index (within 6% of the card's height) with the card's "down" the index's is that card's
rank and suit where the index is visible (less than a fifth covered); at an index turned the other
way, or at no index within 20% of the card's height, it is "no index".  Layouts at a covered index
(or nearly at one), and at Jokers, are left out: their truth is not a corner's.

Only our own cards are rendered; used only to train and measure, never at run time.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from vision.cnn import KINDS, NONE, SUITS
from vision.config import RecognizerConfig
from vision.read import corner_at
from vision.scene import _shifted, peak_layouts

from .cnn_data import italic_fonts, split_fonts
from .detect_data import scene_style
from .synth import table_image

SCENE_SEED0 = 5000  # ``train-cnn --scene-chunks N``: scene corpus seeds 5000 .. 5000 + N - 1
ITALIC_SCENE_SEED0 = 6000  # ``train-cnn --italic-scene-chunks N``: seeds 6000 .. 6000 + N - 1, decks of italic faces
SCENES_PER_CHUNK = 150
AT, AWAY = 0.06, 0.2  # a peak at an index: within this share of the card's height; at none: beyond this one
WEAK_PEAK = 0.1  # the detector's peaks from these odds are laid out (the reader lays out from ``detector_peak``)
FACE_LAYOUTS = 3  # and this many cards laid out on a scene's card faces away from their indices: no index


def scene_corners(seed: int, index: int, fonts: list[str], config: RecognizerConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scene ``index`` of corpus ``seed``: its labelled layouts' corners (BGR uint8 (n, h, w, 3) as
    ``corner_at`` crops them), kinds (n,) and suits (n,; -1 where no rank)."""
    rng = np.random.default_rng([seed, index])
    style, height = scene_style(rng, fonts)
    img, label = table_image(rng, style=style, width=height * 16 // 9, height=height, indices=True)
    truth = [(card, ix) for card in label["cards"] for ix in card["indices"]]
    sizes = [c["height_px"] for c in label["cards"]]
    card_h = float(np.median(sizes)) * float(rng.uniform(0.9, 1.1))
    xs, kinds, suits = [], [], []
    # Weak peaks too (the detector's odds from ``WEAK_PEAK``): where it half sees an index in court
    # art or pips, the CNN must see none.
    for hyp in peak_layouts(img, replace(config, detector_peak=WEAK_PEAK), card_h):
        q = hyp.quad.astype(np.float64)
        down = q[3] - q[0]
        size = float(np.linalg.norm(down))
        down /= size + 1e-12
        near = min(((float(np.hypot(ix["centre"][0] - hyp.anchor[0], ix["centre"][1] - hyp.anchor[1])) / card["height_px"],
                     card, ix) for card, ix in truth), key=lambda r: r[0], default=None)  # fmt: skip
        if near is not None and near[0] <= AT:
            _, card, ix = near
            if float(np.dot(down, ix["down"])) < 0:
                kind, suit = NONE, -1  # the index turned the other way: no index read this way
            elif ix["covered"] > 0.1 or card["code"] == "JK":
                continue
            else:
                kind, suit = KINDS.index(card["code"][0]), SUITS.index(card["code"][1])
        elif near is None or near[0] > AWAY:
            kind, suit = NONE, -1
        else:
            continue
        quad = hyp.quad
        if rng.random() < 0.5:
            quad = _shifted(quad, float(rng.uniform(-0.03, 0.03)), float(rng.uniform(-0.03, 0.03)))
        xs.append(corner_at(img, quad, config))
        kinds.append(kind)
        suits.append(suit)
    for quad, anchor in _on_faces(label["cards"], card_h, rng):
        near = min((float(np.hypot(ix["centre"][0] - anchor[0], ix["centre"][1] - anchor[1])) / card["height_px"]
                    for card, ix in truth), default=None)  # fmt: skip
        if near is None or near > AWAY:
            xs.append(corner_at(img, quad, config))
            kinds.append(NONE)
            suits.append(-1)
    if not xs:
        w, h = config.card_width, config.card_height
        return np.zeros((0, int(config.corner_h * h), int(config.corner_w * w), 3), np.uint8), np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.stack(xs), np.array(kinds, np.int64), np.array(suits, np.int64)


def _on_faces(cards: list[dict[str, Any]], card_h: float, rng: np.random.Generator) -> list[tuple[np.ndarray, tuple[float, float]]]:
    """``FACE_LAYOUTS`` cards laid out as from a peak on the faces of the scene's ``cards`` away from
    their corners (court art, pips, a card's edge), turned any way: (quad, where its index would be)."""
    out = []
    for _ in range(FACE_LAYOUTS):
        q = np.asarray(cards[int(rng.integers(len(cards)))]["corners"], np.float64)
        u, t = rng.uniform(0.2, 0.8, 2)
        centre = q[0] + u * (q[1] - q[0]) + t * (q[3] - q[0])
        a = math.atan2(*(q[3] - q[0])[::-1]) + rng.integers(4) * math.pi / 2 + rng.normal(0, 0.1)
        down = np.array([math.cos(a), math.sin(a)])
        right = np.array([down[1], -down[0]])
        hh, ww = card_h, card_h * 63 / 88
        corner = centre - 0.12 * ww * right - 0.14 * hh * down
        quad = np.array([corner, corner + ww * right, corner + ww * right + hh * down, corner + hh * down], np.float32)
        out.append((quad, (float(centre[0]), float(centre[1]))))
    return out


def chunk(seed: int, cache: Path | None, n: int = SCENES_PER_CHUNK, log: object = None,
          italic: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The corners of ``n`` scenes of corpus ``seed`` (training fonts; with ``italic``, decks of the
    italic faces ``cnn_data.italic_fonts``), cached as ``cache/scene2_{seed}_{n}.npz`` (``scene2i_...``)."""
    name = f"scene2{'i' if italic else ''}_{seed}_{n}.npz"
    if cache is not None and (cache / name).is_file():
        with np.load(cache / name) as d:
            return d["x"], d["k"], d["s"]
    fonts = italic_fonts() if italic else split_fonts()[0]
    config = RecognizerConfig()
    parts = [scene_corners(seed, i, fonts, config) for i in range(n)]
    x = np.concatenate([p[0] for p in parts])
    k = np.concatenate([p[1] for p in parts])
    s = np.concatenate([p[2] for p in parts])
    if callable(log):
        log(f"  scene chunk {seed}: {len(k)} corners from {n} scenes, {(k != NONE).sum()} of them indices")
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        np.savez(cache / name, x=x, k=k, s=s)
    return x, k, s
