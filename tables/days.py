"""Days as people read and type them: ``Wed 25 Nov 2026``, never the browser's 11/25/2026 or an ISO
period key.  One home for the dashboard's day boxes, its filters and the audits' finding messages."""

from __future__ import annotations

from datetime import date, datetime

# A day box shows the day as the dashboard writes it and reads it back, with or without the weekday or
# year, or as an ISO date (links and bookmarks): the accounting day, the rounds search, the audit-run button.
DAY_INPUTS = ("%a %d %b %Y", "%d %b %Y", "%a %d %B %Y", "%d %B %Y")


def day_text(value: date) -> str:
    """A gaming day as the dashboard writes days: ``Wed 25 Nov 2026`` (the templates' ``D j M Y``)."""
    return f"{value:%a} {value.day} {value:%b %Y}"


def moment_text(value: datetime) -> str:
    """A moment as the dashboard writes it: ``Wed 25 Nov 22:00`` (the templates' ``D j M H:i``), in the
    time zone ``value`` carries (pass it through ``timezone.localtime`` for the casino's clock)."""
    return f"{value:%a} {value.day} {value:%b %H:%M}"


def parse_day(raw: str, today: date) -> date | None:
    """The day typed in a day box, or None when it is not a day (``today`` gives the year left out)."""
    text = " ".join(raw.replace(",", " ").split())
    try:
        return date.fromisoformat(text)
    except ValueError:
        pass
    for candidate in (text, f"{text} {today.year}"):  # "25 Nov": this year's
        for fmt in DAY_INPUTS:
            try:
                return datetime.strptime(candidate, fmt).date()
            except ValueError:
                continue
    return None


def period_words(period: str) -> str:
    """An audit period key in words: ``day:2026-11-25`` → ``gaming day Wed 25 Nov 2026``,
    ``shift:2026-11-25/swing`` → ``swing shift of Wed 25 Nov 2026``, ``mtd:2026-11-25`` → ``month to
    Wed 25 Nov 2026``; a key of another form as it is (nothing hidden)."""
    kind, _, rest = period.partition(":")
    day_iso, _, shift = rest.partition("/")
    try:
        day = date.fromisoformat(day_iso)
    except ValueError:
        return period
    if kind == "day" and not shift:
        return f"gaming day {day_text(day)}"
    if kind == "shift" and shift:
        return f"{shift} shift of {day_text(day)}"
    if kind == "mtd" and not shift:
        return f"month to {day_text(day)}"
    return period
