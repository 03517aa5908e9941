"""Bad query parameters on the dashboard's pages get an answer a pit boss can read (the page with a note,
or a 400 naming the field), never a 500: amounts that parse but are no amounts, page numbers and table
ids beyond the database's integers, days at the ends of the calendar."""

from __future__ import annotations

import pytest

from tests.tables.dashboard.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "sNaN"])
@pytest.mark.parametrize("field", ["min", "max"])
def test_the_rounds_search_says_a_non_finite_amount_is_no_amount(demo_casino, pit_boss, field, value):
    c = client_for(pit_boss)
    page = c.get("/dashboard/rounds/", {field: value})
    assert page.status_code == 200
    assert "an amount such as 100.00" in page.content.decode()
    export = c.get("/dashboard/rounds.csv", {field: value})
    assert export.status_code == 200
    assert b"".join(export.streaming_content).decode().startswith("round id,")


def test_a_page_number_beyond_the_database_integers_is_the_last_page(demo_casino, pit_boss):
    page = client_for(pit_boss).get("/dashboard/rounds/", {"page": "9" * 30})
    assert page.status_code == 200
    assert "No round matches." in page.content.decode()


def test_a_table_id_beyond_the_database_integers_is_a_400(demo_casino, pit_boss):
    answer = client_for(pit_boss).get("/dashboard/api/floor/", {"tables": "9" * 30})
    assert answer.status_code == 400
    assert answer.json()["field"] == "tables"


@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31", "1 Jan 1"])
def test_the_accounting_page_at_the_ends_of_the_calendar_shows_today_with_a_note(demo_casino, pit_boss, day):
    page = client_for(pit_boss).get("/dashboard/accounting/", {"day": day})
    assert page.status_code == 200
    assert "is not a day such as" in page.content.decode()


def test_a_search_error_names_the_box_and_says_the_states_in_words(demo_casino, pit_boss):
    page = client_for(pit_boss).get("/dashboard/rounds/", {"min": "ten", "state": "bogus"}).content.decode()
    assert "Wagered from: an amount such as 100.00" in page and "min:" not in page
    assert "State: one of: in play; paused; settled, awaiting payment;" in page
