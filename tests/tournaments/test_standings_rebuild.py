"""The rebuild after a confirm (services.standings_rebuild): it reads only the results of the
players at the tables the changes name, and must give exactly what reading every result gives
(doko.standings.updated; its property is in tests/doko/test_standings.py)."""

import random
from unittest import mock

import pytest

from doko import sample_sheets, standings
from doko.standings import Standings
from scoring import services as scoring_services
from scoring.models import Scoresheet
from tests import factories
from tournaments import caching, selectors, services
from tournaments.models import Round, SeatResult, StandingsSnapshot, StandingsWanted, Tournament

pytestmark = pytest.mark.django_db
MATCH = sample_sheets.full_match()


def rebuilt_from_every_result(tournament: Tournament) -> tuple[Standings, bytes]:
    """The stored standings, and those computed from every result at the same moment."""
    snapshot = StandingsSnapshot.objects.get(tournament=tournament)
    full = standings.standings(
        entrants=selectors.standings_entrants(tournament=tournament),
        results=selectors.standings_results(tournament=tournament),
        tiebreaks=selectors.tiebreaks_of(tournament),
        built_at=snapshot.built_at,
    )
    assert bytes(snapshot.packed) == full.pack()
    return Standings.unpack(bytes(snapshot.packed)), full


def test_a_simulated_tournament_rebuilt_after_each_change_is_rebuilt_from_every_result(
    django_capture_on_commit_callbacks,
):
    """Three rounds at three tables: sheets handed in, confirmed, some reopened and handed in
    again, in a random order; after each change the stored standings are those computed from
    every result, and all but the first rebuilds read only the table's players."""
    rng = random.Random(45)
    tournament = factories.tournament(players=12)
    organiser = factories.user()
    factories.role_grant(tournament=tournament, user=organiser, role="organiser")
    services.standings_rebuild(tournament_id=tournament.pk)
    with mock.patch.object(standings, "updated", wraps=standings.updated) as updated:
        changes = 0
        for number in range(1, 4):
            round_ = services.round_start(round=factories.seated_round(tournament, seed=number))
            sheets = list(Scoresheet.objects.filter(table__round=round_))
            rng.shuffle(sheets)
            again = rng.sample(sheets, 2)  # reopened once confirmed, then handed in again
            reopened = {sheet.pk for sheet in again}
            for sheet in [*sheets, *again]:
                sheet = Scoresheet.objects.get(pk=sheet.pk)
                with django_capture_on_commit_callbacks(execute=True):
                    sheet = scoring_services.scoresheet_hands_replace(
                        scoresheet=sheet,
                        hands=MATCH,
                        version=sheet.version,
                        by=factories.keeper(sheet),
                    )
                    sheet = scoring_services.scoresheet_submit(
                        scoresheet=sheet, version=sheet.version, by=factories.keeper(sheet)
                    )
                changes += 1
                stored, full = rebuilt_from_every_result(tournament)
                assert stored == full
                with django_capture_on_commit_callbacks(execute=True):
                    sheet = scoring_services.scoresheet_confirm(
                        scoresheet=sheet, version=sheet.version, by=factories.checker(sheet)
                    )
                changes += 1
                stored, full = rebuilt_from_every_result(tournament)
                assert stored == full
                if sheet.pk in reopened:
                    with django_capture_on_commit_callbacks(execute=True):
                        scoring_services.scoresheet_reopen(
                            scoresheet=sheet,
                            version=sheet.version,
                            by=scoring_services.Actor(user=organiser),
                            reason="Hand 3 was entered for the wrong seat.",
                        )
                    reopened.discard(sheet.pk)
                    changes += 1
                    stored, full = rebuilt_from_every_result(tournament)
                    assert stored == full
            round_.refresh_from_db()
            if round_.status == Round.Status.RUNNING:  # else closed by its last confirm
                factories.round_end(round_)
        assert sum(row.rounds_played for row in full.rows) > 0
    # Each change but none was rebuilt from the table's players (a new round's column comes
    # with its first sheet: those are computed from all results, still without reading them).
    assert updated.call_count == changes
    assert not StandingsWanted.objects.exists()


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    """Eight players, one round, both sheets confirmed; the standings rebuilt."""
    tournament = factories.tournament(players=8)
    round_ = services.round_start(round=factories.seated_round(tournament))
    with django_capture_on_commit_callbacks(execute=True):
        for sheet in Scoresheet.objects.filter(table__round=round_):
            factories.sheet_confirmed(sheet, MATCH)
    return Tournament.objects.get(pk=tournament.pk), round_.tables.order_by("number").first()


def test_the_rebuild_after_a_confirm_reads_only_the_tables_players(
    played, django_assert_num_queries
):
    """The queries of the rebuild a confirm queues: the tournament locked, the wants, the
    entrants, the table, its players' results, the count of all results, the snapshot, the
    version, the wants done; within a savepoint here (the test's transaction)."""
    tournament, table = played
    with mock.patch("tournaments.services.standings.workers.send_or_run"):
        services.results_refresh(tables=[table])
    with (
        mock.patch.object(selectors, "standings_results") as every_result,
        django_assert_num_queries(11),
    ):
        services.standings_rebuild(tournament_id=tournament.pk)
    every_result.assert_not_called()
    stored, full = rebuilt_from_every_result(tournament)
    assert stored == full


def test_a_rebuild_without_a_table_named_reads_every_result(played, django_assert_num_queries):
    """A rebuild asked for without a change named (by hand, a name changed): every result
    read, as before."""
    tournament, _table = played
    with django_assert_num_queries(8):
        services.standings_rebuild(tournament_id=tournament.pk)
    stored, full = rebuilt_from_every_result(tournament)
    assert stored == full


def test_a_process_without_the_previous_standings_reads_every_result(played):
    """Another worker, which did not build the current standings, reads every result."""
    tournament, table = played
    with mock.patch("tournaments.services.standings.workers.send_or_run"):
        services.results_refresh(tables=[table])
    caching.memory_clear()
    with mock.patch.object(standings, "updated") as updated:
        services.standings_rebuild(tournament_id=tournament.pk)
    updated.assert_not_called()
    stored, full = rebuilt_from_every_result(tournament)
    assert stored == full


def test_results_changed_unannounced_are_caught_by_their_count(played):
    """A result gone without its table named (a deletion that wanted no rebuild): the count
    of the results differs from the standings', so every result is read."""
    tournament, table = played
    other = SeatResult.objects.exclude(table=table).first()
    with mock.patch("tournaments.services.standings.workers.send_or_run"):
        services.results_refresh(tables=[table])
    other.delete()
    services.standings_rebuild(tournament_id=tournament.pk)
    stored, full = rebuilt_from_every_result(tournament)
    assert stored == full
    assert sum(cell is not None for row in stored.rows for cell in row.results) == 7


def test_a_change_at_many_tables_wants_every_result_read():
    """A round's tables at once (a repair): one want naming none; a few: a want each."""
    tournament = factories.tournament(players=4)
    StandingsWanted.objects.all().delete()  # the entries' own
    services.standings_schedule(tournament_id=tournament.pk, table_ids=range(1, 22))
    assert list(StandingsWanted.objects.values_list("table_pk", flat=True)) == [None]
    services.standings_schedule(tournament_id=tournament.pk, table_ids=[7, 8])
    named = StandingsWanted.objects.exclude(table_pk=None).values_list("table_pk", flat=True)
    assert sorted(named) == [7, 8]
