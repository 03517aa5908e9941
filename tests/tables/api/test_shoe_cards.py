"""The round document says which cards its shoe can hold (the engine's composition of the shoe), so a picker
offers no card the server would refuse: no Joker at Mini or Unlimited Blackjack, the Joker at Finnish 27."""

from __future__ import annotations

import pytest

from tests.tables.api.test_round_commands import ok

pytestmark = pytest.mark.django_db

ONE_SEAT = {"seats": [{"seat": 1, "wagers": {"main": "10.00"}}]}


@pytest.mark.parametrize("fixture, joker", [("mini_table", False), ("bj_table", False), ("f27_table", True)])
def test_the_round_document_lists_the_cards_its_shoe_can_hold(fixture, joker, request, dealer_api):
    table = request.getfixturevalue(fixture)
    doc = ok(dealer_api.post(f"/api/tables/{table.pk}/rounds/", ONE_SEAT, format="json"), 201)
    doc = ok(dealer_api.get(f"/api/rounds/{doc['id']}/"))
    assert ("JK" in doc["shoe_cards"]) is joker
    assert len(doc["shoe_cards"]) == 52 + joker and {"AS", "TD", "KC"} <= set(doc["shoe_cards"])
