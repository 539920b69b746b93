"""Hands and scoresheets: the invariants the database keeps (TSR 4.2.4, 4.4, 7.3.3)."""

import pytest
from django.db import IntegrityError, transaction

from doko.rules.contracts import Contract
from doko.rules.sheet import HandLine
from scoring.models import Hand, Scoresheet
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet() -> Scoresheet:
    tournament = factories.tournament(players=4)
    round_ = factories.seated_round(tournament)
    return Scoresheet.objects.get(table__round=round_)


def hand(sheet, **fields):
    values = {
        "scoresheet": sheet,
        "number": 1,
        "dealer": 1,
        "contract": "normal",
        "game_value": 2,
        "points_1": 2,
        "points_2": -2,
        "points_3": 2,
        "points_4": -2,
    }
    return Hand.objects.create(**{**values, **fields})


def refused(create):
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


def test_a_correct_hand_is_stored(sheet):
    assert hand(sheet).points == {1: 2, 2: -2, 3: 2, 4: -2}


def test_a_line_is_stored_only_with_its_game_value(sheet):
    points = {1: 2, 2: -2, 3: 2, 4: -2}
    line = HandLine(contract=Contract.NORMAL, dealer=1, points=points, game_value=2)
    assert Hand.from_line(scoresheet=sheet, number=1, line=line).game_value == 2
    with pytest.raises(ValueError, match="no game value"):
        Hand.from_line(
            scoresheet=sheet,
            number=1,
            line=HandLine(contract=Contract.NORMAL, dealer=1, points=points),
        )


def test_points_that_do_not_sum_to_zero_are_refused(sheet):
    refused(lambda: hand(sheet, points_4=-1))


def test_the_fifth_seat_counts_in_the_checksum(sheet):
    refused(lambda: hand(sheet, points_5=3))
    assert hand(sheet, points_1=0, points_5=2).points[5] == 2


def test_hand_numbers_are_unique_per_sheet(sheet):
    hand(sheet)
    refused(lambda: hand(sheet))


def test_compulsory_solo_goes_into_its_own_section(sheet):
    solo = {"contract": "compulsory_solo", "soloist": 1, "solo_type": "queens"}
    solo_points = {"points_1": 6, "points_2": -2, "points_3": -2, "points_4": -2}
    refused(lambda: hand(sheet, section="main", **solo, **solo_points))
    assert hand(sheet, section="compulsory_solo", **solo, **solo_points).pk


def test_normal_game_in_the_compulsory_section_is_refused(sheet):
    refused(lambda: hand(sheet, section="compulsory_solo"))


@pytest.mark.parametrize("contract", ["voluntary_solo", "forced_solo", "silent_wedding"])
def test_solo_names_its_soloist_and_type(sheet, contract):
    refused(lambda: hand(sheet, contract=contract))
    refused(lambda: hand(sheet, contract=contract, soloist=2))


def test_normal_game_has_no_soloist(sheet):
    refused(lambda: hand(sheet, soloist=2, solo_type="queens"))


def test_wedding_played_alone_is_a_diamonds_solo(sheet):
    points = {"points_1": -2, "points_2": 6, "points_3": -2, "points_4": -2}
    refused(lambda: hand(sheet, contract="wedding", soloist=2, solo_type="queens", **points))
    assert hand(sheet, contract="wedding", soloist=2, solo_type="diamonds", **points).pk


@pytest.mark.parametrize(
    ("field", "value"), [("dealer", 0), ("dealer", 8), ("soloist", 8), ("game_value", -1)]
)
def test_seats_and_values_are_in_range(sheet, field, value):
    extra = {"contract": "voluntary_solo", "solo_type": "queens"} if field == "soloist" else {}
    refused(lambda: hand(sheet, **{field: value}, **extra))


def test_version_starts_at_one_and_never_below(sheet):
    assert sheet.version == 1
    refused(lambda: Scoresheet.objects.filter(pk=sheet.pk).update(version=0))


def test_a_table_has_one_scoresheet(sheet):
    refused(lambda: Scoresheet.objects.create(table=sheet.table))


def test_submitted_sheet_needs_its_time(sheet):
    refused(lambda: Scoresheet.objects.filter(pk=sheet.pk).update(status="submitted"))
