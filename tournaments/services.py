"""Writes for players, tournaments, entries and rounds. Each service is one transaction."""

import datetime
import itertools
import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Max
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import Scoresheet
from tournaments import pdf, seating, selectors
from tournaments.models import Entry, Job, Player, Round, Seat, Table, Tournament, TournamentRole


def _save(instance):
    """Validate (fields, choices and the model's constraints) and save."""
    instance.full_clean()
    instance.save()
    return instance


@transaction.atomic
def player_create(
    *, first_name: str, last_name: str, club: str = "", ddv_number: str = ""
) -> Player:
    """Register a person who can enter tournaments."""
    return _save(
        Player(
            first_name=first_name.strip(),
            last_name=last_name.strip(),
            club=club.strip(),
            ddv_number=ddv_number.strip(),
        )
    )


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
    allow_tables_of_five: bool = True,
    is_public: bool = True,
    organiser: AbstractBaseUser | None = None,
) -> Tournament:
    """Create a tournament; the creating user becomes its organiser."""
    tournament = _save(
        Tournament(
            name=name.strip(),
            slug=slug or _unique_slug(name, starts_on),
            starts_on=starts_on,
            ends_on=ends_on or starts_on,
            venue=venue.strip(),
            planned_rounds=planned_rounds,
            allow_tables_of_five=allow_tables_of_five,
            is_public=is_public,
        )
    )
    if organiser is not None:
        TournamentRole.objects.create(
            tournament=tournament, user=organiser, role=TournamentRole.Role.ORGANISER
        )
    return tournament


@transaction.atomic
def tournament_role_grant(
    *, tournament: Tournament, user: AbstractBaseUser, role: TournamentRole.Role
) -> TournamentRole:
    """Give a user a role in a tournament (TSR 8.2.1: adjudicator and arbitration panel)."""
    grant, _created = TournamentRole.objects.get_or_create(
        tournament=tournament, user=user, role=role
    )
    return grant


@transaction.atomic
def entry_create(
    *, tournament: Tournament, player: Player, start_number: int | None = None
) -> Entry:
    """Register a player for a tournament, with the next free start number unless one is given."""
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is finished; no more players can enter."))
    if start_number is None:
        highest = tournament.entries.aggregate(highest=Max("start_number"))["highest"]
        start_number = (highest or 0) + 1
    return _save(Entry(tournament=tournament, player=player, start_number=start_number))


@transaction.atomic
def round_create(*, tournament: Tournament) -> Round:
    """Add the next round (Spielrunde) of a tournament."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    number = (tournament.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    if number > tournament.planned_rounds:
        raise ValidationError(
            {
                "planned_rounds": _(
                    "The tournament plans %(planned)d rounds; raise the number of planned "
                    "rounds to add round %(number)d."
                )
                % {"planned": tournament.planned_rounds, "number": number}
            }
        )
    return Round.objects.create(tournament=tournament, number=number)


def _locked_round(round_: Round, *, allowed: set[str], action: str) -> Round:
    locked = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if locked.status not in allowed:
        raise ValidationError(
            {
                "status": _("Round %(number)d is %(status)s and cannot be %(action)s.")
                % {"number": locked.number, "status": locked.get_status_display(), "action": action}
            }
        )
    return locked


@transaction.atomic
def round_seat(*, round: Round, seed: int | None = None) -> Round:
    """Draw the seating of a round at random for all active players (TSR 3.2.1, 8.3, 10.1).

    The draw keeps players who met in earlier rounds apart as far as it can, balances seat
    positions and tables of five, and in the first round keeps members of one club apart.
    A round already seated is drawn again as long as no scoresheet has any hand on it.
    """
    round_ = _locked_round(
        round,
        allowed={Round.Status.PLANNED, Round.Status.SEATED},
        action=_("seated"),
    )
    if Scoresheet.objects.filter(table__round=round_, hands__isnull=False).exists():
        raise ValidationError(_("Hands have been recorded in this round; it cannot be redrawn."))
    tournament = round_.tournament
    active = list(
        tournament.entries.filter(status=Entry.Status.ACTIVE).values_list("pk", "player__club")
    )
    history = _seating_history(tournament=tournament, before=round_.number)
    clubs: dict[str, list[int]] = {}
    for entry_id, club in active:
        if club.strip():
            clubs.setdefault(club.strip().casefold(), []).append(entry_id)
    club_mates = [pair for members in clubs.values() for pair in itertools.combinations(members, 2)]
    try:
        plan = seating.draw(
            [entry_id for entry_id, _club in active],
            method=seating.Method.RANDOM,
            tables_of_five=tournament.allow_tables_of_five,
            seed=seed if seed is not None else secrets.randbits(32),
            history=history,
            apart_first_round=club_mates,
        ).rounds[0]
    except seating.SeatingError as error:
        raise ValidationError({"entries": _seating_error_message(error)}) from error

    round_.tables.all().delete()
    tables = Table.objects.bulk_create(
        Table(round=round_, number=number) for number in range(1, len(plan.tables) + 1)
    )
    Seat.objects.bulk_create(
        Seat(round=round_, table=table, position=position, entry_id=entry_id)
        for table, players in zip(tables, plan.tables, strict=True)
        for position, entry_id in enumerate(players, start=1)
    )
    Scoresheet.objects.bulk_create(Scoresheet(table=table) for table in tables)
    round_.status = Round.Status.SEATED
    round_.save(update_fields=["status"])
    return round_


def _seating_history(*, tournament: Tournament, before: int) -> list[seating.SeatingPlan]:
    """The seating of the tournament's earlier rounds, in one query."""
    tables: dict[tuple[int, int], list[int]] = {}
    for round_number, table_number, entry_id in (
        Seat.objects.filter(round__tournament=tournament, round__number__lt=before)
        .order_by("round__number", "table__number", "position")
        .values_list("round__number", "table__number", "entry_id")
    ):
        tables.setdefault((round_number, table_number), []).append(entry_id)
    plans: dict[int, list[tuple[int, ...]]] = {}
    for (round_number, _table), players in tables.items():
        plans.setdefault(round_number, []).append(tuple(players))
    return [seating.SeatingPlan(tables=tuple(plan)) for _number, plan in sorted(plans.items())]


def _seating_error_message(error: seating.SeatingError) -> str:
    message = ngettext(
        "%(players)d active players cannot be seated: %(missing)d more player is needed",
        "%(players)d active players cannot be seated: %(missing)d more players are needed",
        error.missing,
    ) % {"players": error.players, "missing": error.missing}
    if error.extra:
        message += ngettext(
            ", or %(extra)d player fewer", ", or %(extra)d players fewer", error.extra
        ) % {"extra": error.extra}
    rule = (
        _("TSR 10.1: tables of four and five")
        if error.tables_of_five
        else _("TSR 8.3.1: tables of four only")
    )
    return f"{message} ({rule})."


@transaction.atomic
def round_start(*, round: Round, at: datetime.datetime | None = None) -> Round:
    """Start the round's clock for all tables at once (TSR 8.5.1)."""
    round_ = _locked_round(round, allowed={Round.Status.SEATED}, action=_("started"))
    if round_.tournament.rounds.filter(status=Round.Status.RUNNING).exists():
        raise ValidationError(_("Another round of this tournament is still running."))
    round_.status = Round.Status.RUNNING
    round_.started_at = at or timezone.now()
    round_.save(update_fields=["status", "started_at"])
    tournament = round_.tournament
    if tournament.status == Tournament.Status.PLANNED:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return round_


@transaction.atomic
def round_end(*, round: Round, at: datetime.datetime | None = None) -> Round:
    """Announce the end of the playing time (TSR 8.5.1, 8.5.3): only forced solos follow."""
    round_ = _locked_round(round, allowed={Round.Status.RUNNING}, action=_("ended"))
    ended_at = at or timezone.now()
    if ended_at < round_.started_at:
        raise ValidationError({"ended_at": _("The round cannot end before it started.")})
    round_.status = Round.Status.FINISHED
    round_.ended_at = ended_at
    round_.save(update_fields=["status", "ended_at"])
    return round_


@transaction.atomic
def round_close(*, round: Round) -> Round:
    """Close a round once every table's scoresheet is confirmed (TSR 8.5.2)."""
    round_ = _locked_round(round, allowed={Round.Status.FINISHED}, action=_("closed"))
    open_sheets = Scoresheet.objects.filter(table__round=round_).exclude(
        status=Scoresheet.Status.CONFIRMED
    )
    if open_count := open_sheets.count():
        raise ValidationError(
            ngettext(
                "%(count)d scoresheet is not confirmed yet.",
                "%(count)d scoresheets are not confirmed yet.",
                open_count,
            )
            % {"count": open_count}
        )
    round_.status = Round.Status.CLOSED
    round_.save(update_fields=["status"])
    tournament = round_.tournament
    if round_.number >= tournament.planned_rounds:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
    return round_


@transaction.atomic
def job_start(*, tournament: Tournament, kind: Job.Kind, by: AbstractBaseUser | None) -> Job:
    """Queue a long job; a Celery worker (or, without Redis, this process) runs it after commit."""
    from tournaments.tasks import job_run_task

    job = Job.objects.create(
        tournament=tournament,
        kind=kind,
        language=translation.get_language() or settings.LANGUAGE_CODE,
        created_by=by,
    )
    transaction.on_commit(lambda: job_run_task.delay(str(job.pk)))
    return job


def _build_entry_list(job: Job, progress) -> tuple[str, bytes]:
    entries = list(selectors.entry_list(tournament=job.tournament))
    content = pdf.entry_list_pdf(tournament=job.tournament, entries=entries, progress=progress)
    return f"{job.tournament.slug}-{slugify(_('players'))}.pdf", content


JOB_BUILDERS = {Job.Kind.ENTRY_LIST_PDF: _build_entry_list}


def job_run(*, job_id: str) -> Job | None:
    """Do a queued job and keep its file. Safe to run again: a finished job is left alone, an
    interrupted one (its worker died) starts over.

    Unlike other services this is several short transactions, so that the progress is seen while
    the job runs.
    """
    with transaction.atomic():
        job = Job.objects.select_for_update().select_related("tournament").filter(pk=job_id).first()
        if job is None or job.status == Job.Status.DONE:
            return job
        job.status = Job.Status.RUNNING
        job.attempts += 1
        job.progress = 0
        job.error = ""
        job.started_at = timezone.now()
        job.save(update_fields=["status", "attempts", "progress", "error", "started_at"])

    def progress(percent: int) -> None:
        Job.objects.filter(pk=job.pk).update(progress=percent)

    try:
        with translation.override(job.language):
            filename, content = JOB_BUILDERS[job.kind](job, progress)
    except Exception as error:
        Job.objects.filter(pk=job.pk).update(
            status=Job.Status.FAILED, error=repr(error), finished_at=timezone.now()
        )
        raise
    with transaction.atomic():
        job.file.save(filename, ContentFile(content), save=False)
        job.status = Job.Status.DONE
        job.progress = 100
        job.finished_at = timezone.now()
        job.save(update_fields=["file", "status", "progress", "finished_at"])
    return job
