"""In a real browser (Playwright + the system Chromium): publishing with the maker-checker (refused for
one person, done by two), the blocking warning for a return above 100%, the history of a line edit
and the diff of two versions.  With BACKOFFICE_SCREENSHOTS=<folder> the tests also save the screens
docs/backoffice.md shows."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tables.models import PayTable, PublishRequest, PublishStatus, VersionStatus

pytestmark = [
    pytest.mark.browser, pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("tiny_simulation", "queued", "_empty_cache"),
]
SHOTS = os.environ.get("BACKOFFICE_SCREENSHOTS")


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)


def signed_in(browser: Any, live_server: Any, user: Any) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    return context.new_page()


def perfect_pairs_draft(user: Any) -> PayTable:
    """A new draft of Unlimited Blackjack's pay table with Perfect Pairs' perfect pair at 30:1 (104.3373%)."""
    published = PayTable.objects.get(game__slug="unlimited-blackjack", status=VersionStatus.PUBLISHED)
    draft = published.new_draft(actor=user)
    line = draft.lines.get(name="perfect-pairs/perfect")
    line.odds_numerator, line.odds_denominator = 30, 1
    line._history_user = user
    line.save()
    return draft


def test_publishing_is_refused_to_one_person_and_done_by_two(browser, live_server, demo_casino, games_manager,
                                                             second_manager) -> None:
    draft = PayTable.objects.get(game__slug="unlimited-blackjack", status=VersionStatus.PUBLISHED).new_draft(
        actor=games_manager)
    change = f"{live_server.url}/admin/tables/paytable/{draft.pk}/change/"
    page = signed_in(browser, live_server, games_manager)
    page.goto(change)
    page.click("text=Publish…")
    page.wait_for_selector(".publish-page")
    assert page.locator(".rtp-warning").count() == 0
    page.click("button:has-text('Ask to publish')")
    page.wait_for_selector(".publish-pending")
    assert "a second games manager must approve it" in page.locator(".messagelist").inner_text()
    assert "you cannot approve your own request" in page.locator(".publish-pending").inner_text()
    assert page.locator("text=Review and approve…").count() == 0
    shot(page, "backoffice-publish-pending.png")
    # The same person at the approval page: only withdrawing is offered, and a forced approval is refused.
    page.goto(f"{live_server.url}/admin/tables/paytable/{draft.pk}/approve/")
    assert page.locator("button:has-text('Approve and publish')").count() == 0
    assert "a second games manager must approve it" in page.locator(".errornote").inner_text()
    draft.refresh_from_db()
    assert draft.status == VersionStatus.DRAFT

    page.goto(f"{live_server.url}/admin/")  # the requester is not asked to approve their own request
    assert page.locator("#waiting-approval").count() == 0
    other = signed_in(browser, live_server, second_manager)
    # The second manager's home page says what waits for them (nothing did: only the version's own page).
    other.goto(f"{live_server.url}/admin/")
    waiting = other.locator("#waiting-approval").inner_text()
    assert str(draft) in waiting and f"asked by {games_manager.username}" in waiting, waiting
    other.click(f"#waiting-approval a:has-text('{draft}')")
    other.wait_for_selector("button:has-text('Approve and publish')")
    assert "Nothing: this version is the same as" in other.locator("p.publish-changes").inner_text()
    shot(other, "backoffice-publish-approve.png")
    other.click("button:has-text('Approve and publish')")
    other.wait_for_selector(".messagelist")
    assert "Approved and published" in other.locator(".messagelist").inner_text()
    draft.refresh_from_db()
    assert draft.status == VersionStatus.PUBLISHED and draft.published_by == second_manager
    request = PublishRequest.objects.get(pay_table=draft)
    assert (request.requested_by, request.decided_by, request.status) == (games_manager, second_manager,
                                                                          PublishStatus.APPROVED)
    other.goto(f"{live_server.url}/admin/")
    assert other.locator("#waiting-approval").count() == 0  # decided: nothing waits any more


def test_a_return_above_100_percent_blocks_until_acknowledged(browser, live_server, demo_casino,
                                                               games_manager) -> None:
    draft = perfect_pairs_draft(games_manager)
    page = signed_in(browser, live_server, games_manager)
    page.goto(f"{live_server.url}/admin/tables/paytable/{draft.pk}/change/")
    assert "Perfect Pairs" in page.locator(".theory .rtp-warning").inner_text()  # the bet in words
    assert page.locator('.theory tr.over-100[data-bet="perfect-pairs"]').count() == 1
    page.click("text=Publish…")
    warning = page.locator(".publish-page > .rtp-warning")
    assert "The Perfect Pairs bet returns 104.3373% to the player (house edge -4.3373%)" in warning.inner_text()
    # What publishing changes, against the version in use (the approver saw the figures, not the differences).
    changes = page.locator("table.publish-changes").inner_text()
    assert "Perfect Pair (perfect-pairs/perfect)\t25:1\t30:1" in changes, changes
    assert "RTP of Perfect Pairs\t95.9036%\t104.3373%" in changes
    shot(page, "backoffice-rtp-warning.png")
    page.click("button:has-text('Ask to publish')")  # the required box is not ticked: the form stays
    assert page.url.endswith(f"/paytable/{draft.pk}/publish/")
    assert not PublishRequest.objects.filter(pay_table=draft).exists()
    page.check("#id_acknowledge")
    page.click("button:has-text('Ask to publish')")
    page.wait_for_selector(".publish-pending")
    request = PublishRequest.objects.get(pay_table=draft)
    assert request.acknowledged and request.warnings[0]["what"] == "perfect-pairs"


def test_the_history_and_the_diff_show_the_line_edit(browser, live_server, demo_casino, games_manager) -> None:
    draft = perfect_pairs_draft(games_manager)
    page = signed_in(browser, live_server, games_manager)
    page.goto(f"{live_server.url}/admin/tables/paytable/{draft.pk}/history/")
    assert "line perfect-pairs/perfect: 25:1 → 30:1" in page.locator("#version-timeline").inner_text()
    shot(page, "backoffice-history.png")
    page.click("text=Compare with another version…")
    page.wait_for_selector("table.version-diff")
    row = page.locator('table.version-diff tr.changed[data-line="perfect-pairs/perfect"]')
    assert row.locator("td").all_inner_texts() == ["25:1", "30:1"]
    rtp = page.locator("table.version-diff tr.changed.over-100")
    assert "104.3373%" in rtp.inner_text()
    shot(page, "backoffice-diff.png")


def test_the_rule_set_form_is_typed_and_errors_are_in_words(browser, live_server, demo_casino, games_manager) -> None:
    from tests.factories import game

    page = signed_in(browser, live_server, games_manager)
    page.goto(f"{live_server.url}/admin/tables/ruleset/add/?game={game('unlimited-blackjack').pk}")
    assert page.locator("select#id_surrender option").all_inner_texts() == ["no surrender", "against an Ace"]
    assert page.locator("input#id_dealer_hits_soft_17[type=checkbox]").count() == 1
    page.fill("#id_name", "Eight decks, no surrender")
    page.fill("#id_seats", "12")
    page.click("input[name=_save]")
    error = page.locator(".field-seats .errorlist").inner_text()
    assert error == "Seats: must be a whole number from 1 to 9, got 12"
    shot(page, "backoffice-rule-set-form.png")
