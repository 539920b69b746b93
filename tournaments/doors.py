"""Doors: the links from a page of a lower app to a page of an app above it.

Every app's routes are in its namespace (``scoring:table``), and a lower app may not name an
upper app's route, as it may not import it (the layers of pyproject.toml's import-linter
contract; tests/test_boundaries.py checks both). Yet the pages link upwards: the round's page
to each table's page (scoring), the tournament's page to the adjudication and the staff pages,
the home page to the team competitions, the entry list to its printouts, a scoresheet to
the player's personal page. So this module names
each such door (``DOORS``: what the lower page asks for, and what it gives the door), and the
app above answers: its ``AppConfig.ready`` calls ``register`` with the door's label and a
function that makes the address from those arguments, as the round's page gets its boxes
(``tournaments.round_page``). A page asks with the tag ``door`` (``tournament_tags``), a
module with ``open``; without the app above there is no door, and the page shows no link.

The lower app keeps who may see a link (the page's ``is_staff``, ``may_complain``); the door
only says where it leads and what it is called.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.safestring import mark_safe

# The doors, each with what the page gives to make its address (in that order).
DOORS = {
    # scoring
    "table": "the tournament's slug, the round's number, the table's number: the table's page",
    "sheet": "the tournament's slug, the round's number, the table's number: its scoresheet",
    "seat-sheet": "a seat's key: the scoresheet under the seat's private link",
    "desk": "the tournament's slug, the round's number: the desk's page of the round",
    # registration
    "personal-link": "a personal link's key: the player's page for the whole tournament",
    # adjudication
    "complaint": "the tournament's slug, the round's number, the table's number: a complaint",
    "decision": "the tournament's slug, a decision's id: the decision's page",
    "adjudication": "the tournament's slug: the adjudicators' page",
    "staff": "the tournament's slug: the staff page, where the organiser appoints the staff",
    # teams
    "team-competitions": "nothing: the list of the team competitions",
    "match-day": "the competition's slug, the match day's number: the match day's page",
    # printing (forms posting to make the PDF, or the PDF itself)
    "print-entries": "the tournament's slug: the list of players",
    "print-standings": "the tournament's slug: the standings",
    "print-personal-cards": "the tournament's slug: every player's personal link card",
    "print-personal-card": "the tournament's slug, a start number: one player's card",
    "print-line-ups": "the competition's slug, the match day's number: the line-up sheets",
    "print-season-plan": "the competition's slug: the season's plan",
    "print-season-table": "the competition's slug: the season's table",
}


@dataclass(frozen=True)
class Door:
    """A door an app above registers: its label, and how it makes the address."""

    label: str | Promise
    address: Callable[..., str]


@dataclass(frozen=True)
class Opened:
    """A door with its address made, for a page to link to."""

    url: str
    label: str

    def __str__(self) -> str:
        return self.url


_doors: dict[str, Door] = {}


def register(name: str, *, address: Callable[..., str], label: str | Promise = "") -> None:
    """The door ``name`` (one of ``DOORS``) is the caller's: registered once, at start-up."""
    if name not in DOORS:
        raise ValueError(f"{name!r} is no door of tournaments.doors.DOORS")
    _doors[name] = Door(label=label, address=address)


def opened(name: str, *args: object) -> Opened | None:
    """The door ``name`` with its address for ``args``; None when no app registered it."""
    if name not in DOORS:
        raise ValueError(f"{name!r} is no door of tournaments.doors.DOORS")
    door = _doors.get(name)
    if door is None:
        return None
    # The label in the language of the moment, and as {% translate %} gives it: not escaped
    # again (a translation is the project's own text, as the templates are).
    return Opened(url=door.address(*args), label=mark_safe(str(door.label)))


def registered() -> list[str]:
    """The names of the doors some app registered, in the order of ``DOORS``."""
    return [name for name in DOORS if name in _doors]
