"""One name per player: the accounting page, the tablet's API and the nightly report (HTML, PDF, CSV) all
name a player through ``player_display_name`` — the report used to say "C-1001" where the page said "Ada"."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.utils import timezone

from tables import services
from tables.models.accounting import player_display_name
from tables.selectors.accounting import shift_of
from tables.services.accounting import player_seat, report_pdf_story
from tables.services.reports import gather, render_csv, render_html
from tests.tables.dashboard.conftest import client_for

pytestmark = pytest.mark.django_db


def test_the_one_rule_of_a_players_name() -> None:
    assert player_display_name("Ada", "C-1001") == "Ada (card C-1001)"
    assert player_display_name("Ada", None) == "Ada"
    assert player_display_name("", "C-1002") == "card C-1002"


def test_the_page_and_every_form_of_the_report_name_a_player_alike(demo_casino, dealer, pit_boss) -> None:
    table = demo_casino.tables["unlimited-blackjack"]
    services.table_open(table=table, actor=dealer)
    player_seat(table=table, seat=1, card_number="C-1001", name="Ada", actor=dealer)
    player_seat(table=table, seat=2, card_number="C-1002", actor=dealer)
    player_seat(table=table, seat=3, name="Grace", actor=dealer)
    names = ["Ada (card C-1001)", "card C-1002", "Grace"]
    day = shift_of(timezone.now())[0]

    html = client_for(pit_boss).get(f"/dashboard/accounting/?day={day.isoformat()}").content.decode()
    ratings = html.split('id="ratings"')[1].split("</table>")[0]
    seated = html.split('id="seated"')[1].split("</table>")[0]
    for name in names:
        assert f"<td>{name}</td>" in ratings and f"<td>{name}</td>" in seated, name

    api = client_for(pit_boss).get(f"/api/tables/{table.pk}/players/").json()
    assert [p["player"]["display_name"] for p in api] == names

    data = gather(day)
    report = render_html(data)
    for name in names:
        assert f'<td class="l">{name}</td>' in report, name
    rows = [r for r in csv.DictReader(io.StringIO(render_csv(data))) if r["section"] == "rating"]
    assert sorted(r["message"].split(" seat ")[0] for r in rows) == sorted(names)
    tables: list[Any] = []
    report_pdf_story(data.accounting, {"Heading3": None}, lambda rows, widths: tables.append(rows) or rows)
    pdf_names = [row[0] for t in tables if t[0][0] == "player" for row in t[1:]]
    assert sorted(pdf_names) == sorted(names)
