"""Appeals to the arbitration panel, whose decision is final (TSR 8.2.1, 9.7), and who may decide
at which table."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from adjudication import services
from adjudication.models import Appeal, Decision, Event
from adjudication.selectors import sheet_adjudication
from doko.rules.penalty import Severity
from doko.rules.procedure import WrittenLine
from tests.adjudication.helpers import (
    MATCH,
    Role,
    Ruling,
    appealed,
    check,
    decide,
    enter,
    on_sheet,
    plays,
)
from tournaments import selectors as tournament_selectors
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db


def test_the_panel_upholds_a_decision(sheet, staff):
    decision, appeal = appealed(sheet, staff, ruling=Ruling(Severity.MINOR))
    appeal = services.appeal_decide(
        appeal=appeal,
        outcome=Appeal.Outcome.UPHOLD,
        members=staff["panel"],
        reasons="Seat 2 held the club ten.",
        by=staff["panel"][0],
    )
    decision.refresh_from_db()
    assert decision.status == Decision.Status.INITIALLED
    assert appeal.decided_at
    assert set(appeal.members.all()) == set(staff["panel"])
    with pytest.raises(ValidationError, match="final"):
        services.appeal_decide(
            appeal=appeal,
            outcome=Appeal.Outcome.ANNUL,
            members=staff["panel"],
            reasons="Second thoughts",
            by=staff["panel"][0],
        )


def test_the_panel_changes_a_stopping_decision_to_a_minor_one(sheet, staff):
    """The stopped hand comes off the sheet again; the panel's ruling counts instead."""
    decision, appeal = appealed(sheet, staff, ruling=Ruling(Severity.MAJOR))
    assert on_sheet(sheet)[2].not_played
    services.appeal_decide(
        appeal=appeal,
        outcome=Appeal.Outcome.CHANGE,
        members=staff["panel"],
        reasons="The breach could not decide the game.",
        ruling=Ruling(Severity.MINOR),
        by=staff["panel"][1],
    )
    decision.refresh_from_db()
    assert decision.status == Decision.Status.SUPERSEDED
    replacement = Decision.objects.get(appeal=appeal)
    assert replacement.status == Decision.Status.INITIALLED
    assert replacement.initialled_by == staff["panel"][1]
    assert replacement.penalty == {1: 1, 2: -3, 3: 1, 4: 1}
    assert len(on_sheet(sheet)) == 2
    assert sheet_adjudication(sheet=sheet).penalties == {3: {1: 1, 2: -3, 3: 1, 4: 1}}


def test_the_panel_makes_a_minor_breach_major_and_the_later_decisions_move_with_the_lines(
    sheet, staff
):
    """Hands 1-4 are on the sheet; hand 3's minor breach becomes major: hand 3 is stopped and
    comes on as a line of its own, so hand 4 and its decision become line 5."""
    enter(sheet, MATCH[:4])
    first = decide(sheet, staff, hand=3, offender=2, ruling=Ruling(Severity.MINOR))
    later = decide(sheet, staff, hand=4, offender=1, ruling=Ruling(Severity.MINOR))
    appeal = services.appeal_lodge(decision=first, appellant=1, by=staff["adjudicator"])
    services.appeal_decide(
        appeal=appeal,
        outcome=Appeal.Outcome.CHANGE,
        members=staff["panel"][:1],
        reasons="Trumping decided the game.",
        ruling=Ruling(Severity.MAJOR, written_line=WrittenLine.NEXT),
        by=staff["panel"][0],
    )
    lines = on_sheet(sheet)
    assert [line.not_played for line in lines] == [False, False, True, False, False]
    later.refresh_from_db()
    assert later.hand_number == 5
    assert check(sheet).ok


def test_the_panel_annuls_a_decision(sheet, staff):
    decision, appeal = appealed(sheet, staff, ruling=Ruling(Severity.MAJOR))
    services.appeal_decide(
        appeal=appeal,
        outcome=Appeal.Outcome.ANNUL,
        members=staff["panel"],
        reasons="No breach: the card was not played yet (TSR 6.1.1).",
        by=staff["panel"][2],
    )
    decision.refresh_from_db()
    assert decision.status == Decision.Status.ANNULLED
    assert len(on_sheet(sheet)) == 2
    assert sheet_adjudication(sheet=sheet).penalties == {}


def test_the_interruption_is_given_back_to_the_table_and_the_members_tables(
    tournament, round_, sheet, staff
):
    """TSR 8.5.1: the table concerned and the tables where members of the panel play."""
    other = round_.tables.exclude(pk=sheet.table_id).get()
    playing = other.seats.get(position=2).entry
    # The player he is may be named on another of his roles, here as deputy adjudicator.
    services.role_grant(
        tournament=tournament,
        user=staff["panel"][0],
        role=Role.DEPUTY,
        entry=playing,
        by=staff["organiser"],
    )
    _decision, appeal = appealed(sheet, staff, ruling=Ruling(Severity.MINOR))
    services.appeal_decide(
        appeal=appeal,
        outcome=Appeal.Outcome.UPHOLD,
        members=staff["panel"],
        reasons="As ruled.",
        interruption=7,
        by=staff["panel"][0],
    )
    clock = tournament_selectors.round_clock(round=round_)
    assert {table.number: table.extra_minutes for table in clock.tables} == {1: 7, 2: 7}
    assert Event.objects.filter(action=Event.Action.EXTRA_TIME).count() == 1


def test_only_the_panel_decides_an_appeal_and_only_with_its_members(sheet, staff):
    _decision, appeal = appealed(sheet, staff, ruling=Ruling(Severity.MINOR))
    for user in (staff["adjudicator"], staff["organiser"]):
        with pytest.raises(PermissionDenied):
            services.appeal_decide(
                appeal=appeal,
                outcome=Appeal.Outcome.ANNUL,
                members=staff["panel"],
                reasons="x",
                by=user,
            )
    with pytest.raises(ValidationError) as error:
        services.appeal_decide(
            appeal=appeal,
            outcome=Appeal.Outcome.ANNUL,
            members=[staff["adjudicator"]],
            reasons="x",
            by=staff["panel"][0],
        )
    assert "members" in error.value.message_dict
    appeal.refresh_from_db()
    assert appeal.outcome == ""


def test_an_appeal_is_against_an_initialled_decision_once(sheet, staff):
    enter(sheet, MATCH[:2])
    draft = decide(sheet, staff, hand=2, offender=1, ruling=Ruling(Severity.MINOR), initial=False)
    with pytest.raises(ValidationError, match=r"TSR 9\.7\.7"):
        services.appeal_lodge(decision=draft, appellant=1, by=staff["adjudicator"])
    decision = services.decision_initial(decision=draft, by=staff["adjudicator"])
    services.appeal_lodge(decision=decision, appellant=1, by=staff["adjudicator"])
    with pytest.raises(ValidationError):
        services.appeal_lodge(decision=decision, appellant=1, by=staff["adjudicator"])


def test_a_panel_member_rules_on_a_complaint_only_as_deputy_adjudicator(tournament, sheet, staff):
    """TSR 8.2.1: the panel hears the appeals; a member rules in the first instance only when
    the organiser appointed him deputy adjudicator. He initials a ruling all the same
    (TSR 8.2.2)."""
    enter(sheet, MATCH[:2])
    member = staff["panel"][0]
    with pytest.raises(PermissionDenied, match="deputy adjudicator"):
        services.complaint_record(
            scoresheet=sheet, hand_number=2, offender=1, description="x", by=member
        )
    draft = decide(sheet, staff, hand=2, offender=1, ruling=Ruling(Severity.MINOR), initial=False)
    with pytest.raises(PermissionDenied, match=r"TSR 8\.2\.1"):
        services.decision_rule(decision=draft, ruling=Ruling(Severity.MAJOR), by=member)
    services.role_grant(tournament=tournament, user=member, role=Role.DEPUTY, by=staff["organiser"])
    draft = services.decision_rule(decision=draft, ruling=Ruling(Severity.MINOR), by=member)
    assert draft.ruled_by == member


def test_the_adjudicator_at_his_own_table_is_told_the_deputy_decides(sheet, staff):
    """He plays seat 2 at table 1: he neither notes, rules on nor initials its complaint; the
    deputy does."""
    enter(sheet, MATCH[:2])
    plays(staff["adjudicator"], sheet, 2)
    with pytest.raises(PermissionDenied) as error:
        services.complaint_record(
            scoresheet=sheet, hand_number=2, offender=1, description="x", by=staff["adjudicator"]
        )
    assert str(error.value) == (
        "You play at table 1: the deputy adjudicator decides this complaint (TSR 8.2.1)."
    )
    deputy = staff["deputy"]
    decision = services.complaint_record(
        scoresheet=sheet, hand_number=2, offender=1, description="x", by=deputy
    )
    decision = services.decision_rule(decision=decision, ruling=Ruling(Severity.MINOR), by=deputy)
    with pytest.raises(PermissionDenied, match="deputy adjudicator decides"):
        services.decision_initial(decision=decision, by=staff["adjudicator"])
    decision.refresh_from_db()
    assert decision.status == Decision.Status.DRAFT
    assert services.decision_initial(decision=decision, by=deputy).status == "initialled"


def test_at_another_table_the_playing_adjudicator_decides(tournament, round_, sheet, staff):
    other = round_.tables.exclude(pk=sheet.table_id).get().scoresheet
    enter(other, MATCH[:2])
    plays(staff["adjudicator"], sheet, 2)
    decision = decide(other, staff, hand=2, offender=1, ruling=Ruling(Severity.MINOR))
    assert decision.status == Decision.Status.INITIALLED


@pytest.mark.parametrize(
    ("playing", "expected"),
    [
        (["deputy"], "the adjudicator decides this complaint"),
        (["deputy", "adjudicator"], "the organiser appoints one on the staff page"),
    ],
)
def test_a_deputy_at_his_own_table_is_told_who_decides(sheet, staff, playing, expected):
    enter(sheet, MATCH[:2])
    plays(staff["deputy"], sheet, 3, role=Role.DEPUTY)
    if "adjudicator" in playing:
        plays(staff["adjudicator"], sheet, 4)
    with pytest.raises(PermissionDenied, match=expected):
        services.complaint_record(
            scoresheet=sheet, hand_number=2, offender=1, description="x", by=staff["deputy"]
        )
    assert not Decision.objects.exists()


def test_a_panel_member_playing_at_the_table_does_not_decide_its_appeal(sheet, staff):
    """He neither records the panel's decision nor is named among its members; the others
    decide (TSR 8.2.1)."""
    _decision, appeal = appealed(sheet, staff, ruling=Ruling(Severity.MINOR))
    member = staff["panel"][0]
    plays(member, sheet, 1, role=Role.PANEL)
    decide_ = {
        "appeal": appeal,
        "outcome": Appeal.Outcome.ANNUL,
        "reasons": "No breach.",
        "by": staff["panel"][1],
    }
    with pytest.raises(PermissionDenied) as error:
        services.appeal_decide(**{**decide_, "by": member}, members=staff["panel"][1:])
    assert str(error.value) == (
        "You play at table 1: another member of the arbitration panel decides this appeal "
        "(TSR 8.2.1)."
    )
    with pytest.raises(ValidationError) as error:
        services.appeal_decide(**decide_, members=staff["panel"])
    assert "panel1" in error.value.message_dict["members"][0]
    assert "TSR 8.2.1" in error.value.message_dict["members"][0]
    appeal.refresh_from_db()
    assert appeal.outcome == ""
    services.appeal_decide(**decide_, members=staff["panel"][1:])
    appeal.refresh_from_db()
    assert appeal.outcome == Appeal.Outcome.ANNUL


def test_a_panel_member_whose_plays_as_was_taken_away_still_does_not_decide(sheet, staff):
    """What he played as is read from the role history: the organiser clearing his *plays as*
    makes him no neutral member of the panel after the fact (doko.four_eyes, TSR 8.2.1)."""
    _decision, appeal = appealed(sheet, staff, ruling=Ruling(Severity.MINOR))
    member = staff["panel"][0]
    tournament = sheet.table.round.tournament
    seat = sheet.table.seats.get(position=1)
    services.role_grant(
        tournament=tournament, user=member, role=Role.PANEL, entry=seat.entry, by=staff["organiser"]
    )
    services.role_grant(
        tournament=tournament, user=member, role=Role.PANEL, entry=None, by=staff["organiser"]
    )
    assert not TournamentRole.objects.filter(user=member, entry__isnull=False).exists()
    with pytest.raises(PermissionDenied, match="You play at table 1"):
        services.appeal_decide(
            appeal=appeal,
            outcome=Appeal.Outcome.ANNUL,
            reasons="No breach.",
            by=member,
            members=staff["panel"][1:],
        )
