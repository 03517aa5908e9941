"""Contract Rummy dealer assist: check laid-down melds against the deal's contract and score a hand.

Stateless, under the table's rule set (contracts, card scores, wild cards); the cards come from the
tablet's scans or picker.  Contract Rummy deals are not stored as rounds yet (see the tablet notes).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tables import selectors
from tables.engine import rummy
from tables.engine.cards import parse_card
from tables.engine.errors import InvalidInput
from tables.models import Table

from .base import ApiView
from .rounds import ERRORS, _valid


class RummyCheckInput(serializers.Serializer):
    deal = serializers.IntegerField(min_value=1, max_value=20, help_text="the deal number (1-7 published)")
    melds = serializers.ListField(child=serializers.ListField(child=serializers.CharField(max_length=6)), required=False,
                                  help_text='as laid down, e.g. [["7S","7H","7D"], ["3H","4H","JK=5H","6H"]]')
    cards = serializers.ListField(child=serializers.CharField(max_length=6), required=False,
                                  help_text="or a flat list of scanned cards, split into the contract's melds")
    hand = serializers.ListField(child=serializers.CharField(max_length=3), required=False,
                                 help_text="cards left in the hand, scored")


class RummyCheckOutput(serializers.Serializer):
    deal = serializers.IntegerField()
    contract = serializers.ListField(child=serializers.CharField())
    met = serializers.BooleanField(allow_null=True)
    melds = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    rule = serializers.CharField(allow_null=True)
    message = serializers.CharField(allow_blank=True)
    hand_points = serializers.IntegerField()
    hand_detail = serializers.CharField()


class RummyCheckView(ApiView):
    """Check a Contract Rummy contract (melds from scanned cards) and score the cards left in a hand."""

    @extend_schema(operation_id="tables_rummy_check", request=RummyCheckInput,
                   responses={200: RummyCheckOutput, **ERRORS}, tags=["tables"])  # fmt: skip
    def post(self, request: Request, pk: int) -> Response:
        selectors.check_can_read(request.user)
        table = get_object_or_404(Table.objects.select_related("game", "rule_set"), pk=pk)
        if table.game.slug != "contract-rummy":
            raise InvalidInput("this table does not play Contract Rummy", field="table")
        data = _valid(RummyCheckInput, request)
        rules = table.rule_set.rules()
        contract = rummy.contract_of(data["deal"], rules)
        laid = data.get("melds") or data.get("cards")
        out = {"deal": data["deal"], "contract": list(contract), "met": None, "melds": [], "rule": None, "message": ""}
        if laid:
            check = rummy.verify_contract(laid, data["deal"], rules)
            out.update(met=check.met, melds=[m.codes() for m in check.melds], rule=check.rule, message=check.message)
        hand = [parse_card(c, field=f"hand[{i}]") for i, c in enumerate(data.get("hand", []))]
        out.update(hand_points=rummy.score_hand(hand, rules), hand_detail=rummy.score_detail(hand, rules))
        return Response(RummyCheckOutput(out).data)
