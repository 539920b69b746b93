"""Personal link cards: a card for every active player, eight to an A4 page, with the QR code
of the player's personal link (``/p/<key>/``), which stays the same for the whole tournament:
their table and seat in each round, their results, and their table's scoresheet while they sit
there. Handed out once, at the door or with the first round's slips.

The cards are in the order of the players' names, so that they can be handed out from a pile
as the players arrive; the dashed lines are where to cut.
"""

import io
from collections.abc import Callable

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from printing.pdf.drawing import Steps, draw, draw_qr, draw_wrapped, link_lines, new_canvas, wrap
from printing.pdf.fonts import BOLD, REGULAR
from printing.pdf.lists import Progress
from tournaments.models import Entry, Tournament
from tournaments.selectors import name_key

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
_WARNING = colors.HexColor("#b02a37")  # the links warning, as on the seat slips


def by_name(entry: Entry) -> tuple:
    """Last name, first name (umlauts with their vowels, whatever the case), start number: the
    order of the seat slips, so that both piles are handed out alike."""
    return (name_key(entry.last_name), name_key(entry.first_name), entry.start_number)


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
    """The player's name, last name first: large on one line, or on two lines if it is long,
    smaller if need be, never cut."""
    canvas.setFillColor(colors.black)
    size = min(14, 14 * width / stringWidth(name, BOLD, 14))
    if size >= 11:
        draw(canvas, x, top - 16 * mm, name, BOLD, size)
        return
    lines, size = wrap(name, BOLD, 11, width, lines=2, smallest=8)
    for index, line in enumerate(lines):
        draw(canvas, x, top - (14.5 + 4 * index) * mm, line, BOLD, size)


def _draw_card(
    canvas: Canvas, entry: Entry, *, x: float, y: float, tournament: Tournament, url: str
) -> None:
    """One card, its lower left corner at (x, y)."""
    top = y + _CARD_HEIGHT
    left, right = x + _PADDING, x + _CARD_WIDTH - _PADDING
    canvas.setFillColor(_GREY)
    draw(canvas, left, top - 7 * mm, tournament.name, BOLD, 9, width=_INNER)

    _draw_name(canvas, entry.sort_name, left, top, _TEXT)
    canvas.setFillColor(_GREY)
    draw(
        canvas,
        left,
        top - 24 * mm,
        _("Start number %(number)s") % {"number": entry.start_number},
        REGULAR,
        9,
        width=_TEXT,
    )
    if entry.club:
        draw_wrapped(
            canvas,
            left,
            top - 29 * mm,
            entry.club,
            REGULAR,
            9,
            width=_TEXT,
            lines=2,
            leading=3.8 * mm,
            smallest=6,
        )

    qr_left = right - _QR_SIZE
    canvas.setFillColor(colors.black)
    draw(
        canvas,
        qr_left + _QR_SIZE / 2,
        top - _QR_TOP + 0.6 * mm,
        _("Your personal link"),
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

    canvas.setFillColor(colors.black)
    draw_wrapped(
        canvas,
        left,
        top - 52 * mm,
        _(
            "Your page for the whole tournament: your table in each round, your results, "
            "your scoresheet"
        ),
        BOLD,
        8.5,
        width=_INNER,
        lines=2,
        leading=4 * mm,
        smallest=6,
    )
    canvas.setFillColor(_GREY)
    draw(
        canvas,
        left,
        top - 62 * mm,
        _("Keep this card: the link stays the same all tournament."),
        REGULAR,
        7.5,
        width=_INNER,
    )


def personal_cards_pdf(
    *,
    tournament: Tournament,
    entries: list[Entry],
    url_for_entry: Callable[[Entry], str],
    warning: str = "",
    progress: Progress,
) -> bytes:
    """A card for each of ``entries``, eight to an A4 page, in the order of their names: the
    tournament, the player's name, start number and club, and the QR code of
    ``url_for_entry(entry)``, their personal link, with the address beneath it for typing in;
    ``warning`` beneath the cards of every page."""
    steps = Steps(progress)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, title=_("Personal link cards"), tournament=tournament)
    entries = sorted(entries, key=by_name)
    if not entries:
        canvas.setFont(REGULAR, 11)
        canvas.drawString(_MARGIN, PAGE_HEIGHT - 20 * mm, tournament.name)
        canvas.drawString(_MARGIN, PAGE_HEIGHT - 30 * mm, _("No active players."))
        canvas.showPage()
    for index, entry in enumerate(entries):
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
        _draw_card(
            canvas,
            entry,
            x=_MARGIN + column * _CARD_WIDTH,
            y=PAGE_HEIGHT - _MARGIN - (row + 1) * _CARD_HEIGHT,
            tournament=tournament,
            url=url_for_entry(entry),
        )
        steps(95 * (index + 1) // len(entries))
    if entries:
        canvas.showPage()
    canvas.save()
    steps(100)
    return buffer.getvalue()
