"""What a change to a scoresheet may do, in the core (TSR 8.2.2, 8.5.1, 8.5.3, 8.6.1, 9.1.3,
9.4.3, 9.4.4, 9.7.3, 9.7.5)."""

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from doko.rules.contracts import Contract, SoloType
from doko.rules.sheet import Replay, check_sheet, dealt_out_of_turn, with_dealers
from doko.rules.sheet_changes import (
    TableTime,
    decisions_kept_problems,
    incomplete_problem,
    lines_struck,
    strike_problem,
    time_over_note_problem,
    time_over_problem,
    zero_line,
    zero_line_problem,
)
from doko.sample_sheets import full_match, normal

MATCH = full_match()


@given(hands=st.integers(min_value=0, max_value=30), after=st.none() | st.integers(-5, 40))
def test_the_time_ends_after_a_hand_the_sheet_has(hands, after):
    """TSR 8.5.1: after none of the hands, or after one the sheet has; not noted is fine."""
    problem = time_over_problem(hands=hands, after=after)
    assert (problem is None) == (after is None or 0 <= after <= hands)
    if problem is not None:
        assert (problem.field, problem.rule) == ("time_over_after_hand", "TSR 8.5.1")


def test_the_time_over_message_keeps_its_section_inside_the_sentence():
    problem = time_over_problem(hands=3, after=5)
    assert problem is not None
    assert problem.message == (
        "The playing time cannot have ended after hand 5: the sheet has 3 hands (TSR 8.5.1)."
    )


@given(
    after=st.none() | st.integers(0, 24),
    noted=st.none() | st.integers(0, 24),
    over=st.booleans(),
    announced=st.booleans(),
    five=st.booleans(),
)
def test_the_end_is_noted_only_once_it_has_come_unless_cleared_or_kept(
    after, noted, over, announced, five
):
    """TSR 8.5.1, 10.1.5: a new note needs the table's time over; clearing or keeping it not."""
    time = TableTime(table=3, over=over, announced=announced, five=five, ends_at="21:40")
    problem = time_over_note_problem(after=after, noted=noted, time=time)
    assert (problem is None) == (after is None or after == noted or over)
    if problem is not None:
        assert problem.field == "time_over_after_hand"
        expected = "TSR 8.5.1, 10.1.5" if announced and five else "TSR 8.5.1"
        assert problem.rule == expected
        assert ("21:40" in problem.message) == announced


@given(st.integers(min_value=0, max_value=len(MATCH)))
def test_hands_kept_as_they_are_move_no_decision(count):
    lines = MATCH[:count]
    decided = range(1, count + 1)
    assert (
        decisions_kept_problems(
            old=lines, new=lines, stopped=(), without_game_points=(), decided=decided
        )
        == []
    )


def stopped_at(number):
    """The match with hand ``number`` stopped (TSR 9.4.3): its line not played, no points."""
    line = zero_line(
        dealer=MATCH[number - 1].dealer, table_size=4, contract=Contract.NORMAL, not_played=True
    )
    return [*MATCH[: number - 1], line, *MATCH[number - 1 :]]


def test_a_stopped_hand_stays_stopped_and_no_other_becomes_one():
    old = stopped_at(3)
    corrected = [*old[:5], replace(old[5], points={1: 2, 2: -2, 3: -2, 4: 2}), *old[6:]]
    assert (
        decisions_kept_problems(
            old=old, new=corrected, stopped={3}, without_game_points=(), decided={3}
        )
        == []
    )
    played = [*old[:2], MATCH[2], *old[3:]]
    (problem,) = decisions_kept_problems(
        old=old, new=played, stopped={3}, without_game_points=(), decided={3}
    )
    assert (problem.field, problem.rule, problem.params) == ("hands", "TSR 9.4.3", {"hand": 3})
    made_up = [*old[:6], replace(old[6], not_played=True), *old[7:]]
    (problem,) = decisions_kept_problems(
        old=old, new=made_up, stopped={3}, without_game_points=(), decided={3}
    )
    assert (problem.rule, problem.params) == ("TSR 9.4.3", {"hand": 7})


def test_a_hand_before_a_decision_is_corrected_but_not_struck_out():
    old = stopped_at(5)
    struck = old[1:]
    problems = decisions_kept_problems(
        old=old, new=struck, stopped={5}, without_game_points=(), decided={5}
    )
    assert [p.rule for p in problems][-1] == "TSR 8.2.2"
    assert problems[-1].params == {"hand": 5}
    # After the decision a hand may go.
    assert (
        decisions_kept_problems(
            old=old, new=old[:-1], stopped={5}, without_game_points=(), decided={5}
        )
        == []
    )


def test_only_the_adjudicator_adds_a_replay():
    line = zero_line(
        dealer=1, table_size=4, contract=Contract.NORMAL, not_played=True, replay=Replay.CONSENT
    )
    (problem,) = decisions_kept_problems(
        old=MATCH[:2], new=[*MATCH[:2], line], stopped=(), without_game_points=(), decided=()
    )
    assert (problem.rule, problem.params) == ("TSR 9.1.3", {"hand": 3})


def test_a_solo_counted_without_game_points_stays_so():
    solo = zero_line(
        dealer=1,
        table_size=4,
        contract=Contract.VOLUNTARY_SOLO,
        soloist=2,
        solo_type=SoloType.QUEENS,
    )
    old = [*MATCH[:1], solo, *MATCH[2:4]]
    new = [*MATCH[:4]]
    (problem,) = decisions_kept_problems(
        old=old, new=new, stopped=(), without_game_points={2}, decided={2}
    )
    assert (problem.rule, problem.params) == ("TSR 9.4.4", {"hand": 2})


@given(size=st.sampled_from([4, 5]), dealer=st.integers(1, 4))
def test_a_zero_line_scores_nothing_for_any_seat(size, dealer):
    line = zero_line(dealer=dealer, table_size=size, contract=Contract.NORMAL, not_played=True)
    assert line.points == dict.fromkeys(range(1, size + 1), 0)
    assert line.game_value == 0
    assert line.dealer == dealer


@given(hands=st.integers(0, 30), number=st.integers(-3, 35))
def test_a_decisions_line_is_on_the_sheet_or_the_hand_being_played(hands, number):
    """TSR 9.7.5: a hand on the sheet, or the next."""
    problem = zero_line_problem(hands=hands, number=number)
    assert (problem is None) == (1 <= number <= hands + 1)
    if problem is not None:
        assert (problem.field, problem.rule) == ("hand_number", "TSR 9.7.5")


@given(number=st.integers(1, len(MATCH)), time_over=st.none() | st.integers(0, len(MATCH)))
def test_striking_a_hand_leaves_one_fewer_dealt_as_the_tsr_says(number, time_over):
    """TSR 7.3.3, 9.7.3, 8.5.1: one line fewer, the rest in order dealt again by the TSR, and
    the time-over mark no further than the last hand."""
    struck = lines_struck(
        MATCH, number=number, table_size=4, hands_per_match=24, time_over=time_over
    )
    assert len(struck.lines) == len(MATCH) - 1
    assert [line.points for line in struck.lines] == [
        line.points for index, line in enumerate(MATCH, start=1) if index != number
    ]
    assert struck.lines == with_dealers(
        struck.lines, table_size=4, hands_per_match=24, time_over_after_hand=struck.time_over
    )
    if time_over is None:
        assert struck.time_over is None
    else:
        assert struck.time_over == min(time_over, len(MATCH) - 1)


def test_a_hand_dealt_out_of_turn_stands_as_dealt_when_another_is_struck():
    """TSR 9.7.3: hand 2, dealt by seat 3 out of turn, stands as dealt when hand 1 goes, and
    the deal goes on from seat 3."""
    wrong = [normal(1, (1, 2), 1), normal(3, (1, 2), 1), normal(4, (1, 2), 1)]
    out_of_turn = dealt_out_of_turn(check_sheet(hands=wrong, table_size=4, hands_per_match=24))
    assert out_of_turn == {2}
    struck = lines_struck(
        wrong, number=1, table_size=4, hands_per_match=24, time_over=None, out_of_turn=out_of_turn
    )
    assert [line.dealer for line in struck.lines] == [3, 4]


@given(hands=st.integers(0, 30), number=st.integers(-3, 35))
def test_only_a_hand_on_the_entry_is_struck_out(hands, number):
    problem = strike_problem(hands=hands, number=number)
    assert (problem is None) == (1 <= number <= hands)
    if problem is not None:
        assert problem.message == f"There is no hand {number}."
        assert problem.rule == ""  # the input's, no rule of the TSR


def test_a_sheet_not_complete_says_why_by_the_time():
    def problem(**kwargs):
        return incomplete_problem(
            table_size=4, remaining=4, hands_per_match=24, forced_soloist=3, **kwargs
        )

    owed = problem(time_noted=True, time_over=True)
    assert (owed.rule, owed.message) == (
        "TSR 8.5.3, 8.6.1",
        "Seat 3 must still play a forced solo.",
    )
    playing = problem(time_noted=False, time_over=False)
    assert playing.rule == "TSR 8.5.1, 8.6.1"
    assert "4 of the round's 24 hands are still to be played" in playing.message
    unnoted = problem(time_noted=False, time_over=True)
    assert unnoted.rule == "TSR 8.5.1, 8.5.3"
    five = incomplete_problem(
        time_noted=False,
        time_over=False,
        table_size=5,
        remaining=1,
        hands_per_match=30,
        forced_soloist=None,
    )
    assert five.rule == "TSR 10.1.5, 8.6.1"
    assert "1 of the round's 30 hands is still to be played" in five.message
