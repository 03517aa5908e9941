"""The pipeline's array types, and the one place OpenCV's results are narrowed to them.

OpenCV's stubs type every result as ``MatLike`` (an array of any integer or float type, whatever
went in); the pipeline knows better (an 8-bit image blurred is 8-bit, a contour is int32 points).
``u8`` and the like say so, checked: a result of another type than the code expects is a bug, and
raises ``TypeError`` where it happens instead of surfacing as a wrong read later.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

U8: TypeAlias = npt.NDArray[np.uint8]  # images (H, W, 3) BGR, grey levels and masks (H, W)
I32: TypeAlias = npt.NDArray[np.int32]  # contours (N, 1, 2), labels, integer points
I64: TypeAlias = npt.NDArray[np.int64]  # indices and class labels
F32: TypeAlias = npt.NDArray[np.float32]  # glyph features, model weights, quads as OpenCV takes them
F64: TypeAlias = npt.NDArray[np.float64]  # geometry in the picture, probabilities
Floats: TypeAlias = npt.NDArray[np.floating[Any]]  # either width (arithmetic that mixes them)
Bools: TypeAlias = npt.NDArray[np.bool_]
# An outline (N, 1, 2) of (x, y) points: int32 as OpenCV finds it, int64 once shifted by a Python offset.
Contour: TypeAlias = npt.NDArray[np.integer[Any]]


def _of(a: npt.NDArray[Any], dtype: type[np.generic]) -> npt.NDArray[Any]:
    if a.dtype != dtype:
        raise TypeError(f"expected an array of {np.dtype(dtype)}, got {a.dtype} (shape {a.shape})")
    return a


def as_contour(a: npt.NDArray[Any]) -> Contour:
    """``a`` (an outline OpenCV found or drew) as the integer points it is; TypeError when it is not."""
    if not np.issubdtype(a.dtype, np.integer):
        raise TypeError(f"expected an outline of integer points, got {a.dtype} (shape {a.shape})")
    return a


def u8(a: npt.NDArray[Any]) -> U8:
    """``a`` (an OpenCV result) as the uint8 array it is; TypeError when it is not."""
    return _of(a, np.uint8)


def i32(a: npt.NDArray[Any]) -> I32:
    """``a`` (an OpenCV result) as the int32 array it is; TypeError when it is not."""
    return _of(a, np.int32)


def f32(a: npt.NDArray[Any]) -> F32:
    """``a`` (an OpenCV result) as the float32 array it is; TypeError when it is not."""
    return _of(a, np.float32)


def f64(a: npt.NDArray[Any]) -> F64:
    """``a`` (an OpenCV result) as the float64 array it is; TypeError when it is not."""
    return _of(a, np.float64)
