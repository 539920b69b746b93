"""Repairs of a scoresheet through the services: a hand struck out with every later hand checked
again, and a handed-in sheet sent back to its scorekeeper with a reason (TSR 3.3, 7.3.2)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from doko.sample_sheets import full_match, normal
from scoring import services
from scoring.models import RETURN_REASON_LENGTH, Scoresheet, ScoresheetChange
from tests import factories
from tournaments import services as tournament_services
from tournaments.models import SeatResult, TournamentRole

pytestmark = pytest.mark.django_db

Role = TournamentRole.Role


def link(sheet, position: int) -> services.Actor:
    return services.Actor(seat=sheet.table.seats.get(position=position))


def staff(sheet, role: str) -> services.Actor:
    user = factories.user(first_name="Anna", last_name="Richter")
    factories.role_grant(tournament=sheet.table.round.tournament, user=user, role=role)
    return services.Actor(user=user)


def submitted(sheet) -> Scoresheet:
    keeper = factories.keeper(sheet)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=keeper
    )
    return services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=keeper)


def snapshot(sheet) -> tuple:
    """What a refused write must leave as it was."""
    sheet = Scoresheet.objects.get(pk=sheet.pk)
    return (
        sheet.status,
        sheet.version,
        sheet.sent_back_reason,
        list(sheet.hands.values_list("number", "dealer", "points_1", "points_2")),
        sheet.changes.count(),
        SeatResult.objects.filter(table=sheet.table).count(),
    )


@pytest.fixture
def five():
    """The sheet of a table of five whose round runs: the dealer sits out (TSR 10.1.2)."""
    tournament = factories.tournament(players=5, allow_tables_of_five=True)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    return Scoresheet.objects.get(table__round=round_)


# Striking out -----------------------------------------------------------------------------------


def test_striking_a_hand_checks_the_later_ones_again_and_refuses_what_the_tsr_refuses(five):
    """At a table of five the dealer sits out: struck out, hand 1 takes hand 2's place, which
    seat 1 now deals, though seat 1 played it with points. The TSR check names the problem and
    nothing changes."""
    keeper = factories.keeper(five)
    lines = [normal(1, (2, 4), 1, size=5), normal(2, (1, 3), 2, size=5)]
    five = services.scoresheet_hands_replace(scoresheet=five, hands=lines, version=1, by=keeper)
    before = snapshot(five)
    with pytest.raises(services.SheetRefused) as error:
        services.scoresheet_hand_strike(scoresheet=five, number=1, version=2, by=keeper)
    assert (1, "dealer") in {(problem.hand, problem.code) for problem in error.value.problems}
    assert snapshot(five) == before


def test_the_strike_check_refuses_as_the_strike_and_saves_nothing(five):
    keeper = factories.keeper(five)
    lines = [normal(1, (2, 4), 1, size=5), normal(2, (1, 3), 2, size=5)]
    five = services.scoresheet_hands_replace(scoresheet=five, hands=lines, version=1, by=keeper)
    before = snapshot(five)
    with pytest.raises(services.SheetRefused):
        services.scoresheet_hand_strike_check(scoresheet=five, number=1, by=keeper)
    services.scoresheet_hand_strike_check(scoresheet=five, number=2, by=keeper)
    assert snapshot(five) == before


def test_striking_the_last_hand_passes_the_check(five):
    keeper = factories.keeper(five)
    lines = [normal(1, (2, 4), 1, size=5), normal(2, (1, 3), 2, size=5)]
    five = services.scoresheet_hands_replace(scoresheet=five, hands=lines, version=1, by=keeper)
    struck = services.scoresheet_hand_strike(scoresheet=five, number=2, version=2, by=keeper)
    assert list(struck.hands.values_list("number", "dealer")) == [(1, 1)]
    change = struck.changes.get(version=3)
    assert change.action == ScoresheetChange.Action.HANDS
    assert len(change.before["hands"]) == 2
    assert len(change.after["hands"]) == 1


def test_only_the_scorekeeper_strikes_a_hand_and_only_on_a_draft(sheet):
    sheet = submitted(sheet)
    before = snapshot(sheet)
    with pytest.raises(PermissionDenied):
        services.scoresheet_hand_strike(
            scoresheet=sheet, number=1, version=sheet.version, by=link(sheet, 2)
        )
    with pytest.raises(PermissionDenied):
        services.scoresheet_hand_strike_check(scoresheet=sheet, number=1, by=link(sheet, 2))
    with pytest.raises(ValidationError) as error:
        services.scoresheet_hand_strike(
            scoresheet=sheet, number=1, version=sheet.version, by=factories.keeper(sheet)
        )
    assert "status" in error.value.message_dict
    assert snapshot(sheet) == before


# Asking once: what handing in and confirming would answer ---------------------------------------


def test_the_submit_check_refuses_an_incomplete_sheet_as_submitting_does(sheet):
    keeper = factories.keeper(sheet)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:3], version=1, by=keeper
    )
    with pytest.raises(services.SheetRefused) as checked:
        services.scoresheet_submit_check(scoresheet=sheet, by=keeper)
    with pytest.raises(services.SheetRefused) as refused:
        services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=keeper)
    assert checked.value.messages == refused.value.messages
    with pytest.raises(PermissionDenied):
        services.scoresheet_submit_check(scoresheet=sheet, by=link(sheet, 1))


def test_the_confirm_check_refuses_the_submitter_and_lets_another_player(sheet):
    sheet = submitted(sheet)
    before = snapshot(sheet)
    with pytest.raises(ValidationError) as error:
        services.scoresheet_confirm_check(scoresheet=sheet, by=factories.keeper(sheet))
    assert "confirmed_by" in error.value.message_dict
    services.scoresheet_confirm_check(scoresheet=sheet, by=link(sheet, 1))
    assert snapshot(sheet) == before


# Sending a handed-in sheet back ------------------------------------------------------------------


@pytest.mark.parametrize("who", ["another player", "the scorekeeper", "scorekeeper account"])
def test_a_handed_in_sheet_is_sent_back_with_its_reason(sheet, who):
    sheet = submitted(sheet)
    assert SeatResult.objects.filter(table=sheet.table).count() == 4  # counted provisionally
    by = {
        "another player": lambda: link(sheet, 2),
        "the scorekeeper": lambda: factories.keeper(sheet),
        "scorekeeper account": lambda: staff(sheet, Role.SCOREKEEPER),
    }[who]()
    back = services.scoresheet_return(
        scoresheet=sheet, version=sheet.version, by=by, reason="  Hand 7: Re won, not Contra. "
    )
    back.refresh_from_db()
    assert back.status == Scoresheet.Status.DRAFT
    assert back.submitted_at is None
    assert back.submitted_by_seat is None
    assert back.sent_back_reason == "Hand 7: Re won, not Contra."
    assert back.sent_back_by == by.name
    change = back.changes.latest("version")
    assert change.action == ScoresheetChange.Action.RETURN
    assert change.reason == "Hand 7: Re won, not Contra."
    assert change.by_name == by.name
    assert not SeatResult.objects.filter(table=sheet.table).exists()  # a draft counts nowhere


def test_handing_in_again_clears_the_reason_and_the_history_keeps_it(sheet):
    sheet = submitted(sheet)
    sheet = services.scoresheet_return(
        scoresheet=sheet, version=sheet.version, by=link(sheet, 1), reason="Hand 3"
    )
    keeper = factories.keeper(sheet)
    sheet = services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=keeper)
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SUBMITTED
    assert (sheet.sent_back_reason, sheet.sent_back_by) == ("", "")
    assert sheet.changes.filter(action=ScoresheetChange.Action.RETURN, reason="Hand 3").exists()


@pytest.mark.parametrize("reason", ["", "   ", "x" * (RETURN_REASON_LENGTH + 1), "Hand\x007"])
def test_sending_back_needs_a_short_reason_and_changes_nothing_without(sheet, reason):
    sheet = submitted(sheet)
    before = snapshot(sheet)
    with pytest.raises(ValidationError) as error:
        services.scoresheet_return(
            scoresheet=sheet, version=sheet.version, by=link(sheet, 1), reason=reason
        )
    assert list(error.value.message_dict) == ["reason"]
    assert snapshot(sheet) == before


def test_a_draft_or_a_confirmed_sheet_is_not_sent_back(sheet):
    with pytest.raises(ValidationError) as error:
        services.scoresheet_return(scoresheet=sheet, version=1, by=link(sheet, 1), reason="x")
    assert "status" in error.value.message_dict
    sheet = factories.sheet_confirmed(sheet, full_match())
    before = snapshot(sheet)
    with pytest.raises(ValidationError) as error:
        services.scoresheet_return(
            scoresheet=sheet, version=sheet.version, by=link(sheet, 2), reason="x"
        )
    assert "status" in error.value.message_dict
    assert snapshot(sheet) == before


def test_neither_another_tables_player_nor_a_panel_member_sends_a_sheet_back():
    tournament = factories.tournament(players=8)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    first, second = Scoresheet.objects.filter(table__round=round_).order_by("table__number")
    first = submitted(first)
    before = snapshot(first)
    for by in (link(second, 1), staff(first, Role.PANEL)):
        with pytest.raises(PermissionDenied):
            services.scoresheet_return(scoresheet=first, version=first.version, by=by, reason="x")
    # Not his to do is said before anything about the reason.
    with pytest.raises(PermissionDenied):
        services.scoresheet_return(
            scoresheet=first, version=first.version, by=link(second, 1), reason=""
        )
    assert snapshot(first) == before


def test_a_stale_version_is_not_sent_back(sheet):
    sheet = submitted(sheet)
    with pytest.raises(services.StaleVersionError):
        services.scoresheet_return(
            scoresheet=sheet, version=sheet.version - 1, by=link(sheet, 1), reason="x"
        )
    assert Scoresheet.objects.get(pk=sheet.pk).status == Scoresheet.Status.SUBMITTED


def test_the_organisers_reopening_clears_a_reason_for_sending_back(sheet):
    sheet = submitted(sheet)
    sheet = services.scoresheet_return(
        scoresheet=sheet, version=sheet.version, by=link(sheet, 1), reason="Hand 3"
    )
    sheet = submitted(sheet)
    sheet = services.scoresheet_reopen(
        scoresheet=sheet, version=sheet.version, by=staff(sheet, Role.ORGANISER), reason="Fix"
    )
    sheet.refresh_from_db()
    assert sheet.sent_back_reason == ""


def test_the_database_keeps_a_reason_for_sending_back_on_drafts_only(sheet):
    sheet = submitted(sheet)
    with pytest.raises(IntegrityError), transaction.atomic():
        Scoresheet.objects.filter(pk=sheet.pk).update(sent_back_reason="x")


def test_the_database_refuses_a_sending_back_without_a_reason(sheet):
    with pytest.raises(IntegrityError), transaction.atomic():
        ScoresheetChange.objects.create(
            scoresheet=sheet,
            version=2,
            action=ScoresheetChange.Action.RETURN,
            by_name="x",
            before={},
            after={},
        )
