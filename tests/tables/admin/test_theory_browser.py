"""In a real browser (Playwright + the system Chromium): the pay table's page shows the simulation's
progress and then its figures without a reload (static/admin/theory.js)."""

from __future__ import annotations

import pytest

from tables.admin.theory import pct
from tables.models import PayTable, TheoryResult, TheoryStatus, VersionStatus
from tables.tasks.theory import compute_theory

pytestmark = [
    pytest.mark.browser, pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("tiny_simulation", "queued", "_empty_cache"),
]




def test_the_pay_table_page_shows_progress_then_the_figures_without_a_reload(browser, live_server, demo_casino,
                                                                            games_manager, queued) -> None:
    from django.test import Client

    client = Client()
    client.force_login(games_manager)
    # demo_casino: a transactional test before this one may have flushed the seeded games.
    pay_table = PayTable.objects.get(game__slug="finnish-27", status=VersionStatus.PUBLISHED)
    context = browser.new_context(bypass_csp=True)  # wait_for_function's eval; CSP: test_csp_browser.py
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/admin/tables/paytable/{pay_table.pk}/change/")
    page.wait_for_selector('.theory[data-status="pending"] .theory-progress progress')
    reloads: list[str] = []
    page.on("framenavigated", lambda frame: reloads.append(frame.url) if frame == page.main_frame else None)
    result = TheoryResult.objects.get(pay_table=pay_table)
    assert queued == [result.pk]

    TheoryResult.objects.filter(pk=result.pk).update(status=TheoryStatus.RUNNING, progress=0.5)
    page.wait_for_function("document.querySelector('.theory-progress-text').textContent === '50%'",
                           timeout=10_000)

    TheoryResult.objects.filter(pk=result.pk).update(status=TheoryStatus.PENDING, progress=0.0)
    compute_theory(result.pk)  # the worker's job, done here
    page.wait_for_selector('.theory[data-status="done"]', timeout=10_000)
    result.refresh_from_db()
    total = page.locator(".theory-total").inner_text()
    assert f"RTP {pct(result.rtp)}, house edge {pct(result.house_edge)}" in total
    assert reloads == []  # it came by polling, not by a reload
    context.close()


def test_a_drafts_theory_follows_the_odds_as_they_are_typed(browser, live_server, demo_casino, games_manager) -> None:
    # The walk-through: the house edge stayed on the old figures until Save.
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(games_manager)
    published = PayTable.objects.get(game__slug="unlimited-blackjack", status=VersionStatus.PUBLISHED)
    assert client.post(reverse("admin:tables_paytable_new_draft", args=[published.pk])).status_code == 302
    draft = PayTable.objects.get(game=published.game, name=published.name, version=published.version + 1)
    line = next(x for x in draft.lines.order_by("position") if x.name.startswith("perfect-pairs/") and x.odds_text == "25:1")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/admin/tables/paytable/{draft.pk}/change/")
    # At 1280 the lines fit: the Delete column was scrolled off the page (1,335 px wide).
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    before = page.inner_text(".theory-bets [data-bet='perfect-pairs']")
    index = page.evaluate("(name) => [...document.querySelectorAll(\"[name^='lines-'][name$='-name']\")]"
                          ".find((el) => el.value === name).name.split('-')[1]", line.name)
    page.fill(f"[name='lines-{index}-odds']", "30:1")
    page.wait_for_selector(".theory[data-preview] .theory-preview")
    after = page.inner_text(".theory-bets [data-bet='perfect-pairs']")
    assert after != before, (before, after)
    assert "not saved yet" in page.inner_text(".theory-preview")
    line.refresh_from_db()
    assert line.odds_text == "25:1"  # a preview saves nothing
    page.fill(f"[name='lines-{index}-odds']", "0:1")  # a bad value: said, naming the line
    page.wait_for_selector(".theory[data-preview] .errornote")
    assert line.name in page.inner_text(".theory .errornote")
    context.close()
