"""A league's season plan through the services: drawn at once (every pair of 16 teams meets
exactly once over five match days), swapped before a match day is made and refused after,
taken by ``match_day_create``; and double match days, each half scored 4/3/2/1 on its own."""

import datetime
import itertools
from fractions import Fraction

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from teams import selectors, services
from teams.models import Competition, GroupTeam, MatchDay, PlannedPlace, SeasonPlan
from tests import factories
from tests.teams.factories import league, organiser_of, play_round, teams

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 5)


def _groups_of(match_day: MatchDay) -> set[frozenset[int]]:
    groups: dict[int, set[int]] = {}
    for group, team in GroupTeam.objects.filter(match_day=match_day).values_list(
        "group__number", "team_id"
    ):
        groups.setdefault(group, set()).add(team)
    return {frozenset(group) for group in groups.values()}


def _planned(competition: Competition, number: int) -> set[frozenset[int]]:
    view = selectors.season_plan_of(competition=competition)
    assert view is not None
    day = view.days[number - 1]
    return {frozenset(team.pk for team in group) for _, group in day.groups}


def test_sixteen_teams_over_five_match_days_meet_every_other_exactly_once():
    competition = league(teams=16)
    plan = services.season_plan_create(
        competition=competition, match_days=5, by=organiser_of(competition), seed=11
    )
    assert plan.places.count() == 16 * 5
    view = selectors.season_plan_of(competition=competition)
    assert view is not None
    assert view.every_pair_once
    assert view.most == 1
    assert len(view.days) == 5
    assert all(len(day.groups) == 4 for day in view.days)
    for i, j in itertools.combinations(range(16), 2):
        assert view.matrix[i][j] == view.matrix[j][i] == 1
    assert all(view.matrix[i][i] is None for i in range(16))


def test_match_day_without_groups_takes_the_plans_and_the_organiser_may_choose_others():
    competition = league(teams=8)
    by = organiser_of(competition)
    services.season_plan_create(competition=competition, match_days=3, by=by, seed=5)
    first = services.match_day_create(competition=competition, starts_on=DAY, by=by)
    assert _groups_of(first) == _planned(competition, 1)
    chosen = [teams(competition)[:4], teams(competition)[4:]]
    second = services.match_day_create(competition=competition, starts_on=DAY, by=by, groups=chosen)
    assert _groups_of(second) == {frozenset(t.pk for t in group) for group in chosen}
    third = services.match_day_create(competition=competition, starts_on=DAY, by=by)
    assert _groups_of(third) == _planned(competition, 3)
    # Past the plan's end the groups are drawn at random, as without a plan.
    fourth = services.match_day_create(competition=competition, starts_on=DAY, by=by)
    assert len(_groups_of(fourth)) == 2


def test_swap_changes_the_groups_of_a_match_day_not_made_yet():
    competition = league(teams=8)
    by = organiser_of(competition)
    services.season_plan_create(competition=competition, match_days=2, by=by, seed=5)
    view = selectors.season_plan_of(competition=competition)
    assert view is not None
    (_, one), (_, two) = view.days[1].groups
    changed = services.season_plan_swap(
        competition=competition, match_day=2, teams=[one[0], two[0]], by=by
    )
    assert {place.team_id for place in changed} == {one[0].pk, two[0].pk}
    after = _planned(competition, 2)
    assert frozenset([two[0].pk, *(t.pk for t in one[1:])]) in after
    assert frozenset([one[0].pk, *(t.pk for t in two[1:])]) in after
    made = services.match_day_create(competition=competition, starts_on=DAY, by=by)
    assert made.number == 1
    second = services.match_day_create(competition=competition, starts_on=DAY, by=by)
    assert _groups_of(second) == after


def test_swap_of_a_match_day_made_is_refused_on_match_day_with_the_reason():
    competition = league(teams=8)
    by = organiser_of(competition)
    services.season_plan_create(competition=competition, match_days=2, by=by, seed=5)
    services.match_day_create(competition=competition, starts_on=DAY, by=by)
    view = selectors.season_plan_of(competition=competition)
    assert view is not None
    assert view.days[0].made
    assert not view.days[1].made
    (_, one), (_, two) = view.days[0].groups
    before = sorted(PlannedPlace.objects.values_list("pk", "group"))
    with pytest.raises(ValidationError) as refused:
        services.season_plan_swap(
            competition=competition, match_day=1, teams=[one[0], two[0]], by=by
        )
    assert "Match day 1 is made already" in refused.value.message_dict["match_day"][0]
    assert sorted(PlannedPlace.objects.values_list("pk", "group")) == before


def test_swap_within_one_group_or_of_an_unplanned_team_is_refused_on_teams():
    competition = league(teams=8)
    by = organiser_of(competition)
    services.season_plan_create(competition=competition, match_days=2, by=by, seed=5)
    view = selectors.season_plan_of(competition=competition)
    assert view is not None
    (_, one), _ = view.days[0].groups
    with pytest.raises(ValidationError) as same:
        services.season_plan_swap(competition=competition, match_day=1, teams=one[:2], by=by)
    assert "same group" in same.value.message_dict["teams"][0]
    late = services.team_create(competition=competition, name="Nachzügler", by=by)
    with pytest.raises(ValidationError) as unplanned:
        services.season_plan_swap(competition=competition, match_day=1, teams=[one[0], late], by=by)
    assert "Nachzügler is not planned" in unplanned.value.message_dict["teams"][0]
    with pytest.raises(ValidationError) as beyond:
        services.season_plan_swap(competition=competition, match_day=3, teams=one[:2], by=by)
    assert "match_day" in beyond.value.message_dict


def test_the_plan_is_drawn_again_only_before_the_first_match_day():
    competition = league(teams=8)
    by = organiser_of(competition)
    services.season_plan_create(competition=competition, match_days=2, by=by, seed=5)
    services.season_plan_create(competition=competition, match_days=4, by=by, seed=6)
    assert SeasonPlan.objects.get(competition=competition).match_days == 4
    services.match_day_create(competition=competition, starts_on=DAY, by=by)
    with pytest.raises(ValidationError) as refused:
        services.season_plan_create(competition=competition, match_days=3, by=by)
    assert "Match day 1 is made already" in refused.value.message_dict["plan"][0]
    assert SeasonPlan.objects.get(competition=competition).match_days == 4


def test_a_number_of_teams_four_does_not_divide_is_refused_on_teams():
    competition = league(teams=6)
    with pytest.raises(ValidationError) as refused:
        services.season_plan_create(
            competition=competition, match_days=3, by=organiser_of(competition)
        )
    assert "6 teams" in refused.value.message_dict["teams"][0]
    assert not SeasonPlan.objects.exists()


def test_a_championship_has_no_season_plan():
    competition = league(teams=8, kind=Competition.Kind.CHAMPIONSHIP)
    with pytest.raises(ValidationError) as refused:
        services.season_plan_create(
            competition=competition, match_days=2, by=organiser_of(competition)
        )
    assert "league" in refused.value.message_dict["match_days"][0]


def test_another_clubs_organiser_may_not_draw_or_swap():
    competition = league(teams=8)
    by = organiser_of(competition)
    services.season_plan_create(competition=competition, match_days=2, by=by, seed=5)
    stranger = factories.user(username="fremd")
    with pytest.raises(PermissionDenied):
        services.season_plan_create(competition=competition, match_days=2, by=stranger)
    one, two = teams(competition)[:2]
    with pytest.raises(PermissionDenied):
        services.season_plan_swap(
            competition=competition, match_day=1, teams=[one, two], by=stranger
        )


def test_a_planned_team_is_not_deleted():
    competition = league(teams=8)
    by = organiser_of(competition)
    services.season_plan_create(competition=competition, match_days=2, by=by, seed=5)
    with pytest.raises(ValidationError) as refused:
        services.team_delete(team=teams(competition)[0], by=by)
    assert "season plan" in refused.value.message_dict["team"][0]
    competition.delete()  # with its plan and teams, the restriction notwithstanding
    assert not PlannedPlace.objects.exists()


def test_the_database_holds_a_team_once_per_planned_match_day():
    competition = league(teams=8)
    plan = services.season_plan_create(
        competition=competition, match_days=1, by=organiser_of(competition), seed=5
    )
    place = plan.places.first()
    assert place is not None
    with pytest.raises(IntegrityError), transaction.atomic():
        PlannedPlace.objects.create(plan=plan, match_day=1, group=9, team=place.team)
    with pytest.raises(IntegrityError), transaction.atomic():
        SeasonPlan.objects.filter(pk=plan.pk).update(match_days=0)


# Double match days -------------------------------------------------------------------------------


def test_a_double_match_day_scores_each_half_on_its_own():
    competition = league(teams=4)
    by = organiser_of(competition)
    services.season_plan_create(competition=competition, match_days=1, by=by, double=True, seed=1)
    match_day = services.match_day_create(competition=competition, starts_on=DAY, by=by, rounds=2)
    assert match_day.double
    first, second = teams(competition)[:2]
    play_round(match_day, 1, favoured_team=first)
    play_round(match_day, 2, favoured_team=second)
    (result,) = selectors.group_results(match_day=match_day)
    assert result.complete
    rows = {row.team: row for row in result.rows}
    assert rows[first].halves[0].match_points == 4
    assert rows[second].halves[1].match_points == 4
    for half in (0, 1):
        assert sum(row.halves[half].match_points for row in result.rows) == 10
    for row in result.rows:
        assert row.match_points == row.halves[0].match_points + row.halves[1].match_points
        assert row.points == row.halves[0].points + row.halves[1].points
    assert sum(row.match_points for row in result.rows) == 20
    # The season table counts each half as a meeting: 20 match points in all.
    table = selectors.season_table(competition=competition)
    assert sum(line.match_points for line in table) == 20
    by_team = {line.team: line.match_points for line in table}
    assert by_team[first] == rows[first].match_points >= Fraction(4)


def test_a_single_match_day_keeps_one_score():
    competition = league(teams=4)
    by = organiser_of(competition)
    match_day = services.match_day_create(
        competition=competition, starts_on=DAY, by=by, rounds=2, groups=[teams(competition)]
    )
    assert not match_day.double
    play_round(match_day, 1, favoured_team=teams(competition)[0])
    play_round(match_day, 2, favoured_team=teams(competition)[1])
    (result,) = selectors.group_results(match_day=match_day)
    assert all(row.halves == () for row in result.rows)
    assert sum(row.match_points for row in result.rows) == 10


def test_a_double_match_day_needs_an_even_number_of_rounds_and_groups():
    competition = league(teams=4)
    by = organiser_of(competition)
    with pytest.raises(ValidationError) as odd:
        services.match_day_create(
            competition=competition,
            starts_on=DAY,
            by=by,
            rounds=3,
            double=True,
            groups=[teams(competition)],
        )
    assert "even number of rounds" in odd.value.message_dict["rounds"][0]
    championship = league(teams=4, kind=Competition.Kind.CHAMPIONSHIP, name="DMM")
    with pytest.raises(ValidationError) as knockout:
        services.match_day_create(
            competition=championship,
            starts_on=DAY,
            by=organiser_of(championship),
            stage=MatchDay.Stage.KNOCKOUT,
            double=True,
            groups=[teams(championship)],
        )
    assert "double" in knockout.value.message_dict
    assert not MatchDay.objects.exists()


def test_the_plan_and_a_double_match_day_come_back_from_a_backup():
    from tests.backup.test_competition import round_trip

    competition = league(teams=8)
    by = organiser_of(competition)
    services.season_plan_create(competition=competition, match_days=3, by=by, double=True, seed=2)
    services.match_day_create(competition=competition, starts_on=DAY, by=by, rounds=2)
    names = {
        (place.match_day, place.group, place.team.name)
        for place in PlannedPlace.objects.select_related("team")
    }
    restored = round_trip(competition)
    plan = SeasonPlan.objects.get(competition=restored)
    assert (plan.match_days, plan.double) == (3, True)
    assert {
        (place.match_day, place.group, place.team.name)
        for place in plan.places.select_related("team")
    } == names
    assert restored.match_days.get().double
