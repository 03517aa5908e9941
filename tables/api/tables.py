"""Table-level commands and reads for the tablet: pick a table, hold it, shuffle, recall."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tables import selectors, services
from tables.errors import InvalidInput
from tables.models import Table

from .base import ApiView
from .idempotency import idempotent
from .rounds import ERRORS, IDEMPOTENCY, RoundSerializer, StrictInput, _valid


class TableSerializer(serializers.Serializer):
    """A table as the tablet shows it: game, limits, who holds it, the shoe gauge, the open round."""

    id = serializers.IntegerField()
    number = serializers.IntegerField()
    pit = serializers.CharField()
    game = serializers.CharField()
    game_name = serializers.CharField()
    status = serializers.CharField()
    min_bet = serializers.CharField()
    max_bet = serializers.CharField()
    rule_set = serializers.DictField()
    pay_table = serializers.DictField()
    dealer = serializers.CharField(allow_null=True)
    shoe = serializers.DictField(allow_null=True)
    round = serializers.IntegerField(allow_null=True, help_text="the open round (in play, paused, awaiting payment)")
    last_round = serializers.IntegerField(
        allow_null=True, required=False,
        help_text="no round open: the latest round, when it has ended (closed or cancelled), until the next one opens")
    limits = serializers.DictField(required=False, help_text="per bet kind: {min, max}; and max_bets_behind")


class ShuffleInput(StrictInput):
    reason = serializers.CharField(max_length=200, required=False, default="shuffle point reached")


class OpenInput(StrictInput):
    dealer = serializers.CharField(required=False, max_length=150,
                                   help_text="a pit boss hands the table to this dealer (user name); default: you")


class EmptyInput(StrictInput):
    pass


class TableListView(ApiView):
    """The tables of the floor (the tablet's table picker)."""

    @extend_schema(operation_id="tables_list", responses={200: TableSerializer(many=True), **ERRORS}, tags=["tables"])
    def get(self, request: Request) -> Response:
        tables = selectors.table_list(user=request.user)
        return Response(TableSerializer([selectors.table_document(t) for t in tables], many=True).data)


class TableDetailView(ApiView):
    """One table: holder, shoe gauge (shuffle due), the open round."""

    @extend_schema(operation_id="tables_retrieve", responses={200: TableSerializer, **ERRORS}, tags=["tables"])
    def get(self, request: Request, pk: int) -> Response:
        selectors.check_can_read(request.user)
        table = get_object_or_404(Table.objects.select_related("game", "pit", "rule_set", "pay_table"), pk=pk)
        return Response(TableSerializer(selectors.table_document(table)).data)


def _table_answer(pk: int) -> Response:
    table = Table.objects.select_related("game", "pit", "rule_set", "pay_table").get(pk=pk)
    return Response(TableSerializer(selectors.table_document(table)).data)


class TableOpenView(ApiView):
    """The dealer takes the table (opens it for play)."""

    @extend_schema(operation_id="tables_open", request=OpenInput, parameters=[IDEMPOTENCY],
                   responses={200: TableSerializer, **ERRORS}, tags=["tables"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(OpenInput, request)
        dealer = None
        if "dealer" in data:
            dealer = get_user_model().objects.filter(username=data["dealer"], is_active=True).first()
            if dealer is None:
                raise InvalidInput(f"no user {data['dealer']!r}", field="dealer")
        services.table_open(table=get_object_or_404(Table, pk=pk), dealer=dealer, actor=request.user)
        return _table_answer(pk)


class TableCloseView(ApiView):
    """Close the table (no round may be open)."""

    @extend_schema(operation_id="tables_close", request=EmptyInput, parameters=[IDEMPOTENCY],
                   responses={200: TableSerializer, **ERRORS}, tags=["tables"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        services.table_close(table=get_object_or_404(Table, pk=pk), actor=request.user)
        return _table_answer(pk)


class TableShuffleView(ApiView):
    """Record a shuffle: a fresh shoe (the players are notified)."""

    @extend_schema(operation_id="tables_shuffle", request=ShuffleInput, parameters=[IDEMPOTENCY],
                   responses={200: TableSerializer, **ERRORS}, tags=["tables"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(ShuffleInput, request)
        services.shoe_shuffle(table=get_object_or_404(Table, pk=pk), reason=data["reason"], actor=request.user)
        return _table_answer(pk)


class TableRecallView(ApiView):
    """Game recall: the last 10 rounds of the table, in full."""

    @extend_schema(operation_id="tables_recall", responses={200: RoundSerializer(many=True), **ERRORS},
                   tags=["tables"])  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        selectors.check_can_read(request.user)
        table = get_object_or_404(Table, pk=pk)
        return Response(RoundSerializer(selectors.round_recall(table=table), many=True).data)
