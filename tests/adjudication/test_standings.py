"""The standings count what the adjudicators decided: the penalty points of initialled decisions
on confirmed sheets (TSR 8.2.2) and the points deducted for unsporting conduct in those rounds
(TSR 9.6.2 b), in a fixed number of queries."""

import pytest

from adjudication import services
from adjudication.models import Appeal, Sanction
from doko.rules.penalty import Severity
from scoring import services as scoring_services
from scoring.models import Scoresheet
from tests import factories
from tests.adjudication.helpers import (
    MATCH,
    appeal,
    bound,
    confirm,
    decide,
    deduct,
    enter,
    staffed_tournament,
    started_round,
)
from tournaments import selectors
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db
Ruling = services.Ruling
GAME = {seat: sum(line.points[seat] for line in MATCH) for seat in range(1, 5)}


def entry_at(sheet: Scoresheet) -> dict[int, int]:
    """seat -> entry id"""
    return dict(sheet.table.seats.values_list("position", "entry_id"))


def test_standings_count_initialled_penalty_points_and_deductions(staff):
    """Table 1: a minor breach initialled (hand 3), a stopped hand (TSR 9.4.3), a draft, one
    decision the panel changed and one it annulled; only the initialled ones count. Table 2: a
    deduction of 6 from seat 3, counted without credit to anyone (TSR 9.6.2 b)."""
    tournament = staffed_tournament(staff, players=8)
    round_ = started_round(tournament)
    one, two = Scoresheet.objects.filter(table__round=round_).order_by("table__number")
    enter(one, MATCH[:4])
    decide(one, staff, hand=3, offender=2, ruling=Ruling(Severity.MINOR))  # 1, -3, 1, 1
    decide(one, staff, hand=1, offender=1, ruling=Ruling(Severity.MINOR), initial=False)
    changed = decide(one, staff, hand=2, offender=3, ruling=Ruling(Severity.MINOR))
    appeal(changed, staff, outcome=Appeal.Outcome.CHANGE, ruling=Ruling(Severity.INSIGNIFICANT))
    annulled = decide(one, staff, hand=4, offender=4, ruling=Ruling(Severity.MINOR))
    appeal(annulled, staff, outcome=Appeal.Outcome.ANNUL)
    # Hand 5 stopped: 12 points for seat 1, 4 for each of the others; the same dealer deals again.
    decide(one, staff, hand=5, offender=1, ruling=Ruling(Severity.MAJOR))
    confirm(one)
    confirm(two)
    deduct(round_, two, staff, position=3, points=6)

    points = selectors.entry_points(tournament=tournament)
    penalty = {1: 1 - 12, 2: -3 + 4, 3: 1 + 4, 4: 1 + 4}
    first, second = entry_at(one), entry_at(two)
    assert {entry: points[entry] for entry in first.values()} == {
        first[seat]: GAME[seat] + penalty[seat] for seat in range(1, 5)
    }
    assert {entry: points[entry] for entry in second.values()} == {
        second[seat]: GAME[seat] - (6 if seat == 3 else 0) for seat in range(1, 5)
    }
    assert sum(points.values()) == -6  # penalty points sum to zero, the deduction does not
    ranking = selectors.entry_ranking(tournament=tournament)
    assert [points[entry] for entry in ranking] == sorted(points.values(), reverse=True)


def test_unconfirmed_sheets_and_later_rounds_count_nothing(staff):
    """The penalty points and the deduction wait for the sheet's confirmation (TSR 8.5.2), and
    the standings before round 1 hold none of them."""
    tournament = staffed_tournament(staff, players=8)
    round_ = started_round(tournament)
    one, two = Scoresheet.objects.filter(table__round=round_).order_by("table__number")
    enter(one, MATCH[:4])
    decide(one, staff, hand=3, offender=2, ruling=Ruling(Severity.MINOR))
    deduct(round_, one, staff, position=1, points=5)
    enter(one, MATCH)
    one.refresh_from_db()
    scoring_services.scoresheet_submit(
        scoresheet=one, version=one.version, by=factories.keeper(one)
    )
    confirm(two)

    points = selectors.entry_points(tournament=tournament)
    assert set(points) == set(entry_at(two).values())
    assert selectors.entry_points(tournament=tournament, before=1) == {}

    one.refresh_from_db()
    scoring_services.scoresheet_confirm(
        scoresheet=one, version=one.version, by=factories.checker(one)
    )
    points = selectors.entry_points(tournament=tournament)
    first = entry_at(one)
    penalty = {1: 1 - 5, 2: -3, 3: 1, 4: 1}
    assert {seat: points[first[seat]] for seat in range(1, 5)} == {
        seat: GAME[seat] + penalty[seat] for seat in range(1, 5)
    }
    assert selectors.entry_points(tournament=tournament, before=2) == points
    assert selectors.entry_points(tournament=tournament, before=1) == {}


def test_the_panel_on_bound_decisions_and_a_solo_without_game_points_count(staff):
    """Table 1: seat 1's compulsory solo (hand 2, +6 on the sheet) counted as played without
    game points after seat 4's major breach: +12 for seat 1, -12 for seat 4, and it is still
    seat 1's solo (TSR 9.4.4). Table 2: the panel annulled the deduction of seat 3 and changed
    seat 4's from 5 to 2 on appeal (TSR 8.2.1, 9.6.3)."""
    tournament = staffed_tournament(staff, players=8)
    round_ = started_round(tournament)
    one, two = Scoresheet.objects.filter(table__round=round_).order_by("table__number")
    enter(one, MATCH[:4])
    solo = {"contract": "compulsory_solo", "soloist": 1, "solo_type": "queens"}
    # TSR 9.4.4: hand 2 as written is the solo itself.
    decide(
        one,
        staff,
        hand=2,
        offender=4,
        ruling=Ruling(Severity.MAJOR, **solo, written_line="stopped"),
    )
    confirm(one)
    confirm(two)
    for position, outcome, change in (
        (3, Appeal.Outcome.ANNUL, None),
        (4, Appeal.Outcome.CHANGE, services.SanctionRuling(Sanction.Kind.DEDUCTION, 2)),
    ):
        given = bound(round_, two, staff, position=position, points=5)
        services.appeal_decide(
            appeal=services.appeal_lodge(sanction=given, by=staff["adjudicator"]),
            outcome=outcome,
            members=staff["panel"],
            reasons="As the panel saw it.",
            sanction=change,
            by=staff["panel"][0],
        )

    points = selectors.entry_points(tournament=tournament)
    first, second = entry_at(one), entry_at(two)
    penalty = {1: 12 - 6, 2: 2, 3: 2, 4: -12 + 2}  # the solo's game points gone
    assert {seat: points[first[seat]] for seat in range(1, 5)} == {
        seat: GAME[seat] + penalty[seat] for seat in range(1, 5)
    }
    assert {seat: points[second[seat]] for seat in range(1, 5)} == {
        seat: GAME[seat] - (2 if seat == 4 else 0) for seat in range(1, 5)
    }
    results = {r.position: r for r in one.table.results.all()}
    assert results[1].solos_played == 1  # hand 2 is still his (one) compulsory solo
    assert results[1].solos_won == 0


@pytest.mark.parametrize(("players", "rounds"), [(8, 1), (16, 2)])
def test_standings_run_a_fixed_number_of_queries(staff, django_assert_num_queries, players, rounds):
    """Every table of every round has an initialled decision and a deduction; the standings
    still take one query (they are read from the results), the ranking two."""
    tournament = staffed_tournament(staff, players=players)
    for number in range(1, rounds + 1):
        round_ = started_round(tournament, seed=number)
        for sheet in Scoresheet.objects.filter(table__round=round_):
            enter(sheet, MATCH[:4])
            decide(sheet, staff, hand=3, offender=2, ruling=Ruling(Severity.MINOR))
            decide(sheet, staff, hand=4, offender=1, ruling=Ruling(Severity.MINOR))
            confirm(sheet)
            deduct(round_, sheet, staff, position=4, points=2)
        factories.round_end(round_)
        tournament_services.round_close(round=round_)

    with django_assert_num_queries(1):
        points = selectors.entry_points(tournament=tournament)
    # Per table: both decisions' points sum to zero, each deduction takes 2.
    assert sum(points.values()) == -2 * (players // 4) * rounds
    with django_assert_num_queries(2):
        selectors.entry_ranking(tournament=tournament)
