"""The path converter every route's numbers go through: ``<num:number>``, Django's ``<int:…>``
with at most 18 digits.

Django's ``int`` takes any run of digits, and a key, a round's or a table's number beyond what
a database column holds went on to the query: SQLite cannot bind an integer past 64 bits (an
``OverflowError``, a 500 for ``/rounds/99999999999999999999/``). Eighteen digits stay below
2⁶³ on every database, and no key or number of ours comes near them: a longer one is no route
(404). Registered by ``TournamentsConfig.ready``, before any ``urls.py`` is read."""

from django.urls import register_converter
from django.urls.converters import get_converters


class NumberConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


def register() -> None:
    if "num" not in get_converters():  # once, however often the apps are made ready
        register_converter(NumberConverter, "num")
