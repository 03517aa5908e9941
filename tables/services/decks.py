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
from tables.models import Casino, DeckDesign, Table
from tables.services.common import _lock_table, audit
from tables.services.scans import check_image_header

MAX_ARCHIVE_BYTES = 64 * 1024 * 1024
MAX_MEMBERS = 240  # a few decks' worth of single-card scans
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
ENROL_RIGHT = "tables.add_deckdesign"
# Giving a table its design: the rights the back office asks for the table's "deck design" field (it is
# editable by who may change tables and add them: the games manager, not the pit boss who opens them).
ASSIGN_RIGHTS = ("tables.change_table", "tables.add_table")


def check_enrol_right(actor: Any) -> None:
    """Refuse unless the actor may enrol a deck design (games managers)."""
    if not actor.has_perm(ENROL_RIGHT):
        raise PermissionDenied("enrolling a deck design needs a games manager")


def check_assign_right(actor: Any) -> None:
    """Refuse unless the actor may give a table its deck design (as in the back office)."""
    if not actor.has_perms(ASSIGN_RIGHTS):
        raise PermissionDenied("giving a table its deck design needs a games manager")


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
    return deck_profile_enrol(files, _labels(files))


def deck_profile_enrol(files: dict[str, bytes], labels: dict[str, Any], *,
                       meta: dict[str, Any] | None = None) -> EnrolledProfile:  # fmt: skip
    """Build the profile of labelled scans (``files`` by name, ``labels`` in the enrolment format of
    ``python -m vision enroll``): every image's header checked first, then ``vision.profile.enroll`` (no
    database work: run it outside any transaction).  The one way a profile is built: from a ZIP
    (``deck_profile_build``) and from a session at the tablet (``tables.services.enrolment``).  ``meta``
    is added to the profile's own (the deck enrolled, say)."""
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
        profile.meta.update(meta or {})
        profile.meta["sources"] = [str((meta or {}).get("source", "archive"))]  # not the temporary folder
        saved = profile.save(folder / "deck.profile")
        data = saved.read_bytes()
    cards = {str(k): int(v) for k, v in profile.meta.get("cards", {}).items()}
    return EnrolledProfile(data, hashlib.sha256(data).hexdigest(), cards, int(len(profile.codes)))


def deck_design_create(*, casino: Casino, name: str, enrolled: EnrolledProfile, actor: Any) -> DeckDesign:
    """Store an enrolled design for the casino, with its audit event (games managers only): the one way a
    design is stored, from a ZIP (back office) and from a session at the tablet (``services.enrolment``)."""
    check_enrol_right(actor)
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
    check_enrol_right(actor)  # before any expensive work
    return deck_design_create(casino=casino, name=name, enrolled=deck_profile_build(archive), actor=actor)


def table_deck_design_set(*, table: Table, design: DeckDesign, actor: Any) -> Table:
    """Give ``table`` the deck design ``design`` (of the table's casino): the table's scans are read with it
    from the next one on.  The table's history records who, and an audit event is written."""
    check_assign_right(actor)
    with transaction.atomic():
        table = _lock_table(table)
        casino_id = table.pit.casino_id
        if design.casino_id != casino_id:
            raise InvalidInput(f"the design {design.name!r} belongs to {design.casino}, not to the casino of {table}",
                               field="design")  # fmt: skip
        before = table.deck_design_id
        table.deck_design = design
        table._history_user = actor  # type: ignore[attr-defined]
        table._change_reason = "deck design enrolled at the tablet"  # type: ignore[attr-defined]
        table.save(update_fields=["deck_design"])
        audit(actor=actor, action="table.deck_design", table=table,
              payload={"design": design.pk, "name": design.name, "before": before})  # fmt: skip
    return table
