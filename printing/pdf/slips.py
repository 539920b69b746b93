"""Seat slips: a small card for every player of a round, eight to an A4 page, to hand out at the
door. Each says where the player sits (table and seat), who deals first and who keeps the
scoresheet at that table (TSR 3.3.1, 8.4.1, 10.1), and carries the QR code of the player's own
private link to the table's scoresheet, so that every player, not only the scorekeeper, can
follow and confirm the sheet on his phone (TSR 8.5.2).

The slips are in the order of the players' names, so that they can be handed out from a pile
as the players arrive; the sheet of cards (``card_sheet``) shows where to cut.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from doko.rules.deal import (
    FIRST_DEALER,
    TABLE_OF_FIVE,
    TABLE_OF_SEVEN,
    TABLE_OF_SIX,
    sheet_keeper,
)
from printing.pdf import card_sheet
from printing.pdf.drawing import draw
from printing.pdf.fonts import BOLD, REGULAR
from printing.pdf.lists import Progress, by_name
from tournaments.models import Tournament
from tournaments.selectors import SeatRow, TableRow

_FIVE = colors.HexColor("#ffd966")  # the mark of a table of five, as on the table cards


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


def _draw_slip(
    canvas: Canvas,
    slip: Slip,
    card: card_sheet.Card,
    *,
    tournament: Tournament,
    round_title: str,
    url: str | None,
    personal_url: str | None = None,
) -> None:
    """One card, in its place ``card``."""
    top, left, right = card.top, card.left, card.right
    seat = slip.seat
    canvas.setFillColor(colors.black)
    draw(canvas, right, top - 7 * mm, round_title, BOLD, 9, align="right")
    room = card_sheet.INNER - stringWidth(round_title, BOLD, 9) - 3 * mm
    canvas.setFillColor(card_sheet.GREY)
    draw(canvas, left, top - 7 * mm, tournament.name, BOLD, 9, width=room)

    text_width = card_sheet.INNER if url is None else card_sheet.TEXT
    card_sheet.draw_name(canvas, seat.entry.sort_name, left, top, text_width)
    canvas.setFillColor(card_sheet.GREY)
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
        canvas.setFillColor(card_sheet.GREY)
        draw(canvas, left + offset, top - 28.5 * mm, label, REGULAR, 7.5, width=25 * mm)
        canvas.setFillColor(colors.black)
        draw(canvas, left + offset, top - 38.5 * mm, str(value), BOLD, 28, width=26 * mm)

    if url is not None:
        card_sheet.draw_link(canvas, url, _("Your scoresheet link"), right=right, top=top)

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
    if slip.table_size == TABLE_OF_FIVE:
        lines.append((_("Table of five: the dealer sits out each hand (TSR 10.1.1)."), False))
    elif slip.table_size == TABLE_OF_SIX:
        lines.append(
            (
                _(
                    "Table of six: the dealer and the player to his left sit out each hand (TSR 10)."
                ),
                False,
            )
        )
    elif slip.table_size == TABLE_OF_SEVEN:
        lines.append(
            (
                _(
                    "Table of seven: the dealer and the two players to his left sit out each "
                    "hand (TSR 10)."
                ),
                False,
            )
        )
    for index, (line, own) in enumerate(lines):
        line_y = top - (53 + 4.8 * index) * mm
        if index == 2:
            canvas.saveState()
            canvas.setFillColor(_FIVE)
            canvas.rect(left - 1 * mm, line_y - 1.3 * mm, card_sheet.INNER + 2 * mm, 4.6 * mm, 0, 1)
            canvas.restoreState()
        canvas.setFillColor(colors.black)
        font = BOLD if own else REGULAR
        draw(canvas, left, line_y, line, font, 8.5, width=card_sheet.INNER)
    if personal_url is not None:
        # The round's QR opens this round's sheet; this one link stays for the whole tournament.
        canvas.setFillColor(card_sheet.GREY)
        draw(
            canvas,
            left,
            top - 67 * mm,
            _("Your page for the whole tournament: %(url)s") % {"url": personal_url},
            REGULAR,
            6.5,
            width=card_sheet.INNER,
        )


def seat_slips_pdf(
    *,
    tournament: Tournament,
    round_number: int,
    tables: list[TableRow],
    url_for_seat: Callable[[SeatRow], str | None] | None = None,
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
    round_title = _("Round %(number)s") % {"number": round_number}

    def draw_card(canvas: Canvas, slip: Slip, card: card_sheet.Card) -> None:
        _draw_slip(
            canvas,
            slip,
            card,
            tournament=tournament,
            round_title=round_title,
            url=url_for_seat(slip.seat) if url_for_seat is not None else None,
            personal_url=personal_url(slip.seat) if personal_url is not None else None,
        )

    return card_sheet.card_sheet_pdf(
        tournament=tournament,
        title=_("Seat slips"),
        items=slips_of(tables),
        draw_card=draw_card,
        empty=_("The seating of this round has not been drawn yet."),
        warning=warning,
        progress=progress,
    )
