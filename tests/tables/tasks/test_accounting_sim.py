"""The floor simulator's accounting: the nightly audit finds exactly the shifts whose tray lost chips, the
counts agree with the rounds everywhere else, slips are numbered without gaps, ratings rate stored wagers."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from tables.models import AuditFinding, AuditResult, RatingSlip, Slip, SlipKind, Wager
from tables.services.accounting import active_intervals, rating_of
from tables.services.audits import audit_table_day, day_bounds, gaming_day_of, theory_for
from tables.services.floor_sim import Mishaps, simulate_floor
from tests.tables.tasks.builders import set_theory

pytestmark = pytest.mark.django_db


@pytest.fixture
def noon():
    start, _ = day_bounds(gaming_day_of(timezone.now()) - timedelta(days=1))
    return start + timedelta(hours=10)


@pytest.fixture
def floor(demo_casino, noon):
    for t in demo_casino.tables.values():
        set_theory(t, {"main": (0.01, 1.3), "perfect-pairs": (0.04, 15.6), "21+3": (0.06, 14.4)})
    return simulate_floor(tables=3, days=2, rounds_per_hour=8, seed=21, until=noon,
                          mishaps=Mishaps(mispay=0, missing_chips=0.35))


def test_the_audit_finds_every_simulated_shift_whose_tray_lost_chips_and_no_other(floor, noon):
    acc = floor.accounting
    assert acc.missing and acc.slips and acc.drops
    today = gaming_day_of(noon)
    for pk in floor.tables:
        for d in range(1, -1, -1):
            audit_table_day(pk, today - timedelta(days=d))  # the nightly audit, accounting included
    found = {(f.table_id, f.result.period): f for f in
             AuditFinding.objects.filter(rule="accounting.win-mismatch").select_related("result")}
    expected = {(t, f"shift:{day.isoformat()}/{shift}"): lost for t, day, shift, lost in acc.missing}
    assert set(found) == set(expected)
    for key, lost in expected.items():
        f = found[key]
        assert Decimal(f.data["difference"]) == -lost and f.severity == "critical"
    # Every other complete shift: the tray, the fills and credits and the drop agree with the rounds to the cent.
    complete = 0
    for r in AuditResult.objects.filter(kind="accounting", period__startswith="shift:"):
        rec = r.summary["reconciliation"]
        if rec["counted"] is not None and (r.table_id, r.period) not in expected:
            complete += 1
            assert rec["counted"] == rec["tracked"]
    assert complete > 0
    # Today's running shift has its opener but no closer nor drop yet: not counted, not a finding.
    running = AuditResult.objects.get(kind="accounting", table_id=floor.tables[0],
                                      period=f"shift:{today.isoformat()}/swing")
    assert running.summary["reconciliation"]["missing"] == ["closer", "drop"]


def test_simulated_slips_are_numbered_in_sequence_per_casino_and_signed_by_two_people(floor):
    by_kind = defaultdict(list)
    for kind, number in Slip.objects.values_list("kind", "number"):
        by_kind[kind].append(number)
    assert set(by_kind) >= {SlipKind.OPENER, SlipKind.CLOSER}
    for numbers in by_kind.values():
        assert sorted(numbers) == list(range(1, len(numbers) + 1))
    for slip in Slip.objects.prefetch_related("signatures")[:50]:
        signers = [s.by_id for s in slip.signatures.all()]
        assert len(signers) == len(set(signers)) >= 2


def test_simulated_ratings_theo_is_the_sum_over_the_stored_wagers(floor):
    slips = list(RatingSlip.objects.select_related("table", "player").prefetch_related("pauses"))
    assert slips and any(s.pauses.all() for s in slips)
    rated = 0
    for slip in slips[:12]:
        r = rating_of(slip)
        spans = active_intervals(slip)
        theory = theory_for(slip.table.rule_set_id, slip.table.pay_table_id)
        expected = Decimal(0)
        rounds = set()
        for w in Wager.objects.filter(round__table=slip.table, seat=slip.seat, behind__isnull=True).select_related(
                "round"):
            if any(a <= w.round.opened_at < b for a, b in spans):
                expected += w.amount * Decimal(str(theory[w.kind]["edge"]))
                rounds.add(w.round_id)
        assert Decimal(r["theo"]) == expected.quantize(Decimal("0.01"))
        assert r["rounds"] == len(rounds)
        rated += bool(rounds)
    assert rated > 0


def test_the_nightly_report_has_the_accounting_section(floor, noon, reports_dir):
    from tables.services.reports import build_report

    day = gaming_day_of(noon) - timedelta(days=1)
    for pk in floor.tables:
        audit_table_day(pk, day)
    report = build_report(day, email=False)
    html = (reports_dir / report.html_path).read_text()
    assert "Table accounting" in html and "Player ratings" in html
    csv_text = (reports_dir / report.csv_path).read_text()
    sections = {line.split(",")[0] for line in csv_text.splitlines()[1:]}
    assert {"reconciliation", "win-drop", "rating"} <= sections
    flagged = [x for x in floor.accounting.missing if x[1] == day]
    assert html.count("short by") == 2 * len(flagged) > 0  # in the findings and in the accounting section
    assert (reports_dir / report.pdf_path).read_bytes().startswith(b"%PDF")
