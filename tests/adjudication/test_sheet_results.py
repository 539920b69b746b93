"""A sheet's hand-in and confirmation write its table's results from what they read under the
sheet's lock (``scoring.results.sheet_results``): the same rows as the results' own queries
give (``TablePlay.results``), with the penalty points of initialled decisions only (TSR 8.2.2),
the stopped hands (TSR 9.4.3) and the deductions in force (TSR 9.6.2 b)."""

import pytest

from adjudication import services
from adjudication.models import Appeal
from doko.rules.penalty import Severity
from scoring import services as scoring_services
from scoring.models import Scoresheet
from tests import factories
from tests.adjudication.helpers import (
    MATCH,
    appeal,
    decide,
    deduct,
    enter,
    on_sheet,
    staffed_tournament,
    started_round,
)
from tournaments import play
from tournaments.models import SeatResult, SheetKeeping, Table

pytestmark = pytest.mark.django_db
Ruling = services.Ruling
FIELDS = (
    "table_id",
    "round_id",
    "entry_id",
    "position",
    "game_points",
    "penalty",
    "deducted",
    "points",
    "placing",
    "confirmed",
    "hands",
    "solos_played",
    "solos_won",
)


def stored(sheet: Scoresheet) -> list[tuple]:
    return sorted(SeatResult.objects.filter(table_id=sheet.table_id).values_list(*FIELDS))


def queried(sheet: Scoresheet) -> list[tuple]:
    results = play.recorded().results(tables=Table.objects.filter(pk=sheet.table_id))
    return sorted(tuple(getattr(result, name) for name in FIELDS) for result in results)


def by_seat(rows: list[tuple], field: str) -> list:
    return [row[FIELDS.index(field)] for row in sorted(rows, key=lambda row: row[3])]


def test_handing_in_and_confirming_write_what_the_queries_give(staff):
    tournament = staffed_tournament(staff, players=4)
    round_ = started_round(tournament)
    sheet = Scoresheet.objects.get(table__round=round_)
    enter(sheet, MATCH[:4])
    decide(sheet, staff, hand=3, offender=2, ruling=Ruling(Severity.MINOR))
    decide(sheet, staff, hand=1, offender=1, ruling=Ruling(Severity.MINOR), initial=False)
    annulled = decide(sheet, staff, hand=4, offender=4, ruling=Ruling(Severity.MINOR))
    appeal(annulled, staff, outcome=Appeal.Outcome.ANNUL)
    decide(sheet, staff, hand=5, offender=1, ruling=Ruling(Severity.MAJOR))  # stopped
    deduct(round_, sheet, staff, position=3, points=6)
    sheet.refresh_from_db()
    played = [line for line in on_sheet(sheet) if not line.not_played]
    sheet = enter(sheet, [*on_sheet(sheet), *MATCH[len(played) :]])
    keeper = factories.keeper(sheet)
    sheet = scoring_services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=keeper)
    handed_in = stored(sheet)
    assert handed_in == queried(sheet)
    assert by_seat(handed_in, "deducted") == [0, 0, 6, 0]
    assert any(by_seat(handed_in, "penalty"))
    assert not any(by_seat(handed_in, "confirmed"))
    sheet = scoring_services.scoresheet_confirm(
        scoresheet=sheet, version=sheet.version, by=factories.checker(sheet)
    )
    confirmed = stored(sheet)
    assert confirmed == queried(sheet)
    assert all(by_seat(confirmed, "confirmed"))


def test_a_sheet_checked_blind_at_the_desk_counts_once_confirmed(staff):
    """Typed and handed in at the desk where paper sheets are checked by a second entry: no
    results until it is confirmed from the signed sheet (double entry)."""
    tournament = staffed_tournament(staff, players=4)
    tournament.sheet_keeping = SheetKeeping.BOTH
    tournament.double_entry = True
    tournament.save()
    round_ = started_round(tournament)
    sheet = Scoresheet.objects.select_related("table__round__tournament").get(table__round=round_)
    desk = scoring_services.Actor(user=staff["organiser"])
    sheet = scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=MATCH, version=sheet.version, by=desk
    )
    sheet = scoring_services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=desk)
    assert stored(sheet) == queried(sheet) == []
