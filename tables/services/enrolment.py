"""Deck enrolment at the tablet: a games manager scans a new deck card by card in any order; each scan is
read by the generic reader and named with the deck itself as the witness (``tables.engine.enrolment``);
when every card is named the profile is built and the design stored exactly as a ZIP upload's
(``decks.deck_profile_enrol`` and ``decks.deck_design_create``).

Who: games managers only (``tables.add_deckdesign``), checked before any image is read.  A deck design
changes how every scan of a table is read: it is configuration, the games manager's, as in the back office.

Each write locks the session row (nothing else locks it; its audit event's row points at the table) and
writes an audit event.  Reading a scan and building the profile run outside any transaction.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from tables.engine import enrolment as deck
from tables.engine.cards import Card, parse_card
from tables.engine.errors import InvalidInput
from tables.errors import Conflict
from tables.models import DeckDesign, EnrolmentScan, EnrolmentSession, EnrolmentStatus, Table
from tables.selectors.enrolment import missing_cards
from tables.services import decks
from tables.services.common import _lock_table, audit, scan_confidence
from tables.services.scans import ScanReading


def check_enrol_right(actor: Any) -> None:
    """Refuse (``PermissionDenied``) unless the actor may enrol a deck design (a games manager)."""
    decks.check_enrol_right(actor)


def _lock(session: EnrolmentSession | int) -> EnrolmentSession:
    pk = session.pk if isinstance(session, EnrolmentSession) else session
    return EnrolmentSession.objects.select_for_update(of=("self",)).select_related("table", "casino").get(pk=pk)


def _require_open(session: EnrolmentSession) -> None:
    if session.status != EnrolmentStatus.OPEN:
        raise Conflict(f"this enrolment of {session.name!r} is {session.status}: start a new one")


def _named(session: EnrolmentSession, *, without: int | None = None) -> list[Card]:
    return [parse_card(code) for code in session.scans.exclude(code="").exclude(seq=without or 0)
            .order_by("seq").values_list("code", flat=True)]  # fmt: skip


def _bump(session: EnrolmentSession) -> None:
    session.version += 1
    session.save(update_fields=["version"])


def _event(session: EnrolmentSession, actor: Any, action: str, **payload: Any) -> None:
    audit(actor=actor, action=f"deck.enrolment.{action}", table=session.table,
          payload={"enrolment": session.pk, "name": session.name, "deck": session.deck, **payload})  # fmt: skip


def enrolment_start(*, table: Table, name: str, deck_slug: str, actor: Any) -> EnrolmentSession:
    """Open a session at ``table`` for a design named ``name`` of the deck ``deck_slug``."""
    check_enrol_right(actor)
    kind = deck.deck_kind(deck_slug)
    name = (name or "").strip()
    if not name:
        raise InvalidInput("name the deck design (as the back office will list it)", field="name")
    casino = table.pit.casino
    if DeckDesign.objects.filter(casino=casino, name=name[:80]).exists():
        raise InvalidInput(f"{casino} already has a deck design named {name!r}: choose another name", field="name")
    namesake = EnrolmentSession.objects.filter(casino=casino, name=name[:80], status=EnrolmentStatus.OPEN).first()
    if namesake is not None:
        raise InvalidInput(f"an enrolment of a design named {name!r} is already open at Table {namesake.table.number}: "
                           "choose another name", field="name")  # fmt: skip
    with transaction.atomic():
        _lock_table(table)  # one start at a time per table
        open_here = EnrolmentSession.objects.filter(table=table, status=EnrolmentStatus.OPEN).first()
        if open_here is not None:
            raise Conflict(f"an enrolment of {open_here.name!r} is already open at {table}: go on with it "
                           "or abandon it first")  # fmt: skip
        session = EnrolmentSession.objects.create(casino=casino, table=table, name=name[:80], deck=kind.slug,
                                                  started_by=actor)  # fmt: skip
        _event(session, actor, "start")
    return session


def enrolment_precheck(*, session: EnrolmentSession, actor: Any) -> None:
    """Refuse a scan before any image is read: who may enrol, and whether the session takes scans."""
    check_enrol_right(actor)
    _require_open(session)


def _candidates(found: list[dict[str, Any]]) -> list[tuple[str, float]]:
    """The reader's candidates for a one-card scan: each card found with its guesses."""
    return [(str(g.get("code", "")), float(g.get("confidence", 0.0))) for c in found
            for g in [c, *(c.get("guesses") or [])]]  # fmt: skip


def enrolment_scan(*, session: EnrolmentSession | int, reading: ScanReading, actor: Any) -> EnrolmentScan:
    """Store a scan read by ``scans.scan_read`` and name it when the deck and the reader are sure.

    A scan of exactly one card is named by ``tables.engine.enrolment.name_scan``; a sure read of a card
    named already is kept as a duplicate (``duplicate_of``) for the person to replace or drop; anything
    else waits for the person, with the best guesses among the cards still missing."""
    check_enrol_right(actor)
    with transaction.atomic():
        session = _lock(session)
        _require_open(session)
        kind = deck.deck_kind(session.deck)
        naming = deck.name_scan(_candidates(reading.found), kind, _named(session), scan_confidence())
        if len(reading.found) != 1:  # no card, or several: the person says which card this scan is
            naming = deck.Naming("ask", None, 0.0, naming.guesses)
        last = session.scans.order_by("-seq").values_list("seq", flat=True).first() or 0
        scan = EnrolmentScan(session=session, seq=last + 1, sha256=reading.sha256, recognised=reading.found,
                             guesses=[{"code": w.card.code, "confidence": round(w.weighed, 4)} for w in naming.guesses],
                             uploaded_by=actor)  # fmt: skip
        if naming.outcome == "named" and naming.card is not None:
            scan.code, scan.named_by, scan.confidence = naming.card.code, "reader", round(naming.confidence, 4)
        elif naming.outcome == "duplicate" and naming.card is not None:
            scan.duplicate_of, scan.confidence = naming.card.code, round(naming.confidence, 4)
        ext = ".jpg" if reading.image[:3] == b"\xff\xd8\xff" else ".png"
        from django.core.files.base import ContentFile

        scan.image.save(f"{reading.sha256[:16]}{ext}", ContentFile(reading.image), save=False)
        scan.save()
        _bump(session)
        _event(session, actor, "scan", seq=scan.seq, sha256=reading.sha256, outcome=naming.outcome,
               code=scan.code or scan.duplicate_of, confidence=scan.confidence)  # fmt: skip
    return scan


def _scan_of(session: EnrolmentSession, seq: int) -> EnrolmentScan:
    scan = session.scans.filter(seq=seq).first()
    if scan is None:
        raise InvalidInput(f"this enrolment has no scan {seq}", field="scan")
    return scan


def _delete(scan: EnrolmentScan) -> None:
    name = scan.image.name
    storage = scan.image.storage
    scan.delete()
    if name:
        transaction.on_commit(lambda: storage.delete(name))


def enrolment_name(*, session: EnrolmentSession | int, seq: int, code: str, replace: bool = False,
                   actor: Any) -> EnrolmentScan:  # fmt: skip
    """The person names scan ``seq`` as card ``code``.  A card the deck holds no more copies of (scanned
    already) is refused naming the scan that has it, unless ``replace``: that scan is then dropped."""
    check_enrol_right(actor)
    with transaction.atomic():
        session = _lock(session)
        _require_open(session)
        kind = deck.deck_kind(session.deck)
        scan = _scan_of(session, seq)
        card = deck.check_namable(kind, [], code)
        others = _named(session, without=seq)
        if deck.remaining(kind, others)[card] == 0:
            holder = session.scans.exclude(seq=seq).filter(code=card.code).order_by("-seq").first()
            if not replace or holder is None:
                where = f" (scan {holder.seq})" if holder is not None else ""
                raise Conflict(f"you already scanned {deck.card_words(card)}{where}: replace that scan with this "
                               "one, or drop this one")  # fmt: skip
            _delete(holder)
            _event(session, actor, "drop", seq=holder.seq, code=holder.code, reason=f"replaced by scan {seq}")
        scan.code, scan.named_by, scan.duplicate_of = card.code, "person", ""
        scan.save(update_fields=["code", "named_by", "duplicate_of"])
        _bump(session)
        _event(session, actor, "name", seq=seq, code=card.code, read=[g["code"] for g in scan.guesses][:4])
    return scan


def enrolment_drop(*, session: EnrolmentSession | int, seq: int | None = None, actor: Any) -> EnrolmentScan:
    """Drop scan ``seq`` (a card scanned twice, a blurred one), or the last scan (undo) when ``seq`` is None."""
    check_enrol_right(actor)
    with transaction.atomic():
        session = _lock(session)
        _require_open(session)
        if seq is None:
            scan = session.scans.order_by("-seq").first()
            if scan is None:
                raise Conflict("nothing to undo: no card has been scanned yet")
        else:
            scan = _scan_of(session, seq)
        _delete(scan)
        _bump(session)
        _event(session, actor, "undo" if seq is None else "drop", seq=scan.seq, code=scan.code)
    return scan


def enrolment_abandon(*, session: EnrolmentSession | int, actor: Any) -> EnrolmentSession:
    """Give the session up: no design is made; its scans stay stored with it."""
    check_enrol_right(actor)
    with transaction.atomic():
        session = _lock(session)
        _require_open(session)
        session.status, session.ended_at = EnrolmentStatus.ABANDONED, timezone.now()
        session.version += 1
        session.save(update_fields=["status", "ended_at", "version"])
        scans = list(session.scans.all())
        _event(session, actor, "abandon", scans=len(scans))
        for scan in scans:  # no design will be made of them: their images go (after the commit)
            _delete(scan)
    return session


def _check_complete(session: EnrolmentSession) -> list[EnrolmentScan]:
    waiting = list(session.scans.filter(code="").values_list("seq", flat=True))
    if waiting:
        raise Conflict(f"scan{'s' if len(waiting) > 1 else ''} {', '.join(map(str, waiting))} "
                       f"{'are' if len(waiting) > 1 else 'is'} not named yet: name or drop them first")  # fmt: skip
    left = missing_cards(session)
    if left:
        few = ", ".join(c.code for c in left[:6]) + (" ..." if len(left) > 6 else "")
        raise Conflict(f"{len(left)} card{'s are' if len(left) > 1 else ' is'} still missing ({few}): scan them first")
    return list(session.scans.order_by("seq"))


def _scan_file(scan: EnrolmentScan) -> str:
    return f"scan-{scan.seq:03d}-{scan.code}{'.jpg' if (scan.image.name or '').lower().endswith('.jpg') else '.png'}"


def _in_words(message: str, scans: Iterable[EnrolmentScan]) -> str:
    """The reader's error about a file, said of the scan and card it was."""
    for scan in scans:
        name = _scan_file(scan)
        if name in message:
            card = deck.card_words(parse_card(scan.code))
            rest = re.sub(r"\s*\(give its corners in labels\.json\)", "", message.replace(f"{name}: ", ""))
            return f"scan {scan.seq} ({card}): {rest}; drop it and scan that card again"
    return message


def enrolment_finish(*, session: EnrolmentSession | int, actor: Any, name: str | None = None) -> DeckDesign:
    """Enrol the named scans and store the design: rights and completeness first, the profile built
    outside any transaction (``decks.deck_profile_enrol``, as for a ZIP), then one write
    (``decks.deck_design_create``, as for a ZIP) that also closes the session.  ``name``, when given,
    renames the design first (a name taken meanwhile in the back office).  Finishing a finished session
    again answers its design and writes nothing (the tablet retries a finish whose answer it lost)."""
    check_enrol_right(actor)
    if name is not None and not name.strip():
        raise InvalidInput("name the deck design (as the back office will list it)", field="name")
    session = EnrolmentSession.objects.select_related("casino", "table", "design").get(
        pk=session.pk if isinstance(session, EnrolmentSession) else session)
    if session.status == EnrolmentStatus.FINISHED and session.design is not None and (
            name is None or name.strip()[:80] == session.name):
        return session.design  # a second tap, or a retry whose answer was lost: the deck is enrolled once
    _require_open(session)
    scans = _check_complete(session)
    kind = deck.deck_kind(session.deck)
    files = {_scan_file(s): s.image.open("rb").read() for s in scans}
    for s in scans:
        s.image.close()
    labels = {"images": [{"file": _scan_file(s), "code": s.code} for s in scans]}
    try:
        enrolled = decks.deck_profile_enrol(files, labels, meta={
            "deck": kind.slug, "finnish_indices": kind.finnish_indices, "source": "tablet enrolment",
            "enrolment": session.pk})  # fmt: skip
    except InvalidInput as exc:
        raise InvalidInput(_in_words(exc.message, scans), field="scans") from None
    seen = [(s.seq, s.code, s.sha256) for s in scans]
    with transaction.atomic():
        session = _lock(session)
        _require_open(session)
        now = [(s.seq, s.code, s.sha256) for s in session.scans.order_by("seq")]
        if now != seen:
            raise Conflict("the scans changed while the deck was being enrolled: finish again")
        if name is not None:
            session.name = name.strip()[:80]
        design = decks.deck_design_create(casino=session.casino, name=session.name, enrolled=enrolled, actor=actor)
        session.status, session.design, session.ended_at = EnrolmentStatus.FINISHED, design, timezone.now()
        session.version += 1
        session.save(update_fields=["status", "design", "ended_at", "version", "name"])
        _event(session, actor, "finish", design=design.pk, scans=len(scans),
               seconds=round((session.ended_at - session.started_at).total_seconds()))  # fmt: skip
    return design


def enrolment_assign(*, session: EnrolmentSession | int, table: Table, actor: Any) -> Table:
    """Give the design a finished session made to ``table`` (of the session's casino), with the rights
    the back office asks for it."""
    session = session if isinstance(session, EnrolmentSession) else EnrolmentSession.objects.get(pk=session)
    decks.check_assign_right(actor)
    if session.status != EnrolmentStatus.FINISHED or session.design is None:
        raise Conflict("the deck is not enrolled yet: finish the enrolment first")
    return decks.table_deck_design_set(table=table, design=session.design, actor=actor)


def guard_casino(session: EnrolmentSession, table: Table) -> None:
    """Refuse a session addressed through a table of another casino (a 404 would hide a typo less well)."""
    if session.casino_id != table.pit.casino_id:
        raise PermissionDenied(f"enrolment {session.pk} belongs to {session.casino}, not to the casino of {table}")
