"""``python -m vision train``: reproduce the shipped index classifier from the glyph generator.

The glyphs are drawn with every Latin font face on the machine (DejaVu excluded: the development set
is drawn with it).  The shipped model was trained with the Debian font packages that ``bin/test``
installs (FONTS there); the same packages and seed give the same model.
"""

from __future__ import annotations

from pathlib import Path

from .glyphset import glyph_dataset
from .model import MODEL_PATH, train_mlp

SEED = 1
PER_CLASS = 2500
EPOCHS = 30


def train(out: Path = MODEL_PATH, *, per_class: int = PER_CLASS, epochs: int = EPOCHS, seed: int = SEED, log=print) -> Path:  # type: ignore[no-untyped-def]
    """Generate glyphs (fonts and drawn suits, distorted), train the perceptron, save it to ``out``."""
    x, y = glyph_dataset(per_class, seed)
    log(f"{len(y)} glyphs generated (seed {seed}); training {epochs} epochs")
    model = train_mlp(x, y, epochs=epochs, seed=seed, log=log)
    model.save(out)
    log(f"saved {out}")
    return out
