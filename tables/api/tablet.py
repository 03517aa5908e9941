"""Commands and reads the dealer tablet adds to the live round API: a pit boss rejects a payment with
a reason the dealer sees, and the dealers a pit boss may hand the table to."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tables import services
from tables.access import check_pit_boss
from tables.models import Round, Table
from tables.selectors import tablet as tablet_selectors

from .base import ApiView
from .idempotency import idempotent
from .rounds import ERRORS, IDEMPOTENCY, RoundSerializer, VersionedInput, _round_answer, _valid


class RejectInput(VersionedInput):
    reason = serializers.CharField(max_length=300, help_text="why the payment is refused: the dealer reads it")


class RoundRejectView(ApiView):
    """A pit boss refuses a payment as it stands, with a reason; the dealer pays again."""

    @extend_schema(operation_id="rounds_reject", request=RejectInput, parameters=[IDEMPOTENCY],
                   responses={200: RoundSerializer, **ERRORS}, tags=["rounds"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(RejectInput, request)
        rnd = services.round_reject(round=get_object_or_404(Round, pk=pk), reason=data["reason"], actor=request.user,
                                    expected_version=data.get("version"))  # fmt: skip
        return _round_answer(rnd)


class DealerSerializer(serializers.Serializer):
    username = serializers.CharField()
    table = serializers.IntegerField(allow_null=True, help_text="the number of the table they hold now")


class TableDealersView(ApiView):
    """The dealers a pit boss may hand this table to (pit bosses only)."""

    @extend_schema(operation_id="tables_dealers", responses={200: DealerSerializer(many=True), **ERRORS},
                   tags=["tables"])  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        check_pit_boss(request.user)
        get_object_or_404(Table, pk=pk)
        return Response(DealerSerializer(tablet_selectors.handover_dealers(), many=True).data)
