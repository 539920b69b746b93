"""Complaints, rulings and initials through the services (TSR 8.2, 9.2-9.5): every TSR 9 case is
recorded and initialled on a real sheet, and the sheet's check still passes with the TSR's
exceptions."""

from dataclasses import replace

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from adjudication import services
from adjudication.models import Appeal, Decision, Sanction
from adjudication.selectors import sheet_adjudication
from doko import sample_sheets
from doko.rules.contracts import Contract, SoloType
from doko.rules.penalty import Severity
from doko.rules.procedure import WrittenLine
from scoring.models import Scoresheet
from scoring.selectors import hand_lines, scoresheet_check
from tests import factories
from tests.adjudication.helpers import (
    MATCH,
    SOLO,
    Role,
    Ruling,
    check,
    decide,
    enter,
    game_points,
    on_sheet,
    panel,
    solo_appealed,
    wedding,
)
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

STOPPED = WrittenLine.STOPPED  # TSR 9.4.4: the written line is the solo itself


@pytest.mark.parametrize(
    ("hand", "ruling", "offender", "points", "rule"),
    [
        (3, Ruling(Severity.INSIGNIFICANT), 2, {1: 0, 2: 0, 3: 0, 4: 0}, "TSR 9.2.3"),
        (3, Ruling(Severity.MINOR), 2, {1: 1, 2: -3, 3: 1, 4: 1}, "TSR 9.3.2"),
        (2, Ruling(Severity.MINOR, **SOLO), 1, {1: -3, 2: 1, 3: 1, 4: 1}, "TSR 9.3.3 (a)"),
        (
            2,
            Ruling(Severity.MINOR, **SOLO, disadvantages_soloist=True),
            2,
            {1: 3, 2: -3, 3: 0, 4: 0},
            "TSR 9.3.3 (b1)",
        ),
        (2, Ruling(Severity.MINOR, **SOLO), 2, {1: 1, 2: -3, 3: 1, 4: 1}, "TSR 9.3.3 (b2)"),
        (
            3,
            Ruling(Severity.MAJOR, announcements=3, decided=True),
            1,
            {1: -3, 2: 1, 3: 1, 4: 1},
            "TSR 9.5.1, TSR 9.3.2",
        ),
    ],
)
def test_a_breach_in_a_hand_played_to_the_end_counts_on_the_sheet(
    sheet, staff, hand, ruling, offender, points, rule
):
    """Hands 1-4 are on the sheet, hand 2 seat 1's compulsory solo. The breach's penalty points count once
    initialled, and the sheet's check still passes: zero sum, and the odd-even rule broken only
    in the soloist's favour (TSR 7.3.3.2)."""
    enter(sheet, MATCH[:4])
    decision = decide(sheet, staff, hand=hand, offender=offender, ruling=ruling)
    assert decision.penalty == points
    assert decision.rule == rule
    assert not decision.hand_not_played
    assert len(on_sheet(sheet)) == 4
    result = check(sheet)
    assert result.ok, result.problems
    game = {seat: sum(line.points[seat] for line in MATCH[:4]) for seat in range(1, 5)}
    assert dict(result.totals) == {seat: game[seat] + points[seat] for seat in range(1, 5)}


def test_a_draft_ruling_does_not_count_until_initialled(sheet, staff):
    """TSR 8.2.2: penalty points count only initialled; the deputy adjudicator initials too."""
    enter(sheet, MATCH[:4])
    decision = decide(
        sheet, staff, hand=3, offender=2, ruling=Ruling(Severity.MINOR), initial=False
    )
    assert decision.status == Decision.Status.DRAFT
    assert sheet_adjudication(sheet=sheet).penalties == {}
    decision = services.decision_initial(decision=decision, by=staff["deputy"])
    assert decision.status == Decision.Status.INITIALLED
    assert decision.initialled_by == staff["deputy"]
    assert decision.initialled_at
    assert sheet_adjudication(sheet=sheet).penalties == {3: {1: 1, 2: -3, 3: 1, 4: 1}}


def test_a_major_breach_in_a_normal_game_stops_the_hand_and_it_is_dealt_again(sheet, staff):
    """TSR 9.4.2, 9.4.3: the game stops, counts as not played, and the same dealer deals again.
    Three announcements by the other side: 12 + 2 × 3 points. The match still has 24 hands,
    and the complete sheet passes its check."""
    enter(sheet, MATCH[:5])
    decision = decide(
        sheet, staff, hand=6, offender=1, ruling=Ruling(Severity.MAJOR, announcements=3)
    )
    assert decision.penalty == {1: -18, 2: 6, 3: 6, 4: 6}
    assert decision.hand_not_played
    assert decision.rule == "TSR 9.4.3"
    lines = on_sheet(sheet)
    stopped = lines[5]
    assert len(lines) == 6
    assert stopped.not_played
    assert stopped.dealer == MATCH[5].dealer
    assert set(stopped.points.values()) == {0}
    assert check(sheet).next.dealer == MATCH[5].dealer  # the same dealer deals again

    enter(sheet, [*lines, *MATCH[5:]])
    result = check(sheet)
    assert result.ok, result.problems
    assert result.complete
    game = {seat: sum(line.points[seat] for line in MATCH) for seat in range(1, 5)}
    assert dict(result.totals) == {
        seat: game[seat] + decision.penalty[seat] for seat in range(1, 5)
    }


def test_a_major_breach_by_the_soloist_stops_his_solo(sheet, staff):
    """TSR 9.4.4: a major breach by the soloist is punished as in a normal game (TSR 9.4.3);
    the stopped line keeps the solo it was (seat 1's voluntary solo, after his compulsory one)."""
    enter(sheet, MATCH[:2])
    ruling = Ruling(
        Severity.MAJOR, contract=Contract.VOLUNTARY_SOLO, soloist=1, solo_type=SoloType.ACES
    )
    decision = decide(sheet, staff, hand=3, offender=1, ruling=ruling)
    assert decision.penalty == {1: -12, 2: 4, 3: 4, 4: 4}
    assert decision.rule == "TSR 9.4.4, 9.4.3"
    stopped = on_sheet(sheet)[2]
    assert stopped.not_played
    assert (stopped.contract, stopped.soloist, stopped.solo_type) == (
        Contract.VOLUNTARY_SOLO,
        1,
        SoloType.ACES,
    )
    assert check(sheet).ok


def test_an_opponents_major_breach_counts_the_solo_as_played_without_game_points(sheet, staff):
    """TSR 9.4.4: seat 1's compulsory solo, hand 2, won +6 on the sheet; seat 4's major breach
    after two announcements of the soloist gives 15 to seat 1, -15 to seat 4, 0 to the others,
    and the line's game points are 0: the solo counts as played, so it is still seat 1's
    compulsory solo and the dealer deals again as after it (TSR 4.2.5)."""
    enter(sheet, MATCH[:4])
    decision = decide(
        sheet,
        staff,
        hand=2,
        offender=4,
        ruling=Ruling(Severity.MAJOR, **SOLO, announcements=2, written_line=STOPPED),
    )
    assert decision.penalty == {1: 15, 2: 0, 3: 0, 4: -15}
    assert decision.rule == "TSR 9.4.4"
    assert decision.played_without_game_points
    assert not decision.hand_not_played
    lines = on_sheet(sheet)
    assert len(lines) == 4
    solo = lines[1]
    assert (solo.contract, solo.soloist, solo.dealer) == (Contract.COMPULSORY_SOLO, 1, 2)
    assert (solo.game_value, set(solo.points.values()), solo.not_played) == (0, {0}, False)
    assert decision.replaced_line["points"] == [6, -2, -2, -2]
    result = check(sheet)
    assert result.ok, result.problems
    assert result.compulsory_played[1]
    others = game_points([MATCH[0], *MATCH[2:4]])
    assert dict(result.totals) == {seat: others[seat] + decision.penalty[seat] for seat in others}


def test_a_solo_stopped_while_being_played_comes_on_the_sheet_as_played(sheet, staff):
    """The complaint is about the hand being played, seat 1's compulsory solo: initialled, it
    comes on the sheet as line 2 without game points, dealt by seat 2, who deals again; the
    scorekeeper enters the rest of the match after it and the sheet is complete."""
    enter(sheet, MATCH[:1])
    decide(sheet, staff, hand=2, offender=3, ruling=Ruling(Severity.MAJOR, **SOLO))
    solo = on_sheet(sheet)[1]
    assert (solo.contract, solo.soloist, solo.dealer, solo.game_value) == (
        Contract.COMPULSORY_SOLO,
        1,
        2,
        0,
    )
    assert check(sheet).next.dealer == MATCH[2].dealer
    enter(sheet, [*on_sheet(sheet), *MATCH[2:]])
    result = check(sheet)
    assert result.ok, result.problems
    assert result.complete
    assert result.totals[1] == game_points(MATCH)[1] - 6 + 12


def test_the_scorekeeper_cannot_change_the_solo_counted_as_played(sheet, staff):
    enter(sheet, MATCH[:4])
    decide(
        sheet,
        staff,
        hand=2,
        offender=4,
        ruling=Ruling(Severity.MAJOR, **SOLO, written_line=STOPPED),
    )
    for lines in (MATCH[:4], MATCH[:1], [*on_sheet(sheet)[:1], *on_sheet(sheet)[2:]]):
        with pytest.raises(ValidationError) as error:
            enter(sheet, lines)
        assert "TSR" in error.value.message_dict["hands"][0]
    assert on_sheet(sheet)[1].game_value == 0
    enter(sheet, [*on_sheet(sheet), MATCH[4]])  # the hands after it are the scorekeeper's


def test_annulled_the_solo_gets_back_the_scorekeepers_points(sheet, staff):
    """The panel annuls the decision: line 2 has seat 1's +6 again and is the scorekeeper's."""
    _decision, appeal = solo_appealed(sheet, staff, MATCH[:4])
    panel(appeal, staff, Appeal.Outcome.ANNUL)
    assert on_sheet(sheet) == MATCH[:4]
    assert sheet_adjudication(sheet=sheet).without_game_points == set()
    enter(
        sheet,
        [
            MATCH[0],
            replace(MATCH[1], points={1: 3, 2: -1, 3: -1, 4: -1}, game_value=1),
            *MATCH[2:4],
        ],
    )


def test_annulled_a_solo_line_the_decision_put_on_the_sheet_comes_off(sheet, staff):
    """The solo was being played: the game stood still until the panel decided (TSR 9.7.7), so
    it is played on and the scorekeeper enters it as the hand being played."""
    _decision, appeal = solo_appealed(sheet, staff, MATCH[:1])
    assert len(on_sheet(sheet)) == 2
    panel(appeal, staff, Appeal.Outcome.ANNUL)
    assert on_sheet(sheet) == MATCH[:1]
    enter(sheet, MATCH[:3])


def test_annulled_with_hands_after_it_the_solo_line_stays_for_the_scorekeeper(sheet, staff):
    _decision, appeal = solo_appealed(sheet, staff, MATCH[:1])
    enter(sheet, [*on_sheet(sheet), MATCH[2]])
    later = decide(sheet, staff, hand=3, offender=2, ruling=Ruling(Severity.MINOR))
    panel(appeal, staff, Appeal.Outcome.ANNUL)
    lines = on_sheet(sheet)
    assert len(lines) == 3
    assert (lines[1].game_value, set(lines[1].points.values())) == (0, {0})
    later.refresh_from_db()
    assert later.hand_number == 3
    enter(sheet, MATCH[:3])  # no longer locked: the scorekeeper enters the solo's result


def test_changed_to_a_minor_breach_the_solo_counts_with_its_points_again(sheet, staff):
    _decision, appeal = solo_appealed(sheet, staff, MATCH[:4])
    panel(appeal, staff, Appeal.Outcome.CHANGE, Ruling(Severity.MINOR, **SOLO))
    assert on_sheet(sheet) == MATCH[:4]
    assert sheet_adjudication(sheet=sheet).penalties == {2: {1: 1, 2: 1, 3: 1, 4: -3}}
    assert check(sheet).ok


def test_the_panel_counts_a_solo_as_played_without_game_points(sheet, staff):
    """A minor breach made major on appeal: the panel's decision takes the solo's points."""
    enter(sheet, MATCH[:4])
    minor = decide(sheet, staff, hand=2, offender=4, ruling=Ruling(Severity.MINOR, **SOLO))
    appeal = services.appeal_lodge(decision=minor, appellant=1, by=staff["adjudicator"])
    panel(
        appeal, staff, Appeal.Outcome.CHANGE, Ruling(Severity.MAJOR, **SOLO, written_line=STOPPED)
    )
    replacement = Decision.objects.get(appeal=appeal)
    assert replacement.played_without_game_points
    assert replacement.replaced_line["points"] == [6, -2, -2, -2]
    assert on_sheet(sheet)[1].game_value == 0
    assert check(sheet).ok


def test_the_scorekeeper_keeps_the_stopped_hand(sheet, staff):
    """The scorekeeper cannot strike out the stopped hand, nor a hand before a decision."""
    enter(sheet, MATCH[:3])
    decide(sheet, staff, hand=4, offender=1, ruling=Ruling(Severity.MAJOR))
    with pytest.raises(ValidationError):
        enter(sheet, MATCH[:3])
    with pytest.raises(ValidationError):
        enter(sheet, [*on_sheet(sheet)[1:]])


def test_a_complaint_about_a_hand_a_major_breach_stopped_is_refused(sheet, staff):
    """TSR 9.4.2: the major breach ended hand 4, which is now a line "not played"; nothing
    more in it is penalised (TSR 9.7.6). Its replay is line 5, and a complaint about it is
    legitimate."""
    enter(sheet, MATCH[:3])
    decide(sheet, staff, hand=4, offender=1, ruling=Ruling(Severity.MAJOR))
    assert [line.not_played for line in on_sheet(sheet)] == [False, False, False, True]
    with pytest.raises(ValidationError) as error:
        services.complaint_record(
            scoresheet=sheet, hand_number=4, offender=2, description="x", by=staff["adjudicator"]
        )
    message = error.value.message_dict["hand_number"][0]
    assert "TSR 9.7.6" in message
    assert "hand 5" in message
    assert Decision.objects.count() == 1
    replay = services.complaint_record(
        scoresheet=sheet, hand_number=5, offender=2, description="x", by=staff["adjudicator"]
    )
    assert replay.hand_number == 5


def test_a_second_major_ruling_on_the_same_hand_cannot_be_initialled(sheet, staff):
    """Two complaints about hand 3 at once, both ruled major: the first initialled stops the
    hand; the second cannot be initialled, so the penalty counts once and one line is not
    played."""
    enter(sheet, MATCH[:2])
    first = decide(sheet, staff, hand=3, offender=2, ruling=Ruling(Severity.MAJOR), initial=False)
    second = decide(sheet, staff, hand=3, offender=4, ruling=Ruling(Severity.MAJOR), initial=False)
    services.decision_initial(decision=first, by=staff["adjudicator"])
    with pytest.raises(ValidationError) as error:
        services.decision_initial(decision=second, by=staff["adjudicator"])
    assert "TSR 9.7.6" in error.value.message_dict["hand_number"][0]
    second.refresh_from_db()
    assert second.status == Decision.Status.DRAFT
    assert [line.not_played for line in on_sheet(sheet)] == [False, False, True]
    assert sheet_adjudication(sheet=sheet).penalties == {3: {1: 4, 2: -12, 3: 4, 4: 4}}
    assert check(sheet).ok


@pytest.mark.parametrize(
    "ruling",
    [
        Ruling(Severity.MAJOR, announcements=3, decided=True),  # TSR 9.5.1: the game ends too
        Ruling(Severity.MAJOR, **SOLO, written_line=STOPPED),  # TSR 9.4.4: counts as played
    ],
)
def test_a_major_breach_counted_as_played_ends_the_hand_too(sheet, staff, ruling):
    enter(sheet, MATCH[:4])
    decide(sheet, staff, hand=2, offender=3, ruling=ruling)
    with pytest.raises(ValidationError, match=r"TSR 9\.7\.6"):
        services.complaint_record(
            scoresheet=sheet, hand_number=2, offender=2, description="x", by=staff["adjudicator"]
        )


def test_a_minor_breach_first_leaves_the_hand_open_to_a_later_complaint(sheet, staff):
    """TSR 9.7.6: "Ist dann der erste kein schwerwiegender Regelverstoß, kann der zweite
    Regelverstoß erneut reklamiert werden": both count, and the major one stops the hand."""
    enter(sheet, MATCH[:2])
    decide(sheet, staff, hand=3, offender=2, ruling=Ruling(Severity.MINOR))
    decide(sheet, staff, hand=3, offender=4, ruling=Ruling(Severity.MAJOR))
    assert sheet_adjudication(sheet=sheet).penalties == {3: {1: 5, 2: 1, 3: 5, 4: -11}}
    assert on_sheet(sheet)[2].not_played
    assert check(sheet).ok


def test_the_panel_does_not_make_a_second_major_breach_in_an_ended_hand(sheet, staff):
    """A minor breach, then a major one in hand 3: the panel cannot make the first major as
    well, which would stop the hand twice (TSR 9.4.2, 9.7.6); nothing of its decision is
    kept."""
    enter(sheet, MATCH[:2])
    minor = decide(sheet, staff, hand=3, offender=2, ruling=Ruling(Severity.MINOR))
    decide(sheet, staff, hand=3, offender=4, ruling=Ruling(Severity.MAJOR))
    appeal = services.appeal_lodge(decision=minor, appellant=1, by=staff["adjudicator"])
    with pytest.raises(ValidationError) as error:
        services.appeal_decide(
            appeal=appeal,
            outcome=Appeal.Outcome.CHANGE,
            members=staff["panel"],
            reasons="It decided the game.",
            ruling=Ruling(Severity.MAJOR),
            by=staff["panel"][0],
        )
    assert "TSR 9.7.6" in error.value.message_dict["severity"][0]
    appeal.refresh_from_db()
    minor.refresh_from_db()
    assert (appeal.outcome, minor.status) == ("", Decision.Status.INITIALLED)
    assert [line.not_played for line in on_sheet(sheet)] == [False, False, True]


def test_at_a_table_of_five_the_dealer_sitting_out_gets_no_penalty_points(staff):
    """TSR 10.1.1, 10.1.2: the dealer does not play; he neither offends nor shares."""
    tournament = factories.tournament(
        players=5, organiser=staff["organiser"], allow_tables_of_five=True
    )
    factories.role_grant(tournament=tournament, user=staff["adjudicator"], role=Role.ADJUDICATOR)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_)
    five = sample_sheets.full_match(size=5)
    enter(sheet, five[:1])
    dealer = five[1].dealer
    offender = next(seat for seat in range(1, 6) if seat != dealer)
    decision = decide(sheet, staff, hand=2, offender=offender, ruling=Ruling(Severity.MINOR))
    assert decision.penalty[dealer] == 0
    assert sorted(decision.penalty.values()) == [-3, 0, 1, 1, 1]
    with pytest.raises(ValidationError) as error:
        decide(sheet, staff, hand=2, offender=dealer, ruling=Ruling(Severity.MINOR))
    assert "TSR 10.1.1" in str(error.value)


def test_deviating_from_the_tsr_needs_a_reason_and_a_zero_sum(sheet, staff):
    enter(sheet, MATCH[:2])
    by = staff["adjudicator"]
    decision = services.complaint_record(
        scoresheet=sheet, hand_number=2, offender=2, description="Played out of turn", by=by
    )
    with pytest.raises(ValidationError) as error:
        services.decision_rule(
            decision=decision,
            ruling=Ruling(Severity.MINOR, penalty={1: 0, 2: 0, 3: 0, 4: 0}),
            by=by,
        )
    assert "deviation_reason" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        services.decision_rule(
            decision=decision,
            ruling=Ruling(Severity.MINOR, penalty={1: 3, 2: -2}, deviation_reason="x"),
            by=by,
        )
    assert "zero" in error.value.message_dict["penalty"][0]
    decision = services.decision_rule(
        decision=decision,
        ruling=Ruling(
            Severity.MINOR,
            penalty={1: 0, 2: 0, 3: 0, 4: 0},
            deviation_reason="The breach had no influence on the game",
        ),
        by=by,
    )
    assert decision.deviates
    assert decision.computed == {"1": 1, "2": -3, "3": 1, "4": 1}
    assert decision.deviation_reason


def test_points_off_the_tsrs_scale_are_refused_and_are_a_sanction_instead(sheet, staff):
    """TSR 9.2-9.5: a ruling gives penalty points of the TSR's scale, whatever the reason; a
    punishment beyond it is a deduction for unsporting conduct the panel imposes (TSR 9.6.2 b),
    outside every checksum, and the sheet stays correct."""
    enter(sheet, MATCH[:3])
    by = staff["adjudicator"]
    decision = services.complaint_record(
        scoresheet=sheet, hand_number=3, offender=4, description="Insulted seat 1", by=by
    )
    for points in ({1: 5, 2: 0, 3: 0, 4: -5}, {1: 3, 2: 0, 3: 0, 4: -3}):
        with pytest.raises(ValidationError) as error:
            services.decision_rule(
                decision=decision,
                ruling=Ruling(Severity.MINOR, penalty=points, deviation_reason="He was rude"),
                by=by,
            )
        assert list(error.value.message_dict) == ["penalty"]
        assert "TSR 9.2-9.5, 9.6.2" in error.value.message_dict["penalty"][0]
    decision.refresh_from_db()
    assert decision.status == Decision.Status.OPEN
    panel = staff["panel"][0]
    sanction = services.sanction_impose(
        entry=sheet.table.seats.get(position=4).entry,
        round=sheet.table.round,
        kind=Sanction.Kind.DEDUCTION,
        points=5,
        reasons="Insulted seat 1.",
        members=[panel],
        by=panel,
    )
    assert sanction.points == 5
    check = scoresheet_check(
        scoresheet=sheet, hands=hand_lines(list(sheet.hands.all())), table_size=4
    )
    assert check.ok
    assert check.totals[4] == game_points(MATCH[:3])[4] - 5


def test_an_initialled_decision_is_never_ruled_again(sheet, staff):
    enter(sheet, MATCH[:2])
    decision = decide(sheet, staff, hand=2, offender=2, ruling=Ruling(Severity.MINOR))
    for attempt in (
        lambda: services.decision_rule(
            decision=decision, ruling=Ruling(Severity.INSIGNIFICANT), by=staff["adjudicator"]
        ),
        lambda: services.decision_initial(decision=decision, by=staff["adjudicator"]),
    ):
        with pytest.raises(ValidationError):
            attempt()
    decision.refresh_from_db()
    assert decision.penalty == {1: 1, 2: -3, 3: 1, 4: 1}


@pytest.mark.parametrize(
    ("hand", "offender", "complainant", "field"),
    [
        (4, 1, None, "hand_number"),
        (0, 1, None, "hand_number"),
        (2, 5, None, "offender"),
        (2, 1, 1, "complainant"),
    ],
)
def test_a_complaint_names_a_hand_and_seats_of_the_table(
    sheet, staff, hand, offender, complainant, field
):
    enter(sheet, MATCH[:2])
    with pytest.raises(ValidationError) as error:
        services.complaint_record(
            scoresheet=sheet,
            hand_number=hand,
            offender=offender,
            complainant=complainant,
            description="x",
            by=staff["adjudicator"],
        )
    assert field in error.value.message_dict
    assert not Decision.objects.exists()


def test_no_complaint_once_the_sheet_is_confirmed(sheet, staff):
    factories.sheet_confirmed(sheet, MATCH)
    with pytest.raises(ValidationError, match=r"TSR 8\.5\.2"):
        services.complaint_record(
            scoresheet=sheet, hand_number=3, offender=1, description="x", by=staff["adjudicator"]
        )


@pytest.mark.parametrize("who", ["organiser", "keeper", "stranger"])
def test_only_adjudicators_and_the_panel_record_and_initial(sheet, staff, who):
    """TSR 8.2: an organiser, a scorekeeper or anyone else records no penalty."""
    enter(sheet, MATCH[:2])
    user = staff.get(who) or factories.user()
    with pytest.raises(PermissionDenied):
        services.complaint_record(
            scoresheet=sheet, hand_number=2, offender=1, description="x", by=user
        )
    decision = decide(
        sheet, staff, hand=2, offender=1, ruling=Ruling(Severity.MINOR), initial=False
    )
    with pytest.raises(PermissionDenied):
        services.decision_rule(decision=decision, ruling=Ruling(Severity.MAJOR), by=user)
    with pytest.raises(PermissionDenied):
        services.decision_initial(decision=decision, by=user)
    decision.refresh_from_db()
    assert decision.status == Decision.Status.DRAFT
    assert decision.severity == "minor"


@pytest.mark.parametrize("contract", [Contract.WEDDING, Contract.SILENT_WEDDING])
@pytest.mark.parametrize(
    ("clarified", "offender", "extra", "points", "rule"),
    [
        (False, 2, {}, {1: 1, 2: -3, 3: 1, 4: 1}, "TSR 9.3.2"),
        (False, 3, {}, {1: 1, 2: 1, 3: -3, 4: 1}, "TSR 9.3.2"),
        (True, 2, {"disadvantages_soloist": True}, {1: 0, 2: -3, 3: 3, 4: 0}, "TSR 9.3.3 (b1)"),
        (True, 2, {}, {1: 1, 2: -3, 3: 1, 4: 1}, "TSR 9.3.3 (b2)"),
        (True, 3, {}, {1: 1, 2: 1, 3: -3, 4: 1}, "TSR 9.3.3 (a)"),
    ],
)
def test_a_wedding_is_penalised_as_a_normal_game_until_it_turns_into_a_solo(
    sheet, staff, contract, clarified, offender, extra, points, rule
):
    """Seat 3 holds both Queens of Clubs and plays hand 3 alone. A breach up to and including
    the clarification trick (a silent wedding: before the second Queen of Clubs) is a normal
    game's; after it, a solo's with the holder as the soloist."""
    enter(sheet, [*MATCH[:2], wedding(contract), MATCH[3]])
    ruling = Ruling(
        Severity.MINOR, contract=contract, soloist=3, wedding_clarified_as_solo=clarified, **extra
    )
    decision = decide(sheet, staff, hand=3, offender=offender, ruling=ruling)
    assert (decision.penalty, decision.rule) == (points, rule)
    assert decision.wedding_clarified_as_solo is clarified
    result = check(sheet)
    assert result.ok, result.problems


def test_the_holders_own_major_breach_stops_the_wedding_played_alone(sheet, staff):
    """TSR 9.4.4 sends the soloist's major breach to 9.4.3: the stopped line is the wedding
    played alone by seat 3, a diamonds solo, not played and dealt again."""
    enter(sheet, MATCH[:2])
    ruling = Ruling(
        Severity.MAJOR, contract=Contract.WEDDING, soloist=3, wedding_clarified_as_solo=True
    )
    decision = decide(sheet, staff, hand=3, offender=3, ruling=ruling)
    assert decision.penalty == {1: 4, 2: 4, 3: -12, 4: 4}
    assert decision.rule == "TSR 9.4.4, 9.4.3"
    stopped = on_sheet(sheet)[2]
    assert stopped.not_played
    assert (stopped.contract, stopped.soloist, stopped.solo_type) == (
        Contract.WEDDING,
        3,
        SoloType.DIAMONDS,
    )
    assert check(sheet).ok


def test_a_major_breach_before_the_second_queen_of_clubs_stops_a_silent_wedding(sheet, staff):
    """TSR 4.4.5: still a normal game, so 9.4.3 for the holder's breach as for anyone's; the
    sheet names the holder of a silent wedding, so the stopped line does too."""
    enter(sheet, MATCH[:2])
    ruling = Ruling(Severity.MAJOR, contract=Contract.SILENT_WEDDING, soloist=3)
    decision = decide(sheet, staff, hand=3, offender=3, ruling=ruling)
    assert decision.rule == "TSR 9.4.3"
    assert decision.penalty == {1: 4, 2: 4, 3: -12, 4: 4}
    stopped = on_sheet(sheet)[2]
    assert stopped.not_played
    assert (stopped.contract, stopped.soloist) == (Contract.SILENT_WEDDING, 3)
    assert check(sheet).ok


@pytest.mark.parametrize(
    ("lines", "ruling", "field"),
    [
        (
            MATCH[:4],
            Ruling(Severity.MINOR, wedding_clarified_as_solo=True),
            "wedding_clarified_as_solo",
        ),
        (
            MATCH[:2],
            Ruling(Severity.MINOR, contract=Contract.WEDDING, wedding_clarified_as_solo=True),
            "soloist",
        ),
        (MATCH[:2], Ruling(Severity.MINOR, contract=Contract.SILENT_WEDDING), "soloist"),
        (
            MATCH[:2],
            Ruling(
                Severity.MINOR,
                contract=Contract.SILENT_WEDDING,
                soloist=3,
                solo_type=SoloType.HEARTS,
            ),
            "solo_type",
        ),
        (
            [*MATCH[:2], wedding(holder=None)],
            Ruling(
                Severity.MINOR,
                contract=Contract.WEDDING,
                soloist=3,
                wedding_clarified_as_solo=True,
            ),
            "wedding_clarified_as_solo",
        ),
        (
            [*MATCH[:2], wedding()],
            Ruling(
                Severity.MINOR,
                contract=Contract.WEDDING,
                soloist=1,
                wedding_clarified_as_solo=True,
            ),
            "soloist",
        ),
        (
            [*MATCH[:2], wedding()],
            Ruling(Severity.MINOR, contract=Contract.SILENT_WEDDING, soloist=3),
            "contract",
        ),
    ],
)
def test_a_ruling_on_a_wedding_names_the_field_in_error(sheet, staff, lines, ruling, field):
    enter(sheet, lines)
    decision = services.complaint_record(
        scoresheet=sheet, hand_number=3, offender=2, description="x", by=staff["adjudicator"]
    )
    with pytest.raises(ValidationError) as error:
        services.decision_rule(decision=decision, ruling=ruling, by=staff["adjudicator"])
    assert field in error.value.message_dict
    assert "TSR" in error.value.message_dict[field][0]
    decision.refresh_from_db()
    assert decision.status == Decision.Status.OPEN
