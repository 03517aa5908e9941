"""Serializers shared by the tablet API views."""

from __future__ import annotations

from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    """The API's error document (see ``tables.api.errors``)."""

    error = serializers.CharField()
    field = serializers.CharField(required=False)
    code = serializers.CharField(required=False)
    rule = serializers.CharField(required=False)
    # (DRF's metaclass moves declared fields out of the class: this does not shadow ``Serializer.errors``.)
    errors = serializers.JSONField(required=False)  # type: ignore[assignment]
