"""The standings and the ranking list: the plain-Python core (doko/standings.py)."""

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doko.standings import (
    DEFAULT_TIEBREAKS,
    Entrant,
    Highlight,
    Holder,
    PlayedRound,
    RoundResult,
    Standings,
    Status,
    Tiebreak,
    months_before,
    ranking,
    standings,
    statistics,
    table_placings,
    updated,
)


def entrant(n: int, status: Status = Status.ACTIVE) -> Entrant:
    return Entrant(entry_id=n, start_number=n, name=f"Player {n}", status=status)


def result(n: int, round_: int, points: int, placing: int = 1, confirmed: bool = True, **kw):
    return RoundResult(
        entry_id=n,
        round=round_,
        table=1,
        position=1,
        points=points,
        placing=placing,
        confirmed=confirmed,
        **kw,
    )


def order(table) -> list[int]:
    return [row.entrant.entry_id for row in table.rows]


def test_table_placings_share_the_better_place():
    assert table_placings({1: 30, 2: -10, 3: 30, 4: -50}) == {1: 1, 2: 3, 3: 1, 4: 4}
    assert table_placings({1: 0, 2: 0, 3: 0, 4: 0, 5: 0}) == dict.fromkeys(range(1, 6), 1)


def test_points_rank_first():
    table = standings(
        entrants=[entrant(1), entrant(2), entrant(3)],
        results=[result(1, 1, -20, 4), result(2, 1, 50, 1), result(3, 1, 10, 2)],
    )
    assert order(table) == [2, 3, 1]
    assert [row.rank for row in table.rows] == [1, 2, 3]


def test_default_chain_is_placings_then_best_round_then_start_number():
    assert DEFAULT_TIEBREAKS == (Tiebreak.PLACINGS, Tiebreak.BEST_ROUND, Tiebreak.START_NUMBER)
    results = [
        # 1 and 2 both have 40 points; 2 has the better (lower) sum of placings.
        result(1, 1, 60, 1),
        result(1, 2, -20, 4),
        result(2, 1, 20, 1),
        result(2, 2, 20, 1),
        # 3 and 4: 40 points, placings 3 both; 4 had the best single round.
        result(3, 1, 10, 2),
        result(3, 2, 30, 1),
        result(4, 1, 50, 1),
        result(4, 2, -10, 2),
        # 5 and 6: identical on everything but the start number.
        result(5, 1, 0, 3),
        result(6, 1, 0, 3),
    ]
    table = standings(entrants=[entrant(n) for n in (6, 5, 4, 3, 2, 1)], results=results)
    assert order(table)[:4] == [2, 4, 3, 1]
    assert order(table)[4:] == [5, 6]
    assert [row.rank for row in table.rows] == [1, 2, 3, 4, 5, 6]


def test_best_round_first_changes_the_order():
    results = [result(1, 1, 20, 1), result(1, 2, 20, 1), result(2, 1, 60, 1), result(2, 2, -20, 4)]
    by_placings = standings(entrants=[entrant(1), entrant(2)], results=results)
    by_best = standings(
        entrants=[entrant(1), entrant(2)],
        results=results,
        tiebreaks=(Tiebreak.BEST_ROUND, Tiebreak.PLACINGS, Tiebreak.START_NUMBER),
    )
    assert order(by_placings) == [1, 2]
    assert order(by_best) == [2, 1]


def test_without_start_number_in_the_chain_equal_players_share_a_rank():
    results = [result(1, 1, 10, 2), result(2, 1, 10, 2), result(3, 1, 5, 3)]
    table = standings(
        entrants=[entrant(1), entrant(2), entrant(3)],
        results=results,
        tiebreaks=(Tiebreak.PLACINGS, Tiebreak.BEST_ROUND),
    )
    assert [row.rank for row in table.rows] == [1, 1, 3]


def test_provisional_results_are_shown_apart_and_never_added():
    results = [result(1, 1, 30), result(1, 2, 100, confirmed=False), result(2, 1, 40)]
    table = standings(entrants=[entrant(1), entrant(2)], results=results)
    first, second = table.rows
    assert first.entrant.entry_id == 2  # 40 confirmed beats 30 confirmed + 100 provisional
    assert (second.points, second.provisional) == (30, 100)
    assert first.provisional is None
    assert table.rounds == (1, 2)
    assert table.provisional_rounds == (2,)
    assert second.results[1].confirmed is False
    assert second.rounds_played == 1
    assert second.best_round == 30


def test_disqualified_players_are_listed_unranked_after_the_others():
    table = standings(
        entrants=[entrant(1, Status.DISQUALIFIED), entrant(2), entrant(3, Status.WITHDRAWN)],
        results=[result(1, 1, 90), result(2, 1, -30), result(3, 1, -60)],
    )
    assert order(table) == [2, 3, 1]
    assert [row.rank for row in table.rows] == [1, 2, None]
    assert table.rows[1].entrant.status is Status.WITHDRAWN


def test_players_without_a_confirmed_round_are_listed_apart_unranked():
    """A substitute with 0 points ranked above every player with fewer (issue 32): he has not
    played, so he is listed after the ranked players, unranked, until his round is confirmed."""
    table = standings(
        entrants=[entrant(1), entrant(2), entrant(3), entrant(4, Status.DISQUALIFIED)],
        results=[result(2, 1, -4), result(3, 1, 8, confirmed=False), result(4, 1, 30)],
    )
    assert order(table) == [2, 1, 3, 4]
    assert [row.rank for row in table.rows] == [1, None, None, None]
    assert [row.not_played for row in table.rows] == [False, True, True, False]
    assert [row.played for row in table.rows] == [True, False, False, True]
    unplayed = table.rows[1]
    assert unplayed.points == 0
    assert unplayed.results == (None,)
    assert unplayed.best_round is None
    assert unplayed.average is None
    assert table.rows[2].provisional == 8  # handed in, not confirmed: not played yet


def test_a_withdrawn_player_without_a_round_is_left_out():
    """A no-show withdrawn before the first draw (issue 47) never played: the public standings
    do not list him at all; the players' list still does."""
    table = standings(
        entrants=[entrant(1, Status.WITHDRAWN), entrant(2)], results=[result(2, 1, -40)]
    )
    assert order(table) == [2]
    assert [row.rank for row in table.rows] == [1]


def test_a_withdrawn_player_with_a_result_handed_in_stays_listed():
    table = standings(
        entrants=[entrant(1, Status.WITHDRAWN), entrant(2)],
        results=[result(1, 1, 10, confirmed=False), result(2, 1, -40)],
    )
    assert order(table) == [2, 1]
    assert [row.rank for row in table.rows] == [1, None]


def test_an_update_leaves_out_a_player_withdrawn_without_a_round():
    previous = standings(entrants=[entrant(1), entrant(2)], results=[result(2, 1, -40)])
    table = updated(
        previous,
        entrants=[entrant(1, Status.WITHDRAWN), entrant(2)],
        changed={1},
        results=[],
    )
    assert order(table) == [2]


def test_statistics_count_confirmed_rounds():
    results = [
        result(1, 1, 30, solos_played=2, solos_won=1),
        result(1, 2, 12, solos_played=1, solos_won=1),
        result(1, 3, 50, confirmed=False, solos_played=4, solos_won=4),
    ]
    (row,) = standings(entrants=[entrant(1)], results=results).rows
    assert (row.solos_played, row.solos_won) == (3, 2)
    assert row.average == 21
    assert row.best_round == 30


@given(
    st.lists(
        st.tuples(st.integers(1, 12), st.integers(1, 4), st.integers(-150, 150), st.booleans()),
        max_size=40,
        unique_by=lambda t: (t[0], t[1]),
    )
)
def test_serialised_standings_read_back_equal(raw):
    results = [result(n, r, p, confirmed=c) for n, r, p, c in raw]
    table = standings(entrants=[entrant(n) for n in range(1, 13)], results=results)
    assert Standings.from_dict(table.to_dict()) == table
    assert Standings.unpack(table.pack()) == table
    # Everyone once; the ranked first, ranks never go down, the confirmed points never go up;
    # then those who have not played, unranked.
    assert sorted(order(table)) == list(range(1, 13))
    ranked = [row for row in table.rows if row.rank is not None]
    assert table.rows[: len(ranked)] == tuple(ranked)
    assert [row.rank for row in ranked] == sorted(row.rank for row in ranked)
    points = [row.points for row in ranked]
    assert points == sorted(points, reverse=True)
    assert all(row.rounds_played == 0 for row in table.rows[len(ranked) :])


def plainly_ranked(entrants, results, tiebreaks) -> list[tuple]:
    """The standings read straight from the rules, without regard to speed: each player's
    confirmed rounds summed, sorted by points and the chain, ranks shared on equal keys; then
    the players without a confirmed round, then the disqualified, each by start number; a
    withdrawn player without any result is left out."""
    rounds = sorted({r.round for r in results})
    lines = []
    for e in entrants:
        own = [r for r in results if r.entry_id == e.entry_id]
        if e.status == Status.WITHDRAWN and not own:
            continue
        counted = [r for r in own if r.confirmed]
        pending = [r for r in own if not r.confirmed]
        best = max((r.points for r in counted), default=None)
        points, placings = sum(r.points for r in counted), sum(r.placing for r in counted)
        key = [-points]
        for tiebreak in tiebreaks:
            key.append(
                {
                    Tiebreak.PLACINGS: placings,
                    Tiebreak.BEST_ROUND: -best if best is not None else 0,
                    Tiebreak.START_NUMBER: e.start_number,
                }[tiebreak]
            )
        cells = tuple(next((r for r in own if r.round == n), None) for n in rounds)
        line = (
            e,
            points,
            sum(r.points for r in pending) if pending else None,
            placings,
            best,
            len(counted),
            sum(r.solos_played for r in counted),
            sum(r.solos_won for r in counted),
            cells,
        )
        group = 2 if e.status == Status.DISQUALIFIED else 1 if not counted else 0
        lines.append((group, tuple(key), line))
    ranked = sorted((x for x in lines if not x[0]), key=lambda x: x[1])
    out = []
    for index, (_, key, line) in enumerate(ranked, start=1):
        tied = index > 1 and ranked[index - 2][1] == key
        out.append((out[-1][0] if tied else index, *line))
    for group in (1, 2):
        unranked = sorted((x for x in lines if x[0] == group), key=lambda x: x[2][0].start_number)
        out += [(None, *line) for _, _, line in unranked]
    return out


@given(
    st.lists(
        st.tuples(
            st.integers(1, 10),  # player
            st.integers(1, 5),  # round
            st.integers(-6, 6),  # points / 10: ties on points are common
            st.integers(1, 4),  # placing
            st.booleans(),  # confirmed
            st.integers(0, 2),  # solos played
        ),
        max_size=40,
        unique_by=lambda t: (t[0], t[1]),
    ),
    st.lists(st.sampled_from(list(Status)), min_size=10, max_size=10),
    st.lists(st.sampled_from(list(Tiebreak)), max_size=3, unique=True),
    st.permutations(range(1, 11)),
)
def test_the_standings_are_the_plain_reading_of_the_rules(raw, statuses, tiebreaks, arrival):
    """The rebuild's one-pass ranking (made fast for 2,000 players) against the rules read
    plainly: the same rows in the same order with the same ranks."""
    entrants = [
        Entrant(entry_id=n, start_number=n, name=f"Player {n}", status=statuses[n - 1])
        for n in arrival  # in any order: equal players keep it, as the plain reading does
    ]
    results = [
        result(n, r, 10 * p, placing, confirmed=c, solos_played=solos)
        for n, r, p, placing, c, solos in raw
    ]
    table = standings(entrants=entrants, results=results, tiebreaks=tiebreaks)
    got = [(row.rank, row.entrant, *row.counted) for row in table.rows]
    assert got == plainly_ranked(entrants, results, tiebreaks)
    # Ranked exactly: every player with a confirmed round who is not disqualified.
    for row in table.rows:
        counted = row.entrant.status != Status.DISQUALIFIED and row.rounds_played > 0
        assert (row.rank is not None) == counted
        assert row.not_played == (row.entrant.status != Status.DISQUALIFIED and not counted)
    assert table.rounds == tuple(sorted({r.round for r in results}))
    assert table.provisional_rounds == tuple(sorted({r.round for r in results if not r.confirmed}))


_results = st.lists(
    st.tuples(
        st.integers(1, 10),  # player
        st.integers(1, 5),  # round
        st.integers(-6, 6),  # points / 10: ties on points are common
        st.integers(1, 4),  # placing
        st.booleans(),  # confirmed
        st.integers(0, 2),  # solos played
        st.integers(1, 3),  # table
    ),
    max_size=40,
    unique_by=lambda t: (t[0], t[1]),
)


def _made(raw) -> list[RoundResult]:
    return [
        RoundResult(n, r, table, 1, 10 * p, placing=placing, confirmed=c, solos_played=solos)
        for n, r, p, placing, c, solos, table in raw
    ]


@given(
    _results,
    _results,
    st.sets(st.integers(1, 12)),  # players told as changed beyond those whose results did
    st.lists(st.sampled_from(list(Status)), min_size=12, max_size=12),
    st.lists(st.sampled_from(list(Status)), min_size=12, max_size=12),
    st.sets(st.integers(1, 12), min_size=1),  # entered before
    st.sets(st.integers(1, 12), min_size=1),  # entered now
    st.lists(st.sampled_from(list(Tiebreak)), max_size=3, unique=True),
)
def test_updated_standings_are_the_standings_of_all_results(
    before_raw, after_raw, also, statuses_before, statuses_after, before_in, after_in, tiebreaks
):
    """The rebuild after a confirm (``updated``: the changed players' rows computed again,
    everyone else's kept) gives exactly the standings computed from all the results: the same
    rows, ranks, rounds and provisional rounds; and packs to the same bytes, with the rows
    written before kept or not. Players come and go, change their names and status."""

    def field(entered, statuses, renamed):
        return [
            Entrant(n, n, f"Player {n}{'*' if renamed and n % 3 == 0 else ''}", "", statuses[n - 1])
            for n in sorted(entered)
        ]

    old_entrants = field(before_in, statuses_before, renamed=False)
    new_entrants = field(after_in, statuses_after, renamed=True)
    # The results of players entered (the database has none of others: they go with the entry).
    before = [r for r in _made(before_raw) if r.entry_id in before_in]
    after = [r for r in _made(after_raw) if r.entry_id in after_in]
    previous = standings(entrants=old_entrants, results=before, tiebreaks=tiebreaks)
    written: dict = {}
    previous.pack(written)
    # Told as changed: every player whose results differ (and maybe others).
    changed = set(also) | {
        n
        for n in range(1, 13)
        if {r for r in before if r.entry_id == n} != {r for r in after if r.entry_id == n}
    }
    # Entered anew: no results before (a new entry's are of tables confirmed since: changed).
    changed |= after_in - before_in
    theirs = [r for r in after if r.entry_id in changed]
    got = updated(
        previous, entrants=new_entrants, changed=changed, results=theirs, tiebreaks=tiebreaks
    )
    full = standings(entrants=new_entrants, results=after, tiebreaks=tiebreaks)
    assert got == full
    assert got.pack(written) == full.pack() == got.pack()
    assert Standings.unpack(got.pack(written)) == full


def test_updated_keeps_the_rows_of_players_unchanged():
    """What makes a confirm cheap: a player whose results did not change keeps his row (the
    same object) where his rank is the same, and its JSON is not written again."""
    entrants = [entrant(n) for n in range(1, 6)]
    before = [result(n, 1, 10 * n) for n in range(1, 6)]
    previous = standings(entrants=entrants, results=before)
    changed = [result(1, 1, 15)]  # still last
    got = updated(previous, entrants=entrants, changed={1}, results=changed)
    assert got == standings(entrants=entrants, results=[*before[1:], *changed])
    assert all(new is old for new, old in zip(got.rows[:4], previous.rows[:4], strict=True))
    assert got.rows[4] is not previous.rows[4]


# The ranking list ---------------------------------------------------------------------------

TODAY = datetime.date(2026, 11, 23)


def played(player: int, points: int, day: datetime.date = TODAY, times: int = 1):
    return [PlayedRound(player_id=player, played_on=day, points=points) for _ in range(times)]


def test_ranking_averages_over_the_window_with_a_minimum_of_rounds():
    rounds = [
        *played(1, 20, times=36),  # average 20, enough rounds
        *played(2, 30, times=35),  # better average, one round short
        *played(3, 25, times=40),
        *played(3, 1000, day=datetime.date(2024, 11, 23)),  # 24 months ago: out of the window
        *played(4, 10, day=datetime.date(2027, 1, 1)),  # after the day: not counted
    ]
    rows = ranking(played=rounds, today=TODAY)
    assert [(row.player_id, row.rank) for row in rows] == [(3, 1), (1, 2), (2, None)]
    assert rows[0].average == 25
    assert rows[0].rounds == 40


def test_ranking_window_and_minimum_are_configurable():
    rounds = [*played(1, 10, datetime.date(2025, 6, 1), times=3), *played(2, 5, times=2)]
    assert [r.player_id for r in ranking(played=rounds, today=TODAY, min_rounds=2)] == [1, 2]
    short = ranking(played=rounds, today=TODAY, months=3, min_rounds=2)
    assert [(r.player_id, r.rank) for r in short] == [(2, 1)]


def test_equal_averages_share_a_rank():
    rounds = [*played(1, 10, times=2), *played(2, 10, times=3), *played(3, 4, times=1)]
    rows = ranking(played=rounds, today=TODAY, min_rounds=1)
    assert [(r.player_id, r.rank) for r in rows] == [(1, 1), (2, 1), (3, 3)]


@pytest.mark.parametrize(
    ("day", "months", "expected"),
    [
        (datetime.date(2026, 11, 23), 24, datetime.date(2024, 11, 23)),
        (datetime.date(2026, 3, 31), 1, datetime.date(2026, 2, 28)),
        (datetime.date(2024, 3, 31), 1, datetime.date(2024, 2, 29)),
        (datetime.date(2026, 1, 15), 13, datetime.date(2024, 12, 15)),
    ],
)
def test_months_before(day, months, expected):
    assert months_before(day, months) == expected


def test_statistics_of_a_tournament():
    table = standings(
        entrants=[entrant(1), entrant(2), entrant(3, Status.DISQUALIFIED)],
        results=[
            result(1, 1, 30, solos_played=2, solos_won=1),
            result(1, 2, -70, solos_played=1),
            result(2, 1, 45, solos_played=3, solos_won=3),
            result(3, 1, 5),
            result(2, 2, 90, confirmed=False),  # provisional: not counted
        ],
    )
    figures = statistics(table)
    assert figures.results == 4
    assert (figures.solos_played, figures.solos_won) == (6, 4)
    assert figures.highest_round == Highlight(45, (Holder(entrant(2), 1),))
    assert figures.lowest_round == Highlight(-70, (Holder(entrant(1), 2),))
    assert figures.most_solos_won == Highlight(3, (Holder(entrant(2)),))


def test_statistics_name_every_player_who_shares_a_mark():
    """Fourteen players won one solo each: the mark is theirs, not one of theirs (issue 32)."""
    table = standings(
        entrants=[entrant(n) for n in range(1, 17)],
        results=[result(n, 1, 10, solos_played=1, solos_won=1) for n in range(1, 15)]
        + [result(15, 1, 10), result(16, 2, 10)],
    )
    figures = statistics(table)
    assert figures.most_solos_won.value == 1
    assert [h.entrant.entry_id for h in figures.most_solos_won.holders] == list(range(1, 15))
    assert figures.most_solos_won.players == 14
    # Every round scored 10: each player's round is a holder of the highest and the lowest.
    assert figures.highest_round.players == figures.lowest_round.players == 16


@given(
    st.lists(
        st.tuples(st.integers(1, 8), st.integers(1, 3), st.integers(-3, 3), st.integers(0, 2)),
        max_size=24,
        unique_by=lambda t: (t[0], t[1]),
    )
)
def test_a_mark_is_held_by_exactly_those_who_reach_it(raw):
    table = standings(
        entrants=[entrant(n) for n in range(1, 9)],
        results=[result(n, r, 10 * p, solos_played=won, solos_won=won) for n, r, p, won in raw],
    )
    figures = statistics(table)
    rounds = {(n, r): 10 * p for n, r, p, _won in raw}
    won = {row.entrant.entry_id: row.solos_won for row in table.rows}
    if not raw:
        assert figures.highest_round is figures.lowest_round is None
    else:
        for mark, best in ((figures.highest_round, max), (figures.lowest_round, min)):
            assert mark.value == best(rounds.values())
            held = {(h.entrant.entry_id, h.round) for h in mark.holders}
            assert held == {key for key, points in rounds.items() if points == mark.value}
    if max(won.values()) == 0:
        assert figures.most_solos_won is None
    else:
        assert figures.most_solos_won.value == max(won.values())
        held = {h.entrant.entry_id for h in figures.most_solos_won.holders}
        assert held == {n for n, count in won.items() if count == max(won.values())}


def test_statistics_of_an_empty_tournament():
    figures = statistics(standings(entrants=[entrant(1)], results=[]))
    assert figures.highest_round is None
    assert figures.most_solos_won is None
