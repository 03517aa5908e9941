"""``load_demo --history-days``: the run command's small simulated history, played once."""

from io import StringIO

import pytest
from django.core.management import call_command

from tables.models import AuditResult, Round, RoundState, TableSession

pytestmark = pytest.mark.django_db


def test_it_plays_and_audits_a_simulated_history_once():
    call_command("load_demo", "--history-days", "1", stdout=StringIO())
    rounds = Round.objects.count()
    assert rounds > 0
    assert set(Round.objects.values_list("table__number", flat=True)) == {1, 2, 3}
    assert not Round.objects.filter(state__in=[RoundState.IN_PLAY, RoundState.PAUSED]).exists()
    assert AuditResult.objects.filter(table__number=1).exists()
    # The simulated shifts are over: every table is free for the demo dealer to take.
    assert not TableSession.objects.filter(closed_at__isnull=True).exists()
    assert TableSession.objects.filter(table__number=1).exists()

    out = StringIO()
    call_command("load_demo", "--history-days", "1", stdout=out)
    assert Round.objects.count() == rounds
    assert "none added" in out.getvalue()


def test_the_days_that_are_over_have_their_nightly_report(tmp_path, settings):
    from tables.models import AuditReport

    settings.REPORTS_ROOT = tmp_path / "reports"
    out = StringIO()
    call_command("load_demo", "--history-days", "2", stdout=out)
    # Today's gaming day is still going: only yesterday's report, as the nightly job would have written it.
    [report] = AuditReport.objects.all()
    assert report.status == "done" and report.summary["rounds"] > 0
    assert (settings.REPORTS_ROOT / report.pdf_path).read_bytes()[:4] == b"%PDF"
    assert f"nightly report of {report.gaming_day}" in out.getvalue()
