"""The report for print and spreadsheets: the PDF's header, page numbers, sign-off and findings
table; charts that read at hundreds of tables; the CSV rounded."""

from __future__ import annotations

import base64
import csv
import io
import re
import zlib
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from tables.services.reports import (
    MAX_GROUPS,
    TOP_TABLES,
    ReportData,
    build_report,
    charts,
    groups,
    render_csv,
    render_pdf,
    top_flagged,
)

DAY = date(2026, 11, 20)
LONG = ("shoe 41 was shuffled 37 cards after its cut card came out, with the dealer notified late; "
        "the pit boss recorded the reason as a dealer change at the table during the round") * 2


def _stream_texts(pdf: bytes) -> list[list[str]]:
    """The text drawn by each content stream (reportlab writes them ASCII85-encoded, zlib-compressed)."""
    out = []
    for m in re.finditer(rb"/Filter \[ /ASCII85Decode /FlateDecode \][^>]*>>\s*stream\r?\n(.*?)endstream", pdf, re.S):
        body = m.group(1).strip()
        try:
            raw = zlib.decompress(base64.a85decode(body[:-2] if body.endswith(b"~>") else body))
        except (ValueError, zlib.error):
            continue
        out.append([s.decode("latin-1") for s in re.findall(rb"\((.*?)\) Tj", raw)])
    return out


def _pdf_text(pdf: bytes) -> str:
    """The text drawn on the pages."""
    return "\n".join(t for texts in _stream_texts(pdf) for t in texts)


def _hold(i: int, flagged: bool) -> dict[str, Any]:
    handle = Decimal(1000 + i) + Decimal("0.123456")
    return {"rounds": 60, "handle": str(handle), "win": "13.934426229508198", "theo_win": "20.0000001",
            "hold_pct": 13.934426229508198, "theo_hold_pct": 1.999999, "z": (-3.5 - i / 100) if flagged else 0.3,
            "band_low": "-50.123456", "band_high": "90.987654", "drop": None, "win_to_drop_pct": None,
            "flagged": flagged, "reason": "outside the band" if flagged else "within the band"}


def _floor(n: int) -> ReportData:
    """A day of ``n`` tables over 12 pits and 3 games; every 20th table flagged, every 7th with a finding."""
    data = ReportData(DAY, casino="Casino Helsinki")
    games = ("finnish-27", "unlimited-blackjack", "mini-blackjack")
    for i in range(n):
        data.tables.append({
            "table": i + 1, "table_id": i + 1, "pit": f"Pit {i % 13 + 1}", "casino": "Casino Helsinki",
            "game": games[i % 3], "hold": _hold(i, i % 20 == 0), "mtd": None,
            "shuffle": {"shoes": 6, "shuffles": 6, "checked_card_by_card": 1 if i % 7 == 0 else 0,
                        "by_rule": {"shuffle.late": 1} if i % 7 == 0 else {}},
            "pace": None})  # fmt: skip
        if i % 7 == 0:
            data.findings.append({"table": i + 1, "pit": f"Pit {i % 13 + 1}", "rule": "shuffle.late",
                                  "severity": "warning", "message": LONG, "round": 17, "shoe": 41})
        data.pace.append({"table": i + 1, "dealer": f"dealer{i}", "rounds_per_hour": 50 + i % 20})
    data.totals = {"rounds": 60 * n, "handle": Decimal("1000.00") * n, "win": Decimal("13.93") * n,
                   "theo_win": Decimal("20.00") * n, "hold_pct": 1.393, "theo_hold_pct": 2.0,
                   "flagged_holds": n // 20, "shoes": 6 * n, "discrepancies": 0, "approvals": 0}
    return data


def test_the_charts_group_hundreds_of_tables_by_pit_and_game() -> None:
    data = _floor(400)
    gs = groups(data)
    assert len(gs) <= MAX_GROUPS and gs[-1]["pit"] == "other"
    assert sum(g["tables"] for g in gs) == 400
    assert sum(g["handle"] for g in gs) == sum(Decimal(t["hold"]["handle"]) for t in data.tables)
    top = top_flagged(data)
    assert len(top) == TOP_TABLES and all(t["flagged"] for t in top)
    assert top[0]["table"] == 381  # the largest |z| first
    images = charts(data)
    assert set(images) == {"hold", "flagged", "shuffle", "discrepancies", "pace"}
    assert all(png.startswith(b"\x89PNG") for png in images.values())


def test_the_pdf_has_the_casino_the_day_page_numbers_and_a_sign_off() -> None:
    data = _floor(60)
    data.charts = charts(data)
    text = _pdf_text(render_pdf(data))
    pages = re.findall(r"page (\d+) of (\d+)", text)
    assert pages and pages[0] == ("1", pages[0][1]) and len(pages) == int(pages[0][1]) > 1
    assert text.count("Casino Helsinki \\227 nightly audit report") == len(pages)  # header on every page
    assert "gaming day Fri 20 Nov 2026" in text and "2026-11-20" not in text  # days in words, not ISO
    assert "Sign-off" in text and "Prepared by \\(auditor\\)" in text and "Reviewed by \\(compliance\\)" in text


def test_the_pdf_names_games_rules_and_bets_in_words_and_prints_whole_amounts() -> None:
    """What an auditor reads on paper: "Unlimited Blackjack", not unlimited-blackjack; "Shuffled after the
    shuffle point", not shuffle.late; "Perfect Pairs", not perfect-pairs; a drop of 2,200.00 on one line."""
    data = _floor(6)
    names = {"finnish-27": "No-Bust Finnish 27", "unlimited-blackjack": "Unlimited Blackjack",
             "mini-blackjack": "Mini Blackjack"}
    for t in data.tables:
        t["game_name"] = names[t["game"]]
        t["hold"]["drop"] = "2200.00"
    data.discrepancies.append({"table": 2, "round": 7, "state": "closed", "seat": 3, "bet": "perfect-pairs",
                               "paid": "100.00", "due": "30.00"})
    data.approvals.append({"table": 2, "round": 7, "kind": "mismatch", "kind_label": "paid differs from due",
                           "by": "pitboss", "at": "21:56", "reason": "recovered"})
    data.charts = charts(data)
    text = _pdf_text(render_pdf(data))
    words = text.replace("\n", " ")  # a cell's text wraps into several lines
    for slug in names:
        assert slug not in text, slug
    assert "Unlimited Blackjack" in text and "No-Bust Finnish 27" in text
    assert "shuffle.late" not in text and "Shuffled after the shuffle point" in words
    assert "perfect-pairs" not in text and "Perfect Pairs" in text
    assert "mismatch" not in text and "paid differs from due" in text
    assert re.findall(r"^2,200\.00$", text, re.M)  # the drop whole in its cell, not "2,200.0" and "0"
    assert "gaming day Fri 20 Nov 2026" in text
    assert top_flagged(data)[0]["label"] == "table 1 · Pit 1 · No-Bust Finnish 27"
    assert all(g["label"].split(" · ")[1] in names.values() for g in groups(data))


def _pdf_pages(pdf: bytes) -> list[list[str]]:
    """The text of each page, in the order drawn (the running header and footer come last)."""
    return [text for text in _stream_texts(pdf) if any(t.startswith("page ") for t in text)]


@pytest.mark.parametrize("tables", [4, 5])  # sizes whose findings title fell at the foot of page 2
def test_a_section_title_is_never_left_alone_at_the_foot_of_a_page(tables: int) -> None:
    data = _floor(tables)
    data.charts = charts(data)
    for page in _pdf_pages(render_pdf(data)):
        body = [t for t in page if not re.match(r"(page \d|printed |gaming day |Casino Helsinki)", t)]
        for i, text in enumerate(body):
            if re.match(r"(Findings|Discrepancies|Approvals|Hold by)", text):
                assert body[i + 1:], f"{text!r} alone at the foot of a page"


def test_the_findings_table_wraps_long_text_in_its_column() -> None:
    data = _floor(8)
    text = _pdf_text(render_pdf(data))
    # The message is cut into lines inside its column (no single line holds it), all of it printed.
    assert "Findings \\(2\\)" in text
    assert LONG not in text
    assert "the pit boss recorded the reason as a dealer change" in text.replace("\n", " ")


def test_the_csv_rounds_money_to_the_cent_and_percentages_to_two_places() -> None:
    rows = list(csv.DictReader(io.StringIO(render_csv(_floor(3)))))
    hold = rows[0]
    assert (hold["handle"], hold["win"], hold["hold_pct"], hold["theo_hold_pct"]) == ("1000.12", "13.93", "13.93", "2.00")
    assert (hold["band_low"], hold["band_high"], hold["z"], hold["pit"]) == ("-50.12", "90.99", "-3.50", "Pit 1")
    for row in rows:
        for name in ("handle", "win", "theo_win", "hold_pct", "theo_hold_pct", "z", "band_low", "band_high"):
            assert re.fullmatch(r"(-?\d+\.\d{2})?", row[name]), (name, row[name])


@pytest.mark.django_db
def test_the_built_report_names_the_casino(demo_casino, reports_dir) -> None:
    from tables.services.audits import audit_floor_day

    audit_floor_day(DAY)
    report = build_report(DAY, email=False)
    html = (reports_dir / report.html_path).read_text()
    assert demo_casino.casino.name in html
    assert demo_casino.casino.name in _pdf_text((reports_dir / report.pdf_path).read_bytes())


def test_the_sign_off_closes_the_pdf_after_the_accounting_and_ratings() -> None:
    data = _floor(3)
    data.accounting = {"shifts": [], "ratings": [{
        "player": {"display_name": "Aino Virtanen-Korhonen (card 1000234)"}, "table_number": 7, "seat": 2,
        "rounds": 41, "seconds": 1860, "avg_bet": "25.00", "theo": "12.34", "actual": "-40.00", "estimate": "11.80"}]}
    text = _pdf_text(render_pdf(data))
    assert "Player ratings" in text and "Aino Virtanen-Korhonen" in text.replace("\n", " ")
    assert text.index("Player ratings") < text.index("Sign-off")  # what is signed comes before the signatures
