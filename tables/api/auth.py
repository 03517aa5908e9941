"""Tablet sign-in over the API: expiring, per-device, revocable tokens (django-rest-knox); session auth also works.

``POST /api/auth/token/`` ``{"username", "password"}`` → ``{"token", "username", "expiry"}``; requests
then send ``Authorization: Token <token>``.  ``POST /api/auth/logout/`` revokes the token it is sent
with, ``POST /api/auth/logout-all/`` every token of the user.  Too many failed sign-ins for a user
name from one address lock it out for a while (django-axes): a JSON 429 saying so.
"""

from __future__ import annotations

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema
from knox.auth import TokenAuthentication
from knox.models import AuthToken
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tables.services import auth as services_auth

from .base import ApiView
from .errors import lockout_message
from .serializers import ErrorSerializer


class TokenInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, style={"input_type": "password"}, trim_whitespace=False)


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()
    username = serializers.CharField()
    expiry = serializers.DateTimeField(allow_null=True, help_text="when the token stops working")


class EmptyInput(serializers.Serializer):
    pass


class LockedOut(exceptions.APIException):
    """Too many failed sign-ins (django-axes): HTTP 429."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_detail = "too many failed sign-ins: locked for a while; try again later"
    default_code = "locked_out"


class TokenView(ApiView):
    """Exchange a user name and password for a new API token (one per device and sign-in)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_token",
        request=TokenInputSerializer,
        responses={200: TokenOutputSerializer, 400: ErrorSerializer, 429: ErrorSerializer},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        data = TokenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(
            request._request, username=data.validated_data["username"], password=data.validated_data["password"]
        )
        if getattr(request._request, "axes_locked_out", False):
            raise LockedOut(lockout_message())
        if user is None or not user.is_active:
            raise serializers.ValidationError({"password": ["wrong user name or password"]})
        token, expiry = services_auth.token_create(user=user, request=request._request)
        return Response(TokenOutputSerializer({"token": token, "username": user.get_username(), "expiry": expiry}).data)


class LogoutView(ApiView):
    """Revoke the token this request is sent with (sign this device out)."""

    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="auth_logout", request=EmptyInput, responses={204: None, 401: ErrorSerializer},
                   tags=["auth"])  # fmt: skip
    def post(self, request: Request) -> Response:
        token = request.auth
        assert isinstance(token, AuthToken)  # TokenAuthentication is the only way in
        services_auth.token_revoke(token=token, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutAllView(ApiView):
    """Revoke every token of the signed-in user (sign out every device)."""

    @extend_schema(operation_id="auth_logout_all", request=EmptyInput, responses={204: None, 401: ErrorSerializer},
                   tags=["auth"])  # fmt: skip
    def post(self, request: Request) -> Response:
        services_auth.token_revoke_all(user=request.user, actor=request.user, reason="log out everywhere")
        return Response(status=status.HTTP_204_NO_CONTENT)
