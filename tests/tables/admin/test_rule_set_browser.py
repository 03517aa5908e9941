"""In a real browser: a games manager who gets three rule values wrong sees all three at once, each next to
its field, with help and choices in words; the history of a version is one table (line edits in words, the
saved copies opened from it, the diff a link away).  Screenshots go to docs/img/."""

from __future__ import annotations

from pathlib import Path

import pytest

from tables.engine.rulesets import PUBLISHED_RULES
from tables.models import PayTable, VersionStatus
from tests.factories import RuleSetFactory, game
from tests.tables.admin.test_publishing_browser import perfect_pairs_draft, signed_in

pytestmark = [
    pytest.mark.browser, pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("tiny_simulation", "queued", "_empty_cache"),
]
IMG = Path(__file__).resolve().parents[3] / "docs" / "img"


def test_three_wrong_rule_values_show_at_once_next_to_their_fields(browser, live_server, demo_casino,
                                                                  games_manager) -> None:
    draft = RuleSetFactory(game=game("unlimited-blackjack"), name="Busy night",
                           params=PUBLISHED_RULES["unlimited-blackjack"].to_params())
    page = signed_in(browser, live_server, games_manager)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/admin/tables/ruleset/{draft.pk}/change/")
    # Help and choices in words, not code values.
    rule_row = page.locator(".form-row.field-shuffle_rule")
    assert "Cut card: shuffle after the round in which the cut card comes out" in rule_row.inner_text()
    assert "cut_card" not in rule_row.inner_text()
    assert page.locator("#id_surrender option:checked").inner_text() == "against an Ace"
    page.fill("#id_seats", "12")
    page.fill("#id_max_hands", "9")
    page.fill("#id_interrupted_settle_hours", "-1")
    page.click("input[name=_save]")
    page.wait_for_selector(".errornote")
    for name, text in (("seats", "Seats: must be a whole number from 1 to 9, got 12"),
                       ("max_hands", "Hands after splits, at most: must be a whole number from 1 to 4, got 9"),
                       ("interrupted_settle_hours", "must be a whole number from 0 to 720, got -1")):
        row = page.locator(f".form-row.field-{name}")
        assert text in row.locator(".errorlist").inner_text(), name
    assert page.locator(".errorlist li").count() == 3
    page.locator(".form-row.field-seats").scroll_into_view_if_needed()
    page.screenshot(path=str(IMG / "backoffice-rule-set-errors.png"))


def test_the_history_is_one_table_with_line_edits_saved_copies_and_the_diff(browser, live_server, demo_casino,
                                                                             games_manager) -> None:
    draft = perfect_pairs_draft(games_manager)
    page = signed_in(browser, live_server, games_manager)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/admin/tables/paytable/{draft.pk}/history/")
    main = page.locator("#content-main")
    assert main.locator("table").count() == 1
    assert "Saved copies" not in main.inner_text()
    assert "line perfect-pairs/perfect: 25:1 → 30:1" in page.locator("#version-timeline").inner_text()
    page.screenshot(path=str(IMG / "backoffice-history.png"))
    page.locator("#version-timeline a.saved-copy").first.click()
    page.wait_for_load_state()
    assert "/history/" in page.url and page.locator("input[value=Revert]").count() == 1  # a draft: revertable
    page.go_back()
    page.click("text=Compare with another version…")
    page.select_option("select[name=with]", str(PayTable.objects.get(
        game__slug="unlimited-blackjack", status=VersionStatus.PUBLISHED).pk))
    page.click("button:has-text('Compare')")
    line = page.locator("tr.changed[data-line='perfect-pairs/perfect']")
    line.wait_for()
    assert "25:1" in line.inner_text() and "30:1" in line.inner_text()
