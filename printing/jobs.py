"""A print job's work: its file built in the job's language and kept on the ``Job``
(``job_run``), by the Celery task that runs it (``job_run_task``) once ``job_enqueue`` handed it
to a worker. The task stands beside the service it runs, not in ``printing/tasks.py``: the
services that queue a job (``printing.services``) import it, and the tasks module imports them
(``tasks.recover_task``)."""

import logging
from collections.abc import Callable

from celery import shared_task
from django.core.files.base import ContentFile
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from doko import standings
from printing.models import Job
from printing.pdf import cards as cards_pdf
from printing.pdf import lists as pdf
from printing.pdf import scoresheets as sheet_pdf
from printing.pdf import slips as slips_pdf
from scoring.selectors import sheet_state
from tournaments import selectors
from tournaments.models import Entry, Round, Seat, Table
from tournaments.roles_history import tablemates
from tournaments.site import is_loopback, link_host
from tournaments.workers import send_or_run

logger = logging.getLogger(__name__)


# A job's builder: its file's name and content, reporting its progress in percent on the way.
Builder = Callable[[Job, pdf.Progress], tuple[str, bytes]]

# What a file of each kind holds, in its name after the tournament's (and the round's).
FILE_WORDS: dict[str, Promise] = {
    Job.Kind.ENTRY_LIST_PDF: gettext_lazy("players"),
    Job.Kind.SEATING_BY_TABLE_PDF: gettext_lazy("tables"),
    Job.Kind.SEATING_ALPHABETICAL_PDF: pgettext_lazy("a file name", "names"),
    Job.Kind.TABLE_CARDS_PDF: pgettext_lazy("a file name", "table cards"),
    Job.Kind.SCORESHEETS_PDF: gettext_lazy("scoresheets"),
    Job.Kind.SEAT_SLIPS_PDF: gettext_lazy("seat slips"),
    Job.Kind.STANDINGS_PDF: gettext_lazy("standings"),
    Job.Kind.ROUND_RESULTS_PDF: gettext_lazy("results"),
    Job.Kind.PERSONAL_CARDS_PDF: gettext_lazy("personal links"),
}


def job_filename(*, job: Job) -> str:
    """The name of a job's file in the active language, every word of it: the tournament, the
    round and the table it names, and what it holds ("pokal-runde-2-platzzettel.pdf").

    Made again when the file is downloaded, in the language of whoever downloads it: the
    stored name is in the language of whoever started the job, and the files of one round,
    started by several people, would otherwise come in several languages."""
    parts = [job.tournament.slug]
    if job.round_id is not None:
        parts += [slugify(_("round")), str(_round(job).number)]
    if job.entry is not None:
        parts.append(str(job.entry.start_number))
    if job.kind == Job.Kind.SCORESHEET_PDF:
        parts += [slugify(_("table")), str(_table(job).number)]
    else:
        parts.append(slugify(str(FILE_WORDS[job.kind])))
    return "-".join(parts) + ".pdf"


def _round(job: Job) -> Round:
    """The round a printout of a round names (the constraint job_round_printout_has_round)."""
    if job.round is None:
        raise ValueError(f"The job {job.pk} ({job.kind}) names no round.")
    return job.round


def _table(job: Job) -> Table:
    """The table a completed scoresheet names (the constraint job_table_only_for_a_scoresheet)."""
    if job.table is None:
        raise ValueError(f"The job {job.pk} ({job.kind}) names no table.")
    return job.table


def _build_entry_list(job: Job, progress: pdf.Progress) -> tuple[str, bytes]:
    entries = list(selectors.entry_list(tournament=job.tournament))
    content = pdf.entry_list_pdf(tournament=job.tournament, entries=entries, progress=progress)
    return job_filename(job=job), content


def _links_warning(job: Job) -> str:
    """The line at the foot of every page of a printout whose links and QR codes point at this
    machine only (decided from ``Job.site_url``, the address actually printed): no phone in the
    hall opens them, and paper cannot be corrected. Empty when the phones can open them."""
    if not job.site_url or not is_loopback(job.site_url):
        return ""
    return _(
        "These links point to %(host)s, which phones in the hall cannot open: set SITE_URL and "
        "print again."
    ) % {"host": link_host(job.site_url)}


def _round_printout(document: Callable[..., bytes]) -> Builder:
    """A builder for one of the printouts of a round's seating: ``document`` is one of the
    ``pdf`` functions of a round's tables (the table cards take ``url_for_table`` too, and the
    warning when its address is this machine only)."""

    def build(job: Job, progress: pdf.Progress) -> tuple[str, bytes]:
        round_ = _round(job)
        tables = selectors.round_tables(round=round_)
        options: dict[str, Callable[[int], str] | str] = {}
        if document is pdf.table_cards_pdf and job.site_url:
            options["url_for_table"] = lambda number: (
                job.site_url.rstrip("/")
                + reverse("scoring:table", args=[job.tournament.slug, round_.number, number])
            )
            options["warning"] = _links_warning(job)
        content = document(
            tournament=job.tournament,
            round_number=round_.number,
            tables=tables,
            progress=progress,
            **options,
        )
        return job_filename(job=job), content

    return build


def _seat_links(job: Job, round_: Round) -> Callable[[selectors.SeatRow], str | None] | None:
    """Each seat's private link to its table's scoresheet, at the address the job was started
    from (``site_url``, which SITE_URL decides when it is set); None without one. Not the
    links of the other seats at a table where whoever started the job plays (None for them):
    he would hold his tablemates' seats (TSR 7.3.2)."""
    if not job.site_url:
        return None
    tokens = dict(Seat.objects.filter(round=round_).values_list("entry_id", "token"))
    withheld = tablemates(
        user_id=job.created_by_id, tournament_id=round_.tournament_id, round_id=round_.pk
    )
    site = job.site_url.rstrip("/")

    def url_for_seat(seat: selectors.SeatRow) -> str | None:
        if seat.entry.pk in withheld:
            return None
        return site + reverse("scoring:sheet-link", args=[tokens[seat.entry.pk]])

    return url_for_seat


def _personal_links(job: Job) -> Callable[[selectors.SeatRow], str] | None:
    """Each seat's player's personal link (``/p/<key>/``), at the address the job was started
    from; None without one."""
    if not job.site_url:
        return None
    site = job.site_url.rstrip("/")
    return lambda seat: site + reverse("registration:personal-link", args=[seat.entry.link_key])


def _linked_per_seat(render: Callable[..., bytes], *, personal: bool = False) -> Builder:
    """A round's printout that carries every seat's private link (``render``: the blank
    scoresheets, the seat slips), and with ``personal`` each player's personal link too."""

    def build(job: Job, progress: pdf.Progress) -> tuple[str, bytes]:
        round_ = _round(job)
        options = {"personal_url": _personal_links(job)} if personal else {}
        content = render(
            tournament=job.tournament,
            round_number=round_.number,
            tables=selectors.round_tables(round=round_),
            url_for_seat=_seat_links(job, round_),
            warning=_links_warning(job),
            progress=progress,
            **options,
        )
        return job_filename(job=job), content

    return build


# Blank scoresheets for every table, each with its scorekeeper's link; a slip for every player,
# each with his own.
_build_scoresheets = _linked_per_seat(sheet_pdf.blank_scoresheets_pdf)
_build_seat_slips = _linked_per_seat(slips_pdf.seat_slips_pdf, personal=True)


def _build_scoresheet(job: Job, progress: pdf.Progress) -> tuple[str, bytes]:
    """The completed scoresheet of one table, as it stands (for the archive: as confirmed)."""
    table = _table(job)
    state = sheet_state(sheet=table.scoresheet)
    content = sheet_pdf.scoresheet_pdf(
        scoresheet=state.sheet,
        seats=state.seats,
        rows=state.rows,
        adjudication=state.adjudication,
        extra_times=list(table.extra_times.select_related("granted_by").order_by("granted_at")),
        progress=progress,
    )
    return job_filename(job=job), content


def _build_standings(job: Job, progress: pdf.Progress) -> tuple[str, bytes]:
    """The standings as last rebuilt (never computed from the results here); before the first
    rebuild, every player with no points yet."""
    tournament = job.tournament
    table = selectors.standings_read(tournament=tournament)
    if table is None:
        table = standings.standings(
            entrants=selectors.standings_entrants(tournament=tournament),
            results=[],
            tiebreaks=selectors.tiebreaks_of(tournament),
        )
    content = pdf.standings_pdf(
        tournament=tournament,
        standings=table,
        progress=progress,
        as_of=table.built_at,
        ddv_numbers=selectors.ddv_numbers(tournament=tournament),
        clubs=selectors.club_ranking_of(tournament=tournament, table=table),
    )
    return job_filename(job=job), content


def _build_round_results(job: Job, progress: pdf.Progress) -> tuple[str, bytes]:
    """The results of the round table by table, confirmed or not (TSR 8.5.2)."""
    round_ = _round(job)
    tables = selectors.round_results(round=round_)
    content = pdf.round_results_pdf(
        tournament=job.tournament, round=round_, tables=tables, progress=progress
    )
    return job_filename(job=job), content


def _build_personal_cards(job: Job, progress: pdf.Progress) -> tuple[str, bytes]:
    """A card with the personal link for every active player (withdrawn and disqualified ones
    get none: their link is no use to them on the day), or for the one the job names."""
    entries = selectors.entry_list(tournament=job.tournament).filter(status=Entry.Status.ACTIVE)
    if job.entry_id is not None:
        entries = entries.filter(pk=job.entry_id)
    site = job.site_url.rstrip("/")
    content = cards_pdf.personal_cards_pdf(
        tournament=job.tournament,
        entries=list(entries),
        url_for_entry=lambda entry: (
            site + reverse("registration:personal-link", args=[entry.link_key])
        ),
        warning=_links_warning(job),
        progress=progress,
    )
    return job_filename(job=job), content


# By the kind as stored (a str; a Job.Kind is one too, and equal to it).
JOB_BUILDERS: dict[str, Builder] = {
    Job.Kind.ENTRY_LIST_PDF: _build_entry_list,
    Job.Kind.SEATING_BY_TABLE_PDF: _round_printout(pdf.seating_by_table_pdf),
    Job.Kind.SEATING_ALPHABETICAL_PDF: _round_printout(pdf.seating_alphabetical_pdf),
    Job.Kind.TABLE_CARDS_PDF: _round_printout(pdf.table_cards_pdf),
    Job.Kind.SCORESHEETS_PDF: _build_scoresheets,
    Job.Kind.SEAT_SLIPS_PDF: _build_seat_slips,
    Job.Kind.SCORESHEET_PDF: _build_scoresheet,
    Job.Kind.STANDINGS_PDF: _build_standings,
    Job.Kind.ROUND_RESULTS_PDF: _build_round_results,
    Job.Kind.PERSONAL_CARDS_PDF: _build_personal_cards,
}


def job_run(*, job_id: str) -> Job | None:
    """Do a queued job and keep its file. Safe to run again: a finished job is left alone, an
    interrupted one (its worker died) starts over.

    Unlike other services this is several short transactions, so that the progress is seen while
    the job runs.
    """
    with transaction.atomic():
        job = (
            Job.objects.select_for_update(of=("self",))
            .select_related("tournament", "round__tournament", "table", "entry")
            .filter(pk=job_id)
            .first()
        )
        if job is None or job.status == Job.Status.DONE:
            return job
        job.status = Job.Status.RUNNING
        job.attempts += 1
        job.progress = 0
        job.error = ""
        job.started_at = timezone.now()
        job.save(
            update_fields=["status", "attempts", "progress", "error", "started_at", "updated_at"]
        )

    def progress(percent: int) -> None:
        # updated_at too (update() skips auto_now): it tells jobs_recover the job is alive.
        Job.objects.filter(pk=job.pk).update(progress=percent, updated_at=timezone.now())

    try:
        with translation.override(job.language):
            filename, content = JOB_BUILDERS[job.kind](job, progress)
    except Exception as error:
        now = timezone.now()
        Job.objects.filter(pk=job.pk).update(
            status=Job.Status.FAILED, error=repr(error), finished_at=now, updated_at=now
        )
        raise
    with transaction.atomic():
        job.file.save(filename, ContentFile(content), save=False)
        job.status = Job.Status.DONE
        job.progress = 100
        job.finished_at = timezone.now()
        job.save(update_fields=["file", "status", "progress", "finished_at", "updated_at"])
    return job


# The name is the one the task had in the tournaments app: tasks queued in Redis before a
# deploy still find it.
@shared_task(name="tournaments.job_run", acks_late=True, reject_on_worker_lost=True)
def job_run_task(job_id: str) -> None:
    """Run a queued job (see ``job_run``); a redelivered task is harmless."""
    job_run(job_id=job_id)


def job_enqueue(job_id: str) -> None:
    """Hand a job to a worker, or run it here if the broker cannot be reached.

    Run here rather than left queued for ``services.jobs_recover``: someone is waiting for the
    printout (the table cards before a round), the recovery runs only once a minute (beat)
    and could not reach the broker either while it is down, and running in-process is what this
    project does without Redis anyway. The price, only while the broker is down, is a request
    that takes as long as the job. A job that fails here is marked failed with its error (its
    page says so); the request that queued it has committed and does not fail with it.
    """
    try:
        send_or_run(job_run_task, job_id)
    except Exception:
        logger.exception("Job %s could not be sent, and failed in-process.", job_id)
