"""What a ranking list asks of a tournament, and what changed since its admission: the plain
core (doko/rankings.py)."""

import datetime

from hypothesis import given
from hypothesis import strategies as st

from doko import rankings
from doko.rankings import Criterion

TODAY = datetime.date(2026, 11, 22)
CRITERIA = rankings.Criteria(
    months=12, min_players=8, min_rounds=3, tables_of_four_only=True, official_only=True
)
GOOD = rankings.Facts(
    finished=True,
    public=True,
    standings_public=True,
    ends_on=TODAY,
    players=8,
    rounds=3,
    largest_table=4,
    official=True,
)


def test_a_tournament_that_meets_every_criterion_is_admissible():
    assert rankings.unmet(criteria=CRITERIA, facts=GOOD, today=TODAY) == []


def test_each_unmet_criterion_is_named_with_what_is_needed_and_what_it_has():
    facts = rankings.Facts(
        finished=False,
        public=False,
        standings_public=False,
        ends_on=datetime.date(2025, 11, 22),
        players=5,
        rounds=1,
        largest_table=5,
        official=False,
    )
    problems = rankings.unmet(criteria=CRITERIA, facts=facts, today=TODAY)
    assert [problem.criterion for problem in problems] == list(Criterion)
    by = {problem.criterion: problem for problem in problems}
    assert (by[Criterion.PLAYERS].needed, by[Criterion.PLAYERS].actual) == (8, 5)
    assert (by[Criterion.ROUNDS].needed, by[Criterion.ROUNDS].actual) == (3, 1)


def test_a_table_of_five_counts_only_against_a_list_of_tables_of_four():
    five = rankings.Facts(**{**GOOD.__dict__, "largest_table": 5})
    assert rankings.unmet(criteria=CRITERIA, facts=five, today=TODAY) == [
        rankings.Unmet(Criterion.TABLES_OF_FOUR, 4, 5)
    ]
    lenient = rankings.Criteria(months=12, min_players=8, min_rounds=3, tables_of_four_only=False)
    assert rankings.unmet(criteria=lenient, facts=five, today=TODAY) == []


def test_a_club_evening_counts_only_against_a_list_of_official_tournaments_only():
    """TSR 8.1.1: a list may ask for official tournaments; one that does not takes both."""
    evening = rankings.Facts(**{**GOOD.__dict__, "official": False})
    assert rankings.unmet(criteria=CRITERIA, facts=evening, today=TODAY) == [
        rankings.Unmet(Criterion.OFFICIAL)
    ]
    lenient = rankings.Criteria(months=12, min_players=8, min_rounds=3, tables_of_four_only=True)
    assert rankings.unmet(criteria=lenient, facts=evening, today=TODAY) == []


@given(
    players=st.integers(0, 300),
    rounds=st.integers(0, 20),
    min_players=st.integers(1, 300),
    min_rounds=st.integers(1, 20),
)
def test_the_numbers_are_unmet_exactly_when_short(players, rounds, min_players, min_rounds):
    criteria = rankings.Criteria(
        months=12, min_players=min_players, min_rounds=min_rounds, tables_of_four_only=False
    )
    facts = rankings.Facts(**{**GOOD.__dict__, "players": players, "rounds": rounds})
    unmet = {
        problem.criterion for problem in rankings.unmet(criteria=criteria, facts=facts, today=TODAY)
    }
    assert (Criterion.PLAYERS in unmet) == (players < min_players)
    assert (Criterion.ROUNDS in unmet) == (rounds < min_rounds)


counted = st.lists(
    st.builds(
        rankings.Counted,
        player_id=st.integers(1, 50),
        rounds=st.integers(0, 10),
        points=st.integers(-500, 500),
        status=st.sampled_from(["active", "withdrawn", "disqualified"]),
    ),
    unique_by=lambda line: line.player_id,
)


@given(counted)
def test_a_snapshot_reads_back_as_written_and_shows_no_change(lines):
    stored = rankings.snapshot(lines)
    assert rankings.from_snapshot(stored) == {line.player_id: line for line in lines}
    assert rankings.changes(admitted=stored, now=lines) == []


@given(counted, counted)
def test_the_changes_are_exactly_the_players_whose_results_differ(then, now):
    changes = rankings.changes(admitted=rankings.snapshot(then), now=now)
    before = {line.player_id: line for line in then}
    after = {line.player_id: line for line in now}
    assert {change.player_id for change in changes} == {
        player for player in before.keys() | after.keys() if before.get(player) != after.get(player)
    }
    for change in changes:
        assert (change.then, change.now) == (
            before.get(change.player_id),
            after.get(change.player_id),
        )
