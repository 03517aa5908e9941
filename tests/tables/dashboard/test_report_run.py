"""The auditors' "Run the audit" button on the reports page: queued, audited, progress, refusals."""

from __future__ import annotations

from typing import Any

import pytest

from tables.models import AuditEvent, AuditReport
from tests.tables.dashboard.conftest import client_for
from tests.tables.tasks.builders import DAY, FloorBuilder, at, set_theory

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager() -> Any:
    """Celery tasks run in this process (the audit's fan-out and join included)."""
    from casino.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = before


@pytest.fixture
def played(demo_casino, dealer, tmp_path, settings):  # type: ignore[no-untyped-def]
    settings.REPORTS_ROOT = tmp_path
    table = demo_casino.tables["finnish-27"]
    set_theory(table, {"main": (0.02, 1.5)})
    b = FloorBuilder(table, dealer)
    b.shuffle(at(1))
    b.round(at(1.1), ["2S", "3S", "4S", "5S"])
    return table


def test_the_button_is_shown_to_auditors_only(auditor, pit_boss, played) -> None:
    assert 'id="report-run"' in client_for(auditor).get("/dashboard/reports/").content.decode()
    assert 'id="report-run"' not in client_for(pit_boss).get("/dashboard/reports/").content.decode()


def test_an_auditor_runs_the_audit_of_a_day_and_gets_the_report(auditor, played, eager) -> None:
    client = client_for(auditor)
    assert client.get(f"/dashboard/reports/run/{DAY}/").json()["status"] == "none"
    response = client.post("/dashboard/reports/run/", {"day": DAY.isoformat()}, HTTP_ACCEPT="application/json")
    assert response.status_code == 202, response.content
    progress = client.get(f"/dashboard/reports/run/{DAY}/").json()
    assert (progress["status"], progress["progress"], progress["stage"]) == ("done", 1.0, "done")
    report = AuditReport.objects.get(gaming_day=DAY)
    assert progress["files"]["pdf"] == f"/dashboard/reports/{report.pk}/pdf/"
    assert report.summary["rounds"] == 1
    assert AuditEvent.objects.filter(action="audit.run_requested", actor=auditor, payload__day=DAY.isoformat()).exists()


def test_progress_counts_the_tables_audited(auditor, played, monkeypatch) -> None:
    from tables.tasks import audit as tasks

    sent: list[str] = []
    monkeypatch.setattr(tasks.audit_nightly, "delay", lambda day: sent.append(day))
    client = client_for(auditor)
    client.post("/dashboard/reports/run/", {"day": DAY.isoformat()}, HTTP_ACCEPT="application/json")
    assert sent == [DAY.isoformat()]
    assert client.get(f"/dashboard/reports/run/{DAY}/").json()["stage"] == "queued"
    # What the worker does: the run starts, then the tables are audited one by one.
    monkeypatch.setattr(tasks, "group", lambda sigs: type("G", (), {"apply_async": lambda self: list(sigs)})())
    monkeypatch.setattr(tasks.audit_report, "delay", lambda day: None)
    tasks.audit_nightly(DAY.isoformat())
    report = AuditReport.objects.get(gaming_day=DAY)
    first = client.get(f"/dashboard/reports/run/{DAY}/").json()
    assert (first["tables_done"], first["tables"]) == (0, len(report.expected_tables))
    tasks.audit_table(report.expected_tables[0], DAY.isoformat(), report.run)
    second = client.get(f"/dashboard/reports/run/{DAY}/").json()
    assert second["tables_done"] == 1 and 0 < second["progress"] < 0.9
    assert second["stage"] == f"auditing tables: 1 of {len(report.expected_tables)}"


def test_a_running_audit_is_not_started_twice(auditor, played, monkeypatch) -> None:
    from tables.tasks import audit as tasks

    monkeypatch.setattr(tasks.audit_nightly, "delay", lambda day: None)
    client = client_for(auditor)
    assert client.post("/dashboard/reports/run/", {"day": DAY.isoformat()}, HTTP_ACCEPT="application/json").status_code == 202
    again = client.post("/dashboard/reports/run/", {"day": DAY.isoformat()}, HTTP_ACCEPT="application/json")
    assert again.status_code == 409 and "already running" in again.json()["error"]
    assert DAY.isoformat() not in again.json()["error"]  # the day in words, as the page writes it


def test_a_pit_boss_cannot_run_it_nor_anyone_a_day_to_come(pit_boss, auditor, played) -> None:
    assert client_for(pit_boss).post("/dashboard/reports/run/", {"day": DAY.isoformat()}).status_code == 403
    response = client_for(auditor).post("/dashboard/reports/run/", {"day": "2999-01-01"})
    assert response.status_code == 400 and "has not started yet" in response.json()["error"]
    assert "2999-01-01" not in response.json()["error"]
    bad = client_for(auditor).post("/dashboard/reports/run/", {"day": "11/25/2026"})
    assert bad.status_code == 400 and "“11/25/2026” is not a day such as" in bad.json()["error"]


def test_the_day_is_typed_as_the_dashboard_writes_it(auditor, played, monkeypatch) -> None:
    from tables import tasks
    from tables.days import day_text

    queued: list[str] = []
    monkeypatch.setattr(tasks.audit_nightly, "delay", lambda day: queued.append(day))
    response = client_for(auditor).post("/dashboard/reports/run/", {"day": day_text(DAY)},
                                        HTTP_ACCEPT="application/json")
    assert response.status_code == 202 and queued == [DAY.isoformat()]
    answer = response.json()
    assert answer["day_words"] == day_text(DAY) and answer["progress_url"] == f"/dashboard/reports/run/{DAY}/"
    page = client_for(auditor).get("/dashboard/reports/").content.decode()
    assert 'type="date"' not in page  # no browser date picker (11/25/2026 in an en-US browser)
    AuditReport.objects.filter(gaming_day=DAY).update(status="done")  # the one just queued, as if written
    listed = client_for(auditor).get("/dashboard/reports/").content.decode()
    assert f"<td>{day_text(DAY)}</td>" in listed and f"<td>{DAY.isoformat()}</td>" not in listed
