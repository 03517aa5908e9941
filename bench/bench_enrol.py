"""Time the final step of a deck enrolment at the tablet: ``vision.profile.enroll`` of a whole deck (52 cards and
two Jokers, one generated scan each, labelled by card code only, as a session hands them over: no corners),
then the profile saved.  Run it on one core:

    taskset -c 0 .venv/bin/python bench/bench_enrol.py [--design N] [--seed S] [--repeat R]

Reports CPU and wall seconds per enrolment; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository's vision, not a namespace package


def deck_folder(root: Path, design: int, seed: int) -> Path:
    """A folder of the 54 scans of one generated design with a labels.json of codes only."""
    from vision.tools.synth import generate

    generate(root / "gen", "shoe", 106, seed=seed, design=design)  # 53 codes in turn: the 106th is the second Joker
    images = json.loads((root / "gen" / "labels.json").read_text())["images"]
    deck = root / "deck"
    deck.mkdir()
    items = []
    for i, item in enumerate([*images[:53], images[105]]):
        name = f"scan-{i:03d}.jpg"
        (deck / name).write_bytes((root / "gen" / item["file"]).read_bytes())
        items.append({"file": name, "code": item["code"]})
    (deck / "labels.json").write_text(json.dumps({"images": items}))
    return deck


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--design", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from vision.profile import enroll, load_model

    load_model()  # the classifier is loaded once per process: not part of an enrolment
    with tempfile.TemporaryDirectory() as tmp:
        folder = deck_folder(Path(tmp), args.design, args.seed)
        cpu, wall = [], []
        for _ in range(args.repeat):
            c0, w0 = time.process_time(), time.perf_counter()
            profile = enroll([folder])
            profile.save(Path(tmp) / "deck.profile")
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
    cards = sum(profile.meta["cards"].values())
    print(f"enrolment of {cards} scans (design {args.design}): {len(profile)} glyph samples kept; "
          f"CPU s median {statistics.median(cpu):.2f} (runs {', '.join(f'{c:.2f}' for c in cpu)}); "
          f"wall s median {statistics.median(wall):.2f} (runs {', '.join(f'{w:.2f}' for w in wall)})")


if __name__ == "__main__":
    main()
