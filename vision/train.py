"""``python -m vision train``: reproduce the shipped index classifier from the glyph generator.

The glyphs are drawn with every Latin font face on the machine (DejaVu excluded: the development set
is drawn with it).  The shipped model was trained with the Debian font packages that ``bin/test``
installs (FONTS there); the same packages, seeds and machine give the same model.

The classifier is three perceptrons, each trained on its own seed's glyphs, whose probabilities
are averaged (``model.averaged``).  One perceptron's errors depend on its seed and on the machine:
trained again on the same glyphs on another machine (most likely a BLAS that sums in another order),
the single perceptron shipped before measured a point less development-set table recall, and single
perceptrons of seeds 1-5 spread over two points.  Where three disagree their mean is unsure, as it
should be.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .glyphset import glyph_dataset
from .model import MODEL_PATH, averaged, train_mlp

SEEDS = (1, 2, 3)
PER_CLASS = 2500
EPOCHS = 30


def train(out: Path = MODEL_PATH, *, per_class: int = PER_CLASS, epochs: int = EPOCHS,
          seeds: Sequence[int] = SEEDS, log=print) -> Path:  # type: ignore[no-untyped-def]
    """Generate glyphs (fonts and drawn suits, distorted) for each seed, train a perceptron on each,
    save their average to ``out``."""
    models = []
    for seed in seeds:
        x, y = glyph_dataset(per_class, seed)
        log(f"{len(y)} glyphs generated (seed {seed}); training {epochs} epochs")
        models.append(train_mlp(x, y, epochs=epochs, seed=seed, log=log))
    averaged(models).save(out)
    log(f"saved {out} ({len(models)} perceptrons averaged)")
    return out
