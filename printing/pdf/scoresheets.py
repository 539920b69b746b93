"""The scoresheet (Spielliste, TSR 7.3) on paper: blank sheets for every table of a round, one
A4 page each with the scorekeeper's private link as a QR code, and the completed sheet of one
table as confirmed, for the archive.

Drawn on the canvas, not with platypus: a round of 500 tables has to print in a few seconds.
Everything that is the same on every page of one table size (the grid, its labels, the
tournament's name, the round) is drawn once as a form (a PDF XObject) and placed on each page;
only the table's own text and its QR code are drawn page by page.
"""

import functools
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from adjudication.models import Decision
from doko.rules.contracts import Contract, Section, SoloType
from doko.rules.deal import (
    LARGE_TABLES,
    TABLE_OF_FIVE,
    TABLE_OF_FOUR,
    TABLE_OF_SEVEN,
    TABLE_OF_SIX,
    TABLE_SIZES,
    main_section_lines,
    scorekeeper,
    sheet_keeper,
)
from printing.pdf.drawing import Steps, draw, draw_qr, link_lines, new_canvas, wrap
from printing.pdf.fonts import BOLD, OBLIQUE, REGULAR
from printing.pdf.lists import Progress, tournament_dates
from scoring.models import CONTRACT_LABELS, SOLO_TYPE_LABELS, Hand, Scoresheet
from scoring.rulings import NONE, SheetAdjudication, initials
from scoring.selectors import HandRow
from scoring.services import Actor
from tournaments.models import ExtraTime, Seat, Tournament
from tournaments.selectors import SeatRow, TableRow

PAGE_WIDTH, PAGE_HEIGHT = A4
_MARGIN = 12 * mm
_WIDTH = PAGE_WIDTH - 2 * _MARGIN
_TOP = PAGE_HEIGHT - _MARGIN
_QR_SIZE = 30 * mm
_SEATS_TOP = _TOP - 21 * mm  # the labels above the players
_SEAT_LINE = 4.4 * mm
_GRID_TOP = _TOP - 52 * mm
_GRID_BOTTOM = _MARGIN + 28 * mm  # above the field for extra time and the signatures
_HEADER = 8 * mm  # the grid's header: the column's name, and a seat's player
_LABEL = 4 * mm  # the line that names a section
_ROW_MAX = 6 * mm
_SIGNATURES = 8 * mm  # beneath the totals: a box for each seat's player to sign his total
_FOOTER = 6 * mm  # baseline of the page footer, from the bottom edge
_NOTE_LINES = 3  # what the field for extra time beneath the grid holds under its label

_BLACK = colors.black
_GREY = colors.HexColor("#555555")
_LIGHT = colors.HexColor("#bbbbbb")
_ZEBRA = colors.HexColor("#f3f3f3")
_SHADE = colors.HexColor("#e4e4e4")
_FIVE = colors.HexColor("#ffd966")  # the mark of a table of five, as on the table cards
_WARNING = colors.HexColor("#b02a37")  # the links warning, as on the table cards
_RED = colors.HexColor("#b00020")
_PENALTY = colors.HexColor("#fff3cd")  # the shade of a line with penalty points or not played

# The columns of the grid, left to right, with their widths; the seats share what is left.
_FIXED = [7 * mm, 8 * mm, 25 * mm, 10 * mm, 15 * mm]
_INITIALS = 16 * mm  # wide enough for "Kürzel (Schiedsrichter)" in two lines
_HAND, _DEALER, _CONTRACT, _VALUE, _PLUS = range(5)


# The grid -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Grid:
    """Where the grid's lines are: a header, the main section, the compulsory-solo section
    (TSR 4.2.4), and a line for the totals."""

    size: int  # players at the table
    main: int  # lines of the main section
    solos: int  # lines of the compulsory-solo section
    row: float  # the height of a line

    @classmethod
    def of(cls, *, size: int, main: int, solos: int) -> "_Grid":
        space = _GRID_TOP - _GRID_BOTTOM - _HEADER - 2 * _LABEL - _SIGNATURES
        return cls(size=size, main=main, solos=solos, row=min(_ROW_MAX, space / (main + solos + 1)))

    @functools.cached_property
    def edges(self) -> list[float]:
        """The x of every column edge: hand, dealer, contract, value, plus seats, the seats,
        the adjudicator's initials."""
        seat = (_WIDTH - sum(_FIXED) - _INITIALS) / self.size
        widths = [*_FIXED, *[seat] * self.size, _INITIALS]
        edges = [_MARGIN]
        for width in widths:
            edges.append(edges[-1] + width)
        return edges

    def column(self, index: int) -> tuple[float, float]:
        return self.edges[index], self.edges[index + 1]

    def seat_column(self, position: int) -> tuple[float, float]:
        return self.column(_PLUS + position)

    @property
    def initials(self) -> tuple[float, float]:
        return self.column(_PLUS + self.size + 1)

    @property
    def main_top(self) -> float:
        return _GRID_TOP - _HEADER - _LABEL

    @property
    def solos_label(self) -> float:
        return self.main_top - self.main * self.row

    @property
    def solos_top(self) -> float:
        return self.solos_label - _LABEL

    @property
    def total_top(self) -> float:
        return self.solos_top - self.solos * self.row

    @property
    def bottom(self) -> float:
        return self.total_top - self.row

    def line_top(self, section: str, index: int) -> float:
        """The top of line ``index`` (from 0) of a section."""
        top = self.main_top if section == Section.MAIN else self.solos_top
        return top - index * self.row


def _main_lines(tournament: Tournament, size: int) -> int:
    """The lines of the main section: the round's hands less the compulsory solos, which have
    their own section (TSR 4.2.4, 8.5.1, 10.1.5): 20 at a table of four, 25 at five."""
    return main_section_lines(hands_per_match=tournament.hands_at(size), table_size=size)


def _draw_grid(canvas: Canvas, grid: _Grid, *, numbered: bool) -> None:
    """The empty grid with its column names; ``numbered`` prints the hand numbers of the main
    section, as on a blank sheet."""
    canvas.saveState()
    _shade_grid(canvas, grid)
    _rule_grid(canvas, grid)
    _name_columns(canvas, grid)
    _name_sections(canvas, grid)
    if numbered:
        _number_hands(canvas, grid)
    canvas.restoreState()


def _shade_grid(canvas: Canvas, grid: _Grid) -> None:
    """Shade the header, the section labels, every other line, and the totals."""
    left = _MARGIN
    canvas.setFillColor(_SHADE)
    canvas.rect(left, _GRID_TOP - _HEADER, _WIDTH, _HEADER, stroke=0, fill=1)
    canvas.rect(left, grid.main_top, _WIDTH, _LABEL, stroke=0, fill=1)
    canvas.rect(left, grid.solos_top, _WIDTH, _LABEL, stroke=0, fill=1)
    canvas.rect(left, grid.bottom, _WIDTH, grid.row, stroke=0, fill=1)
    canvas.setFillColor(_ZEBRA)
    for section, count in ((Section.MAIN, grid.main), (Section.COMPULSORY_SOLO, grid.solos)):
        for index in range(1, count, 2):
            canvas.rect(left, grid.line_top(section, index) - grid.row, _WIDTH, grid.row, 0, 1)


def _rule_grid(canvas: Canvas, grid: _Grid) -> None:
    """Draw the grid's lines: thin ones between the lines of each section, the column edges
    through the header and each section (not through the section labels), and strong ones
    around the box, the sections and the seats' block of running totals."""
    left, right = _MARGIN, _MARGIN + _WIDTH
    canvas.setStrokeColor(_LIGHT)
    canvas.setLineWidth(0.3)
    path = canvas.beginPath()
    for section, count in ((Section.MAIN, grid.main), (Section.COMPULSORY_SOLO, grid.solos)):
        for index in range(1, count):
            y = grid.line_top(section, index)
            path.moveTo(left, y)
            path.lineTo(right, y)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.setStrokeColor(_GREY)
    canvas.setLineWidth(0.4)
    path = canvas.beginPath()
    blocks = [
        (_GRID_TOP, grid.main_top + _LABEL, grid.edges),
        (grid.main_top, grid.solos_label, grid.edges),
        (grid.solos_top, grid.total_top, grid.edges),
        (grid.total_top, grid.bottom, grid.edges[_PLUS + 1 :]),
    ]
    for top, bottom, edges in blocks:
        for x in edges[1:-1]:
            path.moveTo(x, top)
            path.lineTo(x, bottom)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.setStrokeColor(_BLACK)
    canvas.setLineWidth(0.9)
    path = canvas.beginPath()
    for y in (
        _GRID_TOP - _HEADER,
        grid.main_top,
        grid.solos_label,
        grid.solos_top,
        grid.total_top,
    ):
        path.moveTo(left, y)
        path.lineTo(right, y)
    for top, bottom, _edges in blocks:
        for x in (grid.edges[_PLUS + 1], grid.edges[-2]):
            path.moveTo(x, top)
            path.lineTo(x, bottom)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.setLineWidth(1.2)
    canvas.rect(left, grid.bottom, _WIDTH, _GRID_TOP - grid.bottom, stroke=1, fill=0)


def _name_columns(canvas: Canvas, grid: _Grid) -> None:
    """Write the column names in the header, in up to two lines each."""
    canvas.setFillColor(_BLACK)
    names = [
        _("Hand"),
        _("Dealer"),
        _("Contract, soloist"),
        _("Game value"),
        _("Plus seats"),
    ]
    for index, name in enumerate(names):
        _header_label(canvas, name, *grid.column(index))
    for position in range(1, grid.size + 1):
        x0, x1 = grid.seat_column(position)
        draw(
            canvas,
            (x0 + x1) / 2,
            _GRID_TOP - 3.2 * mm,
            _("Seat %(seat)d") % {"seat": position},
            BOLD,
            8,
            align="centre",
        )
    _header_label(canvas, _("Initials (adjudicator)"), *grid.initials)


def _name_sections(canvas: Canvas, grid: _Grid) -> None:
    """Write the sections' names on their labels, and "Total" on the line of the totals."""
    section_names = [
        (
            grid.main_top,
            ngettext(
                "Main section: %(count)d hand, running totals per seat (TSR 7.3.1, 8.5.1)",
                "Main section: %(count)d hands, running totals per seat (TSR 7.3.1, 8.5.1)",
                grid.main,
            )
            % {"count": grid.main},
        ),
        (
            grid.solos_top,
            ngettext(
                "Compulsory solos, forced solos included: %(count)d hand (TSR 4.2.3, 4.2.4)",
                "Compulsory solos, forced solos included: %(count)d hands (TSR 4.2.3, 4.2.4)",
                grid.solos,
            )
            % {"count": grid.solos},
        ),
    ]
    for bottom, text in section_names:
        draw(canvas, _MARGIN + 1.5 * mm, bottom + 1.2 * mm, text, BOLD, 7)
    draw(
        canvas,
        grid.edges[_PLUS + 1] - 1.5 * mm,
        grid.bottom + grid.row / 2 - 1.2 * mm,
        _("Total"),
        BOLD,
        9,
        align="right",
    )


def _number_hands(canvas: Canvas, grid: _Grid) -> None:
    """Print the hand numbers of the main section, as on a blank sheet."""
    canvas.setFillColor(_GREY)
    canvas.setFont(REGULAR, 7)
    x = grid.edges[1] - 1.2 * mm
    for index in range(grid.main):
        y = grid.line_top(Section.MAIN, index) - grid.row / 2 - 1.2 * mm
        canvas.drawRightString(x, y, str(index + 1))


def _header_label(canvas: Canvas, text: str, x0: float, x1: float) -> None:
    """A column's name, centred, in up to two lines broken between words, smaller if need be;
    never cut ("Kürzel (Schiedsric…") nor split inside a word."""
    width = x1 - x0 - 1 * mm
    lines, size = wrap(text, BOLD, 6.5, width, lines=2, smallest=5.5)
    middle = _GRID_TOP - _HEADER / 2 + (len(lines) - 1) * 1.3 * mm - 1 * mm
    for number, line in enumerate(lines):
        draw(canvas, (x0 + x1) / 2, middle - number * 2.6 * mm, line, BOLD, size, align="centre")


def _seat_name(canvas: Canvas, name: str, x0: float, x1: float) -> None:
    """A player's name above his seat's column, beneath the seat: on one line, a little smaller
    if need be, else on two lines broken between words ("von Bödefeld, / Marie-Luise"), never
    cut."""
    width = x1 - x0 - 1.5 * mm
    middle = (x0 + x1) / 2
    bottom = _GRID_TOP - _HEADER
    if stringWidth(name, REGULAR, 5.5) <= width:
        draw(canvas, middle, bottom + 1.6 * mm, name, REGULAR, 6.5, align="centre", width=width)
        return
    lines, size = wrap(name, REGULAR, 6, width, lines=2, smallest=4.5)
    for number, line in enumerate(lines):
        y = bottom + (1 + 2 * (len(lines) - 1 - number)) * mm
        draw(canvas, middle, y, line, REGULAR, size, align="centre")


# What every page of a table size shares ----------------------------------------------------


def _draw_frame(
    canvas: Canvas,
    *,
    tournament: Tournament,
    round_number: int,
    grid: _Grid,
    title: str,
    blank: bool,
) -> None:
    """Everything on the page that is not the table's own: the tournament and round, the labels
    of the players' block, the note on seating (TSR 8.4.1, 10.1), the grid, the field for extra
    time and the end of the playing time (TSR 8.5.1), and the signature lines."""
    _draw_heading(canvas, tournament=tournament, round_number=round_number, title=title)
    _draw_seat_labels(canvas, grid)
    _draw_grid(canvas, grid, numbered=blank)
    _draw_signature_boxes(canvas, grid)
    _draw_time_box(canvas)
    _draw_signature_lines(canvas)


def _draw_heading(canvas: Canvas, *, tournament: Tournament, round_number: int, title: str) -> None:
    """Write the tournament, its title, dates and venue, and the round."""
    canvas.setFillColor(_BLACK)
    draw(canvas, _MARGIN, _TOP - 4.5 * mm, tournament.name, BOLD, 13, width=138 * mm)
    where = " · ".join(
        part for part in [title, tournament_dates(tournament), tournament.venue] if part
    )
    canvas.setFillColor(_GREY)
    draw(canvas, _MARGIN, _TOP - 9.5 * mm, where, REGULAR, 8.5, width=138 * mm)
    canvas.setFillColor(_BLACK)
    draw(
        canvas,
        _MARGIN,
        _TOP - 17 * mm,
        _("Round %(number)s") % {"number": round_number},
        BOLD,
        14,
    )


def _draw_seat_labels(canvas: Canvas, grid: _Grid) -> None:
    """Label the players' block, and note above the grid who deals first and who keeps the
    sheet (TSR 8.4.1, 10.1)."""
    canvas.setFillColor(_GREY)
    for x, label in [
        (_MARGIN + 6 * mm, _("Seat")),
        (_MARGIN + 20 * mm, _("No.")),
    ]:
        draw(canvas, x, _SEATS_TOP, label, REGULAR, 6.5, align="centre")
    draw(canvas, _MARGIN + 27 * mm, _SEATS_TOP, _("Name"), REGULAR, 6.5)
    keeper = scorekeeper(grid.size)
    if grid.size == TABLE_OF_FIVE:
        note = _(
            "Seat 1 deals first, seat 5 keeps the sheet; the dealer sits out each hand "
            "(TSR 8.4.1, 10.1)."
        )
    elif grid.size in LARGE_TABLES:
        note = ngettext(
            "Seat 1 deals first, seat %(keeper)d keeps the sheet; the dealer and the player to "
            "his left sit out each hand (TSR 8.4.1, 10).",
            "Seat 1 deals first, seat %(keeper)d keeps the sheet; the dealer and the %(count)d "
            "players to his left sit out each hand (TSR 8.4.1, 10).",
            grid.size - 5,
        ) % {"keeper": keeper, "count": grid.size - 5}
    else:
        note = _("Seat 1 deals first, seat %(keeper)d keeps the sheet (TSR 8.4.1).") % {
            "keeper": keeper
        }
    canvas.setFillColor(_BLACK)
    draw(canvas, _MARGIN, _GRID_TOP + 2 * mm, note, OBLIQUE, 8, width=_WIDTH)


def _draw_signature_boxes(canvas: Canvas, grid: _Grid) -> None:
    """Beneath the totals, a box under each seat's column for its player's signature: every
    player signs the totals of the round, which confirms the paper sheet (TSR 7.3.4, 8.5.2)."""
    top, bottom = grid.bottom, grid.bottom - _SIGNATURES
    canvas.saveState()
    canvas.setStrokeColor(_BLACK)
    canvas.setLineWidth(0.9)
    for position in range(1, grid.size + 1):
        left, right = grid.seat_column(position)
        canvas.rect(left, bottom, right - left, top - bottom, stroke=1, fill=0)
        canvas.setFillColor(_GREY)
        draw(
            canvas,
            left + 1 * mm,
            bottom + 1 * mm,
            _("Signature, seat %(seat)d") % {"seat": position},
            REGULAR,
            5,
            width=right - left - 2 * mm,
        )
    canvas.setFillColor(_BLACK)
    label_right = grid.edges[_PLUS + 1] - 1.5 * mm
    lines, size = wrap(
        _("Each player signs his total (TSR 7.3.4, 8.5.2)"),
        BOLD,
        7,
        label_right - _MARGIN - 2 * mm,
        lines=2,
        smallest=5.5,
    )
    middle = (top + bottom) / 2 + (len(lines) - 1) * 1.3 * mm - 1.2 * mm
    for number, line in enumerate(lines):
        draw(canvas, label_right, middle - number * 2.8 * mm, line, BOLD, size, align="right")
    canvas.restoreState()


def _draw_time_box(canvas: Canvas) -> None:
    """Draw the field for extra time and the end of the playing time, noted by the adjudicator
    (TSR 8.5.1)."""
    box_top, box_bottom = _GRID_BOTTOM - 3 * mm, _MARGIN + 12 * mm
    canvas.setStrokeColor(_GREY)
    canvas.setLineWidth(0.6)
    canvas.rect(_MARGIN, box_bottom, _WIDTH, box_top - box_bottom, stroke=1, fill=0)
    canvas.setFillColor(_GREY)
    draw(
        canvas,
        _MARGIN + 1.5 * mm,
        box_top - 3 * mm,
        _(
            "Extra time and end of the playing time (TSR 8.5.1), noted and initialled by the "
            "adjudicator:"
        ),
        REGULAR,
        6.5,
        width=_WIDTH - 3 * mm,
    )


def _draw_signature_lines(canvas: Canvas) -> None:
    """Draw the lines for who handed the sheet in and who confirmed it (TSR 7.3.4, 8.5.2)."""
    half = (_WIDTH - 10 * mm) / 2
    canvas.setStrokeColor(_BLACK)
    canvas.setLineWidth(0.5)
    for index, label in enumerate(
        [
            _("Submitted by (scorekeeper, TSR 7.3.4)"),
            _("Confirmed by (another player of the table, TSR 8.5.2)"),
        ]
    ):
        x = _MARGIN + index * (half + 10 * mm)
        canvas.line(x, _MARGIN + 4 * mm, x + half, _MARGIN + 4 * mm)
        draw(canvas, x, _MARGIN + 1 * mm, label, REGULAR, 6.5, width=half)


class _Forms:
    """The forms of one document, one per table size, drawn when first needed."""

    def __init__(self, canvas: Canvas, draw: Callable[[int], None]) -> None:
        self.canvas = canvas
        self.draw = draw
        self.names: dict[int, str] = {}

    def place(self, size: int) -> None:
        if size not in self.names:
            name = f"sheet{size}"
            self.canvas.beginForm(name)
            self.draw(size)
            self.canvas.endForm()
            self.names[size] = name
        self.canvas.doForm(self.names[size])


# The table's own text ----------------------------------------------------------------------


def _draw_table(
    canvas: Canvas,
    *,
    grid: _Grid,
    table_number: int,
    seats: Sequence[SeatRow | Seat],
    footer: str,
    keeper: int | None = None,
) -> None:
    """The table's number, its players by seat and their names above their columns;
    ``keeper``: the seat that keeps the sheet, if it was handed over (TSR 3.1.1)."""
    canvas.setFillColor(_BLACK)
    round_width = 36 * mm
    draw(
        canvas,
        _MARGIN + round_width,
        _TOP - 17 * mm,
        _("Table %(number)s") % {"number": table_number},
        BOLD,
        20,
    )
    keeper = keeper or scorekeeper(grid.size)
    if grid.size != TABLE_OF_FOUR:
        mark = {
            TABLE_OF_FIVE: _("Table of five"),
            TABLE_OF_SIX: _("Table of six"),
            TABLE_OF_SEVEN: _("Table of seven"),
        }[grid.size]
        canvas.saveState()
        canvas.setFillColor(_FIVE)
        canvas.rect(_MARGIN + 88 * mm, _TOP - 18.5 * mm, 35 * mm, 6 * mm, stroke=0, fill=1)
        canvas.restoreState()
        draw(canvas, _MARGIN + 90 * mm, _TOP - 17 * mm, mark, BOLD, 10)
    for index, seat in enumerate(seats):
        y = _SEATS_TOP - (index + 1) * _SEAT_LINE
        player = seat.entry  # the name the tournament registered
        canvas.setFillColor(_BLACK)
        draw(canvas, _MARGIN + 6 * mm, y, str(seat.position), BOLD, 10, align="centre")
        draw(
            canvas,
            _MARGIN + 20 * mm,
            y,
            str(seat.entry.start_number),
            REGULAR,
            9.5,
            align="centre",
        )
        draw(canvas, _MARGIN + 27 * mm, y, player.name, REGULAR, 9.5, width=70 * mm)
        role = ""
        if seat.position == 1:
            role = _("deals first")
        elif seat.position == keeper:
            role = _("keeps the sheet")
        if role:
            canvas.setFillColor(_GREY)
            draw(canvas, _MARGIN + 99 * mm, y, role, OBLIQUE, 8, width=24 * mm)
        canvas.setFillColor(_BLACK)
        _seat_name(canvas, player.sort_name, *grid.seat_column(seat.position))
    canvas.setFillColor(_GREY)
    draw(canvas, _MARGIN, _FOOTER, footer, REGULAR, 7, width=_WIDTH - 25 * mm)
    draw(
        canvas,
        _MARGIN + _WIDTH,
        _FOOTER,
        _("Table %(number)s") % {"number": table_number},
        BOLD,
        8,
        align="right",
    )


# QR codes -----------------------------------------------------------------------------------


def _draw_link(canvas: Canvas, url: str, position: int) -> None:
    """The scorekeeper's private link at the top right: its QR code, and the address beneath
    it for typing in, in two lines if it is long."""
    right = _MARGIN + _WIDTH
    draw_qr(canvas, url, right - _QR_SIZE, _TOP - _QR_SIZE, _QR_SIZE)
    canvas.setFillColor(_BLACK)
    draw(
        canvas,
        right - _QR_SIZE / 2,
        _TOP - _QR_SIZE - 1.5 * mm,
        _("Scorekeeper's link (seat %(seat)d)") % {"seat": position},
        BOLD,
        6.5,
        align="centre",
        width=_QR_SIZE + 10 * mm,
    )
    canvas.setFillColor(_GREY)
    for index, line in enumerate(link_lines(url, REGULAR, 6, 60 * mm)):
        y = _TOP - _QR_SIZE - (4.5 + 2.6 * index) * mm
        draw(canvas, right, y, line, REGULAR, 6, align="right", width=60 * mm)


def _draw_link_withheld(canvas: Canvas, position: int) -> None:
    """Where the scorekeeper's link is left out (whoever printed it plays at this table, TSR
    7.3.2): where the table gets it instead."""
    canvas.setFillColor(_GREY)
    draw(
        canvas,
        _MARGIN + _WIDTH,
        _TOP - 4 * mm,
        _(
            "Scorekeeper's link (seat %(seat)d): not printed here; from the desk, or from the "
            "player's personal link"
        )
        % {"seat": position},
        REGULAR,
        6.5,
        align="right",
        width=80 * mm,
    )


# The documents ------------------------------------------------------------------------------


def blank_scoresheets_pdf(
    *,
    tournament: Tournament,
    round_number: int,
    tables: list[TableRow],
    url_for_seat: Callable[[SeatRow], str | None] | None = None,
    warning: str = "",
    progress: Progress,
) -> bytes:
    """A blank scoresheet for each table of a round, one A4 page each (a table of five too):
    the table's players by seat, who deals first and who keeps the sheet (TSR 8.4.1, 10.1.4),
    the grid of the main section and of the compulsory solos (TSR 4.2.4, 7.3), the field for
    extra time (TSR 8.5.1), the signatures, and a QR code of ``url_for_seat(keeper)``, the
    scorekeeper's private link; ``warning`` above the footer of every page."""
    steps = Steps(progress)
    title = _("Scoresheet")
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, title=title, tournament=tournament)
    grids = {
        size: _Grid.of(size=size, main=_main_lines(tournament, size), solos=size)
        for size in TABLE_SIZES
    }

    def frame(size: int) -> None:
        _draw_frame(
            canvas,
            tournament=tournament,
            round_number=round_number,
            grid=grids[size],
            title=title,
            blank=True,
        )

    forms = _Forms(canvas, frame)
    footer = f"{title} · {_('Round %(number)s') % {'number': round_number}} · {tournament.name}"
    if not tables:
        canvas.setFont(REGULAR, 11)
        canvas.drawString(_MARGIN, _TOP - 10 * mm, tournament.name)
        canvas.drawString(
            _MARGIN, _TOP - 20 * mm, _("The seating of this round has not been drawn yet.")
        )
        canvas.showPage()
    for index, row in enumerate(tables, start=1):
        size = len(row.seats)
        grid = grids[size]
        forms.place(size)
        # The sheet may have been handed over before it is printed again (TSR 3.1.1).
        position = sheet_keeper(keeper_seat=row.keeper_seat, table_size=size)
        _draw_table(
            canvas,
            grid=grid,
            table_number=row.table.number,
            seats=row.seats,
            footer=footer,
            keeper=position,
        )
        keeper = next((seat for seat in row.seats if seat.position == position), None)
        if url_for_seat is not None and keeper is not None:
            if url := url_for_seat(keeper):
                _draw_link(canvas, url, keeper.position)
            else:
                _draw_link_withheld(canvas, keeper.position)
        if warning:
            # Between the footer and the signature lines' labels.
            canvas.setFillColor(_WARNING)
            draw(canvas, _MARGIN, _FOOTER + 3.5 * mm, warning, BOLD, 7, width=_WIDTH)
        canvas.showPage()
        steps(95 * index // len(tables))
    canvas.save()
    steps(100)
    return buffer.getvalue()


def _signed(points: int) -> str:
    return f"{points:+d}" if points else "0"


def _who(scoresheet: Scoresheet, seats: Sequence[Seat], which: str) -> str:
    """Who submitted or confirmed the sheet: an account's name, or "name (seat N)"."""
    seat_id = getattr(scoresheet, f"{which}_by_seat_id")
    if seat_id is not None:
        seat = next((seat for seat in seats if seat.pk == seat_id), None)
        return Actor(seat=seat or getattr(scoresheet, f"{which}_by_seat")).name
    user = getattr(scoresheet, f"{which}_by")
    return Actor(user=user).name if user is not None else ""


def _when(moment) -> str:
    return formats.date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


def _draw_hand(
    canvas: Canvas, grid: _Grid, top: float, row: HandRow, decisions: Sequence[Decision] = ()
) -> None:
    """One hand in its line: number, dealer, contract and soloist, value, the seats that scored
    plus (TSR 7.3.3), and each seat's points with the running total; at a table of five the
    dealer, who sits out (TSR 10.1.1), shows "–". A line with penalty points shows them beneath
    each seat's points, marked "P", and the initials of who initialled them, and when
    (``decisions``, TSR 8.2.2); a hand stopped by a major breach is marked not played
    (TSR 9.4.3)."""
    hand = row.hand
    line = _Line(baseline=top - grid.row / 2 - 1.1 * mm, upper=top - 2.4 * mm, lower=top - 4.4 * mm)
    if row.penalty or hand.not_played:
        canvas.saveState()
        canvas.setFillColor(_PENALTY)
        canvas.rect(grid.edges[1], top - grid.row, grid.edges[-1] - grid.edges[1], grid.row, 0, 1)
        canvas.restoreState()
    canvas.setFillColor(_BLACK)
    draw(
        canvas,
        grid.edges[1] - 1.2 * mm,
        line.baseline,
        str(hand.number),
        REGULAR,
        7.5,
        align="right",
    )
    dealer = grid.column(_DEALER)
    draw(canvas, sum(dealer) / 2, line.baseline, str(hand.dealer), REGULAR, 7.5, align="centre")
    _draw_contract(canvas, grid, line, hand)
    draw(
        canvas,
        grid.edges[_VALUE + 1] - 1.2 * mm,
        line.baseline,
        str(hand.game_value),
        REGULAR,
        7.5,
        align="right",
    )
    plus = " ".join(str(seat) for seat, points in sorted(hand.points.items()) if points > 0)
    draw(canvas, sum(grid.column(_PLUS)) / 2, line.baseline, plus, REGULAR, 7.5, align="centre")
    _draw_seat_points(canvas, grid, line, row)
    if decisions:
        _draw_initials(canvas, grid, line, decisions)


@dataclass(frozen=True)
class _Line:
    """The heights of the text in a hand's line: one line of it, or a cell's two lines."""

    baseline: float
    upper: float
    lower: float


def _draw_contract(canvas: Canvas, grid: _Grid, line: _Line, hand: Hand) -> None:
    """Write the contract, its solo type and the soloist; a hand not played keeps the contract
    as it stood, marked beneath it (TSR 9.4.3, 9.1.3)."""
    left, right = grid.column(_CONTRACT)
    width = right - left - 2 * mm
    label, detail = "", []
    if hand.contract != Contract.NORMAL:
        label = str(CONTRACT_LABELS[Contract(hand.contract)])
        if hand.solo_type:
            detail.append(str(SOLO_TYPE_LABELS[SoloType(hand.solo_type)]))
        if hand.soloist:
            detail.append(_("seat %(seat)d") % {"seat": hand.soloist})
    if hand.not_played:
        # The contract as it stood, and the mark beneath it (TSR 9.4.3).
        above = ", ".join([label, *detail]) if label else ""
        if above:
            draw(canvas, left + 1 * mm, line.upper, above, REGULAR, 5.5, width=width)
        canvas.setFillColor(_RED)
        draw(
            canvas,
            left + 1 * mm,
            line.lower if above else line.baseline,
            _("dealt again (TSR 9.1.3)") if hand.replay else _("not played (TSR 9.4.3)"),
            BOLD,
            6,
            width=width,
        )
        canvas.setFillColor(_BLACK)
    elif detail:
        draw(canvas, left + 1 * mm, line.upper, label, REGULAR, 6.5, width=width)
        canvas.setFillColor(_GREY)
        draw(canvas, left + 1 * mm, line.lower, ", ".join(detail), REGULAR, 5.5, width=width)
        canvas.setFillColor(_BLACK)
    elif label:
        draw(canvas, left + 1 * mm, line.baseline, label, REGULAR, 6.5, width=width)


def _draw_seat_points(canvas: Canvas, grid: _Grid, line: _Line, row: HandRow) -> None:
    """Write each seat's points ("–" for the dealer who sits out, TSR 10.1.1), its penalty
    points beneath them marked "P" (TSR 8.2.2), and its running total."""
    penalty = row.penalty or [0] * grid.size
    for position, (points, total) in enumerate(row.cells, start=1):
        left, right = grid.seat_column(position)
        punished = penalty[position - 1]
        canvas.setFillColor(_GREY if points is None or points >= 0 else _RED)
        draw(
            canvas,
            left + 1 * mm,
            line.upper if punished else line.baseline,
            "–" if points is None else _signed(points),
            REGULAR,
            6.5,
        )
        if punished:
            canvas.setFillColor(_BLACK if punished > 0 else _RED)
            draw(
                canvas,
                left + 1 * mm,
                line.lower - 0.3 * mm,
                # Translators: "P" marks penalty points on the printed scoresheet.
                _("P %(points)s") % {"points": _signed(punished)},
                BOLD,
                6,
            )
        canvas.setFillColor(_BLACK if total >= 0 else _RED)
        draw(canvas, right - 1.2 * mm, line.baseline, str(total), BOLD, 8.5, align="right")


def _draw_initials(canvas: Canvas, grid: _Grid, line: _Line, decisions: Sequence[Decision]) -> None:
    """Write who initialled the penalty points of this line, and when (TSR 8.2.2)."""
    left, right = grid.initials
    signed_by = list(dict.fromkeys(initials(decision.initialled_by) for decision in decisions))
    times = sorted({_time(decision.initialled_at) for decision in decisions})
    canvas.setFillColor(_BLACK)
    middle, width = (left + right) / 2, right - left - 1 * mm
    draw(
        canvas,
        middle,
        line.upper,
        ", ".join(signed_by),
        BOLD,
        6.5,
        align="centre",
        width=width,
    )
    canvas.setFillColor(_GREY)
    draw(canvas, middle, line.lower, ", ".join(times), REGULAR, 5.5, align="centre", width=width)


def _time(moment) -> str:
    return formats.date_format(timezone.localtime(moment), "H:i")


def _draw_notes(canvas: Canvas, notes: Sequence[str], x: float, width: float) -> None:
    """Lines of text in the field beneath the grid, under its label; more than it holds share
    its last line."""
    notes = list(notes) or ["–"]
    if len(notes) > _NOTE_LINES:
        notes[_NOTE_LINES - 1 :] = [" · ".join(notes[_NOTE_LINES - 1 :])]
    box_top = _GRID_BOTTOM - 3 * mm
    canvas.setFillColor(_BLACK)
    for index, note in enumerate(notes):
        draw(canvas, x, box_top - (6 + 2.9 * index) * mm, note, REGULAR, 7, width=width)


def _adjudication_notes(
    adjudication: SheetAdjudication, totals: Sequence[int], *, penalties: bool
) -> list[str]:
    """Beneath the grid: what "P" means, the points deducted for unsporting conduct by seat,
    and the totals with them (TSR 9.6.2 b); as many lines as the field holds."""
    notes = []
    if penalties:
        notes.append(_("P: penalty points of the initialled decisions (TSR 8.2.2, 9.3-9.5)"))
    deductions = sorted(
        (seat, points) for seat, points in adjudication.deductions.items() if points
    )
    if deductions:
        if len(notes) + len(deductions) + 1 <= _NOTE_LINES:
            notes.extend(
                ngettext(
                    "Seat %(seat)d: %(points)s point deducted (TSR 9.6.2 b)",
                    "Seat %(seat)d: %(points)s points deducted (TSR 9.6.2 b)",
                    abs(points),
                )
                % {"seat": seat, "points": _signed(points)}
                for seat, points in deductions
            )
        else:
            notes.append(
                _("Deducted for unsporting conduct (TSR 9.6.2 b): %(seats)s")
                % {
                    "seats": " · ".join(
                        _("seat %(seat)d: %(total)d") % {"seat": seat, "total": points}
                        for seat, points in deductions
                    )
                }
            )
        notes.append(
            _("Final totals with the deductions: %(totals)s")
            % {
                "totals": " · ".join(
                    _("seat %(seat)d: %(total)d") % {"seat": seat, "total": total}
                    for seat, total in enumerate(totals, start=1)
                )
            }
        )
    return notes


def scoresheet_pdf(
    *,
    scoresheet: Scoresheet,
    seats: Sequence[Seat],
    rows: list[HandRow],
    adjudication: SheetAdjudication = NONE,
    extra_times: Sequence[ExtraTime] = (),
    progress: Progress,
) -> bytes:
    """The completed scoresheet of one table, for the archive: the blank sheet's layout filled
    in with the hands in the order played (compulsory solos in their section, TSR 4.2.4), each
    with its dealer, contract, soloist, game value, the seats that scored plus and every
    seat's points and running total (TSR 7.3); the penalty points of the initialled decisions
    with the initials of who initialled them (TSR 8.2.2), the hands stopped and counted as not
    played (TSR 9.4.3), and the points deducted for unsporting conduct, which the totals
    include (TSR 9.6.2 b); the extra time granted and the end of the playing time (TSR 8.5.1,
    8.5.3); the status, and who handed the sheet in and who confirmed it, and when (TSR 7.3.4,
    8.5.2).

    ``seats`` are the table's seats in order with their players, ``adjudication`` what the
    adjudicators decided on the sheet (``adjudication.selectors.sheet_adjudication``, read
    once), ``rows`` the hands with running totals that include its penalty points
    (``scoring.selectors.scoresheet_rows(..., penalties=adjudication.penalties)``).
    """
    steps = Steps(progress)
    table = scoresheet.table
    round_ = table.round
    tournament = round_.tournament
    size = len(seats)
    solos = [row for row in rows if row.hand.section == Section.COMPULSORY_SOLO]
    main = [row for row in rows if row.hand.section != Section.COMPULSORY_SOLO]
    grid = _Grid.of(
        size=size,
        main=max(_main_lines(tournament, size), len(main)),
        solos=max(size, len(solos)),
    )
    title = _("Completed scoresheet")
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, title=title, tournament=tournament)
    _draw_frame(
        canvas,
        tournament=tournament,
        round_number=round_.number,
        grid=grid,
        title=title,
        blank=False,
    )
    footer = f"{title} · {_('Round %(number)s') % {'number': round_.number}} · {tournament.name}"
    keeper = scoresheet.keeper(size)
    _draw_table(
        canvas, grid=grid, table_number=table.number, seats=seats, footer=footer, keeper=keeper
    )
    steps(30)

    _draw_status(canvas, scoresheet)
    _draw_hands(canvas, grid, main=main, solos=solos, adjudication=adjudication)
    totals = _final_totals(rows, adjudication, size)
    _draw_totals(canvas, grid, totals, adjudication.deductions)
    steps(70)

    _draw_time_over(canvas, grid, scoresheet, main)
    notes = _sheet_notes(scoresheet, keeper=keeper, extra_times=extra_times)
    # Beside them, if the adjudicators decided anything that shows: what "P" means, and the
    # deductions with the totals they make (TSR 8.2.2, 9.6.2 b).
    penalties = any(points for row in rows for points in row.penalty or ())
    decided = _adjudication_notes(adjudication, totals, penalties=penalties)
    if decided:
        half = (_WIDTH - 6 * mm) / 2
        _draw_notes(canvas, notes, _MARGIN + 2 * mm, half)
        _draw_notes(canvas, decided, _MARGIN + 4 * mm + half, half)
    else:
        _draw_notes(canvas, notes, _MARGIN + 2 * mm, _WIDTH - 4 * mm)
    _draw_signers(canvas, scoresheet, seats)
    canvas.showPage()
    canvas.save()
    steps(100)
    return buffer.getvalue()


def _draw_status(canvas: Canvas, scoresheet: Scoresheet) -> None:
    """Write the sheet's status, and when it was confirmed, where the blank sheet has its QR
    code."""
    right = _MARGIN + _WIDTH
    canvas.setFillColor(_BLACK)
    draw(
        canvas,
        right,
        _TOP - 5 * mm,
        _("Status: %(status)s") % {"status": scoresheet.get_status_display()},
        BOLD,
        11,
        align="right",
    )
    if scoresheet.confirmed_at:
        canvas.setFillColor(_GREY)
        draw(
            canvas,
            right,
            _TOP - 9.5 * mm,
            _when(scoresheet.confirmed_at),
            REGULAR,
            8.5,
            align="right",
        )


def _draw_hands(
    canvas: Canvas,
    grid: _Grid,
    *,
    main: Sequence[HandRow],
    solos: Sequence[HandRow],
    adjudication: SheetAdjudication,
) -> None:
    """Fill in the hands in the order played, each in its section (TSR 4.2.4), with the
    initials of the decisions that gave its penalty points (TSR 8.2.2)."""
    initialled: dict[int, list[Decision]] = {}
    for decision in adjudication.counting:
        initialled.setdefault(decision.hand_number, []).append(decision)
    for section, hand_rows in ((Section.MAIN, main), (Section.COMPULSORY_SOLO, solos)):
        for index, row in enumerate(hand_rows):
            top = grid.line_top(section, index)
            _draw_hand(canvas, grid, top, row, initialled.get(row.hand.number, ()))


def _final_totals(rows: Sequence[HandRow], adjudication: SheetAdjudication, size: int) -> list[int]:
    """The totals per seat: the last running total, less the points deducted for unsporting
    conduct, which stand outside every checksum (TSR 9.6.2 b)."""
    deductions = adjudication.deductions
    return [
        total + deductions.get(position, 0)
        for position, total in enumerate(rows[-1].totals if rows else [0] * size, start=1)
    ]


def _draw_totals(
    canvas: Canvas, grid: _Grid, totals: Sequence[int], deductions: Mapping[int, int]
) -> None:
    """Write the totals in their line, each with the points deducted from it (TSR 9.6.2 b)."""
    baseline = grid.bottom + grid.row / 2 - 1.3 * mm
    for position, total in enumerate(totals, start=1):
        left_edge, right_edge = grid.seat_column(position)
        if deductions.get(position):
            canvas.setFillColor(_RED)
            room = right_edge - left_edge - stringWidth(str(total), BOLD, 10) - 3 * mm
            draw(
                canvas,
                left_edge + 1 * mm,
                baseline,
                _("%(points)s deducted") % {"points": _signed(deductions[position])},
                REGULAR,
                5.5,
                width=room,
            )
        canvas.setFillColor(_BLACK if total >= 0 else _RED)
        draw(canvas, right_edge - 1.2 * mm, baseline, str(total), BOLD, 10, align="right")


def _draw_time_over(
    canvas: Canvas, grid: _Grid, scoresheet: Scoresheet, main: Sequence[HandRow]
) -> None:
    """Rule the end of the playing time (TSR 8.5.3): a line under the last hand begun
    before it."""
    over = scoresheet.time_over_after_hand
    if over is None:
        return
    before = [index for index, row in enumerate(main) if row.hand.number <= over]
    if before:
        y = grid.line_top(Section.MAIN, before[-1]) - grid.row
        canvas.saveState()
        canvas.setStrokeColor(_RED)
        canvas.setLineWidth(1.5)
        canvas.setDash(4, 2)
        canvas.line(_MARGIN, y, _MARGIN + _WIDTH, y)
        canvas.restoreState()


def _sheet_notes(
    scoresheet: Scoresheet, *, keeper: int, extra_times: Sequence[ExtraTime]
) -> list[str]:
    """The notes beneath the grid: who kept the sheet by agreement (TSR 3.1.1), the end of the
    playing time (TSR 8.5.3), an early end, and the extra time granted (TSR 8.5.1)."""
    notes = []
    if scoresheet.keeper_seat is not None:
        notes.append(
            _("Seat %(seat)d kept the sheet, by agreement at the table (TSR 3.1.1).")
            % {"seat": keeper}
        )
    over = scoresheet.time_over_after_hand
    if over is not None:
        notes.append(_("The playing time ended after hand %(hand)d (TSR 8.5.3).") % {"hand": over})
    if scoresheet.ended_early:
        # A table that could not finish: the recorded decision that ended its sheet.
        notes.append(
            ngettext(
                "Ended early, %(count)d hand not played, compulsory solos owed waived: "
                "%(reason)s (%(by)s, %(when)s)",
                "Ended early, %(count)d hands not played, compulsory solos owed waived: "
                "%(reason)s (%(by)s, %(when)s)",
                scoresheet.ended_early_hands_not_played or 0,
            )
            % {
                "count": scoresheet.ended_early_hands_not_played or 0,
                "reason": scoresheet.ended_early_reason,
                "by": scoresheet.ended_early_by,
                "when": _when(scoresheet.ended_early_at),
            }
        )
    for grant in extra_times:
        notes.append(
            ngettext(
                "%(minutes)d minute extra time: %(reason)s (%(by)s, %(when)s)",
                "%(minutes)d minutes extra time: %(reason)s (%(by)s, %(when)s)",
                grant.minutes,
            )
            % {
                "minutes": grant.minutes,
                "reason": grant.reason,
                "by": Actor(user=grant.granted_by).name,
                "when": _when(grant.granted_at),
            }
        )
    return notes


def _draw_signers(canvas: Canvas, scoresheet: Scoresheet, seats: Sequence[Seat]) -> None:
    """Write who handed the sheet in and who confirmed it, and when, above the signature
    lines (TSR 7.3.4, 8.5.2)."""
    half = (_WIDTH - 10 * mm) / 2
    for index, (which, moment) in enumerate(
        [("submitted", scoresheet.submitted_at), ("confirmed", scoresheet.confirmed_at)]
    ):
        who = _who(scoresheet, seats, which)
        if who:
            text = f"{who} · {_when(moment)}" if moment else who
            draw(
                canvas,
                _MARGIN + index * (half + 10 * mm),
                _MARGIN + 5.2 * mm,
                text,
                BOLD,
                8.5,
                width=half,
            )
