"""Files for spreadsheets: CSV as German spreadsheets open it (semicolons, UTF-8 with a BOM),
with every cell a spreadsheet would run written as text.

Every CSV the site hands out is written here (``csv_response``, ``csv_streaming_response``),
so that no export forgets the neutralising (OWASP "CSV injection", ASVS 1.2.10): a text cell
is prefixed with a single quotation mark, which a spreadsheet shows as text instead of running
it (``=HYPERLINK(...)`` in a player's name, ``-cmd|...`` in a club), when

- it begins with a tab, a line break or a NUL (OWASP's list: what a spreadsheet may drop before
  it reads on), or
- its first character after any whitespace or invisible characters, Unicode's included (the
  no-break and ideographic spaces, the zero-width ones, the byte order mark, the marks of the
  writing direction: every character of the categories Z and C), starts a formula: ``=``,
  ``+``, ``-``, ``@``, or what Unicode's compatibility normalisation (NFKC) makes one of them
  or the minus sign: their full-width forms (``＝``, ``＋``, ``－``, ``＠``, which an East
  Asian input method types and a spreadsheet set up for it may take for the others), their
  small, superscript and subscript forms, and the minus sign ``−`` itself. A spreadsheet that passes over such a
  character would run what follows it; one that does not shows the quotation mark at worst.

Numbers stay numbers: an ``int``, ``float`` or ``Decimal`` is written as it is, so that points
of ``-3`` are a number a spreadsheet can add up. The type tells a number from a text: exporters
pass points as numbers, never as formatted text, and a *text* such as a name "-3" or "+1" is
neutralised like any other.
"""

import csv
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal
from typing import Any

from django.http import HttpResponse, StreamingHttpResponse
from django.utils.translation import gettext as _

from doko import standings
from tournaments.models import Entry

__all__ = ["csv_response", "csv_streaming_response", "spreadsheet_cell", "standings_rows"]

# What a spreadsheet may drop from the start of a cell before it reads on (OWASP's list).
_DROPPED_FIRST = ("\t", "\r", "\n", "\0")
# What starts a formula, as NFKC writes it: the full-width "＝" is "=", the superscript minus "−".
_FORMULA_SIGNS = frozenset("=+-@\u2212")
_DELIMITER = ";"  # German Excel splits at semicolons
_BOM = "\ufeff"  # so that spreadsheets read UTF-8


def spreadsheet_cell(value: Any) -> Any:
    """``value`` as a spreadsheet may open it without running it: numbers as they are, a text
    that a spreadsheet would take for a formula prefixed with ``'``."""
    if value is None:
        return ""
    if isinstance(value, int | float | Decimal):  # bool too: written as True/False, harmless
        return value
    text = str(value)
    return "'" + text if _starts_formula(text) else text


def _starts_formula(text: str) -> bool:
    """Whether a spreadsheet may read ``text`` as a formula (see the module): it begins with a
    tab, a line break or a NUL, or its first visible character starts a formula."""
    if text.startswith(_DROPPED_FIRST):
        return True
    for char in text:
        if not _invisible(char):
            return unicodedata.normalize("NFKC", char)[:1] in _FORMULA_SIGNS
    return False


def _invisible(char: str) -> bool:
    """Whitespace, or a character that shows nothing: a separator (category Z: every space,
    the no-break one too, and the line and paragraph separators) or another (category C:
    controls, format characters such as the zero-width space, the byte order mark and the
    direction marks, and what Unicode has not assigned)."""
    return char.isspace() or unicodedata.category(char)[0] in "ZC"


class _Line:
    """The file object ``csv.writer`` writes a row to, handing the row back."""

    def write(self, text: str) -> str:
        return text


class SpreadsheetWriter:
    """Rows as lines of the house's CSV, every cell through ``spreadsheet_cell``."""

    def __init__(self) -> None:
        self._writer = csv.writer(_Line(), delimiter=_DELIMITER)

    def line(self, row: Iterable[Any]) -> str:
        return self._writer.writerow([spreadsheet_cell(value) for value in row])

    def lines(self, rows: Iterable[Iterable[Any]]) -> Iterator[str]:
        """The file: a byte order mark, then a line per row."""
        yield _BOM
        for row in rows:
            yield self.line(row)


def _download(response: HttpResponse | StreamingHttpResponse, filename: str) -> None:
    response["Content-Disposition"] = f'attachment; filename="{filename}"'


def csv_response(*, filename: str, rows: Iterable[Iterable[Any]]) -> HttpResponse:
    """A CSV download of ``rows`` (the first is the header), built in memory."""
    response = HttpResponse(
        "".join(SpreadsheetWriter().lines(rows)), content_type="text/csv; charset=utf-8"
    )
    _download(response, filename)
    return response


def csv_streaming_response(
    *, filename: str, rows: Iterable[Iterable[Any]]
) -> StreamingHttpResponse:
    """A CSV download of ``rows`` written while they are read: for long files such as a log."""
    response = StreamingHttpResponse(
        SpreadsheetWriter().lines(rows), content_type="text/csv; charset=utf-8"
    )
    _download(response, filename)
    return response


def standings_rows(
    *, table: standings.Standings | None, ddv_numbers: Mapping[int, str] | None = None
) -> Iterator[list[Any]]:
    """The standings as rows of a spreadsheet: a header, then one row per player; a round's
    cell is empty until its sheet is confirmed (TSR 8.5.2). A player who has not played yet
    has no rank and says so in the status. ``ddv_numbers``: by entry, for the ranking list
    (the cell empty where unknown)."""
    rounds = table.rounds if table else ()
    ddv_numbers = ddv_numbers or {}
    yield [
        _("Rank"),
        _("Start number"),
        _("Name"),
        _("Club"),
        _("DDV number"),
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
            ddv_numbers.get(row.entrant.entry_id, ""),
            _("%(status)s, has not played yet") % {"status": statuses[row.entrant.status]}
            if row.not_played
            else statuses[row.entrant.status],
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
