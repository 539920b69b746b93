"""What the apps above tournaments add to a round's page: the one door between the round's page
and the boxes other apps keep on it.

The round's page is the tournaments app's (``tournaments/round.html``), yet two of its pieces
belong to apps above it: the link to the desk, where the staff see every table's sheet, is the
scoring app's, and the box of printouts (the PDFs of the round, with its latest print jobs) is
the printing app's. Tournaments may not import them, nor may its templates load their tags. So
this module says what the page asks of such a box (``RoundBox``) and where it may go
(``PLACES``), and those apps answer: each registers its box when Django starts (its
``AppConfig.ready`` calls ``register``), as the scoring app answers ``tournaments.play``. The
page's tag ``round_boxes`` (``tournament_tags``) renders the boxes of a place, in the order they
were registered; without those apps the page has none.
"""

from collections.abc import Mapping
from typing import Any, Protocol

from django.template import Context, Engine
from django.template.base import Template

from tournaments.models import Round, Tournament

# Under the round's clock: links to the round's pages of other apps, for whoever may read them.
LINKS = "links"
# In the organiser's part of the page, once the round is drawn.
ORGANISER = "organiser"
PLACES = (LINKS, ORGANISER)


class RoundBox(Protocol):
    """A box an app above adds to a round's page."""

    def render(self, *, context: Context, round: Round, tournament: Tournament) -> str:
        """The box's HTML, made by the app's template (see ``render_box``), or nothing."""


# By place, then by the box's class, so that a second start-up registers nothing twice.
_boxes: dict[str, dict[type, RoundBox]] = {place: {} for place in PLACES}


def register(box: RoundBox, *, place: str) -> None:
    """An app's box on the round's page, at one of the ``PLACES`` (registered once, at
    start-up)."""
    _boxes[place][type(box)] = box


def boxes(place: str) -> list[RoundBox]:
    """The boxes registered at ``place``, in the order the apps registered them."""
    return list(_boxes[place].values())


def render_box(context: Context, template_name: str, data: Mapping[str, Any]) -> str:
    """A box's template rendered as an inclusion tag renders its own: in a new context of the
    page's, with ``data``, the page's CSRF token and its request."""
    # The engine rendering the page, as an inclusion tag asks it.
    engine = context.template.engine if context.template else Engine.get_default()
    template: Template = engine.get_template(template_name)
    return template.render(
        context.new(
            {"csrf_token": context.get("csrf_token"), "request": context.get("request"), **data}
        )
    )
