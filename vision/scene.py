"""Table scenes: every card on an overhead view of the felt (placeholder: isolated cards only)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .cards import card_contours, portrait_order, quad_of
from .config import RecognizerConfig
from .model import load_model
from .read import read_card


def find_cards(image: np.ndarray, config: RecognizerConfig) -> list[dict[str, Any]]:
    """Cards found in a table scene (H, W, 3) uint8 BGR."""
    model = load_model()
    out = []
    for contour in card_contours(image, config):
        quad = portrait_order(quad_of(contour))
        out.append(read_card(image, quad, model, config))
    return out
