"""Request parsers of the API (imported by DRF's settings: nothing here may import rest_framework.views)."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class SafeJSONParser(JSONParser):
    """JSON that nests too deeply for Python's parser is a 400, not a RecursionError (a 500)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the document nests too deeply") from None
