"""The pit boss reads bets in words — "Perfect Pairs", not the code ``perfect-pairs`` — in the alert, on
the round's page (settlement, payments, discrepancies) and in its trail."""

from __future__ import annotations

import pytest

from tables import services
from tables.engine.settlement import bet_words
from tests.tables.dashboard.conftest import client_for

pytestmark = pytest.mark.django_db


def test_bet_words_name_the_side_bets_and_keep_other_kinds():
    assert bet_words("perfect-pairs") == "Perfect Pairs"
    assert bet_words("behind-insurance") == "insurance behind"
    assert [bet_words(k) for k in ("main", "21+3", "insurance", "bonus")] == [
        "main",
        "21+3",
        "insurance",
        "bonus",
    ]


def overpaid_perfect_pairs(table, dealer):
    """Seat 3: 8♠ 8♦ (a mixed pair, 6:1 on 5.00 = 30.00) and 16 standing; the dealer busts; 100.00 paid on it."""
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer, reason="new shoe")
    rnd = services.round_open(
        table=table, seats=[{"seat": 3, "wagers": {"main": "10.00", "perfect-pairs": "5.00"}}], actor=dealer
    )
    for code in ("8S", "6H", "8D", "TC"):
        services.round_add_card(round=rnd, code=code, actor=dealer)
    services.round_decide(round=rnd, action="stand", who="seat:3", actor=dealer)
    services.round_add_card(round=rnd, code="7C", actor=dealer)
    services.round_settle(round=rnd, actor=dealer)
    return services.round_record_paid(
        round=rnd, paid={"3": {"main": "10.00", "perfect-pairs": "100.00"}}, actor=dealer
    )


def test_the_alert_and_the_round_page_say_perfect_pairs(demo_casino, dealer, pit_boss):
    rnd = overpaid_perfect_pairs(demo_casino.tables["unlimited-blackjack"], dealer)
    c = client_for(pit_boss)
    alert = next(a for a in c.get("/dashboard/api/alerts/").json()["alerts"] if a["round"] == rnd.pk)
    assert alert["message"] == "seat 3 Perfect Pairs: paid 100.00, due 30.00"
    page = c.get(f"/dashboard/rounds/{rnd.pk}/").content.decode()
    assert "perfect-pairs" not in page
    assert "<td>Perfect Pairs</td>" in page  # the settlement line
    assert "<td>8♠ 8♦: Mixed Pair pays 6:1</td>" in page  # its detail with the cards' faces, not 8S 8D
    assert "seat 3 Perfect Pairs: 100.00, recorded by dealer" in page  # the payment
    assert "Discrepancies: seat 3 Perfect Pairs paid 100.00, due 30.00" in page
    assert "opened the round with seat 3: main 10.00, Perfect Pairs 5.00" in page  # the trail
    assert "settled: due seat 3 main 10.00, Perfect Pairs 30.00" in page
    services.round_approve(round=rnd, reason="overpaid 70, recovered", actor=pit_boss, expected_version=rnd.version)
    page = c.get(f"/dashboard/rounds/{rnd.pk}/").content.decode()
    assert "approved (paid differs from due): overpaid 70, recovered" in page  # the kind in words, not mismatch
    assert "— entered by code by dealer" in page and "manual" not in page  # how each card came, in words
