"""The back office's audit lists say rules and periods in words (an auditor reads them): "A card the
shoe cannot hold", not card.impossible; "gaming day Fri 20 Nov 2026", not day:2026-11-20."""

from __future__ import annotations

import re

import pytest

from tables.services.audits import audit_table_day
from tests.tables.dashboard.conftest import client_for
from tests.tables.tasks.builders import DAY, FloorBuilder, at, set_theory

pytestmark = pytest.mark.django_db


@pytest.fixture
def impossible_card(demo_casino, dealer):
    table = demo_casino.tables["unlimited-blackjack"]
    set_theory(table, {"main": (0.005, 1.3)})
    b = FloorBuilder(table, dealer)
    b.shuffle(at(1))
    b.round(at(1.1), ["AS"] * 9)
    audit_table_day(table.pk, DAY)


def cells(page: str, field: str) -> list[str]:
    return re.findall(rf'<td class="field-{field}[^"]*">([^<]*)</td>', page)


def test_the_findings_list_names_rules_in_words_and_filters_by_them(impossible_card, auditor):
    c = client_for(auditor)
    page = c.get("/admin/tables/auditfinding/").content.decode()
    assert cells(page, "rule_text") == ["A card the shoe cannot hold"]
    assert "card.impossible</a>" not in page and ">A card the shoe cannot hold</a>" in page  # the filter
    assert cells(
        c.get("/admin/tables/auditfinding/", {"rule": "card.impossible"}).content.decode(), "rule_text"
    )
    assert not cells(
        c.get("/admin/tables/auditfinding/", {"rule": "shuffle.late"}).content.decode(), "rule_text"
    )


def test_the_results_list_says_periods_in_words(impossible_card, auditor):
    page = client_for(auditor).get("/admin/tables/auditresult/").content.decode()
    periods = cells(page, "period_text")
    assert periods and "gaming day Fri 20 Nov 2026" in periods
    assert not [p for p in periods if re.search(r"\d{4}-\d\d-\d\d", p)]
    # Flagged in words: a result that is not flagged is no red ✗.
    flags = cells(page, "flagged_text")
    assert flags and set(flags) <= {"flagged", "—"} and "icon-no" not in page


def test_a_finding_links_to_its_round(impossible_card, auditor):
    from tables.models import AuditFinding

    finding = AuditFinding.objects.filter(rule="card.impossible").select_related("round").first()
    assert finding is not None and finding.round is not None
    page = client_for(auditor).get("/admin/tables/auditfinding/").content.decode()
    assert f'<a href="/dashboard/rounds/{finding.round.pk}/">round {finding.round.number}</a>' in page
    assert client_for(auditor).get(f"/dashboard/rounds/{finding.round.pk}/").status_code == 200
