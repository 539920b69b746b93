"""PDF documents for organisers, drawn with ReportLab: the list of players for the check-in desk,
the printouts of a round's seating (by table, by name, and a card for each table), the standings
and the results of a round."""

import datetime
import io
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeVar
from xml.sax.saxutils import escape

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle, PropertySet
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    FrameBreak,
    KeepInFrame,
    KeepTogether,
    LongTable,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from doko.rules.deal import TABLE_OF_FIVE, TABLE_OF_SEVEN, TABLE_OF_SIX
from doko.standings import Standings, Status, Tiebreak
from printing.pdf import fonts
from printing.pdf.fonts import BOLD, OBLIQUE, REGULAR
from tournaments import qr
from tournaments.models import Entry, Round, Tournament
from tournaments.selectors import ClubLine, ResultTable, SeatRow, TableRow, name_key

Progress = Callable[[int], None]
Layout = Literal["list", "columns", "cards"]
T = TypeVar("T")

_MARGIN = 15 * mm
_PADDING = 6  # points; a frame's padding on each side, as in SimpleDocTemplate
_TABLE_PADDING = 6  # points; a table cell's padding left and right, ReportLab's default
_GUTTER = 8 * mm  # between the two columns of "columns"
_STORY_DONE = 50  # percent reported once the story is assembled; building the PDF runs to 90
_ZEBRA = [colors.white, colors.HexColor("#f2f2f2")]
_FIVE = colors.HexColor("#ffd966")  # the mark of a table of five
_GREY = colors.HexColor("#555555")
_WARNING = colors.HexColor("#b02a37")  # the links warning at the foot of the page


def table_kind(size: int) -> str:
    """The banner of a table that is not a table of four (TSR 10), or ""."""
    return {
        TABLE_OF_FIVE: _("Table of five"),
        TABLE_OF_SIX: _("Table of six"),
        TABLE_OF_SEVEN: _("Table of seven"),
    }.get(size, "")


def _table_style(commands: list[tuple]) -> TableStyle:
    """A table's style whose cells are set in the printouts' font unless it says otherwise
    (ReportLab's tables default to Helvetica)."""
    return TableStyle([("FONTNAME", (0, 0), (-1, -1), REGULAR), *commands])


def tournament_dates(tournament: Tournament) -> str:
    """The tournament's dates as printed: its day, or its first and last day."""
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

    ``warning``: a line at the foot of every page, below the footer (the links printed point
    where no phone in the hall can open them).
    """

    def __init__(
        self, *, tournament: Tournament, title: str, progress: Progress, warning: str = ""
    ) -> None:
        self.tournament = tournament
        self.title = title
        self.warning = warning
        self.styles = fonts.stylesheet()
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
            initialFontName=REGULAR,
        )

    def header(self) -> list[Flowable]:
        where = ", ".join(
            part for part in [tournament_dates(self.tournament), self.tournament.venue] if part
        )
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
                    onPage=self._card_page,
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
        canvas.setFont(REGULAR, 8)
        canvas.setFillColor(_GREY)
        canvas.drawString(doc.leftMargin, 8 * mm, f"{self.title} – {self.tournament.name}")
        canvas.drawRightString(
            doc.leftMargin + doc.width,
            8 * mm,
            _("Page %(number)s") % {"number": canvas.getPageNumber()},
        )
        canvas.restoreState()
        self._draw_warning(canvas, doc, 4.5 * mm)

    def _card_page(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        _cut_line(canvas, doc)
        self._draw_warning(canvas, doc, 8 * mm)  # no footer on cards: where it would be

    def _draw_warning(self, canvas: Canvas, doc: BaseDocTemplate, y: float) -> None:
        if not self.warning:
            return
        canvas.saveState()
        size = min(8, 8 * doc.width / stringWidth(self.warning, BOLD, 8))
        canvas.setFont(BOLD, size)
        canvas.setFillColor(_WARNING)
        canvas.drawCentredString(doc.leftMargin + doc.width / 2, y, self.warning)
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
        "cell", parent=document.styles["Normal"], fontSize=9, leading=11, embeddedHyphenation=2
    )
    rows: list[list] = [[_("No."), _("Name"), _("Club"), _("DDV no."), _("Status"), _("Signature")]]
    for entry in document.stepping(entries):
        rows.append(
            [
                str(entry.start_number),
                # Long names and clubs wrap between words.
                words_paragraph(entry.sort_name, cell, 52 * mm - 2 * _TABLE_PADDING),
                words_paragraph(entry.club, cell, 48 * mm - 2 * _TABLE_PADDING),
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
        _table_style(
            [
                ("FONT", (0, 0), (-1, 0), BOLD),
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
        fontName=REGULAR,
        fontSize=size,
        leading=size + 2,
        textColor=_GREY,
    )


def _player_cell(
    seat: SeatRow, name: ParagraphStyle, club: ParagraphStyle, width: float
) -> list[Flowable]:
    """The player's name and, smaller and grey beneath it, the club, in a column ``width``
    wide; both wrap between words when long, smaller if a word is wider than the column."""
    room = width - 2 * _TABLE_PADDING
    cell: list[Flowable] = [words_paragraph(seat.entry.name, name, room)]
    if seat.entry.club:
        cell.append(words_paragraph(seat.entry.club, club, room))
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
        "heading", parent=styles["Normal"], fontName=BOLD, fontSize=13, leading=16
    )
    name = ParagraphStyle(
        "name", parent=styles["Normal"], fontSize=10, leading=12, embeddedHyphenation=2
    )
    club = _club_style(name, 8)
    labels = [_("Seat"), _("No."), _("Name")]
    name_width = (document.template.width - _GUTTER) / 2 - 2 * _PADDING - 23 * mm
    story: list[Flowable] = []
    for row in document.stepping(tables):
        kind = table_kind(len(row.seats))
        title = escape(_table_title(row.table.number))
        if kind:
            title += f' <font size="10">– {escape(kind)}</font>'
        rows: list[list] = [[Paragraph(title, heading), "", ""], labels]
        rows += [
            [
                str(seat.position),
                str(seat.entry.start_number),
                _player_cell(seat, name, club, name_width),
            ]
            for seat in row.seats
        ]
        block = Table(rows, colWidths=[11 * mm, 12 * mm, None], hAlign="LEFT")
        block.setStyle(
            _table_style(
                [
                    ("SPAN", (0, 0), (-1, 0)),
                    ("BACKGROUND", (0, 0), (-1, 0), _FIVE if kind else colors.HexColor("#dddddd")),
                    ("BOX", (0, 0), (-1, -1), 1.5 if kind else 0.8, colors.black),
                    ("FONT", (0, 1), (-1, 1), REGULAR, 7),
                    ("TEXTCOLOR", (0, 1), (-1, 1), _GREY),
                    ("FONT", (0, 2), (0, -1), BOLD, 11),
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


def entry_by_name(entry: Entry) -> tuple:
    """The order of players by name, as a list at the door has them: last name, first name
    (umlauts with their vowels, whatever the case), then start number; the seat slips and the
    personal link cards go in this order too, so that their piles are handed out alike."""
    return (
        name_key(entry.last_name),
        name_key(entry.first_name),
        entry.sort_name,
        entry.start_number,
    )


def by_name(seat: SeatRow) -> tuple:
    """The order of seated players by name (``entry_by_name``): the name the tournament
    registered, not the player's own."""
    return entry_by_name(seat.entry)


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
    seated.sort(key=lambda item: by_name(item[0]))
    name = ParagraphStyle(
        "name", parent=document.styles["Normal"], fontSize=15, leading=18, embeddedHyphenation=2
    )
    if not seated:
        return document.build([])
    rows: list[list] = [[_("Name"), _("No."), _("Table"), _("Seat")]]
    for seat, table_number in document.stepping(seated):
        rows.append(
            [
                words_paragraph(seat.entry.sort_name, name, 104 * mm - 2 * _TABLE_PADDING),
                str(seat.entry.start_number),
                str(table_number),
                str(seat.position),
            ]
        )
    table = Table(rows, colWidths=[104 * mm, 22 * mm, 28 * mm, 24 * mm], repeatRows=1)
    table.setStyle(
        _table_style(
            [
                ("FONT", (0, 0), (-1, 0), BOLD, 12),
                ("FONT", (1, 1), (-1, -1), REGULAR, 15),
                ("FONT", (2, 1), (2, -1), BOLD, 17),
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


def _card_seats(seats: list[SeatRow], name: ParagraphStyle, width: float) -> Table:
    """The players by seat, with who deals first and who keeps the sheet (TSR 8.4, 10.1.4):
    the last seat, which is seat 4 at a table of four and seat 5 at a table of five; the table
    ``width`` wide."""
    club = _club_style(name, 10)
    name_width = width - 56 * mm
    rows: list[list] = [[_("Seat"), _("Name"), _("No."), ""]]
    for seat in seats:
        role = ""
        if seat.position == 1:
            role = _("deals first")
        elif seat.position == len(seats) and seat.position >= 4:
            role = _("keeps the sheet")
        rows.append(
            [
                str(seat.position),
                _player_cell(seat, name, club, name_width),
                str(seat.entry.start_number),
                role,
            ]
        )
    table = Table(rows, colWidths=[14 * mm, None, 14 * mm, 28 * mm], hAlign="LEFT")
    table.setStyle(
        _table_style(
            [
                ("FONT", (0, 0), (-1, 0), REGULAR, 8),
                ("TEXTCOLOR", (0, 0), (-1, 0), _GREY),
                ("FONT", (0, 1), (0, -1), BOLD, 20),
                ("FONTSIZE", (2, 1), (2, -1), 12),
                ("FONT", (3, 1), (3, -1), OBLIQUE, 9),
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
    warning: str = "",
) -> bytes:
    """A card for each table to lay on it, two to an A4 page (cut along the dashed line): the
    table's number large enough to read across the room, the round, the players by seat, who
    deals first and who keeps the scoresheet, and a QR code of ``url_for_table(number)``;
    ``warning`` at the foot of every page."""
    round_title = _("Round %(number)s") % {"number": round_number}
    document = _Document(
        tournament=tournament,
        title=_("Table cards, round %(number)s") % {"number": round_number},
        progress=progress,
        warning=warning,
    )
    styles = _CardStyles.of(document.styles["Normal"])
    where = ", ".join(part for part in [tournament.name, tournament_dates(tournament)] if part)
    doc = document.template
    story: list[Flowable] = []
    for row in document.stepping(tables):
        url = url_for_table(row.table.number) if url_for_table is not None else None
        card = _table_card(
            row,
            styles,
            top=f"<b>{escape(round_title)}</b> · {escape(where)}",
            url=url,
            width=doc.width - 2 * _PADDING,
        )
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


@dataclass(frozen=True)
class _CardStyles:
    """The paragraph styles of a table card."""

    big: ParagraphStyle
    sub: ParagraphStyle
    note: ParagraphStyle
    banner: ParagraphStyle
    name: ParagraphStyle
    url: ParagraphStyle

    @classmethod
    def of(cls, normal: PropertySet) -> "_CardStyles":
        return cls(
            big=ParagraphStyle("big", parent=normal, fontName=BOLD, fontSize=60, leading=66),
            sub=ParagraphStyle("sub", parent=normal, fontSize=16, leading=20),
            note=ParagraphStyle("note", parent=normal, fontSize=10, leading=13),
            banner=ParagraphStyle(
                "banner",
                parent=normal,
                fontName=BOLD,
                fontSize=14,
                leading=18,
                backColor=_FIVE,
                # The stubs say a float; ReportLab takes (vertical, horizontal) too
                # (normalizeTRBL).
                borderPadding=(2, 4),  # type: ignore[arg-type]
            ),
            name=ParagraphStyle(
                "name",
                parent=normal,
                fontName=BOLD,
                fontSize=16,
                leading=19,
                embeddedHyphenation=2,
            ),
            url=ParagraphStyle("url", parent=normal, fontSize=7, leading=9, alignment=1),
        )


def _table_card(
    row: TableRow, styles: _CardStyles, *, top: str, url: str | None, width: float
) -> list[Flowable]:
    """One table's card: its number, the banner of a table of five, the round (``top``), the
    QR code of ``url`` beside them, and the players by seat."""
    kind = table_kind(len(row.seats))
    heading: list[Flowable] = [Paragraph(escape(_table_title(row.table.number)), styles.big)]
    if kind:
        heading += [Paragraph(escape(kind), styles.banner), Spacer(1, 2 * mm)]
    heading.append(Paragraph(top, styles.sub))
    if url is not None:
        code = [_QrCode(url, _QR_SIZE), Paragraph(escape(url), styles.url)]
        beside = Table([[heading, code]], colWidths=[width - _QR_SIZE - 6 * mm, _QR_SIZE + 6 * mm])
        beside.setStyle(
            _table_style(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ]
            )
        )
        heading = [beside]
    card = [*heading, Spacer(1, 4 * mm), _card_seats(row.seats, styles.name, width)]
    if len(row.seats) == TABLE_OF_FIVE:
        card += [
            Spacer(1, 3 * mm),
            Paragraph(escape(_("The dealer sits out each hand.")), styles.note),
        ]
    elif len(row.seats) in (TABLE_OF_SIX, TABLE_OF_SEVEN):
        card += [
            Spacer(1, 3 * mm),
            Paragraph(
                escape(_("The dealer and the players to his left sit out each hand (TSR 10).")),
                styles.note,
            ),
        ]
    return card


# The standings and the results of a round ---------------------------------------------------

_PROVISIONAL_MARK = "*"
_CELL_PADDING = 2  # points left and right in the tables of numbers, which are wide
_HEADER_GREY = colors.HexColor("#dddddd")
_PROVISIONAL_SHADE = colors.HexColor("#fff2cc")
_MISSING_SHADE = colors.HexColor("#f4cccc")


class _PageCountCanvas(Canvas):
    """A canvas that writes "Page X of Y" at the foot of every page: it holds the pages back
    until the document is saved, when their number is known."""

    # Canvas's own members, which its stubs leave out (they are private).
    _pagesize: tuple[float, float]
    _startPage: Callable[[], None]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._held_pages: list[dict] = []

    def showPage(self) -> None:
        self._held_pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        count = len(self._held_pages)
        for page in self._held_pages:
            self.__dict__.update(page)
            self.saveState()
            self.setFont(REGULAR, 8)
            self.setFillColor(_GREY)
            self.drawRightString(
                self._pagesize[0] - _MARGIN,
                8 * mm,
                _("Page %(number)s of %(count)s")
                % {"number": self.getPageNumber(), "count": count},
            )
            self.restoreState()
            super().showPage()
        super().save()


class _PageCountTemplate(BaseDocTemplate):
    def build(self, flowables, filename=None, canvasmaker=_PageCountCanvas) -> None:
        super().build(flowables, filename=filename, canvasmaker=canvasmaker)


class _CountedDocument(_Document):
    """A printout in one column whose pages say "Page X of Y", in portrait or landscape, with a
    footnote above the footer of every page if it has one."""

    def __init__(
        self,
        *,
        tournament: Tournament,
        title: str,
        progress: Progress,
        pagesize: tuple[float, float] = A4,
        footnote: str = "",
    ) -> None:
        super().__init__(tournament=tournament, title=title, progress=progress)
        self.footnote = footnote
        self.template = _PageCountTemplate(
            self._buffer,
            pagesize=pagesize,
            title=f"{title} – {tournament.name}",
            author=tournament.name,
            leftMargin=_MARGIN,
            rightMargin=_MARGIN,
            topMargin=_MARGIN,
            bottomMargin=_MARGIN,
            initialFontName=REGULAR,
        )

    def _footer(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        # The page number is written by _PageCountCanvas, once the pages are counted.
        canvas.saveState()
        canvas.setFont(REGULAR, 8)
        canvas.setFillColor(_GREY)
        canvas.drawString(doc.leftMargin, 8 * mm, f"{self.title} – {self.tournament.name}")
        if self.footnote:
            canvas.drawString(doc.leftMargin, 12 * mm, self.footnote)
        canvas.restoreState()


def tiebreak_text(tiebreaks: tuple[Tiebreak, ...]) -> str:
    """The chain of tie-breaks after the total points, in words: "Ties: sum of table placings,
    then best single round, then start number"."""
    words = {
        Tiebreak.PLACINGS: _("sum of table placings"),
        Tiebreak.BEST_ROUND: _("best single round"),
        Tiebreak.START_NUMBER: _("start number"),
    }
    if not tiebreaks:
        return _("Ties: players with equal points share a rank.")
    chain = words[tiebreaks[0]]
    for tiebreak in tiebreaks[1:]:
        chain = _("%(chain)s, then %(next)s") % {"chain": chain, "next": words[tiebreak]}
    return _("Ties: %(chain)s") % {"chain": chain}


def _as_of(when: datetime.datetime | None) -> str:
    moment = timezone.localtime(when or timezone.now())
    return _("As of %(when)s") % {"when": formats.date_format(moment, "DATETIME_FORMAT")}


def widest_word(text: str, font: str, size: float) -> float:
    """The width of the widest word of ``text``: what a paragraph that wraps only between
    words needs at least."""
    return max((stringWidth(word, font, size) for word in text.split()), default=0)


def whole_words(style: ParagraphStyle, text: str, room: float) -> ParagraphStyle:
    """``style`` for ``text`` in a line ``room`` wide: as it is if every word fits, else smaller
    until the widest does. A paragraph then wraps between words and never inside one (ReportLab
    splits a word wider than its line: "Platzieru/ngen"), and nothing is cut."""
    widest = widest_word(text, style.fontName, style.fontSize)
    if widest <= room:
        return style
    size = style.fontSize * room / widest * 0.999
    return ParagraphStyle(
        f"{style.name}-{size:.2f}",
        parent=style,
        fontSize=size,
        leading=style.leading * size / style.fontSize,
    )


def words_paragraph(text: str, style: ParagraphStyle, room: float) -> Paragraph:
    """``text`` as a paragraph that wraps between words in a line ``room`` wide, smaller if a
    word is wider than that (``whole_words``)."""
    return Paragraph(escape(text), whole_words(style, text, room))


def _fitted(text: str, width: float, style: ParagraphStyle) -> str | Paragraph:
    """The text as a plain cell if it fits on one line (fast to lay out), else as a paragraph
    that wraps between words: thousands of rows stay quick while a long name still shows in
    full."""
    room = width - 2 * _CELL_PADDING
    if stringWidth(text, style.fontName, style.fontSize) <= room:
        return text
    return words_paragraph(text, style, room)


def _standings_widths(
    available: float, rounds: int, digits: int, *, ddv: float, totals: list[float]
) -> list[float]:
    """Rank, start number, name, club, DDV number, a column per round, total, placings, best
    round: the numbers as wide as they need, the DDV number ``ddv`` and the totals ``totals``
    wide (as their headings' words need), the name and the club share what is left (3 : 2).
    ``digits``: of the largest rank or start number."""
    number = max(8 * mm, stringWidth("8" * digits, REGULAR, 8) + 2 * _CELL_PADDING + 1 * mm)
    fixed = [number, number]
    text = 70 * mm  # at least, for the name and the club
    per_round = 11 * mm
    if rounds:
        room = available - sum(fixed) - ddv - sum(totals) - text
        per_round = max(min(per_round, room / rounds), 7 * mm)
    left = available - sum(fixed) - ddv - sum(totals) - per_round * rounds
    return [*fixed, left * 0.6, left * 0.4, ddv, *[per_round] * rounds, *totals]


def standings_pdf(
    *,
    tournament: Tournament,
    standings: Standings,
    progress: Progress,
    as_of: datetime.datetime | None = None,
    ddv_numbers: Mapping[int, str] | None = None,
    clubs: list[ClubLine] | None = None,
) -> bytes:
    """The standings: rank, start number, name, club, DDV number (``ddv_numbers``, by entry;
    empty where unknown), the points of each round, the total, the sum of the table placings
    and the best round, with the tie-break chain written out.

    Only confirmed scoresheets count (TSR 8.5.2): a round handed in but not yet confirmed is
    shown in italics with a footnote mark and is not in the total. Withdrawn players keep their
    rank; those who have not played yet follow the ranked under a heading of their own, and
    disqualified ones (TSR 9.6.2 c) are listed last, both unranked. Landscape when there are
    more than six rounds; the header row repeats on every page. Names and headings wrap between
    words, smaller if a word is too wide, and are never cut.
    """
    ddv_numbers = ddv_numbers or {}
    footnote = ""
    if standings.provisional_rounds:
        footnote = (
            _PROVISIONAL_MARK + " " + _("provisional: handed in, not yet confirmed; not counted")
        )
    document = _CountedDocument(
        tournament=tournament,
        title=_("Standings"),
        progress=progress,
        pagesize=landscape(A4) if len(standings.rounds) > 6 else A4,
        footnote=footnote,
    )
    normal = document.styles["Normal"]
    styles = _StandingsStyles.of(normal)
    intro: list[Flowable] = [
        Paragraph(escape(_as_of(as_of)), normal),
        Paragraph(escape(tiebreak_text(standings.tiebreaks)), normal),
        Spacer(1, 4 * mm),
    ]
    if not standings.rows:
        return document.build([*intro, Paragraph(escape(_("No players yet.")), normal)])
    widths, labels = _standings_columns(document, standings, ddv_numbers, styles)
    body = _standings_body(document, standings, ddv_numbers, styles, widths)
    # LongTable lays out only the rows of the page at hand: thousands of rows stay linear.
    table = LongTable([labels, *body.rows], colWidths=widths, repeatRows=1)
    table.setStyle(_table_style(_standings_commands(len(standings.rounds), body)))
    return document.build([*intro, table, *_club_ranking(clubs, tournament, document)])


@dataclass(frozen=True)
class _StandingsStyles:
    """The paragraph styles of the standings' cells and headings."""

    cell: ParagraphStyle
    head: ParagraphStyle
    head_right: ParagraphStyle
    cell_grey: ParagraphStyle
    apart: ParagraphStyle

    @classmethod
    def of(cls, normal: PropertySet) -> "_StandingsStyles":
        cell = ParagraphStyle(
            "cell", parent=normal, fontSize=8, leading=9.5, embeddedHyphenation=0, splitLongWords=0
        )
        head = ParagraphStyle("head", parent=cell, fontName=BOLD, fontSize=7, leading=8)
        return cls(
            cell=cell,
            head=head,
            head_right=ParagraphStyle("head-right", parent=head, alignment=2),
            cell_grey=ParagraphStyle("cell-grey", parent=cell, textColor=_GREY),
            apart=ParagraphStyle("apart", parent=cell, fontName=OBLIQUE),
        )


# The standings' columns: rank, number, name, club, DDV number, then the rounds and the totals.
_FIRST_ROUND = 5


def _standings_columns(
    document: _Document,
    standings: Standings,
    ddv_numbers: Mapping[int, str],
    styles: _StandingsStyles,
) -> tuple[list[float], list[Paragraph]]:
    """The columns' widths, each as wide as the widest word of its heading at least, and their
    headings, wrapped between words."""
    rounds = standings.rounds
    head, head_right = styles.head, styles.head_right

    def needs(text: str, least: float) -> float:
        """A column as wide as the widest word of its heading (and at least ``least``)."""
        return max(least, widest_word(text, BOLD, head.fontSize) + 2 * _CELL_PADDING + 0.5)

    totals = [_("Total"), _("Placings"), _("Best round")]
    ddv_label = _("DDV no.")
    ddv_width = needs(ddv_label, 12 * mm)
    if ddv_numbers:
        longest = max(stringWidth(number, REGULAR, 8) for number in ddv_numbers.values())
        ddv_width = max(ddv_width, longest + 2 * _CELL_PADDING + 0.5)
    largest = max(len(standings.rows), *(row.entrant.start_number for row in standings.rows))
    widths = _standings_widths(
        document.template.width - 2 * _PADDING,
        len(rounds),
        digits=len(str(largest)),
        ddv=ddv_width,
        totals=[needs(totals[0], 13 * mm), needs(totals[1], 14 * mm), needs(totals[2], 13 * mm)],
    )
    headings = [
        (_("Rank"), head_right),
        (_("No."), head_right),
        (_("Name"), head),
        (_("Club"), head),
        (ddv_label, head),
        # Translators: the heading of a round's column in the standings, e.g. "R3"; keep short.
        *[(_("R%(number)s") % {"number": n}, head_right) for n in rounds],
        *[(text, head_right) for text in totals],
    ]
    labels = [
        words_paragraph(text, style, width - 2 * _CELL_PADDING)
        for (text, style), width in zip(headings, widths, strict=True)
    ]
    return widths, labels


@dataclass
class _StandingsBody:
    """The standings' rows beneath the heading, and which of their lines (counted from the
    heading, 0) are drawn apart."""

    rows: list[list] = field(default_factory=list)
    provisional_cells: list[tuple[int, int]] = field(default_factory=list)  # (column, line)
    greyed: list[int] = field(default_factory=list)
    spanned: list[int] = field(default_factory=list)


def _standings_body(
    document: _Document,
    standings: Standings,
    ddv_numbers: Mapping[int, str],
    styles: _StandingsStyles,
    widths: list[float],
) -> _StandingsBody:
    """A line per player, in the order of the standings, with a heading before those who have
    not played yet; provisional rounds marked, withdrawn and disqualified players in grey."""
    marks = {
        Status.WITHDRAWN: " (" + _("withdrawn") + ")",
        Status.DISQUALIFIED: " (" + _("disqualified") + ")",
    }
    body = _StandingsBody()
    line = 0
    for row in document.stepping(list(standings.rows)):
        entrant = row.entrant
        if row.not_played and not body.spanned:
            # Those who have not played yet, apart: their 0 points rank nobody (issue 32).
            line += 1
            body.spanned.append(line)
            text = _("Has not played yet: not ranked until a round of theirs is confirmed")
            body.rows.append([words_paragraph(text, styles.apart, sum(widths) - 2 * _CELL_PADDING)])
            body.rows[-1] += [""] * (len(widths) - 1)
        line += 1
        # Withdrawn and disqualified players in grey: their line no longer changes.
        active = entrant.status == Status.ACTIVE and not row.not_played
        style = styles.cell if active else styles.cell_grey
        cells: list = [
            str(row.rank) if row.rank is not None else "–",
            str(entrant.start_number),
            _fitted(entrant.name + marks.get(entrant.status, ""), widths[2], style),
            _fitted(entrant.club, widths[3], style),
            ddv_numbers.get(entrant.entry_id, ""),
        ]
        for column, result in enumerate(row.results, start=_FIRST_ROUND):
            if result is None:
                cells.append("")
            elif result.confirmed:
                cells.append(str(result.points))
            else:
                cells.append(f"{result.points}{_PROVISIONAL_MARK}")
                body.provisional_cells.append((column, line))
        cells += [
            str(row.points),
            str(row.placings),
            str(row.best_round) if row.best_round is not None else "–",
        ]
        body.rows.append(cells)
        if entrant.status != Status.ACTIVE or row.not_played:
            body.greyed.append(line)
    return body


def _standings_commands(rounds: int, body: _StandingsBody) -> list[tuple]:
    """The table's style: the total in bold, numbers to the right, lines and zebra stripes,
    provisional rounds in italics (TSR 8.5.2), grey lines, and the spanned heading."""
    total_column = _FIRST_ROUND + rounds
    commands: list[tuple] = [
        ("FONT", (0, 0), (-1, -1), REGULAR, 8),
        ("FONT", (total_column, 1), (total_column, -1), BOLD, 8),
        ("ALIGN", (0, 0), (1, -1), "RIGHT"),
        ("ALIGN", (_FIRST_ROUND, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.grey),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), _ZEBRA),
        ("LEFTPADDING", (0, 0), (-1, -1), _CELL_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), _CELL_PADDING),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
    ]
    commands += [
        ("FONT", (column, line), (column, line), OBLIQUE, 8)
        for column, line in body.provisional_cells
    ]
    commands += [("TEXTCOLOR", (0, line), (-1, line), _GREY) for line in body.greyed]
    for line in body.spanned:
        commands += [
            ("SPAN", (0, line), (-1, line)),
            ("BACKGROUND", (0, line), (-1, line), _HEADER_GREY),
            ("TOPPADDING", (0, line), (-1, line), 4),
        ]
    return commands


def _club_ranking(
    clubs: list[ClubLine] | None, tournament: Tournament, document: _Document
) -> list[Flowable]:
    """The club ranking below the standings (``selectors.club_ranking_of``): rank, club, the
    players counted with their points, the sum; clubs with too few players unranked, last."""
    if clubs is None:
        return []
    normal = document.styles["Normal"]
    heading = ParagraphStyle("clubs", parent=normal, fontName=BOLD, fontSize=12, leading=15)
    cell = ParagraphStyle("club-cell", parent=normal, fontSize=9, leading=11)
    small = ParagraphStyle("club-players", parent=cell, fontSize=7.5, leading=9, textColor=_GREY)
    count = tournament.club_ranking_players or 0
    about = ngettext(
        "Each club's best player counts.",
        "The points of each club's best %(count)s players, summed; clubs with fewer players "
        "follow unranked.",
        count,
    ) % {"count": count}
    story: list[Flowable] = [
        Spacer(1, 8 * mm),
        Paragraph(escape(_("Club ranking")), heading),
        Paragraph(escape(about), normal),
        Spacer(1, 2 * mm),
    ]
    if not clubs:
        return [*story, Paragraph(escape(_("No club has a ranked player yet.")), normal)]
    room = document.template.width - 2 * _PADDING - 36 * mm - 2 * _TABLE_PADDING
    rows: list[list] = [[_("Rank"), _("Club"), _("Points")]]
    for line in clubs:
        club = line.club
        if not line.complete:
            club += (
                " ("
                + ngettext(
                    "not ranked: %(count)d of %(needed)d players",
                    "not ranked: %(count)d of %(needed)d players",
                    count,
                )
                % {
                    "count": line.members,
                    "needed": count,
                }
                + ")"
            )
        players = ", ".join(f"{name} ({points})" for name, points in line.players)
        rows.append(
            [
                str(line.rank) if line.rank is not None else "–",
                [words_paragraph(club, cell, room), words_paragraph(players, small, room)],
                str(line.points),
            ]
        )
    table = Table(rows, colWidths=[14 * mm, None, 22 * mm], repeatRows=1, hAlign="LEFT")
    table.setStyle(
        _table_style(
            [
                ("FONT", (0, 0), (-1, 0), BOLD, 8),
                ("FONT", (2, 1), (2, -1), BOLD, 10),
                ("ALIGN", (0, 0), (0, -1), "RIGHT"),
                ("ALIGN", (2, 0), (2, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.grey),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), _ZEBRA),
            ]
        )
    )
    return [*story, table]


def _sheet_status(table: ResultTable) -> tuple[str, colors.Color]:
    """What the table's sheet counts for (TSR 8.5.2), and the shade of its heading."""
    if table.confirmed:
        return _("confirmed"), _HEADER_GREY
    if table.provisional:
        return _("provisional"), _PROVISIONAL_SHADE
    return _("not handed in"), _MISSING_SHADE


def round_results_pdf(
    *, tournament: Tournament, round: Round, tables: list[ResultTable], progress: Progress
) -> bytes:
    """The results of a round table by table: each player in seat order with start number,
    name, the points of the round, the placing at the table, the initialled penalty points
    (TSR 8.2.2) and points deducted (TSR 9.6.2 b) where there are any, and whether the sheet
    is confirmed, provisional (handed in, not counted yet; TSR 8.5.2) or not handed in."""
    document = _CountedDocument(
        tournament=tournament,
        title=_("Results, round %(number)s") % {"number": round.number},
        progress=progress,
    )
    if not tables:
        return document.build([])
    styles = document.styles
    heading = ParagraphStyle(
        "heading", parent=styles["Normal"], fontName=BOLD, fontSize=12, leading=15
    )
    name = ParagraphStyle(
        "name", parent=styles["Normal"], fontSize=10, leading=12, embeddedHyphenation=2
    )
    club = _club_style(name, 8)
    story: list[Flowable] = [
        Paragraph(escape(_results_summary(tables)), styles["Normal"]),
        Paragraph(
            escape(_("Only confirmed scoresheets count in the standings.")), styles["Normal"]
        ),
        Spacer(1, 5 * mm),
    ]
    name_room = document.template.width - 2 * _PADDING - 101 * mm - 2 * _TABLE_PADDING
    labels = [
        _("Seat"),
        _("No."),
        _("Name"),
        _("Points"),
        _("Placing"),
        _("Penalty points"),
        _("Deducted"),
    ]
    for table in document.stepping(tables):
        status, shade = _sheet_status(table)
        title = f"{escape(_table_title(table.number))} · {escape(status)}"
        if kind := table_kind(len(table.seats)):
            title += f' <font size="9">– {escape(kind)}</font>'
        rows: list[list] = [[Paragraph(title, heading), *[""] * 6], labels]
        for seat in table.seats:
            player: list[Flowable] = [words_paragraph(seat.name, name, name_room)]
            if seat.club:
                player.append(words_paragraph(seat.club, club, name_room))
            rows.append(
                [
                    str(seat.position),
                    str(seat.start_number),
                    player,
                    str(seat.points) if seat.points is not None else "–",
                    str(seat.placing) if seat.placing is not None else "–",
                    f"{seat.penalty:+d}" if seat.penalty else "",
                    str(seat.deducted) if seat.deducted else "",
                ]
            )
        story.append(KeepTogether([_result_block(rows, shade), Spacer(1, 5 * mm)]))
    return document.build(story)


def _results_summary(tables: list[ResultTable]) -> str:
    """How many of the round's sheets are confirmed, provisional and not handed in."""
    confirmed = sum(1 for table in tables if table.confirmed)
    provisional = sum(1 for table in tables if table.provisional)
    return _(
        "Confirmed: %(confirmed)s · provisional: %(provisional)s · not handed in: %(missing)s"
    ) % {
        "confirmed": confirmed,
        "provisional": provisional,
        "missing": len(tables) - confirmed - provisional,
    }


def _result_block(rows: list[list], shade: colors.Color) -> Table:
    """A table's block of results: its heading shaded as its sheet counts, the labels, and a
    line per seat."""
    block = Table(
        rows,
        colWidths=[11 * mm, 12 * mm, None, 18 * mm, 16 * mm, 24 * mm, 20 * mm],
        hAlign="LEFT",
    )
    block.setStyle(
        _table_style(
            [
                ("SPAN", (0, 0), (-1, 0)),
                ("BACKGROUND", (0, 0), (-1, 0), shade),
                ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                ("FONT", (0, 1), (-1, 1), REGULAR, 7),
                ("TEXTCOLOR", (0, 1), (-1, 1), _GREY),
                ("FONT", (0, 2), (0, -1), BOLD, 11),
                ("FONTSIZE", (1, 2), (1, -1), 10),
                ("FONT", (3, 2), (3, -1), BOLD, 11),
                ("FONTSIZE", (4, 2), (-1, -1), 10),
                ("ALIGN", (0, 1), (1, -1), "CENTER"),
                ("ALIGN", (3, 1), (-1, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LINEBELOW", (0, 2), (-1, -2), 0.25, colors.grey),
                ("TOPPADDING", (0, 1), (-1, 1), 0),
                ("BOTTOMPADDING", (0, 1), (-1, 1), 1),
            ]
        )
    )
    return block
