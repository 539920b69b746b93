"""Sanctions for unsporting conduct in the core (TSR 9.6.2, 9.6.3, 8.2.1): the deduction's
range, who decides alone, and what the arbitration panel may put in place of a bound decision."""

from hypothesis import given
from hypothesis import strategies as st

from doko.rules.problems import FieldError
from doko.rules.sanctions import (
    MOST_DEDUCTION,
    BoundDecision,
    Decider,
    PanelSanction,
    Refused,
    SanctionKind,
    appeal_problem,
    appeal_round_problem,
    deduction_problem,
    panel_sanction,
    panel_sanction_problems,
    points_kept,
    sanction_decider,
)

kinds = st.sampled_from(SanctionKind)
points = st.none() | st.integers(min_value=-100, max_value=100)


@given(points)
def test_a_deduction_takes_1_to_12_points(given_points):
    """TSR 9.6.2 b, „Punktabzug (maximal 12)": a whole number from 1 to 12, and nothing else."""
    problem = deduction_problem(SanctionKind.DEDUCTION, given_points)
    assert (problem is None) == (given_points is not None and 1 <= given_points <= MOST_DEDUCTION)
    if problem is not None:
        assert problem.field == "points"
        assert problem.rule == "TSR 9.6.2 b"
        assert problem.message == "A point deduction takes 1 to 12 points (TSR 9.6.2 b)."


@given(st.sampled_from([SanctionKind.WARNING, SanctionKind.DISQUALIFICATION]), points)
def test_a_warning_or_disqualification_keeps_no_points_whatever_it_is_given(kind, given_points):
    assert deduction_problem(kind, given_points) is None
    assert points_kept(kind, given_points) is None


@given(st.integers(min_value=1, max_value=MOST_DEDUCTION))
def test_a_deduction_keeps_its_points(given_points):
    assert points_kept(SanctionKind.DEDUCTION, given_points) == given_points


def test_the_deduction_problem_names_the_field_it_is_asked_for():
    problem = deduction_problem(SanctionKind.DEDUCTION, 13, field="sanction")
    assert problem is not None
    assert problem.field == "sanction"


@given(
    kind=kinds,
    given_points=points,
    deduction=st.none() | st.integers(min_value=0, max_value=MOST_DEDUCTION),
    members_named=st.booleans(),
    first_instance=st.booleans(),
    on_panel=st.booleans(),
)
def test_the_adjudicator_decides_alone_exactly_a_bound_decision_as_preset(
    kind, given_points, deduction, members_named, first_instance, on_panel
):
    """TSR 9.6.3: alone only the bound decision's preset outcome with no members named; TSR
    9.6.2: anything else the panel's, refused to whoever does not sit on it."""
    bound = BoundDecision("Counting aloud", deduction)
    preset = kind == bound.kind and (given_points or None) == (deduction or None)
    decider = sanction_decider(
        kind=kind,
        points=given_points,
        bound=bound,
        members_named=members_named,
        first_instance=first_instance,
        on_panel=on_panel,
    )
    if first_instance and preset and not members_named:
        assert decider == Decider.ADJUDICATOR
    elif on_panel:
        assert decider == Decider.PANEL
    else:
        assert isinstance(decider, FieldError)
        assert (decider.field, decider.rule) == ("kind", "TSR 9.6.3")


@given(kind=kinds, given_points=points, members_named=st.booleans(), first_instance=st.booleans())
def test_without_a_bound_decision_only_the_panel_decides(
    kind, given_points, members_named, first_instance
):
    def decider(on_panel: bool):
        return sanction_decider(
            kind=kind,
            points=given_points,
            bound=None,
            members_named=members_named,
            first_instance=first_instance,
            on_panel=on_panel,
        )

    assert decider(on_panel=True) == Decider.PANEL
    refused = decider(on_panel=False)
    assert isinstance(refused, Refused)
    assert refused.rule == "TSR 9.6.2, 9.6.3"
    assert refused.message.endswith("the bound decisions of the catalogue (TSR 9.6.2, 9.6.3).")


def test_the_bound_decisions_refusal_says_its_outcome():
    def refusal(deduction):
        problem = sanction_decider(
            kind=SanctionKind.DISQUALIFICATION,
            points=None,
            bound=BoundDecision("Counting aloud", deduction),
            members_named=False,
            first_instance=True,
            on_panel=False,
        )
        assert isinstance(problem, FieldError)
        return problem.message

    assert refusal(0) == (
        "“Counting aloud” is a bound decision: a warning (TSR 9.6.3); anything else is for the "
        "arbitration panel."
    )
    assert "1 point deducted (TSR 9.6.3)" in refusal(1)
    assert "4 points deducted (TSR 9.6.3)" in refusal(4)


@given(changes=st.booleans(), kind=st.none() | kinds, given_points=points, ruling=st.booleans())
def test_the_panel_puts_a_warning_or_a_deduction_in_place_exactly_when_it_changes(
    changes, kind, given_points, ruling
):
    """TSR 8.2.1, 9.6.2: changing a bound decision the panel gives its own sanction, a warning
    or a deduction of 1 to 12; upholding or annulling it, none; never a ruling on a hand."""
    problems = panel_sanction_problems(
        changes=changes, kind=kind, points=given_points, ruling_given=ruling
    )
    allowed = (
        not ruling
        and (kind is not None) == changes
        and kind != SanctionKind.DISQUALIFICATION
        and (kind != SanctionKind.DEDUCTION or given_points in range(1, MOST_DEDUCTION + 1))
    )
    assert (problems == []) == allowed
    assert ("ruling" in {p.field for p in problems}) == ruling
    if allowed:
        own = panel_sanction(changes=changes, kind=kind, points=given_points)
        if changes:
            assert own == PanelSanction(kind, points_kept(kind, given_points))
        else:
            assert own is None


def test_a_disqualification_is_no_change_of_a_bound_decision():
    (problem,) = panel_sanction_problems(
        changes=True, kind=SanctionKind.DISQUALIFICATION, points=None
    )
    assert (problem.field, problem.rule) == ("sanction", "TSR 9.6.2 c")


def test_a_deduction_over_12_on_appeal_is_refused_on_the_panels_sanction():
    (problem,) = panel_sanction_problems(changes=True, kind=SanctionKind.DEDUCTION, points=13)
    assert (problem.field, problem.rule) == ("sanction", "TSR 9.6.2 b")


@given(withdrawn=st.none() | st.just("annulled"), by_panel=st.booleans(), appealed=st.booleans())
def test_a_sanction_is_appealed_once_and_never_the_panels_own(withdrawn, by_panel, appealed):
    """TSR 8.2.1: the adjudicator's bound decision in force goes to the panel once; the panel's
    own decision is final."""
    problem = appeal_problem(withdrawn=withdrawn, by_panel=by_panel, appealed=appealed)
    assert (problem is None) == (withdrawn is None and not by_panel and not appealed)
    if problem is not None:
        assert (problem.field, problem.rule) == ("sanction", "TSR 8.2.1")
    if withdrawn is not None:
        assert problem is not None
        assert problem.message == "The sanction is annulled: it is not appealed again (TSR 8.2.1)."


def test_an_appeal_is_made_while_the_round_is_played():
    """TSR 9.7.7, „nur sofort"."""
    assert appeal_round_problem(round=2, under_way=True, status="running") is None
    problem = appeal_round_problem(round=2, under_way=False, status="closed")
    assert problem is not None
    assert problem.message == (
        "Round 2 is closed: an appeal is made at once, while its matches are played (TSR 9.7.7)."
    )
