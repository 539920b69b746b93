"""Results and standings from the database: each seat's result is rewritten whenever its
sheet or the adjudication changes, the standings are rebuilt after commit, and readers are
served the stored standings without computing them."""

from unittest import mock

import pytest

from doko import sample_sheets
from doko.standings import Standings
from scoring import services as scoring_services
from scoring.models import Scoresheet
from tests import factories
from tournaments import caching, selectors, services
from tournaments.models import SeatResult, StandingsSnapshot, Tournament, TournamentRole

pytestmark = pytest.mark.django_db
MATCH = sample_sheets.full_match()
TOTALS = {seat: sum(line.points[seat] for line in MATCH) for seat in range(1, 5)}


@pytest.fixture
def tournament():
    return factories.tournament(players=8)


@pytest.fixture
def sheet(tournament):
    round_ = services.round_start(round=factories.seated_round(tournament))
    return Scoresheet.objects.filter(table__round=round_).order_by("table__number").first()


def submit(sheet) -> Scoresheet:
    sheet = scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=MATCH, version=sheet.version, by=factories.keeper(sheet)
    )
    return scoring_services.scoresheet_submit(
        scoresheet=sheet, version=sheet.version, by=factories.keeper(sheet)
    )


def fresh(tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def test_a_draft_has_no_results(sheet):
    scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=MATCH[:5], version=sheet.version, by=factories.keeper(sheet)
    )
    assert not SeatResult.objects.exists()


def test_a_submitted_sheet_gives_provisional_results(sheet):
    submit(sheet)
    results = {r.position: r for r in SeatResult.objects.filter(table=sheet.table)}
    assert {p: r.points for p, r in results.items()} == TOTALS
    assert not any(r.confirmed for r in results.values())
    # Every seat played its compulsory solo and won it (sample_sheets.full_match).
    assert all((r.solos_played, r.solos_won) == (1, 1) for r in results.values())
    ranked = sorted(TOTALS.values(), reverse=True)
    assert {p: r.placing for p, r in results.items()} == {
        p: ranked.index(points) + 1 for p, points in TOTALS.items()
    }


def test_confirming_makes_them_count_and_reopening_takes_them_back(sheet, tournament):
    sheet = submit(sheet)
    assert selectors.entry_points(tournament=tournament) == {}
    sheet = scoring_services.scoresheet_confirm(
        scoresheet=sheet, version=sheet.version, by=factories.checker(sheet)
    )
    seats = {s.position: s.entry_id for s in sheet.table.seats.all()}
    assert selectors.entry_points(tournament=tournament) == {
        seats[p]: points for p, points in TOTALS.items()
    }
    organiser = factories.user()
    factories.role_grant(tournament=tournament, user=organiser, role="organiser")
    scoring_services.scoresheet_reopen(
        scoresheet=sheet,
        version=sheet.version,
        by=scoring_services.Actor(user=organiser),
        reason="Hand 3 was entered for the wrong seat.",
    )
    assert not SeatResult.objects.filter(table=sheet.table).exists()


def rebuilds(callbacks) -> list:
    """The work queued for after commit but the versions in the cache, which every change of a
    sheet raises (tournaments.caching: the desk's and the table page's), and the tournament's
    cached head, which every rebuild forgets once it commits
    (selectors.tournament_head_forget)."""
    from tournaments.selectors.tournaments import _head_forget_now

    def cache_work(callback) -> bool:
        func = getattr(callback, "func", None)
        return func is _head_forget_now or getattr(func, "__module__", "") == caching.__name__

    return [c for c in callbacks if not cache_work(c)]


def test_the_standings_are_rebuilt_after_commit(
    sheet, tournament, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        submit(sheet)
    assert len(rebuilds(callbacks)) == 1
    tournament = fresh(tournament)
    assert tournament.standings_version >= 1
    table = selectors.standings_read(tournament=tournament)
    assert len(table.rows) == 8
    assert table.provisional_rounds == (1,)
    provisional = {row.entrant.entry_id: row.provisional for row in table.rows}
    assert sorted(p for p in provisional.values() if p is not None) == sorted(TOTALS.values())
    assert all(row.points == 0 for row in table.rows)


def test_nothing_is_rebuilt_inside_a_rolled_back_transaction(
    sheet, tournament, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        scoring_services.scoresheet_hands_replace(
            scoresheet=sheet, hands=MATCH[:3], version=sheet.version, by=factories.keeper(sheet)
        )
    assert rebuilds(callbacks) == []


def test_readers_never_compute_the_standings(
    sheet, tournament, django_capture_on_commit_callbacks, django_assert_num_queries
):
    with django_capture_on_commit_callbacks(execute=True):
        factories.sheet_confirmed(sheet, MATCH)
    tournament = fresh(tournament)
    with mock.patch("doko.standings.standings") as compute:
        with django_assert_num_queries(0):
            cached = selectors.standings_read(tournament=tournament)
        compute.assert_not_called()
    assert cached.rows[0].points == max(TOTALS.values())


def test_a_cache_outage_falls_back_to_the_database(
    sheet, tournament, django_capture_on_commit_callbacks, django_assert_num_queries
):
    with django_capture_on_commit_callbacks(execute=True):
        factories.sheet_confirmed(sheet, MATCH)
    tournament = fresh(tournament)
    expected = selectors.standings_read(tournament=tournament)
    caching.memory_clear()  # as another web process, which has not decoded them yet
    broken = mock.Mock(side_effect=ConnectionError("cache down"))
    with (
        mock.patch("tournaments.caching.cache.get", broken),
        mock.patch("tournaments.caching.cache.set", broken),
        mock.patch("doko.standings.standings") as compute,
        django_assert_num_queries(1),
    ):
        assert selectors.standings_read(tournament=tournament) == expected
    compute.assert_not_called()


def test_a_process_decodes_each_version_of_the_standings_once(
    sheet, tournament, django_capture_on_commit_callbacks, django_assert_num_queries
):
    with django_capture_on_commit_callbacks(execute=True):
        factories.sheet_confirmed(sheet, MATCH)
    tournament = fresh(tournament)
    caching.memory_clear()  # as a web process that did not rebuild them
    with mock.patch.object(Standings, "unpack", wraps=Standings.unpack) as unpack:
        first = selectors.standings_read(tournament=tournament)
        assert selectors.standings_read(tournament=tournament) is first
        assert unpack.call_count == 1
        services.standings_rebuild(tournament_id=tournament.pk)
        newer = selectors.standings_read(tournament=fresh(tournament))
    assert newer is not first
    assert newer.rows == first.rows
    assert unpack.call_count == 1  # the rebuild left its own result in this process


def test_a_rebuild_writes_one_snapshot_with_a_new_version(tournament):
    first = services.standings_rebuild(tournament_id=tournament.pk)
    second = services.standings_rebuild(tournament_id=tournament.pk)
    assert second.version == first.version + 1
    assert StandingsSnapshot.objects.filter(tournament=tournament).count() == 1
    assert fresh(tournament).standings_version == second.version


def test_a_broker_outage_rebuilds_in_process(sheet, tournament, django_capture_on_commit_callbacks):
    from kombu.exceptions import OperationalError

    before = fresh(tournament).standings_version
    with (
        mock.patch(
            "tournaments.services.standings.standings_rebuild_task.delay",
            side_effect=OperationalError("broker down"),
        ),
        django_capture_on_commit_callbacks(execute=True),
    ):
        factories.sheet_confirmed(sheet, MATCH)
    assert fresh(tournament).standings_version > before
    assert SeatResult.objects.filter(confirmed=True).count() == 4


def test_a_disqualified_player_keeps_results_but_is_not_ranked(
    sheet, tournament, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        factories.sheet_confirmed(sheet, MATCH)
        entry = sheet.table.seats.get(position=1).entry
        services.entry_disqualify(entry=entry)
    table = selectors.standings_read(tournament=fresh(tournament))
    last = table.rows[-1]
    assert last.entrant.entry_id == entry.pk
    assert last.rank is None
    assert last.points == TOTALS[1]


def test_a_name_corrected_shows_in_the_standings(tournament, django_capture_on_commit_callbacks):
    entry = tournament.entries.select_related("player").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_update(
            entry=entry,
            first_name="Grete",
            last_name="Müller",
            start_number=entry.start_number,
            by=organiser(tournament),
        )
    table = selectors.standings_read(tournament=fresh(tournament))
    assert "Grete Müller" in {row.entrant.name for row in table.rows}


def organiser(tournament):
    user = factories.user()
    factories.role_grant(tournament=tournament, user=user, role=TournamentRole.Role.ORGANISER)
    return user


def test_changing_the_tiebreaks_reranks(tournament, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_update(
            tournament=tournament,
            by=organiser(tournament),
            changes={"standings_public": False, "tiebreaks": "best_round,start_number"},
        )
    tournament = fresh(tournament)
    assert not tournament.standings_public
    assert [t.value for t in selectors.standings_read(tournament=tournament).tiebreaks] == [
        "best_round",
        "start_number",
    ]


def test_unknown_tiebreaks_are_refused(tournament):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as error:
        services.tournament_update(
            tournament=tournament, by=organiser(tournament), changes={"tiebreaks": "coin_toss"}
        )
    assert "tiebreaks" in error.value.message_dict


def test_the_command_rebuilds_missing_standings(sheet, tournament):
    from io import StringIO

    from django.core.management import call_command

    factories.sheet_confirmed(sheet, MATCH)  # no on_commit here: nothing was rebuilt
    SeatResult.objects.all().delete()
    assert fresh(tournament).standings_version == 0
    out = StringIO()
    call_command("standings_rebuild", "--missing", stdout=out)
    assert f"{tournament.slug}: 4 results" in out.getvalue()
    tournament = fresh(tournament)
    assert tournament.standings_version == 1
    assert selectors.standings_read(tournament=tournament).rows[0].points == max(TOTALS.values())


def test_the_command_skips_a_tournament_deleted_meanwhile(tournament):
    from io import StringIO

    from django.core.management import call_command

    first, later = tournament.slug, factories.tournament(players=4)  # in this order
    refresh = services.results_refresh_all

    def deleted_meanwhile(*, tournament):
        if tournament.slug == first:  # by someone else, once the command has listed it
            Tournament.objects.filter(pk=tournament.pk).delete()
        return refresh(tournament=tournament)

    out = StringIO()
    with mock.patch.object(services, "results_refresh_all", deleted_meanwhile):
        call_command("standings_rebuild", stdout=out)
    assert f"{first}: deleted meanwhile" in out.getvalue()
    assert f"{later.slug}: 0 results, standings version 1" in out.getvalue()
