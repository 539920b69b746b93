"""Helpers shared by the services of this app (not services themselves: they run inside one)."""

import zlib
from typing import TypeVar

from django.db import IntegrityError, connection, transaction
from django.db.models import Model

from tournaments.models import (
    Tournament,
)

_M = TypeVar("_M", bound=Model)


def save_validated(instance: _M) -> _M:
    """Validate (fields, choices and the model's constraints) and save.

    A parallel request may save what the check could not see yet (the same DDV number, say):
    the database's constraint refuses the second, and the check, asked again once the first is
    committed, names the field in a ValidationError instead of a server error."""
    instance.full_clean()
    try:
        with transaction.atomic():
            instance.save()
    except IntegrityError:
        instance.full_clean()  # raises, on the field, what the other request saved
        raise
    return instance


def tournament_lock(tournament: Tournament) -> Tournament:
    """Lock the tournament row: changes to its field of players and seating go one at a time."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _lock_key(text: str) -> int:
    """A signed 32-bit key, the same in every process (``hash`` is not)."""
    return zlib.crc32(text.encode()) - 2**31


def name_lock(kind: str, *names: str) -> None:
    """Hold a lock on each of ``names`` of one ``kind`` until the transaction ends: a
    find-or-create of the same name (a player's DDV number or folded name, an e-mail address)
    in a parallel request waits here until this one is committed, and then finds what it made.

    PostgreSQL's advisory locks, each kind in a space of its own and taken in one order, so that
    two requests never wait for each other; two names share a lock only rarely (a crc32), and
    then one just waits. SQLite needs none: its writing transactions run one at a time
    (``IMMEDIATE``)."""
    if connection.vendor != "postgresql" or not names:
        return
    space = _lock_key(kind)
    keys = sorted({_lock_key(name) for name in names})
    with connection.cursor() as cursor:
        cursor.executemany("SELECT pg_advisory_xact_lock(%s, %s)", [(space, key) for key in keys])
