"""The standings (TSR 8.5.2): rebuilt from the results by a Celery worker once a change commits
(``standings_schedule``), and queued again when a rebuild was lost (``standings_recover``).

The rebuild's Celery task stands here, beside the service it runs and the one that queues it,
not in ``tournaments/tasks.py``: that module, run by a worker, imports the services it runs, and
this one, queueing the task, would import it back (a circle). The same holds for the ranking
lists (``services.ranking_lists``), whose rebuild this one queues."""

import contextlib
import datetime
import functools
import gc
from collections.abc import Iterator

from celery import shared_task
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from doko import standings
from tournaments import selectors, workers
from tournaments.models import StandingsSnapshot, StandingsWanted, Tournament
from tournaments.services.ranking_lists import ranking_schedule_if_ranked


@shared_task(name="tournaments.standings_rebuild", acks_late=True, reject_on_worker_lost=True)
def standings_rebuild_task(tournament_id: int) -> None:
    """Rebuild a tournament's standings after a change; running it twice is harmless."""
    standings_rebuild(tournament_id=tournament_id)


def standings_schedule(*, tournament_id: int) -> None:
    """Rebuild the tournament's standings once the current transaction commits: in a Celery
    worker, or here if the broker cannot be reached (a confirm never fails for want of it).
    The want is written in the transaction itself (``StandingsWanted``), so that a rebuild
    lost on the way (its worker died, its message was lost) is queued again by
    ``standings_recover``, and a change rolled back wants nothing."""
    StandingsWanted.objects.create(tournament_id=tournament_id)
    transaction.on_commit(lambda: workers.send_or_run(standings_rebuild_task, tournament_id))


def standings_recover(*, older_than: datetime.timedelta) -> list[int]:
    """Queue again the rebuilds of standings that were lost on the way: a tournament whose
    change wanted new standings longer than ``older_than`` ago and that no rebuild has made
    since (``StandingsWanted``). Returns the tournaments' ids.

    A tournament being rebuilt right now (its row locked by ``standings_rebuild``) is left
    alone: that rebuild does what was wanted before it began. Each want queued again counts as
    wanted now, so the next run leaves it alone for ``older_than``: safe to run every minute
    (``printing.services.work_recover``)."""
    now = timezone.now()
    with transaction.atomic():
        late = StandingsWanted.objects.filter(wanted_at__lt=now - older_than)
        ids = list(
            Tournament.objects.select_for_update(no_key=True, skip_locked=True)
            .filter(pk__in=late.values("tournament_id"))
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        StandingsWanted.objects.filter(tournament_id__in=ids).update(wanted_at=now)
        for tournament_id in ids:
            transaction.on_commit(
                functools.partial(workers.send_or_run, standings_rebuild_task, tournament_id)
            )
    return ids


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused: a rebuild makes some 50,000 objects (no cycles among
    them) for 2,000 players × 10 rounds, which would set off several full collections of
    everything the process holds, a quarter of the rebuild's time (bench/standings.py)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def standings_rebuild(*, tournament_id: int) -> StandingsSnapshot | None:
    """Compute the standings from the results and store them (``StandingsSnapshot``) with a new
    version, which names them in the cache and in ETags. Rebuilds of one tournament take turns
    (the tournament's row is locked), and each reads what is committed when its turn comes."""
    with transaction.atomic(), _collector_paused():
        # No key update: the changes that want a rebuild meanwhile insert their want (a row
        # that refers to this one) without waiting for this rebuild.
        tournament = (
            Tournament.objects.select_for_update(no_key=True).filter(pk=tournament_id).first()
        )
        if tournament is None:  # deleted since the rebuild was queued
            return None
        # What was wanted until now is done by this rebuild, which reads the results after it
        # (each read sees what was committed before it began); later wants stay for theirs.
        done = StandingsWanted.objects.filter(tournament=tournament).aggregate(last=Max("pk"))
        computed = standings.standings(
            entrants=selectors.standings_entrants(tournament=tournament),
            results=selectors.standings_results(tournament=tournament),
            tiebreaks=selectors.tiebreaks_of(tournament),
            built_at=timezone.now(),
        )
        version = tournament.standings_version + 1
        packed = computed.pack()
        fields = {"version": version, "built_at": computed.built_at, "packed": packed}
        # A plain UPDATE: update_or_create would first read the old standings.
        if not StandingsSnapshot.objects.filter(tournament=tournament).update(**fields):
            StandingsSnapshot.objects.create(tournament=tournament, **fields)
        Tournament.objects.filter(pk=tournament.pk).update(standings_version=version)
        if done["last"] is not None:
            StandingsWanted.objects.filter(tournament=tournament, pk__lte=done["last"]).delete()
    if tournament.status == Tournament.Status.FINISHED:
        # A result changed after the end (a sheet reopened, a panel's decision): the lists
        # that admitted the tournament count its results as they are now.
        ranking_schedule_if_ranked(tournament=tournament)
    selectors.tournament_head_forget(slug=tournament.slug)
    selectors.standings_cache_put(
        tournament_id=tournament_id, version=version, packed=packed, value=computed
    )
    return StandingsSnapshot(tournament=tournament, **fields)
