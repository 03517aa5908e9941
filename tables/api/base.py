"""Base class of every tablet API view: the API's error format and JSON in, JSON out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from .errors import api_exception_handler
from .parsers import SafeJSONParser


class ApiView(APIView):
    """An APIView answering errors in the format of ``tables.api.errors``."""

    parser_classes = [SafeJSONParser]
    renderer_classes = [JSONRenderer]

    def get_exception_handler(self) -> Callable[[Exception, dict[str, Any]], Response | None]:
        return api_exception_handler
