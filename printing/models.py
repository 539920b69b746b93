"""Printouts made in the background: a ``Job`` is one document (a PDF) built by a Celery
worker, with its progress and, when done, its file.

The model was the tournaments app's; it moved here with its table (migrations
``tournaments 0014`` and ``printing 0001``, which change Django's state only, then
``printing 0002``, which renames the table), so no job and no file was lost.
"""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.constraints import OneQueryChecks
from tournaments.models import Entry, Round, Table, Tournament


def job_upload_to(job: "Job", filename: str) -> str:
    return f"jobs/{job.pk}/{filename}"


class Job(OneQueryChecks):
    """A long piece of work (a PDF, an export) done by a Celery worker, with its progress.

    The id is a random UUID, so a job's page and download cannot be guessed from another's.
    """

    class Kind(models.TextChoices):
        ENTRY_LIST_PDF = "entry_list_pdf", _("list of players (PDF)")
        SEATING_BY_TABLE_PDF = "seating_by_table_pdf", _("seating by table (PDF)")
        SEATING_ALPHABETICAL_PDF = "seating_alphabetical_pdf", _("seating by name (PDF)")
        TABLE_CARDS_PDF = "table_cards_pdf", _("table cards (PDF)")
        SCORESHEETS_PDF = "scoresheets_pdf", _("blank scoresheets (PDF)")
        SEAT_SLIPS_PDF = "seat_slips_pdf", _("seat slips (PDF)")
        SCORESHEET_PDF = "scoresheet_pdf", _("completed scoresheet (PDF)")
        STANDINGS_PDF = "standings_pdf", _("standings (PDF)")
        ROUND_RESULTS_PDF = "round_results_pdf", _("results of the round (PDF)")
        PERSONAL_CARDS_PDF = "personal_cards_pdf", _("cards with the personal links (PDF)")

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="jobs", verbose_name=_("tournament")
    )
    # Printouts of one round name it; a job about the whole tournament does not.
    round = models.ForeignKey(
        Round,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="jobs",
        verbose_name=_("round"),
    )
    # The completed scoresheet of one table names the table.
    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="jobs",
        verbose_name=_("table"),
    )
    # The personal link cards of one player (a lost card, a link replaced) name the player.
    entry = models.ForeignKey(
        Entry,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("kind"), max_length=32, choices=Kind.choices)
    # The language of the person who asked for it: the document is written in it.
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    # The address the site was reached at, for links and QR codes printed in the document.
    site_url = models.CharField(_("site address"), max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.QUEUED
    )
    progress = models.PositiveSmallIntegerField(_("progress (%)"), default=0)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    error = models.TextField(_("error"), blank=True)
    file = models.FileField(_("file"), upload_to=job_upload_to, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("started by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # The last sign of life: every change of the row, each progress step included. A running job
    # that has not moved for long lost its worker (services.jobs_recover).
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("job")
        verbose_name_plural = _("jobs")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="job_progress_percent"),
            models.CheckConstraint(
                condition=~Q(status="done") | ~Q(file=""), name="job_done_has_file"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["entry_list_pdf", "standings_pdf", "personal_cards_pdf"])
                | Q(round__isnull=False),
                name="job_round_printout_has_round",
            ),
            models.CheckConstraint(
                condition=Q(kind="scoresheet_pdf", table__isnull=False)
                | (~Q(kind="scoresheet_pdf") & Q(table__isnull=True)),
                name="job_table_only_for_a_scoresheet",
            ),
            models.CheckConstraint(
                condition=Q(entry__isnull=True) | Q(kind="personal_cards_pdf"),
                name="job_entry_only_for_personal_cards",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.get_status_display()})"
