"""Paper sheets at the desk: confirmed from the players' signatures (TSR 7.3.4, 8.5.2), or by a
second member of the desk typing the sheet again blind (double entry), its differences settled
from the paper."""

from dataclasses import replace

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from doko.sample_sheets import full_match
from scoring import selectors, services
from scoring.models import Scoresheet, ScoresheetChange, SecondEntry
from scoring.services import Actor
from tests import factories
from tournaments.models import SheetKeeping, TournamentRole

pytestmark = pytest.mark.django_db

Role = TournamentRole.Role


def desk(sheet, role=Role.ORGANISER, **fields):
    """A new member of the desk of the sheet's tournament."""
    user = factories.user(**fields)
    factories.role_grant(tournament=sheet.table.round.tournament, user=user, role=role)
    return user


def keeping(sheet, how=SheetKeeping.BOTH, *, double_entry=False):
    tournament = sheet.table.round.tournament
    tournament.sheet_keeping = how
    tournament.double_entry = double_entry
    tournament.save()
    return Scoresheet.objects.select_related("table__round__tournament").get(pk=sheet.pk)


def typed(sheet, user, hands=None, *, submit=True):
    """The sheet typed in by ``user`` at the desk, and handed in."""
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=hands or full_match(), version=sheet.version, by=Actor(user=user)
    )
    if submit:
        sheet = services.scoresheet_submit(
            scoresheet=sheet, version=sheet.version, by=Actor(user=user)
        )
    return sheet


def actions(sheet):
    return list(sheet.changes.order_by("version").values_list("action", "by_name"))


# Confirmed from the signed paper sheet ---------------------------------------------------------


def test_the_organiser_who_typed_a_sheet_confirms_it_from_the_signed_sheet(sheet):
    organiser = desk(sheet, first_name="Jörg", last_name="Öztürk")
    sheet = typed(sheet, organiser)
    sheet = services.scoresheet_confirm(
        scoresheet=sheet, version=sheet.version, by=Actor(user=organiser), from_signed_sheet=True
    )
    assert sheet.status == Scoresheet.Status.CONFIRMED
    assert sheet.confirmation == Scoresheet.Confirmation.SIGNED_SHEET
    assert sheet.submitted_by == sheet.confirmed_by == organiser
    assert actions(sheet)[-2:] == [
        (ScoresheetChange.Action.SUBMIT, "Jörg Öztürk"),
        (ScoresheetChange.Action.CONFIRM_SIGNED, "Jörg Öztürk"),
    ]


def test_without_the_signed_sheet_the_typist_still_may_not_confirm_his_own_sheet(sheet):
    organiser = desk(sheet)
    sheet = typed(sheet, organiser)
    with pytest.raises(ValidationError) as error:
        services.scoresheet_confirm(
            scoresheet=sheet, version=sheet.version, by=Actor(user=organiser)
        )
    assert "confirmed_by" in error.value.message_dict


def test_a_complete_draft_is_handed_in_and_confirmed_in_one_step(sheet):
    scorekeeper = desk(sheet, role=Role.SCOREKEEPER)
    sheet = typed(sheet, scorekeeper, submit=False)
    sheet = services.scoresheet_confirm(
        scoresheet=sheet, version=sheet.version, by=Actor(user=scorekeeper), from_signed_sheet=True
    )
    assert sheet.status == Scoresheet.Status.CONFIRMED
    assert [action for action, _name in actions(sheet)][-2:] == ["submit", "confirm_signed"]


def test_an_incomplete_draft_is_not_confirmed_from_the_signed_sheet(sheet):
    organiser = desk(sheet)
    sheet = typed(sheet, organiser, full_match()[:10], submit=False)
    with pytest.raises(ValidationError) as error:
        services.scoresheet_confirm(
            scoresheet=sheet,
            version=sheet.version,
            by=Actor(user=organiser),
            from_signed_sheet=True,
        )
    assert "not complete" in " ".join(error.value.message_dict["hands"])
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.DRAFT


def test_confirming_from_the_signed_sheet_is_refused_where_sheets_are_kept_on_phones(sheet):
    organiser = desk(sheet)
    sheet = keeping(typed(sheet, organiser), SheetKeeping.PHONES)
    with pytest.raises(ValidationError) as error:
        services.scoresheet_confirm(
            scoresheet=sheet,
            version=sheet.version,
            by=Actor(user=organiser),
            from_signed_sheet=True,
        )
    assert "on phones" in error.value.message_dict["from_signed_sheet"][0]


def test_a_seat_link_does_not_confirm_from_the_signed_sheet(sheet):
    keeper = factories.keeper(sheet)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=1, by=keeper
    )
    sheet = services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=keeper)
    with pytest.raises(PermissionDenied):
        services.scoresheet_confirm(
            scoresheet=sheet,
            version=sheet.version,
            by=factories.checker(sheet),
            from_signed_sheet=True,
        )


def test_the_database_lets_only_a_signed_sheet_be_confirmed_by_its_typist(sheet):
    organiser = desk(sheet)
    sheet = typed(sheet, organiser)
    sheet.status = Scoresheet.Status.CONFIRMED
    sheet.confirmed_by = organiser
    sheet.confirmed_at = sheet.submitted_at
    with pytest.raises(ValidationError):
        sheet.full_clean()
    sheet.confirmation = Scoresheet.Confirmation.SIGNED_SHEET
    sheet.full_clean()


# Paper only: the links follow -------------------------------------------------------------------


def test_on_paper_only_the_scorekeepers_link_does_not_enter_hands(sheet):
    sheet = keeping(sheet, SheetKeeping.PAPER)
    with pytest.raises(PermissionDenied) as error:
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=full_match()[:1], version=1, by=factories.keeper(sheet)
        )
    assert "on paper" in str(error.value)


# Blind double entry ------------------------------------------------------------------------------


@pytest.fixture
def double(sheet):
    """A tournament checking paper sheets by double entry; the sheet typed and handed in by
    one member of the desk, and another member to type it again."""
    sheet = keeping(sheet, double_entry=True)
    first = desk(sheet, username="erste")
    second = desk(sheet, role=Role.SCOREKEEPER, username="zweite")
    return typed(sheet, first), first, second


def test_a_sheet_typed_at_the_desk_waits_for_its_second_entry(double):
    sheet, _first, second = double
    other = desk(sheet, role=Role.ADJUDICATOR)
    for who in (other, second):
        with pytest.raises(ValidationError) as error:
            services.scoresheet_confirm(scoresheet=sheet, version=sheet.version, by=Actor(user=who))
        assert "second, blind entry" in error.value.message_dict["confirmed_by"][0]
    with pytest.raises(ValidationError):
        services.scoresheet_confirm(
            scoresheet=sheet, version=sheet.version, by=Actor(user=other), from_signed_sheet=True
        )


def test_the_same_hands_typed_again_confirm_the_sheet_naming_both(double):
    sheet, first, second = double
    result = services.second_entry_submit(scoresheet=sheet, hands=full_match(), by=second)
    assert result.confirmed
    sheet = result.sheet
    assert sheet.status == Scoresheet.Status.CONFIRMED
    assert sheet.confirmation == Scoresheet.Confirmation.DOUBLE_ENTRY
    assert (sheet.submitted_by, sheet.confirmed_by) == (first, second)
    assert actions(sheet)[-2:] == [("submit", "erste"), ("confirm_double", "zweite")]


def test_one_different_hand_is_reported_and_the_first_entry_stays(double):
    sheet, _first, second = double
    hands = full_match()
    wrong = replace(hands[6], points={seat: -points for seat, points in hands[6].points.items()})
    hands[6] = wrong
    result = services.second_entry_submit(scoresheet=sheet, hands=hands, by=second)
    assert not result.confirmed
    assert [difference.hand for difference in result.differences] == [7]
    difference = result.differences[0]
    assert difference.first["points"] == [-p for p in difference.second["points"]]
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SUBMITTED
    assert selectors.hand_lines(list(sheet.hands.all())) == full_match()
    entry = SecondEntry.objects.get(scoresheet=sheet)
    assert entry.differences == [7]
    assert selectors.second_entry_lines(entry)[6].points == wrong.points


def test_the_first_typist_may_not_make_the_second_entry(double):
    sheet, first, _second = double
    with pytest.raises(ValidationError) as error:
        services.second_entry_submit(scoresheet=sheet, hands=full_match(), by=first)
    assert "You typed the first entry" in error.value.message_dict["by"][0]
    assert not SecondEntry.objects.exists()


def test_whoever_typed_hands_of_the_first_entry_may_not_make_the_second(double):
    sheet, _first, _second = double
    helper = desk(sheet)
    services.scoresheet_reopen(
        scoresheet=sheet, version=sheet.version, by=Actor(user=_first), reason="hand 3"
    )
    sheet.refresh_from_db()
    # The draft is blind to him until he opens it (recorded), as who takes over the typing.
    with pytest.raises(ValidationError) as error:
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=full_match()[:23], version=sheet.version, by=Actor(user=helper)
        )
    assert "blind" in error.value.message_dict
    assert services.sheet_first_entry_open(scoresheet=sheet, by=helper, where="sheet")
    sheet.refresh_from_db()
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:23], version=sheet.version, by=Actor(user=helper)
    )
    with pytest.raises(ValidationError) as error:
        services.second_entry_hands_replace(
            scoresheet=sheet, hands=full_match()[:1], by=helper, version=0
        )
    assert "by" in error.value.message_dict


def test_the_second_typist_may_not_type_the_first_entry(double):
    sheet, first, second = double
    services.second_entry_hands_replace(
        scoresheet=sheet, hands=full_match()[:2], by=second, version=0
    )
    services.scoresheet_reopen(
        scoresheet=sheet, version=sheet.version, by=Actor(user=first), reason="hand 3"
    )
    sheet.refresh_from_db()
    with pytest.raises(PermissionDenied) as error:
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=full_match(), version=sheet.version, by=Actor(user=second)
        )
    assert "second entry" in str(error.value)


def test_the_second_entry_is_saved_hand_by_hand_with_its_own_version(double):
    sheet, _first, second = double
    entry = services.second_entry_hands_replace(
        scoresheet=sheet, hands=full_match()[:1], by=second, version=0
    )
    assert entry.version == 1
    entry = services.second_entry_hands_replace(
        scoresheet=sheet, hands=full_match()[:2], by=second, version=1
    )
    assert entry.version == 2
    with pytest.raises(services.StaleEntryError):
        services.second_entry_hands_replace(
            scoresheet=sheet, hands=full_match()[:3], by=second, version=1
        )
    sheet.refresh_from_db()
    assert sheet.version == 3  # the sheet itself did not change: typed (2), handed in (3)


def test_a_second_entry_breaking_the_tsr_is_refused_as_a_first_would_be(double):
    sheet, _first, second = double
    hands = full_match()[:3]
    hands[2] = replace(hands[2], points={1: 3, 2: -1, 3: -1, 4: -2})
    with pytest.raises(ValidationError) as error:
        services.second_entry_hands_replace(scoresheet=sheet, hands=hands, by=second, version=0)
    assert any("TSR 7.3.3" in message for message in error.value.message_dict["hands"])


def test_an_incomplete_second_entry_is_not_compared(double):
    sheet, _first, second = double
    services.second_entry_hands_replace(
        scoresheet=sheet, hands=full_match()[:20], by=second, version=0
    )
    with pytest.raises(ValidationError) as error:
        services.second_entry_compare(scoresheet=sheet, by=second)
    assert "not complete" in " ".join(error.value.message_dict["hands"])


def test_a_second_member_cannot_take_over_anothers_second_entry_until_it_is_discarded(double):
    sheet, _first, second = double
    services.second_entry_hands_replace(
        scoresheet=sheet, hands=full_match()[:2], by=second, version=0
    )
    third = desk(sheet, role=Role.ADJUDICATOR)
    with pytest.raises(ValidationError) as error:
        services.second_entry_hands_replace(
            scoresheet=sheet, hands=full_match()[:2], by=third, version=1
        )
    assert "is typing the second entry" in error.value.message_dict["second_entry"][0]
    services.second_entry_discard(scoresheet=sheet, by=third)
    entry = services.second_entry_hands_replace(
        scoresheet=sheet, hands=full_match()[:1], by=third, version=0
    )
    assert entry.by == third


def _two_differences(double):
    sheet, first, second = double
    hands = full_match()
    hands[2] = replace(hands[2], points={seat: -points for seat, points in hands[2].points.items()})
    hands[9] = replace(hands[9], points={seat: -points for seat, points in hands[9].points.items()})
    result = services.second_entry_submit(scoresheet=sheet, hands=hands, by=second)
    assert [difference.hand for difference in result.differences] == [3, 10]
    return sheet, first, second, hands


def test_settling_each_difference_from_the_paper_confirms_the_settled_sheet(double):
    sheet, _first, second, hands = _two_differences(double)
    third = desk(sheet)  # typed neither entry: he settles alone
    settled = services.second_entry_settle(
        scoresheet=sheet, choices={3: "second", 10: "first"}, by=third
    ).sheet
    assert settled.status == Scoresheet.Status.CONFIRMED
    assert settled.confirmed_by == second
    lines = selectors.hand_lines(list(settled.hands.all()))
    assert lines[2] == hands[2]
    assert lines[9] == full_match()[9]
    change = settled.changes.get(action=ScoresheetChange.Action.SETTLE)
    assert change.by == third
    assert change.reason == (
        "From the paper sheet: hand 3 as in the second entry; hand 10 as in the first entry."
    )


def test_a_typist_only_proposes_and_the_other_typist_agrees(double):
    sheet, first, second, _hands = _two_differences(double)
    choices = {3: "second", 10: "first"}
    proposed = services.second_entry_settle(scoresheet=sheet, choices=choices, by=first)
    assert proposed.proposed
    assert proposed.sheet.status == Scoresheet.Status.SUBMITTED
    # Proposing again, or differently, settles nothing; nor does the proposer agree with
    # himself.
    again = services.second_entry_settle(scoresheet=sheet, choices=choices, by=first)
    assert again.proposed
    assert again.sheet.status == Scoresheet.Status.SUBMITTED
    other = services.second_entry_settle(
        scoresheet=sheet, choices={3: "first", 10: "first"}, by=second
    )
    assert other.proposed  # his choices differ: now his proposal waits for the first typist
    settled = services.second_entry_settle(
        scoresheet=sheet, choices={3: "first", 10: "first"}, by=first
    ).sheet
    assert settled.status == Scoresheet.Status.CONFIRMED
    actions = list(settled.changes.order_by("version").values_list("action", "by__username"))
    assert actions[-5:] == [
        (ScoresheetChange.Action.SETTLE_PROPOSED, first.username),
        (ScoresheetChange.Action.SETTLE_PROPOSED, first.username),
        (ScoresheetChange.Action.SETTLE_PROPOSED, second.username),
        (ScoresheetChange.Action.SETTLE, first.username),
        (ScoresheetChange.Action.CONFIRM_DOUBLE, second.username),
    ]
    reason = settled.changes.get(action=ScoresheetChange.Action.SETTLE).reason
    assert reason.endswith(
        f"Proposed by {Actor(user=second).name}, agreed by {Actor(user=first).name}."
    )


def test_a_player_of_the_table_settles_nothing(double):
    sheet, _first, _second, _hands = _two_differences(double)
    seated = sheet.table.seats.get(position=2)
    player = desk(sheet)
    factories.role_grant(
        tournament=sheet.table.round.tournament, user=player, role="scorekeeper", entry=seated.entry
    )
    with pytest.raises(ValidationError) as error:
        services.second_entry_settle(
            scoresheet=sheet, choices={3: "second", 10: "first"}, by=player
        )
    assert "You play at this table" in error.value.message_dict["by"][0]


def test_a_difference_left_open_refuses_the_settlement_and_changes_nothing(double):
    sheet, first, _second, _hands = _two_differences(double)
    with pytest.raises(ValidationError) as error:
        services.second_entry_settle(scoresheet=sheet, choices={3: "second"}, by=first)
    assert error.value.message_dict["choices"] == [
        "Settle every difference from the paper sheet; still open: 10."
    ]
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SUBMITTED
    assert selectors.hand_lines(list(sheet.hands.all())) == full_match()


def test_correcting_the_second_entry_and_comparing_again_confirms(double):
    sheet, _first, second, _hands = _two_differences(double)
    entry = SecondEntry.objects.get(scoresheet=sheet)
    entry = services.second_entry_hands_replace(
        scoresheet=sheet, hands=full_match(), by=second, version=entry.version
    )
    assert entry.differences == []
    assert services.second_entry_compare(scoresheet=sheet, by=second).confirmed


def test_without_double_entry_there_is_no_second_entry(sheet):
    organiser = desk(sheet)
    other = desk(sheet)
    sheet = typed(sheet, organiser)
    with pytest.raises(ValidationError) as error:
        services.second_entry_submit(scoresheet=sheet, hands=full_match(), by=other)
    assert "double_entry" in error.value.message_dict


def test_a_sheet_handed_in_through_the_link_needs_no_second_entry(sheet):
    sheet = keeping(sheet, double_entry=True)
    keeper = factories.keeper(sheet)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=1, by=keeper
    )
    sheet = services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=keeper)
    sheet = services.scoresheet_confirm(
        scoresheet=sheet, version=sheet.version, by=factories.checker(sheet)
    )
    assert sheet.status == Scoresheet.Status.CONFIRMED


def test_double_entry_needs_paper_sheets(sheet):
    tournament = sheet.table.round.tournament
    organiser = factories.user()
    factories.role_grant(tournament=tournament, user=organiser, role=Role.ORGANISER)
    from tournaments import services as tournament_services

    with pytest.raises(ValidationError) as error:
        tournament_services.tournament_update(
            tournament=tournament,
            by=organiser,
            changes={"sheet_keeping": SheetKeeping.PHONES, "double_entry": True},
        )
    assert "double_entry" in error.value.message_dict
