"""The rule parameters' specs (``tables.engine.rulesets.SPECS``): every parameter has words, and the
ranges and choices a form offers are exactly what ``check`` enforces."""

from __future__ import annotations

import pytest

from tables.engine.errors import InvalidInput
from tables.engine.rulesets import PUBLISHED_RULES, SPECS, parameters, rules_from_params

GAMES = sorted(PUBLISHED_RULES)


@pytest.mark.parametrize("game", GAMES)
def test_every_parameter_has_a_spec_and_the_published_value_as_default(game: str) -> None:
    params = parameters(game)
    published = PUBLISHED_RULES[game].to_params()
    unused = getattr(PUBLISHED_RULES[game], "UNUSED", ())
    assert [p.name for p in params] == [name for name in published if name not in unused]
    for p in params:
        assert p.name in SPECS and p.label, p.name
        assert p.default == published[p.name]


@pytest.mark.parametrize("game", GAMES)
def test_a_value_outside_a_range_is_refused_naming_the_parameter(game: str) -> None:
    for p in parameters(game):
        if p.kind != "int" or p.lo is None or p.hi is None:
            continue
        with pytest.raises(InvalidInput) as exc:
            rules_from_params(game, {p.name: p.hi + 1})
        assert exc.value.field == p.name


@pytest.mark.parametrize("game", GAMES)
def test_every_choice_offered_is_accepted_and_no_other(game: str) -> None:
    for p in parameters(game):
        if p.kind != "choice":
            continue
        for choice in p.choices:
            value = type(p.default)(choice)
            if p.name == "shuffle_rule":
                continue  # its meaning depends on shuffle_at; both are accepted with a fitting one
            assert getattr(rules_from_params(game, {p.name: value}), p.name) == value
        with pytest.raises(InvalidInput) as exc:
            rules_from_params(game, {p.name: "neither" if isinstance(p.default, str) else 3})
        assert exc.value.field == p.name
