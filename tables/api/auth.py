"""Tablet sign-in over the API: a DRF token for a user name and password (session auth also works)."""

from __future__ import annotations

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle

from .base import ApiView
from .serializers import ErrorSerializer


class TokenInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, style={"input_type": "password"}, trim_whitespace=False)


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()
    username = serializers.CharField()


class TokenLoginThrottle(AnonRateThrottle):
    rate = "30/min"


class TokenView(ApiView):
    """Exchange a user name and password for the tablet's API token."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_token",
        request=TokenInputSerializer,
        responses={200: TokenOutputSerializer, 400: ErrorSerializer},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        data = TokenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(
            request._request, username=data.validated_data["username"], password=data.validated_data["password"]
        )
        if user is None or not user.is_active:
            raise serializers.ValidationError({"password": ["wrong user name or password"]})
        token, _ = Token.objects.get_or_create(user=user)
        return Response(TokenOutputSerializer({"token": token.key, "username": user.get_username()}).data)
