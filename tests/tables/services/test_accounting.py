"""Table accounting: every slip's life cycle (two-person signing, void-only edits, numbering), the drop,
the reconciliation of counted against tracked win, and ratings whose theo is the sum over stored wagers."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone

from tables import services
from tables.access import CAGE_CASHIER, COUNT_TEAM, DEALER, PIT_BOSS
from tables.errors import Conflict, InvalidInput
from tables.models import (
    AuditEvent,
    AuditFinding,
    AuditResult,
    DropCount,
    Slip,
    SlipSignature,
    SlipVoid,
    TableSession,
    Wager,
)
from tables.selectors.accounting import shift_bounds, shift_count, shift_of
from tables.services.accounting import (
    accounting_table_day,
    drop_record,
    player_seat,
    rating_close,
    rating_of,
    rating_pause,
    rating_resume,
    reconcile_shift,
    slip_create,
    slip_sign,
    slip_void,
)
from tables.services.audits import theory_for
from tables.services.floor_sim import simulated_clock
from tests.factories import UserFactory
from tests.tables.tasks.builders import FloorBuilder, set_theory

pytestmark = pytest.mark.django_db
D = Decimal
FLOAT = {"100": 50, "25": 100, "5": 200}  # 8,500.00


def _user(name, *roles):
    u = UserFactory(username=name)
    for r in roles:
        u.groups.add(Group.objects.get(name=r))
    return u


@pytest.fixture
def cage(db):
    return _user("cage", CAGE_CASHIER)


@pytest.fixture
def counter(db):
    return _user("counter", COUNT_TEAM)


@pytest.fixture
def table(demo_casino, dealer):
    t = demo_casino.tables["unlimited-blackjack"]
    set_theory(t, {"main": (0.005, 1.3), "perfect-pairs": (0.04, 15.6)})
    services.table_open(table=t, actor=dealer)
    return t


def _now_shift():
    return shift_of(timezone.now())


# ---------------------------------------------------------------------------------------------
# Inventory slips: opener and closer


def test_an_opener_is_complete_when_the_dealer_and_a_supervisor_have_signed_it(table, dealer, pit_boss):
    slip = slip_create(table=table, kind="opener", chips=FLOAT, actor=dealer)
    assert slip.total == D("8500.00") and slip.number == 1 and (slip.gaming_day, slip.shift) == _now_shift()
    day, shift = _now_shift()
    assert shift_count(table, day, shift).opener is None  # unsigned: it does not count yet
    slip_sign(slip=slip, step="dealer", actor=dealer)
    assert shift_count(table, day, shift).opener is None  # one signature is not enough
    slip_sign(slip=slip, step="supervisor", actor=pit_boss)
    assert shift_count(table, day, shift).opener == D("8500.00")


def test_nobody_signs_two_steps_of_one_slip(table, dealer):
    both = _user("both", DEALER, PIT_BOSS)  # a dealer who is also a supervisor
    services.table_open(table=table, dealer=both, actor=both)
    slip = slip_create(table=table, kind="closer", chips=FLOAT, actor=both)
    slip_sign(slip=slip, step="dealer", actor=both)
    with pytest.raises(PermissionDenied, match="another person signs"):
        slip_sign(slip=slip, step="supervisor", actor=both)


def test_only_a_dealer_of_the_table_signs_as_dealer_and_only_a_supervisor_as_supervisor(table, dealer, pit_boss,
                                                                                       outsider):
    other_dealer = _user("other-dealer", DEALER)
    slip = slip_create(table=table, kind="opener", chips=FLOAT, actor=pit_boss)
    with pytest.raises(PermissionDenied):
        slip_sign(slip=slip, step="dealer", actor=other_dealer)  # never held this table
    with pytest.raises(PermissionDenied):
        slip_sign(slip=slip, step="supervisor", actor=dealer)
    with pytest.raises(PermissionDenied):
        slip_create(table=table, kind="opener", chips=FLOAT, actor=outsider)
    with pytest.raises(InvalidInput) as e:
        slip_sign(slip=slip, step="issued", actor=pit_boss)
    assert e.value.field == "step"


def test_a_signed_slip_is_changed_only_by_a_void_and_a_replacement(table, dealer, pit_boss):
    slip = slip_create(table=table, kind="opener", chips=FLOAT, actor=dealer)
    slip_sign(slip=slip, step="dealer", actor=dealer)
    slip_sign(slip=slip, step="supervisor", actor=pit_boss)
    with pytest.raises(Conflict, match="void it"):
        slip_create(table=table, kind="opener", chips={"100": 50}, actor=dealer)
    with pytest.raises(InvalidInput, match="reason"):
        slip_void(slip=slip, reason=" ", actor=pit_boss)
    with pytest.raises(PermissionDenied):
        slip_void(slip=slip, reason="miscounted", actor=dealer)
    slip_void(slip=slip, reason="the 25s were miscounted", actor=pit_boss)
    with pytest.raises(Conflict, match="void"):
        slip_sign(slip=slip, step="dealer", actor=dealer)
    fixed = slip_create(table=table, kind="opener", chips={**FLOAT, "25": 96}, actor=dealer, replaces=slip)
    assert fixed.number == 2 and fixed.replaces == slip and fixed.total == D("8400.00")
    slip.refresh_from_db()
    assert slip.total == D("8500.00") and slip.void.reason == "the 25s were miscounted"  # the original stays
    with pytest.raises(Conflict, match="replaced already"):
        slip_create(table=table, kind="opener", chips=FLOAT, actor=dealer, replaces=slip)


@pytest.mark.parametrize("write", [
    lambda: Slip.objects.update(total=D("1.00")),
    lambda: Slip.objects.all().delete(),
    lambda: SlipSignature.objects.update(step="supervisor"),
    lambda: SlipSignature.objects.all().delete(),
    lambda: SlipVoid.objects.update(reason="nothing happened"),
    lambda: SlipVoid.objects.all().delete(),
])
def test_the_database_refuses_any_edit_of_a_slip_its_signatures_or_its_void(table, dealer, pit_boss, write):
    slip = slip_create(table=table, kind="opener", chips=FLOAT, actor=dealer)
    slip_sign(slip=slip, step="dealer", actor=dealer)
    slip_void(slip=slip, reason="wrong table", actor=pit_boss)
    with pytest.raises(IntegrityError), transaction.atomic():
        write()


@pytest.mark.parametrize(("chips", "field"), [
    ({"3": 1}, "chips.3"), ({"25": -1}, "chips.25"), ({"25": 1.5}, "chips.25"), ({"x": 1}, "chips.x"),
    ({"25": True}, "chips.25"), ([1, 2], "chips"), ({"25": 1, "25.00": 2}, "chips.25.00"),
])
def test_a_bad_chip_count_is_refused_naming_the_denomination(table, dealer, chips, field):
    with pytest.raises(InvalidInput) as e:
        slip_create(table=table, kind="opener", chips=chips, actor=dealer)
    assert e.value.field == field


# ---------------------------------------------------------------------------------------------
# Fills and credits


def test_a_fill_is_requested_by_the_pit_issued_by_the_cage_and_received_at_the_table(table, dealer, pit_boss, cage):
    with pytest.raises(PermissionDenied):
        slip_create(table=table, kind="fill", chips={"100": 20}, actor=dealer)
    fill = slip_create(table=table, kind="fill", chips={"100": 20}, actor=pit_boss)
    assert fill.signatures.get().step == "requested"
    with pytest.raises(Conflict, match="not issued"):
        slip_sign(slip=fill, step="received", actor=dealer)
    with pytest.raises(PermissionDenied):
        slip_sign(slip=fill, step="issued", actor=pit_boss)
    slip_sign(slip=fill, step="issued", actor=cage)
    day, shift = _now_shift()
    assert shift_count(table, day, shift).fills == 0  # chips on the way do not count until received
    slip_sign(slip=fill, step="received", actor=dealer)
    assert shift_count(table, day, shift).fills == D("2000.00")
    with pytest.raises(Conflict, match="received already"):
        slip_sign(slip=fill, step="received", actor=pit_boss)


def test_fills_and_credits_are_numbered_in_sequence_per_casino_and_a_void_keeps_its_number(
        table, demo_casino, pit_boss, cage, dealer):
    other = demo_casino.tables["finnish-27"]
    numbers = [slip_create(table=t, kind="fill", chips={"25": 4}, actor=pit_boss).number
               for t in (table, other, table)]
    assert numbers == [1, 2, 3]
    credit = slip_create(table=table, kind="credit", chips={"500": 2}, actor=pit_boss)
    assert credit.number == 1
    slip_sign(slip=credit, step="issued", actor=cage)
    slip_sign(slip=credit, step="received", actor=dealer)
    slip_void(slip=credit, reason="sent to the wrong cage window", actor=cage)  # the cage voids its own
    assert slip_create(table=table, kind="credit", chips={"500": 2}, actor=pit_boss).number == 2
    day, shift = _now_shift()
    assert shift_count(table, day, shift).credits == 0  # the void is out of every total
    with pytest.raises(InvalidInput):
        slip_create(table=table, kind="fill", chips={"25": 0}, actor=pit_boss)


# ---------------------------------------------------------------------------------------------
# The drop


def test_the_count_team_enters_the_drop_once_per_shift_and_the_day_is_their_sum(table, counter, pit_boss):
    day, _ = _now_shift()
    with pytest.raises(PermissionDenied):
        drop_record(table=table, amount="100.00", actor=pit_boss, gaming_day=day, shift="day")
    drop_record(table=table, amount="1250.00", actor=counter, gaming_day=day, shift="day")
    drop_record(table=table, amount="750.50", actor=counter, gaming_day=day, shift="swing")
    assert DropCount.objects.get(table=table, gaming_day=day, shift="").amount == D("2000.50")
    with pytest.raises(Conflict):
        drop_record(table=table, amount="1.00", actor=counter, gaming_day=day, shift="day")
    for bad, field in (("1.001", "amount"), ("-5", "amount"), (1.5, "amount")):
        with pytest.raises(InvalidInput) as e:
            drop_record(table=table, amount=bad, actor=counter, gaming_day=day, shift="graveyard")
        assert e.value.field == field
    with pytest.raises(InvalidInput) as e:
        drop_record(table=table, amount="1.00", actor=counter, gaming_day=day, shift="night")
    assert e.value.field == "shift"
    with pytest.raises(InvalidInput) as e:
        drop_record(table=table, amount="1.00", actor=counter, gaming_day=day + timedelta(days=1), shift="day")
    assert e.value.field == "gaming_day"


# ---------------------------------------------------------------------------------------------
# Counted against tracked win


def _counted_shift(table, dealer, pit_boss, cage, counter, *, closer_chips, day, shift="day"):
    """A past shift: two rounds the house wins 10 and loses 15 (tracked −5), an opener of 8,500, a fill of
    500, a credit of 1,000, a drop of 300, and the closer given."""
    start, end = shift_bounds(day, shift)
    with simulated_clock(TableSession):  # the dealer held the table that shift
        TableSession.objects.create(table=table, dealer=dealer, opened_by=dealer, opened_at=start, closed_at=end)
    b = FloorBuilder(table, dealer)
    b.round(start + timedelta(hours=1), ["TS", "7H"], wagers={"main": "10.00"}, nets={"main": "-10.00"})
    b.round(start + timedelta(hours=2), ["TS", "7H"], wagers={"main": "10.00"}, nets={"main": "15.00"})
    kw = {"gaming_day": day, "shift": shift}
    opener = slip_create(table=table, kind="opener", chips=FLOAT, actor=pit_boss, **kw)
    slip_sign(slip=opener, step="supervisor", actor=pit_boss)
    slip_sign(slip=opener, step="dealer", actor=dealer)
    for kind, chips in (("fill", {"100": 5}), ("credit", {"500": 2})):
        s = slip_create(table=table, kind=kind, chips=chips, actor=pit_boss, **kw)
        slip_sign(slip=s, step="issued", actor=cage)
        slip_sign(slip=s, step="received", actor=dealer)
    closer = slip_create(table=table, kind="closer", chips=closer_chips, actor=pit_boss, **kw)
    slip_sign(slip=closer, step="dealer", actor=dealer)
    slip_sign(slip=closer, step="supervisor", actor=pit_boss)
    drop_record(table=table, amount="300.00", actor=counter, **kw)


def test_the_win_formula_closer_minus_opener_plus_credits_minus_fills_plus_drop(table, dealer, pit_boss, cage,
                                                                               counter):
    day = _now_shift()[0] - timedelta(days=1)
    # tray: 8,500 + 500 fill − 1,000 credit − 300 bought with the drop's cash − 5 lost to players = 7,695
    closer = {"100": 45, "25": 100, "5": 139}
    _counted_shift(table, dealer, pit_boss, cage, counter, closer_chips=closer, day=day)
    rec = reconcile_shift(table, day, "day")
    assert (rec["opener"], rec["closer"], rec["fills"], rec["credits"], rec["drop"]) == (
        D("8500.00"), D("7695.00"), D("500.00"), D("1000.00"), D("300.00"))
    assert rec["counted"] == D("7695.00") - D("8500.00") + D("1000.00") - D("500.00") + D("300.00") == D("-5.00")
    assert rec["tracked"] == D("-5.00") and rec["difference"] == 0 and not rec["flagged"]


def test_chips_missing_from_the_tray_are_a_reconciliation_finding(table, dealer, pit_boss, cage, counter, settings):
    settings.ACCOUNTING_WIN_TOLERANCE = "1.00"
    day = _now_shift()[0] - timedelta(days=1)
    closer = {"100": 45, "25": 98, "5": 139}  # two 25 chips gone
    _counted_shift(table, dealer, pit_boss, cage, counter, closer_chips=closer, day=day)
    summary = accounting_table_day(table, day)
    assert summary["shifts"]["day"]["reconciliation"]["difference"] == "-50.00"
    result = AuditResult.objects.get(kind="accounting", table=table, period=f"shift:{day.isoformat()}/day")
    finding = AuditFinding.objects.get(result=result)
    assert finding.rule == "accounting.win-mismatch" and finding.severity == "critical"
    assert "short by 50.00" in finding.message and "day shift of " in finding.message
    assert day.isoformat() not in finding.message  # the day in words, not an ISO key
    assert not AuditFinding.objects.filter(result__kind="accounting", rule="accounting.win-mismatch").exclude(
        pk=finding.pk).exists()
    # Within the tolerance it is no finding; running again replaces the results in place.
    settings.ACCOUNTING_WIN_TOLERANCE = "50.00"
    accounting_table_day(table, day)
    assert not AuditFinding.objects.filter(rule="accounting.win-mismatch").exists()
    assert AuditResult.objects.filter(kind="accounting", table=table).count() == 4  # 3 shifts + the day


def test_the_day_win_drop_hold_and_the_year_to_date_sum_the_counted_shifts(table, dealer, pit_boss, cage, counter):
    day = _now_shift()[0] - timedelta(days=1)
    _counted_shift(table, dealer, pit_boss, cage, counter, closer_chips={"100": 45, "25": 100, "5": 139}, day=day)
    summary = accounting_table_day(table, day)
    hold = summary["hold"]["day"]
    assert hold["counted_win"] == "-5.00" and hold["drop"] == "300.00"
    assert hold["hold_pct"] == pytest.approx(-5 / 300 * 100)
    edge = theory_for(table.rule_set_id, table.pay_table_id)["main"]["edge"]  # the one theory store
    assert hold["theo_win"] == str((D(str(edge)) * 20).quantize(D("0.01")))  # on 20.00 of handle
    assert summary["ytd_totals"]["counted_win"] == "-5.00" and summary["totals"]["counted_shifts"] == 1


# ---------------------------------------------------------------------------------------------
# Ratings


def test_a_rating_theo_is_the_sum_of_the_stored_wagers_times_their_edges(table, dealer):
    slip = player_seat(table=table, seat=3, card_number="C-1001", name="Ada", actor=dealer)
    b = FloorBuilder(table, dealer)
    now = timezone.now
    b.round(now(), ["TS"], seat=3, wagers={"main": "25.00", "perfect-pairs": "5.00"}, nets={"main": "25.00"})
    b.round(now(), ["TS"], seat=3, wagers={"main": "50.00"}, nets={"main": "-50.00"})
    b.round(now(), ["TS"], seat=2, wagers={"main": "500.00"}, nets={"main": "-500.00"})  # someone else's seat
    rating_pause(slip=slip, actor=dealer)
    b.round(now(), ["TS"], seat=3, wagers={"main": "100.00"}, nets={"main": "-100.00"})  # while away: not rated
    rating_resume(slip=slip, actor=dealer)
    b.round(now(), ["TS"], seat=3, wagers={"main": "10.00", "perfect-pairs": "5.00"},
            nets={"main": "-10.00", "perfect-pairs": "-5.00"})
    rating_close(slip=slip, actor=dealer)
    b.round(now(), ["TS"], seat=3, wagers={"main": "75.00"}, nets={"main": "-75.00"})  # after leaving

    r = rating_of(slip)
    theory = theory_for(table.rule_set_id, table.pay_table_id)
    rated = [w for w in Wager.objects.filter(round__table=table, seat=3).select_related("round")
             if w.amount not in (D("100.00"), D("75.00"))]
    expected = sum(w.amount * D(str(theory[w.kind]["edge"])) for w in rated).quantize(D("0.01"))
    assert D(r["theo"]) == expected > 0  # the main bet's edge is the pay table's, the side bet's 4% (set here)
    assert r["rounds"] == 3 and r["handle"] == "95.00" and r["avg_bet"] == "31.67"
    assert r["actual"] == "40.00"  # the house won 50 + 15 and lost 25
    assert r["state"] == "closed" and r["estimate_pace"] == 60


def test_a_seat_holds_one_rated_player_and_a_player_one_seat(table, dealer, outsider):
    player_seat(table=table, seat=1, name="Bo", actor=dealer)
    with pytest.raises(Conflict, match="taken"):
        player_seat(table=table, seat=1, card_number="C-9", actor=dealer)
    with pytest.raises(Conflict, match="elsewhere"):
        player_seat(table=table, seat=2, name="Bo", actor=dealer)
    with pytest.raises(InvalidInput) as e:
        player_seat(table=table, seat=9, name="Cy", actor=dealer)
    assert e.value.field == "seat"
    with pytest.raises(PermissionDenied):
        player_seat(table=table, seat=2, name="Cy", actor=outsider)


def test_an_overpayment_shows_as_a_difference_the_mispayment_explains(table, dealer, pit_boss, cage, counter):
    day = _now_shift()[0] - timedelta(days=1)
    start, _ = shift_bounds(day, "day")
    closer = {"100": 45, "25": 100, "5": 135}  # 7,695 − 15 − 5 = 7,675 in the tray
    _counted_shift(table, dealer, pit_boss, cage, counter, closer_chips=closer, day=day)
    # The dealer paid 20.00 where 15.00 was due: 5.00 more left the tray than the rounds say.
    FloorBuilder(table, dealer, round_no=2).round(start + timedelta(hours=3), ["TS", "7H"], nets={"main": "15.00"},
                                      wagers={"main": "10.00"}, state="mismatch",
                                      discrepancies=[{"seat": 1, "bet": "main", "kind": "main", "paid": "20.00",
                                                      "due": "15.00", "difference": "5.00"}])
    rec = reconcile_shift(table, day, "day")
    assert (rec["counted"], rec["tracked"], rec["mispaid"]) == (D("-25.00"), D("-20.00"), D("5.00"))
    assert rec["flagged"] and rec["unexplained"] == 0
    assert "all of it paid +5.00 over due on mispaid rounds, nothing unexplained" in rec["reason"]
    accounting_table_day(table, day)
    assert AuditFinding.objects.get(rule="accounting.win-mismatch").severity == "warning"


def test_the_back_office_drop_form_goes_through_the_service(table, counter):
    from django.test import Client

    from tables.services.audits import gaming_day_of
    from tests.factories import PASSWORD

    counter.set_password(PASSWORD)
    counter.is_staff = True
    counter.save()
    client = Client()
    assert client.login(username=counter.username, password=PASSWORD)
    form = {"table": table.pk, "gaming_day": gaming_day_of(timezone.now()).isoformat(), "shift": "day",
            "amount": "1500.00"}
    assert client.post("/admin/tables/dropcount/add/", form).status_code == 302
    assert DropCount.objects.get(table=table, shift="day").entered_by == counter
    assert DropCount.objects.get(table=table, shift="").amount == Decimal("1500.00")  # the day's total
    assert AuditEvent.objects.filter(action="drop.count").count() == 1
    again = client.post("/admin/tables/dropcount/add/", form)
    assert again.status_code == 200 and "counted already" in again.content.decode()
    assert DropCount.objects.filter(table=table).count() == 2


def test_the_accounting_page_says_its_periods_in_words_and_its_amounts_in_cents(table, dealer, pit_boss, cage,
                                                                                counter):
    from tests.tables.dashboard.conftest import client_for

    day = _now_shift()[0] - timedelta(days=1)
    _counted_shift(table, dealer, pit_boss, cage, counter, closer_chips={"100": 45, "25": 100, "5": 139}, day=day)
    rec = reconcile_shift(table, day, "day")
    assert [str(rec[k]) for k in ("fills", "credits", "mispaid")] == ["500.00", "1000.00", "0.00"]  # SQLite sums: 500
    accounting_table_day(table, day)
    page = client_for(pit_boss).get("/dashboard/accounting/", {"day": day.isoformat()}).content.decode()
    holds = page[page.index('id="holds"'):page.index("<h2>Slips")]
    assert "<td>month-to-date</td>" in holds and "<td>year-to-date</td>" in holds and "<td>day</td>" in holds
    assert ">mtd<" not in holds and ">ytd<" not in holds
    reconciliation = page[page.index('id="reconciliation"'):page.index('id="holds"')]
    assert "<td>500.00</td><td>1000.00</td><td>300.00</td>" in reconciliation
