"""The standings (TSR 8.5.2): rebuilt from the results by a Celery worker once a change commits
(``standings_schedule``), and queued again when a rebuild was lost (``standings_recover``).

The rebuild's Celery task stands here, beside the service it runs and the one that queues it,
not in ``tournaments/tasks.py``: that module, run by a worker, imports the services it runs, and
this one, queueing the task, would import it back (a circle). A rebuild tells the apps above
that count finished tournaments (the ranking lists) through ``tournaments.ranked``."""

import contextlib
import datetime
import functools
import gc
from collections.abc import Collection, Iterator
from typing import cast

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from doko import standings
from tournaments import prepared, ranked, selectors, workers
from tournaments.after_response import after_response
from tournaments.models import StandingsSnapshot, StandingsWanted, Tournament
from tournaments.standings_html import standings_tables_prepare


@shared_task(name="tournaments.standings_rebuild", acks_late=True, reject_on_worker_lost=True)
def standings_rebuild_task(tournament_id: int) -> None:
    """Rebuild a tournament's standings after a change; running it twice is harmless. Where a
    worker rebuilds them (Celery not eager), it makes the first page of their table for the
    phones too (``standings_tables_prepare``), unless a change wanted new standings meanwhile:
    their rebuild follows and makes it, and a version that goes before a phone asks for it
    is made for nobody (the round's last hand-ins and confirmations come within seconds of
    each other). In the web process, where Celery runs eagerly, the first phone to ask makes
    it, as before."""
    snapshot = standings_rebuild(tournament_id=tournament_id)
    if snapshot is None or settings.CELERY_TASK_ALWAYS_EAGER:
        return
    if not StandingsWanted.objects.filter(tournament_id=tournament_id).exists():
        standings_tables_prepare(slug=snapshot.tournament.slug)


# More tables changed at once than this (a whole round, a repair): the rebuild reads every
# result, as quick as reading those of so many players.
_TABLES_TOLD = 20


def standings_schedule(*, tournament_id: int, table_ids: Collection[int] = ()) -> None:
    """Rebuild the tournament's standings once the current transaction commits: in a Celery
    worker, or here if the broker cannot be reached (a confirm never fails for want of it).
    The want is written in the transaction itself (``StandingsWanted``), so that a rebuild
    lost on the way (its worker died, its message was lost) is queued again by
    ``standings_recover``, and a change rolled back wants nothing.

    ``table_ids``: only these tables' results changed (``results_refresh``), so the rebuild
    may read just their players' results; none given, anything may have changed."""
    prepared.run(standings_wanting(tournament_id=tournament_id, table_ids=table_ids))


def standings_wanting(*, tournament_id: int, table_ids: Collection[int] = ()) -> prepared.Step:
    """``standings_schedule``, its want written by the step it returns, which the caller runs
    with its own writes (``prepared.run``) in the same transaction."""
    transaction.on_commit(lambda: _rebuild_queued(tournament_id))
    if table_ids and len(table_ids) <= _TABLES_TOLD:
        return prepared.inserting(
            [StandingsWanted(tournament_id=tournament_id, table_pk=pk) for pk in table_ids]
        )
    return prepared.inserting([StandingsWanted(tournament_id=tournament_id)])


def _rebuild_queued(tournament_id: int) -> None:
    """Queue the rebuild to a worker once the answer has gone (``after_response``): queueing
    costs the request a round trip to the broker and the message's making, and the worker
    begins within milliseconds either way; a send lost with the process is queued again by
    ``standings_recover``. Where no broker runs (Celery eager), the rebuild itself runs here,
    as before the answer: the page that follows shows the standings it made."""
    send = functools.partial(workers.send_or_run, standings_rebuild_task, tournament_id)
    if settings.CELERY_TASK_ALWAYS_EAGER:
        send()
    else:
        after_response(send)


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
    (the tournament's row is locked), and each reads what is committed when its turn comes.

    Where every change wanted since the last rebuild named its tables (a confirm), and this
    process built the standings of the current version, only those tables' players' results
    are read and their rows computed again (``standings.updated``: the same standings as from
    all the results, tests/doko/test_standings.py); else every result is read."""
    with transaction.atomic(), _collector_paused():
        # No key update: the changes that want a rebuild meanwhile insert their want (a row
        # that refers to this one) without waiting for this rebuild.
        tournament = (
            Tournament.objects.select_for_update(no_key=True).filter(pk=tournament_id).first()
        )
        if tournament is None:  # deleted since the rebuild was queued
            return None
        # What was wanted until now is done by this rebuild, which reads the results after it
        # (each read sees what was committed before it began); later wants stay for theirs,
        # and so does one committed meanwhile with an earlier id.
        wanted = list(
            StandingsWanted.objects.filter(tournament=tournament).values_list("pk", "table_pk")
        )
        entrants = selectors.standings_entrants(tournament=tournament)
        tiebreaks = selectors.tiebreaks_of(tournament)
        built_at = timezone.now()
        computed, written = _updated(tournament, wanted, entrants, tiebreaks, built_at)
        if computed is None:
            computed = standings.standings(
                entrants=entrants,
                results=selectors.standings_results(tournament=tournament),
                tiebreaks=tiebreaks,
                built_at=built_at,
            )
        version = tournament.standings_version + 1
        packed = computed.pack(written)
        fields = {"version": version, "built_at": computed.built_at, "packed": packed}
        # A plain UPDATE: update_or_create would first read the old standings.
        if not StandingsSnapshot.objects.filter(tournament=tournament).update(**fields):
            StandingsSnapshot.objects.create(tournament=tournament, **fields)
        Tournament.objects.filter(pk=tournament.pk).update(standings_version=version)
        if wanted:
            StandingsWanted.objects.filter(pk__in=[pk for pk, _table in wanted]).delete()
    if tournament.status == Tournament.Status.FINISHED:
        # A result changed after the end (a sheet reopened, a panel's decision): the lists
        # that admitted the tournament count its results as they are now.
        ranked.tournament_changed(tournament=tournament)
    selectors.tournament_head_forget(slug=tournament.slug)
    selectors.standings_cache_put(
        tournament_id=tournament_id,
        version=version,
        packed=packed,
        value=computed,
        written=written,
    )
    return StandingsSnapshot(tournament=tournament, **fields)


def _updated(
    tournament: Tournament,
    wanted: list[tuple[int, int | None]],
    entrants: list[standings.Entrant],
    tiebreaks: tuple[standings.Tiebreak, ...],
    built_at: datetime.datetime,
) -> tuple[standings.Standings | None, dict]:
    """The standings from the previous ones and the results of the tables the wants name,
    and the rows' JSON to pack them with; (None, {}) where they cannot be had so: a want
    names no table (or none was wanted: a rebuild asked for by hand), this process has not
    got the previous standings, or a table is gone. A count of the results checks that none
    came or went but at those tables."""
    table_ids = {table for _pk, table in wanted}
    if not table_ids or None in table_ids:
        return None, {}
    previous = selectors.standings_previous(tournament=tournament)
    if previous is None:
        return None, {}
    base, written = previous
    found = selectors.standings_changed_results(
        tournament=tournament, previous=base, table_ids=cast(set[int], table_ids)
    )
    if found is None:
        return None, {}
    changed, results = found
    computed = standings.updated(
        base,
        entrants=entrants,
        changed=changed,
        results=results,
        tiebreaks=tiebreaks,
        built_at=built_at,
    )
    cells = sum(len(row.results) - row.results.count(None) for row in computed.rows)
    if cells != selectors.standings_results_count(tournament=tournament):
        return None, {}
    return computed, written if written is not None else {}
