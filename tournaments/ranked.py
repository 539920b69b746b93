"""What tournaments tells the apps above it when what they count of finished tournaments may
have changed: a tournament finished or its results changed, a person was corrected or merged, or
a setting that decides whether a tournament counts changed (``RANKING_SETTINGS``).

The ranking lists are the rankings app's, above this one, and are rebuilt from the finished
tournaments they admitted. The services here may not import that app; so they call this module,
and the app registers what it does (its ``AppConfig.ready`` calls ``register``). Without it,
nothing is told. ``rebuild`` is for the command that rebuilds everything by hand
(``standings_rebuild``).
"""

from typing import Protocol

from tournaments.models import Tournament

# The settings of a finished tournament that decide whether, and when, the ranking lists count
# it: a change to any of them rebuilds the lists, so that a tournament hidden later drops out of
# them. ``counts_for_ranking`` stays the organiser's own switch beside the lists' admissions:
# off, the tournament counts for no list.
RANKING_SETTINGS = frozenset({"ends_on", "counts_for_ranking", "is_public", "standings_public"})


class Listener(Protocol):
    """An app above that counts the results of finished tournaments."""

    def tournament_changed(self, *, tournament: Tournament) -> None:
        """The tournament finished again, its results changed, or it came back from a backup:
        after commit, rebuild what counts it (if anything does)."""

    def everything_changed(self) -> None:
        """Persons or a tournament's ranked settings changed: after commit, rebuild all."""

    def rebuild(self) -> list[str]:
        """Rebuild everything now; a line to print for each thing rebuilt."""


# By the listener's class, so that a second start-up registers nothing twice.
_listeners: dict[type, Listener] = {}


def register(listener: Listener) -> None:
    """An app's listener (registered once, at start-up)."""
    _listeners[type(listener)] = listener


def tournament_changed(*, tournament: Tournament) -> None:
    for listener in _listeners.values():
        listener.tournament_changed(tournament=tournament)


def everything_changed() -> None:
    for listener in _listeners.values():
        listener.everything_changed()


def rebuild() -> list[str]:
    return [line for listener in _listeners.values() for line in listener.rebuild()]
