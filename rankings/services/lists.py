"""The ranking lists (the DDV's Rangliste): made or changed, and rebuilt by a Celery worker after
commit (``ranking_schedule``) from the finished tournaments they admitted.

The rebuild's Celery task stands here, beside the service it runs and the one that queues it
(a module of tasks importing the services, which queue its tasks, would be a circle). The
tournaments app, below this one, asks for the rebuild through ``tournaments.ranked``
(``rankings.hooks``): when a tournament finishes, its results or ranked settings change."""

import datetime

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from doko import standings
from rankings.models import RankingList
from rankings.selectors import ranking_rounds, tournaments_ranked
from tournaments import workers
from tournaments.models import Tournament
from tournaments.services.common import save_validated


# Its name is the one it had in the tournaments app, so that a rebuild queued before the move runs.
@shared_task(name="tournaments.ranking_rebuild", acks_late=True, reject_on_worker_lost=True)
def ranking_rebuild_task() -> None:
    """Rebuild the ranking lists after a tournament finished."""
    rankings_rebuild()


def ranking_schedule() -> None:
    """Rebuild every ranking list after commit (a tournament finished or changed)."""
    transaction.on_commit(lambda: workers.send_or_run(ranking_rebuild_task))


def ranking_schedule_if_ranked(*, tournament: Tournament) -> None:
    """Rebuild the ranking lists after commit if one counts this tournament (admitted, it
    finished again, its results changed, or it came back from a backup)."""
    if tournaments_ranked().filter(pk=tournament.pk).exists():
        ranking_schedule()


def ranking_rebuild(
    *, ranking_list: RankingList, today: datetime.date | None = None
) -> RankingList:
    """Rank the players by their average per round over the list's months (the DDV's
    Rangliste), from the confirmed rounds of the finished tournaments its maintainers admitted,
    as they are now (``tournaments_ranked``)."""
    today = today or timezone.localdate()
    rows = standings.ranking(
        played=ranking_rounds(
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
    tournament_official_only: bool | None = None,
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
        "tournament_official_only": tournament_official_only,
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
