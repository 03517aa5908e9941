"""Time `vision.recognize` in process on one core: median and p95 ms per image, shoe scans and table scenes.

Usage: .venv/bin/python bench/bench_vision.py [--shoe DIR] [--table DIR] [--n N]
Without folders it times freshly generated images (seeded), so it runs on a fresh clone; pass the
cards-dev folders to time the development set.  Reports numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

# the repository root first: run as a script, bench/ is sys.path[0] and the venv's editable finder
# may otherwise resolve `vision` as a bare namespace package without its __init__
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from vision import recognize  # noqa: E402


def _generated(kind: str, n: int) -> list[np.ndarray]:
    """``n`` seeded synthetic images of ``kind`` (shoe or table)."""
    from vision.tools.synth import CODES, shoe_image, table_image

    rng = np.random.default_rng(7)
    if kind == "shoe":
        return [shoe_image(CODES[i % len(CODES)], rng)[0] for i in range(n)]
    return [table_image(rng)[0] for _ in range(n)]


def _folder(path: Path) -> list[np.ndarray]:
    """Every JPEG/PNG image of a folder, decoded as cv2.imread does."""
    files = sorted(path.glob("*.jpg")) + sorted(path.glob("*.png"))
    return [im for im in (cv2.imread(str(f)) for f in files) if im is not None]


def time_images(images: list[np.ndarray], repeats: int = 3) -> tuple[float, float]:
    """(median, p95) over images of each image's best wall milliseconds of recognize() in ``repeats``
    runs (the image's own cost, without what other processes took), after one warm-up call."""
    recognize(images[0])  # warm-up: loads the model
    times = []
    for im in images:
        runs = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            recognize(im)
            runs.append((time.perf_counter() - t0) * 1000)
        times.append(min(runs))
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def main() -> None:
    """Parse the folders, time both kinds, print one line per kind."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--shoe", type=Path)
    parser.add_argument("--table", type=Path)
    parser.add_argument("--n", type=int, default=40, help="generated images per kind when no folder is given")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    for kind, folder in (("shoe", args.shoe), ("table", args.table)):
        images = _folder(folder) if folder else _generated(kind, args.n)
        if not images:
            print(f"{kind}: no images")
            continue
        med, p95 = time_images(images)
        source = str(folder) if folder else f"{len(images)} generated"
        print(f"{kind}: {len(images)} images ({source}), median {med:.1f} ms, p95 {p95:.1f} ms (one core, best of 3 per image)")


if __name__ == "__main__":
    main()
