"""Helpers shared by the services of this app (not services themselves: they run inside one)."""

from tournaments.models import (
    Tournament,
)


def save_validated(instance):
    """Validate (fields, choices and the model's constraints) and save."""
    instance.full_clean()
    instance.save()
    return instance


def tournament_lock(tournament: Tournament) -> Tournament:
    """Lock the tournament row: changes to its field of players and seating go one at a time."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)
