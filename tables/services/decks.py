"""Deck designs: a casino's cards enrolled from one labelled scan of each card, and the profile stored.

The archive a games manager uploads is a ZIP of scans, either with a ``labels.json`` in the enrolment
format of ``python -m vision enroll`` (``{"images": [{"file", "code", ...}]}``) or with each scan named
by its card code (``8S.png``, ``10H.jpg``, ``JK.png``).  Everything in it is checked before anything is
decoded: the archive's size, the number and size of its members, names that would leave the folder,
each image's header (``scans.check_image_header``).  Enrolment (``vision.profile.enroll``) runs outside
any transaction; storing the design is one short write with its audit event.
"""

from __future__ import annotations

import hashlib
import io
import json
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction

from tables.engine.cards import parse_card
from tables.engine.errors import InvalidInput
from tables.errors import Conflict
from tables.models import Casino, DeckDesign
from tables.services.common import audit
from tables.services.scans import check_image_header

MAX_ARCHIVE_BYTES = 64 * 1024 * 1024
MAX_MEMBERS = 240  # a few decks' worth of single-card scans
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
ENROL_RIGHT = "tables.add_deckdesign"


@dataclass(frozen=True)
class EnrolledProfile:
    """A profile built from an archive, before it is stored: its bytes and what it learned."""

    data: bytes
    sha256: str
    cards: dict[str, int]
    glyph_samples: int


def _members(archive: bytes) -> dict[str, bytes]:
    """The files of the archive (flattened names), checked for size and count before they are read."""
    if not archive:
        raise InvalidInput("the archive is empty", field="archive")
    if len(archive) > MAX_ARCHIVE_BYTES:
        raise InvalidInput(f"the archive is larger than {MAX_ARCHIVE_BYTES // 2**20} MB", field="archive")
    try:
        zf = zipfile.ZipFile(io.BytesIO(archive))
        infos = [i for i in zf.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, OSError, ValueError):
        raise InvalidInput("the archive is not a readable ZIP file", field="archive") from None
    if len(infos) > MAX_MEMBERS:
        raise InvalidInput(f"the archive holds {len(infos)} files; at most {MAX_MEMBERS}", field="archive")
    if sum(i.file_size for i in infos) > 4 * MAX_ARCHIVE_BYTES:
        raise InvalidInput("the archive unpacks to far more than its scans could be", field="archive")
    out: dict[str, bytes] = {}
    for info in infos:
        name = PurePosixPath(info.filename).name
        if not name or name.startswith(".") or "__MACOSX" in info.filename:
            continue
        if name in out:
            raise InvalidInput(f"the archive holds two files named {name!r}", field="archive")
        try:
            out[name] = zf.read(info)
        except (zipfile.BadZipFile, OSError, ValueError, RuntimeError):
            raise InvalidInput(f"{name}: cannot be read from the archive", field="archive") from None
    return out


def _labels(files: dict[str, bytes]) -> dict[str, Any]:
    """The enrolment labels: the archive's ``labels.json``, or one image per card named by its code."""
    if "labels.json" in files:
        try:
            labels = json.loads(files["labels.json"])
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InvalidInput(f"labels.json is not readable JSON ({exc})", field="archive") from None
        if not isinstance(labels, dict) or not isinstance(labels.get("images"), list):
            raise InvalidInput("labels.json must hold {\"images\": [{\"file\", \"code\"}, ...]}", field="archive")
        return labels
    images = []
    for name in sorted(files):
        stem, suffix = PurePosixPath(name).stem, PurePosixPath(name).suffix.lower()
        if suffix not in IMAGE_SUFFIXES:
            continue
        try:
            code = parse_card(stem).code
        except (InvalidInput, ValueError):
            raise InvalidInput(f"{name}: name the scan by its card code (8S.png, 10H.jpg, JK.png) or add a "
                               "labels.json", field="archive") from None  # fmt: skip
        images.append({"file": name, "code": code})
    if not images:
        raise InvalidInput("the archive holds no PNG or JPEG scans", field="archive")
    return {"images": images}


def deck_profile_build(archive: bytes) -> EnrolledProfile:
    """Enrol the scans of an archive: check every file, then build the profile (no database work)."""
    files = _members(archive)
    labels = _labels(files)
    for item in labels["images"]:
        name = item.get("file") if isinstance(item, dict) else None
        if not isinstance(name, str) or name not in files:
            raise InvalidInput(f"labels.json names {name!r}, which is not in the archive", field="archive")
        try:
            check_image_header(files[name])
        except InvalidInput as exc:
            raise InvalidInput(f"{name}: {exc.message}", field="archive") from None
    from vision.profile import enroll  # the reader is loaded only by the processes that enrol

    with tempfile.TemporaryDirectory(prefix="enrol-") as tmp:
        folder = Path(tmp)
        for item in labels["images"]:
            (folder / item["file"]).write_bytes(files[item["file"]])
        (folder / "labels.json").write_text(json.dumps(labels))
        try:
            profile = enroll([folder])
        except ValueError as exc:  # the reader names the file and field of bad input
            raise InvalidInput(str(exc).replace(f"{folder}/", ""), field="archive") from None
        saved = profile.save(folder / "deck.profile")
        data = saved.read_bytes()
    cards = {str(k): int(v) for k, v in profile.meta.get("cards", {}).items()}
    return EnrolledProfile(data, hashlib.sha256(data).hexdigest(), cards, int(len(profile.codes)))


def deck_design_create(*, casino: Casino, name: str, enrolled: EnrolledProfile, actor: Any) -> DeckDesign:
    """Store an enrolled design for the casino, with its audit event (games managers only)."""
    if not actor.has_perm(ENROL_RIGHT):
        raise PermissionDenied("enrolling a deck design needs a games manager")
    name = (name or "").strip()
    if not name:
        raise InvalidInput("a deck design needs a name", field="name")
    try:
        with transaction.atomic():
            design = DeckDesign(casino=casino, name=name[:80], profile_sha256=enrolled.sha256, cards=enrolled.cards,
                                glyph_samples=enrolled.glyph_samples, created_by=actor)  # fmt: skip
            design.profile.save(f"{enrolled.sha256[:16]}.profile", ContentFile(enrolled.data), save=False)
            design.save()
            audit(actor=actor, action="deck.enrol",
                  payload={"design": design.pk, "casino": casino.pk, "name": design.name, "cards": enrolled.cards,
                           "sha256": enrolled.sha256})  # fmt: skip
    except IntegrityError:
        raise Conflict(f"{casino} already has a deck design named {name!r}") from None
    return design


def deck_design_enrol(*, casino: Casino, name: str, archive: bytes, actor: Any) -> DeckDesign:
    """Check who may enrol, build the profile from the archive, store the design."""
    if not actor.has_perm(ENROL_RIGHT):  # before any expensive work
        raise PermissionDenied("enrolling a deck design needs a games manager")
    return deck_design_create(casino=casino, name=name, enrolled=deck_profile_build(archive), actor=actor)
