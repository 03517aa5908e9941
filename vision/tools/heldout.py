"""``python -m vision heldout``: the reader measured on fonts and index layouts held out from its
training (issue 19, item 5).

Leave-one-font-out, in folds of font families: the families of ``glyphs.font_files`` (a family is
``cnn_data.family`` of the file name), sorted, fold ``j`` of ``k`` being every ``k``-th family from
the ``j``-th.  For a fold, the perceptron is trained again without the fold's families (the shipped
recipe, ``train.train`` with those fonts; into a file of its own, never the shipped one), and read
on decks drawn with the fold's families only: for every family one design per index layout
(``synth.INDEX_LAYOUTS``: suit under or beside the rank, small or large, one corner), shoe scans and
table scenes.  With ``k`` = 5, fold 2 is the corner CNN's held-out families (``cnn_data.split_fonts``),
so there the perceptron and the CNN are both read on fonts neither saw.

The perceptron reads glyphs cut from the ink and is trained on glyphs, not on layouts: each
layout's row is a layout it never saw as a layout.  The CNN is trained on whole corners whose
layouts vary (``cnn_data``): its rows per layout are not leave-one-layout-out.

Reported per group (fold, family, layout): shoe top-1, unknown rate, wrong with confidence >= 0.9;
scene recall, precision and sure-and-wrong cards; and the (confidence, right) of every read, for a
reliability diagram.  Images are drawn in memory exactly as ``python -m vision generate --kind
shoe|table --design D --font F --finnish yes|no --index L --seed S`` draws them (the files aside).
"""

from __future__ import annotations

import contextlib
import json
import math
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .. import model as model_module
from ..config import DEFAULT_CONFIG, RecognizerConfig
from ..model import Mlp
from ..profile import DeckProfile, enroll
from ..recognize import recognize
from .cnn_data import family
from .glyphs import all_font_files, font_files
from .synth import CODES, INDEX_LAYOUTS, design_style, shoe_image, table_image

SURE = 0.9
ENROLLED = "shipped perceptron, deck enrolled"
ENROLLED_DEFAULT = "shipped perceptron with the CNN witness, deck enrolled"  # VISION_CNN_WITNESS_ENROLLED=on
BINS = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0001)


def families() -> list[str]:
    """The index font families the classifier is trained on (sorted)."""
    return sorted({family(p) for p in font_files()})


def fold_families(fold: int, k: int) -> list[str]:
    """The families of fold ``fold`` of ``k``: every ``k``-th family (sorted) from the ``fold``-th."""
    if not 0 <= fold < k:
        raise ValueError(f"fold must be in 0..{k - 1}, got {fold}")
    return [f for i, f in enumerate(families()) if i % k == fold]


def training_fonts(fold: int, k: int) -> list[str]:
    """Every index font but those of the fold's families."""
    held = set(fold_families(fold, k))
    return [p for p in font_files() if family(p) not in held]


def face(fam: str) -> str:
    """One font file of a family to draw a held-out deck with: its regular face if it has one."""
    files = [p for p in font_files() if family(p) == fam]
    if not files:
        raise ValueError(f"no font of family {fam!r}")
    regular = [p for p in files if "regular" in Path(p).name.lower()]
    return (regular or files)[0]


def train_fold(
    fold: int, k: int, out: Path, *, per_class: int | None = None, log: Callable[[str], object] = print
) -> Path:
    """The perceptron trained as shipped, without the fold's families, saved to ``out``."""
    from .train import PER_CLASS, train

    if out.resolve() == model_module.MODEL_PATH.resolve():
        raise ValueError("a fold's model must not overwrite the shipped one")
    return train(out, per_class=per_class or PER_CLASS, fonts=training_fonts(fold, k), log=log)


@contextlib.contextmanager
def reading_with(mlp: Mlp | None) -> Iterator[None]:
    """``recognize`` reads with ``mlp`` (instead of the shipped perceptron) inside the block."""
    saved = model_module._MODEL
    if mlp is not None:
        model_module._MODEL = mlp
    try:
        yield
    finally:
        model_module._MODEL = saved


def load_mlp(path: Path) -> Mlp:
    with np.load(path) as data:
        return Mlp(*(data[key] for key in ("mean", "std", "w1", "b1", "w2", "b2")))


@dataclass
class Group:
    """Counts of one group of reads (a fold, family or layout)."""

    shoe: int = 0
    shoe_right: int = 0
    shoe_unknown: int = 0
    shoe_sure_wrong: int = 0
    shoe_sure: int = 0
    scenes: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0
    scene_sure_wrong: int = 0
    exact: int = 0
    confusions: Counter[str] = field(default_factory=Counter)

    def add(self, other: Group) -> None:
        for name in (
            "shoe",
            "shoe_right",
            "shoe_unknown",
            "shoe_sure_wrong",
            "shoe_sure",
            "scenes",
            "tp",
            "fp",
            "fn",
            "scene_sure_wrong",
            "exact",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.confusions.update(other.confusions)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.shoe:
            out.update(
                shoe=self.shoe,
                top1=self.shoe_right / self.shoe,
                unknown=self.shoe_unknown / self.shoe,
                sure_wrong=self.shoe_sure_wrong / self.shoe,
                sure_share=self.shoe_sure / self.shoe,
            )
        if self.scenes:
            out.update(
                scenes=self.scenes,
                recall=self.tp / max(self.tp + self.fn, 1),
                precision=self.tp / max(self.tp + self.fp, 1),
                scene_sure_wrong=self.scene_sure_wrong / max(self.tp + self.fp, 1),
                exact=self.exact / self.scenes,
            )
        if self.confusions:
            out["confusions"] = self.confusions.most_common(8)
        return out


Reader = Callable[[np.ndarray], list[dict[str, Any]]]


def read_shoe(
    reader: Reader, img: np.ndarray, code: str, group: Group, reads: list[tuple[float, bool]]
) -> None:
    cards = reader(img)
    best: dict[str, Any] = (
        max(cards, key=lambda c: c["confidence"]) if cards else {"code": "none", "confidence": 0.0}
    )
    group.shoe += 1
    right = best["code"] == code
    conf = float(best["confidence"])
    group.shoe_sure += conf >= SURE and best["code"] not in ("unknown", "none")
    if right:
        group.shoe_right += 1
    else:
        group.confusions[f"{code}>{best['code']}"] += 1
        if best["code"] in ("unknown", "none"):
            group.shoe_unknown += 1
        elif conf >= SURE:
            group.shoe_sure_wrong += 1
    if best["code"] not in ("unknown", "none"):
        reads.append((conf, right))


def read_scene(
    reader: Reader, img: np.ndarray, codes: Sequence[str], group: Group, reads: list[tuple[float, bool]]
) -> None:
    cards = reader(img)
    named = [c for c in cards if c["code"] != "unknown"]
    want = Counter(codes)
    got = Counter(c["code"] for c in named)
    hit = sum((got & want).values())
    group.scenes += 1
    group.tp += hit
    group.fp += sum(got.values()) - hit
    group.fn += sum(want.values()) - hit
    group.exact += got == want
    sure = Counter(c["code"] for c in named if c["confidence"] >= SURE)
    group.scene_sure_wrong += sum((sure - want).values())
    # Each reported card, surest first, is right while the scene still holds a card of its code.
    left = Counter(want)
    for c in sorted(named, key=lambda c: -c["confidence"]):
        right = left[c["code"]] > 0
        left[c["code"]] -= right
        reads.append((float(c["confidence"]), bool(right)))


def deck(fam_index: int, layout_index: int) -> tuple[int, bool]:
    """The design number and Finnish-or-not of a held-out deck."""
    return 2000 + 10 * fam_index + layout_index, (fam_index + layout_index) % 2 == 1


def measure(
    decks: Sequence[tuple[str, str, int]],
    readers: dict[str, Reader],
    *,
    shoe: int,
    scenes: int,
    seed: int = 0,
    layouts: Sequence[str] = INDEX_LAYOUTS,
    enrolled: str | None = None,
    log: Callable[[str], object] = print,
) -> dict[str, Any]:
    """Every reader of ``readers`` on the same held-out decks: for each deck (name, font file, number)
    and each layout, ``shoe`` scans (codes in a shuffled order) and ``scenes`` table scenes.  With
    ``enrolled`` (a reader's name), also the shipped perceptron with a profile of the deck enrolled
    from one scan of each card, drawn apart from the scans it then reads (``enrol_deck``)."""
    names = [*readers, *([enrolled, ENROLLED_DEFAULT] if enrolled else [])]
    groups: dict[str, dict[tuple[str, str], Group]] = {name: {} for name in names}
    reads: dict[str, dict[str, list[tuple[float, bool]]]] = {
        name: {"shoe": [], "table": []} for name in names
    }
    for name_, font, number in decks:
        for li, layout in enumerate(layouts):
            design, finnish = deck(number, INDEX_LAYOUTS.index(layout) if layout in INDEX_LAYOUTS else li)
            style = design_style(design, font, finnish=finnish, index=layout)
            rng = np.random.default_rng([seed, design])
            codes = [CODES[int(i)] for i in rng.permutation(len(CODES))]
            shoe_imgs = [(shoe_image(codes[i % len(codes)], rng, style)) for i in range(shoe)]
            scene_imgs = [table_image(rng, style=style) for _ in range(scenes)]
            deck_readers = dict(readers)
            if enrolled:
                profile = enrol_deck(style, [seed, design, 1])
                deck_readers[enrolled] = enrolled_reader(profile)
                deck_readers[ENROLLED_DEFAULT] = enrolled_reader(profile, DEFAULT_CONFIG.cnn_witness)
            for name, reader in deck_readers.items():
                g = groups[name].setdefault((name_, layout), Group())
                for img, label in shoe_imgs:
                    read_shoe(reader, img, label["code"], g, reads[name]["shoe"])
                for img, label in scene_imgs:
                    read_scene(reader, img, label["codes"], g, reads[name]["table"])
            log(
                f"  {name_} / {layout}: "
                + ", ".join(f"{n} {_short(groups[n][(name_, layout)])}" for n in names)
            )
    return {"groups": groups, "reads": reads}


def enrol_deck(style: Any, seed: Sequence[int]) -> DeckProfile:
    """A profile of the design ``style`` draws, enrolled as a games manager would: one shoe scan of each
    card (its own random stream, so none of them is a scan read afterwards), each labelled by its code
    only, through ``vision.profile.enroll`` (the card found as the reader finds it)."""
    rng = np.random.default_rng(list(seed))
    with tempfile.TemporaryDirectory(prefix="heldout-enrol-") as tmp:
        images = []
        for i, code in enumerate(CODES):
            img, _label = shoe_image(code, rng, style)
            name = f"{i:02d}-{code}.png"
            cv2.imwrite(str(Path(tmp) / name), img)
            images.append({"file": name, "code": code})
        (Path(tmp) / "labels.json").write_text(json.dumps({"images": images}))
        return enroll([tmp])


def enrolled_reader(profile: DeckProfile, witness: str = "off") -> Reader:
    """The shipped perceptron reading with a deck's profile; with ``witness`` (the default reader's
    ``DEFAULT_CONFIG.cnn_witness``), the corner CNN its witness (``cnn_witness_enrolled`` on)."""
    return held_reader(_shipped(), witness, profile)


def family_decks(fams: Sequence[str]) -> list[tuple[str, str, int]]:
    """One deck per family: its regular face, numbered by the family's place among all."""
    all_fams = families()
    return [(fam, face(fam), all_fams.index(fam)) for fam in fams]


# Faces that neither the shipped perceptron nor the corner CNN was trained on: DejaVu (left out of
# training, the development set is drawn with it) and italic or oblique faces (``glyphs._SKIP``; the
# CNN learns other families' italics, never these families' nor their lookalikes': ``cnn_data.italic_fonts``).
UNSEEN_FACES = (
    "DejaVuSans.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSansMono-Bold.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSerifCondensed.ttf",
    "Tinos-Italic.ttf",
    "Arimo-Italic.ttf",
    "NimbusSans-Italic.otf",
    "P052-Italic.otf",
    "URWGothic-BookOblique.otf",
    "Carlito-BoldItalic.ttf",
    "EBGaramond12-Italic.otf",
    "Cousine-Italic.ttf",
    "URWBookman-LightItalic.otf",
)


def unseen_decks(names: Sequence[str] = UNSEEN_FACES) -> list[tuple[str, str, int]]:
    """One deck per face of ``names`` found on the machine (numbered from 100)."""
    files = {Path(p).name: p for p in all_font_files()}
    trained = set(font_files())
    out = []
    for i, name in enumerate(names):
        if name in files and files[name] not in trained:
            out.append((Path(name).stem, files[name], 100 + i))
    return out


def _short(g: Group) -> str:
    s = g.summary()
    parts = []
    if "top1" in s:
        parts.append(f"shoe {s['top1']:.3f} unk {s['unknown']:.3f} surewrong {g.shoe_sure_wrong}")
    if "recall" in s:
        parts.append(f"scenes R {s['recall']:.3f} P {s['precision']:.3f}")
    return "; ".join(parts)


def reliability(reads: Sequence[tuple[float, bool]], bins: Sequence[float] = BINS) -> list[dict[str, Any]]:
    """Reads binned by confidence: each bin's range, count, share right and mean confidence."""
    conf = np.array([c for c, _ in reads], np.float64)
    right = np.array([r for _, r in reads], bool)
    out = []
    for lo, hi in zip(bins[:-1], bins[1:], strict=True):
        m = (conf >= lo) & (conf < hi)
        n = int(m.sum())
        out.append(
            {
                "lo": lo,
                "hi": min(hi, 1.0),
                "n": n,
                "right": int(right[m].sum()),
                "accuracy": float(right[m].mean()) if n else math.nan,
                "mean_confidence": float(conf[m].mean()) if n else math.nan,
            }
        )
    return out


def plot_reliability(tables: dict[str, list[dict[str, Any]]], out: Path, title: str) -> Path:
    """A reliability diagram (accuracy against confidence per bin, counts written beside) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 5.2), dpi=110)
    ax.plot([0.0, 1.0], [0.0, 1.0], color="#999999", lw=1, ls="--", label="perfectly calibrated")
    for (name, rows), colour in zip(
        tables.items(), ("#1f77b4", "#d62728", "#2ca02c", "#9467bd"), strict=False
    ):
        pts = [(r["mean_confidence"], r["accuracy"], r["n"]) for r in rows if r["n"]]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", color=colour, label=name)
        for x, y, n in pts:
            ax.annotate(str(n), (x, y), textcoords="offset points", xytext=(4, -11), fontsize=7, color=colour)
    ax.axvline(SURE, color="#444444", lw=0.8, ls=":")
    ax.set_xlim(0.45, 1.01)
    ax.set_ylim(0.0, 1.02)
    ax.set_xlabel("confidence of the read (bin mean)")
    ax.set_ylabel("share of reads right")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)
    return out


def mlp_reader(config: RecognizerConfig | None = None) -> Reader:
    cfg = config or RecognizerConfig(corner_reader="mlp")
    return lambda img: recognize(img, cfg, profile=None)


def run(
    out: Path,
    *,
    k: int = 5,
    folds: Sequence[int] | None = None,
    shoe: int = 54,
    scenes: int = 6,
    layouts: Sequence[str] = INDEX_LAYOUTS,
    models: Path | None = None,
    per_class: int | None = None,
    fams_per_fold: int | None = None,
    cnn: bool = False,
    shipped: bool = True,
    witness: bool = False,
    log: Callable[[str], object] = print,
) -> dict[str, Any]:
    """Leave-one-font-out over the folds: train each fold's perceptron (kept in ``models``, reused
    when there), read its held-out decks with it (and with the shipped perceptron, which saw these
    fonts, and the corner CNN when ``cnn``), write ``out`` (JSON)."""
    models = models or out.parent / "heldout-models"
    models.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {
        "k": k,
        "shoe_per_deck": shoe,
        "scenes_per_deck": scenes,
        "layouts": list(layouts),
        "folds": {},
    }
    pooled: dict[str, dict[str, list[tuple[float, bool]]]] = {}
    per_layout: dict[str, dict[str, Group]] = {}
    per_fold: dict[str, dict[str, Group]] = {}
    t0 = time.time()
    for fold in folds if folds is not None else range(k):
        fams = fold_families(fold, k)[:fams_per_fold]
        path = models / f"fold{fold}of{k}.npz"
        if not path.is_file():
            log(f"fold {fold}: training without {', '.join(fold_families(fold, k))}")
            train_fold(fold, k, path, per_class=per_class, log=lambda s: None)
        held = load_mlp(path)
        readers: dict[str, Reader] = {}

        readers["perceptron, fonts held out"] = held_reader(held, "off")
        if witness:
            readers["held-out perceptron, CNN veto"] = held_reader(held, "veto")
            readers["held-out perceptron, CNN rescue"] = held_reader(held, "rescue")
        if shipped:
            readers["perceptron as shipped (saw these fonts)"] = shipped_reader
        if cnn:
            readers["corner CNN"] = cnn_reader
        log(f"fold {fold} ({time.time() - t0:.0f} s): reading decks of {', '.join(fams)}")
        got = measure(
            family_decks(fams), readers, shoe=shoe, scenes=scenes, seed=fold, layouts=layouts, log=log
        )
        fold_out: dict[str, Any] = {"families": fams}
        for name in readers:
            total = Group()
            for (_fam, layout), g in got["groups"][name].items():
                total.add(g)
                per_layout.setdefault(name, {}).setdefault(layout, Group()).add(g)
            per_fold.setdefault(name, {})[str(fold)] = total
            fold_out[name] = {
                "total": total.summary(),
                "groups": {
                    f"{fam}/{layout}": g.summary() for (fam, layout), g in got["groups"][name].items()
                },
            }
            for kind in ("shoe", "table"):
                pooled.setdefault(name, {}).setdefault(kind, []).extend(got["reads"][name][kind])
        result["folds"][str(fold)] = fold_out
        out.write_text(json.dumps(result, indent=1, default=str))
    result["per_layout"] = {
        n: {layout: g.summary() for layout, g in d.items()} for n, d in per_layout.items()
    }
    result["per_fold"] = {n: {f: g.summary() for f, g in d.items()} for n, d in per_fold.items()}
    overall = {}
    for n, d in per_fold.items():
        total = Group()
        for g in d.values():
            total.add(g)
        overall[n] = total.summary()
    result["overall"] = overall
    result["reliability"] = {n: {kind: reliability(r) for kind, r in d.items()} for n, d in pooled.items()}
    result["seconds"] = round(time.time() - t0)
    out.write_text(json.dumps(result, indent=1, default=str))
    return result


def held_reader(held: Mlp, witness: str, profile: DeckProfile | None = None) -> Reader:
    """A perceptron (a fold's, or the shipped one) with the corner CNN as a witness or not, and with a
    deck's profile or none."""
    # Without a witness, none in scenes either; with one, scenes as the product reads them.
    config = RecognizerConfig(corner_reader="mlp", cnn_witness=witness,
                              cnn_witness_scenes="off" if witness == "off" else DEFAULT_CONFIG.cnn_witness_scenes,
                              cnn_witness_enrolled="off" if witness == "off" else "on",
                              pip_counter="off" if witness == "off" else DEFAULT_CONFIG.pip_counter)

    def read(img: np.ndarray) -> list[dict[str, Any]]:
        with reading_with(held):
            return recognize(img, config, profile=profile)

    return read


def shipped_reader(img: np.ndarray) -> list[dict[str, Any]]:
    """The shipped perceptron, whatever the block around says."""
    with reading_with(_shipped()):
        return recognize(img, RecognizerConfig(corner_reader="mlp", cnn_witness="off", cnn_witness_scenes="off",
                                               pip_counter="off"), profile=None)


@cache
def _shipped() -> Mlp:
    return load_mlp(model_module.MODEL_PATH)


def cnn_reader(img: np.ndarray) -> list[dict[str, Any]]:
    """The corner CNN as the reader."""
    return recognize(img, RecognizerConfig(corner_reader="cnn", cnn_witness="off", pip_counter="off"), profile=None)


def _pct(x: float | None) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def markdown(result: dict[str, Any]) -> str:
    """The results as Markdown tables: overall, per fold and per layout for every reader, and the
    reliability bins."""
    lines = []
    head = (
        "| reader | group | shoe scans | top-1 | unknown | wrong ≥ 0.9 | scenes | recall | precision | sure-and-wrong |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    lines.append(head)

    def row(name: str, group: str, s: dict[str, Any]) -> str:
        return (
            f"| {name} | {group} | {s.get('shoe', 0)} | {_pct(s.get('top1'))} | {_pct(s.get('unknown'))} | "
            f"{_pct(s.get('sure_wrong'))} | {s.get('scenes', 0)} | {_pct(s.get('recall'))} | {_pct(s.get('precision'))} | "
            f"{_pct(s.get('scene_sure_wrong'))} |"
        )

    for name, s in result.get("overall", {}).items():
        lines.append(row(name, "all", s))
    for name, d in result.get("per_fold", {}).items():
        for fold, s in d.items():
            lines.append(row(name, f"fold {fold}: {', '.join(result['folds'][fold]['families'])}", s))
    for name, d in result.get("per_face", {}).items():
        for face_, s in d.items():
            lines.append(row(name, face_, s))
    for name, d in result.get("per_layout", {}).items():
        for layout, s in d.items():
            lines.append(row(name, f"layout {layout}", s))
    for name, d in result.get("reliability", {}).items():
        for kind, rows in d.items():
            lines.append("")
            lines.append(f"Reliability, {name}, {kind} (every named read):")
            lines.append("")
            lines.append("| confidence | reads | right | share right |")
            lines.append("| --- | --- | --- | --- |")
            lines.extend(
                f"| {r['lo']:.2f}–{r['hi']:.2f} | {r['n']} | {r['right']} | {_pct(r['accuracy'])} |"
                for r in rows
            )
    return "\n".join(lines)


def shipped_witness_reader(witness: str) -> Reader:
    """The shipped perceptron with the corner CNN as its witness."""
    return held_reader(_shipped(), witness)


def run_unseen(
    out: Path,
    *,
    shoe: int = 27,
    scenes: int = 4,
    layouts: Sequence[str] = INDEX_LAYOUTS,
    faces: Sequence[str] = UNSEEN_FACES,
    cnn: bool = True,
    witness: bool = True,
    seed: int = 7,
    enrolled: bool = False,
    log: Callable[[str], object] = print,
) -> dict[str, Any]:
    """The shipped readers (no retraining) on decks of faces neither was trained on (``UNSEEN_FACES``):
    the shipped perceptron, and with ``cnn`` the corner CNN, with ``witness`` the perceptron with the
    CNN as its witness, with ``enrolled`` the shipped perceptron after enrolling one deck of each
    design (issue 19's "after enrolling one deck" targets).  Writes ``out`` (JSON) in the form of ``run``'s."""
    readers: dict[str, Reader] = {"shipped perceptron": shipped_reader}
    if cnn:
        readers["corner CNN"] = cnn_reader
    if witness:
        readers["shipped perceptron, CNN veto"] = shipped_witness_reader("veto")
        readers["shipped perceptron, CNN rescue"] = shipped_witness_reader("rescue")
        readers["shipped perceptron, CNN arbitrate (the default)"] = shipped_witness_reader("arbitrate")
    t0 = time.time()
    decks = unseen_decks(faces)
    got = measure(decks, readers, shoe=shoe, scenes=scenes, seed=seed, layouts=layouts,
                  enrolled=ENROLLED if enrolled else None, log=log)
    result: dict[str, Any] = {
        "faces": [d[0] for d in decks],
        "shoe_per_deck": shoe,
        "scenes_per_deck": scenes,
        "layouts": list(layouts),
        "folds": {"unseen": {"families": [d[0] for d in decks]}},
    }
    per_layout: dict[str, dict[str, Group]] = {}
    per_face: dict[str, dict[str, Group]] = {}
    overall: dict[str, Any] = {}
    for name in got["groups"]:
        total = Group()
        for (face_, layout), g in got["groups"][name].items():
            total.add(g)
            per_layout.setdefault(name, {}).setdefault(layout, Group()).add(g)
            per_face.setdefault(name, {}).setdefault(face_, Group()).add(g)
        overall[name] = total.summary()
    result["overall"] = overall
    result["per_layout"] = {
        n: {layout: g.summary() for layout, g in d.items()} for n, d in per_layout.items()
    }
    result["per_face"] = {n: {f: g.summary() for f, g in d.items()} for n, d in per_face.items()}
    result["reliability"] = {
        n: {kind: reliability(r) for kind, r in d.items()} for n, d in got["reads"].items()
    }
    result["seconds"] = round(time.time() - t0)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1, default=str))
    return result


def pooled(tables: Sequence[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Reliability bins of several runs added up (same bins)."""
    out = []
    for rows in zip(*tables, strict=True):
        n = sum(r["n"] for r in rows)
        right = sum(r["right"] for r in rows)
        conf = sum(r["mean_confidence"] * r["n"] for r in rows if r["n"])
        out.append(
            {
                "lo": rows[0]["lo"],
                "hi": rows[0]["hi"],
                "n": n,
                "right": right,
                "accuracy": right / n if n else math.nan,
                "mean_confidence": conf / n if n else math.nan,
            }
        )
    return out


def report(results: Sequence[Path], plot: Path | None = None) -> str:
    """Markdown of saved runs (``run``, ``run_unseen``), and a reliability diagram of the shipped
    perceptron on unseen faces and of the folds' perceptrons on their held-out fonts, pooled."""
    loaded = [json.loads(p.read_text()) for p in results]
    text = "\n\n".join(markdown(r) for r in loaded)
    series: dict[str, list[list[dict[str, Any]]]] = {}
    for r in loaded:
        for name, d in r.get("reliability", {}).items():
            label = {
                "shipped perceptron": "shipped perceptron, unseen faces",
                "perceptron, fonts held out": "fold perceptrons, held-out fonts",
            }.get(name)
            if label is None:
                continue
            for kind, rows in d.items():
                series.setdefault(f"{label}: {kind}", []).append(rows)
    if plot is not None and series:
        plot_reliability(
            {name: pooled(tables) for name, tables in series.items()},
            plot,
            "Reliability of the perceptron on fonts it was not trained on",
        )
    return text
