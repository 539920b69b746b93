"""The team draw: one player of each of four different teams at every table (DDV, not TSR)."""

import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doko.seating import SeatingError, SeatingPlan
from doko.team_seating import (
    TeamSeatingError,
    _Field,
    _TeamPlanner,
    galois_field,
    team_draw,
    team_groups,
    team_quality,
)

# Measured (seeds 3, 5, 6 over every field of 4-12 equal teams of 4-8 players in 1-8 rounds, ten
# seeds over the worst fields, 550 random fields of unequal teams): where no perfect plan is
# built, the search leaves at most 1.21 repeat meetings per player above ``best_possible``
# (7 teams of 4 in 8 rounds: each player meets 24 of 24 possible opponents, which only a
# resolvable design would do without repeats; 6 teams of 4 in 7 rounds: 0.83; unequal teams:
# 0.96), and a pair meets at most once above an even spread (twice in two tight fields of
# unequal teams that Hypothesis found, e.g. 8 rounds where a team of four meets 24 of 24
# possible opponents). The test allows this much:
MARGIN_PER_PLAYER = 1.5


def lineups(sizes, start=1):
    teams, player = {}, start
    for team, size in enumerate(sizes, start=10):
        teams[team] = list(range(player, player + size))
        player += size
    return teams


def check_plan(teams, result, rounds):
    team_of = {player: team for team, players in teams.items() for player in players}
    everyone = sorted(team_of)
    assert len(result.rounds) == rounds
    for plan in result.rounds:
        assert sorted(plan.players) == everyone  # every player seated once a round
        for table in plan.tables:
            assert len(table) == 4
            assert len({team_of[player] for player in table}) == 4  # team-mates never together


def meetings(plans):
    counts = Counter()
    for plan in plans:
        for table in plan.tables:
            counts.update(itertools.combinations(sorted(table), 2))
    return counts


@pytest.mark.parametrize("q", [4, 5, 7, 8, 9])
def test_four_teams_of_a_prime_power_meet_everybody_exactly_once_in_q_rounds(q):
    teams = lineups([q] * 4)
    result = team_draw(teams, rounds=q, seed=q)
    check_plan(teams, result, q)
    # 4 teams of q: every pair of players of different teams, 6 q^2 of them, meets once.
    assert len(meetings(result.rounds)) == 6 * q * q
    assert result.quality.repeat_meetings == result.quality.best_possible == 0
    assert result.quality.most_in_one_position <= result.quality.position_limit


@settings(max_examples=25, deadline=None)
@given(q=st.sampled_from([4, 5, 7, 8, 9]), rounds=st.integers(1, 9), seed=st.integers(0, 2**32))
def test_a_perfect_plan_is_found_wherever_one_is_known(q, rounds, seed):
    rounds = min(rounds, q)
    teams = lineups([q] * 4)
    result = team_draw(teams, rounds=rounds, seed=seed)
    check_plan(teams, result, rounds)
    assert result.quality.repeat_meetings == 0
    assert result.quality.most_in_one_position <= math.ceil(rounds / 4)


@st.composite
def fields(draw):
    sizes = draw(st.lists(st.integers(4, 8), min_size=4, max_size=12))
    sizes[-1] += -sum(sizes) % 4 if sizes[-1] + -sum(sizes) % 4 <= 8 else -(sum(sizes) % 4)
    return lineups(sizes, start=draw(st.integers(1, 1000)))


@settings(max_examples=40, deadline=None)
@given(teams=fields(), rounds=st.integers(1, 8), seed=st.integers(0, 2**32))
def test_every_field_is_seated_by_teams_with_few_repeats_and_balanced_positions(
    teams, rounds, seed
):
    players = sum(len(lineup) for lineup in teams.values())
    if max(len(lineup) for lineup in teams.values()) > players // 4:
        with pytest.raises(TeamSeatingError, match="share a table"):
            team_draw(teams, rounds=rounds, seed=seed)
        return
    result = team_draw(teams, rounds=rounds, seed=seed)
    check_plan(teams, result, rounds)
    quality = result.quality
    assert quality.repeat_meetings >= quality.best_possible
    assert quality.repeat_meetings - quality.best_possible <= MARGIN_PER_PLAYER * players
    # Nobody meets anybody more than twice beyond an even spread over the other teams' players
    # (once beyond it in all but rare tight fields, see the margin above).
    others = min(players - len(lineup) for lineup in teams.values())
    assert quality.most_meetings <= max(1, math.ceil(3 * rounds / others)) + 2
    assert quality.most_in_one_position <= quality.position_limit == math.ceil(rounds / 4)


def test_a_larger_league_field_without_a_known_design_has_no_repeats():
    teams = lineups([6] * 8)  # 48 players: 40 others each, 24 met in 8 rounds
    result = team_draw(teams, rounds=8, seed=1)
    check_plan(teams, result, 8)
    assert result.quality.repeat_meetings == 0


def test_same_seed_same_plan_whatever_the_order_of_teams_and_players():
    teams = lineups([5, 6, 4, 5, 4])
    shuffled = {team: players[::-1] for team, players in reversed(teams.items())}
    assert team_draw(teams, rounds=4, seed=7) == team_draw(shuffled, rounds=4, seed=7)
    assert team_draw(teams, rounds=4, seed=7) != team_draw(teams, rounds=4, seed=8)


def test_earlier_rounds_count():
    teams = lineups([4] * 8)
    first = team_draw(teams, rounds=4, seed=1)
    second = team_draw(teams, rounds=4, seed=2, history=first.rounds)
    check_plan(teams, second, 4)
    assert second.quality.rounds == 8
    assert max(meetings([*first.rounds, *second.rounds]).values()) <= 2
    assert second.quality.repeat_meetings == sum(
        count - 1 for count in meetings([*first.rounds, *second.rounds]).values()
    )


def test_best_possible_counts_that_team_mates_never_meet():
    teams = lineups([2] * 4)  # 8 players, 2 tables: 6 players of other teams each
    result = team_draw(teams, rounds=4, seed=1)
    check_plan(teams, result, 4)
    # 12 opponents each over 4 rounds, only 6 exist: 8 x 6 / 2 repeats at least (not the 20
    # of the individual draw's bound, which counts 7 opponents).
    assert result.quality.best_possible == 24
    assert result.quality.repeat_meetings == 24
    assert team_quality(result.rounds, teams=teams).best_possible == 24


def test_team_mates_met_in_earlier_rounds_count_as_repeats():
    together = SeatingPlan(tables=((1, 2, 3, 4),))
    report = team_quality([together], teams={1: [1, 2], 2: [3], 3: [4]}, history=[together])
    # Team-mates 1 and 2 met twice: 1 repeat; 1 and 2 can meet only 3 and 4, each twice (2
    # repeats each), 3 and 4 only three others (3 each): (2 + 2 + 3 + 3) / 2 more.
    assert report.best_possible == 6
    assert report.repeat_meetings == 6


def test_teams_of_one_player_meet_at_one_table_again_and_again():
    result = team_draw(lineups([1] * 4), rounds=2, seed=1)
    assert result.quality.repeat_meetings == result.quality.best_possible == 6


@pytest.mark.parametrize("q", [2, 3])
def test_four_teams_of_two_or_three_are_searched_not_built(q):
    """GF(2) and GF(3) have too few elements for the four steps of the perfect plan (it
    raised IndexError); these fields are drawn by the search. (No plan has every pair meet
    once here: that would take three orthogonal Latin squares of order 2 or 3.)"""
    teams = lineups([q] * 4)
    result = team_draw(teams, rounds=q, seed=1)
    check_plan(teams, result, q)
    assert max(meetings(result.rounds).values()) == 2


def test_fewer_than_four_teams_are_refused():
    with pytest.raises(TeamSeatingError, match="at least four teams") as error:
        team_draw(lineups([4, 4, 4]), rounds=1, seed=1)
    assert error.value.reason == "too_few_teams"


def test_a_team_with_more_players_than_tables_is_refused():
    with pytest.raises(TeamSeatingError, match=r"team 10 has 8 players but .* only 5 tables"):
        team_draw(lineups([8, 4, 4, 4]), rounds=1, seed=1)


def test_a_field_that_does_not_fill_tables_of_four_is_refused():
    with pytest.raises(SeatingError, match="1 more or 3 fewer"):
        team_draw(lineups([4, 4, 4, 3, 4, 4]), rounds=1, seed=1)


def test_a_player_in_two_line_ups_or_an_empty_team_is_refused():
    with pytest.raises(TeamSeatingError, match="player 1 "):
        team_draw({1: [1, 2], 2: [1, 3], 3: [4, 5], 4: [6, 7]}, rounds=1, seed=1)
    with pytest.raises(TeamSeatingError, match="team 5 has no players"):
        team_draw({**lineups([4] * 4), 5: []}, rounds=1, seed=1)
    with pytest.raises(ValueError, match="at least one round"):
        team_draw(lineups([4] * 4), rounds=0, seed=1)


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 16, 25, 27])
def test_galois_fields_are_fields(q):
    add, mul = galois_field(q)
    elements = range(q)
    for x in elements:
        assert sorted(add[x]) == list(elements)  # a group under addition
        assert add[0][x] == x
        assert mul[1][x] == x
        if x:
            assert sorted(mul[x][1:]) == list(range(1, q))  # no zero divisors
    for x, y, z in itertools.product(range(min(q, 6)), repeat=3):
        assert mul[x][add[y][z]] == add[mul[x][y]][mul[x][z]]


@pytest.mark.parametrize("q", [6, 10, 12])
def test_other_orders_have_no_field(q):
    assert galois_field(q) is None


def test_league_teams_split_into_groups_of_four():
    groups = team_groups(list(range(1, 13)), seed=1)
    assert sorted(team for group in groups for team in group) == list(range(1, 13))
    assert [len(group) for group in groups] == [4, 4, 4]
    assert groups == team_groups(list(range(12, 0, -1)), seed=1)
    with pytest.raises(ValueError, match="10 teams cannot be split into groups of 4"):
        team_groups(list(range(10)), seed=1)


@pytest.mark.parametrize("q", [4, 5, 7, 8, 9])
def test_the_perfect_plan_is_built_not_searched(q):
    field = _Field(lineups([q] * 4))
    planner = _TeamPlanner(field, (), rounds=q, rng=random.Random(q))
    drawn = planner.perfect_rounds(q)
    assert drawn is not None
    assert planner.cost() == 0  # nobody meets anybody twice before any search


@pytest.mark.parametrize("sizes", [[4] * 4, [4] * 8, [6] * 4, [5, 6, 4, 5, 4]])
def test_positions_stay_balanced_over_a_match_day_drawn_in_parts(sizes):
    teams = lineups(sizes)
    first = team_draw(teams, rounds=4, seed=1)
    second = team_draw(teams, rounds=4, seed=2, history=first.rounds)
    assert second.quality.most_in_one_position <= second.quality.position_limit == 2


def test_positions_drawn_round_by_round_count_the_rounds_played():
    teams = lineups([4] * 8)
    history: list[SeatingPlan] = []
    for number in range(8):
        result = team_draw(teams, rounds=1, seed=number, history=history)
        history += result.rounds
        # Each table's order is chosen against the positions played: within one of the limit
        # (a single round's order alone repeats positions far more often).
        assert result.quality.most_in_one_position <= result.quality.position_limit + 1
    assert result.quality.rounds == 8
