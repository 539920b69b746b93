"""What the printouts drawn on the canvas share (the scoresheets, the seat slips): a canvas set
in the printouts' font, text that fits its room, QR codes, and progress in steps.

Drawn on the canvas, not with platypus, where a round of hundreds of pages must print in a few
seconds.
"""

import io

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from printing import qr
from printing.pdf import fonts
from printing.pdf.lists import Progress
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


def fit(text: str, font: str, size: float, width: float, *, smallest: float = 5) -> tuple:
    """The text and a font size at which it fits ``width``: smaller down to ``smallest``, then
    cut short with an ellipsis."""
    actual = stringWidth(text, font, size)
    if actual <= width:
        return text, size
    size = max(smallest, size * width / actual * 0.999)
    if stringWidth(text, font, size) <= width:
        return text, size
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…", size


def draw(canvas: Canvas, x: float, y: float, text: str, font: str, size: float, **how) -> None:
    """Draw ``text`` at baseline ``y``: from ``x``, or ending at it (``align="right"``), or
    centred on it (``align="centre"``); shrunk to ``width`` if given."""
    align = how.get("align", "left")
    if "width" in how:
        text, size = fit(text, font, size, how["width"], smallest=how.get("smallest", 5))
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
