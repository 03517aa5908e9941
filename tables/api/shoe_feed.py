"""The shoe feed: a card-reading shoe or a document camera posts card images for its table.

``POST /api/tables/{id}/shoe-feed/`` (multipart ``image``), authenticated by the device's key
(``Authorization: Device <key>``, issued per table by ``manage.py shoe_feed_device``).  The key is
checked before anything else, then the table it is bound to, the round in play and the dealer holding
the table; only then is the upload looked at (size from its header), read outside any transaction and
stored as the dealer's scan (``tables.services.shoe_feed``).  The answer is a scan's answer.  An
``Idempotency-Key`` makes a re-sent image count once.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import extend_schema
from rest_framework import authentication, exceptions, serializers
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from tables import selectors, services
from tables.engine.errors import InvalidInput
from tables.errors import Conflict
from tables.models import ShoeFeedDevice
from tables.services import shoe_feed

from .base import ApiView
from .idempotency import answered_before, idempotent
from .rounds import ERRORS, IDEMPOTENCY, ScanAnswerSerializer, StrictInput, _valid

KEYWORD = "Device"


class DeviceKeyAuthentication(authentication.BaseAuthentication):
    """``Authorization: Device <key>``: the device (``request.auth``) acting for the dealer holding its
    table (``request.user``; anonymous while nobody holds it)."""

    def authenticate(self, request: Request) -> tuple[Any, ShoeFeedDevice] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("send the device key as 'Authorization: Device <key>'")
        try:
            key = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("the device key is not valid") from None
        device = shoe_feed.shoe_feed_device(key) if len(key) <= 200 else None
        if device is None:
            raise exceptions.AuthenticationFailed("the device key is not valid or was revoked")
        return shoe_feed.shoe_feed_dealer(device) or AnonymousUser(), device

    def authenticate_header(self, request: Request) -> str:
        return KEYWORD


class DeviceKeyScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "tables.api.shoe_feed.DeviceKeyAuthentication"
    name = "deviceKey"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": "'Device <key>': a shoe feed's key, bound to one table"}  # fmt: skip


class ShoeFeedInput(StrictInput):
    image = serializers.FileField(help_text="a JPEG or PNG of the card the shoe or camera just read")


class ShoeFeedView(ApiView):
    """A device posts the image of the next card dealt at its table; it lands in the round in play."""

    authentication_classes = [DeviceKeyAuthentication]
    permission_classes: list[Any] = []
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(operation_id="tables_shoe_feed", request={"multipart/form-data": ShoeFeedInput},
                   parameters=[IDEMPOTENCY], responses={200: ScanAnswerSerializer, **ERRORS}, tags=["tables"])  # fmt: skip
    def post(self, request: Request, pk: int) -> Response:
        device = request.auth
        if not isinstance(device, ShoeFeedDevice):
            raise exceptions.NotAuthenticated("a shoe feed authenticates with 'Authorization: Device <key>'")
        if device.table_id != pk:
            raise exceptions.PermissionDenied(f"this device feeds table {device.table.number}, not this one")
        dealer = request.user
        if not getattr(dealer, "is_authenticated", False):
            raise Conflict(f"nobody holds table {device.table.number}: a dealer takes the table first")
        rnd = shoe_feed.shoe_feed_round(device)
        services.scan_precheck(round=rnd, actor=dealer)  # the dealer's right at the table, the round's state
        data = _valid(ShoeFeedInput, request)
        replay = answered_before(request)
        if replay is not None:
            return replay
        upload = data["image"]
        if upload.size > services.MAX_IMAGE_BYTES:
            raise InvalidInput(f"the image is larger than {services.MAX_IMAGE_BYTES // 2**20} MB",
                                        field="image")  # fmt: skip
        reading = services.scan_read(upload.read(), selectors.deck_profile_of(device.table))
        return self._store(request, pk, device=device, round_id=rnd.pk, reading=reading)

    @idempotent
    def _store(self, request: Request, pk: int, *, device: ShoeFeedDevice, round_id: int,
               reading: services.ScanReading) -> Response:
        rnd = shoe_feed.shoe_feed_round(device)
        if rnd.pk != round_id:
            raise Conflict("the round changed while the image was read: send it again")
        result = shoe_feed.shoe_feed_store(device=device, round=rnd, reading=reading, dealer=request.user)
        return Response(ScanAnswerSerializer({
            "round": selectors.round_read(result.round.pk), "scan": result.scan.pk,
            "image": selectors.scan_image_url(result.scan.pk), "sha256": result.scan.sha256,
            "recorded": [c.code for c in result.recorded], "needs_confirmation": result.needs_confirmation,
            "candidates": result.candidates, "guesses": result.guesses,
        }).data)  # fmt: skip
