"""Contract Rummy dealer assist: check laid-down melds against the deal's contract and score a hand.

The check is stateless, under the table's rule set (contracts, card scores, wild cards); the cards
come from the tablet's scans or picker.  The games below are stored: a game of seven deals, each
deal's shoe, hands, melds and scores, every turn action, and the score sheet
(``tables.services.rummy``).
"""

from __future__ import annotations

import hashlib

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from tables import selectors, services
from tables.access import check_right
from tables.engine import rummy
from tables.engine.cards import parse_card
from tables.engine.errors import InvalidInput
from tables.engine.rulesets import ContractRummyRules
from tables.models import RummyGame, Table
from tables.services import rummy as services_rummy

from .base import ApiView
from .idempotency import idempotent
from .rounds import ERRORS, IDEMPOTENCY, StrictInput, VersionedInput, _valid


class RummyCheckInput(StrictInput):
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
        rules = table.rule_set.rules()
        if table.game.slug != "contract-rummy" or not isinstance(rules, ContractRummyRules):
            raise InvalidInput("this table does not play Contract Rummy", field="table")
        data = _valid(RummyCheckInput, request)
        contract = rummy.contract_of(data["deal"], rules)
        laid = data.get("melds") or data.get("cards")
        out = {"deal": data["deal"], "contract": list(contract), "met": None, "melds": [], "rule": None, "message": ""}
        if laid:
            check = rummy.verify_contract(laid, data["deal"], rules)
            out.update(met=check.met, melds=[m.codes() for m in check.melds], rule=check.rule, message=check.message)
        hand = [parse_card(c, field=f"hand[{i}]") for i, c in enumerate(data.get("hand", []))]
        out.update(hand_points=rummy.score_hand(hand, rules), hand_detail=rummy.score_detail(hand, rules))
        return Response(RummyCheckOutput(out).data)


# ---------------------------------------------------------------------------------------------
# Contract Rummy games: deals stored, every turn followed by the engine, the score sheet on the server


class RummyGameSerializer(serializers.Serializer):
    """A Contract Rummy game as the tablet shows it."""

    id = serializers.IntegerField()
    table = serializers.IntegerField()
    number = serializers.IntegerField()
    state = serializers.CharField()
    state_label = serializers.CharField()
    version = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())
    first_dealer = serializers.CharField()
    dealer = serializers.CharField(help_text="who deals the current (or next) deal")
    deal = serializers.IntegerField(help_text="the deal number (0 before the first deal)")
    deals_in_game = serializers.IntegerField()
    contract = serializers.ListField(child=serializers.CharField())
    next = serializers.DictField(help_text="the engine's prompt: phase, actor, needs, allowed, forced, reason")
    hands = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    hand_points = serializers.DictField(child=serializers.IntegerField())
    melds = serializers.ListField(child=serializers.DictField())
    top_discard = serializers.CharField(allow_null=True)
    stock = serializers.IntegerField()
    sheet = serializers.ListField(child=serializers.DictField(), help_text="player, scores per deal, total")
    winners = serializers.ListField(child=serializers.CharField())
    deals = serializers.ListField(child=serializers.DictField())


class RummyGameStartInput(StrictInput):
    players = serializers.ListField(child=serializers.CharField(max_length=40), min_length=2, max_length=12,
                                    help_text="names in seat order, clockwise")
    dealer = serializers.CharField(max_length=40, help_text="who deals first (the low-card draw)")


class RummyDealInput(VersionedInput):
    shoe_order = serializers.ListField(child=serializers.CharField(max_length=3), required=False, max_length=600,
                                       help_text="the shuffled shoe read by the shuffler, top card first; "
                                                 "omitted: the server shuffles")  # fmt: skip


class RummyActionInput(VersionedInput):
    action = serializers.ChoiceField(choices=services_rummy.ACTIONS)
    player = serializers.CharField(max_length=40, required=False, help_text="default: whose turn it is")
    melds = serializers.ListField(child=serializers.ListField(child=serializers.CharField(max_length=6), allow_empty=False),
                                  required=False, allow_empty=False, max_length=10,
                                  help_text='lay_down: e.g. [["7S","7H","7D"], ["3H","4H","JK=5H","6H"]]')
    cards = serializers.ListField(child=serializers.CharField(max_length=6), required=False, allow_empty=False,
                                  max_length=40, help_text="lay_down: scanned or picked cards, split into the melds")
    card = serializers.CharField(max_length=6, required=False, help_text="discard, lay_off, trade_joker")
    meld = serializers.IntegerField(min_value=0, max_value=100, required=False, help_text="lay_off, trade_joker")
    scan_sha256 = serializers.CharField(max_length=64, required=False, help_text="the scan the cards were read from")


class RummyEndInput(VersionedInput):
    reason = serializers.CharField(max_length=300)


class RummyScanInput(StrictInput):
    image = serializers.FileField(help_text="a JPEG or PNG of the laid-down cards")


class RummyScanOutput(serializers.Serializer):
    sha256 = serializers.CharField()
    cards = serializers.ListField(child=serializers.DictField(), help_text="code, confidence, corners")
    met = serializers.BooleanField()
    melds = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    rule = serializers.CharField(allow_null=True)
    message = serializers.CharField(allow_blank=True)


def _game_answer(game: RummyGame, status: int = 200) -> Response:
    with selectors.one_moment():  # the game's row and its deals as of one moment: its version fits what shows
        game.refresh_from_db()
        return Response(RummyGameSerializer(services_rummy.game_document(game)).data, status=status)


def _game_or_404(pk: int) -> RummyGame:
    return get_object_or_404(RummyGame.objects.select_related("table"), pk=pk)


class RummyGamesView(ApiView):
    """The table's Contract Rummy games (the playing one first); POST starts a game."""

    @extend_schema(operation_id="rummy_games_list", responses={200: RummyGameSerializer(many=True), **ERRORS},
                   tags=["rummy"])  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        selectors.check_can_read(request.user)
        table = get_object_or_404(Table, pk=pk)
        with selectors.one_moment():
            games = RummyGame.objects.filter(table=table).order_by("-number")[:5]
            return Response(RummyGameSerializer([services_rummy.game_document(g) for g in games], many=True).data)

    @extend_schema(operation_id="rummy_game_start", request=RummyGameStartInput, parameters=[IDEMPOTENCY],
                   responses={201: RummyGameSerializer, **ERRORS}, tags=["rummy"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table.objects.select_related("game"), pk=pk)
        data = _valid(RummyGameStartInput, request)
        game = services_rummy.rummy_game_start(table=table, players=data["players"], dealer=data["dealer"],
                                               actor=request.user)  # fmt: skip
        return _game_answer(game, status=201)


class RummyGameView(ApiView):
    """A Contract Rummy game: deal, contract, whose turn, hands, melds and the score sheet."""

    @extend_schema(operation_id="rummy_game_retrieve", responses={200: RummyGameSerializer, **ERRORS}, tags=["rummy"])
    def get(self, request: Request, pk: int) -> Response:
        selectors.check_can_read(request.user)
        with selectors.one_moment():
            return Response(RummyGameSerializer(services_rummy.game_document(_game_or_404(pk))).data)


class RummyDealView(ApiView):
    """Deal the next deal from the shuffled shoe."""

    @extend_schema(operation_id="rummy_deal_start", request=RummyDealInput, parameters=[IDEMPOTENCY],
                   responses={201: RummyGameSerializer, **ERRORS}, tags=["rummy"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(RummyDealInput, request)
        game = _game_or_404(pk)
        services_rummy.rummy_deal_start(game=game, shoe_order=data.get("shoe_order"), actor=request.user,
                                        expected_version=data.get("version"))  # fmt: skip
        return _game_answer(game, status=201)


class RummyActionView(ApiView):
    """A turn action of the deal in play; the engine refuses one the rules forbid (422 naming the rule)."""

    @extend_schema(operation_id="rummy_action", request=RummyActionInput, parameters=[IDEMPOTENCY],
                   responses={200: RummyGameSerializer, **ERRORS}, tags=["rummy"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(RummyActionInput, request)
        game = _game_or_404(pk)
        services_rummy.rummy_act(
            game=game, action=data["action"], player=data.get("player"), melds=data.get("melds"),
            cards=data.get("cards"), card=data.get("card"), meld=data.get("meld"),
            scan_sha256=data.get("scan_sha256"), actor=request.user, expected_version=data.get("version"),
        )  # fmt: skip
        return _game_answer(game)


class RummyGameEndView(ApiView):
    """End a game before its last deal, with a reason; the score sheet so far stays on record."""

    @extend_schema(operation_id="rummy_game_end", request=RummyEndInput, parameters=[IDEMPOTENCY],
                   responses={200: RummyGameSerializer, **ERRORS}, tags=["rummy"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(RummyEndInput, request)
        game = _game_or_404(pk)
        services_rummy.rummy_game_end(game=game, reason=data["reason"], actor=request.user,
                                      expected_version=data.get("version"))  # fmt: skip
        return _game_answer(game)


class RummyScanView(ApiView):
    """Read laid-down cards from a scan (vision) and check them against the deal's contract; records nothing."""

    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(operation_id="rummy_scan", request={"multipart/form-data": RummyScanInput},
                   responses={200: RummyScanOutput, **ERRORS}, tags=["rummy"])  # fmt: skip
    def post(self, request: Request, pk: int) -> Response:
        game = _game_or_404(pk)
        check_right(request.user, game.table)  # before the upload is looked at
        data = _valid(RummyScanInput, request)
        upload = data["image"]
        if upload.size > services.MAX_IMAGE_BYTES:
            raise InvalidInput(f"the image is larger than {services.MAX_IMAGE_BYTES // 2**20} MB", field="image")
        raw = upload.read()
        found = services.scan_read(raw, selectors.deck_profile_of(game.table)).found
        state = services_rummy.replay(game)
        deal = max(state.deal_number, 1)
        check = services_rummy.melds_from_scan([c["code"] for c in found], deal, state.rules)
        return Response(RummyScanOutput({"sha256": hashlib.sha256(raw).hexdigest(), "cards": found, **check}).data)
