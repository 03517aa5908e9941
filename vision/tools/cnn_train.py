"""``python -m vision train-cnn``: reproduce the corner CNN (``vision/models/corner_cnn.onnx``).

Needs the optional ``train`` extra (torch, onnx; CPU).  The corpus (``cnn_data``) is drawn with the
training fonts; the held-out font families (``cnn_data.split_fonts``) give two more sets: one fits
the temperatures, the other measures.  Temperatures: the one of least log-loss, raised (if need be)
until reads of confidence 0.9 or more are at least 99.9% right on the calibration set.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from vision.cnn import INPUT_H, INPUT_W, KINDS, MODEL_PATH, prepare

from .cnn_data import ITALIC, PLAIN, WIDE, Variety, corpus, italic_fonts, split_fonts
from .cnn_scene_data import ITALIC_SCENE_SEED0, SCENE_SEED0
from .cnn_scene_data import chunk as scene_chunk

TRAIN_SEEDS = (100, 101, 200, 201)
LARGE_SEED0 = 1000  # ``--chunks N``: the training chunks are seeds 1000 .. 1000 + N - 1 instead
WIDE_SEED0 = 3000  # ``--wide-chunks N``: and seeds 3000 .. 3000 + N - 1, drawn more widely (``cnn_data.WIDE``)
ITALIC_SEED0 = 7000  # ``--italic-chunks N``: and seeds 7000 .. 7000 + N - 1, drawn with italic faces (``cnn_data.ITALIC``)
PER_CHUNK = 5000
CALIBRATION_SEED, TEST_SEED = 901, 902
HELD_PER_CHUNK = 3000
EPOCHS = 4
SURE = 0.9


def chunk(seed: int, n: int, held_out: bool, cache: Path | None, variety: Variety = PLAIN) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Corpus chunk ``seed`` (BGR corners, kinds, suits), cached as ``cache/{train|held}_{seed}.npz``
    (``..._wide.npz`` for the ``WIDE`` variety, ``..._italic.npz`` for ``ITALIC``)."""
    suffix = {WIDE: "_wide", ITALIC: "_italic"}.get(variety, "")
    name = f"{'held' if held_out else 'train'}_{seed}{suffix}.npz"
    if cache is not None and (cache / name).is_file():
        with np.load(cache / name) as d:
            return d["x"], d["k"], d["s"]
    train_fonts, held_fonts = split_fonts()
    fonts = held_fonts if held_out else italic_fonts() if variety.italics else train_fonts
    x, k, s = corpus(n, seed, fonts, variety)
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        np.savez(cache / name, x=x, k=k, s=s)
    return x, k, s


WIDTHS = (24, 48, 96)  # channels of the three stages (session 28; the network before was 16, 32, 64)


def _net(widths: tuple[int, int, int] = WIDTHS) -> Any:
    import torch
    from torch import nn

    class CornerNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()

            def block(cin: int, cout: int) -> list[nn.Module]:
                return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

            a, b, c = widths
            self.trunk = nn.Sequential(
                *block(2, a), nn.MaxPool2d(2),
                *block(a, b), *block(b, b), nn.MaxPool2d(2),
                *block(b, c), *block(c, c), nn.MaxPool2d(2),
                nn.Flatten(), nn.Dropout(0.3),
                nn.Linear(c * (INPUT_H // 8) * (INPUT_W // 8), 128), nn.ReLU(inplace=True),
            )  # fmt: skip
            self.kind = nn.Linear(128, len(KINDS))
            self.suit = nn.Linear(128, 4)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = self.trunk(x)
            return self.kind(h), self.suit(h)

    return CornerNet()


def logits(model: Any, x: np.ndarray, batch: int = 512) -> tuple[np.ndarray, np.ndarray]:
    import torch

    model.eval()
    ks, ss = [], []
    with torch.no_grad():
        for i in range(0, len(x), batch):
            k, s = model(torch.from_numpy(x[i : i + batch]))
            ks.append(k.numpy())
            ss.append(s.numpy())
    return np.concatenate(ks), np.concatenate(ss)


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def corner_outcome(pk: np.ndarray, ps: np.ndarray, kinds: np.ndarray, suits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per corner: (right, confidence) of the read (a rank with its suit, or the kind)."""
    bk, bs = pk.argmax(axis=1), ps.argmax(axis=1)
    is_rank = bk < 13
    conf = pk.max(axis=1) * np.where(is_rank, ps.max(axis=1), 1.0)
    right = (bk == kinds) & (~is_rank | (bs == suits))
    return right, conf


def calibrate(zk: np.ndarray, zs: np.ndarray, kinds: np.ndarray, suits: np.ndarray) -> tuple[float, float]:
    """Temperatures (kind, suit): least log-loss, then raised together until confident reads
    (>= 0.9) are 99.9% right."""
    grid = np.exp(np.linspace(np.log(0.3), np.log(8.0), 120))

    def nll(z: np.ndarray, y: np.ndarray, t: float) -> float:
        p = _softmax(z / t)
        return float(-np.log(p[np.arange(len(y)), y] + 1e-12).mean())

    tk = float(min(grid, key=lambda t: nll(zk, kinds, t)))
    has = suits >= 0
    ts = float(min(grid, key=lambda t: nll(zs[has], suits[has], t)))
    for f in np.linspace(1.0, 4.0, 61):
        right, conf = corner_outcome(_softmax(zk / (tk * f)), _softmax(zs / (ts * f)), kinds, suits)
        sure = conf >= SURE
        if (~right & sure).sum() <= 0.001 * max(sure.sum(), 1):
            return tk * float(f), ts * float(f)
    return tk * 4.0, ts * 4.0


class HeldOut(NamedTuple):
    """The held-out-font corners: calibration and test chunks (corners, kinds, suits), and their
    corners prepared as the network's input."""

    cal: tuple[np.ndarray, np.ndarray, np.ndarray]
    test: tuple[np.ndarray, np.ndarray, np.ndarray]
    xc: np.ndarray
    xt: np.ndarray


def held_out(cache: Path | None) -> HeldOut:
    """The calibration (``CALIBRATION_SEED``) and test (``TEST_SEED``) chunks of held-out fonts."""
    cal = chunk(CALIBRATION_SEED, HELD_PER_CHUNK, True, cache)
    test = chunk(TEST_SEED, HELD_PER_CHUNK, True, cache)
    return HeldOut(cal, test, prepare(list(cal[0])), prepare(list(test[0])))


def calibrated(run: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], held: HeldOut) -> dict[str, Any]:
    """A network's temperatures (``calibrate`` on the calibration corners) and its measures on the
    test corners at those temperatures; ``run`` maps prepared corners to (kind, suit) logits."""
    zk, zs = run(held.xc)
    tk, ts = calibrate(zk, zs, held.cal[1], held.cal[2])
    zk_t, zs_t = run(held.xt)
    right, conf = corner_outcome(_softmax(zk_t / tk), _softmax(zs_t / ts), held.test[1], held.test[2])
    sure = conf >= SURE
    return {"held_out_corners": int(len(right)), "accuracy": float(right.mean()),
            "sure_share": float(sure.mean()), "wrong_sure_rate": float((~right & sure).mean()),
            "wrong_among_sure": float((~right & sure).sum() / max(int(sure.sum()), 1)),
            "t_kind": tk, "t_suit": ts}  # fmt: skip


def from_export(onnx_path: Path, x: np.ndarray) -> Any:
    """The network of an exported corner CNN (``onnx_path``; its stage widths those of its
    convolutions), in eval mode.  The export folded the batch norms into the convolutions: the
    convolutions take the folded weights, each batch norm the mean and spread of its convolution's
    output on ``x``, so the network computes what the export does."""
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(str(onnx_path)).graph
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    outs = [int(inits[n.input[1]].shape[0]) for n in convs]
    if len(outs) != 5:
        raise ValueError(f"{onnx_path}: not a corner network (expected 5 convolutions, found {len(outs)})")
    model = _net((outs[0], outs[1], outs[3]))
    model.eval()
    layers = list(model.trunk)
    conv_layers = [m for m in layers if isinstance(m, torch.nn.Conv2d)]
    with torch.no_grad():
        for node, conv in zip(convs, conv_layers, strict=True):
            conv.weight.copy_(torch.from_numpy(inits[node.input[1]]))
        fc = next(i for i, m in enumerate(layers) if isinstance(m, torch.nn.Linear))
        for name in (f"trunk.{fc}.weight", f"trunk.{fc}.bias", "kind.weight", "kind.bias", "suit.weight", "suit.bias"):
            model.get_parameter(name).copy_(torch.from_numpy(inits[name]))
        h = torch.from_numpy(x)
        for i, m in enumerate(layers):
            if isinstance(m, torch.nn.BatchNorm2d):
                bias = torch.from_numpy(inits[convs[[j for j, c in enumerate(conv_layers) if c is layers[i - 1]][0]].input[2]])
                mean, std = h.mean(dim=(0, 2, 3)), h.std(dim=(0, 2, 3)) + 1e-5
                assert m.running_mean is not None and m.running_var is not None
                m.running_mean.copy_(mean)
                m.running_var.copy_(std**2)
                m.weight.copy_(std)
                m.bias.copy_(mean + bias)
                h = h + bias[None, :, None, None]
            h = m(h) if not isinstance(m, torch.nn.BatchNorm2d) else h
            if isinstance(m, torch.nn.Flatten):
                break
    return model


def train_cnn(out: Path = MODEL_PATH, *, cache: Path | None = None, epochs: int = EPOCHS, seed: int = 1,
              minutes: float = 16.0, resume: Path | None = None, max_lr: float = 3e-3, chunks: int | None = None,
              threads: int = 2, wide_chunks: int = 0, scene_chunks: int = 0, scene_from: int | None = None,
              italic_chunks: int = 0, italic_scene_chunks: int = 0,
              log: Callable[[str], None] = print) -> dict[str, Any]:
    """Draw the corpus, train, calibrate on held-out fonts, export ONNX with its temperatures to
    ``out`` (and ``out.json``); returns the held-out measures.  ``chunks``: that many chunks of
    ``PER_CHUNK`` training corners (seeds from ``LARGE_SEED0``) instead of ``TRAIN_SEEDS``;
    ``wide_chunks``: that many more, drawn more widely (``cnn_data.WIDE``: slanted ranks, smaller
    indices, more suits beside the rank; seeds from ``WIDE_SEED0``); ``scene_chunks``: that many more
    of corners laid out from the index detector's peaks in table scenes, as the scene reader reads
    them (``cnn_scene_data``; seeds from ``scene_from``, by default ``SCENE_SEED0``); ``italic_chunks``
    and ``italic_scene_chunks``: that many more of each kind drawn with italic faces
    (``cnn_data.italic_fonts``; seeds from ``ITALIC_SEED0`` and ``cnn_scene_data.ITALIC_SCENE_SEED0``)."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    t0 = time.time()
    first = SCENE_SEED0 if scene_from is None else scene_from
    seeds = TRAIN_SEEDS if chunks is None else tuple(range(LARGE_SEED0, LARGE_SEED0 + chunks))
    parts = [chunk(s, PER_CHUNK, False, cache) for s in seeds]
    parts += [chunk(s, PER_CHUNK, False, cache, WIDE) for s in range(WIDE_SEED0, WIDE_SEED0 + wide_chunks)]
    parts += [scene_chunk(s, cache, log=log) for s in range(first, first + scene_chunks)]
    parts += [chunk(s, PER_CHUNK, False, cache, ITALIC) for s in range(ITALIC_SEED0, ITALIC_SEED0 + italic_chunks)]
    parts += [scene_chunk(s, cache, log=log, italic=True)
              for s in range(ITALIC_SCENE_SEED0, ITALIC_SCENE_SEED0 + italic_scene_chunks)]
    # Each part's crops are prepared and let go before the next (the crops of 300,000 corners are 5 GB).
    k = np.concatenate([p[1] for p in parts])
    s = np.concatenate([p[2] for p in parts])
    xs = []
    while parts:
        xs.append(prepare(list(parts.pop(0)[0])))
    x = np.concatenate(xs)
    del xs
    held = held_out(cache)
    cal, xc = held.cal, held.xc
    log(f"corpus: {len(k)} training corners, {len(cal[1])} + {len(held.test[1])} held-out ({time.time() - t0:.0f} s)")
    model = _net() if resume is None else from_export(resume, x[:512])
    opt = torch.optim.AdamW(model.parameters(), lr=max_lr, weight_decay=1e-4)
    batch = 128
    steps = epochs * (len(k) // batch)
    xt_, kt_, st_ = torch.from_numpy(x), torch.from_numpy(k), torch.from_numpy(s)
    gen = torch.Generator().manual_seed(seed)
    ce = torch.nn.CrossEntropyLoss()
    ce_s = torch.nn.CrossEntropyLoss(ignore_index=-1)
    step = 0
    start = time.time()
    budget = 60 * minutes
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(k), generator=gen)
        total = 0.0
        for i in range(0, len(k) - batch + 1, batch):
            idx = order[i : i + batch]
            xb = xt_[idx]
            # Small shifts: the outline's fit is off by a pixel or two more often than drawn.
            dx, dy = int(torch.randint(-2, 3, (1,), generator=gen)), int(torch.randint(-2, 3, (1,), generator=gen))
            xb = torch.roll(xb, (dy, dx), dims=(2, 3))
            # One cycle: warm up, then cosine down, over the steps or the time budget, whichever ends
            # first (on a busy machine the budget binds, and the model then depends on the load).
            frac = max(step / steps, (time.time() - start) / budget)
            if frac >= 1.0:
                break
            lr = max_lr * (frac / 0.1 if frac < 0.1 else 0.5 * (1 + math.cos(math.pi * (frac - 0.1) / 0.9)))
            for group in opt.param_groups:
                group["lr"] = lr
            zk, zs = model(xb)
            loss = ce(zk, kt_[idx]) + ce_s(zs, st_[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            total += float(loss.detach()) * len(idx)
            if step % 50 == 0:
                log(f"  step {step}/{steps}: loss {float(loss.detach()):.3f}, lr {lr:.5f} ({time.time() - t0:.0f} s)")
        zk_, zs_ = logits(model, xc)
        right, _ = corner_outcome(_softmax(zk_), _softmax(zs_), cal[1], cal[2])
        log(f"epoch {epoch + 1}/{epochs}: loss {total / len(k):.4f}, held-out fonts {right.mean():.4f} ({time.time() - t0:.0f} s)")
        if max(step / steps, (time.time() - start) / budget) >= 1.0:
            log(f"done after {step} of {steps} steps")
            break
    report = {**calibrated(lambda x: logits(model, x), held), "seconds": round(time.time() - t0)}
    log(json.dumps(report))
    export(model, out, report["t_kind"], report["t_suit"])
    return report


def _ensemble_net(members: list[Any], temps: list[tuple[float, float]]) -> Any:
    """One network of several: each member's calibrated probabilities averaged, as log-probabilities
    (so the run time's softmax of them, at temperature 1, gives the average back)."""
    import torch
    from torch import nn

    class Ensemble(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.members = nn.ModuleList(members)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            pk, ps = [], []
            for i, m in enumerate(self.members):
                zk, zs = m(x)
                pk.append(torch.softmax(zk / temps[i][0], dim=1))
                ps.append(torch.softmax(zs / temps[i][1], dim=1))
            return (torch.log(torch.stack(pk).mean(dim=0) + 1e-12), torch.log(torch.stack(ps).mean(dim=0) + 1e-12))

    return Ensemble()


def join(members: list[Path], out: Path, *, cache: Path | None = None, log: Callable[[str], None] = print) -> dict[str, Any]:
    """An ensemble of exported corner CNNs (each with its temperatures, ``out.json`` of its own), as
    one ONNX network averaging their calibrated probabilities; calibrated once more as a whole on the
    held-out calibration corners, measured on the held-out test corners (as ``train_cnn``)."""
    from vision.runtime import session

    held = held_out(cache)
    xc, xt = held.xc, held.xt
    nets, temps = [], []
    for path in members:
        net = from_export(path, xc[:512])
        meta = json.loads(path.with_suffix(".json").read_text())
        nets.append(net)
        temps.append((float(meta["t_kind"]), float(meta["t_suit"])))
    model = _ensemble_net(nets, temps)
    for net, path in zip(nets, members, strict=True):  # each member computes what its file does
        want = session(path).run(None, {"corner": xt[:256]})[0]
        got = logits(net, xt[:256])[0]
        if not np.allclose(got, want, atol=1e-2):  # float error on logits of tens
            raise ValueError(f"{path}: the member does not reproduce its exported network")
    report = {"members": [str(m) for m in members], **calibrated(lambda x: logits(model, x), held)}
    log(json.dumps(report))
    export(model, out, report["t_kind"], report["t_suit"])
    return report


QUANT_CALIBRATION = 1200  # held-out calibration corners whose activations set the int8 ranges


def quantize(source: Path, out: Path, *, cache: Path | None = None, log: Callable[[str], None] = print) -> dict[str, Any]:
    """The exported network ``source`` in 8-bit integers (``out``, with its temperatures in
    ``out.json``): onnxruntime's static quantization (QDQ, weights per channel, activation ranges
    from ``QUANT_CALIBRATION`` held-out calibration corners), its forward pass about three times as
    fast on one core.  Weights in 7 bits (``reduce_range``): a CPU without the VNNI instructions
    sums pairs of 8-bit products in 16 bits and may saturate, so the file reads alike on either.
    Calibrated anew on the held-out calibration corners, measured on the test corners (as
    ``train_cnn``).  ``source`` stays the one to train on from (``--resume``): the integer file has
    no float weights to go on with."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    from vision.runtime import session

    held = held_out(cache)
    xc = held.xc

    class Corners(CalibrationDataReader):
        def __init__(self) -> None:
            self.at = 0

        def get_next(self) -> dict[str, np.ndarray] | None:
            if self.at >= min(QUANT_CALIBRATION, len(xc)):
                return None
            self.at += 16
            return {"corner": xc[self.at - 16 : self.at]}

    out.parent.mkdir(parents=True, exist_ok=True)
    quantize_static(str(source), str(out), Corners(), quant_format=QuantFormat.QDQ, per_channel=True, reduce_range=True,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
    net = session(out)
    report = {"source": source.name, **calibrated(lambda x: tuple(net.run(["kind", "suit"], {"corner": x})), held)}
    log(json.dumps(report))
    meta = json.loads(source.with_suffix(".json").read_text())
    temps = {"t_kind": report["t_kind"], "t_suit": report["t_suit"]}
    out.with_suffix(".json").write_text(json.dumps({**meta, **temps, "quantized_from": source.name}, indent=1) + "\n")
    return report


def export(model: Any, out: Path, t_kind: float, t_suit: float) -> None:
    """The network as ONNX (inputs (N, 2, INPUT_H, INPUT_W); outputs the logits ``kind`` and
    ``suit``) with its temperatures in ``out.json``."""
    import torch

    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 2, INPUT_H, INPUT_W)
    torch.onnx.export(model, (dummy,), str(out), input_names=["corner"], output_names=["kind", "suit"],
                      dynamic_axes={"corner": {0: "n"}, "kind": {0: "n"}, "suit": {0: "n"}}, opset_version=13,
                      dynamo=False)
    out.with_suffix(".json").write_text(json.dumps({"t_kind": t_kind, "t_suit": t_suit, "outputs": ["kind", "suit"],
                                                    "input": [2, INPUT_H, INPUT_W], "kinds": list(KINDS)}, indent=1) + "\n")
