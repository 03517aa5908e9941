"""Scans: who may scan is checked first, the image's size read from its header, the image decoded and read
outside any transaction, then the cards recorded (or the reader's guesses offered) in one."""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from typing import Any

from django.core.files.base import ContentFile
from django.db import transaction
from PIL import Image, UnidentifiedImageError  # imported at start: a worker's first scan pays no import

from tables.access import check_right
from tables.engine.errors import InvalidInput
from tables.errors import Conflict
from tables.models import (
    Round,
    RoundCard,
    RoundState,
    Scan,
)
from tables.selectors.rounds import asked_guesses, engine_shoe, pending_scan_row
from tables.selectors.rounds import round_state as _replay
from tables.services.common import (
    _bump,
    _lock_round,
    _require_state,
    audit,
    required_reason,
)
from tables.services.rounds import _prompt, record_scan_cards, require_no_pending_scan

MAX_IMAGE_BYTES = 8 * 1024 * 1024
# A tablet or document camera's photo is at most about 12-24 megapixels; more is refused before decoding.
MAX_IMAGE_SIDE = 8192
MAX_IMAGE_PIXELS = 24_000_000


@dataclass(frozen=True)
class ScanResult:
    """What a scan gave: the cards recorded, or the candidates the dealer must confirm."""

    round: Round
    scan: Scan
    recorded: list[RoundCard]
    needs_confirmation: bool
    candidates: list[dict[str, Any]]
    guesses: list[dict[str, Any]] = field(default_factory=list)


def decode_image(data: bytes) -> Any:
    """Decode an uploaded image into an array (H, W, 3); a corrupt or empty file is ``InvalidInput``."""
    import cv2  # imported here: only scan uploads need OpenCV
    import numpy as np

    check_image_header(data)
    try:
        array = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    except (cv2.error, ValueError, MemoryError):  # a header that lied about the size, a truncated stream
        array = None
    if array is None or array.ndim != 3 or array.shape[0] < 8 or array.shape[1] < 8:
        raise InvalidInput("the file is not a readable image (JPEG or PNG expected)", field="image")
    return array


def check_image_header(data: bytes) -> tuple[int, int]:
    """The image's (width, height) read from its header alone; refuse what is not a JPEG or PNG, or too large.

    Decoding is what costs memory (a 2.6 MB PNG of 30000 x 30000 pixels decodes to 2.7 GB), so the
    size is judged from the header before a single pixel is decoded.
    """
    if not data:
        raise InvalidInput("the image is empty", field="image")
    if len(data) > MAX_IMAGE_BYTES:
        raise InvalidInput(f"the image is larger than {MAX_IMAGE_BYTES // (1024 * 1024)} MB", field="image")
    try:
        with Image.open(io.BytesIO(data)) as img:  # lazy: reads the header only
            kind, (width, height) = img.format, img.size
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        raise InvalidInput("the file is not a readable image (JPEG or PNG expected)", field="image") from None
    except Image.DecompressionBombError:  # Pillow's own refusal, far above ours
        raise InvalidInput(f"the image has far more than {MAX_IMAGE_PIXELS // 1_000_000} megapixels", field="image") from None
    if kind not in ("JPEG", "PNG"):
        raise InvalidInput(f"a {kind} image is not accepted (JPEG or PNG expected)", field="image")
    if width > MAX_IMAGE_SIDE or height > MAX_IMAGE_SIDE or width * height > MAX_IMAGE_PIXELS:
        raise InvalidInput(f"the image is {width} x {height} pixels; at most {MAX_IMAGE_SIDE} pixels a side and "
                           f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels are accepted", field="image")  # fmt: skip
    return width, height


def recognise(image: Any, profile: str | None = None) -> list[dict[str, Any]]:
    """Run vision on a decoded image (with a deck design's enrolment profile, when the table has one);
    cards left to right as plain dicts."""
    try:
        import vision
    except ImportError:
        raise InvalidInput("card recognition is not available on this server: enter the card", field="image") from None
    recognize = getattr(vision, "recognize", None)
    if recognize is None:  # the package is being written (an empty folder imports as a namespace package)
        raise InvalidInput("card recognition is not available on this server: enter the card", field="image")

    found = []
    for c in (recognize(image, profile=profile) if profile else recognize(image)):
        item = c if isinstance(c, dict) else {k: getattr(c, k) for k in ("code", "confidence", "corners")}
        corners = [[float(x), float(y)] for x, y in item.get("corners", [])]
        entry: dict[str, Any] = {"code": str(item["code"]), "confidence": float(item["confidence"]), "corners": corners}
        guesses = item.get("guesses") if isinstance(item, dict) else getattr(c, "guesses", None)
        if guesses:  # an unsure read ("unknown"): the reader's best guesses, kept for the dealer to confirm
            entry["guesses"] = [{"code": str(g["code"]), "confidence": float(g["confidence"])}
                                for g in guesses if isinstance(g, dict) and "code" in g][:8]
        found.append(entry)
    found.sort(key=lambda c: min((p[0] for p in c["corners"]), default=0.0))
    return found


@dataclass(frozen=True)
class ScanReading:
    """An uploaded scan read by vision, before anything is stored: its bytes, hash and cards found."""

    image: bytes
    sha256: str
    found: list[dict[str, Any]]


def scan_precheck(*, round: Round, actor: Any) -> None:
    """Refuse a scan before any expensive work: who may act at the table, whether the round takes cards, and
    whether an unsure read still waits for the dealer's answer (a new scan would drop the card it stands for)."""
    check_right(actor, round.table)
    _require_state(round, RoundState.IN_PLAY, doing="add a card")
    require_no_pending_scan(round)


def scan_read(image: bytes, profile: str | None = None) -> ScanReading:
    """Check the image's header, decode it and read its cards with the table's deck profile (``profile``, a
    path; ``selectors.deck_profile_of``); no database work (runs outside any transaction)."""
    decoded = decode_image(image)
    found = recognise(decoded) if profile is None else recognise(decoded, profile)
    return ScanReading(image, hashlib.sha256(image).hexdigest(), found)


def round_scan_card(*, round: Round | int, reading: ScanReading, actor: Any,
                    expected_version: int | None = None) -> ScanResult:
    """Store a scan already read by ``scan_read`` and record its cards, left to right, while the reader is sure.

    At the first card the reader is unsure of (or that the shoe cannot hold, or the round cannot take now;
    or when the scan shows no card) the dealer is asked (``Scan.asking``): the tablet shows the reader's
    guesses for that card and the dealer confirms or picks it, which comes through ``round_add_card`` with
    the scan's id and records the scan's later sure cards after it; or says it is not a card, or drops the
    rest of the scan (``scan_dismiss``).  Until then the round refuses a further scan
    (``require_no_pending_scan``, in ``scan_precheck``).
    """
    found, sha, image = reading.found, reading.sha256, reading.image
    with transaction.atomic():
        round = _lock_round(round, expected_version)
        scan_precheck(round=round, actor=actor)  # again under the lock: the round may have moved on
        scan = Scan(round=round, sha256=sha, recognised=found, uploaded_by=actor)
        ext = ".jpg" if image[:3] == b"\xff\xd8\xff" else ".png"
        scan.image.save(f"{sha[:16]}{ext}", ContentFile(image), save=False)
        scan.save()
        recorded, state = record_scan_cards(round, _replay(round), scan, 0, actor=actor)
        _bump(round, prompt=_prompt(round.game, state))
        audit(actor=actor, action="round.scan", table=round.table, round=round,
              payload={"sha256": sha, "recognised": found, "recorded": [r.code for r in recorded],
                       "witnessed": [r.code for r, c in zip(recorded, found, strict=False) if r.code != c["code"]],
                       "asking": scan.asking})  # fmt: skip
        asking = scan.asking is not None
        guesses = asked_guesses(scan, engine_shoe(round.shoe) if round.shoe is not None else None) if asking else []
        return ScanResult(round, scan, recorded, needs_confirmation=asking, candidates=found, guesses=guesses)


def scan_dismiss(*, round: Round | int, scan: int, reason: str, actor: Any, only_this_card: bool = False,
                 expected_version: int | None = None) -> Round:
    """Drop what is left of the scan the round waits on, recording no more of its cards: no card was dealt
    (the reader saw something else), or the dealer scans the card again; the scan's cards recorded before
    the one asked about stay.  With ``only_this_card`` only the card asked about is dropped (it is not a
    card: a chip, a shadow, a card of the layout) and the scan goes on with its next cards, the sure ones
    recorded.  Audited with the reason; the round then takes cards again.  Only the scan that waits may be
    dropped (a scan answered or passed is history)."""
    reason = required_reason(reason, "dropping a scan")
    with transaction.atomic():
        round = _lock_round(round, expected_version)
        check_right(actor, round.table)
        _require_state(round, RoundState.IN_PLAY, doing="drop a scan")
        waiting = pending_scan_row(round)
        if waiting is None or waiting.pk != scan:
            raise Conflict(f"scan {scan} is not waiting for an answer at round {round.number}")
        at = waiting.asking or 0
        payload = {"scan": waiting.pk, "sha256": waiting.sha256, "recognised": waiting.recognised, "card": at,
                   "reason": reason}  # fmt: skip
        if only_this_card:
            then, state = record_scan_cards(round, _replay(round), waiting, at + 1, actor=actor)
            _bump(round, prompt=_prompt(round.game, state))
            audit(actor=actor, action="round.scan.skip", table=round.table, round=round,
                  payload={**payload, "then_recorded": [c.code for c in then], "asking": waiting.asking})  # fmt: skip
            return round
        waiting.asking = None
        waiting.save(update_fields=["asking"])
        _bump(round)
        audit(actor=actor, action="round.scan.dismiss", table=round.table, round=round, payload=payload)
        return round
