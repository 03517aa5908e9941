"""Seed data: every game's published rule set and pay table, each pay line of the rule texts with the right odds.

The expected numbers are copied from the rule texts in shared/rules/ (not from the engine's PUBLISHED),
so a typo on either side fails here.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import authenticate
from django.core.management import call_command

from tables.models import Game, PayLine, PayTable, RuleSet, Table, VersionStatus
from tables.services.seed import SEED_NAME, seed_games

pytestmark = pytest.mark.django_db

X = "x table minimum"  # marks a line paid in table minimums

# finnish-27-no-bust.txt: game wager 1:1, and the bonus pay table.
FINNISH_27 = {
    "main": "1:1",
    "finnish-27": "1:2", "jo-jo": "1:1",
    "8-9-10/mixed": "1:2", "8-9-10/suited": "1:1", "8-9-10/spades": "2:1",
    "9-9-9/mixed": f"9{X}", "9-9-9/suited": f"99{X}", "9-9-9/dealer-9-9": f"999{X}",
    "poker/two-pair": "1:1", "poker/three-of-a-kind": "2:1", "poker/straight": "3:1", "poker/full-house": "4:1",
    "poker/four-of-a-kind": "5:1", "poker/flush": "6:1", "poker/straight-flush": "7:1", "poker/five-of-a-kind": "8:1",
}
# unlimited-blackjack.txt: blackjack 3 to 2, wins 1 to 1, insurance 2 to 1, Perfect Pairs 25/12/6, 21+3 100/40/25/10/5.
UNLIMITED_BLACKJACK = {
    "main/blackjack": "3:2", "main/win": "1:1", "insurance": "2:1",
    "perfect-pairs/perfect": "25:1", "perfect-pairs/coloured": "12:1", "perfect-pairs/mixed": "6:1",
    "21+3/suited-trips": "100:1", "21+3/straight-flush": "40:1", "21+3/three-of-a-kind": "25:1",
    "21+3/straight": "10:1", "21+3/flush": "5:1",
}
# mini-blackjack.txt: blackjack 3:2, other wins 1:1, insurance 2:1.
MINI_BLACKJACK = {"main/blackjack": "3:2", "main/win": "1:1", "insurance": "2:1"}

EXPECTED_LINES = {
    "finnish-27": FINNISH_27,
    "unlimited-blackjack": UNLIMITED_BLACKJACK,
    "mini-blackjack": MINI_BLACKJACK,
    "bluffjack": {},  # player vs player: no house pay table
    "contract-rummy": {},
}


def _published(model: type, slug: str):  # type: ignore[no-untyped-def]
    return model.objects.get(game__slug=slug, name=SEED_NAME, version=1, status=VersionStatus.PUBLISHED)


def _pays(line: PayLine) -> str:
    return f"{line.table_minimum}{X}" if line.kind == "table_minimum" else line.odds_text


def test_the_five_games_are_seeded_with_their_kind() -> None:
    assert dict(Game.objects.values_list("slug", "kind")) == {
        "finnish-27": "house-banked", "unlimited-blackjack": "house-banked", "mini-blackjack": "house-banked",
        "bluffjack": "pot", "contract-rummy": "scoring",
    }


@pytest.mark.parametrize("slug", sorted(EXPECTED_LINES))
def test_each_pay_line_of_the_rule_text_is_seeded_with_its_odds(slug: str) -> None:
    pay_table = _published(PayTable, slug)
    assert {line.name: _pays(line) for line in pay_table.lines.all()} == EXPECTED_LINES[slug]
    pay_table.check_publishable()  # complete and valid by the same checks a games manager meets


def test_the_seeded_pay_lines_carry_the_rule_texts_labels() -> None:
    labels = set(PayLine.objects.filter(pay_table__game__slug="finnish-27").values_list("label", flat=True))
    assert {"9-9-9 and any 9-9 initial dealer's hand", "8-9-10 spades", "Five of a Kind"} <= labels


def test_finnish_27_rules_are_seeded_as_the_text_reads() -> None:
    rules = _published(RuleSet, "finnish-27").rules()
    assert (rules.decks, rules.jokers_per_deck) == (6, 2)  # six decks of 52 + 2 Jokers each
    assert (rules.dealer_stands_hard, rules.dealer_stands_soft) == (24, 25)  # hits hard < 24, soft < 25
    assert rules.player_loses_over_hard == 35


def test_unlimited_blackjack_rules_are_seeded_as_the_text_reads() -> None:
    rules = _published(RuleSet, "unlimited-blackjack").rules()
    assert (rules.decks, rules.seats, rules.dealer_hits_soft_17, rules.dealer_peeks) == (8, 7, False, False)
    assert (rules.max_hands, rules.double_after_split, rules.insurance, rules.bet_behind) == (2, True, True, True)
    assert rules.surrender == "vs_ace"


def test_mini_blackjack_rules_are_seeded_as_the_text_reads() -> None:
    rules = _published(RuleSet, "mini-blackjack").rules()
    assert (rules.decks, rules.shuffle_at, rules.single_player, rules.dealer_peeks) == (4, 60, True, True)
    assert (rules.double_on, rules.double_after_split, rules.auto_stand_21) == ("initial_two", False, True)
    assert rules.interrupted_settle_hours == 48


def test_bluffjack_variants_are_seeded_as_options_off() -> None:
    params = _published(RuleSet, "bluffjack").params
    assert {k: params[k] for k in ("two_initial_bets", "no_house", "charlie", "bet_after_each_card")} == {
        "two_initial_bets": False, "no_house": False, "charlie": 0, "bet_after_each_card": False,
    }


def test_contract_rummy_contracts_for_deals_one_to_seven_and_card_scores() -> None:
    rules = _published(RuleSet, "contract-rummy").rules()
    s, q = "set", "sequence"
    assert [(d["cards"], sorted(d["contract"])) for d in rules.deals] == [
        (10, [s, s]), (10, [q, s]), (10, [q, q]), (10, [s, s, s]), (12, [q, s, s]), (12, [q, q, s]), (12, [q, q, q]),
    ]
    assert rules.card_scores == {
        "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
        "T": 10, "J": 10, "Q": 10, "K": 10, "A": 15, "JK": 25,
    }
    assert (rules.set_min, rules.sequence_min) == (3, 4)


def test_seeding_again_changes_nothing() -> None:
    before = (RuleSet.objects.count(), PayTable.objects.count(), PayLine.objects.count(), Game.objects.count())
    assert seed_games(apps.get_model) == {"games": 0, "rule_sets": 0, "pay_tables": 0, "pay_lines": 0}
    call_command("seed_games", stdout=StringIO())
    assert (RuleSet.objects.count(), PayTable.objects.count(), PayLine.objects.count(), Game.objects.count()) == before


def test_seed_games_restores_everything_after_the_rows_are_gone() -> None:
    from django.db import connection

    from tables.models.db_guards import guards_lifted

    with guards_lifted(connection):  # published versions are undeletable otherwise (migration 0011)
        PayLine.objects.all().delete()
        PayTable.objects.all().delete()
        RuleSet.objects.all().delete()
        Game.objects.all().delete()
    out = StringIO()
    call_command("seed_games", stdout=out)
    assert "5 games" in out.getvalue()
    assert PayLine.objects.count() == len(FINNISH_27) + len(UNLIMITED_BLACKJACK) + len(MINI_BLACKJACK)
    assert PayTable.objects.filter(status=VersionStatus.PUBLISHED).count() == 5


def test_load_demo_makes_an_open_table_per_game_and_a_login_per_role() -> None:
    out = StringIO()
    call_command("load_demo", stdout=out)
    call_command("load_demo", stdout=StringIO())  # idempotent
    tables = Table.objects.filter(pit__casino__name="Demo Casino")
    assert sorted(t.game.slug for t in tables) == sorted(EXPECTED_LINES)
    for table in tables:
        table.full_clean()
        assert table.status == "open" and table.rule_set.is_published and table.pay_table.is_published
    logins = {"admin": "admin-demo-1", "manager": "manager-demo-1", "pitboss": "pitboss-demo-1",
              "dealer": "dealer-demo-1", "auditor": "auditor-demo-1"}
    for username, password in logins.items():
        assert authenticate(username=username, password=password) is not None, username
        assert f"{username:<8} {password}" in out.getvalue()
    assert authenticate(username="admin", password="admin-demo-1").is_superuser
    assert authenticate(username="manager", password="manager-demo-1").has_perm("tables.publish_paytable")


def test_the_demo_casino_fixture_has_a_table_per_game(demo_casino) -> None:
    assert set(demo_casino.tables) == set(EXPECTED_LINES)
    assert demo_casino.tables["finnish-27"].min_bet > 0
