"""In a real browser: an auditor runs the audit of a chosen day from the reports page and watches its
progress (queued, tables audited one by one, the report written) turn into the report's links."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.test import Client

from tables.days import day_text
from tables.models import AuditReport
from tests.tables.tasks.builders import DAY, FloorBuilder, at, set_theory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("BACKOFFICE_SCREENSHOTS")


def test_an_auditor_runs_the_audit_of_a_day_with_progress(browser, live_server, demo_casino, dealer, auditor,
                                                          tmp_path, settings, monkeypatch) -> None:
    from tables.tasks import audit as tasks

    settings.REPORTS_ROOT = tmp_path
    for slug in ("finnish-27", "unlimited-blackjack"):
        table = demo_casino.tables[slug]
        set_theory(table, {"main": (0.02, 1.5)})
        b = FloorBuilder(table, dealer)
        b.shuffle(at(1))
        b.round(at(1.1), ["2S", "3S", "4S", "5S"] if slug == "finnish-27" else ["2S", "3H", "4D"])
    # The worker, played by this test step by step: what the button queues is recorded, not sent.
    queued: list[str] = []
    monkeypatch.setattr(tasks.audit_nightly, "delay", lambda day: queued.append(day))
    monkeypatch.setattr(tasks, "group", lambda sigs: type("G", (), {"apply_async": lambda self: list(sigs)})())
    reports: list[str] = []
    monkeypatch.setattr(tasks.audit_report, "delay", lambda day: reports.append(day))

    client = Client()
    client.force_login(auditor)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/dashboard/reports/")
    page.fill("#report-run-day", day_text(DAY))  # as the page writes days
    page.click("#report-run button")
    text = page.locator(".report-run-text")
    page.wait_for_selector(".report-run-text:has-text('queued')")
    assert queued == [DAY.isoformat()]

    tasks.audit_nightly(DAY.isoformat())
    report = AuditReport.objects.get(gaming_day=DAY)
    n = len(report.expected_tables)
    page.wait_for_selector(f".report-run-text:has-text('auditing tables: 0 of {n}')")
    for i, table_id in enumerate(report.expected_tables[:2], start=1):
        tasks.audit_table(table_id, DAY.isoformat(), report.run)
        page.wait_for_selector(f".report-run-text:has-text('auditing tables: {i} of {n}')")
    value = int(page.locator(".report-run-status progress").get_attribute("value") or 0)
    assert 0 < value < 90
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "reports-run-progress.png"))
    for table_id in report.expected_tables[2:]:
        tasks.audit_table(table_id, DAY.isoformat(), report.run)
    assert reports == [DAY.isoformat()]  # the last table joined the run and queued the report
    page.wait_for_selector(".report-run-text:has-text('writing the report')")
    tasks.audit_report(DAY.isoformat())
    page.wait_for_selector(".report-file-pdf")
    assert "done (100%)" in text.inner_text() and text.inner_text().startswith(day_text(DAY))
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "reports-run-done.png"))
    pdf = page.locator(".report-file-pdf").get_attribute("href")
    assert pdf == f"/dashboard/reports/{report.pk}/pdf/"
    # Run the same day again: the day's row in the list says "running" while the run is under way.
    page.reload()
    row = page.locator(f'tr[data-day="{DAY.isoformat()}"] .report-status')
    assert row.inner_text() == "done"
    page.fill("#report-run-day", day_text(DAY))
    page.click("#report-run button")
    page.wait_for_selector(".report-run-text:has-text('queued')")
    assert row.inner_text() == "running"
    context.close()
