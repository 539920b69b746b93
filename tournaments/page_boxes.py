"""What the apps above tournaments add to its pages other than the round's (that one has
``tournaments.round_page``): boxes on the tournament's page, its settings page, its list of
players (the list, and each player's row) and a player's page to correct, and on a person's
page across tournaments.

The ranking lists are the rankings app's, above this one: the settings page shows the lists a
tournament asked to count for, and a person's page where they stand in each list. The online
registration, the check-in and the personal links are the registration app's: the tournament's
page shows the registration and the check-in, the list of players the check-in, the personal
links to hand out and a claim not yet confirmed on a player's row, and a player's page the
player's personal link. Tournaments may not import those apps, nor may its templates load
their tags or include their templates. So this
module says what such a box is given (``Box``) and where it may go (``PLACES``); the app above
registers its box when Django starts (its ``AppConfig.ready`` calls ``register``). The tag
``page_boxes`` (``tournament_tags``) renders a place's boxes in the order they were registered,
with the template's helper ``round_page.render_box``; without those apps a page has none.
"""

from typing import Protocol

from django.template import Context

# The tournament's settings page, below the form: given ``tournament``.
SETTINGS = "settings"
# A person's page across tournaments (``views.persons.player_history``): given ``player``.
PERSON = "person"
# The tournament's page, below its facts: given ``tournament``.
TOURNAMENT = "tournament"
# The tournament's page and its list of players, above the list: given ``tournament``; for
# who checks players in at the door.
CHECK_IN = "check-in"
# The list of players, at its top: given ``tournament``.
ENTRIES = "entries"
# A player's row of the list of players, after the player's state: given ``entry``. A box
# keeps what it reads once per page in the template's ``render_context``.
ENTRY = "entry"
# The organiser's page to correct a player's registration, below the form: given ``entry``.
ENTRY_EDIT = "entry-edit"
PLACES = (SETTINGS, PERSON, TOURNAMENT, CHECK_IN, ENTRIES, ENTRY, ENTRY_EDIT)


class Box(Protocol):
    """A box an app above adds to a page of tournaments."""

    def render(self, *, context: Context, **objects: object) -> str:
        """The box's HTML (``round_page.render_box``), or nothing; ``objects`` are what the
        place gives (see ``PLACES``)."""


# By place, then by the box's class, so that a second start-up registers nothing twice.
_boxes: dict[str, dict[type, Box]] = {place: {} for place in PLACES}


def register(box: Box, *, place: str) -> None:
    """An app's box at one of the ``PLACES`` (registered once, at start-up)."""
    _boxes[place][type(box)] = box


def boxes(place: str) -> list[Box]:
    """The boxes registered at ``place``, in the order the apps registered them."""
    return list(_boxes[place].values())
