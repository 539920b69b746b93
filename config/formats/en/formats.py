"""Dates and times on the English pages: the hall's 24-hour clock (14:05, as the German pages
and the printed sheets show it) and the day before the month (24 Nov 2026), not Django's
American defaults (2:05 p.m., 11/24/2026). What is not set here comes from Django's English
formats."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
FIRST_DAY_OF_WEEK = 1  # Monday
