"""Card recognition with OpenCV (numpy + cv2 only; no Django): ``recognize(image) -> list[dict]``."""

from .config import DEFAULT_CONFIG, RecognizerConfig
from .recognize import recognize

__all__ = ["DEFAULT_CONFIG", "RecognizerConfig", "recognize"]
