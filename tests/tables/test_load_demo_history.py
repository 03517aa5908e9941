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
