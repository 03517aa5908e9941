"""The OpenAPI schema and the Swagger UI page are served and list every tablet command."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

COMMANDS = ["rounds_verify", "rounds_open", "rounds_card", "rounds_scan", "rounds_decision", "rounds_settle",
            "rounds_paid", "rounds_approve", "rounds_pause", "rounds_resume", "rounds_cancel", "rounds_card_correct",
            "tables_open", "tables_shuffle", "tables_recall", "auth_token", "auth_logout", "auth_logout_all",
            "rummy_game_start", "rummy_deal_start", "rummy_action", "rummy_scan", "rummy_game_end",
            "bluffjack_hand_open", "bluffjack_game_end", "enrolments_start", "enrolments_scan", "enrolments_name",
            "enrolments_drop", "enrolments_undo", "enrolments_abandon", "enrolments_finish",
            "enrolments_assign"]  # fmt: skip


def test_the_schema_lists_every_tablet_command_with_the_idempotency_header():
    schema = Client().get("/api/schema/?format=json").json()
    ops = {op["operationId"]: op for path in schema["paths"].values() for op in path.values()}
    assert set(COMMANDS) <= set(ops)
    headers = {p["name"] for p in ops["rounds_settle"].get("parameters", []) if p["in"] == "header"}
    assert "Idempotency-Key" in headers


def test_the_swagger_ui_page_is_served():
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()
