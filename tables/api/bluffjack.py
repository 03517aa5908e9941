"""Bluffjack games over HTTP: the stacks carried from hand to hand, the next hand, ending a game.

A hand is an ordinary round (``/api/rounds/<id>/...`` for cards, betting, settlement and payment);
the first hand, opened with the stacks the dealer entered (``POST /api/tables/<id>/rounds/``),
starts the game, and each next hand opens here from the stacks the last one left.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tables import selectors, services
from tables.models import BluffjackGame, GameState, RoundState, Table

from .base import ApiView
from .idempotency import idempotent
from .rounds import ERRORS, IDEMPOTENCY, ReasonInput, RoundSerializer, VersionedInput, _round_answer, _valid

_OPEN_HAND = (RoundState.IN_PLAY, RoundState.PAUSED, RoundState.SETTLED, RoundState.MISMATCH)


class BluffjackGameSerializer(serializers.Serializer):
    """A Bluffjack game: who holds how many chips, who deals next, the hands played."""

    id = serializers.IntegerField()
    table = serializers.IntegerField()
    number = serializers.IntegerField()
    state = serializers.CharField()
    state_label = serializers.CharField()
    version = serializers.IntegerField()
    players = serializers.ListField(child=serializers.DictField(), help_text="seat, player, stack, eliminated")
    starting_stacks = serializers.DictField(child=serializers.IntegerField())
    stacks = serializers.DictField(child=serializers.IntegerField())
    button = serializers.CharField(help_text="who deals the next hand")
    house = serializers.IntegerField()
    set_aside = serializers.IntegerField()
    carry = serializers.IntegerField()
    hands_played = serializers.IntegerField()
    winner = serializers.CharField(allow_blank=True)
    current_hand = serializers.IntegerField(allow_null=True, help_text="the round of the hand not yet closed")
    hands = serializers.ListField(child=serializers.DictField(), help_text="round id, number, state")


def bluffjack_document(game: BluffjackGame) -> dict[str, Any]:
    """The game as the tablet shows it."""
    hands = list(game.hands.order_by("number").values("id", "number", "state"))
    current = next((h["id"] for h in reversed(hands) if h["state"] in _OPEN_HAND), None)
    return {
        "id": game.pk, "table": game.table_id, "number": game.number, "state": game.state,
        "state_label": GameState(game.state).label, "version": game.version,
        "players": [{**p, "stack": int(game.stacks.get(p["player"], 0)),
                     "eliminated": int(game.stacks.get(p["player"], 0)) == 0} for p in game.players],
        "starting_stacks": game.starting_stacks, "stacks": game.stacks, "button": game.button,
        "house": game.house, "set_aside": game.set_aside, "carry": game.carry,
        "hands_played": game.hands_played, "winner": game.winner, "current_hand": current, "hands": hands,
    }  # fmt: skip


def _game_or_404(pk: int) -> BluffjackGame:
    return get_object_or_404(BluffjackGame.objects.select_related("table"), pk=pk)


class BluffjackGamesView(ApiView):
    """The table's Bluffjack games, the latest first (the playing one, if any, is the first)."""

    @extend_schema(operation_id="bluffjack_games_list", responses={200: BluffjackGameSerializer(many=True), **ERRORS},
                   tags=["bluffjack"])  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        selectors.check_can_read(request.user)
        table = get_object_or_404(Table, pk=pk)
        with selectors.one_moment():  # each game's row and its hands as of one moment
            games = BluffjackGame.objects.filter(table=table).order_by("-number")[:5]
            return Response(BluffjackGameSerializer([bluffjack_document(g) for g in games], many=True).data)


class BluffjackGameView(ApiView):
    """One Bluffjack game."""

    @extend_schema(operation_id="bluffjack_game_retrieve", responses={200: BluffjackGameSerializer, **ERRORS},
                   tags=["bluffjack"])  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        selectors.check_can_read(request.user)
        with selectors.one_moment():
            return Response(BluffjackGameSerializer(bluffjack_document(_game_or_404(pk))).data)


class BluffjackHandOpenView(ApiView):
    """Open the game's next hand from the carried stacks (button passed left, players without chips out)."""

    @extend_schema(operation_id="bluffjack_hand_open", request=VersionedInput, parameters=[IDEMPOTENCY],
                   responses={201: RoundSerializer, **ERRORS}, tags=["bluffjack"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(VersionedInput, request)
        rnd = services.bluffjack_hand_open(game=_game_or_404(pk), actor=request.user,
                                           expected_version=data.get("version"))  # fmt: skip
        return _round_answer(rnd, status=201)


class BluffjackGameEndView(ApiView):
    """End a game before one player holds every chip, with a reason; the stacks stay on record."""

    @extend_schema(operation_id="bluffjack_game_end", request=ReasonInput, parameters=[IDEMPOTENCY],
                   responses={200: BluffjackGameSerializer, **ERRORS}, tags=["bluffjack"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(ReasonInput, request)
        game = services.bluffjack_game_end(game=_game_or_404(pk), reason=data["reason"], actor=request.user,
                                           expected_version=data.get("version"))  # fmt: skip
        return Response(BluffjackGameSerializer(bluffjack_document(game)).data)
