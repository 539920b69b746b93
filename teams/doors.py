"""The doors of the pages below teams to its pages (``tournaments.doors``): the list of the
team competitions, and a match day's page from its tournament."""

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
        "team-competitions",
        address=_to("teams:competitions"),
        label=_("Team competitions: leagues and team championships"),
    )
    doors.register("match-day", address=_to("teams:match-day"))
