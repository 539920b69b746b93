"""Helpers shared by the services of this app (not services themselves: they run inside one)."""

from django.db import IntegrityError, transaction

from tournaments.models import (
    Tournament,
)


def save_validated(instance):
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
