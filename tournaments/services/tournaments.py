"""Writes for a tournament itself: creating it (afresh or from an earlier one) and changing its
settings, tables of five among them (TSR 8.3.1, 10)."""

import datetime
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from doko.names import spelt_out
from doko.rules.official import RoundSettings, official_problems
from tournaments import policies, ranked, selectors, staff_offers
from tournaments.messages import field_errors
from tournaments.models import (
    Entry,
    FormerSlug,
    Round,
    SeatingMethod,
    SheetKeeping,
    Tournament,
    TournamentRole,
)
from tournaments.roles_history import roles_recorded
from tournaments.selectors import SETTINGS
from tournaments.services.common import save_validated, tournament_lock
from tournaments.services.rounds import Reseating, open_rounds_reseat
from tournaments.services.standings import standings_schedule

# Short names a tournament cannot have: the pages' own addresses under /tournaments/.
RESERVED_SLUGS = frozenset({"new"})
# A short name an organiser gives it later: what the pages' addresses take (``<slug:…>``), in
# lower case as the names made from the name and year.
SLUG = re.compile(r"[a-z0-9][a-z0-9_-]*")


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
    if tournament.official and (
        problems := official_problems(
            RoundSettings(
                hands_per_match=tournament.hands_per_match,
                match_minutes=tournament.match_minutes,
                hands_per_match_five=tournament.hands_per_match_five,
                match_minutes_five=tournament.match_minutes_five,
                allow_tables_of_six_and_seven=tournament.allow_tables_of_six_and_seven,
                springer=tournament.springer,
            )
        )
    ):
        # TSR 8.1.1: each setting of the round that breaks the TSR, on its field
        # (the constraint ``tournament_official_round_by_tsr`` holds it in the database).
        raise ValidationError(field_errors(problems))
    if tournament.springer and not tournament.allow_tables_of_six_and_seven:
        # The constraint ``tournament_springer_needs_tables_of_six_and_seven`` holds it.
        raise ValidationError(
            {
                "springer": _(
                    "A Springer plays instead of a table of seven (TSR 10): allow tables of six "
                    "and seven first."
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
    allow_tables_of_six_and_seven: bool | None = None,
    springer: bool | None = None,
    sheet_keeping: str | None = None,
    double_entry: bool | None = None,
    tiebreaks: str | None = None,
    counts_for_ranking: bool | None = None,
    is_public: bool | None = None,
    standings_public: bool | None = None,
    club_ranking_players: int | None = None,
    official: bool | None = None,
    by: User | None = None,
    organiser: User | None = None,
) -> Tournament:
    """Create a tournament with its settings (those not given: the model's defaults, tables of
    four only, TSR 8.3.1); the short name for links is made from the name and year unless
    given. An ``official`` one plays the TSR's round (TSR 8.1.1): a setting of the round that
    breaks it is refused on its field, naming the section.

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
        "allow_tables_of_six_and_seven": allow_tables_of_six_and_seven,
        "springer": springer,
        "sheet_keeping": sheet_keeping,
        "double_entry": double_entry,
        "tiebreaks": tiebreaks,
        "counts_for_ranking": counts_for_ranking,
        "is_public": is_public,
        "standings_public": standings_public,
        "club_ranking_players": club_ranking_players,
        "official": official,
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
    entries: Collection[int] = (),
    staff: bool = False,
    changes: Mapping[str, Any] | None = None,
) -> Tournament:
    """A new tournament with every setting of an earlier one that ``by`` organises, except its
    name and days (``changes``: settings that differ). ``entries``: the start numbers of the
    players registered in it to register again, active, under the same start number, name and
    club (an unknown one is refused on ``entries``). With ``staff``, its staff are appointed
    again in the same roles (``policies.may_copy_staff``), each playing as the same start
    number where that player is registered again: the organiser at once, everyone else once he
    accepts the role offered to him."""
    policies.enforce(
        policies.may_copy_tournament(roles=selectors.user_roles(user=by, tournament=source))
    )
    chosen = set(entries)
    copied = list(
        source.entries.filter(start_number__in=chosen).values_list(
            "player_id", "start_number", "first_name", "last_name", "club"
        )
    )
    if unknown := chosen - {number for _player, number, *_names in copied}:
        raise ValidationError(
            {
                "entries": _("No player of %(name)s has the start number %(numbers)s.")
                % {
                    "name": source.name,
                    "numbers": ", ".join(str(number) for number in sorted(unknown)),
                }
            }
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
    made = Entry.objects.bulk_create(
        Entry(
            tournament=tournament,
            player_id=player_id,
            start_number=number,
            first_name=first_name,
            last_name=last_name,
            club=club,
        )
        for player_id, number, first_name, last_name, club in copied
    )
    if staff:
        _staff_copy(source=source, tournament=tournament, by=by, entries=made)
    return tournament


def _staff_copy(
    *, source: Tournament, tournament: Tournament, by: User, entries: list[Entry]
) -> list[TournamentRole]:
    """Appoint the earlier tournament's staff again in the new one (TSR 8.2.1), as the
    organiser of both; each plays as the same start number if registered again. The organiser
    takes his own roles at once; everyone else is offered his (``tournaments.staff_offers``)
    and holds it once he accepts: nobody holds a role he has not accepted."""
    policies.enforce(
        policies.may_copy_staff(
            roles=selectors.user_roles(user=by, tournament=source),
            roles_new=selectors.user_roles(user=by, tournament=tournament),
        )
    )
    by_number = {entry.start_number: entry for entry in entries}
    held = set(tournament.roles.values_list("user_id", "role"))
    grants = []
    for grant in source.roles.select_related("user", "entry").order_by("pk"):
        if (grant.user_id, grant.role) in held:
            continue
        number = grant.entry.start_number if grant.entry is not None else None
        entry = by_number.get(number) if number is not None else None
        if grant.user_id == by.pk:
            grants.append(
                TournamentRole(tournament=tournament, user=by, role=grant.role, entry=entry)
            )
        else:
            staff_offers.offer(
                tournament=tournament, user=grant.user, role=grant.role, entry=entry, by=by
            )
    made = TournamentRole.objects.bulk_create(grants)
    roles_recorded(made)  # bulk_create sends no signals: the history is written here
    return made


def _slug_check(*, tournament: Tournament, roles: set[str], slug: Any) -> None:
    """Refuse a new short name for links on ``slug``: once links went out with the old one
    (``policies.may_change_slug``), or not made of lower-case letters, digits and hyphens."""
    use = selectors.slug_use(tournament=tournament)
    policies.enforce(
        policies.may_change_slug(
            tournament=tournament, roles=roles, printed=use.printed, published=use.published
        )
    )
    if not isinstance(slug, str) or not SLUG.fullmatch(slug):
        raise ValidationError(
            {"slug": _("A short name for links has lower-case letters, digits and hyphens only.")}
        )


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
    roles = selectors.user_roles(user=by, tournament=tournament)
    policies.enforce(policies.may_change_settings(tournament=tournament, roles=roles))
    unknown = set(changes) - set(SETTINGS) - {"slug"}
    if unknown:
        raise ValidationError(
            {name: _("This is not a setting of a tournament.") for name in sorted(unknown)}
        )
    changes = {
        name: value.strip() if isinstance(value, str) and name in {"name", "venue"} else value
        for name, value in changes.items()
    }
    locked = tournament_lock(tournament)
    slug = changes.pop("slug", locked.slug)
    if refusals := selectors.settings_locks(tournament=locked).refusals(
        tournament=locked, changes=changes
    ):
        raise ValidationError(refusals)
    changed = tuple(
        name for name in SETTINGS if name in changes and getattr(locked, name) != changes[name]
    )
    former = locked.slug
    if slug != former:
        _slug_check(tournament=locked, roles=roles, slug=slug)
        locked.slug = slug
        changed = (*changed, "slug")
    if not changed:
        return SettingsChange(tournament=locked)
    for name in changed:
        if name != "slug":
            setattr(locked, name, changes[name])
    try:
        with transaction.atomic():
            _saved(locked)
    except IntegrityError as error:  # the same short name, saved meanwhile in parallel
        raise ValidationError(
            {"slug": _("Another tournament has this short name; choose another.")}
        ) from error
    if former != locked.slug:
        # The old links lead to the tournament while no other takes the short name; the pages
        # phones refresh no longer answer at the old address.
        FormerSlug.objects.filter(slug=locked.slug).delete()
        FormerSlug.objects.update_or_create(slug=former, defaults={"tournament": locked})
        selectors.tournament_head_forget(slug=former)
    reseating = Reseating()
    if {"allow_tables_of_five", "allow_tables_of_six_and_seven", "springer"} & set(changed) and (
        locked.allow_tables_of_five or locked.allow_tables_of_six_and_seven
    ):
        # A round drawn but not started that could not be seated again at tables of four (a
        # disqualification) is seated now, moving as few players as possible (TSR 10.1).
        reseating = open_rounds_reseat(tournament=locked, keep_going=True)
    if "planned_rounds" in changed:
        _finish_if_played(locked)
    # The club ranking is shown with the standings, cached by their version: a rebuild.
    if {"tiebreaks", "standings_public", "club_ranking_players"} & set(changed):
        standings_schedule(tournament_id=locked.pk)
    # Lowering the planned rounds may finish the tournament (``_finish_if_played``).
    if locked.status == Tournament.Status.FINISHED and (
        ranked.RANKING_SETTINGS | {"planned_rounds"}
    ) & set(changed):
        ranked.everything_changed()
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


@transaction.atomic
def tournament_delete(*, tournament: Tournament, by: User) -> selectors.TournamentContents:
    """Delete a tournament with everything in it (players' entries, rounds, sheets, staff
    roles, printouts): its organisers, while none of its scoresheets is confirmed
    (``policies.may_delete_tournament``); the persons stay, who may play elsewhere. Returns
    what went."""
    locked = tournament_lock(tournament)
    contents = selectors.tournament_contents(tournament=locked)
    policies.enforce(
        policies.may_delete_tournament(
            tournament=locked,
            roles=selectors.user_roles(user=by, tournament=locked),
            confirmed=contents.confirmed,
        )
    )
    locked.delete()
    return contents


def _archived(*, tournament: Tournament, by: User, archived: bool) -> Tournament:
    policies.enforce(
        policies.may_archive_tournament(
            tournament=tournament, roles=selectors.user_roles(user=by, tournament=tournament)
        )
    )
    locked = tournament_lock(tournament)
    if (locked.archived_at is not None) != archived:
        locked.archived_at = timezone.now() if archived else None
        locked.save(update_fields=["archived_at"])
    return locked


@transaction.atomic
def tournament_archive(*, tournament: Tournament, by: User) -> Tournament:
    """Archive a tournament: off the home page and its organisers' current list, still at its
    address and counted in the ranking lists; its organisers (``policies
    .may_archive_tournament``). Archiving it again changes nothing."""
    return _archived(tournament=tournament, by=by, archived=True)


@transaction.atomic
def tournament_unarchive(*, tournament: Tournament, by: User) -> Tournament:
    """Take a tournament out of the archive, back onto the home page; its organisers."""
    return _archived(tournament=tournament, by=by, archived=False)
