"""``recognize(image)``: every card in a shoe scan or an overhead table scene."""

from __future__ import annotations

import os
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from .arrays import U8, Contour, u8
from .cards import card_contours, card_mask, card_shaped, portrait_order, quad_of, without_glare
from .config import DEFAULT_CONFIG, RecognizerConfig
from .image_input import to_bgr8
from .model import Mlp
from .profile import DeckProfile, model_with, resolve
from .read import index_corners, read_card, shows_card_stock


def recognize(image: npt.NDArray[Any], config: RecognizerConfig = DEFAULT_CONFIG, *,
              profile: DeckProfile | str | os.PathLike[str] | None = None) -> list[dict[str, Any]]:
    """Cards in a BGR image (H, W, 3) uint8: ``[{"code", "confidence", "corners"}, ...]``.

    A shoe scan (one card filling most of the frame) gives one card; a table scene gives every card
    found.  Raises ``ValueError`` for an array that is not an image; an image with no card gives [].
    ``profile`` is an enrolled deck's profile (``vision.profile``), loaded or a path to its file;
    without one, the file the environment variable ``VISION_PROFILE`` names (loaded once per file
    and modification), else none: the generic reader.
    """
    model = model_with(resolve(profile))
    img = to_bgr8(image)
    scale = 1.0
    side = max(img.shape[:2])
    if side > config.max_side:
        scale = config.max_side / side
        small = u8(cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))
    else:
        small = img
    mask = card_mask(small)
    contours = card_contours(mask, config)
    one: list[dict[str, Any]] = []  # a glare-joined card read alone (below)
    if contours:
        # A shoe scan: one card fills most of the frame.  On a table scene a card covers a few per
        # cent of the picture or less (a card 85 px tall in 1280 x 720 covers 0.6%, below
        # ``min_card_area``: the scene has its own size floor); many cards touching may cover more,
        # but not in one card's shape (a scan's card may lose its shape to a hot spot of the light
        # that whitens its background, but it is large).
        frame = small.shape[0] * small.shape[1]
        biggest = cv2.contourArea(contours[0]) / frame
        shaped = _card_shaped(contours[0])
        body = None if shaped or biggest < 0.12 else _glare_free(contours[0], frame)
        if biggest >= 0.3 or biggest >= 0.12 and shaped:
            whole = _shoe_card(img, contours[0], scale, model, config)
            if body is None or not _bent(contours[0], body):
                return whole
            # A glare beside the card joined it and bent its outline: read on its body's outline too.
            # Where the two agree the bent outline's read stands (the index corners away from the glare
            # are where they were; the body's, opened, lie a little off); where they differ the body's
            # read comes first, never sure (a 5 of spades read J on the bent outline, its pips count 5
            # on the body; a Finnish 12 of clubs read 7 of diamonds at 0.90 on a body opened too far).
            alone = _shoe_card(img, body, scale, model, config)
            if [c["code"] for c in whole] == [c["code"] for c in alone]:
                return whole
            return [{**c, "confidence": round(min(float(c["confidence"]), config.witness_cap), 4)} for c in alone]
        if body is not None:
            # A glare on the felt beside the card may have joined it (the region bulges there): the
            # card's body alone, read as the one card of a shoe scan and as a table scene (a table's
            # hands lose more to the opening, or stay unshaped), the surer reading kept: the body's
            # outline is rounder than a card's.
            one = _shoe_card(img, body, scale, model, config)
    from .scene import find_cards

    many = find_cards(img, config, mask if small is img else None, model)
    surest = max((c["confidence"] for c in many if c["code"] != "unknown"), default=0.0)
    return one if one and one[0]["code"] != "unknown" and one[0]["confidence"] > surest else many


def _glare_free(contour: Contour, frame: int) -> Contour | None:
    """A shoe scan's largest region without what a glare joined to it (``without_glare``), where that
    leaves one card's shape, most of the region and a shoe card's size; else None."""
    body = without_glare(contour)
    area = cv2.contourArea(body)
    if area >= 0.85 * cv2.contourArea(contour) and area >= 0.12 * frame and _card_shaped(body):
        return body
    return None


def _bent(region: Contour, body: Contour) -> bool:
    """Whether a glare bent the card's outline: the corners fitted to the whole region lie more than a
    tenth of the card's height from those of its body (a small bulge leaves the sides to fit the same
    sharp corners, which the body's rounded ones fit less closely)."""
    a, b = portrait_order(quad_of(region)), portrait_order(quad_of(body))
    height = max(cv2.minAreaRect(body)[1])
    return bool(min(np.abs(a - np.roll(b, k, axis=0)).max() for k in (0, 2)) > 0.1 * height)


def _card_shaped(contour: Contour) -> bool:
    """Whether a shoe scan's largest region has one card's shape (as filled, and as long, as a card
    seen a little tilted)."""
    return card_shaped(contour, 0.85, (1.15, 1.8))


def _shoe_card(img: U8, contour: Contour, scale: float, model: Mlp,
               config: RecognizerConfig) -> list[dict[str, Any]]:
    """The one card of a shoe scan whose outline (in the image scaled by ``scale``) is ``contour``."""
    quad = portrait_order((quad_of(contour) / scale).astype(np.float32, copy=False))
    # A frame of noise (a covered lens, a broken sensor) is one "card" filling the frame:
    # without card stock in either index corner it is none, and the scan is read as empty.
    corners = index_corners(img, quad, config)
    return [read_card(img, quad, model, config, corners=corners)] if shows_card_stock(corners, config) else []

