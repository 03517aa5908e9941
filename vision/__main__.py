"""Command line: ``python -m vision recognize|enroll|evaluate|generate|train|train-cnn|train-detector|train-pips|heldout``.

``recognize --json IMAGE [IMAGE ...]`` prints one JSON object per image and line:
``{"image": PATH, "cards": [{"code", "confidence", "corners"}, ...]}``; an image that cannot be read
gives ``{"image": PATH, "cards": [], "error": "..."}``.  The exit code is 0 unless every image failed.
``--profile PROFILE`` (or the environment variable ``VISION_PROFILE``) reads with an enrolled deck.

``enroll DIR [DIR ...] --out PROFILE`` writes the profile of the labelled scans in the folders.
Bad input (a missing labels.json or image, an unknown code, a profile that is none) exits with 2
and a one-line message naming the file and field.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt


def _read(path: str) -> npt.NDArray[Any]:
    """The image in the file at ``path``, as decoded (any depth: ``recognize`` converts)."""
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"no such file: {path}")
    data = np.fromfile(str(p), dtype=np.uint8)
    if data.size == 0:
        raise ValueError("empty file")
    img = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
    if img is None:
        raise ValueError("not an image, or a corrupt or truncated one")
    return img


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision", description="Playing-card recognition.")
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("recognize", help="read the cards in images")
    rec.add_argument("--json", action="store_true", help="one JSON object per image per line (the default)")
    rec.add_argument("--profile", default=None, help="an enrolled deck's profile (default: $VISION_PROFILE, else none)")
    rec.add_argument("images", nargs="+")
    enr = sub.add_parser("enroll", help="learn a deck's own index glyphs from labelled scans")
    enr.add_argument("dirs", nargs="+", type=Path, help="folders of scans, each with a labels.json")
    enr.add_argument("--out", required=True, type=Path, help="the profile file to write")
    ev = sub.add_parser("evaluate", help="accuracy and timing on a labelled folder")
    ev.add_argument("folder", type=Path)
    ev.add_argument("--profile", default=None, help="an enrolled deck's profile (default: $VISION_PROFILE, else none)")
    gen = sub.add_parser("generate", help="write a synthetic labelled set")
    gen.add_argument("outdir", type=Path)
    gen.add_argument("--kind", choices=("shoe", "table"), default="shoe")
    gen.add_argument("--n", type=int, default=106)
    gen.add_argument("--seed", type=int, default=0)
    gen.add_argument("--height", type=int, default=720, help="table scenes: picture height (width 16:9; cards scale with it)")
    gen.add_argument("--design", type=int, default=None, help="every card of one deck design, fixed by this number")
    gen.add_argument("--font", default=None, help="with --design: the index font (a path or part of a font file's name)")
    gen.add_argument("--finnish", choices=("yes", "no"), default=None, help="with --design: Finnish indices (1, 11-13) or not")
    gen.add_argument("--court", default=None, help="with --design: the letters printed for J, Q, K (e.g. VDR, as French decks)")
    gen.add_argument("--index", default=None, help="with --design: the index layout (under, beside, small, large, one-corner)")
    sub.add_parser("train", help="reproduce the shipped index classifier from the generator")
    tc = sub.add_parser("train-cnn", help="reproduce the corner CNN (needs the 'train' extra: torch, onnx)")
    tc.add_argument("--out", type=Path, default=None, help="the ONNX file to write (default: the shipped one)")
    tc.add_argument("--cache", type=Path, default=None, help="a folder to keep the rendered corpus in")
    tc.add_argument("--resume", type=Path, default=None, help="go on training from this exported model")
    tc.add_argument("--minutes", type=float, default=16.0, help="wall-time budget of the training loop")
    tc.add_argument("--max-lr", type=float, default=3e-3, help="peak learning rate of the one-cycle schedule")
    tc.add_argument("--chunks", type=int, default=None, help="train on this many chunks of 5,000 corners (seeds 1000...)")
    tc.add_argument("--join", type=Path, nargs="+", default=None,
                    help="instead of training: join these exported models into one ensemble (calibrated anew)")
    tc.add_argument("--quantize", type=Path, default=None,
                    help="instead of training: this exported model in 8-bit integers, calibrated anew (the shipped file)")
    tc.add_argument("--wide-chunks", type=int, default=0,
                    help="and this many chunks drawn more widely: slanted ranks, smaller indices (seeds 3000...)")
    tc.add_argument("--scene-chunks", type=int, default=0,
                    help="and this many chunks of corners laid out from the index detector's peaks in table scenes (seeds 5000...)")
    tc.add_argument("--scene-from", type=int, default=None,
                    help="the first seed of those scene chunks (a network trained on goes on with new ones)")
    tc.add_argument("--italic-chunks", type=int, default=0,
                    help="and this many chunks of corners drawn with italic faces of training families (seeds 7000...)")
    tc.add_argument("--italic-scene-chunks", type=int, default=0,
                    help="and this many chunks of scene corners, decks of those italic faces (seeds 6000...)")
    tc.add_argument("--epochs", type=int, default=None, help="epochs over the training corners (default 4)")
    tc.add_argument("--seed", type=int, default=1, help="the training's random seed")
    tc.add_argument("--threads", type=int, default=2, help="torch's threads")
    tp = sub.add_parser("train-pips", help="reproduce the table scenes' pip-shape reader (numpy only; ~15 min of one core)")
    tp.add_argument("--out", type=Path, default=None, help="the weights file to write (default: the shipped one)")
    tp.add_argument("--cache", type=Path, default=None, help="a folder to keep the harvested pips in")
    td = sub.add_parser("train-detector", help="reproduce the table scenes' index detector (needs the 'train' extra: torch, onnx)")
    td.add_argument("--out", type=Path, default=None, help="the ONNX file to write (default: the shipped one)")
    td.add_argument("--cache", type=Path, default=None, help="a folder to keep the rendered scenes in")
    td.add_argument("--minutes", type=float, default=30.0, help="wall-time budget of the training loop")
    td.add_argument("--chunks", type=int, default=8, help="train on this many chunks of 200 scenes (seeds 1...)")
    td.add_argument("--max-lr", type=float, default=4e-3, help="peak learning rate of the one-cycle schedule")
    td.add_argument("--seed", type=int, default=1, help="the training's random seed (crops, initial weights)")
    td.add_argument("--threads", type=int, default=1, help="torch's threads")
    ho = sub.add_parser("heldout", help="leave-one-font-out folds: retrain the perceptron without a fold's fonts and read decks of them")
    ho.add_argument("--out", type=Path, default=Path("heldout.json"), help="the results (JSON)")
    ho.add_argument("--models", type=Path, default=None, help="where the folds' perceptrons are kept (reused when there)")
    ho.add_argument("--k", type=int, default=5, help="folds of font families")
    ho.add_argument("--folds", default=None, help="only these folds (comma-separated), e.g. 2")
    ho.add_argument("--shoe", type=int, default=27, help="shoe scans per held-out deck (family x layout)")
    ho.add_argument("--scenes", type=int, default=4, help="table scenes per held-out deck")
    ho.add_argument("--families", type=int, default=None, help="only the first N families of each fold")
    ho.add_argument("--layouts", default=None, help="only these index layouts (comma-separated)")
    ho.add_argument("--per-class", type=int, default=None, help="glyphs per class of the folds' training (default as shipped)")
    ho.add_argument("--cnn", action="store_true", help="also read with the corner CNN")
    ho.add_argument("--witness", action="store_true", help="also read with the CNN as the fold perceptron's witness")
    ho.add_argument("--no-shipped", action="store_true", help="do not also read with the shipped perceptron")
    ho.add_argument("--plot", type=Path, default=None, help="write the reliability diagram (PNG) of the held-out perceptron")
    ho.add_argument("--report", type=Path, nargs="+", default=None,
                    help="instead of measuring: print these saved results (and --plot their pooled reliability)")
    ho.add_argument("--unseen", action="store_true",
                    help="instead of folds: the shipped readers on faces none was trained on (DejaVu, italics)")
    ho.add_argument("--enrolled", action="store_true",
                    help="with --unseen: also read each deck after enrolling one scan of each of its cards")
    args = parser.parse_args(argv)

    cv2.setNumThreads(1)
    try:
        return _run(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.command == "recognize":
        from .profile import resolve
        from .recognize import recognize

        profile = resolve(args.profile)  # a bad profile is an error before any image is read
        failed = 0
        for path in args.images:
            out: dict[str, object] = {"image": path, "cards": []}
            try:
                out["cards"] = recognize(_read(path), profile=profile)
            except ValueError as exc:
                out["error"] = str(exc)
                failed += 1
            print(json.dumps(out), flush=True)
        return 1 if failed == len(args.images) else 0
    if args.command == "enroll":
        import time

        from .profile import enroll

        t = time.perf_counter()
        profile = enroll(args.dirs)
        path = profile.save(args.out)
        cards = profile.meta["cards"]
        print(json.dumps({"profile": str(path), "cards": sum(cards.values()), "codes": len(cards),
                          "glyph_samples": len(profile), "seconds": round(time.perf_counter() - t, 2)}))
        return 0
    if args.command == "evaluate":
        from .profile import resolve
        from .tools.evaluate import evaluate

        print(json.dumps(evaluate(args.folder, profile=resolve(args.profile)), indent=2))
        return 0
    if args.command == "generate":
        from .tools.synth import generate

        finnish = None if args.finnish is None else args.finnish == "yes"
        print(generate(args.outdir, args.kind, args.n, args.seed, height=args.height, design=args.design,
                       font=args.font, finnish=finnish, court=args.court, index=args.index))
        return 0
    if args.command in ("train-cnn", "train-pips", "train-detector"):
        return _train(args)
    if args.command == "heldout":
        from .tools.heldout import markdown, plot_reliability, run, run_unseen
        from .tools.synth import INDEX_LAYOUTS

        folds = None if args.folds is None else [int(f) for f in args.folds.split(",")]
        layouts = INDEX_LAYOUTS if args.layouts is None else tuple(args.layouts.split(","))
        if args.report:
            from .tools.heldout import report

            print(report(args.report, args.plot))
            return 0
        if args.unseen:
            result = run_unseen(args.out, shoe=args.shoe, scenes=args.scenes, layouts=layouts, cnn=args.cnn,
                                witness=args.witness, enrolled=args.enrolled)
            print(markdown(result))
            if args.plot is not None:
                plot_reliability({f"{name}: {kind}": rows for name, d in result["reliability"].items() if name == "shipped perceptron"
                                  for kind, rows in d.items()}, args.plot,
                                 "Shipped reader on faces it was not trained on (DejaVu, italics)")
            return 0
        result = run(args.out, k=args.k, folds=folds, shoe=args.shoe, scenes=args.scenes, layouts=layouts,
                     models=args.models, per_class=args.per_class, fams_per_fold=args.families, cnn=args.cnn,
                     shipped=not args.no_shipped, witness=args.witness)
        print(markdown(result))
        if args.plot is not None:
            plot_reliability({f"{name}: {kind}": rows for name, d in result["reliability"].items() if "held out" in name
                              for kind, rows in d.items()}, args.plot,
                             "Reliability on held-out fonts (leave-one-font-out folds)")
        return 0
    from .tools.train import train

    train()
    return 0



def _train(args: argparse.Namespace) -> int:
    """The models' training commands: train-cnn, train-pips, train-detector."""
    if args.command == "train-cnn":
        from .cnn import MODEL_PATH
        from .tools.cnn_train import EPOCHS, join, quantize, train_cnn

        if args.join:
            join(args.join, args.out or MODEL_PATH, cache=args.cache)
            return 0
        if args.quantize:
            quantize(args.quantize, args.out or MODEL_PATH, cache=args.cache)
            return 0
        train_cnn(args.out or MODEL_PATH, cache=args.cache, resume=args.resume, minutes=args.minutes, max_lr=args.max_lr,
                  chunks=args.chunks, epochs=args.epochs or EPOCHS, seed=args.seed, threads=args.threads,
                  wide_chunks=args.wide_chunks, scene_chunks=args.scene_chunks, scene_from=args.scene_from,
                  italic_chunks=args.italic_chunks, italic_scene_chunks=args.italic_scene_chunks)
        return 0
    if args.command == "train-pips":
        from .pip_shape import MODEL_PATH as PIP_PATH
        from .tools.pip_train import train as train_pips

        train_pips(args.out or PIP_PATH, cache=args.cache)
        return 0
    from .detector import MODEL_PATH as DETECTOR_PATH
    from .tools.detect_train import train_detector

    train_detector(args.out or DETECTOR_PATH, cache=args.cache, minutes=args.minutes, chunks=args.chunks,
                   max_lr=args.max_lr, seed=args.seed, threads=args.threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
