"""``python -m vision train-detector``: reproduce the index detector (``vision/models/index_detector.onnx``).

Needs the optional ``train`` extra (torch, onnx; CPU).  The corpus (``detect_data``) is drawn with
the training fonts; scenes of the held-out font families measure the peaks (recall and precision of
visible index centres within ``MATCH_PX`` reduced pixels) and choose the peak threshold stored with
the model.

The network (``_net``): a stem convolution at stride 2, depthwise-separable blocks to stride 4,
four more with dilations 1, 2, 4 and 1 (a receptive field of about 70 input pixels, a large card's
corner and its edges), and 1 x 1 heads: the index-centre heat (a logit; CenterNet's focal loss on
Gaussian targets), the card's down (cos, sin), the centre's offset in its cell, the log card height
and the index centre's place on its card (L1, at the cells next to a visible index's centre).
Trained on random crops of the reduced scenes (fully convolutional: the crops' size does not matter
at run time).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from vision.detector import MODEL_PATH, OUTPUTS, STRIDE

from .detect_data import chunk

TRAIN_SEEDS = tuple(range(1, 9))
PER_CHUNK = 200
HELD_SEED, HELD_N = 900, 60
CROP_H, CROP_W = 160, 224
SIGMA = 1.0  # the heat target's spread, in output cells
VISIBLE = 0.2  # an index less covered than this is visible (a target); up to IGNORE, neither
IGNORE = 0.6
MATCH_PX = 6.0
WIDTH = 32  # channels of the stride-4 trunk  # a peak this near (reduced px) a visible index's centre found it


def _net() -> Any:
    import torch
    from torch import nn

    def sep(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> list[nn.Module]:
        return [nn.Conv2d(cin, cin, 3, stride=stride, padding=dilation, dilation=dilation, groups=cin, bias=False),
                nn.BatchNorm2d(cin), nn.ReLU(inplace=True),
                nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]  # fmt: skip

    class Residual(nn.Module):
        def __init__(self, ch: int, dilation: int) -> None:
            super().__init__()
            self.body = nn.Sequential(*sep(ch, ch, 1, dilation))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            out: torch.Tensor = x + self.body(x)
            return out

    class DetectorNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.trunk = nn.Sequential(
                nn.Conv2d(1, 16, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
                *sep(16, 24),
                *sep(24, WIDTH, stride=2),
                Residual(WIDTH, 1), Residual(WIDTH, 2), Residual(WIDTH, 4), Residual(WIDTH, 1),
            )  # fmt: skip
            self.heat = nn.Conv2d(WIDTH, 1, 1)
            self.down = nn.Conv2d(WIDTH, 2, 1)
            self.offset = nn.Conv2d(WIDTH, 2, 1)
            self.size = nn.Conv2d(WIDTH, 1, 1)
            self.corner = nn.Conv2d(WIDTH, 2, 1)
            with torch.no_grad():
                assert self.heat.bias is not None
                self.heat.bias.fill_(-4.0)  # CenterNet's start: few centres

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
            h = self.trunk(x)
            return self.heat(h), self.down(h), self.offset(h), self.size(h), self.corner(h)

    return DetectorNet()


def targets(rows: np.ndarray, oh: int, ow: int, x0: float = 0.0, y0: float = 0.0) -> dict[str, np.ndarray]:
    """Training targets of one crop (its top-left at ``x0``, ``y0`` of the reduced scene; ``oh`` x
    ``ow`` output cells) from a scene's label rows: the heat (1, oh, ow), where it counts (weights),
    the exact centre cells (``peak``), and the regression targets with their mask."""
    heat = np.zeros((oh, ow), np.float32)
    weight = np.ones((oh, ow), np.float32)
    peak = np.zeros((oh, ow), np.float32)
    reg = np.zeros((7, oh, ow), np.float32)  # cos, sin, offset x, y, log size, corner u, t
    mask = np.zeros((oh, ow), np.float32)
    yy, xx = np.mgrid[0:oh, 0:ow].astype(np.float32)
    for x, y, dx, dy, covered, card_h, u, t in rows.tolist():
        gx, gy = (x - x0) / STRIDE - 0.5, (y - y0) / STRIDE - 0.5  # in cells (a cell's centre at 0.5)
        if not (-3 <= gx < ow + 3 and -3 <= gy < oh + 3):
            continue
        near = (xx - gx) ** 2 + (yy - gy) ** 2
        if covered >= VISIBLE:
            if covered < IGNORE:
                weight[near <= 4.0] = 0.0
            continue
        heat = np.maximum(heat, np.exp(-near / (2 * SIGMA**2)))
        cx, cy = int(round(gx)), int(round(gy))
        if 0 <= cx < ow and 0 <= cy < oh:
            peak[cy, cx] = 1.0
        for j in range(max(cy - 1, 0), min(cy + 2, oh)):
            for i in range(max(cx - 1, 0), min(cx + 2, ow)):
                reg[:, j, i] = (dx, dy, gx - i, gy - j, math.log(max(card_h, 5.0) / 50.0), u, t)
                mask[j, i] = 1.0
    heat[peak > 0] = 1.0
    return {"heat": heat[None], "weight": weight[None], "peak": peak[None], "reg": reg, "mask": mask[None]}


def _batch(scenes: list[np.ndarray], rows: list[np.ndarray], rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """``n`` random crops (mostly around an index) with their targets, brightness and contrast jittered."""
    xs: list[np.ndarray] = []
    ts: list[dict[str, np.ndarray]] = []
    oh, ow = CROP_H // STRIDE, CROP_W // STRIDE
    for _ in range(n):
        k = int(rng.integers(len(scenes)))
        s, r = scenes[k], rows[k]
        h, w = s.shape
        if len(r) and rng.random() < 0.7:
            cx, cy = r[int(rng.integers(len(r))), :2] + rng.uniform(-0.4, 0.4, 2) * [CROP_W, CROP_H]
            x0, y0 = int(np.clip(cx - CROP_W / 2, 0, w - CROP_W)), int(np.clip(cy - CROP_H / 2, 0, h - CROP_H))
        else:
            x0, y0 = int(rng.integers(0, w - CROP_W + 1)), int(rng.integers(0, h - CROP_H + 1))
        x0, y0 = x0 // STRIDE * STRIDE, y0 // STRIDE * STRIDE
        crop = s[y0 : y0 + CROP_H, x0 : x0 + CROP_W].astype(np.float32)
        crop = np.clip(crop * rng.uniform(0.8, 1.15) + rng.uniform(-25, 15), 0, 255)
        xs.append(((crop / 255.0 - 0.5) / 0.25)[None])
        ts.append(targets(r, oh, ow, x0, y0))
    out = {key: np.stack([t[key] for t in ts]) for key in ts[0]}
    out["x"] = np.stack(xs).astype(np.float32)
    return out


def _loss(model: Any, b: dict[str, Any]) -> Any:
    import torch
    import torch.nn.functional as fn

    heat, down, offset, size, corner = model(b["x"])
    p = torch.sigmoid(heat).clamp(1e-4, 1 - 1e-4)
    pos = b["peak"]
    neg_w = (1 - b["heat"]) ** 4 * b["weight"] * (1 - pos)
    focal = -(pos * (1 - p) ** 2 * torch.log(p) + neg_w * p**2 * torch.log(1 - p)).sum() / pos.sum().clamp(min=1.0)
    m = b["mask"]
    n = m.sum().clamp(min=1.0)
    reg = b["reg"]
    l_down = (fn.l1_loss(down, reg[:, 0:2], reduction="none") * m).sum() / n
    l_off = (fn.l1_loss(offset, reg[:, 2:4], reduction="none") * m).sum() / n
    l_size = (fn.l1_loss(size, reg[:, 4:5], reduction="none") * m).sum() / n
    l_corner = (fn.l1_loss(corner, reg[:, 5:7], reduction="none") * m).sum() / n
    return focal + l_down + 0.5 * l_off + 0.5 * l_size + 2.0 * l_corner


def evaluate(model: Any, scenes: list[np.ndarray], rows: list[np.ndarray],
             thresholds: tuple[float, ...] = (0.2, 0.3, 0.4, 0.5, 0.6)) -> dict[str, Any]:
    """Peaks of the held-out scenes against their visible indices: recall and precision per threshold
    (a peak within ``MATCH_PX`` of a visible index's centre finds it; one near a partly covered one
    counts neither way), the median angle error of ``down`` (degrees) and card height error (share)."""
    import torch

    model.eval()
    found = {t: [0, 0, 0] for t in thresholds}  # true, false, visible indices
    angles: list[float] = []
    sizes: list[float] = []
    with torch.no_grad():
        for s, r in zip(scenes, rows, strict=True):
            x = torch.from_numpy(((s.astype(np.float32) / 255.0 - 0.5) / 0.25)[None, None])
            heat, down, offset, size, _ = (o[0].numpy() for o in model(x))
            p = 1 / (1 + np.exp(-heat[0]))
            import cv2

            local = cv2.dilate(p, np.ones((3, 3), np.uint8))
            vis = r[r[:, 4] < VISIBLE]
            part = r[(r[:, 4] >= VISIBLE) & (r[:, 4] < IGNORE)]
            for t in thresholds:
                ys, xs = np.nonzero((p >= local) & (p >= t))
                px = (xs + 0.5 + offset[0, ys, xs]) * STRIDE
                py = (ys + 0.5 + offset[1, ys, xs]) * STRIDE
                hit = np.zeros(len(vis), bool)
                for j in range(len(xs)):
                    d = np.hypot(vis[:, 0] - px[j], vis[:, 1] - py[j]) if len(vis) else np.zeros(0)
                    if len(d) and d.min() <= MATCH_PX:
                        k = int(np.argmin(d))
                        if not hit[k]:
                            hit[k] = True
                            found[t][0] += 1
                            if t == thresholds[1]:
                                a = math.degrees(math.atan2(down[1, ys[j], xs[j]], down[0, ys[j], xs[j]]) - math.atan2(vis[k, 3], vis[k, 2]))
                                angles.append(abs((a + 180) % 360 - 180))
                                sizes.append(abs(50 * math.exp(float(size[0, ys[j], xs[j]])) / vis[k, 5] - 1))
                        continue
                    dp = np.hypot(part[:, 0] - px[j], part[:, 1] - py[j]) if len(part) else np.zeros(0)
                    if not (len(dp) and dp.min() <= MATCH_PX):
                        found[t][1] += 1
                found[t][2] += len(vis)
    return {"per_threshold": {str(t): {"recall": v[0] / max(v[2], 1), "precision": v[0] / max(v[0] + v[1], 1)}
                              for t, v in found.items()},
            "angle_err_median_deg": float(np.median(angles)) if angles else None,
            "size_err_median": float(np.median(sizes)) if sizes else None}  # fmt: skip


def train_detector(out: Path = MODEL_PATH, *, cache: Path | None = None, minutes: float = 30.0, seed: int = 1,
                   max_lr: float = 4e-3, batch: int = 16, chunks: int = len(TRAIN_SEEDS), threads: int = 1,
                   log: Callable[[str], None] = print) -> dict[str, Any]:
    """Draw (or load) the corpus, train for ``minutes`` of wall time (one-cycle schedule over the
    time budget), measure on held-out fonts, export ONNX to ``out`` with its threshold in ``out.json``."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    rng = np.random.default_rng(seed)
    t0 = time.time()
    scenes: list[np.ndarray] = []
    rows: list[np.ndarray] = []
    for s in TRAIN_SEEDS[:chunks]:
        part_scenes, part_rows = chunk(s, PER_CHUNK, False, cache, log=log)
        scenes += part_scenes
        rows += part_rows
    held = chunk(HELD_SEED, HELD_N, True, cache, log=log)
    log(f"corpus: {len(scenes)} training scenes, {sum(len(r) for r in rows)} indices; {len(held[0])} held-out ({time.time() - t0:.0f} s)")
    model = _net()
    opt = torch.optim.AdamW(model.parameters(), lr=max_lr, weight_decay=1e-4)
    start = time.time()
    budget = 60 * minutes
    step = 0
    running = 0.0
    while True:
        frac = (time.time() - start) / budget
        if frac >= 1.0:
            break
        lr = max_lr * (frac / 0.05 if frac < 0.05 else 0.5 * (1 + math.cos(math.pi * (frac - 0.05) / 0.95)))
        for group in opt.param_groups:
            group["lr"] = lr
        model.train()
        loss = _loss(model, {k: torch.from_numpy(v) for k, v in _batch(scenes, rows, rng, batch).items()})
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        running = 0.98 * running + 0.02 * float(loss.detach()) if step > 1 else float(loss.detach())
        if step % 100 == 0:
            log(f"  step {step}: loss {running:.3f}, lr {lr:.5f} ({time.time() - t0:.0f} s)")
    report = evaluate(model, *held)
    best = max(report["per_threshold"].items(), key=lambda kv: 2 * kv[1]["recall"] * kv[1]["precision"]
               / max(kv[1]["recall"] + kv[1]["precision"], 1e-9))  # fmt: skip
    report.update(steps=step, seconds=round(time.time() - t0), threshold=float(best[0]), seed=seed, minutes=minutes)
    log(json.dumps(report))
    export(model, out, report)
    return report


def export(model: Any, out: Path, report: dict[str, Any]) -> None:
    """The network as ONNX (input (1, 1, h, w), any h and w multiples of 8; outputs ``OUTPUTS``) with
    its peak threshold and held-out measures in ``out.json``."""
    import torch

    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 1, 360, 640)
    torch.onnx.export(model, (dummy,), str(out), input_names=["scene"], output_names=list(OUTPUTS),
                      dynamic_axes={"scene": {2: "h", 3: "w"}, **{o: {2: "oh", 3: "ow"} for o in OUTPUTS}},
                      opset_version=13, dynamo=False)  # fmt: skip
    meta = {"threshold": report.get("threshold", 0.3), "outputs": list(OUTPUTS), "stride": STRIDE, "held_out": report}
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
