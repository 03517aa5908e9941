"""The typed rule-set form: every wrong value at once, each on its field; choices and help in words."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tables.engine.rulesets import PUBLISHED_RULES, parameters, rules_problems
from tables.models import RuleSet
from tests.factories import PASSWORD, RuleSetFactory, game
from tests.tables.admin.forms import form_data

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("_empty_cache", "queued", "tiny_simulation")]
GAMES = ("finnish-27", "unlimited-blackjack", "mini-blackjack", "bluffjack", "contract-rummy")
CODE_WORDS = ("cut_card", "cards_dealt", "any_two", "initial_two", "vs_ace", "first_left_of_dealer", "next_pot")


def _client(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def _post(client: Client, draft: RuleSet, **values: Any) -> Any:
    url = reverse("admin:tables_ruleset_change", args=[draft.pk])
    form = client.get(url).context["adminform"].form
    response = client.post(url, form_data(form, **values))
    assert response.status_code == 200  # refused: the form again
    return response.context["adminform"].form.errors


def test_three_wrong_values_are_shown_at_once_each_on_its_field(games_manager) -> None:
    draft = RuleSetFactory(game=game("unlimited-blackjack"), params=PUBLISHED_RULES["unlimited-blackjack"].to_params())
    errors = _post(_client(games_manager), draft, seats=12, max_hands=9, interrupted_settle_hours=-1)
    assert errors["seats"] == ["Seats: must be a whole number from 1 to 9, got 12"]
    assert errors["max_hands"] == ["Hands after splits, at most: must be a whole number from 1 to 4, got 9"]
    assert errors["interrupted_settle_hours"] == [
        "Settle an interrupted round after (hours): must be a whole number from 0 to 720, got -1"]
    draft.refresh_from_db()
    assert draft.params == PUBLISHED_RULES["unlimited-blackjack"].to_params()  # nothing saved


def test_a_field_refused_by_the_form_does_not_hide_the_rules_errors(games_manager) -> None:
    draft = RuleSetFactory(game=game("finnish-27"), params=PUBLISHED_RULES["finnish-27"].to_params())
    errors = _post(_client(games_manager), draft, decks="two", dealer_stands_hard=1, player_loses_over_hard=99)
    assert set(errors) == {"decks", "dealer_stands_hard", "player_loses_over_hard"}


def test_a_range_that_depends_on_a_wrong_value_is_not_judged_against_another(games_manager) -> None:
    draft = RuleSetFactory(game=game("finnish-27"), params=PUBLISHED_RULES["finnish-27"].to_params())
    # 0 decks: "shuffle at 900" cannot be judged (the shoe's size is unknown), so it is not called wrong yet.
    errors = _post(_client(games_manager), draft, decks=0, shuffle_at=900, dealer_stands_soft=40)
    assert set(errors) == {"decks", "dealer_stands_soft"}
    assert [e.field for e in rules_problems("finnish-27", {"decks": 2, "shuffle_at": 900})] == ["shuffle_at"]


@pytest.mark.parametrize("slug", GAMES)
def test_help_texts_and_choices_read_in_words_not_code_values(games_manager, slug) -> None:
    form = _client(games_manager).get(reverse("admin:tables_ruleset_add") + f"?game={game(slug).pk}").context[
        "adminform"].form
    for p in parameters(slug):
        field = form.fields[p.name]
        shown = [str(field.help_text), *(str(label) for _, label in getattr(field, "choices", ()))]
        assert not [w for w in CODE_WORDS if any(w in text for text in shown)], (p.name, shown)


def test_the_choices_are_words_and_the_stored_values_stay_the_engines(games_manager) -> None:
    client = _client(games_manager)
    url = reverse("admin:tables_ruleset_add") + f"?game={game('unlimited-blackjack').pk}"
    page = client.get(url)
    form = page.context["adminform"].form
    assert list(form.fields["shuffle_rule"].choices) == [("cut_card", "cut card"), ("cards_dealt", "cards dealt")]
    assert list(form.fields["surrender"].choices) == [("none", "no surrender"), ("vs_ace", "against an Ace")]
    assert "Cut card: shuffle after the round in which the cut card comes out" in page.content.decode()
    response = client.post(url, form_data(form, game=game("unlimited-blackjack").pk, name="Words",
                                          shuffle_rule="cards_dealt", surrender="none"))
    assert response.status_code == 302
    saved = RuleSet.objects.get(name="Words")
    assert (saved.params["shuffle_rule"], saved.params["surrender"]) == ("cards_dealt", "none")


def test_the_read_only_rules_show_choices_in_words(auditor) -> None:
    rule_set = RuleSetFactory(game=game("unlimited-blackjack"),
                              params={**PUBLISHED_RULES["unlimited-blackjack"].to_params(), "double_on": "initial_two"})
    html = _client(auditor).get(reverse("admin:tables_ruleset_change", args=[rule_set.pk])).content.decode()
    assert "the hand&#x27;s first two cards only" in html and "against an Ace" in html
    assert "initial_two" not in html.split('class="rule-params"')[1].split("</table>")[0]
