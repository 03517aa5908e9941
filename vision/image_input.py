"""Bringing any array an outside caller hands us to 8-bit BGR, or a clear ``ValueError``."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .arrays import U8

MAX_PIXELS = 50_000_000


def to_bgr8(image: object) -> U8:
    """Return ``image`` as a contiguous (H, W, 3) uint8 BGR array.

    Accepts (H, W) grey, (H, W, 1), (H, W, 3) BGR and (H, W, 4) BGRA; uint8, uint16 (scaled), bool and
    float in [0, 1] or [0, 255].  Raises ``ValueError`` naming what was expected and what came.
    """
    if not isinstance(image, np.ndarray):
        raise ValueError(f"expected a numpy array (H, W, 3) uint8 BGR, got {type(image).__name__}")
    a: npt.NDArray[Any] = image  # of any pixel type until converted below
    if a.ndim == 3 and a.shape[2] == 1:
        a = a[:, :, 0]
    if a.ndim not in (2, 3) or (a.ndim == 3 and a.shape[2] not in (3, 4)):
        raise ValueError(f"expected an image of shape (H, W), (H, W, 3) or (H, W, 4), got {a.shape}")
    if a.shape[0] < 16 or a.shape[1] < 16:
        raise ValueError(f"image too small: {a.shape[1]}x{a.shape[0]} pixels (at least 16x16 expected)")
    if a.shape[0] * a.shape[1] > MAX_PIXELS:
        raise ValueError(f"image too large: {a.shape[1]}x{a.shape[0]} pixels (at most {MAX_PIXELS:,})")
    if a.dtype == np.uint8:
        pass
    elif a.dtype == np.uint16:
        a = (a >> 8).astype(np.uint8)
    elif a.dtype == np.bool_:
        a = a.astype(np.uint8) * 255
    elif np.issubdtype(a.dtype, np.floating):
        if not np.isfinite(a).all():
            raise ValueError("image holds NaN or infinite values")
        top = 1.0 if a.max() <= 1.0 else 255.0
        a = np.clip(a * (255.0 / top), 0, 255).astype(np.uint8)
    elif np.issubdtype(a.dtype, np.integer):
        a = np.clip(a, 0, 255).astype(np.uint8)
    else:
        raise ValueError(f"unsupported pixel type {a.dtype}")
    if a.ndim == 2:
        a = np.repeat(a[:, :, None], 3, axis=2)
    elif a.shape[2] == 4:
        a = a[:, :, :3]
    return np.ascontiguousarray(a)
