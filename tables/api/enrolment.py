"""Deck enrolment at the tablet over HTTP (``tables.services.enrolment``): a games manager starts a session at
a table, scans the deck's cards in any order, names the ones the reader is unsure of, finishes (the design
is stored as a ZIP upload's) and may give the design to the table.

Every view checks the right to enrol (games managers) before it looks at the request; a scan's image is
then checked from its header, decoded and read outside any transaction.  A session is addressed through a
table of its casino.
"""

from __future__ import annotations

from typing import Any

from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from tables import services
from tables.engine.enrolment import DECKS, deck_for_game
from tables.engine.errors import InvalidInput
from tables.engine.games import game as game_spec
from tables.models import EnrolmentSession, Table
from tables.selectors import enrolment as enrolment_selectors
from tables.services import enrolment

from .base import ApiView
from .idempotency import answered_before, idempotent
from .rounds import ERRORS, IDEMPOTENCY, StrictInput, _valid


class GridCardSerializer(serializers.Serializer):
    code = serializers.CharField()
    face = serializers.CharField(help_text='as printed on the grid: "7♥", "10♠", "Joker"')
    words = serializers.CharField(help_text='"the 7 of hearts"')
    copies = serializers.IntegerField(help_text="copies of it in the deck (2 for the Jokers of a Joker deck)")
    scans = serializers.ListField(child=serializers.IntegerField(), help_text="the scans named as this card")


class EnrolmentScanSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    code = serializers.CharField(allow_blank=True, help_text="the card it is named as; empty: waiting for an answer")
    face = serializers.CharField(allow_blank=True)
    words = serializers.CharField(allow_blank=True)
    named_by = serializers.CharField(allow_blank=True, help_text='"reader" or "person"')
    confidence = serializers.FloatField(help_text="the reader's belief, weighed by the cards still missing")
    duplicate_of = serializers.CharField(allow_blank=True, help_text="a sure read of a card already named")
    duplicate_words = serializers.CharField(allow_blank=True)
    guesses = serializers.ListField(child=serializers.DictField(),
                                    help_text="cards still missing it may be, best first (code, confidence, face)")
    found = serializers.IntegerField(help_text="cards the reader found in the image")
    image = serializers.CharField(help_text="where the scan's image is served")


class EnrolmentSerializer(serializers.Serializer):
    """A deck enrolment session as the tablet draws it."""

    id = serializers.IntegerField()
    table = serializers.IntegerField()
    table_label = serializers.CharField()
    casino = serializers.CharField()
    name = serializers.CharField()
    deck = serializers.CharField()
    deck_label = serializers.CharField()
    finnish_indices = serializers.BooleanField()
    status = serializers.CharField(help_text="open, finished or abandoned")
    version = serializers.IntegerField()
    total = serializers.IntegerField(help_text="cards in the deck")
    named = serializers.IntegerField(help_text="scans named so far")
    missing = serializers.ListField(child=serializers.CharField())
    grid = GridCardSerializer(many=True)
    scans = EnrolmentScanSerializer(many=True)
    waiting = serializers.ListField(child=serializers.IntegerField(), help_text="scans waiting for an answer")
    design = serializers.DictField(allow_null=True, help_text="the design made, once finished (id, name)")
    assigned = serializers.BooleanField(help_text="whether the table reads with the design made")
    started_by = serializers.CharField()
    started_at = serializers.CharField()


class DeckSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    cards = serializers.IntegerField()
    games = serializers.CharField()


class EnrolmentStartPageSerializer(serializers.Serializer):
    open = EnrolmentSerializer(allow_null=True, help_text="the session open at this table, if any")
    decks = DeckSerializer(many=True)
    suggested_deck = serializers.CharField(help_text="the deck this table's game is dealt from")
    design = serializers.CharField(allow_null=True, help_text="the deck design the table reads with now")


class StartInput(StrictInput):
    name = serializers.CharField(max_length=80, help_text="the design's name, as the back office lists it")
    deck = serializers.ChoiceField(choices=sorted(DECKS), help_text="the deck: 52 cards, with Jokers, or Finnish")


class EnrolmentScanInput(StrictInput):
    image = serializers.FileField(help_text="a JPEG or PNG of one card")


class NameInput(StrictInput):
    code = serializers.CharField(max_length=3, help_text="the card this scan is (8S, TH, 10H, JK)")
    replace = serializers.BooleanField(default=False,
                                       help_text="the card was scanned already: drop that scan, keep this one")


class AssignInput(StrictInput):
    pass


class FinishInput(StrictInput):
    name = serializers.CharField(max_length=80, required=False,
                                 help_text="rename the design before it is stored (a name taken meanwhile)")


class EnrolmentScanAnswerSerializer(serializers.Serializer):
    enrolment = EnrolmentSerializer()
    scan = serializers.IntegerField()
    outcome = serializers.CharField(help_text="named (by the reader), duplicate (scanned already) or ask")
    message = serializers.CharField(help_text="what happened, in words")


def _table(request: Request, pk: int) -> Table:
    """The table, once the right to enrol is checked (before anything else is looked at)."""
    enrolment.check_enrol_right(request.user)
    return get_object_or_404(Table.objects.select_related("pit__casino", "game", "deck_design"), pk=pk)


def _session(request: Request, pk: int, sid: int) -> EnrolmentSession:
    table = _table(request, pk)
    session = get_object_or_404(EnrolmentSession.objects.select_related("table", "casino"), pk=sid)
    enrolment.guard_casino(session, table)
    return session


def _answer(session: EnrolmentSession, status: int = 200) -> Response:
    session = EnrolmentSession.objects.select_related("table", "casino", "started_by").get(pk=session.pk)
    return Response(EnrolmentSerializer(enrolment_selectors.enrolment_document(session)).data, status=status)


class EnrolmentsView(ApiView):
    """The enrolment open at a table (to resume it) and the decks one may enrol; start one."""

    @extend_schema(operation_id="enrolments_page", responses={200: EnrolmentStartPageSerializer, **ERRORS},
                   tags=["enrolment"])  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        table = _table(request, pk)
        session = enrolment_selectors.open_enrolment(table)
        return Response(EnrolmentStartPageSerializer({
            "open": None if session is None else enrolment_selectors.enrolment_document(session),
            "decks": [{"slug": d.slug, "name": d.label, "cards": d.spec.size, "games": d.games}
                      for d in DECKS.values()],
            "suggested_deck": deck_for_game(game_spec(table.game.slug)).slug,
            "design": table.deck_design.name if table.deck_design is not None else None,
        }).data)  # fmt: skip

    @extend_schema(operation_id="enrolments_start", request=StartInput, parameters=[IDEMPOTENCY],
                   responses={201: EnrolmentSerializer, **ERRORS}, tags=["enrolment"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        table = _table(request, pk)
        data = _valid(StartInput, request)
        session = enrolment.enrolment_start(table=table, name=data["name"], deck_slug=data["deck"], actor=request.user)
        return _answer(session, status=201)


class EnrolmentView(ApiView):
    """One enrolment session: its progress grid and scans."""

    @extend_schema(operation_id="enrolments_retrieve", responses={200: EnrolmentSerializer, **ERRORS},
                   tags=["enrolment"])  # fmt: skip
    def get(self, request: Request, pk: int, sid: int) -> Response:
        return _answer(_session(request, pk, sid))


def _message(scan: Any) -> tuple[str, str]:
    from tables.engine.cards import parse_card
    from tables.engine.enrolment import card_words

    if scan.code:
        return "named", f"{card_words(parse_card(scan.code)).capitalize()} ({round(100 * scan.confidence)}% sure)"
    if scan.duplicate_of:
        return "duplicate", f"You already scanned {card_words(parse_card(scan.duplicate_of))}"
    if len(scan.recognised) != 1:
        found = len(scan.recognised)
        return "ask", ("No card found in this scan: which card is it?" if not found else
                       f"{found} cards found in this scan: scan one card at a time, or say which card it is")
    return "ask", "Not sure of this card: which card is it?"


class EnrolmentScanView(ApiView):
    """Add a scan of one card: read by the generic reader and named when the deck and the reader are sure."""

    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(operation_id="enrolments_scan", request={"multipart/form-data": EnrolmentScanInput},
                   parameters=[IDEMPOTENCY], responses={200: EnrolmentScanAnswerSerializer, **ERRORS},
                   tags=["enrolment"])  # fmt: skip
    def post(self, request: Request, pk: int, sid: int) -> Response:
        session = _session(request, pk, sid)  # the right to enrol first
        data = _valid(EnrolmentScanInput, request)
        replay = answered_before(request)
        if replay is not None:
            return replay
        enrolment.enrolment_precheck(session=session, actor=request.user)
        upload = data["image"]
        if upload.size > services.MAX_IMAGE_BYTES:
            raise InvalidInput(f"the image is larger than {services.MAX_IMAGE_BYTES // 2**20} MB", field="image")
        reading = services.scan_read(upload.read())  # the generic reader: the deck is not known yet
        return self._store(request, pk, sid, reading=reading)

    @idempotent
    def _store(self, request: Request, pk: int, sid: int, *, reading: services.ScanReading) -> Response:
        scan = enrolment.enrolment_scan(session=sid, reading=reading, actor=request.user)
        outcome, message = _message(scan)
        session = EnrolmentSession.objects.select_related("table", "casino", "started_by").get(pk=sid)
        return Response(EnrolmentScanAnswerSerializer({"enrolment": enrolment_selectors.enrolment_document(session),
                                              "scan": scan.seq, "outcome": outcome, "message": message}).data)


class EnrolmentScanNameView(ApiView):
    """Name a scan (the person answers), or drop it."""

    @extend_schema(operation_id="enrolments_name", request=NameInput, parameters=[IDEMPOTENCY],
                   responses={200: EnrolmentSerializer, **ERRORS}, tags=["enrolment"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int, sid: int, seq: int) -> Response:
        session = _session(request, pk, sid)
        data = _valid(NameInput, request)
        enrolment.enrolment_name(session=session, seq=seq, code=data["code"], replace=data["replace"],
                                 actor=request.user)  # fmt: skip
        return _answer(session)

    @extend_schema(operation_id="enrolments_drop", responses={200: EnrolmentSerializer, **ERRORS},
                   tags=["enrolment"])  # fmt: skip
    def delete(self, request: Request, pk: int, sid: int, seq: int) -> Response:
        session = _session(request, pk, sid)
        enrolment.enrolment_drop(session=session, seq=seq, actor=request.user)
        return _answer(session)


class EnrolmentScanImageView(ApiView):
    """A scan's image (to show the person what they are asked about)."""

    @extend_schema(operation_id="enrolments_scan_image", responses={(200, "image/*"): bytes, **ERRORS},
                   tags=["enrolment"])  # fmt: skip
    def get(self, request: Request, pk: int, sid: int, seq: int) -> FileResponse:
        session = _session(request, pk, sid)
        scan = session.scans.filter(seq=seq).first()
        if scan is None or not scan.image:
            raise Http404
        kind = "image/jpeg" if (scan.image.name or "").lower().endswith(".jpg") else "image/png"
        return FileResponse(scan.image.open("rb"), content_type=kind)


class EnrolmentUndoView(ApiView):
    """Undo the last scan."""

    @extend_schema(operation_id="enrolments_undo", request=None, parameters=[IDEMPOTENCY],
                   responses={200: EnrolmentSerializer, **ERRORS}, tags=["enrolment"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int, sid: int) -> Response:
        session = _session(request, pk, sid)
        enrolment.enrolment_drop(session=session, actor=request.user)
        return _answer(session)


class EnrolmentAbandonView(ApiView):
    """Give the session up: no design is made."""

    @extend_schema(operation_id="enrolments_abandon", request=None, parameters=[IDEMPOTENCY],
                   responses={200: EnrolmentSerializer, **ERRORS}, tags=["enrolment"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int, sid: int) -> Response:
        session = _session(request, pk, sid)
        enrolment.enrolment_abandon(session=session, actor=request.user)
        return _answer(session)


class EnrolmentFinishView(ApiView):
    """Every card named: enrol the deck (seconds of work, outside any transaction) and store the design."""

    @extend_schema(operation_id="enrolments_finish", request=FinishInput,
                   responses={200: EnrolmentSerializer, **ERRORS}, tags=["enrolment"])  # fmt: skip
    def post(self, request: Request, pk: int, sid: int) -> Response:
        session = _session(request, pk, sid)
        data = _valid(FinishInput, request)
        enrolment.enrolment_finish(session=session, actor=request.user, name=data.get("name"))
        return _answer(session)


class EnrolmentAssignView(ApiView):
    """Give the design the session made to this table (the rights the back office asks for it)."""

    @extend_schema(operation_id="enrolments_assign", request=AssignInput, parameters=[IDEMPOTENCY],
                   responses={200: EnrolmentSerializer, **ERRORS}, tags=["enrolment"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int, sid: int) -> Response:
        session = _session(request, pk, sid)
        _valid(AssignInput, request)
        enrolment.enrolment_assign(session=session, table=session.table if session.table_id == pk else
                                   get_object_or_404(Table, pk=pk), actor=request.user)  # fmt: skip
        return _answer(session)
