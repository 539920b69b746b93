"""The demo: three realistic tournaments built through the services."""

import datetime
import hashlib

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from demo.services import demo_build
from rankings.models import RankingAdmission, RankingList
from rankings.policies import may_change_maintainers
from scoring.models import Hand, Scoresheet
from scoring.selectors import hand_lines, scoresheet_check
from teams import selectors as team_selectors
from teams.models import Competition, GroupTeam, LineUp, MatchDay
from tournaments.models import PersonChange, Player, Round, Seat, Tournament

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 11, 22, 15, 30, tzinfo=datetime.UTC)


def fingerprint() -> dict[str, str]:
    """Everything the seed decides: players, seating, every hand, the teams' groups and line-ups;
    a hash per part, so that a difference says where it is."""
    parts = {
        # Ordered by every value listed: two players of one name (the pool has some) came back
        # from PostgreSQL in either order, as the rows happened to lie.
        "players": Player.objects.order_by(
            "last_name", "first_name", "club", "ddv_number"
        ).values_list("first_name", "last_name", "club", "ddv_number"),
        "seats": Seat.objects.order_by(
            "round__tournament__name", "round__number", "table__number", "position"
        ).values_list("round__number", "table__number", "position", "entry__player__last_name"),
        "hands": Hand.objects.order_by(
            "scoresheet__table__round__tournament__name",
            "scoresheet__table__round__number",
            "scoresheet__table__number",
            "number",
        ).values_list(
            "contract", "dealer", "soloist", "points_1", "points_2", "points_3", "points_4"
        ),
        "groups": GroupTeam.objects.order_by(
            "match_day__competition__name", "match_day__number", "group__number", "team__name"
        ).values_list("match_day__number", "group__number", "team__name"),
        "line-ups": LineUp.objects.order_by(
            "match_day__competition__name",
            "match_day__number",
            "team__name",
            "round_number",
            "place",
        ).values_list("round_number", "place", "entry__player__last_name"),
    }
    return {
        part: hashlib.sha256(repr(list(rows)).encode()).hexdigest()[:16]
        for part, rows in parts.items()
    }


built: dict[str, str] = {}


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        result = demo_build(seed=7, now=NOW)
        # Taken at once: what the seed built, before any test of the module reads or writes it.
        built.clear()
        built.update(fingerprint())
        yield result
        forget()


def forget() -> None:
    """Delete what the demo built. The line-ups and groups go first: they protect the entries
    and teams that a tournament's or a competition's deletion would reach first."""
    LineUp.objects.all().delete()
    GroupTeam.objects.all().delete()
    Tournament.objects.all().delete()
    Competition.objects.all().delete()
    RankingList.objects.filter(slug="doko-freunde").delete()
    Player.objects.all().delete()
    # The claims the demo confirms log changes to persons, which outlive them (SET_NULL).
    PersonChange.objects.all().delete()
    get_user_model().objects.all().delete()


def test_finished_tournament_has_32_players_and_three_closed_rounds(demo):
    finished = demo.tournaments[0]
    assert finished.status == Tournament.Status.FINISHED
    assert finished.entries.count() == 32
    assert list(finished.rounds.values_list("status", flat=True)) == ["closed"] * 3
    assert (
        Scoresheet.objects.filter(table__round__tournament=finished)
        .exclude(status="confirmed")
        .count()
        == 0
    )


def test_championship_has_148_players_in_round_4_of_8(demo):
    championship = demo.tournaments[1]
    assert championship.entries.count() == 148
    assert championship.planned_rounds == 8
    assert list(championship.rounds.values_list("number", "status")) == [
        (1, "closed"),
        (2, "closed"),
        (3, "closed"),
        (4, "running"),
        # drawn in advance (DDV) and published
        (5, "seated"),
        (6, "seated"),
        (7, "seated"),
        (8, "seated"),
    ]
    assert not championship.rounds.filter(published_at=None).exists()
    running = championship.rounds.get(number=4)
    assert running.tables.count() == 37
    statuses = set(Scoresheet.objects.filter(table__round=running).values_list("status", flat=True))
    assert statuses == {"draft", "submitted", "confirmed"}


def test_home_page_says_round_4_of_8_is_running(demo, client):
    client.cookies["django_language"] = "en"
    page = client.get("/").content.decode()
    assert "round 4 of 8 running" in page
    assert "round 3 of 3 closed" in page


def test_the_demo_organiser_creates_tournaments(demo):
    from django.contrib.auth.models import Group

    from tournaments import policies

    organiser = get_user_model().objects.get(username=demo.username)
    assert organiser.groups.filter(name=policies.ORGANISERS_GROUP).exists()
    assert (
        Group.objects.get(name=policies.ORGANISERS_GROUP)
        .permissions.filter(codename="add_tournament")
        .exists()
    )
    assert organiser.has_perm(policies.CREATE_PERMISSION)
    assert policies.may_create_tournament(user=organiser) is None


def test_every_demo_sheet_follows_the_tsr(demo):
    sheets = Scoresheet.objects.select_related("table__round__tournament").prefetch_related(
        "hands", "table__seats"
    )
    for sheet in sheets:
        result = scoresheet_check(
            scoresheet=sheet,
            hands=hand_lines(list(sheet.hands.all())),
            table_size=len(sheet.table.seats.all()),
        )
        assert result.ok, (sheet, [p.message for p in result.problems])
        if sheet.status != "draft":
            assert result.complete


def test_demo_sheets_include_compulsory_and_forced_solos(demo):
    contracts = set(Hand.objects.values_list("contract", flat=True))
    assert {"compulsory_solo", "forced_solo", "normal", "wedding"} <= contracts
    confirmed_rounds = Round.objects.filter(status="closed")
    for round_ in confirmed_rounds[:2]:
        for sheet in Scoresheet.objects.filter(table__round=round_):
            solos = sheet.hands.filter(contract__in=["compulsory_solo", "forced_solo"])
            assert sorted(solos.values_list("soloist", flat=True)) == [1, 2, 3, 4]


def test_organiser_can_log_in_with_the_printed_password(demo, client):
    assert client.login(username=demo.username, password=demo.password)
    assert set(demo.tournaments[1].roles.values_list("role", flat=True)) == {
        "organiser",
        "adjudicator",
        "panel",
    }


def test_the_club_list_is_kept_by_its_maintainer_not_by_the_organiser(demo, client):
    """The finished tournament counts for the club's list because its maintainer, who is no
    staff of it, admitted it on the organiser's request; the organiser may not appoint
    maintainers."""

    club = RankingList.objects.get(slug="doko-freunde")
    admission = RankingAdmission.objects.get(ranking_list=club)
    assert admission.tournament == demo.tournaments[0]
    assert admission.status == "admitted"
    assert admission.decided_by.username == demo.maintainer
    assert admission.requested_by.username == demo.username
    assert len(club.data) == 32
    organiser = get_user_model().objects.get(username=demo.username)
    assert may_change_maintainers(ranking_list=club, user=organiser) is not None
    assert client.login(username=demo.maintainer, password=demo.maintainer_password)
    assert may_change_maintainers(ranking_list=club, user=admission.decided_by) is None


def test_same_seed_builds_the_same_tournaments(demo):
    forget()
    demo_build(seed=7, now=NOW)
    assert fingerprint() == built


def test_demo_command_with_if_empty_leaves_a_filled_database_alone(demo, capsys):
    before = Tournament.objects.count()
    call_command("demo", "--if-empty")
    assert Tournament.objects.count() == before
    assert "already holds" in capsys.readouterr().out


def test_demo_command_refuses_a_filled_database(demo):
    with pytest.raises(CommandError, match="needs an empty one"):
        call_command("demo")


def test_the_club_tournament_takes_registrations_online(demo, client):
    """24 places taken through the public page, each with a personal link, two waiting; the
    registration page is open and says the next one joins the waiting list."""
    upcoming = demo.tournaments[2]
    states = list(upcoming.registrations.values_list("state", flat=True))
    assert states.count("admitted") == 24
    assert states.count("waiting") == 2
    entry = upcoming.entries.get(start_number=1)
    assert entry.link_key == entry.registration.key
    client.cookies["django_language"] = "en"
    page = client.get(f"/tournaments/{upcoming.slug}/register/").content.decode()
    assert "Full: you join the waiting list as number 3." in page
    assert client.get(f"/p/{entry.link_key}/").status_code == 200


# The team competitions (demo/team_play.py) ---------------------------------------------------


def league_of(demo) -> Competition:
    return next(c for c in demo.competitions if c.kind == Competition.Kind.LEAGUE)


def championship_of(demo) -> Competition:
    return next(c for c in demo.competitions if c.kind == Competition.Kind.CHAMPIONSHIP)


def test_the_league_has_8_teams_of_four_one_with_a_reserve(demo):
    league = league_of(demo)
    assert (league.name, league.season) == ("Doppelkopf-Liga Nord", "2026/27")
    assert (league.promotion_places, league.relegation_places) == (1, 2)
    assert demo.username in league.organisers.values_list("username", flat=True)
    sizes = sorted(team.members.count() for team in league.teams.all())
    assert sizes == [4] * 7 + [5]
    for team in league.teams.all():
        assert team.members.filter(is_captain=True).count() == 1
        assert set(team.members.values_list("player__club", flat=True)) == {team.club}
    assert any(ch in "".join(league.teams.values_list("name", flat=True)) for ch in "äöüÄÖÜß")


def test_every_match_day_table_seats_four_different_teams(demo):
    """At every table of every drawn round of every match day: one player of each of four
    different teams, so no team-mates together (the team draw, doko/team_seating.py)."""
    match_days = MatchDay.objects.filter(competition__in=demo.competitions)
    assert match_days.count() == 4
    checked = 0
    for match_day in match_days:
        team_of = {
            (round_number, entry): team
            for round_number, entry, team in LineUp.objects.filter(match_day=match_day).values_list(
                "round_number", "entry_id", "team_id"
            )
        }
        seats = Seat.objects.filter(round__tournament=match_day.tournament).values_list(
            "table_id", "round__number", "entry_id"
        )
        tables: dict[int, list[int]] = {}
        for table, round_number, entry in seats:
            tables.setdefault(table, []).append(team_of[round_number, entry])
        for teams in tables.values():
            assert len(teams) == 4
            assert len(set(teams)) == 4
            checked += 1
    # League: 2 match days of 4 rounds of 8 tables; championship: 4 x 8 and the final 4 x 4.
    assert checked == 2 * 4 * 8 + 4 * 8 + 4 * 4


def test_league_match_day_1_is_played_and_confirmed_and_match_day_2_is_running(demo):
    first, second = MatchDay.objects.filter(competition=league_of(demo)).order_by("number")
    assert first.tournament.is_match_day
    assert list(first.tournament.rounds.values_list("status", flat=True)) == ["closed"] * 4
    assert not (
        Scoresheet.objects.filter(table__round__tournament=first.tournament)
        .exclude(status="confirmed")
        .exists()
    )
    assert list(second.tournament.rounds.values_list("number", "status")) == [
        (1, "running"),
        (2, "seated"),
        (3, "seated"),
        (4, "seated"),
    ]
    sheets = Scoresheet.objects.filter(
        table__round__tournament=second.tournament, table__round__number=1
    )
    assert sheets.count() == 8
    assert sheets.exclude(status="draft").exists()
    assert sheets.filter(status="draft").exists()


def test_match_day_1_gives_4_3_2_1_match_points_in_each_group(demo):
    first = MatchDay.objects.get(competition=league_of(demo), number=1)
    results = team_selectors.group_results(match_day=first)
    assert len(results) == 2
    for result in results:
        assert result.complete
        assert sum(row.match_points for row in result.rows) == 10
        assert [row.team.club for row in result.rows]  # four teams with their clubs


def test_the_reserve_plays_place_4_from_round_3_of_match_day_1(demo):
    """A reserve who comes in takes over the seats the draw gave his place."""
    first = MatchDay.objects.get(competition=league_of(demo), number=1)
    team = first.competition.teams.get(name="Karo-Asse Celle")
    places = {
        (line.round_number, line.place): line.entry
        for line in LineUp.objects.filter(match_day=first, team=team).select_related("entry")
    }
    replaced, reserve = places[1, 4], places[3, 4]
    assert replaced != reserve
    assert places[2, 4] == replaced
    assert places[4, 4] == reserve
    assert [places[3, place] for place in (1, 2, 3)] == [places[1, place] for place in (1, 2, 3)]
    rounds_of = {
        entry: sorted(
            Seat.objects.filter(round__tournament=first.tournament, entry=entry).values_list(
                "round__number", flat=True
            )
        )
        for entry in (replaced, reserve)
    }
    assert rounds_of == {replaced: [1, 2], reserve: [3, 4]}


def test_the_season_table_has_8_rows_with_promotion_and_relegation_marked(demo):
    table = team_selectors.season_table(competition=league_of(demo))
    assert len(table) == 8
    assert [line.zone for line in table] == ["promotion"] + [""] * 5 + ["relegation"] * 2
    assert [line.match_points for line in table] == sorted(
        (line.match_points for line in table), reverse=True
    )


def test_the_team_championship_played_its_groups_and_drew_its_knockout_round(demo):
    championship = championship_of(demo)
    assert championship.name == "Deutsche Mannschaftsmeisterschaft"
    assert championship.teams.count() == 8
    groups, final = MatchDay.objects.filter(competition=championship).order_by("number")
    assert groups.stage == MatchDay.Stage.GROUPS
    assert list(groups.tournament.rounds.values_list("status", flat=True)) == ["closed"] * 4
    best = {
        row.team
        for result in team_selectors.group_results(match_day=groups)
        for row in result.rows[:2]
    }
    (knockout,) = team_selectors.bracket(competition=championship)
    assert knockout.match_day == final
    assert final.stage == MatchDay.Stage.KNOCKOUT
    (tie,) = knockout.ties
    assert tie.group.advance == 1
    assert {row.team for row in tie.rows} == best
    assert set(final.tournament.rounds.values_list("status", flat=True)) == {"seated"}
    assert not final.tournament.rounds.filter(published_at=None).exists()


def test_the_championship_shows_the_club_ranking_of_the_best_three(demo):
    assert demo.tournaments[1].club_ranking_players == 3
    assert not Tournament.objects.exclude(pk=demo.tournaments[1].pk).exclude(
        club_ranking_players=None
    )


def test_the_match_days_pages_answer(demo, client):
    client.cookies["django_language"] = "en"
    for match_day in MatchDay.objects.filter(competition__in=demo.competitions):
        response = client.get(f"/tournaments/{match_day.tournament.slug}/")
        assert response.status_code == 200, match_day
