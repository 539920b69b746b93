"""The doors of the pages below adjudication to its pages (``tournaments.doors``): a table's
complaint, a decision, the adjudicators' page and the staff page."""

from collections.abc import Callable

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournaments import doors


def _to(route: str) -> Callable[..., str]:
    """The address of ``route`` with the door's arguments, in order."""
    return lambda *args: reverse(route, args=args)


def doors_register() -> None:
    """Called by the app's ``ready``."""
    doors.register(
        "complaint", address=_to("adjudication:complaint-add"), label=_("Note a complaint")
    )
    doors.register("decision", address=_to("adjudication:decision"))
    doors.register(
        "adjudication", address=_to("adjudication:adjudication"), label=_("Adjudication")
    )
    doors.register("staff", address=_to("adjudication:staff"), label=_("Staff"))
