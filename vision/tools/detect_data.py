"""Corpus of the index detector (``vision.detector``): table scenes drawn by ``synth.table_image``
with index labels (``indices=True``), reduced as the detector reduces them.

Each scene is drawn with a deck design of its own: half ``random_style`` (a random design, every
card drawn afresh), half ``design_style`` with a random index layout of ``synth.INDEX_LAYOUTS`` (or
the generator's own), Finnish or not.  Index fonts are the training fonts of ``cnn_data.split_fonts``
(every fifth family held out); the held-out families draw the validation scenes.  The faces that
``heldout --unseen`` reads (``heldout.UNSEEN_FACES``: DejaVu, italics) are none of
``glyphs.font_files``, so never drawn here; and the designs are numbered from 1,000,000, apart from
heldout's (2,000-3,500) and the diagnosis scenes' (7,000-7,500).

A scene's labels are one row per printed index: centre x, y and the card's "down" (dx, dy) in the
reduced scene's pixels, the share of the index covered, the card's height (reduced px), and the
index centre's place on its card (fractions of width and height from the card's own top-left).

Only our own cards are rendered; no card artwork from anywhere else.  Used only to train and
measure; never at run time.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from vision.detector import reduce

from .cnn_data import family, split_fonts
from .synth import INDEX_LAYOUTS, CardStyle, design_style, random_style, table_image

LABEL_COLUMNS = ("x", "y", "dx", "dy", "covered", "card_h", "u", "t")
HEIGHTS = (720, 720, 720, 720, 540, 1080)  # scene heights drawn (16:9), reduced to the detector's input


def scene(seed: int, index: int, fonts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Scene ``index`` of corpus ``seed`` drawn with ``fonts``: the reduced scene (h, w) uint8 and its
    labels (n, len(LABEL_COLUMNS)) float32."""
    rng = np.random.default_rng([seed, index])
    style, height = scene_style(rng, fonts)
    img, label = table_image(rng, style=style, width=height * 16 // 9, height=height, indices=True)
    small, sx, sy = reduce(img)
    rows = []
    for card in label["cards"]:
        for ix in card["indices"]:
            d = np.array(ix["down"]) * [sx, sy]
            d /= np.linalg.norm(d) + 1e-12
            rows.append([ix["centre"][0] * sx, ix["centre"][1] * sy, d[0], d[1], ix["covered"],
                         card["height_px"] * sy, ix["corner"][0], ix["corner"][1]])  # fmt: skip
    return small, np.array(rows, np.float32).reshape(-1, len(LABEL_COLUMNS))


def scene_style(rng: np.random.Generator, fonts: list[str]) -> tuple[CardStyle, int]:
    """A corpus scene's deck design (drawn with ``fonts``) and picture height, as ``scene`` draws them."""
    font = fonts[int(rng.integers(len(fonts)))]
    allowed = {family(p) for p in fonts}
    if rng.random() < 0.5:
        style = random_style(rng)
        suit_font = style.suit_font if style.suit_font and family(style.suit_font) in allowed | {"NotoSansSymbols"} else None
        style = replace(style, font=font, suit_font=suit_font)
    else:
        layouts = (*INDEX_LAYOUTS, None)
        layout = layouts[int(rng.integers(len(layouts)))]
        style = design_style(1_000_000 + int(rng.integers(1_000_000)), font, finnish=bool(rng.random() < 0.5), index=layout)
        if style.suit_font and family(style.suit_font) not in allowed | {"NotoSansSymbols"}:
            style = replace(style, suit_font=None)
    return style, HEIGHTS[int(rng.integers(len(HEIGHTS)))]


def chunk(seed: int, n: int, held_out: bool, cache: Path | None,
          log: object = None) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """``n`` scenes of corpus ``seed`` (training or held-out fonts), cached as
    ``cache/{train|held}_{seed}_{n}.npz``."""
    name = f"{'held' if held_out else 'train'}_{seed}_{n}.npz"
    if cache is not None and (cache / name).is_file():
        with np.load(cache / name, allow_pickle=False) as d:
            shapes, counts = d["shapes"], d["counts"]
            flat, labels = d["scenes"], d["labels"]
        scenes, rows, at, lat = [], [], 0, 0
        for (h, w), c in zip(shapes.tolist(), counts.tolist(), strict=True):
            scenes.append(flat[at : at + h * w].reshape(h, w))
            rows.append(labels[lat : lat + c])
            at, lat = at + h * w, lat + c
        return scenes, rows
    train_fonts, held_fonts = split_fonts()
    fonts = held_fonts if held_out else train_fonts
    scenes, rows = [], []
    for i in range(n):
        s, r = scene(seed, i, fonts)
        scenes.append(s)
        rows.append(r)
        if callable(log) and (i + 1) % 50 == 0:
            log(f"  {name}: {i + 1}/{n} scenes")
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        np.savez(cache / name, scenes=np.concatenate([s.ravel() for s in scenes]),
                 shapes=np.array([s.shape for s in scenes]), counts=np.array([len(r) for r in rows]),
                 labels=np.concatenate(rows) if rows else np.zeros((0, len(LABEL_COLUMNS)), np.float32))  # fmt: skip
    return scenes, rows
