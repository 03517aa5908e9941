"""Time `vision.scene.find_cards` on table scenes, one core: median and p95 ms per image.

Usage: .venv/bin/python bench/bench_scene.py [DIR_OR_IMAGES ...]
(default: ../shared/data/cards-dev/table, when present). Reports numbers; asserts nothing.
Besides wall time it reports the process's own CPU time (``time.thread_time``), which what other
processes on the core take from it does not inflate: on a loaded machine the steadier of the two.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import cv2

from vision.config import RecognizerConfig
from vision.scene import find_cards


def _paths(args: list[str]) -> list[Path]:
    """Image paths from folders and files on the command line."""
    if not args:
        args = [str(Path(__file__).resolve().parents[2] / "shared/data/cards-dev/table")]
    out: list[Path] = []
    for a in args:
        p = Path(a)
        out.extend(sorted(p.glob("*.jpg")) + sorted(p.glob("*.png")) if p.is_dir() else [p])
    return out


def main() -> None:
    """Run find_cards 3 times per image after one warm-up; print the median and p95 over images of
    each image's best run, in wall and in CPU milliseconds."""
    cv2.setNumThreads(1)
    config = RecognizerConfig()
    images = [im for im in (cv2.imread(str(p)) for p in _paths(sys.argv[1:])) if im is not None]
    if not images:
        sys.exit("no images found")
    find_cards(images[0], config)  # warm-up: model load
    times: list[float] = []
    cpu: list[float] = []
    for im in images:
        runs, cpu_runs = [], []
        for _ in range(3):
            t0, c0 = time.perf_counter(), time.thread_time()
            find_cards(im, config)
            runs.append((time.perf_counter() - t0) * 1000)
            cpu_runs.append((time.thread_time() - c0) * 1000)
        times.append(min(runs))  # the image's own cost, without what other processes took from it
        cpu.append(min(cpu_runs))
    for name, ms in (("wall", sorted(times)), ("cpu", sorted(cpu))):
        print(f"{len(images)} images, {name} median {statistics.median(ms):.1f} ms, "
              f"p95 {ms[int(0.95 * (len(ms) - 1))]:.1f} ms (one core, best of 3 runs per image)")


if __name__ == "__main__":
    main()
