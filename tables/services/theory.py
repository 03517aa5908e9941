"""Theory of the back office: RTP and house edge of a pay-table version under a rule set.

The exact figures (``tables.analysis.paytable_rtp``: side bets, blackjack main bet, the Finnish 27
lines decided by forced play) are computed at once and kept in Django's cache by content (game,
hash of the lines, hash of the rules).  The lines that need the Finnish 27 simulation are computed
by a Celery task (``tables.tasks.theory.compute_theory``) into a ``TheoryResult`` row per
(pay-table version, lines hash, rules hash, strategy); ``theory_for`` creates the row and queues the
task after commit when it is missing, and merges the stored figures into the exact ones when done.

The math stays in ``tables.analysis``; this module only picks the rules, keys, stores and queues.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from tables import conf
from tables.engine.errors import InvalidInput
from tables.engine.games import house_games, simulated_games
from tables.engine.rulesets import BlackjackRules, Finnish27Rules, ShoeRules, rules_from_params
from tables.models import PayTable, RuleSet, TheoryResult, TheoryStatus, VersionStatus
from tables.services.common import celery_task

log = logging.getLogger(__name__)

DEFAULT_ROUNDS = 25_000_000
DEFAULT_STRATEGY = "improved"
# A row not touched for this long while pending or running has lost its message or its worker (a
# running task touches it about every second); the next request queues it again.
STALE_AFTER = timedelta(minutes=10)
EXACT_CACHE_SECONDS = 7 * 24 * 3600  # keyed by content: an entry never goes wrong, only old
SIMULATED_GAMES = simulated_games()
HOUSE_GAMES = house_games()


def simulation_rounds() -> int:
    """Rounds of the back office's Finnish 27 simulation (setting ``THEORY_SIMULATION_ROUNDS``)."""
    return conf.theory_simulation_rounds()


def simulation_strategy() -> str:
    """Strategy of the player's free choices in the simulation (setting ``THEORY_STRATEGY``)."""
    return conf.theory_strategy()


def _digest(document: Any) -> str:
    return hashlib.sha256(json.dumps(document, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def pay_table_hash(pay_lines: dict[str, Any]) -> str:
    """sha256 of a pay table's engine JSON (line order does not matter)."""
    lines = sorted(pay_lines.get("lines", []), key=lambda x: str(x.get("name")))
    return _digest(lines)


def rules_hash(rules: ShoeRules) -> str:
    """sha256 of the complete rule parameters."""
    return _digest(rules.to_params())


def resolve_rules(game: str, rule_set: RuleSet | None) -> ShoeRules:
    """The engine rules of ``rule_set``, or the game's published rules when there is none."""
    if rule_set is not None:
        if rule_set.game.slug != game:
            raise InvalidInput(f"rule set {rule_set} is for {rule_set.game.slug}, not {game}", field="rule_set")
        return rule_set.rules()
    return rules_from_params(game, {})


def default_rule_set(pay_table: PayTable) -> RuleSet | None:
    """The rule set a pay table is shown under: the game's latest published one."""
    return (RuleSet.objects.filter(game_id=pay_table.game_id, status=VersionStatus.PUBLISHED)
            .select_related("game").order_by("-published_at", "-pk").first())


def exact_theory(game: str, pay_lines: dict[str, Any], rules: ShoeRules) -> dict[str, Any]:
    """``paytable_rtp`` of the pay table and rules, cached by content (the blackjack edge takes ~0.4 s)."""
    key = f"theory:exact:v1:{game}:{pay_table_hash(pay_lines)}:{rules_hash(rules)}"
    found = cache.get(key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    from tables.analysis import paytable_rtp

    result = paytable_rtp(game, pay_lines, rules)
    cache.set(key, result, EXACT_CACHE_SECONDS)
    return result


# ------------------------------------------------------------------------------------------------
# Reads (and the queueing of what is missing)


def theory_for(pay_table: PayTable, rule_set: RuleSet | None = None, *, strategy: str | None = None,
               enqueue: bool = True, lines: dict[str, Any] | None = None) -> dict[str, Any]:
    """RTP and house edge of ``pay_table`` under ``rule_set`` (None: the game's published rules).

    Returns at once, as plain JSON::

        {"game", "pay_table": id, "pay_table_version", "rule_set": id | None, "rules_hash",
         "lines": [{"name", "label", "pays", "bet", "probability", "contribution", "method"}],
         "bets": {bet: {"rtp", "house_edge", "method", "ci95"?, ...}},
         "rtp", "house_edge", "ci95",   # of the main wager (the game's total); None until known
         "pending": [line names still waiting for the simulation],
         "missing": [line names the pay table lacks, valued at the published pay],
         "status": "done" | "pending" | "running" | "failed" | "none" | "invalid",
         "simulation": None | {"id", "status", "progress", "strategy", "rounds", "rounds_requested",
                               "rtp", "house_edge", "ci95", "seconds", "computed_at", "error"},
         "error": str}             # only with status "invalid" (e.g. an incomplete draft)

    ``probability`` and ``contribution`` are per round and per unit wager (table-minimum lines at a
    wager of one table minimum); ``method`` is ``exact``, ``computed`` or ``simulated``.  Blackjack
    games are complete at once (``status`` "done", ``simulation`` None).  For Finnish 27 the forced-
    play lines are exact at once, and the rest comes from the cached simulation of this version: if
    there is none yet, a ``TheoryResult`` row is created and the Celery task queued after commit
    (``enqueue=False`` only reads).  Player-versus-player games have no house lines (``status``
    "none").  The hold audit takes the main wager's ``house_edge`` from here as theory.

    ``lines`` (the engine's ``{"lines": [...]}``): a preview of lines not saved yet, as they are edited;
    exact lines at once, simulated ones left pending (a preview is never simulated).
    """
    game = pay_table.game.slug
    strategy = strategy or simulation_strategy()
    pay_lines = lines if lines is not None else pay_table.as_engine_json()
    base: dict[str, Any] = {
        "game": game, "pay_table": pay_table.pk, "pay_table_version": pay_table.version,
        "rule_set": rule_set.pk if rule_set is not None else None, "rules_hash": None,
        "lines": [], "bets": {}, "rtp": None, "house_edge": None, "ci95": None, "pending": [],
        "status": "none", "simulation": None,
    }
    try:
        rules = resolve_rules(game, rule_set)
        base["rules_hash"] = rules_hash(rules)
        exact = exact_theory(game, pay_lines, rules)
    except (InvalidInput, ValueError, KeyError) as exc:
        # A draft may be incomplete or hold odds the analysis cannot use: say so, do not break the page.
        return {**base, "status": "invalid", "error": str(exc)}
    out = {**base, "lines": [dict(x) for x in exact["lines"]], "bets": {k: dict(v) for k, v in exact["bets"].items()},
           "pending": list(exact.get("pending", []))}
    if "note" in exact:
        out["note"] = exact["note"]
    # The engine values a line the table does not hold at its published pay (an unfinished draft).
    given = {line.get("name") for line in pay_lines["lines"]}
    out["missing"] = [line["name"] for line in out["lines"] if line["name"] not in given]
    main = out["bets"].get("main")
    if main is not None:
        out["rtp"], out["house_edge"] = main.get("rtp"), main.get("house_edge")
    if not out["pending"]:
        out["status"] = "done" if out["bets"] else "none"
        return out
    if game not in SIMULATED_GAMES or lines is not None:  # pending lines only come from the simulated game
        out["status"] = "pending"
        return out
    result = _result_for(pay_table, rule_set, game, pay_lines, rules, strategy, enqueue=enqueue)
    if result is None:
        out["status"] = "pending"
        return out
    return merge_simulation(out, result)


def merge_simulation(out: dict[str, Any], result: TheoryResult) -> dict[str, Any]:
    """The exact figures completed with a stored simulation (when done)."""
    out["status"] = result.status
    out["simulation"] = {
        "id": result.pk, "status": result.status, "progress": result.progress, "strategy": result.strategy,
        "rounds": result.rounds, "rounds_requested": result.rounds_requested, "rtp": result.rtp,
        "house_edge": result.house_edge, "ci95": result.ci95, "seconds": result.seconds,
        "computed_at": result.computed_at.isoformat() if result.computed_at else None, "error": result.error,
    }
    if result.status != TheoryStatus.DONE:
        return out
    for line in out["lines"]:
        sim = result.lines.get(line["name"])
        if line["method"] == "simulated" and sim is not None:
            line["probability"], line["contribution"] = sim["probability"], sim["contribution"]
    out["pending"] = []
    out["rtp"], out["house_edge"], out["ci95"] = result.rtp, result.house_edge, result.ci95
    main = out["bets"].setdefault("main", {})
    main.update(rtp=result.rtp, house_edge=result.house_edge, ci95=result.ci95, method="simulated",
                detail=f"{result.rounds:,} rounds, {result.strategy} strategy; ±{(result.ci95 or 0) * 100:.3f}% (95%)")
    return out


def _result_for(pay_table: PayTable, rule_set: RuleSet | None, game: str, pay_lines: dict[str, Any],
                rules: ShoeRules, strategy: str, *, enqueue: bool) -> TheoryResult | None:
    key = {"pay_table": pay_table, "pay_table_hash": pay_table_hash(pay_lines), "rules_hash": rules_hash(rules),
           "strategy": strategy}
    result = TheoryResult.objects.filter(**key).first()
    if result is None:
        if not enqueue:
            return None
        # The same lines under the same rules were simulated already for another version (a new draft
        # before any change): its figures are this version's too, without simulating them again.
        same = (TheoryResult.objects.filter(game=game, pay_table_hash=key["pay_table_hash"], rules_hash=key["rules_hash"],
                                            strategy=strategy, status=TheoryStatus.DONE,
                                            rounds_requested=simulation_rounds())
                .order_by("-computed_at").first())  # fmt: skip
        copied = {} if same is None else {
            "status": TheoryStatus.DONE, "progress": 1.0, "lines": same.lines, "rtp": same.rtp,
            "house_edge": same.house_edge, "ci95": same.ci95, "rounds": same.rounds, "seconds": same.seconds,
            "detail": {**same.detail, "copied_from": same.pk}, "started_at": same.started_at,
            "computed_at": same.computed_at}
        try:
            with transaction.atomic():
                result = TheoryResult.objects.create(
                    **key, rule_set=rule_set, game=game, rules=rules.to_params(), pay_lines=pay_lines,
                    rounds_requested=simulation_rounds(), **copied,
                )
        except IntegrityError:
            # Asked for twice at once: the other request created the row and queued the task.
            return TheoryResult.objects.filter(**key).first()
        if same is None:
            _enqueue_on_commit(result.pk)
    elif enqueue and result.status in (TheoryStatus.PENDING, TheoryStatus.RUNNING):
        _requeue_if_stale(result)
    return result


def _requeue_if_stale(result: TheoryResult) -> None:
    """Queue again a pending or running row nobody touched for ``STALE_AFTER`` (lost message or worker)."""
    now = timezone.now()
    # The conditional update lets exactly one request re-queue it; a running row goes back to pending
    # so the new run can claim it (the lost run's writes are guarded by status=running).
    if TheoryResult.objects.filter(pk=result.pk, status=result.status, updated_at__lt=now - STALE_AFTER).update(
        status=TheoryStatus.PENDING, updated_at=now
    ):
        log.warning("theory result %s was %s and stale: queued again", result.pk, result.status)
        _enqueue_on_commit(result.pk)


def _enqueue_on_commit(result_id: int) -> None:
    def send() -> None:
        try:
            celery_task("tables.compute_theory").delay(result_id)
        except Exception:  # noqa: BLE001  a broker outage must not break the page; the row is re-queued when stale
            log.exception("could not queue theory result %s", result_id)

    transaction.on_commit(send)


def retry_theory(result: TheoryResult) -> bool:
    """Put a failed result back to pending and queue it; False if it was not failed."""
    changed = TheoryResult.objects.filter(pk=result.pk, status=TheoryStatus.FAILED).update(
        status=TheoryStatus.PENDING, progress=0.0, error="", updated_at=timezone.now()
    )
    if changed:
        _enqueue_on_commit(result.pk)
    return bool(changed)


# ------------------------------------------------------------------------------------------------
# The work of the Celery task


class ProgressWriter:
    """Writes a running row's progress at most once per ``interval`` seconds (and never backwards)."""

    def __init__(self, result_id: int, interval: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.result_id, self.interval, self.clock = result_id, interval, clock
        self.last: float | None = None
        self.writes = 0

    def __call__(self, done: int, total: int) -> None:
        """The simulation's ``progress(done, total)`` callback."""
        now = self.clock()
        if self.last is not None and now - self.last < self.interval:
            return
        self.last = now
        fraction = min(max(done / total, 0.0), 1.0) if total > 0 else 0.0
        # Only while this run holds the row: a row re-claimed or finished elsewhere is left alone.
        self.writes += TheoryResult.objects.filter(pk=self.result_id, status=TheoryStatus.RUNNING).update(
            progress=fraction, updated_at=timezone.now()
        )


def claim_theory(result_id: int) -> bool:
    """Claim a pending (or stale running) row for this run; False if another run has it or it is done."""
    now = timezone.now()
    return bool(
        TheoryResult.objects.filter(pk=result_id)
        .filter(Q(status=TheoryStatus.PENDING) | Q(status=TheoryStatus.RUNNING, updated_at__lt=now - STALE_AFTER))
        .update(status=TheoryStatus.RUNNING, started_at=now, updated_at=now, progress=0.0, error="",
                attempts=F("attempts") + 1)
    )


def run_theory(result_id: int, *, progress_interval: float = 1.0,
               clock: Callable[[], float] = time.monotonic) -> dict[str, Any]:
    """Claim the row, run the simulation it names, store the figures (or the error); a small summary."""
    if not claim_theory(result_id):
        status = TheoryResult.objects.filter(pk=result_id).values_list("status", flat=True).first()
        return {"result": result_id, "skipped": True, "status": status}
    result = TheoryResult.objects.get(pk=result_id)
    try:
        figures = simulate_figures(result, ProgressWriter(result_id, progress_interval, clock))
    except Exception as exc:  # noqa: BLE001  any failure (time limit included) is recorded on the row
        log.exception("theory result %s failed", result_id)
        TheoryResult.objects.filter(pk=result_id, status=TheoryStatus.RUNNING).update(
            status=TheoryStatus.FAILED, error=f"{type(exc).__name__}: {exc}", updated_at=timezone.now()
        )
        return {"result": result_id, "status": TheoryStatus.FAILED, "error": str(exc)}
    now = timezone.now()
    TheoryResult.objects.filter(pk=result_id, status=TheoryStatus.RUNNING).update(
        status=TheoryStatus.DONE, progress=1.0, updated_at=now, computed_at=now, error="", **figures
    )
    return {"result": result_id, "status": TheoryStatus.DONE, "house_edge": figures["house_edge"],
            "ci95": figures["ci95"], "rounds": figures["rounds"]}


def simulate_figures(result: TheoryResult, progress: Callable[[int, int], None]) -> dict[str, Any]:
    """The stored fields of a result from the Finnish 27 simulation of its pay lines and rules."""
    from tables.analysis import finnish27

    rules = rules_from_params(result.game, result.rules)
    assert isinstance(rules, Finnish27Rules)
    sim = finnish27.simulate(rules, rounds=result.rounds_requested, strategy=result.strategy,
                             pay_table_json=result.pay_lines, progress=progress)
    lines: dict[str, dict[str, Any]] = {}
    for name, rate in sim["line_rates"].items():
        # Exact lines keep their exact contribution (``bonus``); the rate shown is the simulated one
        # only for lines that have no exact rate.
        lines[name] = {"probability": float(rate), "contribution": float(sim["bonus"][name]),
                       "method": "simulated"}
    # The main line (even money on a win) is the rest of the return: win, push and loss together.
    lines["main"] = {"probability": None, "contribution": float(sim["rtp"]) - sum(sim["bonus"].values()),
                     "method": "simulated"}
    detail = {k: sim[k] for k in ("method", "seed", "shoes", "house_edge_plain", "ci95_plain",
                                  "rounds_per_second", "initial_27") if k in sim}
    return {"lines": lines, "rtp": float(sim["rtp"]), "house_edge": float(sim["house_edge"]),
            "ci95": float(sim["ci95"]), "rounds": int(sim["rounds"]), "seconds": float(sim["seconds"]),
            "detail": detail}


# ------------------------------------------------------------------------------------------------
# Rule-set page


def rule_set_house_edge(rule_set: RuleSet, *, enqueue: bool = True) -> dict[str, Any]:
    """House edge of a rule set's main wager with the game's latest published pay table.

    Blackjack: the exact basic-strategy analysis (``tables.analysis.blackjack.house_edge``, ~0.4 s,
    cached by rules and blackjack pay).  Finnish 27: ``theory_for`` (simulated, queued if missing).
    Returns ``{"game", "status", "rtp", "house_edge", "ci95", "method", "pay_table"}``; ``status``
    "none" for player-versus-player games.
    """
    game = rule_set.game.slug
    out: dict[str, Any] = {"game": game, "status": "none", "rtp": None, "house_edge": None, "ci95": None,
                           "method": "", "pay_table": None}
    if game not in HOUSE_GAMES:
        out["method"] = "player-versus-player game: the house takes no side"
        return out
    pay_table = (PayTable.objects.filter(game_id=rule_set.game_id, status=VersionStatus.PUBLISHED)
                 .select_related("game").order_by("-published_at", "-pk").first())
    out["pay_table"] = str(pay_table) if pay_table is not None else "the published pay table"
    try:
        rules = rule_set.rules()
    except InvalidInput as exc:
        return {**out, "status": "invalid", "method": str(exc)}
    if isinstance(rules, BlackjackRules):
        return {**out, **_blackjack_edge(game, rules, pay_table)}
    if pay_table is None:
        return {**out, "status": "invalid", "method": "no published pay table to simulate"}
    theory = theory_for(pay_table, rule_set, enqueue=enqueue)
    sim = theory.get("simulation") or {}
    return {**out, "status": theory["status"], "rtp": theory["rtp"], "house_edge": theory["house_edge"],
            "ci95": theory["ci95"], "progress": sim.get("progress"), "error": theory.get("error") or sim.get("error"),
            "method": (theory["bets"].get("main") or {}).get("detail", "simulated")}


def _blackjack_edge(game: str, rules: BlackjackRules, pay_table: PayTable | None) -> dict[str, Any]:
    from tables.engine.paytable import PayTable as EnginePayTable

    table = pay_table.engine_table() if pay_table is not None else EnginePayTable.published(game)
    bj = table["main/blackjack"].odds
    if bj is None or table["main/win"].odds != 1:
        return {"status": "invalid", "method": "the analysis needs even-money wins and odds on a blackjack"}
    key = f"theory:bj-edge:v1:{game}:{rules_hash(rules)}:{bj.numerator}:{bj.denominator}"
    found = cache.get(key)
    if found is None:
        from tables.analysis.blackjack import house_edge

        he = house_edge(rules, blackjack_pays=float(bj))
        found = {"rtp": he.rtp, "house_edge": he.house_edge, "method": he.method}
        cache.set(key, found, EXACT_CACHE_SECONDS)
    return {"status": "done", "ci95": None, **found}
