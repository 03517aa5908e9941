"""Finding cards (white quadrilaterals) in an image and rectifying them to a canonical card."""

from __future__ import annotations

import cv2
import numpy as np

from .arrays import F32, U8, Contour, as_contour, u8
from .config import RecognizerConfig


def whiteness(image: U8) -> U8:
    """(H, W) uint8: the darkest channel — high on a white card, low on felt, plastic and ink."""
    h, w = image.shape[:2]
    if h * w >= 20_000:
        # A picture: each row's B, G, R values side by side, eroded three wide, hold at every
        # pixel's G the minimum of its own three (twice as fast as np.minimum over the channels).
        return np.ascontiguousarray(u8(cv2.erode(image.reshape(h, 3 * w), _ACROSS_CHANNELS))[:, 1::3])
    # A small crop: np.minimum (numpy's min over the channel axis is ten times slower, cv2.split
    # and cv2.min half again as slow).
    grey = np.minimum(image[..., 0], image[..., 1])
    return np.minimum(grey, image[..., 2], out=grey)


_ACROSS_CHANNELS = np.ones((1, 3), np.uint8)


def card_mask(image: U8) -> U8:
    """(H, W) uint8 0/255 mask of card-white pixels, from a global Otsu split of the whiteness."""
    w = cv2.GaussianBlur(whiteness(image), (5, 5), 0)
    thr, mask = cv2.threshold(w, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if thr < 60:  # a dark picture with nothing white on it: no card
        return np.zeros(mask.shape, np.uint8)
    return u8(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)))


def quad_of(contour: Contour) -> F32:
    """The four corners (4, 2) float32 of the sharp rectangle around a (rounded) card contour (N, 1, 2)."""
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    approx = None
    for eps in (0.02, 0.03, 0.045, 0.06, 0.08):
        a = cv2.approxPolyDP(hull, eps * peri, True)
        if len(a) == 4:
            approx = a.reshape(4, 2).astype(np.float32)
            break
    if approx is None:
        return cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)
    # Rounded corners pull the polygon's vertices inwards: fit a line to each side's middle part
    # and intersect neighbours to recover the sharp corners.
    pts = hull.reshape(-1, 2).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = approx[i], approx[(i + 1) % 4]
        d = b - a
        length = float(np.hypot(*d))
        if length < 4:
            return approx
        n = np.array([-d[1], d[0]]) / length
        t = ((pts - a) @ d) / (length * length)
        dist = np.abs((pts - a) @ n)
        sel = pts[(t > 0.15) & (t < 0.85) & (dist < max(3.0, 0.03 * length))]
        if len(sel) < 2:
            lines.append((a, d / length))
            continue
        vx, vy, x0, y0 = cv2.fitLine(sel, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return approx
        s = np.linalg.solve(m, p2 - p1)
        out.append(p1 + s[0] * d1)
    q = np.array(out, np.float32)
    if np.abs(q - approx).max() > 0.15 * peri / 4:
        return approx
    return q


def portrait_order(quad: F32) -> F32:
    """Corners clockwise (in image coordinates) starting so that the first side is a short side."""
    c = quad.mean(axis=0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    q = quad[np.argsort(ang)]  # clockwise on screen (y down)
    s01 = np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[3] - q[2])
    s12 = np.linalg.norm(q[2] - q[1]) + np.linalg.norm(q[0] - q[3])
    if s01 > s12:
        q = np.roll(q, -1, axis=0)
    # Of the two portrait orders, start with the corner nearer the image's top-left (a guess the
    # index reader confirms or turns round).
    if (q[2, 0] + q[2, 1]) < (q[0, 0] + q[0, 1]):
        q = np.roll(q, 2, axis=0)
    return q


def card_contours(mask: U8, config: RecognizerConfig) -> list[Contour]:
    """Outer contours of the white regions of a ``card_mask`` big enough to be (groups of) cards,
    largest first."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    area = mask.shape[0] * mask.shape[1]
    big = [as_contour(c) for c in contours if cv2.contourArea(c) >= config.min_card_area * area]
    return sorted(big, key=cv2.contourArea, reverse=True)


def without_glare(contour: Contour) -> Contour:
    """A card's outline freed of a glare that joins it: a hot spot of the light whitens a patch of
    the felt beside the card, and the card-white region bulges there.  Opened with a disc a third of
    the region's short side across (wider than such a patch where it joins, far narrower than the
    card), the card's body is left, and the region is kept near it."""
    x, y, w, h = cv2.boundingRect(contour)
    side = min(cv2.minAreaRect(contour)[1])
    k = max(3, int(side / 3) | 1)
    filled = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(filled, [contour - [x - 1, y - 1]], -1, 255, cv2.FILLED)
    body = u8(cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))))
    # The region as found (its ragged edge is what ``quad_of`` fits sides to) within a few pixels of the body.
    kept = filled & u8(cv2.dilate(body, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))))
    parts, _ = cv2.findContours(kept, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not parts:
        return contour
    return as_contour(max(parts, key=cv2.contourArea) + [x - 1, y - 1])


def card_shaped(contour: Contour, min_fill: float, aspect: tuple[float, float]) -> bool:
    """Whether an outline is one card's: it fills more than ``min_fill`` of its rotated box, whose
    long side over its short side lies strictly within ``aspect`` (a card is 88/63 = 1.40; the
    camera's tilt or a scan's perspective moves that)."""
    (w, h) = cv2.minAreaRect(contour)[1]
    if min(w, h) <= 0:
        return False
    return cv2.contourArea(contour) / (w * h) > min_fill and aspect[0] < max(w, h) / min(w, h) < aspect[1]
