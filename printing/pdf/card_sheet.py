"""What the two card printouts share (the round's seat slips, the players' personal link cards):
eight cards to an A4 page, two across and four down, with dashed lines where to cut; the
player's name drawn large; a QR code with its address beneath it at the card's top right; the
links warning at every page's foot; and a page that says so when there are no cards.

Each printout draws only what its card shows (``draw_card``); where the cards go is decided
here once, so that both piles look alike and are cut alike.
"""

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from printing.pdf.drawing import Steps, draw, draw_qr, link_lines, new_canvas, wrap
from printing.pdf.fonts import BOLD, REGULAR
from printing.pdf.lists import Progress
from tournaments.models import Tournament

T = TypeVar("T")

PAGE_WIDTH, PAGE_HEIGHT = A4
COLUMNS, ROWS = 2, 4
PER_PAGE = COLUMNS * ROWS
MARGIN = 8 * mm
CARD_WIDTH = (PAGE_WIDTH - 2 * MARGIN) / COLUMNS
CARD_HEIGHT = (PAGE_HEIGHT - 2 * MARGIN) / ROWS
PADDING = 5 * mm
INNER = CARD_WIDTH - 2 * PADDING
QR_SIZE = 30 * mm
QR_TOP = 11.5 * mm  # below the card's top edge
TEXT = INNER - QR_SIZE - 4 * mm  # the column left of the QR code

GREY = colors.HexColor("#555555")
WARNING = colors.HexColor("#b02a37")  # the links warning, as on the table cards


@dataclass(frozen=True)
class Card:
    """Where one card is on its page: its top edge, and the left and right of its text, inside
    the padding."""

    top: float
    left: float
    right: float

    @classmethod
    def at(cls, place: int) -> "Card":
        """The ``place``-th card of a page (0 to 7), row by row from the top left."""
        column, row = place % COLUMNS, place // COLUMNS
        x = MARGIN + column * CARD_WIDTH
        y = PAGE_HEIGHT - MARGIN - (row + 1) * CARD_HEIGHT  # its lower left corner
        return cls(top=y + CARD_HEIGHT, left=x + PADDING, right=x + CARD_WIDTH - PADDING)


DrawCard = Callable[[Canvas, T, Card], None]


def draw_cut_lines(canvas: Canvas) -> None:
    """Dashed lines around and between the cards."""
    canvas.saveState()
    canvas.setStrokeColor(colors.grey)
    canvas.setLineWidth(0.5)
    canvas.setDash(4, 4)
    path = canvas.beginPath()
    for column in range(COLUMNS + 1):
        x = MARGIN + column * CARD_WIDTH
        path.moveTo(x, MARGIN)
        path.lineTo(x, PAGE_HEIGHT - MARGIN)
    for row in range(ROWS + 1):
        y = MARGIN + row * CARD_HEIGHT
        path.moveTo(MARGIN, y)
        path.lineTo(PAGE_WIDTH - MARGIN, y)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


def draw_name(canvas: Canvas, name: str, x: float, top: float, width: float) -> None:
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


def draw_link(canvas: Canvas, url: str, label: str, *, right: float, top: float) -> None:
    """The QR code of ``url`` at the card's top right, ``label`` above it and the address
    beneath it, for typing in."""
    qr_left = right - QR_SIZE
    canvas.setFillColor(colors.black)
    draw(
        canvas,
        qr_left + QR_SIZE / 2,
        top - QR_TOP + 0.6 * mm,
        label,
        BOLD,
        6.5,
        align="centre",
        width=QR_SIZE + 4 * mm,
    )
    draw_qr(canvas, url, qr_left, top - QR_TOP - QR_SIZE, QR_SIZE)
    canvas.setFillColor(GREY)
    for index, line in enumerate(link_lines(url, REGULAR, 6, INNER)):
        line_y = top - QR_TOP - QR_SIZE - (2.6 + 2.5 * index) * mm
        draw(canvas, right, line_y, line, REGULAR, 6, align="right", width=INNER)


def _draw_warning(canvas: Canvas, warning: str) -> None:
    """``warning`` beneath the cards of the page."""
    canvas.setFillColor(WARNING)
    draw(
        canvas,
        PAGE_WIDTH / 2,
        4.5 * mm,
        warning,
        BOLD,
        7,
        align="centre",
        width=PAGE_WIDTH - 2 * MARGIN,
    )


def card_sheet_pdf(
    *,
    tournament: Tournament,
    title: str,
    items: Sequence[T],
    draw_card: DrawCard[T],
    empty: str,
    warning: str = "",
    progress: Progress,
) -> bytes:
    """A card for each of ``items``, in their order, eight to an A4 page with the cut lines,
    each drawn by ``draw_card(canvas, item, card)``; ``warning`` beneath the cards of every
    page; without items, a page with the tournament's name and ``empty``."""
    steps = Steps(progress)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, title=title, tournament=tournament)
    if not items:
        canvas.setFont(REGULAR, 11)
        canvas.drawString(MARGIN, PAGE_HEIGHT - 20 * mm, tournament.name)
        canvas.drawString(MARGIN, PAGE_HEIGHT - 30 * mm, empty)
        canvas.showPage()
    for index, item in enumerate(items):
        place = index % PER_PAGE
        if place == 0:
            if index:
                canvas.showPage()
            draw_cut_lines(canvas)
            if warning:
                _draw_warning(canvas, warning)
        draw_card(canvas, item, Card.at(place))
        steps(95 * (index + 1) // len(items))
    if items:
        canvas.showPage()
    canvas.save()
    steps(100)
    return buffer.getvalue()
