"""The live flow over HTTP: one view per tablet command, each with its input serializer.

Every write answers with the round document (state, the engine's "what comes next", cards,
settlement, payment) and accepts ``Idempotency-Key``; ``version`` (optional) is the round version
the tablet saw: if the round changed meanwhile the command is refused with 409 instead of applied
to a round the dealer is not looking at.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from tables import selectors, services
from tables.access import check_right
from tables.engine.errors import InvalidInput
from tables.models import Round, Table

from .base import ApiView
from .idempotency import answered_before, idempotent
from .serializers import ErrorSerializer

IDEMPOTENCY = OpenApiParameter(
    "Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
    description="Any unique string per command; a retry with the same key returns the first answer.",
)  # fmt: skip
ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer,
          422: ErrorSerializer}  # fmt: skip


class RoundSerializer(serializers.Serializer):
    """A round as the tablet shows it."""

    id = serializers.IntegerField()
    table = serializers.IntegerField()
    number = serializers.IntegerField()
    game = serializers.CharField()
    state = serializers.CharField()
    state_label = serializers.CharField()
    version = serializers.IntegerField()
    table_minimum = serializers.CharField()
    rule_set = serializers.DictField()
    pay_table = serializers.DictField()
    shoe = serializers.IntegerField(allow_null=True)
    next = serializers.DictField(help_text="the engine's prompt: phase, actor, needs, allowed, forced, reason")
    seats = serializers.ListField(child=serializers.DictField())
    cards = serializers.ListField(child=serializers.DictField())
    decisions = serializers.ListField(child=serializers.DictField())
    settlement = serializers.ListField(child=serializers.DictField())
    due = serializers.DictField()
    paid = serializers.DictField()
    payments = serializers.ListField(child=serializers.DictField())
    discrepancies = serializers.ListField(child=serializers.DictField())
    approval_required = serializers.BooleanField()
    approval_reason = serializers.CharField(allow_blank=True)
    approvals = serializers.ListField(child=serializers.DictField())
    opened_at = serializers.CharField()
    opened_words = serializers.CharField(
        required=False, help_text="when the round opened, in words on the casino's clock: Wed 25 Nov 22:00"
    )
    settled_at = serializers.CharField(allow_null=True)
    closed_at = serializers.CharField(allow_null=True)
    view = serializers.DictField(allow_null=True, required=False,
                                 help_text="the hands as the tablet draws them: dealer and seats, split hands "
                                           "labelled, totals in words, the hole card face down until the dealer plays")
    pending_scan = serializers.DictField(allow_null=True, required=False,
                                         help_text="the unsure scan the round waits on (the dealer confirms or picks "
                                                   "the card it asks about, or drops it or the scan: POST "
                                                   "scans/{scan}/dismiss/): scan, image, candidates (every card "
                                                   "found), card (the one asked about, its place left to right) "
                                                   "of, corners, guesses, question (in words); while it "
                                                   "waits, a further scan, card, decision, settlement or "
                                                   "correction is refused (409, the question); null otherwise")
    shoe_cards = serializers.ListField(child=serializers.CharField(), allow_null=True, required=False,
                                       help_text="the card codes the round's shoe can hold (a Joker only where the "
                                                 "game's shoe has Jokers); a correction must be one of them")
    rejections = serializers.ListField(child=serializers.DictField(), required=False,
                                       help_text="a pit boss's rejections of the payment: by, reason, at, version, "
                                                 "current (true until the dealer records a new payment)")


class ScanAnswerSerializer(serializers.Serializer):
    round = RoundSerializer()
    scan = serializers.IntegerField()
    image = serializers.CharField(help_text="where the scan's image is served (GET, the round's readers only)")
    sha256 = serializers.CharField()
    recorded = serializers.ListField(child=serializers.CharField())
    needs_confirmation = serializers.BooleanField()
    candidates = serializers.ListField(child=serializers.DictField())
    guesses = serializers.ListField(child=serializers.DictField(), required=False,
                                    help_text="for an unsure read: the reader's best guesses, valid card codes "
                                              "with their confidence, best first")


MAX_BEHIND = 10  # bets behind one seat the API accepts at all (each table sets its own, lower, cap)


class StrictInput(serializers.Serializer):
    """An input serializer that refuses keys it does not declare (junk never reaches a round or the audit)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(k) for k in data if k not in self.fields)
            if unknown:
                raise serializers.ValidationError({unknown[0][:40]: ["unknown field"]})
        return super().to_internal_value(data)


_KEY = re.compile(r"[a-z0-9+-]{1,20}", re.ASCII)  # a bet kind: main, perfect-pairs, 21+3, ante, ...
_SEAT_KEY = re.compile(r"[0-9]{1,2}", re.ASCII)  # "1".."99": "²", "١" and "𝟏" are not seat numbers


class _KeyedField(serializers.DictField):
    """A JSON object whose keys must match ``pattern`` (bet kinds, seat numbers)."""

    def __init__(self, *, pattern: re.Pattern[str], what: str, max_keys: int = 20, **kwargs: Any) -> None:
        self.pattern, self.what, self.max_keys = pattern, what, max_keys
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, Mapping):
            if len(data) > self.max_keys:
                raise serializers.ValidationError(f"at most {self.max_keys} entries")
            for k in data:
                if not isinstance(k, str) or not self.pattern.fullmatch(k):
                    raise serializers.ValidationError({str(k)[:40]: [f"not a {self.what}"]})
        return dict(super().to_internal_value(data))


def _wagers(**kwargs: Any) -> _KeyedField:
    # Not trimmed: a no-break space around an amount is refused, not quietly cut off.
    return _KeyedField(pattern=_KEY, what="bet kind", child=serializers.CharField(max_length=20, trim_whitespace=False),
                       **kwargs)


class VersionedInput(StrictInput):
    version = serializers.IntegerField(required=False, min_value=1, help_text="the round version the tablet saw")


class AsciiIntegerField(serializers.IntegerField):
    """A whole number written with ASCII digits ("١" and "𝟏" are digits to Python's int(), not seat numbers)."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str) and not re.fullmatch(r"\s*[+-]?[0-9]+\s*", data, re.ASCII):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class _BehindInput(StrictInput):
    wagers = _wagers(allow_empty=False)
    double_along = serializers.BooleanField(required=False)
    follow_split = serializers.ChoiceField(choices=["both", "first"], required=False)
    player = serializers.CharField(required=False, max_length=40)


class _SeatInput(StrictInput):
    seat = AsciiIntegerField(min_value=1, max_value=99)
    wagers = _wagers(allow_empty=False, required=False)
    stack = serializers.IntegerField(min_value=0, required=False, help_text="pot games: the player's chips")
    dealer = serializers.BooleanField(required=False, help_text="pot games: this player deals the hand")
    behind: serializers.ListSerializer[Any] = serializers.ListSerializer(child=_BehindInput(), required=False, max_length=MAX_BEHIND)
    player = serializers.CharField(required=False, max_length=40)
    refuses_bets_behind = serializers.BooleanField(required=False)


class RoundOpenInput(StrictInput):
    seats: serializers.ListSerializer[Any] = serializers.ListSerializer(child=_SeatInput(), allow_empty=False, max_length=10)


class CardInput(VersionedInput):
    code = serializers.CharField(max_length=3, help_text="card code, e.g. 9S, TH, JK")
    scan = serializers.IntegerField(required=False, min_value=1, help_text="the scan this card was read from")


class ScanInput(VersionedInput):
    image = serializers.FileField(help_text="a JPEG or PNG of the card(s)")


class DecisionInput(VersionedInput):
    action = serializers.CharField(max_length=40)
    who = serializers.CharField(required=False, max_length=40, help_text='default: whose turn it is, e.g. "seat:3"')
    amount = serializers.CharField(required=False, max_length=20, help_text="for raises and bets")
    card = serializers.CharField(required=False, max_length=3, help_text="the card drawn by a hit or a double")


class PaidInput(VersionedInput):
    paid = _KeyedField(
        pattern=_SEAT_KEY, what="seat number", child=_wagers(),
        help_text='seat → bet kind → winnings handed over, e.g. {"1": {"main": "10.00", "bonus": "9990.00"}}',
    )


class ReasonInput(VersionedInput):
    reason = serializers.CharField(max_length=300)


class ScanDismissInput(ReasonInput):
    only_this_card = serializers.BooleanField(
        default=False, help_text="drop only the card asked about (it is not a card) and go on with the scan's next "
                                 "cards; otherwise what is left of the scan is dropped")


class OptionalReasonInput(VersionedInput):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)


class CorrectInput(VersionedInput):
    code = serializers.CharField(max_length=3)
    reason = serializers.CharField(max_length=300)


def _plain(value: Any) -> Any:
    """Validated data as plain JSON values (DRF returns ordered dicts)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    s = serializer_class(data=request.data)
    s.is_valid(raise_exception=True)
    return dict(s.validated_data)


def _round_answer(rnd: Round, status: int = 200) -> Response:
    return Response(RoundSerializer(selectors.round_read(rnd.pk)).data, status=status)


def _round_or_404(pk: int) -> Round:
    return get_object_or_404(Round, pk=pk)


class RoundDetailView(ApiView):
    """The round as it stands: state, what comes next, cards, settlement, payment."""

    @extend_schema(operation_id="rounds_retrieve", responses={200: RoundSerializer, **ERRORS}, tags=["rounds"])
    def get(self, request: Request, pk: int) -> Response:
        return Response(RoundSerializer(selectors.round_read(pk, user=request.user)).data)


class RoundOpenView(ApiView):
    """Open a round at the table with its wagers (side bets and bets behind included)."""

    @extend_schema(operation_id="rounds_open", request=RoundOpenInput, parameters=[IDEMPOTENCY],
                   responses={201: RoundSerializer, **ERRORS}, tags=["rounds"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        data = _valid(RoundOpenInput, request)
        rnd = services.round_open(table=table, seats=_plain(data["seats"]), actor=request.user)
        return _round_answer(rnd, status=201)


class RoundCardView(ApiView):
    """Add the next card by its code (typed, or confirmed after a scan)."""

    @extend_schema(operation_id="rounds_card", request=CardInput, parameters=[IDEMPOTENCY],
                   responses={200: RoundSerializer, **ERRORS}, tags=["rounds"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(CardInput, request)
        rnd = services.round_add_card(round=_round_or_404(pk), code=data["code"], scan=data.get("scan"),
                                      actor=request.user, expected_version=data.get("version"))  # fmt: skip
        return _round_answer(rnd)


class RoundScanView(ApiView):
    """Add cards from a scan image: recognised by vision; a low-confidence read asks the dealer to confirm."""

    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(operation_id="rounds_scan", request={"multipart/form-data": ScanInput}, parameters=[IDEMPOTENCY],
                   responses={200: ScanAnswerSerializer, **ERRORS}, tags=["rounds"])  # fmt: skip
    def post(self, request: Request, pk: int) -> Response:
        # Who may scan and whether the round takes a card are checked before the upload is looked at;
        # the image is then checked from its header, decoded and read outside any transaction, and
        # only the storing of the scan and its cards is the idempotent, locked write.
        rnd = _round_or_404(pk)
        check_right(request.user, rnd.table)
        data = _valid(ScanInput, request)
        replay = answered_before(request)  # a retry of a scan already stored: its answer, nothing read again
        if replay is not None:
            return replay
        services.scan_precheck(round=rnd, actor=request.user)
        upload = data["image"]
        if upload.size > services.MAX_IMAGE_BYTES:
            raise InvalidInput(f"the image is larger than {services.MAX_IMAGE_BYTES // 2**20} MB",
                                        field="image")  # fmt: skip
        reading = services.scan_read(upload.read(), selectors.deck_profile_of(rnd.table))
        return self._store(request, pk, reading=reading, version=data.get("version"))

    @idempotent
    def _store(self, request: Request, pk: int, *, reading: services.ScanReading, version: int | None) -> Response:
        result = services.round_scan_card(round=_round_or_404(pk), reading=reading, actor=request.user,
                                          expected_version=version)  # fmt: skip
        return Response(ScanAnswerSerializer({
            "round": selectors.round_read(result.round.pk), "scan": result.scan.pk,
            "image": selectors.scan_image_url(result.scan.pk), "sha256": result.scan.sha256,
            "recorded": [c.code for c in result.recorded], "needs_confirmation": result.needs_confirmation,
            "candidates": result.candidates, "guesses": result.guesses,
        }).data)  # fmt: skip


class RoundDecisionView(ApiView):
    """Record a decision; the engine refuses one the rules do not allow (422 naming the rule)."""

    @extend_schema(operation_id="rounds_decision", request=DecisionInput, parameters=[IDEMPOTENCY],
                   responses={200: RoundSerializer, **ERRORS}, tags=["rounds"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(DecisionInput, request)
        rnd = services.round_decide(round=_round_or_404(pk), action=data["action"], who=data.get("who"),
                                    amount=data.get("amount"), card=data.get("card"), actor=request.user,
                                    expected_version=data.get("version"))  # fmt: skip
        return _round_answer(rnd)


class RoundSettleView(ApiView):
    """Settle a finished round: each bet's due amount with its explanation."""

    @extend_schema(operation_id="rounds_settle", request=VersionedInput, parameters=[IDEMPOTENCY],
                   responses={200: RoundSerializer, **ERRORS}, tags=["rounds"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(VersionedInput, request)
        rnd = services.round_settle(round=_round_or_404(pk), actor=request.user, expected_version=data.get("version"))
        return _round_answer(rnd)


class RoundPaidView(ApiView):
    """Record what the dealer paid; paid ≠ due keeps the round open until a correction or an approval."""

    @extend_schema(operation_id="rounds_paid", request=PaidInput, parameters=[IDEMPOTENCY],
                   responses={200: RoundSerializer, **ERRORS}, tags=["rounds"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(PaidInput, request)
        rnd = services.round_record_paid(round=_round_or_404(pk), paid=_plain(data["paid"]), actor=request.user,
                                         expected_version=data.get("version"))  # fmt: skip
        return _round_answer(rnd)


class RoundApproveView(ApiView):
    """A pit boss approves a large payout before paying, or closes a mismatch, with a reason."""

    @extend_schema(operation_id="rounds_approve", request=ReasonInput, parameters=[IDEMPOTENCY],
                   responses={200: RoundSerializer, **ERRORS}, tags=["rounds"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(ReasonInput, request)
        rnd = services.round_approve(round=_round_or_404(pk), reason=data["reason"], actor=request.user,
                                     expected_version=data.get("version"))  # fmt: skip
        return _round_answer(rnd)


class RoundPauseView(ApiView):
    """Pause the round in play."""

    @extend_schema(operation_id="rounds_pause", request=OptionalReasonInput, parameters=[IDEMPOTENCY],
                   responses={200: RoundSerializer, **ERRORS}, tags=["rounds"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(OptionalReasonInput, request)
        rnd = services.round_pause(round=_round_or_404(pk), reason=data.get("reason", ""), actor=request.user,
                                   expected_version=data.get("version"))  # fmt: skip
        return _round_answer(rnd)


class RoundResumeView(ApiView):
    """Resume a paused round where it was."""

    @extend_schema(operation_id="rounds_resume", request=VersionedInput, parameters=[IDEMPOTENCY],
                   responses={200: RoundSerializer, **ERRORS}, tags=["rounds"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(VersionedInput, request)
        rnd = services.round_resume(round=_round_or_404(pk), actor=request.user, expected_version=data.get("version"))
        return _round_answer(rnd)


class RoundCancelView(ApiView):
    """Cancel a round that cannot be completed; every wager is refunded."""

    @extend_schema(operation_id="rounds_cancel", request=ReasonInput, parameters=[IDEMPOTENCY],
                   responses={200: RoundSerializer, **ERRORS}, tags=["rounds"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(ReasonInput, request)
        rnd = services.round_cancel(round=_round_or_404(pk), reason=data["reason"], actor=request.user,
                                    expected_version=data.get("version"))  # fmt: skip
        return _round_answer(rnd)


class ScanDismissView(ApiView):
    """Drop the unsure scan the round waits on (no card was dealt, or it is scanned again), or only the card
    it asks about (not a card: the scan goes on with its next cards), with a reason."""

    @extend_schema(operation_id="rounds_scan_dismiss", request=ScanDismissInput, parameters=[IDEMPOTENCY],
                   responses={200: RoundSerializer, **ERRORS}, tags=["rounds"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int, scan: int) -> Response:
        data = _valid(ScanDismissInput, request)
        rnd = services.scan_dismiss(round=_round_or_404(pk), scan=scan, reason=data["reason"], actor=request.user,
                                    only_this_card=data["only_this_card"],
                                    expected_version=data.get("version"))  # fmt: skip
        return _round_answer(rnd)


class CardCorrectView(ApiView):
    """Correct a recorded card (after settlement: pit boss only); the round is re-settled."""

    @extend_schema(operation_id="rounds_card_correct", request=CorrectInput, parameters=[IDEMPOTENCY],
                   responses={200: RoundSerializer, **ERRORS}, tags=["rounds"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int, seq: int) -> Response:
        data = _valid(CorrectInput, request)
        rnd = services.card_correct(round=_round_or_404(pk), seq=seq, code=data["code"], reason=data["reason"],
                                    actor=request.user, expected_version=data.get("version"))  # fmt: skip
        return _round_answer(rnd)


IMAGE_TYPES = {".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png"}


class ScanImageView(ApiView):
    """A scan's image, to whoever may read its round (the image is stored outside any public URL)."""

    @extend_schema(operation_id="scans_image", responses={(200, "image/*"): bytes, **ERRORS}, tags=["rounds"])
    def get(self, request: Request, pk: int) -> FileResponse:
        scan = selectors.scan_get(user=request.user, pk=pk)
        name = scan.image.name or ""
        if not name or not scan.image.storage.exists(name):
            raise Http404("the scan's image is missing")
        suffix = name[name.rfind("."):].lower() if "." in name else ""
        response = FileResponse(scan.image.open("rb"), content_type=IMAGE_TYPES.get(suffix, "application/octet-stream"))
        # Immutable (the file is named by its hash) but personal: browsers may keep it, proxies may not.
        response["Cache-Control"] = "private, max-age=86400, immutable"
        response["ETag"] = f'"{scan.sha256}"'
        response["Content-Disposition"] = "inline"
        return response
