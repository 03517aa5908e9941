"""How dates and times read everywhere Django formats them (the back office's lists and pages): as the
dashboard writes days (``tables/days.py``: "Thu 26 Nov 2026"), with 24-hour times — not the en-us
locale's "Nov. 26, 2026, 4:41 a.m.".  Input formats stay Django's (ISO dates are still accepted)."""

DATE_FORMAT = "D j M Y"
DATETIME_FORMAT = "D j M Y, H:i"
TIME_FORMAT = "H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
FIRST_DAY_OF_WEEK = 1  # Monday
