"""PDF documents for organisers, drawn with ReportLab: the list of players for the check-in desk
and the printouts of a round's seating (by table, by name, and a card for each table)."""

import io
from collections.abc import Callable, Iterator
from typing import Literal, TypeVar
from xml.sax.saxutils import escape

from django.utils import formats
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    FrameBreak,
    KeepInFrame,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from tournaments import qr
from tournaments.models import Entry, Tournament
from tournaments.selectors import SeatRow, TableRow, name_key

Progress = Callable[[int], None]
Layout = Literal["list", "columns", "cards"]
T = TypeVar("T")

_MARGIN = 15 * mm
_PADDING = 6  # points; a frame's padding on each side, as in SimpleDocTemplate
_GUTTER = 8 * mm  # between the two columns of "columns"
_STORY_DONE = 50  # percent reported once the story is assembled; building the PDF runs to 90
_ZEBRA = [colors.white, colors.HexColor("#f2f2f2")]
_FIVE = colors.HexColor("#ffd966")  # the mark of a table of five
_GREY = colors.HexColor("#555555")


def _dates(tournament: Tournament) -> str:
    dates = formats.date_format(tournament.starts_on, "DATE_FORMAT")
    if tournament.ends_on != tournament.starts_on:
        dates += " – " + formats.date_format(tournament.ends_on, "DATE_FORMAT")
    return dates


class _Document:
    """What every printout shares: an A4 document with its metadata and margins, the header with
    the tournament's name, dates and venue, a page footer, and rising progress up to 90 percent.

    Layouts: "list" flows in one column; "columns" puts the header across the first page and
    flows the story in two columns below it; "cards" splits each page into two halves, one card
    each, with a cut line between them and neither header nor footer.
    """

    def __init__(self, *, tournament: Tournament, title: str, progress: Progress) -> None:
        self.tournament = tournament
        self.title = title
        self.styles = getSampleStyleSheet()
        self._report = progress
        self._reported = 0
        self._buffer = io.BytesIO()
        self.template = BaseDocTemplate(
            self._buffer,
            pagesize=A4,
            title=f"{title} – {tournament.name}",
            author=tournament.name,
            leftMargin=_MARGIN,
            rightMargin=_MARGIN,
            topMargin=_MARGIN,
            bottomMargin=_MARGIN,
        )

    def header(self) -> list[Flowable]:
        where = ", ".join(part for part in [_dates(self.tournament), self.tournament.venue] if part)
        return [
            Paragraph(escape(f"{self.title}: {self.tournament.name}"), self.styles["Title"]),
            Paragraph(escape(where), self.styles["Normal"]),
            Spacer(1, 6 * mm),
        ]

    def progress(self, percent: int) -> None:
        """Report ``percent`` (at most 90) if it is at least 5 more than was reported so far, or
        90: each report may be a write to the database."""
        percent = min(percent, 90)
        if percent > self._reported and (percent >= self._reported + 5 or percent == 90):
            self._reported = percent
            self._report(percent)

    def stepping(self, items: list[T]) -> Iterator[T]:
        """The items, reporting progress up to ``_STORY_DONE`` as the story takes them in."""
        for index, item in enumerate(items, start=1):
            yield item
            self.progress(_STORY_DONE * index // len(items))

    def build(self, story: list[Flowable], *, layout: Layout = "list") -> bytes:
        self.progress(_STORY_DONE)
        doc = self.template
        if not story:  # a round without seating: say so rather than print an empty page
            message = _("The seating of this round has not been drawn yet.")
            story = [Paragraph(escape(message), self.styles["Normal"])]
        if layout == "cards":
            flowables = story
            half = doc.height / 2
            doc.addPageTemplates(
                PageTemplate(
                    id="cards",
                    frames=[
                        Frame(doc.leftMargin, doc.bottomMargin + half, doc.width, half, id="top"),
                        Frame(doc.leftMargin, doc.bottomMargin, doc.width, half, id="bottom"),
                    ],
                    onPage=_cut_line,
                )
            )
        elif layout == "columns":
            flowables = [*self.header(), FrameBreak(), *story]
            doc.addPageTemplates(self._column_templates())
        else:
            flowables = [*self.header(), *story]
            doc.addPageTemplates(
                PageTemplate(
                    id="list",
                    frames=[Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height)],
                    onPage=self._footer,
                )
            )
        total = len(flowables)

        def on_build(event: str, value: int) -> None:
            if event == "PROGRESS":
                self.progress(_STORY_DONE + (90 - _STORY_DONE) * value // total)

        doc.setProgressCallBack(on_build)
        doc.build(flowables)
        self.progress(90)
        return self._buffer.getvalue()

    def _column_templates(self) -> list[PageTemplate]:
        doc = self.template
        header_height = 2 * _PADDING + 2 * mm
        for flowable in self.header():
            header_height += flowable.wrap(doc.width - 2 * _PADDING, doc.height)[1]
            header_height += flowable.getSpaceBefore() + flowable.getSpaceAfter()
        column_width = (doc.width - _GUTTER) / 2

        def columns(height: float) -> list[Frame]:
            return [
                Frame(
                    doc.leftMargin + index * (column_width + _GUTTER),
                    doc.bottomMargin,
                    column_width,
                    height,
                )
                for index in range(2)
            ]

        top = doc.bottomMargin + doc.height - header_height
        return [
            PageTemplate(
                id="first",
                frames=[
                    Frame(doc.leftMargin, top, doc.width, header_height, id="header"),
                    *columns(doc.height - header_height),
                ],
                onPage=self._footer,
                autoNextPageTemplate="later",
            ),
            PageTemplate(id="later", frames=columns(doc.height), onPage=self._footer),
        ]

    def _footer(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.setFillColor(_GREY)
        canvas.drawString(doc.leftMargin, 8 * mm, f"{self.title} – {self.tournament.name}")
        canvas.drawRightString(
            doc.leftMargin + doc.width,
            8 * mm,
            _("Page %(number)s") % {"number": canvas.getPageNumber()},
        )
        canvas.restoreState()


def _cut_line(canvas: Canvas, doc: BaseDocTemplate) -> None:
    canvas.saveState()
    canvas.setStrokeColor(colors.grey)
    canvas.setLineWidth(0.5)
    canvas.setDash(4, 4)
    middle = doc.pagesize[1] / 2
    canvas.line(5 * mm, middle, doc.pagesize[0] - 5 * mm, middle)
    canvas.restoreState()


def entry_list_pdf(*, tournament: Tournament, entries: list[Entry], progress: Progress) -> bytes:
    """The list of players for the check-in desk: start number, name, club, DDV number, and a
    column to sign in."""
    document = _Document(tournament=tournament, title=_("List of players"), progress=progress)
    cell = ParagraphStyle(
        "cell", parent=document.styles["Normal"], fontSize=9, leading=11, embeddedHyphenation=1
    )
    rows: list[list] = [[_("No."), _("Name"), _("Club"), _("DDV no."), _("Status"), _("Signature")]]
    for entry in document.stepping(entries):
        rows.append(
            [
                str(entry.start_number),
                Paragraph(escape(entry.player.sort_name), cell),  # long names wrap
                Paragraph(escape(entry.player.club), cell),
                entry.player.ddv_number,
                "" if entry.status == Entry.Status.ACTIVE else entry.get_status_display(),
                "",
            ]
        )
    table = Table(
        rows,
        colWidths=[14 * mm, 52 * mm, 48 * mm, 20 * mm, 20 * mm, 26 * mm],
        repeatRows=1,
    )
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), "Helvetica-Bold"),
                ("FONTSIZE", (0, 0), (-1, -1), 9),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.grey),
                ("ALIGN", (0, 0), (0, -1), "RIGHT"),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), _ZEBRA),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("BOTTOMPADDING", (0, 1), (-1, -1), 5),
                ("TOPPADDING", (0, 1), (-1, -1), 5),
            ]
        )
    )
    return document.build([table])


# The seating of a round ---------------------------------------------------------------------


def _table_title(number: int) -> str:
    return _("Table %(number)s") % {"number": number}


def _club_style(name: ParagraphStyle, size: int) -> ParagraphStyle:
    return ParagraphStyle(
        f"{name.name}-club",
        parent=name,
        fontName="Helvetica",
        fontSize=size,
        leading=size + 2,
        textColor=_GREY,
    )


def _player_cell(seat: SeatRow, name: ParagraphStyle, club: ParagraphStyle) -> list[Flowable]:
    """The player's name and, smaller and grey beneath it, the club; both wrap when long."""
    cell: list[Flowable] = [Paragraph(escape(seat.entry.player.name), name)]
    if seat.entry.player.club:
        cell.append(Paragraph(escape(seat.entry.player.club), club))
    return cell


def seating_by_table_pdf(
    *, tournament: Tournament, round_number: int, tables: list[TableRow], progress: Progress
) -> bytes:
    """The round's seating table by table, in two columns: a block for each table with its seats,
    the players' start numbers, names and clubs. Tables of five are shaded and say so."""
    document = _Document(
        tournament=tournament,
        title=_("Seating, round %(number)s") % {"number": round_number},
        progress=progress,
    )
    styles = document.styles
    heading = ParagraphStyle(
        "heading", parent=styles["Normal"], fontName="Helvetica-Bold", fontSize=13, leading=16
    )
    name = ParagraphStyle(
        "name", parent=styles["Normal"], fontSize=10, leading=12, embeddedHyphenation=1
    )
    club = _club_style(name, 8)
    labels = [_("Seat"), _("No."), _("Name")]
    story: list[Flowable] = []
    for row in document.stepping(tables):
        five = len(row.seats) == 5
        title = escape(_table_title(row.table.number))
        if five:
            title += f' <font size="10">– {escape(_("Table of five"))}</font>'
        rows: list[list] = [[Paragraph(title, heading), "", ""], labels]
        rows += [
            [str(seat.position), str(seat.entry.start_number), _player_cell(seat, name, club)]
            for seat in row.seats
        ]
        block = Table(rows, colWidths=[11 * mm, 12 * mm, None], hAlign="LEFT")
        block.setStyle(
            TableStyle(
                [
                    ("SPAN", (0, 0), (-1, 0)),
                    ("BACKGROUND", (0, 0), (-1, 0), _FIVE if five else colors.HexColor("#dddddd")),
                    ("BOX", (0, 0), (-1, -1), 1.5 if five else 0.8, colors.black),
                    ("FONT", (0, 1), (-1, 1), "Helvetica", 7),
                    ("TEXTCOLOR", (0, 1), (-1, 1), _GREY),
                    ("FONT", (0, 2), (0, -1), "Helvetica-Bold", 11),
                    ("FONTSIZE", (1, 2), (1, -1), 10),
                    ("ALIGN", (0, 1), (1, -1), "CENTER"),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("LINEBELOW", (0, 2), (-1, -2), 0.25, colors.grey),
                    ("TOPPADDING", (0, 1), (-1, 1), 0),
                    ("BOTTOMPADDING", (0, 1), (-1, 1), 1),
                ]
            )
        )
        story.append(KeepTogether([block, Spacer(1, 5 * mm)]))
    return document.build(story, layout="columns")


def seating_alphabetical_pdf(
    *, tournament: Tournament, round_number: int, tables: list[TableRow], progress: Progress
) -> bytes:
    """Every seated player by name (last, first) with start number, table and seat, in a large
    font to hang up at the venue; the header row repeats on each page."""
    document = _Document(
        tournament=tournament,
        title=_("Seating by name, round %(number)s") % {"number": round_number},
        progress=progress,
    )
    seated = [(seat, row.table.number) for row in tables for seat in row.seats]
    seated.sort(
        key=lambda item: (
            name_key(item[0].entry.player.last_name),
            name_key(item[0].entry.player.first_name),
            item[0].entry.player.sort_name,
            item[0].entry.start_number,
        )
    )
    name = ParagraphStyle(
        "name", parent=document.styles["Normal"], fontSize=15, leading=18, embeddedHyphenation=1
    )
    if not seated:
        return document.build([])
    rows: list[list] = [[_("Name"), _("No."), _("Table"), _("Seat")]]
    for seat, table_number in document.stepping(seated):
        rows.append(
            [
                Paragraph(escape(seat.entry.player.sort_name), name),
                str(seat.entry.start_number),
                str(table_number),
                str(seat.position),
            ]
        )
    table = Table(rows, colWidths=[104 * mm, 22 * mm, 28 * mm, 24 * mm], repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 12),
                ("FONT", (1, 1), (-1, -1), "Helvetica", 15),
                ("FONT", (2, 1), (2, -1), "Helvetica-Bold", 17),
                ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.grey),
                ("ALIGN", (1, 0), (-1, -1), "CENTER"),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), _ZEBRA),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TOPPADDING", (0, 1), (-1, -1), 4),
                ("BOTTOMPADDING", (0, 1), (-1, -1), 6),
            ]
        )
    )
    return document.build([table])


_QR_SIZE = 40 * mm


class _QrCode(Flowable):
    """A QR code (error correction level M, ``tournaments.qr``), drawn as one filled path of its
    dark runs: several times faster than ReportLab's QrCodeWidget, which builds and checks a
    shape for each run."""

    def __init__(self, value: str, size: float) -> None:
        super().__init__()
        self.rows = qr.qr_rows(value)
        self.width = self.height = size

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        box = self.width / (len(self.rows) + 2 * qr.QUIET_ZONE)
        canvas = self.canv
        canvas.saveState()
        canvas.setFillColor(colors.black)
        canvas.scale(box, box)
        canvas.addLiteral(qr.pdf_operators(self.rows))
        canvas.restoreState()


def _card_seats(seats: list[SeatRow], name: ParagraphStyle) -> Table:
    """The players by seat, with who deals first and who keeps the sheet (TSR 8.4, 10.1.4):
    the last seat, which is seat 4 at a table of four and seat 5 at a table of five."""
    club = _club_style(name, 10)
    rows: list[list] = [[_("Seat"), _("Name"), _("No."), ""]]
    for seat in seats:
        role = ""
        if seat.position == 1:
            role = _("deals first")
        elif seat.position == len(seats) and seat.position >= 4:
            role = _("keeps the sheet")
        rows.append(
            [str(seat.position), _player_cell(seat, name, club), str(seat.entry.start_number), role]
        )
    table = Table(rows, colWidths=[14 * mm, None, 14 * mm, 28 * mm], hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), "Helvetica", 8),
                ("TEXTCOLOR", (0, 0), (-1, 0), _GREY),
                ("FONT", (0, 1), (0, -1), "Helvetica-Bold", 20),
                ("FONTSIZE", (2, 1), (2, -1), 12),
                ("FONT", (3, 1), (3, -1), "Helvetica-Oblique", 9),
                ("TEXTCOLOR", (3, 1), (3, -1), _GREY),
                ("ALIGN", (0, 0), (0, -1), "CENTER"),
                ("ALIGN", (2, 0), (2, -1), "CENTER"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LINEBELOW", (0, 0), (-1, -2), 0.25, colors.grey),
                ("TOPPADDING", (0, 1), (-1, -1), 4),
                ("BOTTOMPADDING", (0, 1), (-1, -1), 6),
            ]
        )
    )
    return table


def table_cards_pdf(
    *,
    tournament: Tournament,
    round_number: int,
    tables: list[TableRow],
    progress: Progress,
    url_for_table: Callable[[int], str] | None = None,
) -> bytes:
    """A card for each table to lay on it, two to an A4 page (cut along the dashed line): the
    table's number large enough to read across the room, the round, the players by seat, who
    deals first and who keeps the scoresheet, and a QR code of ``url_for_table(number)``."""
    round_title = _("Round %(number)s") % {"number": round_number}
    document = _Document(
        tournament=tournament,
        title=_("Table cards, round %(number)s") % {"number": round_number},
        progress=progress,
    )
    styles = document.styles
    big = ParagraphStyle(
        "big", parent=styles["Normal"], fontName="Helvetica-Bold", fontSize=60, leading=66
    )
    sub = ParagraphStyle("sub", parent=styles["Normal"], fontSize=16, leading=20)
    note = ParagraphStyle("note", parent=styles["Normal"], fontSize=10, leading=13)
    banner = ParagraphStyle(
        "banner",
        parent=styles["Normal"],
        fontName="Helvetica-Bold",
        fontSize=14,
        leading=18,
        backColor=_FIVE,
        borderPadding=(2, 4),
    )
    name = ParagraphStyle(
        "name",
        parent=styles["Normal"],
        fontName="Helvetica-Bold",
        fontSize=16,
        leading=19,
        embeddedHyphenation=1,
    )
    url_style = ParagraphStyle("url", parent=styles["Normal"], fontSize=7, leading=9, alignment=1)
    where = ", ".join(part for part in [tournament.name, _dates(tournament)] if part)
    doc = document.template
    story: list[Flowable] = []
    for row in document.stepping(tables):
        five = len(row.seats) == 5
        heading: list[Flowable] = [Paragraph(escape(_table_title(row.table.number)), big)]
        if five:
            heading += [Paragraph(escape(_("Table of five")), banner), Spacer(1, 2 * mm)]
        heading.append(Paragraph(f"<b>{escape(round_title)}</b> · {escape(where)}", sub))
        if url_for_table is not None:
            url = url_for_table(row.table.number)
            code = [_QrCode(url, _QR_SIZE), Paragraph(escape(url), url_style)]
            top = Table(
                [[heading, code]],
                colWidths=[doc.width - 2 * _PADDING - _QR_SIZE - 6 * mm, _QR_SIZE + 6 * mm],
            )
            top.setStyle(
                TableStyle(
                    [
                        ("VALIGN", (0, 0), (-1, -1), "TOP"),
                        ("LEFTPADDING", (0, 0), (-1, -1), 0),
                        ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ]
                )
            )
            heading = [top]
        card = [*heading, Spacer(1, 4 * mm), _card_seats(row.seats, name)]
        if five:
            card += [
                Spacer(1, 3 * mm),
                Paragraph(escape(_("The dealer sits out each hand.")), note),
            ]
        if story:
            story.append(FrameBreak())
        # A card never runs over its half page: one with very long names is drawn smaller.
        story.append(
            KeepInFrame(
                doc.width - 2 * _PADDING,
                doc.height / 2 - 2 * _PADDING,
                card,
                mode="shrink",
            )
        )
    return document.build(story, layout="cards")
