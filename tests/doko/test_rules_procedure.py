"""The procedure around the table (TSR 8.2, 9.4, 9.7) over simulated tables: complaints,
rulings, appeals in time, and who decides an appeal."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import playing_seats
from doko.rules.penalty import Severity
from doko.rules.problems import InvalidInput
from doko.rules.procedure import (
    APPEAL_MINUTES,
    Ruling,
    WrittenLine,
    appeal_in_time,
    appeal_time_problem,
    complaint_problems,
    own_ruling,
    ruling_outcome,
)
from doko.rules.sheet import HandLine

AT = datetime(2026, 11, 26, 14, 0, tzinfo=UTC)


@st.composite
def tables(draw):
    """A table of four or five, the hands written on its sheet, and the dealer of a hand."""
    size = draw(st.sampled_from((4, 5)))
    written = draw(st.integers(0, 30))
    dealer = draw(st.integers(1, size))
    return size, written, dealer


def normal_line(dealer: int, size: int) -> HandLine:
    seats = playing_seats(dealer=dealer, table_size=size)
    points = dict.fromkeys(range(1, size + 1), 0)
    points.update({seats[0]: 1, seats[1]: 1, seats[2]: -1, seats[3]: -1})
    return HandLine(contract=Contract.NORMAL, dealer=dealer, points=points, game_value=1)


@given(tables(), st.integers(-2, 35), st.integers(1, 5), st.none() | st.integers(1, 5))
def test_a_complaint_is_accepted_iff_about_a_hand_written_or_the_next(
    table, hand, offender, complainant
):
    """TSR 9.7.5: a hand on the sheet or the one being played; TSR 9.7.1: not one's own."""
    size, written, _ = table
    problems = complaint_problems(
        hand_number=hand,
        offender=offender,
        complainant=complainant,
        table_size=size,
        hands_written=written,
    )
    fields = {problem.field for problem in problems}
    assert ("hand_number" in fields) == (not 1 <= hand <= written + 1)
    assert ("offender" in fields) == (offender > size)
    own = complainant is not None and complainant == offender
    outside = complainant is not None and complainant > size
    assert ("complainant" in fields) == (own or outside)
    assert all(problem.rule.startswith("TSR ") for problem in problems)


@given(tables(), st.data())
def test_no_complaint_about_a_hand_a_major_breach_ended(table, data):
    """TSR 9.4.2, 9.7.6: nothing more in it is penalised; its replay is the next hand."""
    size, written, _ = table
    assume(written >= 1)
    hand = data.draw(st.integers(1, written))
    problems = complaint_problems(
        hand_number=hand,
        offender=1,
        complainant=None,
        table_size=size,
        hands_written=written,
        ended={hand},
    )
    assert [(problem.field, problem.rule) for problem in problems] == [
        ("hand_number", "TSR 9.7.6, 9.4.2")
    ]
    assert problems[0].params["next"] == hand + 1


severities = st.sampled_from(list(Severity))


@given(tables(), severities, st.integers(0, 5), st.booleans(), st.data())
def test_a_ruling_in_a_normal_game_sums_to_zero_and_spares_the_dealer_at_five(
    table, severity, announcements, decided, data
):
    """TSR 7.3.3.1, 9.3, 9.4: the penalty points add up to zero; TSR 10.1.1, 10.1.2: at a
    table of five the dealer does not play, so he neither offends nor gets any."""
    size, written, dealer = table
    offender = data.draw(st.integers(1, size))
    hand = written + 1  # the hand being played: nothing written to ask about
    decided = decided and severity is Severity.MAJOR  # TSR 9.5.1 is about a major breach
    ruling = Ruling(severity, announcements=announcements, decided=decided)
    arguments = {
        "hand_number": hand,
        "offender": offender,
        "table_size": size,
        "dealer": dealer,
        "line": None,
        "ruling": ruling,
    }
    if size == 5 and offender == dealer:
        with pytest.raises(InvalidInput) as error:
            ruling_outcome(**arguments)
        assert [(e.field, e.rule) for e in error.value.errors] == [("offender", "TSR 10.1.1")]
        return
    outcome = ruling_outcome(**arguments)
    assert sum(outcome.points.values()) == 0
    assert set(outcome.points) == set(range(1, size + 1))
    if size == 5:
        assert outcome.points[dealer] == 0
    assert outcome.points == outcome.computed
    assert outcome.hand_not_played == (severity is Severity.MAJOR and not decided)
    assert outcome.written_line is None


@given(tables(), st.lists(st.integers(-30, 30), min_size=5, max_size=5))
def test_deviating_points_that_do_not_sum_to_zero_are_refused(table, points):
    size, written, dealer = table
    seats = playing_seats(dealer=dealer, table_size=size)
    penalty = {seat: points[index] for index, seat in enumerate(seats)}
    offender = seats[0]
    ruling = Ruling(Severity.MINOR, penalty=penalty, deviation_reason="x")
    arguments = {
        "hand_number": written + 1,
        "offender": offender,
        "table_size": size,
        "dealer": dealer,
        "line": None,
        "ruling": ruling,
    }
    if sum(penalty.values()) != 0:
        with pytest.raises(InvalidInput) as error:
            ruling_outcome(**arguments)
        assert error.value.errors[0].field == "penalty"
    else:
        # Adding up to zero, they still stand only on the TSR's scale (TSR 9.2-9.5; see
        # tests/doko/test_rules_odd_even.py).
        refused: tuple = ()
        try:
            outcome = ruling_outcome(**arguments)
        except InvalidInput as error:
            refused = error.errors
        else:
            assert sum(outcome.points.values()) == 0
        assert [e.rule for e in refused] in ([], ["TSR 9.2-9.5, 9.6.2"])


@given(
    tables(),
    st.sampled_from((None, *WrittenLine)),
    st.booleans(),
    st.booleans(),
)
def test_a_ruling_that_changes_a_written_line_says_which_it_is(table, written_line, solo, on):
    """TSR 9.4.3, 9.4.4: a hand stopped, or a solo counted as played without game points,
    whose line is written: the ruling says whether that line is the stopped game itself or
    the game dealt after it; for a hand not written, it says nothing."""
    size, written, dealer = table
    seats = playing_seats(dealer=dealer, table_size=size)
    hand = written if on and written else written + 1
    line = normal_line(dealer, size) if hand <= written else None
    fields = (
        {"contract": Contract.VOLUNTARY_SOLO, "soloist": seats[0], "solo_type": SoloType.QUEENS}
        if solo
        else {}
    )
    if solo and line is not None:
        line = HandLine(
            contract=Contract.VOLUNTARY_SOLO,
            dealer=dealer,
            points=line.points,
            soloist=seats[0],
            solo_type=SoloType.QUEENS,
        )
    ruling = Ruling(Severity.MAJOR, written_line=written_line, **fields)
    arguments = {
        "hand_number": hand,
        "offender": seats[1],
        "table_size": size,
        "dealer": dealer,
        "line": line,
        "ruling": ruling,
    }
    if (line is None) == (written_line is None):
        outcome = ruling_outcome(**arguments)
        assert outcome.written_line == written_line
        assert outcome.played_without_game_points == solo
        assert outcome.hand_not_played == (not solo)
    else:
        with pytest.raises(InvalidInput) as error:
            ruling_outcome(**arguments)
        (problem,) = error.value.errors
        assert problem.field == "written_line"
        assert problem.rule == ("TSR 9.4.4" if solo else "TSR 9.4.3")


@pytest.mark.parametrize(
    "ruling", [{"severity": Severity.MINOR}, {"severity": Severity.MAJOR, "decided": True}]
)
def test_a_ruling_that_changes_no_line_leaves_the_written_line_aside(ruling):
    """A minor breach, or a major one in a game already decided (TSR 9.5.1), changes no line:
    which game the line is does not matter, and an answer given is not kept."""
    outcome = ruling_outcome(
        hand_number=1,
        offender=2,
        table_size=4,
        dealer=1,
        line=normal_line(1, 4),
        ruling=Ruling(written_line=WrittenLine.NEXT, **ruling),
    )
    assert not outcome.hand_not_played
    assert not outcome.played_without_game_points
    assert outcome.written_line is None


@given(
    st.integers(0, 30),
    st.integers(0, 5),
    st.booleans(),
    st.integers(0, 3 * APPEAL_MINUTES * 60),
)
def test_an_appeal_is_in_time_iff_no_hand_was_written_since_the_initials(
    at_initials, since, follows, seconds
):
    """TSR 9.7.7 "nur sofort": before the table writes another hand; if none follows,
    within APPEAL_MINUTES of the initials."""
    now = AT + timedelta(seconds=seconds)
    arguments = {
        "hands_at_initials": at_initials,
        "hands_written": at_initials + since,
        "hand_follows": follows,
        "initialled_at": AT,
        "now": now,
    }
    expected = since == 0 and (follows or seconds <= APPEAL_MINUTES * 60)
    assert appeal_in_time(**arguments) == expected
    problem = appeal_time_problem(**arguments)
    assert (problem is None) == expected
    if problem is not None:
        assert (problem.field, problem.rule) == ("decision", "TSR 9.7.7")


@given(
    st.sets(st.integers(1, 20), max_size=5),
    st.none() | st.integers(1, 20),
    st.none() | st.integers(1, 20),
)
def test_the_ruler_never_decides_the_appeal(members, ruled_by, initialled_by):
    """TSR 8.2.1: two instances; whoever ruled on or initialled the decision is exactly who
    is kept off the panel deciding the appeal against it."""
    own = own_ruling(deciders=members, ruled_by=ruled_by, initialled_by=initialled_by)
    assert own <= members
    assert own == {m for m in members if m in {ruled_by, initialled_by}}
    assert ruled_by not in members - own
    assert initialled_by not in members - own
