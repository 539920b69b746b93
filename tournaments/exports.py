"""Files for spreadsheets: CSV as German spreadsheets open it (semicolons, UTF-8 with a BOM)."""

import csv
from collections.abc import Iterable, Iterator
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _

from doko import standings
from tournaments.models import Entry


def csv_response(*, filename: str, rows: Iterable[Iterable[Any]]) -> HttpResponse:
    """A CSV download of ``rows`` (the first is the header)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    csv.writer(response, delimiter=";").writerows(rows)
    return response


def standings_rows(*, table: standings.Standings | None) -> Iterator[list[Any]]:
    """The standings as rows of a spreadsheet: a header, then one row per player; a round's
    cell is empty until its sheet is confirmed (TSR 8.5.2)."""
    rounds = table.rounds if table else ()
    yield [
        _("Rank"),
        _("Start number"),
        _("Name"),
        _("Club"),
        _("Status"),
        *(_("Round %(number)d") % {"number": number} for number in rounds),
        _("Points"),
        _("Provisional"),
        _("Table placings"),
        _("Best round"),
        _("Rounds"),
        _("Solos played"),
        _("Solos won"),
    ]
    statuses = dict(Entry.Status.choices)
    for row in table.rows if table else ():
        yield [
            row.rank if row.rank is not None else "",
            row.entrant.start_number,
            row.entrant.name,
            row.entrant.club,
            statuses[row.entrant.status],
            *(
                "" if result is None or not result.confirmed else result.points
                for result in row.results
            ),
            row.points,
            "" if row.provisional is None else row.provisional,
            row.placings,
            "" if row.best_round is None else row.best_round,
            row.rounds_played,
            row.solos_played,
            row.solos_won,
        ]
