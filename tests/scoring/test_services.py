"""Writing scoresheets: checks, versions, submit and confirm (TSR 7.3)."""

import datetime
from dataclasses import replace

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from doko.rules.contracts import Contract
from doko.sample_sheets import full_match, normal, solo
from scoring import selectors, services
from scoring.models import Hand, Scoresheet, ScoresheetChange
from tests import factories
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def test_hands_are_stored_with_sections_and_the_version_goes_up(sheet):
    saved = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=1, by=factories.keeper(sheet)
    )
    assert saved.version == 2
    hands = list(saved.hands.all())
    assert len(hands) == 24  # 20 + 4 compulsory solos (TSR 8.5.1)
    assert sum(hand.section == "compulsory_solo" for hand in hands) == 4
    assert [hand.number for hand in hands] == list(range(1, 25))


def test_a_stale_version_is_refused_and_nothing_changes(sheet):
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:3], version=1, by=factories.keeper(sheet)
    )
    with pytest.raises(services.StaleVersionError) as error:
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=full_match()[:5], version=1, by=factories.keeper(sheet)
        )
    assert error.value.current.version == 2
    assert Hand.objects.filter(scoresheet=sheet).count() == 3


def test_striking_a_hand_moves_the_later_ones_up_and_deals_them_again(sheet):
    keeper = factories.keeper(sheet)
    lines = [normal(1, (1, 2), 1), normal(2, (1, 3), 2), normal(3, (2, 4), 3)]
    services.scoresheet_hands_replace(scoresheet=sheet, hands=lines, version=1, by=keeper)
    struck = services.scoresheet_hand_strike(scoresheet=sheet, number=2, version=2, by=keeper)
    assert struck.version == 3
    hands = list(struck.hands.order_by("number"))
    assert [hand.number for hand in hands] == [1, 2]
    assert [hand.game_value for hand in hands] == [1, 3]
    assert [hand.dealer for hand in hands] == [1, 2]  # the third hand, dealt again by seat 2


def test_striking_a_hand_the_sheet_does_not_have_is_refused_on_number(sheet):
    keeper = factories.keeper(sheet)
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=[normal(1, (1, 2), 1)], version=1, by=keeper
    )
    with pytest.raises(ValidationError) as error:
        services.scoresheet_hand_strike(scoresheet=sheet, number=2, version=2, by=keeper)
    assert error.value.message_dict == {"number": ["There is no hand 2."]}
    assert Hand.objects.filter(scoresheet=sheet).count() == 1


def test_a_wrong_hand_saves_nothing_and_names_the_rule(sheet):
    hands = full_match()[:4]
    hands[2] = replace(hands[2], points={1: 3, 2: -1, 3: -1, 4: -2})
    with pytest.raises(ValidationError) as error:
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=hands, version=1, by=factories.keeper(sheet)
        )
    messages = error.value.message_dict["hands"]
    assert any("TSR 7.3.3" in message for message in messages)
    sheet.refresh_from_db()
    assert sheet.version == 1
    assert not sheet.hands.exists()


def test_problems_are_reported_in_german(sheet, settings):
    from django.utils import translation

    hands = [replace(normal(1, (1, 2), 1), points={1: 2, 2: -2, 3: 1, 4: -1})]
    with translation.override("de"), pytest.raises(ValidationError) as error:
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=hands, version=1, by=factories.keeper(sheet)
        )
    assert error.value.message_dict["hands"][0] == (
        "Spiel 1: Die vier Punktwerte müssen alle gerade oder alle ungerade sein; nur "
        "Strafpunkte zugunsten des Solospielers dürfen davon abweichen. (TSR 7.3.3.2)"
    )


def test_points_for_the_wrong_number_of_seats_are_refused(sheet):
    hands = [replace(normal(1, (1, 2), 1), points={1: 1, 2: -1, 3: 0, 4: 0, 5: 0})]
    with pytest.raises(ValidationError) as error:
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=hands, version=1, by=factories.keeper(sheet)
        )
    assert "seats 1 to 4" in error.value.message_dict["hands"][0]


def test_game_value_is_read_off_the_points_when_not_given(sheet):
    hands = [replace(normal(1, (1, 3), 4), game_value=None)]
    saved = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=hands, version=1, by=factories.keeper(sheet)
    )
    assert saved.hands.get().game_value == 4


def test_incomplete_sheet_is_not_submitted_while_the_round_runs(sheet):
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:10], version=1, by=factories.keeper(sheet)
    )
    with pytest.raises(ValidationError, match="not complete"):
        services.scoresheet_submit(scoresheet=sheet, version=2, by=factories.keeper(sheet))


def test_after_the_playing_time_a_sheet_needs_its_end_and_the_forced_solos(sheet):
    keeper = factories.keeper(sheet)
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:10], version=1, by=keeper
    )
    # Ending the time notes it after the hands written so far (TSR 8.5.3): version 3.
    factories.round_end(sheet.table.round, at=timezone.now())
    sheet.refresh_from_db()
    assert (sheet.time_over_after_hand, sheet.version) == (10, 3)
    # Cleared, the sheet cannot be handed in without it.
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:10], version=3, by=keeper, time_over_after_hand=None
    )
    with pytest.raises(ValidationError, match="note after which hand"):
        services.scoresheet_submit(scoresheet=sheet, version=4, by=keeper)
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:10], version=4, by=keeper, time_over_after_hand=10
    )
    with pytest.raises(ValidationError, match="Seat 4 must still play a forced solo"):
        services.scoresheet_submit(scoresheet=sheet, version=5, by=keeper)
    # After the time only forced solos are played (TSR 8.5.3): a normal game is refused.
    with pytest.raises(ValidationError, match="seat 4 had to play a forced solo here"):
        services.scoresheet_hands_replace(
            scoresheet=sheet,
            hands=[*full_match()[:10], normal(4, (1, 2), 1)],
            version=5,
            by=keeper,
            time_over_after_hand=10,
        )
    forced = solo(4, 4, 2, contract=Contract.FORCED_SOLO)
    services.scoresheet_hands_replace(
        scoresheet=sheet,
        hands=[*full_match()[:10], forced],
        version=5,
        by=keeper,
        time_over_after_hand=10,
    )
    submitted = services.scoresheet_submit(scoresheet=sheet, version=6, by=keeper)
    assert submitted.status == Scoresheet.Status.SUBMITTED
    assert submitted.submitted_by_seat == keeper.seat


def test_the_end_of_playing_time_is_not_noted_before_the_adjudicator_announces_it(sheet):
    """TSR 8.5.1: the adjudicator announces the end; before that a sheet cannot say the time
    ended, even when the clock has run down, and nothing of the write is saved."""
    keeper = factories.keeper(sheet)
    with pytest.raises(ValidationError) as error:
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=full_match()[:10], version=1, by=keeper, time_over_after_hand=10
        )
    [message] = error.value.message_dict["time_over_after_hand"]
    assert "table 1 has not ended" in message
    assert "TSR 8.5.1" in message
    sheet.refresh_from_db()
    assert (sheet.version, sheet.time_over_after_hand, sheet.hands.count()) == (1, None, 0)


def five_sheet(*, started: datetime.timedelta, ended: datetime.timedelta | None) -> Scoresheet:
    """The sheet of a table of five (and a table of four beside it), the round started and,
    unless ``ended`` is None, ended that long ago."""
    tournament = factories.tournament(players=9, allow_tables_of_five=True)
    round_ = factories.seated_round(tournament)
    now = timezone.now()
    round_ = tournament_services.round_start(round=round_, at=now - started)
    if ended is not None:
        factories.round_end(round_, at=now - ended)
    return next(
        sheet
        for sheet in Scoresheet.objects.filter(table__round=round_)
        if sheet.table.seats.count() == 5
    )


def test_a_table_of_five_plays_on_after_the_announced_end_and_notes_its_end_later():
    """TSR 10.1.5: a table of five plays 125 minutes. The round ended at 100: its playing
    time ends 25 minutes later, and its sheet says so; clearing the note or keeping it as it
    is are always allowed."""
    sheet = five_sheet(started=datetime.timedelta(minutes=105), ended=datetime.timedelta(minutes=5))
    keeper = factories.keeper(sheet)
    hands = full_match(size=5)[:10]
    sheet = services.scoresheet_hands_replace(scoresheet=sheet, hands=hands, version=1, by=keeper)
    ends = timezone.localtime(sheet.table.round.ended_at + datetime.timedelta(minutes=25))
    with pytest.raises(ValidationError) as error:
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=hands, version=2, by=keeper, time_over_after_hand=10
        )
    [message] = error.value.message_dict["time_over_after_hand"]
    assert f"table {sheet.table.number} ends at {ends:%H:%M} (TSR 8.5.1, 10.1.5)" in message
    # Handing it in early is refused for what it is: hands remain (TSR 8.5.1).
    with pytest.raises(ValidationError, match=r"not complete: 20 of the round.s 30 hands"):
        services.scoresheet_submit(scoresheet=sheet, version=2, by=keeper)
    # The table plays on: hands are entered with the note left empty, as it is.
    more = full_match(size=5)[:11]
    sheet = services.scoresheet_hands_replace(scoresheet=sheet, hands=more, version=2, by=keeper)
    assert sheet.version == 3
    assert sheet.time_over_after_hand is None


def test_a_table_of_five_notes_the_end_once_its_longer_match_is_over():
    sheet = five_sheet(
        started=datetime.timedelta(minutes=130), ended=datetime.timedelta(minutes=30)
    )
    keeper = factories.keeper(sheet)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet,
        hands=full_match(size=5)[:10],
        version=1,
        by=keeper,
        time_over_after_hand=10,
    )
    assert sheet.time_over_after_hand == 10
    # Clearing it is allowed, as ever.
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(size=5)[:10], version=2, by=keeper
    )
    assert sheet.time_over_after_hand is None


def test_a_tables_extra_time_delays_the_end_it_may_note(sheet):
    """TSR 8.5.1: extra time noted for a table extends its playing time beyond the end the
    adjudicator announced for the round."""
    round_ = sheet.table.round
    tournament_services.table_extra_time_grant(
        table=sheet.table,
        minutes=10,
        reason="Beschwerde",
        by=factories.adjudicator(round_.tournament),
    )
    ended = factories.round_end(round_)
    keeper = factories.keeper(sheet)
    with pytest.raises(ValidationError) as error:
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=full_match()[:10], version=1, by=keeper, time_over_after_hand=10
        )
    ends = timezone.localtime(ended.ended_at + datetime.timedelta(minutes=10))
    [message] = error.value.message_dict["time_over_after_hand"]
    assert f"table 1 ends at {ends:%H:%M}, with its extra time (TSR 8.5.1)" in message
    assert not sheet.hands.exists()


def test_submit_then_confirm(sheet):
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=1, by=factories.keeper(sheet)
    )
    submitted = services.scoresheet_submit(scoresheet=sheet, version=2, by=factories.keeper(sheet))
    assert submitted.submitted_at is not None
    confirmed = services.scoresheet_confirm(
        scoresheet=sheet, version=3, by=factories.checker(sheet)
    )
    assert confirmed.status == Scoresheet.Status.CONFIRMED
    assert confirmed.version == 4


def test_confirming_a_draft_is_refused(sheet):
    with pytest.raises(ValidationError) as error:
        services.scoresheet_confirm(scoresheet=sheet, version=1, by=factories.checker(sheet))
    assert "status" in error.value.message_dict


def test_submitted_sheet_cannot_be_changed(sheet):
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=1, by=factories.keeper(sheet)
    )
    services.scoresheet_submit(scoresheet=sheet, version=2, by=factories.keeper(sheet))
    with pytest.raises(ValidationError, match="only a draft"):
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=full_match()[:2], version=3, by=factories.keeper(sheet)
        )


def test_the_submitter_cannot_confirm_but_another_player_can(sheet):
    keeper = factories.keeper(sheet)
    services.scoresheet_hands_replace(scoresheet=sheet, hands=full_match(), version=1, by=keeper)
    services.scoresheet_submit(scoresheet=sheet, version=2, by=keeper)
    with pytest.raises(ValidationError, match="another player of the table"):
        services.scoresheet_confirm(scoresheet=sheet, version=3, by=keeper)
    confirmed = services.scoresheet_confirm(
        scoresheet=sheet, version=3, by=factories.checker(sheet)
    )
    assert confirmed.confirmed_by_seat.position == 1
    assert confirmed.submitted_by_seat.position == 4


def test_a_staff_member_who_submitted_cannot_confirm(sheet):
    organiser = factories.user()
    factories.role_grant(tournament=sheet.table.round.tournament, user=organiser, role="organiser")
    staff = services.Actor(user=organiser)
    services.scoresheet_hands_replace(scoresheet=sheet, hands=full_match(), version=1, by=staff)
    services.scoresheet_submit(scoresheet=sheet, version=2, by=staff)
    with pytest.raises(ValidationError, match="another player of the table"):
        services.scoresheet_confirm(scoresheet=sheet, version=3, by=staff)
    assert services.scoresheet_confirm(scoresheet=sheet, version=3, by=factories.checker(sheet))


def test_the_database_refuses_a_sheet_confirmed_by_its_submitter(sheet):
    from django.db import IntegrityError, transaction

    keeper = factories.keeper(sheet)
    services.scoresheet_hands_replace(scoresheet=sheet, hands=full_match(), version=1, by=keeper)
    services.scoresheet_submit(scoresheet=sheet, version=2, by=keeper)
    with pytest.raises(IntegrityError), transaction.atomic():
        Scoresheet.objects.filter(pk=sheet.pk).update(
            status="confirmed", confirmed_at=timezone.now(), confirmed_by_seat=keeper.seat
        )


def test_only_the_scorekeeper_link_enters_and_hands_in(sheet):
    from django.core.exceptions import PermissionDenied

    other_player = factories.checker(sheet)
    with pytest.raises(PermissionDenied, match="Only the scorekeeper, seat 4"):
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=full_match()[:1], version=1, by=other_player
        )


def test_a_link_opens_only_its_own_table():
    from django.core.exceptions import PermissionDenied

    tournament = factories.tournament(players=8)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    first, second = Scoresheet.objects.filter(table__round=round_).order_by("table__number")
    with pytest.raises(PermissionDenied, match="does not open this scoresheet"):
        services.scoresheet_hands_replace(
            scoresheet=first, hands=full_match()[:1], version=1, by=factories.keeper(second)
        )


def test_an_account_without_a_role_may_not_write(sheet):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.scoresheet_hands_replace(
            scoresheet=sheet,
            hands=full_match()[:1],
            version=1,
            by=services.Actor(user=factories.user()),
        )


def test_hands_cannot_be_entered_before_the_round_starts():
    tournament = factories.tournament(players=4)
    round_ = factories.seated_round(tournament)
    sheet = Scoresheet.objects.get(table__round=round_)
    with pytest.raises(ValidationError, match="from the start of the round"):
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=full_match()[:1], version=1, by=factories.keeper(sheet)
        )


def test_an_organiser_reopens_with_a_reason_and_every_change_is_kept(sheet):
    organiser = factories.user(first_name="Olga", last_name="Organ")
    factories.role_grant(tournament=sheet.table.round.tournament, user=organiser, role="organiser")
    factories.sheet_confirmed(sheet, full_match())
    with pytest.raises(ValidationError, match="Say why"):
        services.scoresheet_reopen(
            scoresheet=sheet, version=4, by=services.Actor(user=organiser), reason="  "
        )
    with pytest.raises(PermissionDenied):
        services.scoresheet_reopen(
            scoresheet=sheet, version=4, by=factories.keeper(sheet), reason="Tippfehler"
        )
    reopened = services.scoresheet_reopen(
        scoresheet=sheet, version=4, by=services.Actor(user=organiser), reason="Tippfehler"
    )
    assert reopened.status == Scoresheet.Status.DRAFT
    assert reopened.confirmed_by_seat is None
    changes = list(reopened.changes.all())
    assert [change.action for change in changes] == ["hands", "submit", "confirm", "reopen"]
    assert [change.version for change in changes] == [2, 3, 4, 5]
    assert changes[0].before["hands"] == []
    assert len(changes[0].after["hands"]) == 24
    assert changes[2].by_name.endswith("(seat 1)")
    assert changes[3].by_name == "Olga Organ"
    assert changes[3].reason == "Tippfehler"
    assert changes[3].before["status"] == "confirmed"
    assert changes[3].after["status"] == "draft"


def test_saving_the_same_hands_again_makes_no_new_version(sheet):
    keeper = factories.keeper(sheet)
    services.scoresheet_hands_replace(scoresheet=sheet, hands=full_match(), version=1, by=keeper)
    again = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=2, by=keeper
    )
    assert again.version == 2
    assert again.changes.count() == 1


# Handing the sheet over (TSR 3.1.1, 8.4.1) --------------------------------------------------


def staff(sheet, role: str) -> services.Actor:
    user = factories.user(first_name="Anna", last_name="Richter")
    factories.role_grant(tournament=sheet.table.round.tournament, user=user, role=role)
    return services.Actor(user=user)


def link(sheet, position: int) -> services.Actor:
    return services.Actor(seat=sheet.table.seats.get(position=position))


@pytest.mark.parametrize("role", ["organiser", "adjudicator"])
def test_the_sheet_is_handed_over_and_the_links_follow(sheet, role):
    """By agreement at the table seat 2 keeps the sheet: its link enters and hands in, the
    former scorekeeper's (seat 4) only follows and confirms; the seating order stays."""
    moved = services.scoresheet_keeper_move(
        scoresheet=sheet, seat=2, version=1, by=staff(sheet, role)
    )
    assert (moved.keeper_seat, moved.keeper(4), moved.version) == (2, 2, 2)
    [change] = moved.changes.all()
    assert change.action == ScoresheetChange.Action.KEEPER
    assert change.get_action_display() == "scorekeeper changed"
    assert "keeper" not in change.before
    assert change.after["keeper"] == 2
    assert change.by_name == "Anna Richter"
    with pytest.raises(PermissionDenied, match="Only the scorekeeper, seat 2"):
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=full_match(), version=2, by=link(sheet, 4)
        )
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=2, by=link(sheet, 2)
    )
    with pytest.raises(PermissionDenied, match="Only the scorekeeper, seat 2"):
        services.scoresheet_submit(scoresheet=sheet, version=3, by=link(sheet, 4))
    services.scoresheet_submit(scoresheet=sheet, version=3, by=link(sheet, 2))
    confirmed = services.scoresheet_confirm(scoresheet=sheet, version=4, by=link(sheet, 4))
    assert (confirmed.submitted_by_seat.position, confirmed.confirmed_by_seat.position) == (2, 4)
    assert list(sheet.table.seats.order_by("position").values_list("position", flat=True)) == [
        1,
        2,
        3,
        4,
    ]


@pytest.mark.parametrize("who", ["panel", "scorekeeper", "nobody", "keeper's link"])
def test_only_the_organiser_or_an_adjudicator_hands_the_sheet_over(sheet, who):
    by = (
        factories.keeper(sheet)
        if who == "keeper's link"
        else services.Actor(user=factories.user())
        if who == "nobody"
        else staff(sheet, who)
    )
    with pytest.raises(PermissionDenied, match=r"TSR 3\.1\.1, 8\.4\.1"):
        services.scoresheet_keeper_move(scoresheet=sheet, seat=2, version=1, by=by)
    sheet.refresh_from_db()
    assert (sheet.keeper_seat, sheet.version) == (None, 1)
    assert not sheet.changes.exists()


@pytest.mark.parametrize("seat", [0, 5, 2**40])
def test_a_seat_not_at_the_table_is_refused_by_name(sheet, seat):
    with pytest.raises(ValidationError) as error:
        services.scoresheet_keeper_move(
            scoresheet=sheet, seat=seat, version=1, by=staff(sheet, "organiser")
        )
    [message] = error.value.message_dict["seat"]
    assert "Table 1 has seats 1 to 4" in message
    assert "TSR 3.1.1" in message
    sheet.refresh_from_db()
    assert (sheet.keeper_seat, sheet.version) == (None, 1)


def test_handing_over_to_the_keeper_changes_nothing_and_back_to_seat_4_is_the_rule(sheet):
    organiser = staff(sheet, "organiser")
    same = services.scoresheet_keeper_move(scoresheet=sheet, seat=4, version=1, by=organiser)
    assert (same.version, same.keeper_seat) == (1, None)
    services.scoresheet_keeper_move(scoresheet=sheet, seat=1, version=1, by=organiser)
    back = services.scoresheet_keeper_move(scoresheet=sheet, seat=4, version=2, by=organiser)
    assert (back.version, back.keeper_seat, back.keeper(4)) == (3, None, 4)
    assert [row.keeper for row in selectors.sheet_changes(sheet=back)] == [(None, 1), (1, None)]
    with pytest.raises(services.StaleVersionError):
        services.scoresheet_keeper_move(scoresheet=sheet, seat=2, version=2, by=organiser)


def test_only_a_drafts_keeper_is_handed_over_while_the_round_is_under_way(sheet):
    organiser = staff(sheet, "organiser")
    factories.sheet_confirmed(sheet, full_match())
    with pytest.raises(ValidationError) as error:
        services.scoresheet_keeper_move(scoresheet=sheet, seat=2, version=4, by=organiser)
    assert "status" in error.value.message_dict
    tournament = factories.tournament(players=4)
    planned = Scoresheet.objects.get(table__round=factories.seated_round(tournament))
    with pytest.raises(ValidationError) as error:
        services.scoresheet_keeper_move(
            scoresheet=planned, seat=2, version=1, by=staff(planned, "organiser")
        )
    assert "round" in error.value.message_dict


def test_at_a_table_of_five_seat_5_hands_the_sheet_over_to_seat_1():
    tournament = factories.tournament(players=5, allow_tables_of_five=True)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_)
    assert sheet.keeper(5) == 5
    moved = services.scoresheet_keeper_move(
        scoresheet=sheet, seat=1, version=1, by=staff(sheet, "adjudicator")
    )
    assert selectors.sheet_state(sheet=moved).keeper == 1
    hands = full_match(size=5)[:3]
    with pytest.raises(PermissionDenied, match="seat 1"):
        services.scoresheet_hands_replace(
            scoresheet=sheet, hands=hands, version=2, by=link(sheet, 5)
        )
    services.scoresheet_hands_replace(scoresheet=sheet, hands=hands, version=2, by=link(sheet, 1))


def test_the_database_keeps_the_keeper_a_seat(sheet):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Scoresheet.objects.filter(pk=sheet.pk).update(keeper_seat=8)
