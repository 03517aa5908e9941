"""The nightly report: its numbers match the database; HTML, PDF and CSV are written; e-mail is optional."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command

from tables.models import Approval, ApprovalKind, AuditReport
from tables.services.audits import audit_floor_day
from tables.services.reports import build_report, database_totals, gather
from tests.tables.tasks.builders import DAY, at

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def floor(bj, f27, pit_boss):
    bj.shuffle(at(1))
    for i, net in enumerate(["-10.00", "10.00", "15.00", "-10.00", "0.00"]):
        bj.round(at(1 + i / 60), ["2S", "3H", "4D"], nets={"main": net})
    f27.shuffle(at(2))
    mm = f27.round(at(2.5), ["5C", "6C", "7C", "8C"], nets={"main": "10.00"}, state="mismatch",
                   discrepancies=[{"seat": 1, "bet": "main", "paid": "20.00", "due": "10.00", "difference": "10.00"}])
    f27.round(at(2.6), ["9C", "TC", "JC", "QC"], nets={"main": "-20.00"}, wagers={"main": "20.00"})
    Approval.objects.create(round=mm, kind=ApprovalKind.MISMATCH, reason="recovered", approved_by=pit_boss)
    audit_floor_day(DAY)
    return bj, f27


def test_the_report_totals_match_the_database(floor, reports_dir):
    data = gather(DAY)
    db = database_totals(DAY)
    assert data.totals["rounds"] == db["rounds"] == 7
    assert data.totals["handle"] == db["handle"] == D("80.00")
    # The house: blackjack 10 - 10 - 15 + 10 + 0 = -5, Finnish 27 -10 + 20 = 10.
    assert data.totals["win"] == db["win"] == D("5.00")
    assert data.totals["approvals"] == db["approvals"] == 1
    assert len(data.discrepancies) == db["mismatch_rounds"] == 1
    # Blackjack's main edge is its pay table's (one house edge everywhere); Finnish 27's is the stub
    # (its pay table's long simulation is not run in tests): 50 x edge + 30 x 0.02.
    from tables.services.theory import theory_for as pay_table_theory

    bj, _ = floor
    edge = D(str(pay_table_theory(bj.table.pay_table, bj.table.rule_set, enqueue=False)["house_edge"]))
    assert data.totals["theo_win"] == (50 * edge + D("0.60")).quantize(D("0.01"))


def test_the_report_files_are_written_and_listed(floor, reports_dir):
    report = build_report(DAY)
    assert report.status == "done"
    html = (reports_dir / report.html_path).read_text()
    assert "gaming day Fri 20 Nov 2026" in html and "data:image/png;base64," in html
    assert "2026-11-20" not in html.split("<body>")[1]  # the day in words on the page
    # The top flagged tables in words too (the section was empty but for the chart), win/drop with its %.
    top = html.split('id="top-flagged"')[1].split("</")[0]
    assert "table" in top, top
    assert "—%" not in html
    assert (reports_dir / report.pdf_path).read_bytes().startswith(b"%PDF")
    rows = list(csv.DictReader(io.StringIO((reports_dir / report.csv_path).read_text())))
    day_rows = [r for r in rows if r["section"] == "hold" and r["period"] == "day"]
    assert sum(D(r["handle"]) for r in day_rows) == D("80.00")
    assert sum(D(r["win"]) for r in day_rows) == D("5.00")
    assert [r["message"] for r in rows if r["section"] == "discrepancy"] == ["seat 1 main: paid 20.00, due 10.00"]
    pits = {r["pit"] for r in rows if r["section"] in ("discrepancy", "approval")}
    assert pits == {floor[1].table.pit.name}  # each discrepancy and approval names its pit, as the hold rows do
    assert report.summary["rounds"] == 7


def test_building_the_report_twice_keeps_one_row(floor, reports_dir):
    build_report(DAY)
    build_report(DAY)
    assert AuditReport.objects.filter(gaming_day=DAY).count() == 1


def test_the_report_is_emailed_once_when_recipients_are_set(floor, reports_dir, settings):
    settings.AUDIT_REPORT_RECIPIENTS = ["audit@example.com"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    build_report(DAY)
    build_report(DAY)
    assert len(mail.outbox) == 1
    names = [a[0] for a in mail.outbox[0].attachments]
    assert names == ["audit-2026-11-20.pdf", "audit-2026-11-20.csv"]


def test_a_run_that_changes_the_report_keeps_the_one_before_and_sends_the_revision(
        floor, reports_dir, settings, auditor):
    # The walk-through: running the audit of a day again overwrote its report; what an auditor or a
    # recipient had read was gone.
    from tests.tables.dashboard.conftest import client_for

    settings.AUDIT_REPORT_RECIPIENTS = ["audit@example.com"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    first = build_report(DAY)
    old_csv = (reports_dir / first.csv_path).read_bytes()
    floor[0].round(at(3), ["5S", "6H", "7D"], nets={"main": "-25.00"}, wagers={"main": "25.00"})  # a round found late
    audit_floor_day(DAY)
    second = build_report(DAY)
    assert AuditReport.objects.filter(gaming_day=DAY).count() == 1
    assert second.summary["rounds"] == 8 and len(second.earlier) == 1
    kept = second.earlier[0]
    assert kept["summary"]["rounds"] == 7 and kept["emailed_to"] == "audit@example.com"
    assert (reports_dir / kept["csv_path"]).read_bytes() == old_csv  # the earlier version, as it was
    assert all((reports_dir / kept[f"{k}_path"]).is_file() for k in ("html", "pdf", "csv"))
    assert (reports_dir / second.csv_path).read_bytes() != old_csv
    assert [m.subject for m in mail.outbox] == ["Audit report 2026-11-20", "Audit report 2026-11-20 (revision 2)"]
    # The reports page lists it, and its files are served from the row.
    auditor_client = client_for(auditor)
    page = auditor_client.get("/dashboard/reports/").content.decode()
    assert 'data-earlier="1"' in page and "earlier version, made" in page
    got = auditor_client.get(f"/dashboard/reports/{second.pk}/earlier/0/csv/")
    assert got.status_code == 200 and b"".join(got.streaming_content) == old_csv
    assert auditor_client.get(f"/dashboard/reports/{second.pk}/earlier/1/csv/").status_code == 404
    assert auditor_client.get(f"/dashboard/reports/{second.pk}/earlier/0/exe/").status_code == 404
    # The same data again: nothing new to keep, nothing sent again.
    third = build_report(DAY)
    assert len(third.earlier) == 1 and len(mail.outbox) == 2


def test_run_audit_prints_the_report_paths(floor, reports_dir):
    out = StringIO()
    call_command("run_audit", "--date", DAY.isoformat(), stdout=out, stderr=StringIO())
    paths = out.getvalue().split()
    assert [p.rsplit(".", 1)[1] for p in paths] == ["html", "pdf", "csv"]
    assert all((reports_dir / p).exists() or __import__("pathlib").Path(p).exists() for p in paths)


def test_run_audit_refuses_a_bad_date(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="YYYY-MM-DD"):
        call_command("run_audit", "--date", "20-11-2026", stdout=StringIO(), stderr=StringIO())
