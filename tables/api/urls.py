"""Tablet API routes."""

urlpatterns: list = []
