"""Writes for results: the seats' results as the handed-in sheets and the adjudication give
them (``tournaments.play``); the standings are rebuilt from them (``services.standings``)."""

from collections.abc import Collection, Sequence

from django.db import transaction

from tournaments import play, prepared
from tournaments.models import SeatResult, Table, Tournament
from tournaments.services.standings import standings_schedule, standings_wanting


# Within a caller's transaction (a sheet's write) no savepoint of its own: nothing catches its
# failure to carry on, so the caller's transaction goes back whole, and two queries are saved.
@transaction.atomic(savepoint=False)
def results_refresh(*, tables: Collection[Table]) -> int:
    """Rewrite the results of these tables from their sheets and the adjudication; the
    standings are rebuilt after commit if anything changed. Called by every service that
    changes what a handed-in sheet counts. Returns the number of results written."""
    ids = [table.pk for table in tables]
    if not ids:
        return 0
    deleted, _counts = SeatResult.objects.filter(table_id__in=ids).delete()
    results = play.recorded().results(tables=Table.objects.filter(pk__in=ids))
    prepared.insert(results)
    if deleted or results:
        for tournament_id in _tournaments_of(tables, ids):
            standings_schedule(tournament_id=tournament_id, table_ids=ids)
    return len(results)


def results_writing(
    *, tables: Collection[Table], results: Sequence[SeatResult]
) -> list[prepared.Step]:
    """``results_refresh`` with the tables' results as the caller made them from what it read
    under their sheets' locks (a sheet's write): the steps that delete the old results and
    insert these, and want the standings rebuilt (``standings_wanting``), for the caller to run
    with its own writes (``prepared.run``), in one round trip. The standings are wanted even
    where no result was there nor is now, as the deletion's count is not known yet: a rebuild
    more, which changes nothing."""
    ids = [table.pk for table in tables]
    if not ids:
        return []
    return [
        prepared.deleting(SeatResult.objects.filter(table_id__in=ids)),
        prepared.inserting(results),
        *(
            standings_wanting(tournament_id=tournament_id, table_ids=ids)
            for tournament_id in _tournaments_of(tables, ids)
        ),
    ]


def _tournaments_of(tables: Collection[Table], ids: list[int]) -> set[int]:
    """The tournaments of the tables: from their rounds if the caller read them along (a
    sheet's service has), else read."""
    if all(Table.round.is_cached(table) for table in tables):
        return {table.round.tournament_id for table in tables}
    return set(Table.objects.filter(pk__in=ids).values_list("round__tournament_id", flat=True))


def results_refresh_all(*, tournament: Tournament) -> int:
    """Rewrite every result of a tournament (after an import, or to repair)."""
    return results_refresh(tables=list(Table.objects.filter(round__tournament=tournament)))
