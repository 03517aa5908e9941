"""A missing page or a refused one is said in words, with the way back (it was Django's bare "Not Found")."""

from __future__ import annotations

import pytest

from tests.tables.dashboard.conftest import client_for

pytestmark = pytest.mark.django_db


def test_a_missing_round_is_a_page_in_words_with_the_way_back(pit_boss):
    response = client_for(pit_boss).get("/dashboard/rounds/999999/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "<h1>Not found</h1>" in html and 'href="/"' in html and "/dashboard/rounds/999999/" in html


def test_a_refused_page_says_why(dealer):
    response = client_for(dealer).get("/dashboard/accounting/")
    assert response.status_code == 403
    html = response.content.decode()
    assert "<h1>Not allowed</h1>" in html and "Table accounting is for the pit" in html and 'href="/"' in html


def test_the_api_still_answers_json(dealer):
    response = client_for(dealer).get("/api/rounds/999999/")
    assert response.status_code == 404 and response["Content-Type"].startswith("application/json")
