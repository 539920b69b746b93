"""The odd-even rule with penalty points (TSR 7.3.3.2) and the TSR's scale of penalty points
(TSR 9.2-9.5): a line may break the rule only by penalty points in a solo in the soloist's
favour, however many decisions it carries; a ruling outside the scale is refused, and is a
sanction for unsporting conduct instead (TSR 9.6.2 b)."""

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import playing_seats
from doko.rules.penalty import SOLOIST_CREDITS, Severity, credits_soloist, tsr_penalties
from doko.rules.problems import InvalidInput
from doko.rules.procedure import Ruling, ruling_outcome
from doko.rules.sheet import check_sheet, penalty_parity_explained
from doko.sample_sheets import normal, solo
from doko.simulation import simulate_match

SEATS = (1, 2, 3, 4)


def parity_problems(hands, *, size=4):
    result = check_sheet(table_size=size, hands_per_match=24 if size == 4 else 30, hands=hands)
    return [problem for problem in result.problems if problem.code == "parity"]


def total(decisions):
    summed = dict.fromkeys(SEATS, 0)
    for points in decisions:
        for seat, value in points.items():
            summed[seat] += value
    return summed


def b1(offender, soloist=1):
    """TSR 9.3.3 (b1): the opponent's minor breach, 3 points credited to the soloist."""
    return {seat: 3 if seat == soloist else -3 if seat == offender else 0 for seat in SEATS}


def minor(offender):
    """TSR 9.3.2, 9.3.3 (a), (b2): 3 points to the offender, 1 to each other player."""
    return {seat: -3 if seat == offender else 1 for seat in SEATS}


# The two lines, from the sum alone (a paper sheet) and from the decisions.

TWO_OPPONENTS = [b1(2), b1(3)]  # +6/-3/-3/0
B1_AND_THE_SOLOISTS_OWN = [b1(2), minor(1)]  # 0/-2/+1/+1


@pytest.mark.parametrize("decisions", [TWO_OPPONENTS, B1_AND_THE_SOLOISTS_OWN])
def test_two_decisions_in_the_soloists_favour_keep_the_sheet_correct(decisions):
    line = solo(1, 1, 2)
    assert total(decisions) in ({1: 6, 2: -3, 3: -3, 4: 0}, {1: 0, 2: -2, 3: 1, 4: 1})
    on_paper = replace(line, penalty=total(decisions))
    decided = replace(line, penalty=total(decisions), penalties=tuple(decisions))
    assert parity_problems([on_paper]) == []
    assert parity_problems([decided]) == []
    assert check_sheet(table_size=4, hands_per_match=24, hands=[decided]).ok


def test_the_same_lines_in_a_normal_game_break_the_odd_even_rule():
    for decisions in (TWO_OPPONENTS, B1_AND_THE_SOLOISTS_OWN):
        line = replace(normal(1, (1, 2), 2), penalty=total(decisions))
        problems = parity_problems([line])
        assert [problem.rule for problem in problems] == ["TSR 7.3.3.2"]


def test_a_credit_off_the_tsrs_scale_is_refused_when_the_decisions_are_known():
    line = replace(
        solo(1, 1, 2), penalty={1: 5, 2: 0, 3: 0, 4: -5}, penalties=({1: 5, 2: 0, 3: 0, 4: -5},)
    )
    assert [problem.hand for problem in parity_problems([line])] == [1]


def test_a_debit_to_the_soloist_is_not_in_his_favour():
    line = replace(solo(1, 1, 2), penalty={1: -3, 2: 0, 3: 3, 4: 0})
    assert parity_problems([line])
    assert not penalty_parity_explained(
        {1: -3, 2: 0, 3: 3, 4: 0}, soloist=1, decisions=({1: -3, 2: 0, 3: 3, 4: 0},)
    )


def test_a_line_whose_decisions_do_not_add_up_to_its_penalty_is_a_callers_error():
    with pytest.raises(ValueError, match="sum of its decisions"):
        replace(solo(1, 1, 2), penalty={1: 3, 2: -3, 3: 0, 4: 0}, penalties=(b1(3),))


# Over simulated matches: every solo with any number of decisions in the soloist's favour.


@st.composite
def decided_solos(draw, *, others_at_most):
    """A simulated match of four, and for some of its solos (or weddings played alone) the
    decisions of the hand: any number crediting the soloist (TSR 9.3.3 b1, 9.4.4), and up to
    ``others_at_most`` other decisions the TSR gives in the solo (its scale)."""
    hands = simulate_match(
        rng=random.Random(draw(st.integers(0, 2**32))), table_size=4, hands_per_match=24
    )
    soloed = [number for number, line in enumerate(hands) if line.soloist is not None]
    decided = {}
    for number in draw(st.lists(st.sampled_from(soloed), unique=True)) if soloed else ():
        soloist = hands[number].soloist
        opponents = [seat for seat in SEATS if seat != soloist]
        credits = draw(
            st.lists(
                st.tuples(st.sampled_from(opponents), st.sampled_from(sorted(SOLOIST_CREDITS))),
                min_size=1,
                max_size=8,
            )
        )
        decisions = [
            {seat: x if seat == soloist else -x if seat == payer else 0 for seat in SEATS}
            for payer, x in credits
        ]
        for offender in draw(st.lists(st.sampled_from(SEATS), max_size=others_at_most)):
            scale = tsr_penalties(offender=offender, seats=SEATS, solo=True, soloist=soloist)
            decisions.append(draw(st.sampled_from(scale)))
        decided[number] = [{seat: d.get(seat, 0) for seat in SEATS} for d in decisions]
    return hands, decided


@given(decided_solos(others_at_most=6))
def test_any_number_of_decisions_in_the_soloists_favour_keeps_the_sheet_correct(drawn):
    """TSR 7.3.3.2 with the decisions known (the sheet's own): however many credit the soloist,
    beside any others on the TSR's scale, the line keeps the odd-even rule as the TSR allows."""
    hands, decided = drawn
    lines = [
        replace(line, penalty=total(decided[number]), penalties=tuple(decided[number]))
        if number in decided
        else line
        for number, line in enumerate(hands)
    ]
    assert parity_problems(lines) == []
    assert check_sheet(table_size=4, hands_per_match=24, hands=lines).ok


@given(decided_solos(others_at_most=0), st.none() | st.sampled_from(SEATS))
def test_on_paper_credits_to_the_soloist_and_one_minor_breach_keep_the_sheet_correct(
    drawn, offender
):
    """From the sums alone: any number of credits to the soloist, and one minor breach of
    anyone (TSR 9.3.3 a, b2), read as the TSR allows."""
    hands, decided = drawn
    lines = []
    for number, line in enumerate(hands):
        if number in decided:
            decisions = decided[number] + ([minor(offender)] if offender else [])
            line = replace(line, penalty=total(decisions))
        lines.append(line)
    assert parity_problems(lines) == []


@given(decided_solos(others_at_most=2), st.integers(1, 40), st.integers(0, 2))
def test_one_decision_off_the_scale_that_breaks_the_rule_is_found(drawn, odd, which):
    """An odd credit to the soloist that is not on the TSR's scale: when its decisions are known,
    the line is refused wherever the odd-even rule looks, a line of mixed parity. (Beside
    another odd credit the line is of one parity again: 7.3.3.2 cannot see it, the ruling's
    scale refused it before.)"""
    hands, decided = drawn
    x = 2 * odd + 1
    if x in SOLOIST_CREDITS:
        x += 2 if x + 2 not in SOLOIST_CREDITS else 4
    number = next((n for n, line in enumerate(hands) if line.soloist is not None), None)
    if number is None:
        return
    soloist = hands[number].soloist
    payer = [seat for seat in SEATS if seat != soloist][which]
    off_scale = {seat: x if seat == soloist else -x if seat == payer else 0 for seat in SEATS}
    assert not credits_soloist(off_scale, soloist=soloist)
    decisions = [*decided.get(number, []), off_scale]
    lines = list(hands)
    lines[number] = replace(hands[number], penalty=total(decisions), penalties=tuple(decisions))
    mixed = len({value % 2 for value in total(decisions).values()}) > 1
    assert [problem.hand for problem in parity_problems(lines)] == ([number + 1] if mixed else [])


# The ruling: penalty points on the TSR's scale only.


def solo_ruling(**fields):
    return Ruling(
        Severity.MINOR,
        contract=Contract.VOLUNTARY_SOLO,
        soloist=1,
        solo_type=SoloType.QUEENS,
        **fields,
    )


def rule(ruling, *, offender=4):
    return ruling_outcome(
        hand_number=1, offender=offender, table_size=4, dealer=1, line=None, ruling=ruling
    )


def test_points_off_the_tsrs_scale_are_refused_whatever_the_reason():
    with pytest.raises(InvalidInput) as refused:
        rule(solo_ruling(penalty={1: 5, 2: 0, 3: 0, 4: -5}, deviation_reason="He was rude"))
    [problem] = refused.value.errors
    assert problem.field == "penalty"
    assert problem.rule == "TSR 9.2-9.5, 9.6.2"
    assert "+5/0/0/-5" in problem.message
    assert "arbitration panel" in problem.message


def test_a_deviation_to_another_outcome_of_the_scale_stands_with_its_reason():
    ruled = rule(solo_ruling(penalty={1: 3, 2: 0, 3: 0, 4: -3}, deviation_reason="Only he lost"))
    assert ruled.points == {1: 3, 2: 0, 3: 0, 4: -3}
    assert ruled.computed == {1: 1, 2: 1, 3: 1, 4: -3}  # 9.3.3 (b2) as the fields say


def test_off_the_scale_and_without_a_reason_both_are_said_at_once():
    with pytest.raises(InvalidInput) as refused:
        rule(solo_ruling(penalty={1: 5, 2: 0, 3: 0, 4: -5}))
    assert [problem.field for problem in refused.value.errors] == ["penalty", "deviation_reason"]


@given(
    st.booleans(),
    st.sampled_from(SEATS),
    st.lists(st.integers(-30, 30), min_size=3, max_size=3),
)
def test_a_ruled_line_stands_iff_it_is_on_the_scale_and_then_keeps_the_odd_even_rule(
    is_solo, offender, three
):
    """Zero-sum points with a reason: accepted exactly when the TSR gives them for a breach by
    the offender in this game; and every accepted line keeps TSR 7.3.3.2 on the sheet."""
    seats = playing_seats(dealer=1, table_size=4)
    points = dict(zip(SEATS, [*three, -sum(three)], strict=True))
    fields: dict[str, Any] = (
        {"contract": Contract.VOLUNTARY_SOLO, "soloist": 1, "solo_type": SoloType.QUEENS}
        if is_solo
        else {}
    )
    scale = tsr_penalties(
        offender=offender, seats=seats, solo=is_solo, soloist=1 if is_solo else None
    )
    on_scale = points in [{seat: p.get(seat, 0) for seat in SEATS} for p in scale]
    ruling = Ruling(Severity.MINOR, penalty=points, deviation_reason="x", **fields)
    if not on_scale and points != rule(Ruling(Severity.MINOR, **fields), offender=offender).points:
        with pytest.raises(InvalidInput) as refused:
            rule(ruling, offender=offender)
        assert refused.value.errors[0].field == "penalty"
        return
    ruled = rule(ruling, offender=offender)
    assert penalty_parity_explained(
        ruled.points, soloist=1 if is_solo else None, decisions=(ruled.points,)
    )


@pytest.mark.parametrize("is_solo", [False, True])
def test_every_outcome_of_the_scale_keeps_the_odd_even_rule_alone(is_solo):
    for offender in SEATS:
        for points in tsr_penalties(
            offender=offender, seats=SEATS, solo=is_solo, soloist=1 if is_solo else None
        ):
            assert penalty_parity_explained(
                points, soloist=1 if is_solo else None, decisions=(points,)
            )
