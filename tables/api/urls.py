"""Tablet API routes."""

from django.urls import path

from .auth import TokenView
from .verify import RoundVerifyView

urlpatterns: list = [
    path("auth/token/", TokenView.as_view(), name="api-auth-token"),
    path("rounds/verify/", RoundVerifyView.as_view(), name="api-rounds-verify"),
]
