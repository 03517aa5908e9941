"""Schemathesis against the OpenAPI schema: whatever it sends, the API never answers with a server error."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables import services


@pytest.fixture
def api_schema(db: None, demo_casino: Any, pit_boss: Any, dealer: Any) -> Any:
    """The live schema, loaded over WSGI, with a held table, a shoe and an open round to act on."""
    from casino.wsgi import application

    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer)
    rnd = services.round_open(table=table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    services.round_add_card(round=rnd, code="9S", actor=dealer)
    # A slip and a rating slip, so the accounting commands reach the services.
    from tables.services import accounting as services_accounting

    slip = services_accounting.slip_create(table=table, kind="opener", chips={"25": 4}, actor=dealer)
    rating = services_accounting.player_seat(table=table, seat=2, name="Ann", actor=dealer)
    # A Contract Rummy game with a deal in play and a Bluffjack game, so their commands reach the services.
    from tables.services import rummy as services_rummy

    rummy_table = demo_casino.tables["contract-rummy"]
    services.table_open(table=rummy_table, actor=dealer)
    game = services_rummy.rummy_game_start(table=rummy_table, players=["Ann", "Bob", "Cy"], dealer="Ann", actor=dealer)
    services_rummy.rummy_deal_start(game=game, actor=dealer)
    bluff_table = demo_casino.tables["bluffjack"]
    services.table_open(table=bluff_table, actor=dealer)
    services.shoe_shuffle(table=bluff_table, actor=dealer)
    hand = services.round_open(table=bluff_table, seats=[{"seat": 1, "player": "Ann", "stack": 5, "dealer": True},
                                                         {"seat": 2, "player": "Bob", "stack": 5}], actor=dealer)
    # A scan of the open round, so its image is served (GET /api/scans/{id}/image/).
    from django.core.files.base import ContentFile

    from tables.models import Scan

    scan = Scan(round=rnd, sha256="0" * 64, recognised=[], uploaded_by=dealer)
    scan.image.save("fuzz.png", ContentFile(b"\x89PNG\r\n\x1a\n"), save=True)
    # As Django's test client does: a request must not close the test's connection (and transaction).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    schema.known_ids = {"tables": table.pk, "rounds": rnd.pk, "rummy": game.pk, "bluffjack": hand.bluffjack_game_id,
                         "scans": scan.pk, "slips": slip.pk, "ratings": rating.pk}
    yield schema
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def pit_token(pit_boss: Any) -> Any:
    """A fresh API token per case: the logout operations revoke the token they are sent with (or all)."""
    from knox.models import AuthToken

    return lambda: AuthToken.objects.create(user=pit_boss)[1]


def test_the_api_never_answers_with_a_server_error(api_schema: Any, pit_token: Any) -> None:
    # Driven by hand rather than by schemathesis' pytest plugin (which does not run under pytest 9):
    # every operation of the schema, generated cases (path ids, bodies, headers), the server-error check.
    from schemathesis.checks import not_a_server_error

    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 20
    failures: list[str] = []
    for operation in operations:

        @given(case=operation.as_strategy(), real_id=st.booleans())
        @settings(max_examples=16, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def run(case: Any, real_id: bool) -> None:
            if real_id and case.path_parameters and "id" in case.path_parameters:
                # Half the cases act on the table and round that exist, so bodies reach the services.
                case.path_parameters["id"] = api_schema.known_ids[case.path.split("/")[2]]
                if "seq" in case.path_parameters:
                    case.path_parameters["seq"] = 1
            response = case.call(headers={"Authorization": f"Token {pit_token()}"})
            if response.status_code >= 500:
                failures.append(f"{case.method} {case.formatted_path} {case.body!r} -> {response.status_code}")
            case.validate_response(response, checks=[not_a_server_error])

        try:
            run()
        except Exception as exc:  # collect every operation's failure, then fail once with all of them
            failures.append(f"{operation.label}: {exc}")
    assert not failures, "\n".join(failures)
