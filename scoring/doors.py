"""The doors of the pages below scoring to its pages (``tournaments.doors``): a table's page,
its scoresheet, a seat's scoresheet and the desk."""

from collections.abc import Callable

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournaments import doors


def _to(route: str) -> Callable[..., str]:
    """The address of ``route`` with the door's arguments, in order."""
    return lambda *args: reverse(route, args=args)


def doors_register() -> None:
    """Called by the app's ``ready``."""
    doors.register("table", address=_to("scoring:table"))
    doors.register("sheet", address=_to("scoring:sheet"), label=_("Scoresheet"))
    doors.register("seat-sheet", address=_to("scoring:sheet-link"), label=_("Open the scoresheet"))
    doors.register("desk", address=_to("scoring:desk"), label=_("Desk"))
