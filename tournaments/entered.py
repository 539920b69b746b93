"""What tournaments tells the apps above it about entries and persons that those apps keep
something of: a place freed by a withdrawal (the online registration's waiting list moves up),
an entry corrected (a registration's claim to be a person on record follows it), and whether a
person may go (a registration still names them).

The online registration is the registration app's, above this one. The services here may not
import that app; so they call this module, and the app registers what it does (its
``AppConfig.ready`` calls ``register``). Without it, a freed place stays free, a correction
tells nobody and no person is held.
"""

from collections.abc import Sequence
from typing import Protocol

from django.contrib.auth.models import User

from tournaments.models import Entry, Named, Player, Tournament


class Listener(Protocol):
    """An app above that keeps something of a tournament's entries or of persons."""

    def place_freed(self, *, tournament: Tournament) -> Sequence[Named]:
        """An entry left the tournament (withdrawn), inside the caller's transaction with the
        tournament locked: fill the free places; who moved up into them (by name)."""

    def entry_corrected(self, *, entry: Entry, by: User | None) -> None:
        """The entry's names, club or person were corrected (``by`` an organiser, or nobody)."""

    def person_held(self, *, player: Player) -> bool:
        """Whether the app still names the person, so that the record must stay."""


# By the listener's class, so that a second start-up registers nothing twice.
_listeners: dict[type, Listener] = {}


def register(listener: Listener) -> None:
    """An app's listener (registered once, at start-up)."""
    _listeners[type(listener)] = listener


def place_freed(*, tournament: Tournament) -> list[Named]:
    return [
        moved
        for listener in _listeners.values()
        for moved in listener.place_freed(tournament=tournament)
    ]


def entry_corrected(*, entry: Entry, by: User | None) -> None:
    for listener in _listeners.values():
        listener.entry_corrected(entry=entry, by=by)


def person_held(*, player: Player) -> bool:
    return any(listener.person_held(player=player) for listener in _listeners.values())
