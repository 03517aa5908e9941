"""Features of one glyph (a binary ink mask) for the index classifier."""

from __future__ import annotations

import cv2
import numpy as np

from .arrays import F32, U8, u8

SIDE = 20
PROFILE = 10
N_FEATURES = SIDE * SIDE + 2 * PROFILE + 5


def glyph_features(mask: U8) -> F32:
    """Feature vector (float32, ``N_FEATURES``) of a glyph mask (H, W) uint8 with ink > 0.

    The glyph cropped to its ink, centred in a square keeping its aspect, at ``SIDE``×``SIDE``; its
    row and column ink profiles; and shape measures that do not depend on the typeface: aspect, ink
    fill, solidity (ink over convex hull: a club's lobes leave deep bays, a diamond none), holes.
    """
    m = _cropped(mask)
    if m is None:
        return np.zeros(N_FEATURES, np.float32)
    return _features(m, *_unturned(m))


# np.rot90(glyph, k) for k = 1, 2, 3 (counter-clockwise), as OpenCV turns it into a new array
QUARTER_TURNS = (cv2.ROTATE_90_COUNTERCLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_CLOCKWISE)


def turned_glyph_features(mask: U8) -> F32:
    """(4, ``N_FEATURES``): ``glyph_features`` of a glyph mask and of it turned a quarter, a half and
    three quarters counter-clockwise (``np.rot90`` k = 0 to 3).  Its ink, convex hull and holes do
    not change with a quarter turn (integer points: the hull's area comes out the same to the bit)
    and are measured once."""
    m = _cropped(mask)
    if m is None:
        return np.zeros((4, N_FEATURES), np.float32)
    same = _unturned(m)
    return np.stack([_features(m, *same)] + [_features(u8(cv2.rotate(m, turn)), *same) for turn in QUARTER_TURNS])


def _cropped(mask: U8) -> U8 | None:
    """The mask cropped to its ink, 255 where ink; None when it has none."""
    if mask.ndim != 2:
        raise ValueError(f"expected a 2-D mask, got shape {mask.shape}")
    binary = mask if mask.dtype == np.uint8 else (mask > 0).astype(np.uint8)
    x, y, w, h = cv2.boundingRect(binary)  # of the non-zero pixels; OpenCV is many times faster than np.nonzero
    if w == 0 or h == 0:
        return None
    return u8(cv2.threshold(binary[y : y + h, x : x + w], 0, 255, cv2.THRESH_BINARY)[1])


def _unturned(m: U8) -> tuple[int, float, int]:
    """What a quarter turn of a cropped glyph ``m`` leaves alone: its ink pixels, the area of their
    convex hull, its holes."""
    contours, hierarchy = cv2.findContours(m, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    pts = np.concatenate(contours) if len(contours) > 1 else contours[0] if contours else np.zeros((1, 1, 2), np.int32)
    hull_area = cv2.contourArea(cv2.convexHull(pts)) if len(pts) >= 3 else 0.0
    holes = 0 if hierarchy is None else int(np.count_nonzero(hierarchy[0][:, 3] >= 0))
    return cv2.countNonZero(m), hull_area, holes


def _features(m: U8, inked: int, hull_area: float, holes: int) -> F32:
    """``glyph_features`` of a glyph ``m`` cropped to its ink (255), given what ``_unturned`` measures."""
    h, w = m.shape
    side = max(h, w) + 2
    y0, x0 = (side - h) // 2, (side - w) // 2
    sq = cv2.copyMakeBorder(m, y0, side - h - y0, x0, side - w - x0, cv2.BORDER_CONSTANT, value=0)
    out = np.empty(N_FEATURES, np.float32)
    np.divide(cv2.resize(sq, (SIDE, SIDE), interpolation=cv2.INTER_AREA).reshape(-1), np.float32(255.0), out=out[: SIDE * SIDE])
    at = SIDE * SIDE
    np.divide(cv2.resize(m, (1, PROFILE), interpolation=cv2.INTER_AREA).reshape(-1), np.float32(255.0), out=out[at : at + PROFILE])
    at += PROFILE
    np.divide(cv2.resize(m, (PROFILE, 1), interpolation=cv2.INTER_AREA).reshape(-1), np.float32(255.0), out=out[at : at + PROFILE])
    aspect = w / h
    solidity = inked / hull_area if hull_area > 0 else 1.0
    out[at + PROFILE :] = aspect, np.log(aspect), inked / m.size, min(solidity, 1.5), min(holes, 3)
    return out
