"""What the apps above tournaments add to its pages other than the round's (that one has
``tournaments.round_page``): a box on the tournament's settings page, and one on a person's
page across tournaments.

The ranking lists are the rankings app's, above this one: the settings page shows the lists a
tournament asked to count for, and a person's page where they stand in each list. Tournaments
may not import that app, nor may its templates load its tags or include its templates. So this
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
PLACES = (SETTINGS, PERSON)


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
