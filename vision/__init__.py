"""Card recognition with OpenCV (numpy + cv2 only; no Django): ``recognize(image) -> list[dict]``;
``enroll(dirs)`` learns a deck's own index glyphs (``recognize(image, profile=...)``)."""

from .config import DEFAULT_CONFIG, RecognizerConfig
from .profile import DeckProfile, enroll, load_profile
from .recognize import recognize

__all__ = ["DEFAULT_CONFIG", "DeckProfile", "RecognizerConfig", "enroll", "load_profile", "recognize"]
