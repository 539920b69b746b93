"""The club ranking of an individual tournament: each club's best N players' points summed."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doko.club_ranking import ClubPlayer, club_key, club_ranking

CLUBS = ["SG Kreuz", "sg kreuz ", "Pik Dame", "Herz-Ass Köln", "", "  "]

players_strategy = st.lists(
    st.builds(
        ClubPlayer,
        entry_id=st.integers(1, 10_000),
        club=st.sampled_from(CLUBS),
        points=st.integers(-300, 300),
    ),
    max_size=40,
    unique_by=lambda player: player.entry_id,
)


def test_best_players_are_summed_and_clubs_ranked_by_them():
    rows = [
        ClubPlayer(1, "SG Kreuz", 120),
        ClubPlayer(2, "SG Kreuz", 80),
        ClubPlayer(3, "SG Kreuz", -30),
        ClubPlayer(4, "Pik Dame", 100),
        ClubPlayer(5, "pik dame", 90),
        ClubPlayer(6, "Einzel", 500),
        ClubPlayer(7, "", 900),
    ]
    ranking = club_ranking(rows, players=2)
    assert [(line.rank, line.club, line.points) for line in ranking] == [
        (1, "SG Kreuz", 200),
        (2, "Pik Dame", 190),
        (None, "Einzel", 500),  # one player: not ranked, after the ranked clubs
    ]
    assert ranking[0].counted == (1, 2)
    assert ranking[0].members == 3
    assert not ranking[2].complete


def test_clubs_with_equal_points_share_a_rank():
    rows = [ClubPlayer(1, "A", 10), ClubPlayer(2, "B", 10), ClubPlayer(3, "C", 5)]
    assert [line.rank for line in club_ranking(rows, players=1)] == [1, 1, 3]


def test_at_least_one_player_counts():
    with pytest.raises(ValueError, match="at least 1"):
        club_ranking([], players=0)


@given(players_strategy, st.integers(1, 6))
def test_each_club_sums_its_best_players(rows, count):
    ranking = club_ranking(rows, players=count)
    for line in ranking:
        members = sorted(
            (row.points for row in rows if club_key(row.club) == club_key(line.club)),
            reverse=True,
        )
        assert line.points == sum(members[:count])
        assert len(line.counted) == min(count, len(members))
        assert line.members == len(members)
        assert line.complete == (len(members) >= count)


@given(players_strategy, st.integers(1, 6))
def test_empty_club_names_are_no_club_and_case_does_not_split_a_club(rows, count):
    ranking = club_ranking(rows, players=count)
    keys = [club_key(line.club) for line in ranking]
    assert "" not in keys
    assert len(keys) == len(set(keys))
    assert set(keys) == {club_key(row.club) for row in rows} - {""}


@given(players_strategy, st.integers(1, 6))
def test_ranked_clubs_come_first_best_first(rows, count):
    ranking = club_ranking(rows, players=count)
    complete = [line for line in ranking if line.complete]
    assert ranking[: len(complete)] == tuple(complete)
    assert [line.points for line in complete] == sorted(
        (line.points for line in complete), reverse=True
    )
    for index, line in enumerate(complete):
        assert line.rank == 1 + sum(other.points > line.points for other in complete)
        assert line.rank <= index + 1


@given(players_strategy, st.integers(1, 6), st.randoms())
def test_the_order_of_the_rows_does_not_matter(rows, count, random):
    shuffled = list(rows)
    random.shuffle(shuffled)
    first = club_ranking(rows, players=count)
    again = club_ranking(shuffled, players=count)
    assert [(line.rank, club_key(line.club), line.points) for line in first] == [
        (line.rank, club_key(line.club), line.points) for line in again
    ]
