"""Reads of printouts."""

from django.shortcuts import get_object_or_404

from printing.models import Job
from tournaments.models import Round


def round_jobs(*, round: Round, limit: int = 6) -> list[Job]:
    """The latest printouts of a round."""
    return list(round.jobs.order_by("-created_at")[:limit])


def job_get(*, pk) -> Job:
    """A job with its tournament, round, table and player (404 if there is none)."""
    return get_object_or_404(
        Job.objects.select_related("tournament", "round", "table", "entry"), pk=pk
    )
