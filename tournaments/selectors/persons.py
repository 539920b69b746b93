"""Reads for persons (``Player``): the log of changes to one, and the other record of the same
person that a merge names."""

from django.db.models import Count

from tournaments.models import PersonChange, Player


def person_changes(*, player: Player) -> list[PersonChange]:
    """The changes to the person, newest first, with who made them: one query."""
    return list(PersonChange.objects.filter(player=player).select_related("by"))


def person_other(*, ddv_number: str = "", pk: int | None = None) -> Player | None:
    """The record a merge names, by DDV number or record number, with how many tournaments it
    plays in: one query."""
    records = Player.objects.annotate(tournaments=Count("entries"))
    if ddv_number:
        return records.filter(ddv_number=ddv_number).first()
    if pk is not None:
        return records.filter(pk=pk).first()
    return None
