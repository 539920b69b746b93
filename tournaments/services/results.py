"""Writes for results, standings and ranking lists: the seats' results as the handed-in sheets
and the adjudication give them (``tournaments.play``), the standings rebuilt from them
(TSR 8.5.2), the ranking lists."""

import contextlib
import datetime
import functools
import gc
from collections.abc import Collection, Iterator

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from doko import standings
from tournaments import play, selectors
from tournaments.models import (
    RankingList,
    SeatResult,
    StandingsSnapshot,
    StandingsWanted,
    Table,
    Tournament,
)
from tournaments.services.common import save_validated


@transaction.atomic
def results_refresh(*, tables: Collection[Table]) -> int:
    """Rewrite the results of these tables from their sheets and the adjudication; the
    standings are rebuilt after commit if anything changed. Called by every service that
    changes what a handed-in sheet counts. Returns the number of results written."""
    ids = [table.pk for table in tables]
    if not ids:
        return 0
    deleted, _counts = SeatResult.objects.filter(table_id__in=ids).delete()
    results = play.recorded().results(tables=Table.objects.filter(pk__in=ids))
    SeatResult.objects.bulk_create(results)
    if deleted or results:
        for tournament_id in set(
            Table.objects.filter(pk__in=ids).values_list("round__tournament_id", flat=True)
        ):
            standings_schedule(tournament_id=tournament_id)
    return len(results)


def results_refresh_all(*, tournament: Tournament) -> int:
    """Rewrite every result of a tournament (after an import, or to repair)."""
    return results_refresh(tables=list(Table.objects.filter(round__tournament=tournament)))


def standings_schedule(*, tournament_id: int) -> None:
    """Rebuild the tournament's standings once the current transaction commits: in a Celery
    worker, or here if the broker cannot be reached (a confirm never fails for want of it).
    The want is written in the transaction itself (``StandingsWanted``), so that a rebuild
    lost on the way (its worker died, its message was lost) is queued again by
    ``standings_recover``, and a change rolled back wants nothing."""
    from tournaments.tasks import send_or_run, standings_rebuild_task

    StandingsWanted.objects.create(tournament_id=tournament_id)
    transaction.on_commit(lambda: send_or_run(standings_rebuild_task, tournament_id))


def standings_recover(*, older_than: datetime.timedelta) -> list[int]:
    """Queue again the rebuilds of standings that were lost on the way: a tournament whose
    change wanted new standings longer than ``older_than`` ago and that no rebuild has made
    since (``StandingsWanted``). Returns the tournaments' ids.

    A tournament being rebuilt right now (its row locked by ``standings_rebuild``) is left
    alone: that rebuild does what was wanted before it began. Each want queued again counts as
    wanted now, so the next run leaves it alone for ``older_than``: safe to run every minute
    (``printing.services.work_recover``)."""
    from tournaments.tasks import send_or_run, standings_rebuild_task

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
                functools.partial(send_or_run, standings_rebuild_task, tournament_id)
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


# The settings of a finished tournament that decide whether, and when, the ranking lists count
# it (``selectors.tournaments_ranked``): a change to any of them rebuilds the lists, so that a
# tournament hidden later drops out of them. ``counts_for_ranking`` stays the organiser's own
# switch beside the lists' admissions: off, the tournament counts for no list.
RANKING_SETTINGS = frozenset({"ends_on", "counts_for_ranking", "is_public", "standings_public"})


def ranking_schedule() -> None:
    """Rebuild every ranking list after commit (a tournament finished or changed)."""
    from tournaments.tasks import ranking_rebuild_task, send_or_run

    transaction.on_commit(lambda: send_or_run(ranking_rebuild_task))


def ranking_schedule_if_ranked(*, tournament: Tournament) -> None:
    """Rebuild the ranking lists after commit if one counts this tournament (admitted, it
    finished again, its results changed, or it came back from a backup)."""
    if selectors.tournaments_ranked().filter(pk=tournament.pk).exists():
        ranking_schedule()


def ranking_rebuild(
    *, ranking_list: RankingList, today: datetime.date | None = None
) -> RankingList:
    """Rank the players by their average per round over the list's months (the DDV's
    Rangliste), from the confirmed rounds of the finished tournaments its maintainers admitted,
    as they are now (``selectors.tournaments_ranked``)."""
    today = today or timezone.localdate()
    rows = standings.ranking(
        played=selectors.ranking_rounds(
            ranking_list=ranking_list,
            since=standings.months_before(today, ranking_list.months),
            until=today,
        ),
        today=today,
        months=ranking_list.months,
        min_rounds=ranking_list.min_rounds,
    )
    with transaction.atomic():
        locked = RankingList.objects.select_for_update().get(pk=ranking_list.pk)
        locked.data = [[row.rank, row.player_id, row.rounds, row.points] for row in rows]
        locked.version += 1
        locked.built_at = timezone.now()
        locked.built_for = today
        locked.save(update_fields=["data", "version", "built_at", "built_for"])
    return locked


@transaction.atomic
def ranking_list_save(
    *,
    name: str,
    slug: str,
    months: int = 24,
    min_rounds: int = 36,
    is_public: bool = True,
    tournament_min_players: int | None = None,
    tournament_min_rounds: int | None = None,
    tournament_tables_of_four_only: bool | None = None,
    ranking_list: RankingList | None = None,
) -> RankingList:
    """Create a ranking list, or change one; it is rebuilt after commit. The criteria of a
    tournament (``tournament_*``) not given: as they are, or the model's defaults. Its
    maintainers are appointed apart (``ranking_maintainer_add``)."""
    ranking_list = ranking_list or RankingList()
    ranking_list.name = name.strip()
    ranking_list.slug = slug
    ranking_list.months = months
    ranking_list.min_rounds = min_rounds
    ranking_list.is_public = is_public
    criteria = {
        "tournament_min_players": tournament_min_players,
        "tournament_min_rounds": tournament_min_rounds,
        "tournament_tables_of_four_only": tournament_tables_of_four_only,
    }
    for field, value in criteria.items():
        if value is not None:
            setattr(ranking_list, field, value)
    save_validated(ranking_list)
    ranking_schedule()
    return ranking_list


def rankings_rebuild(*, today: datetime.date | None = None) -> list[RankingList]:
    """Rebuild every ranking list."""
    return [ranking_rebuild(ranking_list=r, today=today) for r in RankingList.objects.all()]
