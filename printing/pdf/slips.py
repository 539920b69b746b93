"""Seat slips: a small card for every player of a round, eight to an A4 page, to hand out at the
door. Each says where the player sits (table and seat), who deals first and who keeps the
scoresheet at that table (TSR 3.3.1, 8.4.1, 10.1), and carries the QR code of the player's own
private link to the table's scoresheet, so that every player, not only the scorekeeper, can
follow and confirm the sheet on his phone (TSR 8.5.2).

The cards are in the order of the players' names, so that they can be handed out from a pile
as the players arrive; the dashed lines are where to cut.
"""

import io
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from doko.rules.deal import FIRST_DEALER, sheet_keeper
from printing.pdf.drawing import Steps, draw, draw_qr, link_lines, new_canvas, wrap
from printing.pdf.fonts import BOLD, REGULAR
from printing.pdf.lists import Progress, by_name
from tournaments.models import Tournament
from tournaments.selectors import SeatRow, TableRow

PAGE_WIDTH, PAGE_HEIGHT = A4
COLUMNS, ROWS = 2, 4
PER_PAGE = COLUMNS * ROWS
_MARGIN = 8 * mm
_CARD_WIDTH = (PAGE_WIDTH - 2 * _MARGIN) / COLUMNS
_CARD_HEIGHT = (PAGE_HEIGHT - 2 * _MARGIN) / ROWS
_PADDING = 5 * mm
_INNER = _CARD_WIDTH - 2 * _PADDING
_QR_SIZE = 30 * mm
_QR_TOP = 11.5 * mm  # below the card's top edge
_TEXT = _INNER - _QR_SIZE - 4 * mm  # the column left of the QR code

_GREY = colors.HexColor("#555555")
_FIVE = colors.HexColor("#ffd966")  # the mark of a table of five, as on the table cards
_WARNING = colors.HexColor("#b02a37")  # the links warning, as on the table cards


@dataclass(frozen=True)
class Slip:
    """One player's card: his seat, and who deals first and keeps the sheet at his table."""

    seat: SeatRow
    table_number: int
    table_size: int
    dealer: SeatRow
    keeper: SeatRow


def slips_of(tables: list[TableRow]) -> list[Slip]:
    """A slip for every seated player, in the order of their names."""
    slips = []
    for row in tables:
        by_position = {seat.position: seat for seat in row.seats}
        size = len(row.seats)
        # The sheet may have been handed over before the slips are printed (TSR 3.1.1).
        keeper = by_position[sheet_keeper(keeper_seat=row.keeper_seat, table_size=size)]
        slips += [
            Slip(
                seat=seat,
                table_number=row.table.number,
                table_size=size,
                dealer=by_position[FIRST_DEALER],
                keeper=keeper,
            )
            for seat in row.seats
        ]
    return sorted(slips, key=lambda slip: by_name(slip.seat))


def _draw_cut_lines(canvas: Canvas) -> None:
    """Dashed lines around and between the cards."""
    canvas.saveState()
    canvas.setStrokeColor(colors.grey)
    canvas.setLineWidth(0.5)
    canvas.setDash(4, 4)
    path = canvas.beginPath()
    for column in range(COLUMNS + 1):
        x = _MARGIN + column * _CARD_WIDTH
        path.moveTo(x, _MARGIN)
        path.lineTo(x, PAGE_HEIGHT - _MARGIN)
    for row in range(ROWS + 1):
        y = _MARGIN + row * _CARD_HEIGHT
        path.moveTo(_MARGIN, y)
        path.lineTo(PAGE_WIDTH - _MARGIN, y)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


def _draw_name(canvas: Canvas, name: str, x: float, top: float, width: float) -> None:
    """The player's name, last name first: large on one line, a little smaller if need be, or
    on two lines if it is long, broken between words; smaller still if it is longer still,
    never cut."""
    canvas.setFillColor(colors.black)
    size = min(14, 14 * width / stringWidth(name, BOLD, 14))
    if size >= 11:
        draw(canvas, x, top - 16 * mm, name, BOLD, size)
        return
    lines, size = wrap(name, BOLD, 11, width, lines=2, smallest=8)
    for index, line in enumerate(lines):
        draw(canvas, x, top - (14.5 + 4 * index) * mm, line, BOLD, size)


def _draw_slip(
    canvas: Canvas,
    slip: Slip,
    *,
    x: float,
    y: float,
    tournament: Tournament,
    round_title: str,
    url: str | None,
    personal_url: str | None = None,
) -> None:
    """One card, its lower left corner at (x, y)."""
    top = y + _CARD_HEIGHT
    left, right = x + _PADDING, x + _CARD_WIDTH - _PADDING
    seat = slip.seat
    canvas.setFillColor(colors.black)
    draw(canvas, right, top - 7 * mm, round_title, BOLD, 9, align="right")
    room = _INNER - stringWidth(round_title, BOLD, 9) - 3 * mm
    canvas.setFillColor(_GREY)
    draw(canvas, left, top - 7 * mm, tournament.name, BOLD, 9, width=room)

    text_width = _INNER if url is None else _TEXT
    _draw_name(canvas, seat.entry.sort_name, left, top, text_width)
    canvas.setFillColor(_GREY)
    draw(
        canvas,
        left,
        top - 23.5 * mm,
        _("Start number %(number)s") % {"number": seat.entry.start_number},
        REGULAR,
        9,
        width=text_width,
    )
    for offset, label, value in [
        (0, _("Table"), slip.table_number),
        (27 * mm, _("Seat"), seat.position),
    ]:
        canvas.setFillColor(_GREY)
        draw(canvas, left + offset, top - 28.5 * mm, label, REGULAR, 7.5, width=25 * mm)
        canvas.setFillColor(colors.black)
        draw(canvas, left + offset, top - 38.5 * mm, str(value), BOLD, 28, width=26 * mm)

    if url is not None:
        qr_left = right - _QR_SIZE
        canvas.setFillColor(colors.black)
        draw(
            canvas,
            qr_left + _QR_SIZE / 2,
            top - _QR_TOP + 0.6 * mm,
            _("Your scoresheet link"),
            BOLD,
            6.5,
            align="centre",
            width=_QR_SIZE + 4 * mm,
        )
        draw_qr(canvas, url, qr_left, top - _QR_TOP - _QR_SIZE, _QR_SIZE)
        canvas.setFillColor(_GREY)
        for index, line in enumerate(link_lines(url, REGULAR, 6, _INNER)):
            line_y = top - _QR_TOP - _QR_SIZE - (2.6 + 2.5 * index) * mm
            draw(canvas, right, line_y, line, REGULAR, 6, align="right", width=_INNER)

    lines = [
        (
            _("Seat %(seat)d deals first: %(name)s")
            % {"seat": slip.dealer.position, "name": slip.dealer.entry.name},
            slip.dealer.position == seat.position,
        ),
        (
            _("Seat %(seat)d keeps the scoresheet: %(name)s")
            % {"seat": slip.keeper.position, "name": slip.keeper.entry.name},
            slip.keeper.position == seat.position,
        ),
    ]
    if slip.table_size == 5:
        lines.append((_("Table of five: the dealer sits out each hand (TSR 10.1.1)."), False))
    for index, (line, own) in enumerate(lines):
        line_y = top - (53 + 4.8 * index) * mm
        if index == 2:
            canvas.saveState()
            canvas.setFillColor(_FIVE)
            canvas.rect(left - 1 * mm, line_y - 1.3 * mm, _INNER + 2 * mm, 4.6 * mm, 0, 1)
            canvas.restoreState()
        canvas.setFillColor(colors.black)
        font = BOLD if own else REGULAR
        draw(canvas, left, line_y, line, font, 8.5, width=_INNER)
    if personal_url is not None:
        # The round's QR opens this round's sheet; this one link stays for the whole tournament.
        canvas.setFillColor(_GREY)
        draw(
            canvas,
            left,
            top - 67 * mm,
            _("Your page for the whole tournament: %(url)s") % {"url": personal_url},
            REGULAR,
            6.5,
            width=_INNER,
        )


def seat_slips_pdf(
    *,
    tournament: Tournament,
    round_number: int,
    tables: list[TableRow],
    url_for_seat: Callable[[SeatRow], str] | None = None,
    personal_url: Callable[[SeatRow], str] | None = None,
    warning: str = "",
    progress: Progress,
) -> bytes:
    """A slip for every player of the round, eight to an A4 page, in the order of their names:
    the tournament and round, the player's name and start number, his table and seat, who
    deals first and who keeps the scoresheet at his table (TSR 3.3.1, 8.4.1, 10.1), and the
    QR code of ``url_for_seat(seat)``, his private link to the scoresheet, with the address
    beneath it for typing in, and at the foot his personal link for the whole tournament
    (``personal_url(seat)``); ``warning`` beneath the cards of every page."""
    steps = Steps(progress)
    title = _("Seat slips")
    round_title = _("Round %(number)s") % {"number": round_number}
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, title=title, tournament=tournament)
    slips = slips_of(tables)
    if not slips:
        canvas.setFont(REGULAR, 11)
        canvas.drawString(_MARGIN, PAGE_HEIGHT - 20 * mm, tournament.name)
        canvas.drawString(
            _MARGIN, PAGE_HEIGHT - 30 * mm, _("The seating of this round has not been drawn yet.")
        )
        canvas.showPage()
    for index, slip in enumerate(slips):
        place = index % PER_PAGE
        if place == 0:
            if index:
                canvas.showPage()
            _draw_cut_lines(canvas)
            if warning:
                canvas.setFillColor(_WARNING)
                draw(
                    canvas,
                    PAGE_WIDTH / 2,
                    4.5 * mm,
                    warning,
                    BOLD,
                    7,
                    align="centre",
                    width=PAGE_WIDTH - 2 * _MARGIN,
                )
        column, row = place % COLUMNS, place // COLUMNS
        _draw_slip(
            canvas,
            slip,
            x=_MARGIN + column * _CARD_WIDTH,
            y=PAGE_HEIGHT - _MARGIN - (row + 1) * _CARD_HEIGHT,
            tournament=tournament,
            round_title=round_title,
            url=url_for_seat(slip.seat) if url_for_seat is not None else None,
            personal_url=personal_url(slip.seat) if personal_url is not None else None,
        )
        steps(95 * (index + 1) // len(slips))
    if slips:
        canvas.showPage()
    canvas.save()
    steps(100)
    return buffer.getvalue()
