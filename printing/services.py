"""Printouts as background jobs: started here, and queued again when lost on the way; run by a
Celery worker (``printing.jobs``), with their progress and file kept on the ``Job``."""

import datetime
import functools

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone, translation

from printing.jobs import job_enqueue
from printing.models import Job
from scoring import policies as scoring_policies
from scoring.models import Scoresheet
from scoring.policies import Actor
from tournaments import policies
from tournaments import selectors as tournament_selectors
from tournaments.models import (
    Entry,
    Round,
    Table,
    Tournament,
)
from tournaments.policies import enforce
from tournaments.roles_history import plays_in, tablemates
from tournaments.services.common import save_validated
from tournaments.services.standings import standings_recover


@transaction.atomic
def job_start(
    *,
    tournament: Tournament,
    kind: Job.Kind,
    by: User | None,
    round: Round | None = None,
    table: Table | None = None,
    entry: Entry | None = None,
    site_url: str = "",
) -> Job:
    """Queue a long job; a Celery worker (or, without Redis or while it is down, this process)
    runs it after commit (``jobs.job_enqueue``).

    Printouts of a round name the round, a table's completed scoresheet names the table too,
    one player's personal link card the player (``entry``); ``site_url`` is where links
    printed in it point. Who prints links must be a second person to the seats they open
    (``_links_check``), and a blind first entry is printed for its typist only.
    """
    if by is not None:
        _links_check(tournament=tournament, kind=kind, entry=entry, by=by)
        if kind == Job.Kind.SCORESHEET_PDF and table is not None:
            _blind_check(table=table, by=by)
    job = save_validated(
        Job(
            tournament=tournament,
            round=round,
            table=table,
            entry=entry,
            kind=kind,
            language=translation.get_language() or settings.LANGUAGE_CODE,
            site_url=site_url,
            created_by=by,
        )
    )
    transaction.on_commit(lambda: job_enqueue(str(job.pk)))
    return job


def _links_check(*, tournament: Tournament, kind: str, entry: Entry | None, by: User) -> None:
    """Every player's personal link (the cards, the seat slips) is printed by an organiser who
    does not play; one player's card by one who does not play with him (TSR 7.3.2:
    ``tournaments.policies.may_print_every_link``, ``may_read_personal_link``)."""
    roles = tournament_selectors.user_roles(user=by, tournament=tournament)
    if kind == Job.Kind.PERSONAL_CARDS_PDF and entry is not None:
        mates = tablemates(user_id=by.pk, tournament_id=tournament.pk)
        enforce(policies.may_read_personal_link(entry=entry, roles=roles, tablemates=mates))
    elif kind in {Job.Kind.PERSONAL_CARDS_PDF, Job.Kind.SEAT_SLIPS_PDF}:
        plays = plays_in(user_id=by.pk, tournament_id=tournament.pk)
        enforce(policies.may_print_every_link(roles=roles, plays=plays))


def _blind_check(*, table: Table, by: User) -> None:
    """A sheet checked blind at the desk (double entry) is printed for who typed it, or who
    opened it since (recorded: ``scoring.policies.first_entry_hidden``)."""
    sheet = Scoresheet.objects.select_related("table__round__tournament").get(table=table)
    enforce(scoring_policies.first_entry_hidden(sheet=sheet, actor=Actor(user=by)))


def jobs_recover(*, older_than: datetime.timedelta) -> list[str]:
    """Queue again the jobs that were lost on the way: running without progress for longer than
    ``older_than`` (their worker died, and the broker keeps the unacknowledged message hidden for
    its visibility timeout, an hour with Redis), or queued that long and never taken (the message
    was lost, e.g. Redis restarted without saving). Returns their ids.

    ``job_run`` starts such a job over; one that was only slow and still finishes is left done.
    ``older_than`` must be longer than a job's longest step between two progress updates and than
    the usual wait in the queue, or a job runs twice. Safe to run often (from cron): a job queued
    again counts as updated now, so the next run leaves it alone for ``older_than``.
    """
    now = timezone.now()
    with transaction.atomic():
        # Locked, so two recoveries at once queue a job once: the second waits and then finds
        # the row updated.
        ids = [
            str(pk)
            for pk in Job.objects.select_for_update()
            .filter(
                status__in=[Job.Status.QUEUED, Job.Status.RUNNING], updated_at__lt=now - older_than
            )
            .order_by("created_at")
            .values_list("pk", flat=True)
        ]
        Job.objects.filter(pk__in=ids).update(status=Job.Status.QUEUED, updated_at=now)
        for job_id in ids:
            transaction.on_commit(functools.partial(job_enqueue, job_id))
    return ids


def work_recover(
    *,
    jobs_older_than: datetime.timedelta | None = None,
    standings_older_than: datetime.timedelta | None = None,
) -> tuple[list[str], list[int]]:
    """Queue again what a dead worker or a lost message left undone: the print jobs
    (``jobs_recover``) and the standings' rebuilds (``tournaments.services.standings.standings_recover``).
    The one recovery, run every minute by Celery beat (``tasks.recover_task``) and by
    ``manage.py recover``. Returns the jobs' and the tournaments' ids."""
    jobs = jobs_recover(
        older_than=jobs_older_than or datetime.timedelta(minutes=settings.RECOVER_JOBS_MINUTES)
    )
    tournaments = standings_recover(
        older_than=standings_older_than
        or datetime.timedelta(seconds=settings.RECOVER_STANDINGS_SECONDS)
    )
    return jobs, tournaments
