"""The doors of the pages below printing to its printouts (``tournaments.doors``): the forms
that ask for a tournament's PDFs, and the team competitions' PDFs."""

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
        "print-entries",
        address=_to("printing:entries-print"),
        label=_("Print the list of players (PDF)"),
    )
    doors.register("print-standings", address=_to("printing:standings-print"), label=_("PDF"))
    doors.register(
        "print-personal-cards",
        address=_to("printing:personal-cards-print"),
        label=_("Print personal link cards"),
    )
    doors.register(
        "print-personal-card",
        address=_to("printing:personal-card-print"),
        label=_("Print this player's personal link card"),
    )
    doors.register(
        "print-line-ups",
        address=_to("printing:team-line-ups-pdf"),
        label=_("Print the line-up sheets (PDF)"),
    )
    doors.register(
        "print-season-plan", address=_to("printing:team-plan-pdf"), label=_("Print (PDF)")
    )
    doors.register(
        "print-season-table", address=_to("printing:team-table-pdf"), label=_("Print (PDF)")
    )
