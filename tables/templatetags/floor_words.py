"""Template filters of the dashboard's words: cards as faces, times as a person reads them, amounts per
seat and bet, a finding's rule in words (never raw dicts, ISO timestamps or internal ids)."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from django import template
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from tables.audit.accounting import PERIOD_WORDS
from tables.days import day_text
from tables.engine.cards import card_face
from tables.engine.settlement import bet_words
from tables.selectors.floor_live import rule_words as _rule_words
from tables.selectors.round_view import place_words

register = template.Library()


@register.filter
def card(code: object) -> str:
    """``8S`` → ``8♠``, ``TH`` → ``10♥``, ``JK`` → ``Joker`` (``tables.engine.cards.card_face``)."""
    return card_face(code)


@register.filter
def when(value: object) -> str:
    """A time (or its ISO text) as the casino's local ``25 Nov 18:25:45``."""
    moment = parse_datetime(value) if isinstance(value, str) else value
    if not isinstance(moment, datetime):
        return "—" if value in (None, "") else str(value)
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return moment.strftime("%d %b %H:%M:%S")


@register.filter
def day(value: object) -> str:
    """A date (or its ISO text) as ``Wed 25 Nov 2026``; never the browser's or the locale's 11/25/2026."""
    if isinstance(value, datetime):
        value = timezone.localtime(value).date() if timezone.is_aware(value) else value.date()
    if isinstance(value, str) and value:
        try:
            return day_text(date.fromisoformat(value))
        except ValueError:
            return value
    return day_text(value) if isinstance(value, date) else ("—" if value in (None, "") else str(value))


@register.filter
def period(value: object) -> str:
    """A hold period's code as words: ``mtd`` → ``month-to-date`` (``tables.audit.accounting.PERIOD_WORDS``)."""
    return PERIOD_WORDS.get(str(value), str(value))


@register.filter
def amounts(value: object) -> str:
    """``{"1": {"main": "20.00"}}`` → ``seat 1: main 20.00``; nothing → ``—``.  A seat with nothing due (the
    round document keeps it as ``{}``) is left out, not written ``seat 1: ;``."""
    if not isinstance(value, dict) or not value:
        return "—"
    parts: list[str] = []
    for seat, bets in sorted(value.items(), key=lambda kv: str(kv[0])):
        if isinstance(bets, dict):
            if not bets:
                continue
            inner = ", ".join(f"{bet_words(bet)} {amount}" for bet, amount in bets.items())
            parts.append(f"seat {seat}: {inner}")
        else:
            parts.append(f"seat {seat}: {bets}")
    return "; ".join(parts) or "—"


CARD_CODE = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK)\b")


@register.filter
def faces(text: object) -> str:
    """Card codes inside the engine's words as faces: ``8S 8D: Mixed Pair pays 6:1`` → ``8♠ 8♦: Mixed Pair
    pays 6:1`` (as the tablet shows them)."""
    return CARD_CODE.sub(lambda m: card_face(m.group(0)), str(text or ""))


@register.filter
def bet(kind: object) -> str:
    """``perfect-pairs`` → ``Perfect Pairs`` (``tables.engine.settlement.bet_words``)."""
    return bet_words(kind)


@register.filter
def rule_words(rule: Any) -> str:
    return _rule_words(str(rule))


@register.filter
def who(target: object) -> str:
    """``seat:3/hand:1`` → ``seat 3, hand 2`` (counted from 1, as the tablet says it); ``dealer`` → ``the dealer``."""
    return place_words(str(target or ""))
