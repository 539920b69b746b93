"""Writes for a tournament's own settings and staff."""

import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments import policies, selectors
from tournaments.models import (
    SeatingMethod,
    Tournament,
    TournamentRole,
)
from tournaments.services.common import save_validated, tournament_lock
from tournaments.services.results import standings_schedule
from tournaments.services.rounds import Reseating, open_rounds_reseat


def _unique_slug(name: str, starts_on: datetime.date) -> str:
    base = slugify(f"{name} {starts_on.year}")[:70] or "turnier"
    slug, suffix = base, 2
    while Tournament.objects.filter(slug=slug).exists():
        slug, suffix = f"{base}-{suffix}", suffix + 1
    return slug


@transaction.atomic
def tournament_create(
    *,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    venue: str = "",
    slug: str = "",
    planned_rounds: int = 3,
    allow_tables_of_five: bool = False,
    seating_method: SeatingMethod = SeatingMethod.RANDOM,
    is_public: bool = True,
    organiser: User | None = None,
) -> Tournament:
    """Create a tournament; the creating user becomes its organiser. Tables of four only
    (TSR 8.3.1) unless ``allow_tables_of_five`` (TSR 10)."""
    tournament = save_validated(
        Tournament(
            name=name.strip(),
            slug=slug or _unique_slug(name, starts_on),
            starts_on=starts_on,
            ends_on=ends_on or starts_on,
            venue=venue.strip(),
            planned_rounds=planned_rounds,
            allow_tables_of_five=allow_tables_of_five,
            seating_method=seating_method,
            is_public=is_public,
        )
    )
    if organiser is not None:
        TournamentRole.objects.create(
            tournament=tournament,
            user=organiser,
            role=TournamentRole.Role.ORGANISER,
        )
    standings_schedule(tournament_id=tournament.pk)
    return tournament


@transaction.atomic
def tournament_tables_of_five_allow(*, tournament: Tournament, by: User) -> Reseating:
    """Allow tables of five (TSR 10) for the rest of the tournament, where the active players
    do not divide into tables of four (TSR 8.3.1); the organiser decides it.

    Rounds played or running keep their tables: the option counts from the next draw on. A
    round drawn but not started that waits for a substitute (it could not be seated again at
    tables of four after a disqualification) is seated again now, moving as few players as
    possible. Refused once the tournament is finished; allowing it twice changes nothing.
    Returns what the re-seating moved.
    """
    policies.enforce(
        policies.may_allow_tables_of_five(
            roles=selectors.user_roles(user=by, tournament=tournament)
        )
    )
    tournament = tournament_lock(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(
            {
                "allow_tables_of_five": _(
                    "The tournament is finished; no round is drawn any more (TSR 10)."
                )
            }
        )
    if tournament.allow_tables_of_five:
        return Reseating()
    tournament.allow_tables_of_five = True
    tournament.save(update_fields=["allow_tables_of_five"])
    return open_rounds_reseat(tournament=tournament, keep_going=True)


@transaction.atomic
def tournament_publication_update(
    *, tournament: Tournament, is_public: bool, standings_public: bool, tiebreaks: str
) -> Tournament:
    """What the public sees of a tournament and how its standings break ties."""
    locked = tournament_lock(tournament)
    rerank = locked.tiebreaks != tiebreaks
    locked.is_public = is_public
    locked.standings_public = standings_public
    locked.tiebreaks = tiebreaks
    save_validated(locked)
    if rerank:
        standings_schedule(tournament_id=locked.pk)
    return locked
