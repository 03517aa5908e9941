"""Reads of deck enrolment sessions (``tables.services.enrolment``): a session as the tablet shows it, with the
progress grid of the deck (which cards are named, which are missing) and the scans waiting for an answer."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from tables.engine import enrolment as deck
from tables.engine.cards import Card, card_face, parse_card
from tables.models import EnrolmentSession, EnrolmentStatus, Table


def named_cards(session: EnrolmentSession) -> list[Card]:
    """The cards named so far, in the order they were scanned."""
    return [parse_card(c) for c in session.scans.exclude(code="").order_by("seq").values_list("code", flat=True)]


def missing_cards(session: EnrolmentSession) -> list[Card]:
    """The deck's cards not named yet (a Joker twice when neither of two is)."""
    kind = deck.deck_kind(session.deck)
    left = deck.remaining(kind, named_cards(session))
    return [c for c in deck.deck_cards(kind) for _ in range(left[c])]


def open_enrolment(table: Table) -> EnrolmentSession | None:
    """The session open at this table, if any (the tablet's page resumes it)."""
    return EnrolmentSession.objects.filter(table=table, status=EnrolmentStatus.OPEN).first()


def enrolment_scan_image_url(session: EnrolmentSession, seq: int) -> str:
    return reverse("api-enrolment-scan-image", args=[session.table_id, session.pk, seq])


def enrolment_document(session: EnrolmentSession) -> dict[str, Any]:
    """The session as the tablet draws it."""
    kind = deck.deck_kind(session.deck)
    scans = list(session.scans.order_by("seq"))
    by_code: dict[str, list[int]] = {}
    for s in scans:
        if s.code:
            by_code.setdefault(s.code, []).append(s.seq)
    grid = [{"code": c.code, "face": card_face(c.code), "words": deck.card_words(c), "copies": kind.spec.copies(c),
             "scans": by_code.get(c.code, [])} for c in deck.deck_cards(kind)]  # fmt: skip
    missing = missing_cards(session)
    table = session.table
    return {
        "id": session.pk, "table": session.table_id, "table_label": f"Table {table.number}",
        "casino": str(session.casino), "name": session.name, "deck": kind.slug, "deck_label": kind.label,
        "finnish_indices": kind.finnish_indices, "status": session.status, "version": session.version,
        "total": kind.spec.size, "named": sum(1 for s in scans if s.code), "missing": [c.code for c in missing],
        "grid": grid,
        "scans": [{
            "seq": s.seq, "code": s.code, "face": card_face(s.code) if s.code else "",
            "words": deck.card_words(parse_card(s.code)) if s.code else "", "named_by": s.named_by,
            "confidence": s.confidence, "duplicate_of": s.duplicate_of,
            "duplicate_words": deck.card_words(parse_card(s.duplicate_of)) if s.duplicate_of else "",
            "guesses": [{**g, "face": card_face(g["code"])} for g in s.guesses],
            "found": len(s.recognised), "image": enrolment_scan_image_url(session, s.seq),
        } for s in scans],  # fmt: skip
        "waiting": [s.seq for s in scans if not s.code],
        "design": None if session.design_id is None else {"id": session.design_id, "name": session.name},
        "assigned": session.design_id is not None and table.deck_design_id == session.design_id,
        "started_by": session.started_by.get_username(), "started_at": session.started_at.isoformat(),
    }
