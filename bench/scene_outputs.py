"""Dump or compare `vision.recognize` results on table scenes, to check that a speed change reads
every scene exactly as before (codes, confidences, corners, guesses).

Usage: .venv/bin/python bench/scene_outputs.py dump OUT.json [DIR]
       .venv/bin/python bench/scene_outputs.py compare BEFORE.json AFTER.json
(DIR defaults to ../shared/data/cards-dev/table.)  ``compare`` prints each scene that differs and
exits 1 if any does.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from vision import recognize  # noqa: E402


def _plain(value: Any) -> Any:
    """A result made JSON-ready (numpy arrays and scalars to lists and floats)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def dump(out: Path, folder: Path) -> None:
    """Write every scene's result list, keyed by file name."""
    files = sorted(folder.glob("*.jpg")) + sorted(folder.glob("*.png"))
    results = {f.name: _plain(recognize(cv2.imread(str(f)))) for f in files}
    out.write_text(json.dumps(results, indent=1, sort_keys=True))
    print(f"{len(results)} scenes, {sum(map(len, results.values()))} cards -> {out}")


def compare(before: Path, after: Path) -> int:
    """Scenes whose results differ in any field."""
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    bad = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    for k in bad:
        print(f"{k}: before {a.get(k)}\n{' ' * len(k)}  after  {b.get(k)}")
    print(f"{len(a.keys() | b.keys())} scenes, {len(bad)} differ")
    return 1 if bad else 0


def main() -> None:
    """Dispatch dump / compare."""
    args = sys.argv[1:]
    if len(args) >= 2 and args[0] == "dump":
        folder = Path(args[2]) if len(args) > 2 else Path(__file__).resolve().parents[2] / "shared/data/cards-dev/table"
        dump(Path(args[1]), folder)
    elif len(args) == 3 and args[0] == "compare":
        sys.exit(compare(Path(args[1]), Path(args[2])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
