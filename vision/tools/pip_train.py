"""Train the pip-shape reader (``vision/pip_shape.py``): ``python -m vision train-pips``.

Pips come from generated table scenes (``synth.table_image``): every number card on top of its hand
whose face lies whole in the picture gives its pips' grey patches, cut by the run-time code
(``pips.pip_count`` on the card's true outline), labelled with the card's suit.  Designs are random
(``synth.random_style``) with index fonts of the training split; their suits are drawn shapes or
the glyphs of one half of the suit-font families, the other half kept for validation, so the
validation figures are on suit shapes the reader never saw.  Two small networks (256 → 24 → 1, ReLU),
one per colour, trained by full-batch Adam on the logistic loss in numpy; written with the inputs'
mean and spread.  Reproducible from the seeds.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from vision.config import RecognizerConfig
from vision.model import load_model
from vision.pip_shape import MODEL_PATH, PATCH
from vision.pips import pip_count
from vision.tools.cnn_data import family
from vision.tools.glyphs import suit_font_files
from vision.tools.synth import random_style, table_image

HIDDEN = 24
SECOND = {"S": 0.0, "C": 1.0, "H": 0.0, "D": 1.0}  # the pair's second suit is the one the log-odds are of


def split_suit_fonts() -> tuple[list[str], list[str]]:
    """(training, validation) suit fonts: every other family (sorted) kept for validation."""
    fonts = suit_font_files()
    fams = sorted({family(p) for p in fonts})
    held = {f for i, f in enumerate(fams) if i % 2 == 1}
    return [p for p in fonts if family(p) not in held], [p for p in fonts if family(p) in held]


def harvest(seed: int, scenes: int, suit_fonts: list[str]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Pip patches and labels (1 = the pair's second suit) by colour, from ``scenes`` generated scenes."""
    rng = np.random.default_rng([seed, 31337])
    config = RecognizerConfig()
    model = load_model()
    out: dict[str, tuple[list[np.ndarray], list[float]]] = {"black": ([], []), "red": ([], [])}
    for _ in range(scenes):
        style = random_style(rng)
        pick = int(rng.integers(len(suit_fonts) + 2))  # drawn suits twice as often as any one font
        style = replace(style, suit_font=suit_fonts[pick] if pick < len(suit_fonts) else None,
                        suit_seed=int(rng.integers(1 << 30)) if rng.random() < 0.5 else None)
        img, label = table_image(rng, style=style)
        h, w = img.shape[:2]
        for card in label["cards"]:
            code = card["code"]
            quad = np.asarray(card["corners"], np.float32)
            if (not card["top_of_stack"] or code == "JK" or code[0] in "JQK" or quad[:, 0].min() < 0
                    or quad[:, 1].min() < 0 or quad[:, 0].max() > w - 1 or quad[:, 1].max() > h - 1):
                continue
            pips = pip_count(img, quad, model, config)
            if pips is None or (pips.red != (code[1] in "HD")):
                continue
            key = "red" if pips.red else "black"
            for patch in pips.shape_patches:
                out[key][0].append(patch.reshape(-1))
                out[key][1].append(SECOND[code[1]])
    return {k: (np.array(x, np.float32).reshape(-1, PATCH * PATCH), np.array(y, np.float32)) for k, (x, y) in out.items()}


def fit(x: np.ndarray, y: np.ndarray, seed: int, steps: int = 3000, lr: float = 3e-3,
        decay: float = 1e-4) -> dict[str, np.ndarray]:
    """A 256 → ``HIDDEN`` → 1 network by full-batch Adam on the logistic loss (L2 ``decay``)."""
    rng = np.random.default_rng(seed)
    mean, std = x.mean(axis=0), x.std(axis=0) + 0.05
    xs = (x - mean) / std
    params = {"w1": rng.normal(0, np.sqrt(2 / xs.shape[1]), (xs.shape[1], HIDDEN)).astype(np.float32),
              "b1": np.zeros(HIDDEN, np.float32),
              "w2": rng.normal(0, np.sqrt(1 / HIDDEN), (HIDDEN, 1)).astype(np.float32),
              "b2": np.zeros(1, np.float32)}
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(p) for k, p in params.items()}
    for t in range(1, steps + 1):
        pre = xs @ params["w1"] + params["b1"]
        hid = np.maximum(pre, 0)
        z = (hid @ params["w2"] + params["b2"]).reshape(-1)
        g = (1 / (1 + np.exp(-z)) - y) / len(y)
        grads = {"w2": hid.T @ g[:, None] + decay * params["w2"], "b2": np.array([g.sum()], np.float32)}
        dh = (g[:, None] @ params["w2"].T) * (pre > 0)
        grads["w1"] = xs.T @ dh + decay * params["w1"]
        grads["b1"] = dh.sum(axis=0)
        for k in params:
            m[k] = 0.9 * m[k] + 0.1 * grads[k]
            v[k] = 0.999 * v[k] + 0.001 * grads[k] ** 2
            step = lr * (m[k] / (1 - 0.9 ** t)) / (np.sqrt(v[k] / (1 - 0.999 ** t)) + 1e-8)
            params[k] = (params[k] - step).astype(np.float32)
    return {"mean": mean.astype(np.float32), "std": std.astype(np.float32), **params}


def log_odds(params: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    xs = (x - params["mean"]) / params["std"]
    hid = np.maximum(xs @ params["w1"] + params["b1"], 0)
    out: np.ndarray = (hid @ params["w2"] + params["b2"]).reshape(-1)
    return out


TRAIN_CHUNKS = ((11, 600), (12, 600), (14, 250))  # (seed, scenes) harvested with the training suit fonts
VALIDATION_CHUNKS = ((13, 250),)  # ... and with the validation suit fonts


def chunk(seed: int, scenes: int, split: str, cache: Path | None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """One harvest (``harvest``) of the ``split`` ("train" or "validation") suit fonts, kept in ``cache``."""
    path = cache / f"pips_{split}_{seed}_{scenes}.npz" if cache is not None else None
    if path is not None and path.is_file():
        with np.load(path) as d:
            return {"black": (d["bx"], d["by"]), "red": (d["rx"], d["ry"])}
    train_fonts, val_fonts = split_suit_fonts()
    data = harvest(seed, scenes, train_fonts if split == "train" else val_fonts)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, bx=data["black"][0], by=data["black"][1], rx=data["red"][0], ry=data["red"][1])
    return data


def train(out: Path = MODEL_PATH, cache: Path | None = None, log: Any = print) -> dict[str, Any]:
    """Harvest (``TRAIN_CHUNKS``, ``VALIDATION_CHUNKS``), fit both colours, report validation accuracy on
    the held-out suit fonts (all pips, and those read with log-odds of 4 or more), write ``out``."""
    parts = [chunk(seed, n, "train", cache) for seed, n in TRAIN_CHUNKS]
    vals = [chunk(seed, n, "validation", cache) for seed, n in VALIDATION_CHUNKS]
    weights: dict[str, Any] = {}
    report: dict[str, Any] = {}
    for key in ("black", "red"):
        x, y = (np.concatenate([p[key][i] for p in parts]) for i in (0, 1))
        vx, vy = (np.concatenate([p[key][i] for p in vals]) for i in (0, 1))
        params = fit(x, y, seed=7)
        weights.update({f"{key}_{k}": v for k, v in params.items()})
        z = log_odds(params, vx)
        right = (z > 0) == (vy > 0.5)
        sure = np.abs(z) >= 4
        report[key] = {"train": len(y), "train_acc": round(float(((log_odds(params, x) > 0) == (y > 0.5)).mean()), 4),
                       "validation": len(vy), "validation_acc": round(float(right.mean()), 4),
                       "validation_odds_4": round(float(sure.mean()), 4),
                       "validation_odds_4_acc": round(float(right[sure].mean()), 4) if sure.any() else None}
        log(f"{key}: {report[key]}")
    np.savez_compressed(out, **weights)
    return report


if __name__ == "__main__":
    train(cache=Path(sys.argv[1]) if len(sys.argv) > 1 else None)
