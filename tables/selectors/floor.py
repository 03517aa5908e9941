"""Reads of the floor: the tables a user may see, who holds them, their shoe gauge and limits, the open round."""

from __future__ import annotations

from typing import Any

from django.db.models import F, QuerySet

from tables.access import check_can_read
from tables.engine.games import game as game_spec
from tables.engine.money import fmt
from tables.models import (
    Round,
    RoundState,
    Shoe,
    ShuffleEvent,
    Table,
    TableSession,
)
from tables.selectors.rounds import current_shoe, engine_shoe


def deck_profile_of(table: Table) -> str | None:
    """The path of the enrolment profile of the table's deck design, or None (the generic reader)."""
    design = table.deck_design if table.deck_design_id else None
    return design.profile.path if design is not None and design.profile else None


def table_list(*, user: Any) -> QuerySet[Table]:
    """Tables the user may see, with what the tablet's table picker shows."""
    check_can_read(user)
    return Table.objects.select_related("game", "pit", "pit__casino", "rule_set", "pay_table").order_by(
        "pit__name", "number"
    )


def table_get(*, user: Any, pk: int) -> Table:
    """One table, readable by the user (404 if absent)."""
    return table_list(user=user).get(pk=pk)


def held_by(table: Table) -> Any | None:
    """The dealer holding the table now, if any."""
    s = TableSession.objects.filter(table=table, closed_at__isnull=True).select_related("dealer").first()
    return s.dealer if s else None


def shoe_gauge(table: Table) -> dict[str, Any] | None:
    """The shoe gauge: cards dealt and left, penetration, shuffle point, whether a shuffle is due."""
    shoe = current_shoe(table)
    if shoe is None:
        return None
    es = engine_shoe(shoe)
    last = ShuffleEvent.objects.filter(shoe=shoe).first()
    return {
        "number": shoe.number,
        "size": es.spec.size,
        "cards_dealt": es.cards_dealt,
        "cards_left": es.cards_left,
        "penetration": round(es.penetration, 4),
        "shuffle_at": es.spec.shuffle_at,
        "shuffle_rule": es.spec.shuffle_rule.value,
        # Never due at a game dealt from a fresh shoe every hand (Bluffjack): the next hand shuffles anyway
        # (the table picker said "shuffle due" once a Bluffjack game had ended).
        "shuffle_due": es.shuffle_due and "fresh-shoe" not in game_spec(table.game.slug).capabilities,
        "shuffled_at": shoe.shuffled_at.isoformat(),
        "shuffled_by": shoe.shuffled_by.get_username(),
        "players_notified": bool(last and last.players_notified),
    }


def current_round(table: Table) -> Round | None:
    """The open round of the table (in play, paused, or awaiting payment), if any."""
    return Round.objects.filter(
        table=table, state__in=(RoundState.IN_PLAY, RoundState.PAUSED, RoundState.SETTLED, RoundState.MISMATCH)
    ).order_by("-number").first()


def ended_round(table: Table) -> Round | None:
    """The round of the table that ended last (closed or cancelled), called with no round open: a tablet
    reloaded right after the payment still shows it (its result and pay panel) until the next round opens.

    By when it ended, not by number: an older round left "paid differs from due" and paid after later
    rounds closed is the one just closed (the newest by number would be another, long-closed round)."""
    return (
        Round.objects.filter(table=table, state__in=(RoundState.CLOSED, RoundState.CANCELLED))
        .order_by(F("closed_at").desc(nulls_last=True), "-number")
        .only("pk", "state")
        .first()
    )


def table_document(table: Table) -> dict[str, Any]:
    """What the tablet needs about a table: game, limits, holder, shoe gauge, open round (or the one that
    just ended)."""
    dealer = held_by(table)
    rnd = current_round(table)
    ended = ended_round(table) if rnd is None else None
    return {
        "id": table.pk,
        "number": table.number,
        "pit": str(table.pit),
        "game": table.game.slug,
        "game_name": table.game.name,
        "game_kind": game_spec(table.game.slug).kind,  # house-banked (money), pot (chips), scoring (points)
        "status": table.status,
        "min_bet": fmt(table.min_bet),
        "max_bet": fmt(table.max_bet),
        "rule_set": {"id": table.rule_set_id, "name": table.rule_set.name, "version": table.rule_set.version},
        "pay_table": {"id": table.pay_table_id, "name": table.pay_table.name, "version": table.pay_table.version},
        "dealer": dealer.get_username() if dealer else None,
        "shoe": shoe_gauge(table),
        "round": rnd.pk if rnd else None,
        "last_round": ended.pk if ended else None,
        "limits": table_limits(table),
    }


def table_limits(table: Table) -> dict[str, Any]:
    """The table's limits per bet kind (``main``, ``perfect-pairs``, ``21+3``, ``behind``) and the cap on bets behind."""
    out: dict[str, Any] = {}
    for kind in ("main", "perfect-pairs", "21+3", "behind"):
        lo, hi = table.limits(kind)
        out[kind] = {"min": fmt(lo), "max": fmt(hi)}
    out["max_bets_behind"] = table.max_bets_behind
    return out



def shoes_of(table: Table) -> QuerySet[Shoe]:
    """The shoes of a table, newest first."""
    return Shoe.objects.filter(table=table).order_by("-number")


def seat_count(table: Table) -> int:
    """How many seats the table's game has (the rule set's ``seats``; one for one-seat games)."""
    spec = game_spec(table.game.slug)
    params = table.rule_set.params or {}
    # A blackjack rule set may set its own seat count; otherwise the rules' seats.
    return int(params.get("seats", spec.seats)) if spec.house_banked and spec.seats > 1 else spec.seats
