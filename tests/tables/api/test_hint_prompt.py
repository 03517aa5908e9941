"""Mini Blackjack's hint on the tablet's prompt is the strategy the game math computed for the rule set."""

from __future__ import annotations

import pytest

from tables import services
from tables.engine.cards import parse_card, parse_cards
from tables.engine.rulesets import PUBLISHED_RULES
from tables.engine.strategy import recommend

pytestmark = pytest.mark.django_db


def test_the_prompts_hint_comes_from_the_computed_strategy_not_the_published_chart(mini_table, dealer):
    # A-2 against a 5: the published chart doubles; the strategy computed for these rules hits.
    rnd = services.round_open(table=mini_table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    for code in ("AS", "5H", "2D", "9C"):
        rnd = services.round_add_card(round=rnd, code=code, actor=dealer)
    assert rnd.prompt["needs"] == "decision"
    assert rnd.prompt["hint"] == "hit"
    rules = PUBLISHED_RULES["mini-blackjack"]
    assert recommend(rules, parse_cards("AS 2D"), parse_card("5H"), True, True, False) == "double"


def test_unlimited_blackjack_gives_no_hint(demo_casino, dealer):
    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    rnd = services.round_open(table=table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    for code in ("AS", "5H", "2D", "9C"):
        if rnd.prompt["needs"] == "card":
            rnd = services.round_add_card(round=rnd, code=code, actor=dealer)
    assert rnd.prompt["needs"] == "decision" and "hint" not in rnd.prompt
