"""Mending a drawn round after withdrawals and late entries (TSR 8.3, 10.1)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doko.seating import (
    Method,
    Reseat,
    SeatingError,
    SeatingPlan,
    draw,
    quality,
    reseat,
    table_sizes,
)

SIXTEEN = SeatingPlan(
    tables=((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)),
)
SEVENTEEN = SeatingPlan(
    tables=((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16, 17)),
)


def without(plan, *gone):
    return [player for player in plan.players if player not in gone]


def seats(plan):
    return {
        player: (number, seat)
        for number, table in enumerate(plan.tables)
        for seat, player in enumerate(table)
    }


def test_one_withdrawal_from_16_with_tables_of_five_dissolves_the_last_table():
    # 15 players: three tables of five. Table 4 goes: one of its players takes the empty seat,
    # the others the new fifth seats; nobody else moves.
    result = reseat(SIXTEEN, without(SIXTEEN, 2), seed=1, tables_of_five=True)
    assert sorted(result.plan.players) == without(SIXTEEN, 2)
    assert [len(table) for table in result.plan.tables] == [5, 5, 5]
    assert result.moved == (13, 14, 15, 16)
    assert [table[:4] for table in result.plan.tables[1:]] == [(5, 6, 7, 8), (9, 10, 11, 12)]
    assert [p for p in result.plan.tables[0] if p not in {13, 14, 15, 16}] == [1, 3, 4]
    assert result.plan.tables[0][0] == 1
    assert result.plan.tables[0][2:4] == (3, 4)


def test_a_withdrawal_at_the_last_table_moves_only_its_other_players():
    result = reseat(SIXTEEN, without(SIXTEEN, 14), seed=1, tables_of_five=True)
    assert result.moved == (13, 15, 16)
    assert [table[:4] for table in result.plan.tables] == list(SIXTEEN.tables[:3])
    assert sorted(table[4] for table in result.plan.tables) == [13, 15, 16]


def test_one_withdrawal_from_16_at_tables_of_four_cannot_be_seated():
    with pytest.raises(SeatingError) as error:
        reseat(SIXTEEN, without(SIXTEEN, 2), seed=1, tables_of_five=False)
    assert (error.value.missing, error.value.extra) == (1, 3)


@pytest.mark.parametrize("fives", [True, False])
def test_a_late_entry_takes_the_seat_of_a_withdrawn_player(fives):
    result = reseat(SIXTEEN, [*without(SIXTEEN, 7), 99], seed=1, tables_of_five=fives)
    assert result == Reseat(
        plan=SeatingPlan(
            tables=((1, 2, 3, 4), (5, 6, 99, 8), (9, 10, 11, 12), (13, 14, 15, 16)),
        ),
        moved=(99,),
    )


def test_17_to_16_the_table_of_five_gives_up_its_fifth_seat():
    result = reseat(SEVENTEEN, without(SEVENTEEN, 6), seed=1, tables_of_five=True)
    assert result.plan.tables == ((1, 2, 3, 4), (5, 17, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16))
    assert result.moved == (17,)


def test_17_to_16_a_withdrawal_at_the_table_of_five_closes_its_seats():
    middle = reseat(SEVENTEEN, without(SEVENTEEN, 14), seed=1, tables_of_five=True)
    assert middle.plan.tables[3] == (13, 17, 15, 16)
    assert middle.moved == (17,)
    last = reseat(SEVENTEEN, without(SEVENTEEN, 17), seed=1, tables_of_five=True)
    assert last.plan.tables == SIXTEEN.tables
    assert last.moved == ()


def test_16_to_17_the_late_entry_gets_a_fifth_seat_at_the_last_table():
    result = reseat(SIXTEEN, [*SIXTEEN.players, 17], seed=1, tables_of_five=True)
    assert result.plan == SEVENTEEN
    assert result.moved == (17,)


def test_a_table_of_five_elsewhere_stays_where_it_is():
    plan = SeatingPlan(tables=((1, 2, 3, 4), (5, 6, 7, 8, 9), (10, 11, 12, 13)))
    result = reseat(plan, [*without(plan, 9), 99], seed=1, tables_of_five=True)
    assert result.plan.tables[1] == (5, 6, 7, 8, 99)
    assert result.moved == (99,)


def test_19_to_20_the_fifth_seats_and_the_late_entry_make_a_new_table():
    plan = SeatingPlan(
        tables=((1, 2, 3, 4), (5, 6, 7, 8, 9), (10, 11, 12, 13, 14), (15, 16, 17, 18, 19)),
    )
    result = reseat(plan, [*plan.players, 20], seed=1, tables_of_five=True)
    assert [len(table) for table in result.plan.tables] == [4] * 5
    assert sorted(result.plan.tables[4]) == [9, 14, 19, 20]
    assert result.moved == (9, 14, 19, 20)


def test_no_change_keeps_the_plan():
    result = reseat(SIXTEEN, SIXTEEN.players[::-1], seed=1, tables_of_five=False)
    assert result.plan is SIXTEEN
    assert result.moved == ()


def test_a_player_given_twice_is_refused():
    with pytest.raises(ValueError, match="only once"):
        reseat(SIXTEEN, [*SIXTEEN.players, 1], seed=1, tables_of_five=True)


def test_a_late_entry_kept_apart_from_the_table_with_the_empty_seat():
    # The newcomer may not join 5, 6 or 8: one player elsewhere gives him his seat.
    apart = [(99, 5), (99, 6), (99, 8)]
    result = reseat(SIXTEEN, [*without(SIXTEEN, 7), 99], seed=1, tables_of_five=False, apart=apart)
    assert quality([result.plan], apart=apart).apart_broken == 0
    assert len(result.moved) == 2
    assert 99 in result.moved
    (swapped,) = set(result.moved) - {99}
    assert seats(result.plan)[swapped] == (1, 2)


def test_displaced_players_avoid_earlier_meetings():
    # Table 4 is dissolved (15 players: three tables of five). In round 1, 15 met table 1 and
    # 3 players; 16 met tables 1 and 2; 13 and 14 met only tables 2 and 3.
    history = [
        SeatingPlan(tables=((15, 1, 9, 4), (16, 3, 5, 8), (13, 6, 10, 2), (14, 7, 11, 12))),
    ]
    for seed in range(5):
        result = reseat(
            SIXTEEN, without(SIXTEEN, 2), seed=seed, tables_of_five=True, history=history
        )
        tables = [set(table) for table in result.plan.tables]
        assert tables == [{1, 3, 4, 13, 14}, {5, 6, 7, 8, 15}, {9, 10, 11, 12, 16}]
        assert quality([result.plan], history=history).repeat_meetings == 3  # kept tables only


def test_same_seed_same_result():
    plan = draw(range(1, 41), method=Method.RANDOM, seed=3, tables_of_five=True).rounds[0]
    players = [*without(plan, 1, 2, 3, 17, 33), 41, 42]
    first = reseat(plan, players, seed=5, tables_of_five=True)
    assert reseat(plan, players[::-1], seed=5, tables_of_five=True) == first


# Properties --------------------------------------------------------------------------------


def fewest_moves(plan, players, sizes):
    """The fewest players of ``plan`` who must change seats: those at tables and seats that are
    gone, all fifth seats kept where the tables of five allow."""
    active = set(players)
    count, fives = len(sizes), sizes.count(5)
    kept = [(number, seat) for player, (number, seat) in seats(plan).items() if player in active]
    stay = sum(number < count and seat < 4 for number, seat in kept)
    fifths = sum(number < count and seat == 4 for number, seat in kept)
    return len(kept) - stay - min(fives, fifths)


@settings(max_examples=60, deadline=None)
@given(
    field=st.integers(4, 40),
    fives=st.booleans(),
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
)
def test_every_player_seated_once_at_legal_tables_moving_the_fewest(field, fives, data, seed):
    try:
        plan = draw(range(1, field + 1), method=Method.RANDOM, seed=seed, tables_of_five=fives)
    except SeatingError:
        return
    plan = plan.rounds[0]
    gone = data.draw(st.sets(st.sampled_from(plan.players), max_size=min(field, 8)))
    late = data.draw(st.integers(0, 8))
    players = [p for p in plan.players if p not in gone] + list(range(100, 100 + late))
    try:
        sizes = table_sizes(len(players), tables_of_five=fives)
    except SeatingError:
        with pytest.raises(SeatingError):
            reseat(plan, players, seed=seed, tables_of_five=fives)
        return
    result = reseat(plan, players, seed=seed, tables_of_five=fives)
    assert sorted(result.plan.players) == sorted(players)
    assert sorted(len(table) for table in result.plan.tables) == sorted(sizes)
    before, after = seats(plan), seats(result.plan)
    assert result.moved == tuple(sorted(p for p in players if before.get(p) != after[p]))
    assert set(range(100, 100 + late)) <= set(result.moved)
    assert len(set(result.moved) - set(range(100, 100 + late))) == fewest_moves(
        plan, players, sizes
    )
    # A table that lost nobody and keeps its size keeps every player in his seat.
    for number, table in enumerate(plan.tables[: len(result.plan.tables)]):
        if not gone & set(table) and len(result.plan.tables[number]) == len(table):
            assert result.plan.tables[number] == table
    assert reseat(plan, players[::-1], seed=seed, tables_of_five=fives) == result


@settings(max_examples=30, deadline=None)
@given(
    field=st.integers(8, 32),
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
)
def test_pairs_kept_apart_where_the_field_allows(field, data, seed):
    field -= field % 4
    plan = draw(range(1, field + 1), method=Method.RANDOM, seed=seed, tables_of_five=False)
    plan = plan.rounds[0]
    gone = data.draw(st.sampled_from(plan.players))
    # The late entry is kept apart from two players of some table: there is always room.
    enemies = data.draw(st.sampled_from(plan.tables))[:2]
    apart = [(999, enemy) for enemy in enemies]
    players = [*without(plan, gone), 999]
    result = reseat(plan, players, seed=seed, tables_of_five=False, apart=apart)
    assert quality([result.plan], apart=apart).apart_broken == 0
    assert len(result.moved) <= 2
    (table,) = [table for table in result.plan.tables if 999 in table]
    assert not set(enemies) & set(table)
