"""Shrink a labelled folder of table scenes, to measure smaller cards than it holds.

    python bench/shrink_scenes.py ../shared/data/cards-dev/table /tmp/devsmall --scale 0.7
    python -m vision evaluate /tmp/devsmall

Each scene is reduced by ``--scale`` and set in the middle of a picture of the original size,
filled with the felt's colour (the median of the original's border) and a little noise; the labels
are copied (codes only are evaluated).  Cards that the original picture's edge cut are cut by the
shrunk picture's edge instead, against felt, which loses a few of them.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np


def shrink(src: Path, dst: Path, scale: float, seed: int = 0) -> None:
    labels = json.loads((src / "labels.json").read_text())
    dst.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    for item in labels["images"]:
        img = cv2.imread(str(src / item["file"]))
        h, w = img.shape[:2]
        small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        border = np.concatenate([img[:4].reshape(-1, 3), img[-4:].reshape(-1, 3),
                                 img[:, :4].reshape(-1, 3), img[:, -4:].reshape(-1, 3)])  # fmt: skip
        canvas = np.clip(np.median(border, axis=0) + rng.normal(0, 3, (h, w, 3)), 0, 255).astype(np.uint8)
        sh, sw = small.shape[:2]
        y, x = (h - sh) // 2, (w - sw) // 2
        canvas[y : y + sh, x : x + sw] = small
        cv2.imwrite(str(dst / item["file"]), canvas, [cv2.IMWRITE_JPEG_QUALITY, 90])
    (dst / "labels.json").write_text(json.dumps(labels))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", type=Path)
    parser.add_argument("dst", type=Path)
    parser.add_argument("--scale", type=float, default=0.7)
    args = parser.parse_args()
    shrink(args.src, args.dst, args.scale)


if __name__ == "__main__":
    main()
