"""Model validation: every invalid configuration is refused with an error naming the field."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from tables.engine.rulesets import BlackjackRules, ContractRummyRules
from tables.models import PayLine, PayTable, RuleSet, Table, VersionStatus
from tests.factories import PayTableFactory, RuleSetFactory, TableFactory, game, published

pytestmark = pytest.mark.django_db


def _errors(obj: object) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as info:
        obj.full_clean()  # type: ignore[attr-defined]
    return info.value.message_dict


def test_decks_out_of_range_is_refused_naming_decks() -> None:
    errors = _errors(RuleSet(game=game("unlimited-blackjack"), name="x", params={"decks": 40}))
    assert list(errors) == ["params"]
    assert errors["params"][0].startswith("decks: ")
    assert "1 to 16" in errors["params"][0]


def test_a_contract_that_is_not_a_list_of_sets_and_sequences_is_refused_naming_the_deal() -> None:
    deals = ContractRummyRules().to_params()["deals"]
    deals[2] = {"cards": 10, "contract": ["set", "run"]}
    errors = _errors(RuleSet(game=game("contract-rummy"), name="x", params={"deals": deals}))
    assert errors["params"][0].startswith("deals[2].contract: ")


def test_an_unknown_parameter_is_refused_naming_it() -> None:
    errors = _errors(RuleSet(game=game("finnish-27"), name="x", params={"surrender": "vs_ace"}))
    assert errors["params"][0].startswith("surrender: unknown parameter")


def test_a_non_boolean_option_is_refused_naming_it() -> None:
    errors = _errors(RuleSet(game=game("mini-blackjack"), name="x", params={"insurance": "yes"}))
    assert errors["params"][0].startswith("insurance: ")


def test_a_valid_rule_set_stores_every_parameter_and_gives_the_engine_dataclass() -> None:
    rule_set = RuleSet(game=game("unlimited-blackjack"), name="Eight decks H17", params={"dealer_hits_soft_17": True})
    rule_set.full_clean()
    rule_set.save()
    rules = rule_set.rules()
    assert isinstance(rules, BlackjackRules)
    assert rules.dealer_hits_soft_17 is True
    assert rules.decks == 8  # missing keys took the published value ...
    assert rule_set.params["decks"] == 8  # ... and are stored, so the version keeps its meaning


def test_non_positive_odds_are_refused_naming_odds() -> None:
    table = PayTableFactory(lines=False)
    line = PayLine(pay_table=table, name="insurance", kind="odds", odds_numerator=0, odds_denominator=1)
    assert "odds" in _errors(line)
    with pytest.raises(ValidationError) as info:
        line.set_odds("-2:1")
    assert "positive" in info.value.message_dict["odds"][0]


def test_a_table_minimum_line_needs_a_positive_multiple() -> None:
    table = PayTableFactory(game=game("finnish-27"), lines=False)
    line = PayLine(pay_table=table, name="9-9-9/mixed", kind="table_minimum", table_minimum=0)
    assert "table_minimum" in _errors(line)


def test_a_line_name_unknown_to_the_game_is_refused_naming_name() -> None:
    table = PayTableFactory(game=game("mini-blackjack"), lines=False)
    line = PayLine(pay_table=table, name="perfect-pairs/perfect", kind="odds", odds_numerator=25, odds_denominator=1)
    errors = _errors(line)
    assert "perfect-pairs/perfect" in errors["name"][0]
    assert "mini-blackjack" in errors["name"][0]


def test_an_alias_of_a_line_name_is_stored_canonical() -> None:
    table = PayTableFactory(lines=False)
    line = PayLine(pay_table=table, name="perfect-pairs/colored", kind="odds", odds_numerator=12, odds_denominator=1)
    line.full_clean()
    assert line.name == "perfect-pairs/coloured"


def test_a_pay_table_missing_a_line_its_game_defines_cannot_be_published() -> None:
    table = PayTableFactory()
    table.lines.get(name="21+3/flush").delete()
    with pytest.raises(ValidationError) as info:
        table.publish(actor=None)
    assert "21+3/flush" in " ".join(info.value.messages)
    table.refresh_from_db()
    assert table.status == VersionStatus.DRAFT


def test_the_database_refuses_a_line_paying_nothing() -> None:
    table = PayTableFactory(lines=False)
    with pytest.raises(IntegrityError), transaction.atomic():
        PayLine.objects.create(pay_table=table, name="insurance", kind="odds", odds_numerator=0, odds_denominator=1)


def test_min_bet_above_max_bet_is_refused_naming_min_bet() -> None:
    table = TableFactory.build(pit=TableFactory().pit, number=99, min_bet=Decimal("50.00"), max_bet=Decimal("10.00"))
    errors = _errors(table)
    assert "min_bet" in errors
    assert "50.00" in errors["min_bet"][0]


def test_the_database_refuses_min_bet_above_max_bet() -> None:
    table = TableFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.filter(pk=table.pk).update(min_bet=Decimal("600.00"))


def test_a_table_cannot_play_a_draft_rule_set() -> None:
    table = TableFactory()
    table.rule_set = RuleSetFactory()
    errors = _errors(table)
    assert "rule_set" in errors


def test_a_table_cannot_play_another_games_pay_table() -> None:
    table = TableFactory()
    table.pay_table = PayTable.objects.get(game__slug="mini-blackjack", status=VersionStatus.PUBLISHED)
    errors = _errors(table)
    assert "mini-blackjack" in " ".join(errors["pay_table"])


def test_a_valid_table_passes() -> None:
    TableFactory().full_clean()


def test_the_engine_json_of_a_pay_table_round_trips_through_the_engine() -> None:
    table = published(PayTableFactory, game=game("finnish-27"))
    document = table.as_engine_json()
    assert {"name": "9-9-9/dealer-9-9", "pays": {"table_minimum": 999}} in document["lines"]
    assert {"name": "8-9-10/spades", "pays": {"odds": "2:1"}} in document["lines"]
    engine = table.engine_table()
    assert engine["9-9-9/dealer-9-9"].pays(Decimal("10.00"), Decimal("10.00")) == Decimal("9990.00")


def test_a_game_has_the_kind_of_its_rule_text() -> None:
    g = game("bluffjack")
    g.kind = "house-banked"
    assert "kind" in _errors(g)
