"""The sheet check with the hard cases of a real day: a table that cannot finish, its sheet
ended early by a recorded decision, and games broken off and dealt again under TSR 9.1.3, at
tables of four and five."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doko.rules.contracts import Contract
from doko.rules.sheet import HandLine, Replay, check_sheet
from doko.sample_sheets import full_match


def check(hands, *, size, **kwargs):
    hands_per_match = 24 if size == 4 else 30
    return check_sheet(table_size=size, hands_per_match=hands_per_match, hands=hands, **kwargs)


def replayed(dealer: int, size: int, why: Replay = Replay.CONSENT) -> HandLine:
    return HandLine(
        contract=Contract.NORMAL,
        dealer=dealer,
        points=dict.fromkeys(range(1, size + 1), 0),
        game_value=0,
        not_played=True,
        replay=why,
    )


def with_replays(lines: list[HandLine], at: set[int], size: int) -> list[HandLine]:
    """The lines with a game broken off and dealt again before each line numbered in ``at``
    (0-based), dealt by that line's dealer: the same dealer deals again."""
    sheet: list[HandLine] = []
    for index, line in enumerate(lines):
        if index in at:
            sheet.append(
                replayed(line.dealer, size, Replay.RULING if index % 2 else Replay.CONSENT)
            )
        sheet.append(line)
    return sheet


@pytest.mark.parametrize(
    ("size", "played", "remaining"),
    [(4, 0, 24), (4, 7, 17), (4, 23, 1), (5, 0, 30), (5, 12, 18), (5, 29, 1)],
)
def test_a_sheet_ended_early_is_complete_with_nothing_due(size, played, remaining):
    lines = full_match(size=size)[:played]
    open_sheet = check(lines, size=size)
    assert not open_sheet.complete
    assert open_sheet.next.hands_remaining == remaining

    ended = check(lines, size=size, ended_early=True)

    assert ended.ok
    assert ended.complete
    assert ended.next.hands_remaining == 0
    assert not ended.next.must_be_forced_solo
    assert ended.totals == open_sheet.totals


def test_a_sheet_ended_early_waives_the_forced_solo_owed_after_the_time():
    lines = full_match(size=4)[:6]
    owing = check(lines, size=4, time_over_after_hand=6)
    assert not owing.complete
    assert owing.next.must_be_forced_solo

    ended = check(lines, size=4, time_over_after_hand=6, ended_early=True)

    assert ended.complete
    assert ended.next.forced_soloist is None


def test_ending_early_does_not_hide_the_problems_of_the_hands_played():
    lines = full_match(size=4)[:5]
    broken = [
        *lines[:4],
        HandLine(contract=Contract.NORMAL, dealer=1, points={1: 1, 2: 1, 3: 1, 4: -1}),
    ]

    ended = check(broken, size=4, ended_early=True)

    assert not ended.ok


@pytest.mark.parametrize("size", [4, 5])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_replays_do_not_count_towards_the_round_and_the_same_dealer_deals_again(size, data):
    lines = full_match(size=size)
    at = data.draw(st.sets(st.integers(0, len(lines) - 1), max_size=6))

    result = check(with_replays(lines, at, size), size=size)

    # The match is still exactly the 24 (30) lines played: no hand-count or dealer problem,
    # complete, the same totals as without the replays.
    assert result.ok, result.problems
    assert not result.warnings
    assert result.complete
    assert result.totals == check(lines, size=size).totals


@pytest.mark.parametrize("size", [4, 5])
def test_the_dealer_moving_on_after_a_replay_is_out_of_turn(size):
    lines = full_match(size=size)[:3]
    after = lines[1]
    moved = HandLine(
        contract=after.contract,
        dealer=after.dealer % size + 1,
        points=after.points,
        game_value=after.game_value,
    )

    result = check([lines[0], replayed(lines[1].dealer, size), moved], size=size)

    assert [warning.hand for warning in result.warnings] == [3]


def test_a_replay_carries_no_penalty_points():
    line = HandLine(
        contract=Contract.NORMAL,
        dealer=1,
        points=dict.fromkeys(range(1, 5), 0),
        game_value=0,
        not_played=True,
        replay=Replay.CONSENT,
        penalty={1: -2, 2: 2, 3: 0, 4: 0},
    )

    result = check([line], size=4)

    assert [(p.hand, p.code, p.rule) for p in result.problems] == [(1, "not_played", "TSR 9.1.3")]


def test_a_replay_is_a_line_not_played():
    with pytest.raises(ValueError, match="not played"):
        HandLine(
            contract=Contract.NORMAL,
            dealer=1,
            points=dict.fromkeys(range(1, 5), 0),
            replay=Replay.RULING,
        )
