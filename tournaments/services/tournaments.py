"""Writes for a tournament itself: creating it (afresh or from an earlier one) and changing its
settings, tables of five among them (TSR 8.3.1, 10)."""

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from doko.names import spelt_out
from tournaments import policies, selectors
from tournaments.models import (
    Entry,
    Round,
    SeatingMethod,
    SheetKeeping,
    Tournament,
    TournamentRole,
)
from tournaments.selectors import SETTINGS
from tournaments.services.common import save_validated, tournament_lock
from tournaments.services.results import RANKING_SETTINGS, ranking_schedule, standings_schedule
from tournaments.services.rounds import Reseating, open_rounds_reseat

# Short names a tournament cannot have: the pages' own addresses under /tournaments/.
RESERVED_SLUGS = frozenset({"new"})


def _unique_slug(name: str, starts_on: datetime.date) -> str:
    """The name and year as a readable link, German spelt out ("Münster" → "muenster-2026");
    the year only once when the name holds it already ("Herbstturnier 2026" →
    "herbstturnier-2026"); a number is added if another tournament has it."""
    year = str(starts_on.year)
    named = name if re.search(rf"(?<!\d){year}(?!\d)", name) else f"{name} {year}"
    base = slugify(spelt_out(named))[:70].rstrip("-") or "turnier"
    slug, suffix = base, 2
    while slug in RESERVED_SLUGS or Tournament.objects.filter(slug=slug).exists():
        slug, suffix = f"{base}-{suffix}", suffix + 1
    return slug


def _checked(tournament: Tournament) -> Tournament:
    """Refuse what the model's constraints would refuse without naming a field, naming it."""
    if tournament.slug in RESERVED_SLUGS:
        raise ValidationError({"slug": _("This short name is taken by the pages themselves.")})
    if tournament.ends_on < tournament.starts_on:
        raise ValidationError({"ends_on": _("The last day cannot be before the first day.")})
    if tournament.double_entry and tournament.sheet_keeping == SheetKeeping.PHONES:
        raise ValidationError(
            {
                "double_entry": _(
                    "Sheets kept on phones only are not typed at the desk, so there is no "
                    "second entry to check them: keep them on paper too, or switch double "
                    "entry off."
                )
            }
        )
    return tournament


def _saved(tournament: Tournament) -> Tournament:
    """Validate and save; a short name taken meanwhile by a parallel request is a 400 too."""
    save_validated(_checked(tournament))
    return tournament


@transaction.atomic
def tournament_create(
    *,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    venue: str = "",
    slug: str = "",
    planned_rounds: int | None = None,
    seating_method: SeatingMethod | str | None = None,
    hands_per_match: int | None = None,
    match_minutes: int | None = None,
    allow_tables_of_five: bool | None = None,
    hands_per_match_five: int | None = None,
    match_minutes_five: int | None = None,
    sheet_keeping: str | None = None,
    double_entry: bool | None = None,
    tiebreaks: str | None = None,
    counts_for_ranking: bool | None = None,
    is_public: bool | None = None,
    standings_public: bool | None = None,
    by: User | None = None,
    organiser: User | None = None,
) -> Tournament:
    """Create a tournament with its settings (those not given: the model's defaults, tables of
    four only, TSR 8.3.1); the short name for links is made from the name and year unless
    given.

    ``by``: who creates it, from the pages or the API: he must be allowed to
    (``policies.may_create_tournament``) and becomes its organiser. ``organiser``: made its
    organiser without that question (the demo, the tests).
    """
    if by is not None:
        policies.enforce(policies.may_create_tournament(user=by))
        organiser = by
    given = {
        "planned_rounds": planned_rounds,
        "seating_method": seating_method,
        "hands_per_match": hands_per_match,
        "match_minutes": match_minutes,
        "allow_tables_of_five": allow_tables_of_five,
        "hands_per_match_five": hands_per_match_five,
        "match_minutes_five": match_minutes_five,
        "sheet_keeping": sheet_keeping,
        "double_entry": double_entry,
        "tiebreaks": tiebreaks,
        "counts_for_ranking": counts_for_ranking,
        "is_public": is_public,
        "standings_public": standings_public,
    }
    tournament = Tournament(
        name=name.strip(),
        slug=slug or _unique_slug(name, starts_on),
        starts_on=starts_on,
        ends_on=ends_on or starts_on,
        venue=venue.strip(),
        **{setting: value for setting, value in given.items() if value is not None},
    )
    try:
        with transaction.atomic():
            _saved(tournament)
    except IntegrityError as error:  # the same short name, saved meanwhile in parallel
        raise ValidationError(
            {"slug": _("Another tournament has this short name; try again.")}
        ) from error
    if organiser is not None:
        TournamentRole.objects.create(
            tournament=tournament,
            user=organiser,
            role=TournamentRole.Role.ORGANISER,
        )
    standings_schedule(tournament_id=tournament.pk)
    return tournament


@transaction.atomic
def tournament_copy(
    *,
    source: Tournament,
    by: User,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    slug: str = "",
    players: bool = False,
    changes: Mapping[str, Any] | None = None,
) -> Tournament:
    """A new tournament with every setting of an earlier one that ``by`` organises, except its
    name and days (``changes``: settings that differ). With ``players``, everyone registered
    in it is registered again, active, under the same start number, name and club."""
    policies.enforce(
        policies.may_copy_tournament(roles=selectors.user_roles(user=by, tournament=source))
    )
    settings = {
        setting: getattr(source, setting)
        for setting in SETTINGS
        if setting not in {"name", "starts_on", "ends_on"}
    }
    settings.update(changes or {})
    tournament = tournament_create(
        name=name, starts_on=starts_on, ends_on=ends_on, slug=slug, by=by, **settings
    )
    if players:
        Entry.objects.bulk_create(
            Entry(
                tournament=tournament,
                player_id=player_id,
                start_number=number,
                first_name=first_name,
                last_name=last_name,
                club=club,
            )
            for player_id, number, first_name, last_name, club in source.entries.values_list(
                "player_id", "start_number", "first_name", "last_name", "club"
            )
        )
    return tournament


@dataclass(frozen=True)
class SettingsChange:
    """A tournament as its settings were saved, the settings that changed, and what allowing
    tables of five re-seated."""

    tournament: Tournament
    changed: tuple[str, ...] = ()
    reseating: Reseating = field(default_factory=Reseating)


def _finish_if_played(tournament: Tournament) -> None:
    """After the planned rounds were lowered to the rounds played: the tournament is finished
    when its last round is closed, as closing its last planned round would have made it."""
    last = tournament.rounds.order_by("-number").first()
    if (
        tournament.status != Tournament.Status.FINISHED
        and last is not None
        and last.number >= tournament.planned_rounds
        and last.status == Round.Status.CLOSED
    ):
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])


@transaction.atomic
def tournament_update(
    *, tournament: Tournament, by: User, changes: Mapping[str, Any]
) -> SettingsChange:
    """Change a tournament's settings (``selectors.SETTINGS``); its organisers do.

    A setting that would break what was drawn or played is refused on its field with the
    reason (``selectors.settings_locks``: the seating draw once a round is drawn, the hands per
    round once a hand is written, and so on), and nothing is saved. Allowing tables of five
    (TSR 10) seats again a round drawn but not started that waits for a substitute. New
    tie-breaks or standings shown or hidden rebuild the standings; a finished tournament's
    ranking lists are rebuilt when what they count by changes.
    """
    policies.enforce(
        policies.may_change_settings(
            tournament=tournament, roles=selectors.user_roles(user=by, tournament=tournament)
        )
    )
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise ValidationError(
            {
                name: selectors.slug_fixed()
                if name == "slug"
                else _("This is not a setting of a tournament.")
                for name in sorted(unknown)
            }
        )
    changes = {
        name: value.strip() if isinstance(value, str) and name in {"name", "venue"} else value
        for name, value in changes.items()
    }
    locked = tournament_lock(tournament)
    if refusals := selectors.settings_locks(tournament=locked).refusals(
        tournament=locked, changes=changes
    ):
        raise ValidationError(refusals)
    changed = tuple(
        name for name in SETTINGS if name in changes and getattr(locked, name) != changes[name]
    )
    if not changed:
        return SettingsChange(tournament=locked)
    for name in changed:
        setattr(locked, name, changes[name])
    _saved(locked)
    reseating = Reseating()
    if "allow_tables_of_five" in changed and locked.allow_tables_of_five:
        # A round drawn but not started that could not be seated again at tables of four (a
        # disqualification) is seated now, moving as few players as possible (TSR 10.1).
        reseating = open_rounds_reseat(tournament=locked, keep_going=True)
    if "planned_rounds" in changed:
        _finish_if_played(locked)
    if {"tiebreaks", "standings_public"} & set(changed):
        standings_schedule(tournament_id=locked.pk)
    # Lowering the planned rounds may finish the tournament (``_finish_if_played``).
    if locked.status == Tournament.Status.FINISHED and (
        RANKING_SETTINGS | {"planned_rounds"}
    ) & set(changed):
        ranking_schedule()
    return SettingsChange(tournament=locked, changed=changed, reseating=reseating)


def tournament_tables_of_five_allow(*, tournament: Tournament, by: User) -> Reseating:
    """Allow tables of five (TSR 10) for the rest of the tournament, where the active players
    do not divide into tables of four (TSR 8.3.1); the organiser decides it.

    Rounds played or running keep their tables: the option counts from the next draw on. A
    round drawn but not started that waits for a substitute (it could not be seated again at
    tables of four after a disqualification) is seated again now, moving as few players as
    possible. Refused once the tournament is finished; allowing it twice changes nothing.
    Returns what the re-seating moved. The settings' own change (``tournament_update``).
    """
    policies.enforce(
        policies.may_allow_tables_of_five(
            roles=selectors.user_roles(user=by, tournament=tournament)
        )
    )
    return tournament_update(
        tournament=tournament, by=by, changes={"allow_tables_of_five": True}
    ).reseating
