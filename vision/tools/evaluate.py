"""``python -m vision evaluate DIR``: accuracy, confusions and timing on a labelled folder
(``DIR/labels.json`` in the format of shared/data/cards-dev: kinds ``shoe`` and ``table``)."""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

import cv2

from ..recognize import recognize


def evaluate(folder: Path, *, confident: float = 0.9, profile: Any = None) -> dict[str, Any]:
    """Run the recogniser over every labelled image of ``folder`` (with an enrolled deck's
    ``profile`` when given, else as ``recognize`` chooses) and summarise."""
    labels = json.loads((folder / "labels.json").read_text())
    kind = labels.get("kind")
    times: list[float] = []
    if kind == "shoe":
        right = wrong_confident = unknown = 0
        confusions: Counter[tuple[str, str]] = Counter()
        for item in labels["images"]:
            img = cv2.imread(str(folder / item["file"]))
            t = time.perf_counter()
            cards = recognize(img, profile=profile) if img is not None else []
            times.append(time.perf_counter() - t)
            best: dict[str, Any] = max(cards, key=lambda c: c["confidence"]) if cards else {"code": "none", "confidence": 0.0}
            if best["code"] == item["code"]:
                right += 1
            else:
                confusions[(item["code"], best["code"])] += 1
                unknown += best["code"] in ("unknown", "none")
                wrong_confident += best["code"] not in ("unknown", "none") and best["confidence"] >= confident
        n = len(labels["images"])
        return {
            "kind": kind, "images": n, "top1": right / n, "unknown_rate": unknown / n,
            f"wrong_with_confidence_{confident}": wrong_confident / n,
            "confusions": [{"true": a, "read": b, "count": c} for (a, b), c in confusions.most_common(15)],
            **_timing(times),
        }  # fmt: skip
    if kind == "table":
        tp = fp = fn = exact = confident_extra = 0
        misses: Counter[str] = Counter()
        extras: Counter[str] = Counter()
        for item in labels["images"]:
            img = cv2.imread(str(folder / item["file"]))
            t = time.perf_counter()
            cards = recognize(img, profile=profile) if img is not None else []
            times.append(time.perf_counter() - t)
            got = Counter(c["code"] for c in cards if c["code"] != "unknown")
            want = Counter(item["codes"])
            sure = Counter(c["code"] for c in cards if c["code"] != "unknown" and c["confidence"] >= confident)
            confident_extra += sum((sure - want).values())
            hit = sum((got & want).values())
            tp += hit
            fp += sum(got.values()) - hit
            fn += sum(want.values()) - hit
            exact += got == want
            misses.update(want - got)
            extras.update(got - want)
        n = len(labels["images"])
        return {
            "kind": kind, "images": n, "precision": tp / max(tp + fp, 1), "recall": tp / max(tp + fn, 1),
            "exact_scenes": exact / n, f"wrong_with_confidence_{confident}": confident_extra / max(tp + fp, 1),
            "most_missed": misses.most_common(10), "most_extra": extras.most_common(10),
            **_timing(times),
        }  # fmt: skip
    raise ValueError(f"{folder / 'labels.json'}: kind must be 'shoe' or 'table', got {kind!r}")


def _timing(times: list[float]) -> dict[str, float]:
    ms = sorted(t * 1000 for t in times) or [0.0]
    return {"median_ms": statistics.median(ms), "p95_ms": ms[min(len(ms) - 1, int(0.95 * len(ms)))]}
