"""History in words and the diff of two versions, for rule sets and pay tables.

A pay table's lines are rows of their own (``PayLine``, each with its history), so the pay table's
own history showed a line edit as a change with no fields ("Changed · manager · None").  The
timeline here merges the version's records with its lines' records and says what changed
("perfect-pairs/perfect: 25:1 → 30:1").  ``version_diff`` compares two versions of one game,
parameter by parameter or line by line, with the theory of each (the one theory store).
"""

from __future__ import annotations

from typing import Any

from tables.admin.rulesets import parameter_rows, value_text
from tables.admin.theory import pct
from tables.engine.rulesets import PUBLISHED_RULES, Parameter, parameters
from tables.engine.settlement import bet_words
from tables.models import PayLine, PayLineKind, PayTable, RuleSet
from tables.services.theory import default_rule_set, theory_for

KIND = {"+": "created", "~": "changed", "-": "deleted"}


def _pays(record: Any) -> str:
    if record.kind == PayLineKind.TABLE_MINIMUM:
        return f"{record.table_minimum}x table minimum"
    if record.odds_numerator and record.odds_denominator:
        return f"{record.odds_numerator}:{record.odds_denominator}"
    return "-"


def _who(record: Any) -> str:
    return record.history_user.get_username() if record.history_user else "the system"


def _version_changes(record: Any, words: dict[str, Parameter]) -> list[str]:
    if record.history_type == "+":
        return [f"created as {record.instance}"]
    prev = record.prev_record
    if prev is None:
        return []
    out = []
    # By hand, not ``diff_against``: it reads fields through ``model_to_dict``, which skips the
    # non-editable ones (status, published_at), the very ones a publish changes.
    for name in ("name", "notes", "status", "published_at"):
        old, new = getattr(prev, name), getattr(record, name)
        if old != new:
            if name == "published_at":
                continue  # said by "status: draft → published" and the date column
            out.append(f"{name}: {old or '—'} → {new or '—'}")
    if hasattr(record, "params") and prev.params != record.params:
        for key in sorted(set(prev.params) | set(record.params)):
            if prev.params.get(key) != record.params.get(key):
                p = words.get(key)
                label = p.label if p else key.replace("_", " ")
                old_text, new_text = (value_text(d[key], p) if key in d else "—" for d in (prev.params, record.params))
                out.append(f"{label}: {old_text} → {new_text}")
    return out


def _line_changes(record: Any) -> list[str]:
    name = record.name
    if record.history_type == "+":
        return [f"line {name} added: pays {_pays(record)}"]
    if record.history_type == "-":
        return [f"line {name} removed (paid {_pays(record)})"]
    prev = record.prev_record
    if prev is None:
        return [f"line {name}: pays {_pays(record)}"]
    out = []
    if _pays(prev) != _pays(record):
        out.append(f"line {name}: {_pays(prev)} → {_pays(record)}")
    if prev.label != record.label:
        out.append(f"line {name}: label {prev.label or '—'} → {record.label or '—'}")
    if prev.position != record.position:
        out.append(f"line {name}: position {prev.position} → {record.position}")
    if prev.name != record.name:
        out.append(f"line renamed {prev.name} → {record.name}")
    return out


def timeline(version: RuleSet | PayTable) -> list[dict[str, Any]]:
    """Every recorded change of ``version`` (and of its pay lines), newest first, each in words."""
    entries: list[dict[str, Any]] = []
    words = ({p.name: p for p in parameters(version.game.slug)}
             if isinstance(version, RuleSet) and version.game.slug in PUBLISHED_RULES else {})
    for record in version.history.select_related("history_user").order_by("-history_date", "-history_id"):
        changes = _version_changes(record, words)
        reason = record.history_change_reason or ""
        if not changes and not reason:
            continue  # a save that changed nothing of the version itself (its lines changed: listed below)
        entries.append({"at": record.history_date, "who": _who(record), "what": reason or KIND[record.history_type],
                        "changes": changes, "record_id": record.history_id})
    if isinstance(version, PayTable):
        lines = PayLine.history.filter(pay_table_id=version.pk).select_related("history_user")
        for record in lines.order_by("-history_date", "-history_id"):
            changes = _line_changes(record)
            if changes:
                entries.append({"at": record.history_date, "who": _who(record), "what": f"pay line {KIND[record.history_type]}",
                                "changes": changes})
    entries.sort(key=lambda e: e["at"], reverse=True)
    return entries


def _theory_rows(a: PayTable, b: PayTable) -> list[dict[str, Any]]:
    ta = theory_for(a, default_rule_set(a), enqueue=False)
    tb = theory_for(b, default_rule_set(b), enqueue=False)
    rows = []
    for bet in dict.fromkeys([*ta["bets"], *tb["bets"]]):
        ra, rb = (ta["bets"].get(bet) or {}).get("rtp"), (tb["bets"].get(bet) or {}).get("rtp")
        a_over, b_over = ra is not None and ra > 1, rb is not None and rb > 1
        rows.append({"label": f"RTP of {bet_words(bet)}", "a": pct(ra), "b": pct(rb), "changed": ra != rb,
                     "over": a_over or b_over, "a_over": a_over, "b_over": b_over})
    return rows


def version_diff(a: RuleSet | PayTable, b: RuleSet | PayTable) -> dict[str, Any]:
    """The rows of a side-by-side comparison of two versions of one game (``changed`` marks a difference)."""
    rows: list[dict[str, Any]] = []
    for label, va, vb in (("lineage", a.name, b.name), ("version", a.version, b.version),
                          ("state", a.state_text, b.state_text),
                          ("published by", a.published_by or "—", b.published_by or "—"),
                          ("notes", a.notes or "—", b.notes or "—")):
        rows.append({"label": label, "a": str(va), "b": str(vb), "changed": str(va) != str(vb)})
    section: list[dict[str, Any]] = []
    if isinstance(a, RuleSet) and isinstance(b, RuleSet):
        pa = {r["name"]: r for r in parameter_rows(a)}
        for r in parameter_rows(b):
            ra = pa.get(r["name"], {"value": "—"})
            section.append({"label": r["label"], "a": ra["value"], "b": r["value"], "changed": ra["value"] != r["value"]})
    elif isinstance(a, PayTable) and isinstance(b, PayTable):
        la = {line.name: line for line in a.lines.all()}
        lb = {line.name: line for line in b.lines.all()}
        for name in dict.fromkeys([*la, *lb]):
            x, y = la.get(name), lb.get(name)
            label = (y or x).label or name  # type: ignore[union-attr]
            sa, sb = (x.pays_text if x else "—"), (y.pays_text if y else "—")
            section.append({"label": f"{label} ({name})", "a": sa, "b": sb, "changed": sa != sb, "line": name})
        section += _theory_rows(a, b)
    return {"a": a, "b": b, "rows": rows, "section": section,
            "section_title": "parameters" if isinstance(a, RuleSet) else "pay lines and theory",
            "changes": sum(1 for r in rows[3:] + section if r["changed"])}
