"""Reports are listed on the dashboard and downloadable in their three formats."""

from __future__ import annotations

import pytest

from tables.models import AuditReport
from tables.services.audits import audit_floor_day
from tables.services.reports import build_report
from tests.tables.dashboard.conftest import client_for
from tests.tables.tasks.builders import DAY, FloorBuilder, at, set_theory

pytestmark = pytest.mark.django_db


@pytest.fixture
def report(demo_casino, dealer, tmp_path, settings):
    settings.REPORTS_ROOT = tmp_path
    table = demo_casino.tables["finnish-27"]
    set_theory(table, {"main": (0.02, 1.5)})
    b = FloorBuilder(table, dealer)
    b.shuffle(at(1))
    b.round(at(1.1), ["2S", "3S", "4S", "5S"])
    audit_floor_day(DAY)
    return build_report(DAY)


def test_the_reports_page_lists_the_report_with_its_files(auditor, report):
    page = client_for(auditor).get("/dashboard/reports/").content.decode()
    assert "Fri 20 Nov 2026" in page  # the gaming day in words
    for kind in ("html", "pdf", "csv"):
        assert f"/dashboard/reports/{report.pk}/{kind}/" in page


@pytest.mark.parametrize("kind, content_type, start", [
    ("pdf", "application/pdf", b"%PDF"), ("csv", "text/csv; charset=utf-8", b"section,table"),
    ("html", "text/html; charset=utf-8", b"<!doctype html>"),
])
def test_each_file_downloads(auditor, report, kind, content_type, start):
    response = client_for(auditor).get(f"/dashboard/reports/{report.pk}/{kind}/")
    assert response.status_code == 200 and response["Content-Type"] == content_type
    assert b"".join(response.streaming_content).startswith(start)


def test_an_unknown_format_or_a_path_outside_the_reports_is_not_served(auditor, report):
    c = client_for(auditor)
    assert c.get(f"/dashboard/reports/{report.pk}/exe/").status_code == 404
    AuditReport.objects.filter(pk=report.pk).update(pdf_path="../../etc/passwd")
    assert c.get(f"/dashboard/reports/{report.pk}/pdf/").status_code == 404


def test_a_dealer_cannot_download_reports(dealer, report):
    assert client_for(dealer).get(f"/dashboard/reports/{report.pk}/pdf/").status_code == 403
