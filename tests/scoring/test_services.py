"""Writing scoresheets: checks, versions, submit and confirm (TSR 7.3)."""

from dataclasses import replace

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from scoring import services
from scoring.models import Hand, Scoresheet
from tests import factories
from tests.sheets import full_match, normal
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet() -> Scoresheet:
    tournament = factories.tournament(players=4)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    return Scoresheet.objects.get(table__round=round_)


def test_hands_are_stored_with_sections_and_the_version_goes_up(sheet):
    saved = services.scoresheet_hands_replace(scoresheet=sheet, hands=full_match(), version=1)
    assert saved.version == 2
    hands = list(saved.hands.all())
    assert len(hands) == 28
    assert sum(hand.section == "compulsory_solo" for hand in hands) == 4
    assert [hand.number for hand in hands] == list(range(1, 29))


def test_a_stale_version_is_refused_and_nothing_changes(sheet):
    services.scoresheet_hands_replace(scoresheet=sheet, hands=full_match()[:3], version=1)
    with pytest.raises(services.StaleVersionError) as error:
        services.scoresheet_hands_replace(scoresheet=sheet, hands=full_match()[:5], version=1)
    assert error.value.current.version == 2
    assert Hand.objects.filter(scoresheet=sheet).count() == 3


def test_a_wrong_hand_saves_nothing_and_names_the_rule(sheet):
    hands = full_match()[:4]
    hands[2] = replace(hands[2], points={1: 3, 2: -1, 3: -1, 4: -2})
    with pytest.raises(ValidationError) as error:
        services.scoresheet_hands_replace(scoresheet=sheet, hands=hands, version=1)
    messages = error.value.message_dict["hands"]
    assert any("TSR 7.3.3" in message for message in messages)
    sheet.refresh_from_db()
    assert sheet.version == 1
    assert not sheet.hands.exists()


def test_problems_are_reported_in_german(sheet, settings):
    from django.utils import translation

    hands = [normal(2, (1, 2), 1)]
    with translation.override("de"), pytest.raises(ValidationError) as error:
        services.scoresheet_hands_replace(scoresheet=sheet, hands=hands, version=1)
    assert (
        "Spiel 1: Geben muss Position 1, nicht Position 2. (TSR 3.3.1, 4.2.5)"
        in error.value.message_dict["hands"][0]
    )


def test_points_for_the_wrong_number_of_seats_are_refused(sheet):
    hands = [replace(normal(1, (1, 2), 1), points={1: 1, 2: -1, 3: 0, 4: 0, 5: 0})]
    with pytest.raises(ValidationError) as error:
        services.scoresheet_hands_replace(scoresheet=sheet, hands=hands, version=1)
    assert "seats 1 to 4" in error.value.message_dict["hands"][0]


def test_game_value_is_read_off_the_points_when_not_given(sheet):
    hands = [replace(normal(1, (1, 3), 4), game_value=None)]
    saved = services.scoresheet_hands_replace(scoresheet=sheet, hands=hands, version=1)
    assert saved.hands.get().game_value == 4


def test_incomplete_sheet_is_not_submitted_while_the_round_runs(sheet):
    services.scoresheet_hands_replace(scoresheet=sheet, hands=full_match()[:10], version=1)
    with pytest.raises(ValidationError, match="not complete"):
        services.scoresheet_submit(scoresheet=sheet, version=2)


def test_incomplete_sheet_is_submitted_once_the_playing_time_ended(sheet):
    services.scoresheet_hands_replace(scoresheet=sheet, hands=full_match()[:10], version=1)
    tournament_services.round_end(round=sheet.table.round, at=timezone.now())
    submitted = services.scoresheet_submit(scoresheet=sheet, version=2)
    assert submitted.status == Scoresheet.Status.SUBMITTED


def test_submit_then_confirm(sheet):
    services.scoresheet_hands_replace(scoresheet=sheet, hands=full_match(), version=1)
    submitted = services.scoresheet_submit(scoresheet=sheet, version=2)
    assert submitted.submitted_at is not None
    confirmed = services.scoresheet_confirm(scoresheet=sheet, version=3)
    assert confirmed.status == Scoresheet.Status.CONFIRMED
    assert confirmed.version == 4


def test_confirming_a_draft_is_refused(sheet):
    with pytest.raises(ValidationError) as error:
        services.scoresheet_confirm(scoresheet=sheet, version=1)
    assert "status" in error.value.message_dict


def test_submitted_sheet_cannot_be_changed(sheet):
    services.scoresheet_hands_replace(scoresheet=sheet, hands=full_match(), version=1)
    services.scoresheet_submit(scoresheet=sheet, version=2)
    with pytest.raises(ValidationError, match="only a draft"):
        services.scoresheet_hands_replace(scoresheet=sheet, hands=full_match()[:2], version=3)
