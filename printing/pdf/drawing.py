"""What the printouts drawn on the canvas share (the scoresheets, the seat slips): a canvas set
in the printouts' font, text that fits its room, QR codes, and progress in steps.

Drawn on the canvas, not with platypus, where a round of hundreds of pages must print in a few
seconds.
"""

import io
import re

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from printing.pdf import fonts
from printing.pdf.lists import Progress
from tournaments import qr
from tournaments.models import Tournament


def new_canvas(buffer: io.BytesIO, *, title: str, tournament: Tournament) -> Canvas:
    """An A4 canvas writing to ``buffer``, its text set in the printouts' font."""
    fonts.register()
    # The stubs type the initial font's name as a float; ReportLab takes the name.
    canvas = Canvas(
        buffer,
        pagesize=A4,
        pageCompression=1,
        initialFontName=fonts.REGULAR,  # type: ignore[arg-type]
    )
    canvas.setTitle(f"{title} – {tournament.name}")
    canvas.setAuthor(tournament.name)
    return canvas


def fit(text: str, font: str, size: float, width: float) -> tuple[str, float]:
    """The text and a font size at which it fits ``width``: smaller if need be, never cut (a
    name or a heading cut short is a name or a heading misread)."""
    actual = stringWidth(text, font, size)
    if actual <= width:
        return text, size
    return text, size * width / actual * 0.999


def split_lines(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` in lines no wider than ``width``, broken at spaces and after hyphens, never
    inside a word; a word wider than a line stands alone (and is shrunk when drawn)."""
    lines: list[str] = []
    line = ""
    for piece in re.split(r"(?<=[ -])", text):
        if line and stringWidth((line + piece).rstrip(), font, size) > width:
            lines.append(line.rstrip())
            line = ""
        line += piece
    return [*lines, line.rstrip()]


def wrap(
    text: str, font: str, size: float, width: float, *, lines: int, smallest: float = 5
) -> tuple[list[str], float]:
    """``text`` in at most ``lines`` lines no wider than ``width`` and the font size to draw
    them in: the largest from ``size`` down to ``smallest`` at which it fits, broken between
    words (``split_lines``); below ``smallest`` only if a word, or the text in ``lines`` lines,
    is wider still. Never cut."""
    step = size
    while True:
        split = split_lines(text, font, step, width)
        if len(split) <= lines and all(stringWidth(line, font, step) <= width for line in split):
            return split, step
        if step <= smallest:
            break
        step = max(smallest, step - 0.25)
    if len(split) > lines:  # the rest on the last line, shrunk below with the others
        rest = "".join(line if line.endswith("-") else line + " " for line in split[lines - 1 :])
        split = [*split[: lines - 1], rest.rstrip()]
    widest = max(stringWidth(line, font, step) for line in split)
    return split, step * min(1, width / widest * 0.999)


def draw_wrapped(
    canvas: Canvas,
    x: float,
    y: float,
    text: str,
    font: str,
    size: float,
    *,
    width: float,
    lines: int,
    leading: float,
    smallest: float = 5,
    align: str = "left",
    upward: bool = False,
) -> float:
    """Draw ``text`` in up to ``lines`` lines (``wrap``), the first at baseline ``y`` and each
    next ``leading`` lower, or with ``upward`` the last at ``y`` and each earlier one higher;
    returns the size it was drawn in."""
    split, size = wrap(text, font, size, width, lines=lines, smallest=smallest)
    if upward:
        y += (len(split) - 1) * leading
    for index, line in enumerate(split):
        draw(canvas, x, y - index * leading, line, font, size, align=align)
    return size


def draw(canvas: Canvas, x: float, y: float, text: str, font: str, size: float, **how) -> None:
    """Draw ``text`` at baseline ``y``: from ``x``, or ending at it (``align="right"``), or
    centred on it (``align="centre"``); shrunk to ``width`` if given."""
    align = how.get("align", "left")
    if "width" in how:
        text, size = fit(text, font, size, how["width"])
    canvas.setFont(font, size)
    if align == "right":
        canvas.drawRightString(x, y, text)
    elif align == "centre":
        canvas.drawCentredString(x, y, text)
    else:
        canvas.drawString(x, y, text)


def link_lines(url: str, font: str, size: float, width: float) -> list[str]:
    """A link printed for typing in: one line, or two halves if it is wider than ``width``."""
    if stringWidth(url, font, size) <= width:
        return [url]
    half = (len(url) + 1) // 2
    return [url[:half], url[half:]]


def draw_qr(canvas: Canvas, url: str, x: float, y: float, size: float) -> None:
    """The QR code of ``url`` with its quiet zone, ``size`` wide, its lower left corner at
    (x, y)."""
    rows = qr.qr_rows(url)
    canvas.saveState()
    canvas.setFillColor(colors.black)
    canvas.translate(x, y)
    box = size / (len(rows) + 2 * qr.QUIET_ZONE)
    canvas.scale(box, box)
    canvas.addLiteral(qr.pdf_operators(rows))
    canvas.restoreState()


class Steps:
    """Progress in steps of at least five percent: each report may be a write to the database."""

    def __init__(self, progress: Progress) -> None:
        self.report = progress
        self.reported = 0

    def __call__(self, percent: int) -> None:
        if percent > self.reported and (percent >= self.reported + 5 or percent == 100):
            self.reported = percent
            self.report(percent)
