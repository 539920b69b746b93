"""Dates and times as German readers write them (DIN 5008): 24.11.2026 in lists and tables,
24. November 2026 in running text, 14:05 for a time. In a sentence the catalogue adds "Uhr"
after a time ("endet um %(end)s Uhr"); a time alone in a column has none (docs/writing-german.md).
What is not set here comes from Django's German formats."""

DATE_FORMAT = "j. F Y"
SHORT_DATE_FORMAT = "d.m.Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j. F Y, H:i"
SHORT_DATETIME_FORMAT = "d.m.Y, H:i"
MONTH_DAY_FORMAT = "j. F"
YEAR_MONTH_FORMAT = "F Y"
FIRST_DAY_OF_WEEK = 1  # Monday
