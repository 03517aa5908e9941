"""Table accounting and ratings over the API: slips, their signatures and voids, the drop, reconciliation,
seated players and their rating slips.  Thin: validate strictly, check the right, call one service."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tables.access import DEALER_ROLE, check_right, is_cage_cashier, is_pit_boss, roles_of
from tables.errors import InvalidInput
from tables.models import RatingSlip, Slip, Table
from tables.selectors import accounting as sel
from tables.services import accounting as svc

from .base import ApiView
from .idempotency import idempotent
from .rounds import ERRORS, IDEMPOTENCY, StrictInput, _valid

VIEW = "tables.view_accounting"
SHIFTS = [(s, s) for s in sel.SHIFT_NAMES]
DAY = OpenApiParameter("day", str, description="gaming day, YYYY-MM-DD (default: today's)")


def _check_read(user: Any, table: Table | None = None) -> None:
    """Accounting is read by whoever holds ``tables.view_accounting`` (pit, cage, count team, auditors,
    games managers); a dealer reads the slips of the table they hold."""
    if user.has_perm(VIEW):
        return
    if table is not None:
        check_right(user, table)
        return
    raise PermissionDenied("table accounting is for the pit, the cage, the count team and auditors")


def _check_signer(user: Any) -> None:
    """Before reading the input: only the pit, the cage and dealers sign slips (each step's own right
    is checked by the service)."""
    if not (is_pit_boss(user) or is_cage_cashier(user) or DEALER_ROLE in roles_of(user)):
        raise PermissionDenied("slips are signed by dealers, supervisors and the cage")


def _day(request: Request) -> date:
    raw = request.query_params.get("day")
    if not raw:
        return sel.shift_of(timezone.now())[0]
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise InvalidInput(f"{raw[:20]!r} is not a date (YYYY-MM-DD)", field="day") from None


class SlipSerializer(serializers.Serializer):
    """A slip: kind, number, table, shift, chips by denomination, total, state, signatures, void."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    number = serializers.IntegerField()
    table = serializers.IntegerField()
    table_number = serializers.IntegerField()
    gaming_day = serializers.CharField()
    shift = serializers.CharField()
    chips = serializers.DictField(child=serializers.IntegerField())
    total = serializers.CharField()
    state = serializers.CharField(help_text="complete, void, or 'awaiting <step>'")
    created_by = serializers.CharField()
    created_at = serializers.CharField()
    replaces = serializers.IntegerField(allow_null=True)
    signatures = serializers.ListField(child=serializers.DictField())
    void = serializers.DictField(allow_null=True)


class RatingSerializer(serializers.Serializer):
    """A rating slip, rated: measured from the stored wagers, with the industry's estimate beside."""

    id = serializers.IntegerField()
    player = serializers.DictField(help_text="id, card_number, name, display_name (how every page names the player)")
    table = serializers.IntegerField()
    table_number = serializers.IntegerField()
    game = serializers.CharField()
    seat = serializers.IntegerField()
    state = serializers.CharField(help_text="open, paused, closed")
    opened_at = serializers.CharField()
    closed_at = serializers.CharField(allow_null=True)
    rounds = serializers.IntegerField()
    seconds = serializers.IntegerField(help_text="time played, pauses excluded")
    handle = serializers.CharField()
    avg_bet = serializers.CharField()
    theo = serializers.CharField(help_text="Σ wager × house edge of its bet kind")
    actual = serializers.CharField(help_text="the house's result from the seat")
    estimate = serializers.CharField(help_text="avg bet × hours × standard decisions per hour × main-bet edge")
    estimate_pace = serializers.IntegerField()
    estimate_edge = serializers.CharField()
    difference_pct = serializers.FloatField(allow_null=True)


class ReconciliationSerializer(serializers.Serializer):
    """One table and shift: the counts, counted and tracked win, and the verdict."""

    table = serializers.IntegerField()
    table_number = serializers.IntegerField()
    gaming_day = serializers.CharField()
    shift = serializers.CharField()
    opener = serializers.CharField(allow_null=True)
    closer = serializers.CharField(allow_null=True)
    fills = serializers.CharField()
    credits = serializers.CharField()
    drop = serializers.CharField(allow_null=True)
    rounds = serializers.IntegerField()
    counted = serializers.CharField(allow_null=True, help_text="(closer − opener) + credits − fills + drop")
    tracked = serializers.CharField(help_text="the house result of the shift's rounds")
    mispaid = serializers.CharField()
    difference = serializers.CharField(allow_null=True)
    unexplained = serializers.CharField(allow_null=True)
    tolerance = serializers.CharField()
    flagged = serializers.BooleanField()
    missing = serializers.ListField(child=serializers.CharField())
    reason = serializers.CharField()


class DropSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    gaming_day = serializers.CharField()
    shift = serializers.CharField()
    amount = serializers.CharField()


class SlipInput(StrictInput):
    kind = serializers.ChoiceField(choices=["opener", "closer", "fill", "credit"])
    chips = serializers.JSONField(help_text='denomination -> number of chips, e.g. {"25": 40, "100": 12}')
    gaming_day = serializers.DateField(required=False, help_text="default: the current gaming day")
    shift = serializers.ChoiceField(choices=SHIFTS, required=False, help_text="default: the current shift")
    replaces = serializers.IntegerField(required=False, min_value=1, help_text="the voided slip this one corrects")


class SignInput(StrictInput):
    step = serializers.ChoiceField(choices=["dealer", "supervisor", "issued", "received"])


class VoidInput(StrictInput):
    reason = serializers.CharField(max_length=300)


class DropInput(StrictInput):
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0, coerce_to_string=False)
    gaming_day = serializers.DateField(required=False)
    shift = serializers.ChoiceField(choices=SHIFTS, required=False)


class SeatInput(StrictInput):
    seat = serializers.IntegerField(min_value=1, max_value=99)
    card_number = serializers.CharField(required=False, max_length=40)
    name = serializers.CharField(required=False, max_length=120)


def _slip_answer(pk: int, status: int = 200) -> Response:
    slip = sel.slips().get(pk=pk)
    return Response(SlipSerializer(sel.slip_document(slip)).data, status=status)


class TableSlipsView(ApiView):
    """A table's slips (GET, ``?day=``), or a new opener, closer, fill or credit (POST)."""

    @extend_schema(operation_id="slips_list", parameters=[DAY], responses={200: SlipSerializer(many=True), **ERRORS},
                   tags=["accounting"])  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        _check_read(request.user, table)
        docs = [sel.slip_document(s) for s in sel.slips(table=table, day=_day(request))]
        return Response(SlipSerializer(docs, many=True).data)

    @extend_schema(operation_id="slips_create", request=SlipInput, parameters=[IDEMPOTENCY],
                   responses={201: SlipSerializer, **ERRORS}, tags=["accounting"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        check_right(request.user, table)  # the pit or the table's dealer (the kind's own right: the service)
        data = _valid(SlipInput, request)
        slip = svc.slip_create(table=table, kind=data["kind"], chips=data["chips"], actor=request.user,
                               gaming_day=data.get("gaming_day"), shift=data.get("shift"),
                               replaces=data.get("replaces"))  # fmt: skip
        return _slip_answer(slip.pk, status=201)


class SlipDetailView(ApiView):
    """One slip."""

    @extend_schema(operation_id="slips_retrieve", responses={200: SlipSerializer, **ERRORS}, tags=["accounting"])
    def get(self, request: Request, pk: int) -> Response:
        slip = get_object_or_404(Slip.objects.select_related("table"), pk=pk)
        _check_read(request.user, slip.table)
        return _slip_answer(pk)


class SlipSignView(ApiView):
    """Sign a step: ``dealer``/``supervisor`` on an inventory, ``issued`` (cage)/``received`` on a fill or credit."""

    @extend_schema(operation_id="slips_sign", request=SignInput, parameters=[IDEMPOTENCY],
                   responses={200: SlipSerializer, **ERRORS}, tags=["accounting"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        get_object_or_404(Slip, pk=pk)
        _check_signer(request.user)
        data = _valid(SignInput, request)
        svc.slip_sign(slip=pk, step=data["step"], actor=request.user)
        return _slip_answer(pk)


class SlipVoidView(ApiView):
    """Void a slip with a reason (it stays on record, out of every total)."""

    @extend_schema(operation_id="slips_void", request=VoidInput, parameters=[IDEMPOTENCY],
                   responses={200: SlipSerializer, **ERRORS}, tags=["accounting"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        get_object_or_404(Slip, pk=pk)
        if not (is_pit_boss(request.user) or is_cage_cashier(request.user)):
            raise PermissionDenied("only a pit boss voids a slip (the cage its fills and credits)")
        data = _valid(VoidInput, request)
        svc.slip_void(slip=pk, reason=data["reason"], actor=request.user)
        return _slip_answer(pk)


class DropView(ApiView):
    """The count team enters a table's drop for a shift."""

    @extend_schema(operation_id="drop_create", request=DropInput, parameters=[IDEMPOTENCY],
                   responses={201: DropSerializer, **ERRORS}, tags=["accounting"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        from tables.access import check_count_team

        check_count_team(request.user)  # the right before the input
        table = get_object_or_404(Table, pk=pk)
        data = _valid(DropInput, request)
        row = svc.drop_record(table=table, amount=data["amount"], actor=request.user,
                              gaming_day=data.get("gaming_day"), shift=data.get("shift"))  # fmt: skip
        return Response({"table": table.pk, "gaming_day": row.gaming_day.isoformat(), "shift": row.shift,
                         "amount": str(row.amount)}, status=201)  # fmt: skip


class ReconciliationView(ApiView):
    """Counted against tracked win per table and shift of a gaming day (tables with slips or a drop)."""

    @extend_schema(operation_id="accounting_reconciliation", parameters=[DAY],
                   responses={200: ReconciliationSerializer(many=True), **ERRORS},
                   tags=["accounting"])  # fmt: skip
    def get(self, request: Request) -> Response:
        _check_read(request.user)
        day = _day(request)
        return Response([svc_json(svc.reconcile_shift(t, day, s)) for t in sel.accounted_tables(day)
                         for s in sel.SHIFT_NAMES])  # fmt: skip


def svc_json(d: dict[str, Any]) -> dict[str, Any]:
    """Money as strings, tuples as lists."""
    return {k: (str(v) if v is not None and not isinstance(v, bool | int | str | float | list | tuple | dict)
                else list(v) if isinstance(v, tuple) else v) for k, v in d.items()}  # fmt: skip


class SeatPlayerView(ApiView):
    """The players seated at the table now (GET), or seat one (POST; card number or name): a rating slip opens."""

    @extend_schema(operation_id="ratings_seated", responses={200: RatingSerializer(many=True), **ERRORS},
                   tags=["ratings"])  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        _check_read(request.user, table)
        return Response([svc.rating_of(s) for s in sel.seated(table=table)])

    @extend_schema(operation_id="ratings_open", request=SeatInput, parameters=[IDEMPOTENCY],
                   responses={201: RatingSerializer, **ERRORS}, tags=["ratings"])  # fmt: skip
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        check_right(request.user, table)
        data = _valid(SeatInput, request)
        slip = svc.player_seat(table=table, seat=data["seat"], card_number=data.get("card_number"),
                               name=data.get("name"), actor=request.user)  # fmt: skip
        return Response(svc.rating_of(slip), status=201)


class RatingListView(ApiView):
    """Rating slips opened in a gaming day, each rated (theo from the wagers, actual, the industry estimate)."""

    @extend_schema(operation_id="ratings_list", parameters=[DAY],
                   responses={200: RatingSerializer(many=True), **ERRORS},
                   tags=["ratings"])  # fmt: skip
    def get(self, request: Request) -> Response:
        _check_read(request.user)
        return Response([svc.rating_of(s) for s in sel.rating_slips(day=_day(request))])


class RatingDetailView(ApiView):
    """One rating slip, rated."""

    @extend_schema(operation_id="ratings_retrieve", responses={200: RatingSerializer, **ERRORS},
                   tags=["ratings"])  # fmt: skip
    def get(self, request: Request, pk: int) -> Response:
        slip = get_object_or_404(RatingSlip.objects.select_related("table"), pk=pk)
        if not (request.user.has_perm(VIEW) or is_pit_boss(request.user)):
            check_right(request.user, slip.table)
        return Response(svc.rating_of(slip))


def _rating_command(action: str) -> type[ApiView]:
    step = {"pause": svc.rating_pause, "resume": svc.rating_resume, "close": svc.rating_close}[action]

    class RatingCommandView(ApiView):
        @extend_schema(operation_id=f"ratings_{action}", request=None, parameters=[IDEMPOTENCY],
                       responses={200: RatingSerializer, **ERRORS}, tags=["ratings"])  # fmt: skip
        @idempotent
        def post(self, request: Request, pk: int) -> Response:
            get_object_or_404(RatingSlip, pk=pk)
            if request.data:
                raise InvalidInput("this command takes no body", field=str(next(iter(request.data)))[:40])
            slip = step(slip=pk, actor=request.user)
            return Response(svc.rating_of(slip))

    RatingCommandView.__name__ = RatingCommandView.__qualname__ = f"Rating{action.title()}View"
    RatingCommandView.__doc__ = {"pause": "The player steps away: rounds and time stop counting.",
                                 "resume": "The player is back.", "close": "The player leaves."}[action]
    return RatingCommandView


RatingPauseView = _rating_command("pause")
RatingResumeView = _rating_command("resume")
RatingCloseView = _rating_command("close")
