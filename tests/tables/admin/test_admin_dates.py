"""The back office writes dates as the dashboard does ("Thu 26 Nov 2026, 16:41"), never the en-us
locale's "Nov. 26, 2026, 4:41 p.m."."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from django.utils import formats, timezone

from tests.tables.dashboard.conftest import client_for

pytestmark = pytest.mark.django_db


def test_a_moment_reads_as_the_dashboard_writes_days():
    moment = timezone.make_aware(datetime(2026, 11, 26, 16, 41))
    assert formats.localize(timezone.localtime(moment)) == "Thu 26 Nov 2026, 16:41"
    assert formats.date_format(moment.date()) == "Thu 26 Nov 2026"


def test_the_pay_tables_list_shows_when_each_was_published_in_words(demo_casino, games_manager):
    page = client_for(games_manager).get("/admin/tables/paytable/").content.decode()
    assert not re.search(r"\b[ap]\.m\.|\b(Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\. \d", page)
    published = re.findall(r'<td class="field-published_at[^"]*">([^<]+)</td>', page)
    assert published and all(
        re.fullmatch(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} \w{3} \d{4}, \d\d:\d\d", p) for p in published
    ), published
