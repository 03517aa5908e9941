"""Live alerts: a payout mismatch appears, a pit boss approves or rejects it, findings are acknowledged."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from tables import services
from tables.models import AlertDecision, AuditEvent, AuditFinding, RoundState
from tests.tables.dashboard.conftest import client_for, make_mismatch
from tests.tables.tasks.builders import DAY, FloorBuilder, at, set_theory

pytestmark = pytest.mark.django_db


def decide(c, alert_id, decision, reason="checked on camera"):
    return c.post("/dashboard/alerts/decide/", {"alert": alert_id, "decision": decision, "reason": reason},
                  content_type="application/json")


def alerts(c):
    return c.get("/dashboard/api/alerts/").json()["alerts"]


def test_a_payout_mismatch_is_an_alert_and_the_pit_boss_approves_it(pit_boss, mismatch_round):
    c = client_for(pit_boss)
    [alert] = alerts(c)
    assert alert["kind"] == "payout-mismatch" and "paid 5.00, due 10.00" in alert["message"]
    assert decide(c, alert["id"], "approve").status_code == 200
    mismatch_round.refresh_from_db()
    assert mismatch_round.state == RoundState.CLOSED
    assert mismatch_round.approvals.get().reason == "checked on camera"
    assert alerts(c) == []


def test_a_rejected_mismatch_leaves_the_board_until_the_dealer_pays_again(pit_boss, dealer, mismatch_round):
    c = client_for(pit_boss)
    [alert] = alerts(c)
    assert decide(c, alert["id"], "reject", "pay the player the full 10").status_code == 200
    assert alerts(c) == []
    mismatch_round.refresh_from_db()
    assert mismatch_round.state == RoundState.MISMATCH
    assert AlertDecision.objects.get().decision == "reject"
    assert AuditEvent.objects.filter(round=mismatch_round, action="round.reject").exists()
    services.round_record_paid(round=mismatch_round, paid={"1": {"main": "7.00"}}, actor=dealer)
    assert [a["kind"] for a in alerts(c)] == ["payout-mismatch"]  # still wrong: back on the board


def test_a_decision_needs_a_reason_and_the_current_version(pit_boss, mismatch_round):
    c = client_for(pit_boss)
    alert_id = f"round:{mismatch_round.pk}:{mismatch_round.version}"
    response = decide(c, alert_id, "approve", reason=" ")
    assert response.status_code == 400 and response.json()["field"] == "reason"
    stale = f"round:{mismatch_round.pk}:{mismatch_round.version - 1}"
    assert decide(c, stale, "approve").status_code == 409


def test_a_big_payout_waiting_for_approval_is_an_alert(pit_boss, dealer, demo_casino):
    table = demo_casino.tables["finnish-27"]
    services.table_open(table=table, actor=dealer)
    services.shoe_shuffle(table=table, actor=dealer)
    rnd = services.round_open(table=table, seats=[{"seat": 1, "wagers": {"main": "10.00"}}], actor=dealer)
    for code in ("9S", "9C", "9H", "9D"):
        services.round_add_card(round=rnd, code=code, actor=dealer)
    services.round_decide(round=rnd, action="hit", actor=dealer)
    services.round_add_card(round=rnd, code="9D", actor=dealer)
    services.round_decide(round=rnd, action="stand", actor=dealer)
    services.round_settle(round=rnd, actor=dealer)
    c = client_for(pit_boss)
    [alert] = alerts(c)
    assert alert["kind"] == "approval-waiting" and "9990.00" in alert["message"]
    assert decide(c, alert["id"], "approve", "9-9-9 against 9-9 verified").status_code == 200
    assert alerts(c) == []
    services.round_record_paid(round=rnd, paid={"1": {"main": "10.00", "bonus": "9990.00"}}, actor=dealer)


def test_audit_findings_are_alerts_until_acknowledged(pit_boss, demo_casino, dealer):
    from tables.services.audits import audit_table_day

    table = demo_casino.tables["unlimited-blackjack"]
    set_theory(table, {"main": (0.005, 1.3)})
    b = FloorBuilder(table, dealer)
    b.shuffle(at(1))
    b.round(at(1.1), ["AS"] * 9)
    audit_table_day(table.pk, DAY)
    AuditFinding.objects.update(created_at=timezone.now())
    c = client_for(pit_boss)
    [alert] = alerts(c)
    assert alert["kind"] == "card.impossible" and alert["title"].startswith("A card the shoe cannot hold")
    assert decide(c, alert["id"], "acknowledge", "scanner misread, card verified").status_code == 200
    assert alerts(c) == []
    assert decide(c, alert["id"], "acknowledge").status_code == 409
    # The decisions history names the finding's rule in words, not its code.
    history = c.get("/dashboard/alerts/history/").content.decode()
    assert "A card the shoe cannot hold: " in history and "card.impossible" not in history


def test_the_round_trail_shows_who_did_what(pit_boss, mismatch_round):
    page = client_for(pit_boss).get(f"/dashboard/rounds/{mismatch_round.pk}/").content.decode()
    # The trail in words: no raw dicts, no ISO timestamps.
    for words in ("opened the round with seat 1: main 10.00", "dealt Joker to the player by code",
                  "settled: due seat 1 main 10.00", "recorded the payment: seat 1 main 5.00"):
        assert words in page
    assert "paid 5.00, due 10.00" in page
    assert "{'" not in page and not re.search(r"\d{4}-\d\d-\d\dT\d\d:", page)


def test_an_approved_mismatch_leaves_the_board_and_a_new_one_appears(pit_boss, dealer, demo_casino):
    table = demo_casino.tables["finnish-27"]
    first = make_mismatch(table, dealer)
    services.round_approve(round=first, reason="fine", actor=pit_boss)
    services.shoe_shuffle(table=table, actor=dealer)
    make_mismatch(table, dealer, paid="1.00")
    assert [a["kind"] for a in alerts(client_for(pit_boss))] == ["payout-mismatch"]
