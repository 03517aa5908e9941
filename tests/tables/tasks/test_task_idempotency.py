"""Running the audit tasks twice gives one result each; the nightly run joins once and builds one report."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tables.models import AuditFinding, AuditKind, AuditReport, AuditResult, ReportStatus
from tables.tasks.audit import audit_nightly, audit_table, join_nightly
from tests.tables.tasks.builders import DAY, at

pytestmark = pytest.mark.django_db


def _late_shoe(bj):
    bj.shuffle(at(1))
    bj.deal_rounds(at(1.1), 42, 5)
    bj.round(at(2), ["2S", "3S"])


def test_running_the_table_audit_twice_gives_one_result_per_kind_and_period(bj):
    _late_shoe(bj)
    first = audit_table.apply(args=[bj.table.pk, DAY.isoformat()]).get()
    second = audit_table.apply(args=[bj.table.pk, DAY.isoformat()]).get()
    assert first["findings"] == second["findings"] == 1
    results = AuditResult.objects.filter(table=bj.table)
    # shuffle (day), hold (day, three shifts, month to date), pace (day)
    assert sorted(results.values_list("kind", flat=True)) == ["hold"] * 5 + ["pace", "shuffle"]
    assert set(results.values_list("runs", flat=True)) == {2}
    assert AuditFinding.objects.filter(table=bj.table, rule="shuffle.late").count() == 1


def test_an_acknowledged_finding_stays_acknowledged_when_the_audit_runs_again(bj, pit_boss):
    _late_shoe(bj)
    audit_table.apply(args=[bj.table.pk, DAY.isoformat()]).get()
    AuditFinding.objects.update(acknowledged_by=pit_boss, acknowledged_at=timezone.now(), acknowledgement="seen")
    audit_table.apply(args=[bj.table.pk, DAY.isoformat()]).get()
    f = AuditFinding.objects.get(rule="shuffle.late")
    assert f.acknowledged_by == pit_boss and f.acknowledgement == "seen"


def test_the_nightly_audit_fans_out_per_table_and_joins_for_one_report(bj, eager, reports_dir):
    _late_shoe(bj)
    summary = audit_nightly.apply(args=[DAY.isoformat()]).get()
    report = AuditReport.objects.get(gaming_day=DAY)
    assert summary["tables"] == AuditResult.objects.filter(kind=AuditKind.PACE).count() == 5
    assert report.status == ReportStatus.DONE and report.joined_at is not None
    assert (reports_dir / report.pdf_path).is_file()
    # A redelivered table task after the join does not build the report again.
    finished = report.finished_at
    assert join_nightly(DAY.isoformat(), report.run) is False
    report.refresh_from_db()
    assert report.finished_at == finished


def test_running_the_nightly_audit_twice_leaves_one_report_and_one_result_each(bj, eager, reports_dir):
    _late_shoe(bj)
    audit_nightly.apply(args=[DAY.isoformat()]).get()
    audit_nightly.apply(args=[DAY.isoformat()]).get()
    assert AuditReport.objects.filter(gaming_day=DAY).count() == 1
    assert AuditResult.objects.filter(kind=AuditKind.SHUFFLE, table=bj.table).count() == 1
    assert AuditFinding.objects.filter(rule="shuffle.late").count() == 1


def test_the_join_waits_for_every_table(bj, reports_dir):
    report = AuditReport.objects.create(gaming_day=DAY, run="r1", run_started_at=timezone.now(),
                                        expected_tables=[bj.table.pk, bj.table.pk + 1000])
    audit_table.apply(args=[bj.table.pk, DAY.isoformat()]).get()
    assert join_nightly(DAY.isoformat(), "r1") is False
    report.refresh_from_db()
    assert report.joined_at is None


def test_the_nightly_batches_cover_every_table_once_in_at_most_fifty_tasks():
    from tables.tasks.audit import nightly_batches

    assert nightly_batches([1, 2, 3]) == [[1], [2], [3]]
    ids = list(range(1, 501))
    batches = nightly_batches(ids)
    assert len(batches) == 50 and {len(b) for b in batches} == {10}
    assert [pk for b in batches for pk in b] == ids
    assert sum(len(b) for b in nightly_batches(list(range(73)))) == 73 and len(nightly_batches(list(range(73)))) <= 50


def test_a_batch_task_audits_its_tables_and_the_last_one_joins(bj, f27, reports_dir, monkeypatch):
    from tables.tasks import audit as tasks

    queued = []
    monkeypatch.setattr(tasks.audit_report, "delay", lambda day: queued.append(day))
    ids = [bj.table.pk, f27.table.pk]
    AuditReport.objects.create(gaming_day=DAY, run="r2", run_started_at=timezone.now(), expected_tables=ids)
    first = tasks.audit_tables.apply(args=[[ids[0]], DAY.isoformat(), "r2"]).get()
    assert first["joined"] is False and queued == []
    second = tasks.audit_tables.apply(args=[[ids[1]], DAY.isoformat(), "r2"]).get()
    assert second["joined"] is True and queued == [DAY.isoformat()]
    assert AuditResult.objects.filter(kind=AuditKind.PACE, table_id__in=ids).count() == 2
