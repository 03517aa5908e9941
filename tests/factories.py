"""factory-boy factories of the back-office models (users, casinos, pits, versions, tables)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import factory
from django.contrib.auth import get_user_model

from tables.engine.paytable import PUBLISHED
from tables.models import Casino, Game, PayLine, PayTable, Pit, RuleSet, Table, TableStatus, VersionStatus

PASSWORD = "pw-test-1"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)


def game(slug: str) -> Game:
    """One of the five seeded games."""
    return Game.objects.get(slug=slug)


class CasinoFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Casino

    name = factory.Sequence(lambda n: f"Casino {n}")


class PitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pit

    casino = factory.SubFactory(CasinoFactory)
    name = factory.Sequence(lambda n: f"Pit {n}")


class RuleSetFactory(factory.django.DjangoModelFactory):
    """A draft rule set of Unlimited Blackjack (published values) unless told otherwise."""

    class Meta:
        model = RuleSet

    game = factory.LazyFunction(lambda: game("unlimited-blackjack"))
    name = factory.Sequence(lambda n: f"House rules {n}")
    params = factory.LazyFunction(dict)


class PayTableFactory(factory.django.DjangoModelFactory):
    """A draft pay table holding every line of its game at the published values."""

    class Meta:
        model = PayTable
        skip_postgeneration_save = True

    game = factory.LazyFunction(lambda: game("unlimited-blackjack"))
    name = factory.Sequence(lambda n: f"House pay table {n}")

    @factory.post_generation
    def lines(obj: PayTable, create: bool, extracted: Any, **kwargs: Any) -> None:
        if not create or extracted is False:
            return
        for position, line in enumerate(PUBLISHED[obj.game.slug]):
            PayLine.objects.create(
                pay_table=obj, name=line.name, label=line.label, position=position,
                kind="odds" if line.odds is not None else "table_minimum",
                odds_numerator=line.odds.numerator if line.odds is not None else None,
                odds_denominator=line.odds.denominator if line.odds is not None else None,
                table_minimum=line.table_minimum,
            )


def published(factory_cls: Any, **kwargs: Any) -> Any:
    """A version made by ``factory_cls`` and published by the system."""
    obj = factory_cls(**kwargs)
    obj.publish(actor=None)
    return obj


class TableFactory(factory.django.DjangoModelFactory):
    """An open Unlimited Blackjack table on the seeded published versions."""

    class Meta:
        model = Table

    pit = factory.SubFactory(PitFactory)
    number = factory.Sequence(lambda n: n + 1)
    game = factory.LazyFunction(lambda: game("unlimited-blackjack"))
    rule_set = factory.LazyAttribute(
        lambda o: RuleSet.objects.filter(game=o.game, status=VersionStatus.PUBLISHED).order_by("version").first()
    )
    pay_table = factory.LazyAttribute(
        lambda o: PayTable.objects.filter(game=o.game, status=VersionStatus.PUBLISHED).order_by("version").first()
    )
    min_bet = Decimal("5.00")
    max_bet = Decimal("500.00")
    status = TableStatus.OPEN
