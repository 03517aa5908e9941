"""``POST /api/rounds/verify/``: the stateless round verification of shared/DESIGN.md over HTTP."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tables.engine import verify_round
from tables.engine.errors import InvalidInput
from tables.engine.games import SLUGS

from .base import ApiView
from .serializers import ErrorSerializer

GAMES = list(SLUGS)


class _HandSerializer(serializers.Serializer):
    cards = serializers.ListField(child=serializers.CharField(), help_text="card codes in the order dealt")
    doubled = serializers.BooleanField(required=False, default=False)
    surrendered = serializers.BooleanField(required=False, default=False)


class _BehindSerializer(serializers.Serializer):
    wagers = serializers.DictField(child=serializers.CharField(), help_text="main and insurance")
    double_along = serializers.BooleanField(required=False)
    follow_split = serializers.ChoiceField(choices=["both", "first"], required=False)


class _SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    wagers = serializers.DictField(child=serializers.CharField(), help_text="bet kind → decimal string")
    hands = _HandSerializer(many=True)
    behind = _BehindSerializer(many=True, required=False)
    paid = serializers.DictField(
        child=serializers.CharField(), required=False, help_text="bet kind → winnings handed over"
    )


class _DealerSerializer(serializers.Serializer):
    cards = serializers.ListField(child=serializers.CharField())


class VerifyRequestSerializer(serializers.Serializer):
    """The round to verify (documentation only: the engine validates and names the bad field)."""

    game = serializers.ChoiceField(choices=GAMES)
    table_minimum = serializers.CharField(help_text='a decimal string such as "10.00"')
    pay_table = serializers.DictField(required=False, help_text="optional; default the published table")
    dealer = _DealerSerializer(required=False)
    seats = _SeatSerializer(many=True, required=False)


class _LineSerializer(serializers.Serializer):
    bet = serializers.CharField()
    wager = serializers.CharField()
    result = serializers.CharField()
    net = serializers.CharField()
    detail = serializers.CharField()
    hand = serializers.IntegerField(required=False)
    behind = serializers.IntegerField(required=False)


class _SeatResultSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    lines = _LineSerializer(many=True)
    total_net = serializers.CharField()


class _ViolationSerializer(serializers.Serializer):
    rule = serializers.CharField()
    message = serializers.CharField()


class VerifyResponseSerializer(serializers.Serializer):
    seats = _SeatResultSerializer(many=True)
    violations = _ViolationSerializer(many=True)
    discrepancies = serializers.ListField(child=serializers.DictField())


FINNISH_EXAMPLE = {
    "game": "finnish-27",
    "table_minimum": "10.00",
    "dealer": {"cards": ["9C", "9D"]},
    "seats": [
        {
            "seat": 1,
            "wagers": {"main": "10.00"},
            "hands": [{"cards": ["9S", "9H", "9D"]}],
            "paid": {"main": "10.00", "bonus": "9990.00"},
        }
    ],
}


class RoundVerifyView(ApiView):
    """Verify a finished round: settlement lines, rule violations and payout discrepancies."""

    @extend_schema(
        operation_id="rounds_verify",
        request=VerifyRequestSerializer,
        responses={200: VerifyResponseSerializer, 400: ErrorSerializer},
        examples=[OpenApiExample("Finnish 27, 9-9-9 against a dealer 9-9", value=FINNISH_EXAMPLE)],
        tags=["verify"],
    )
    def post(self, request: Request) -> Response:
        # The engine is the validator: it names the bad field (InvalidInput → 400 in the handler).
        data = request.data
        if not isinstance(data, dict):  # (a JSON array: refused as the engine refuses it)
            raise InvalidInput("the request must be a JSON object", field="(body)")
        return Response(verify_round(data))
