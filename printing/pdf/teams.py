"""PDF documents of team competitions, drawn with ReportLab as the other lists are: a match
day's line-up sheets (a page per group: each team's players by round and place, its captain,
and the group's tables round by round) and a competition's season table (match points with ½,
promotion and relegation marked, with a legend)."""

import datetime
import io
from xml.sax.saxutils import escape

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
)

from printing.pdf import fonts
from printing.pdf.fonts import BOLD, OBLIQUE, REGULAR
from printing.pdf.lists import (
    _GREY,
    _MARGIN,
    _PADDING,
    _TABLE_PADDING,
    _ZEBRA,
    _table_style,
    tournament_dates,
    words_paragraph,
)
from printing.selectors import SheetGroup, SheetTable, SheetTeam
from teams.display import match_points_text
from teams.models import Competition, MatchDay
from teams.selectors import PlanView, SeasonLine

_HEADER_GREY = colors.HexColor("#dddddd")
_PROMOTION = colors.HexColor("#d9ead3")
_RELEGATION = colors.HexColor("#f4cccc")
# The marks of the zones, in the table and in its legend (DejaVu Sans has them).
PROMOTION_MARK = "▲"
RELEGATION_MARK = "▼"


class _TeamDocument:
    """An A4 document in one column with a heading (``title``, ``subtitle``) and a footer with
    the page number: the team printouts' frame, as ``lists._Document`` is the tournaments'."""

    def __init__(self, *, title: str, name: str, subtitle: str) -> None:
        self.title = title
        self.name = name
        self.subtitle = subtitle
        self.styles = fonts.stylesheet()
        self._buffer = io.BytesIO()
        self.template = BaseDocTemplate(
            self._buffer,
            pagesize=A4,
            title=f"{title} – {name}",
            author=name,
            leftMargin=_MARGIN,
            rightMargin=_MARGIN,
            topMargin=_MARGIN,
            bottomMargin=_MARGIN,
            initialFontName=REGULAR,
        )

    @property
    def room(self) -> float:
        """The width a table may take."""
        return self.template.width - 2 * _PADDING

    def header(self) -> list[Flowable]:
        parts: list[Flowable] = [
            Paragraph(escape(f"{self.title}: {self.name}"), self.styles["Title"])
        ]
        if self.subtitle:
            parts.append(Paragraph(escape(self.subtitle), self.styles["Normal"]))
        return [*parts, Spacer(1, 5 * mm)]

    def build(self, story: list[Flowable]) -> bytes:
        doc = self.template
        doc.addPageTemplates(
            PageTemplate(
                id="list",
                frames=[Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height)],
                onPage=self._footer,
            )
        )
        doc.build([*self.header(), *story])
        return self._buffer.getvalue()

    def _footer(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont(REGULAR, 8)
        canvas.setFillColor(_GREY)
        canvas.drawString(doc.leftMargin, 8 * mm, f"{self.title} – {self.name}")
        canvas.drawRightString(
            doc.leftMargin + doc.width,
            8 * mm,
            _("Page %(number)s") % {"number": canvas.getPageNumber()},
        )
        canvas.restoreState()


def _as_of(when: datetime.datetime | None) -> str:
    moment = timezone.localtime(when or timezone.now())
    return _("As of %(when)s") % {"when": formats.date_format(moment, "DATETIME_FORMAT")}


# The line-up sheets of a match day -------------------------------------------------------------


def _team_block(team: SheetTeam, document: _TeamDocument) -> Flowable:
    """A team: its name and club, its captain and players, and who plays each place in each
    round."""
    styles = document.styles
    heading = ParagraphStyle(
        "team", parent=styles["Normal"], fontName=BOLD, fontSize=12, leading=15
    )
    small = ParagraphStyle("small", parent=styles["Normal"], fontSize=8, leading=10)
    cell = ParagraphStyle(
        "cell", parent=styles["Normal"], fontSize=8.5, leading=10, embeddedHyphenation=2
    )
    title = escape(team.name)
    if team.club:
        title += f' <font size="9" color="#555555">· {escape(team.club)}</font>'
    about: list[str] = []
    if team.captain:
        about.append(_("Captain: %(name)s") % {"name": team.captain})
    if team.players:
        about.append(_("Players: %(names)s") % {"names": ", ".join(team.players)})
    round_width = 13 * mm
    place_width = (document.room - round_width) / 4
    rows: list[list] = [[_("Round")] + [_("Place %(number)s") % {"number": n} for n in range(1, 5)]]
    for number, names in team.rounds:
        rows.append(
            [
                str(number),
                *[words_paragraph(name, cell, place_width - 6) if name else "–" for name in names],
            ]
        )
    table = Table(rows, colWidths=[round_width, *[place_width] * 4], hAlign="LEFT")
    table.setStyle(
        _table_style(
            [
                ("FONT", (0, 0), (-1, 0), BOLD, 8),
                ("BACKGROUND", (0, 0), (-1, 0), _HEADER_GREY),
                ("FONT", (0, 1), (0, -1), BOLD, 10),
                ("ALIGN", (0, 0), (0, -1), "CENTER"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                ("LINEBELOW", (0, 1), (-1, -2), 0.25, colors.grey),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), _ZEBRA),
                ("LEFTPADDING", (0, 0), (-1, -1), 3),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
            ]
        )
    )
    parts: list[Flowable] = [Paragraph(title, heading)]
    parts += [words_paragraph(line, small, document.room) for line in about]
    return KeepTogether([*parts, Spacer(1, 1 * mm), table, Spacer(1, 4 * mm)])


def _tables_block(number: int, tables: tuple[SheetTable, ...], document: _TeamDocument) -> Flowable:
    """A round's tables of the group: each table's seats 1-4, the player and the team."""
    styles = document.styles
    heading = ParagraphStyle(
        "round", parent=styles["Normal"], fontName=BOLD, fontSize=11, leading=14
    )
    name = ParagraphStyle(
        "name", parent=styles["Normal"], fontSize=9, leading=11, embeddedHyphenation=2
    )
    team = ParagraphStyle(
        "team-name", parent=name, fontSize=7.5, leading=9, textColor=_GREY, fontName=OBLIQUE
    )
    table_width = 16 * mm
    seats = max((len(table.seats) for table in tables), default=4)
    seat_width = (document.room - table_width) / max(seats, 4)
    room = seat_width - 2 * _TABLE_PADDING
    rows: list[list] = [
        [_("Table")]
        + [_("Seat %(position)s") % {"position": n} for n in range(1, max(seats, 4) + 1)]
    ]
    for table in tables:
        cells: list = [str(table.number)]
        for seat in table.seats:
            cell: list[Flowable] = [words_paragraph(seat.name, name, room)]
            if seat.team:
                cell.append(words_paragraph(seat.team, team, room))
            cells.append(cell)
        cells += [""] * (len(rows[0]) - len(cells))
        rows.append(cells)
    block = Table(rows, colWidths=[table_width, *[seat_width] * (len(rows[0]) - 1)], hAlign="LEFT")
    block.setStyle(
        _table_style(
            [
                ("FONT", (0, 0), (-1, 0), BOLD, 8),
                ("BACKGROUND", (0, 0), (-1, 0), _HEADER_GREY),
                ("FONT", (0, 1), (0, -1), BOLD, 12),
                ("ALIGN", (0, 0), (0, -1), "CENTER"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                ("LINEBELOW", (0, 1), (-1, -2), 0.25, colors.grey),
            ]
        )
    )
    title = _("Round %(number)s: tables") % {"number": number}
    return KeepTogether([Paragraph(escape(title), heading), block, Spacer(1, 4 * mm)])


def line_up_sheets_pdf(*, match_day: MatchDay, groups: list[SheetGroup]) -> bytes:
    """The line-up sheets of a match day, a page (or more) per group: each team with its
    captain and players and who plays each place in each round; then, for every round drawn,
    the group's tables with the player and team in each seat."""
    tournament = match_day.tournament
    where = ", ".join(part for part in [tournament_dates(tournament), tournament.venue] if part)
    document = _TeamDocument(title=_("Line-ups"), name=tournament.name, subtitle=where)
    styles = document.styles
    group_heading = ParagraphStyle("group", parent=styles["Heading2"], fontName=BOLD, spaceBefore=0)
    story: list[Flowable] = []
    if not groups:
        story.append(Paragraph(escape(_("This match day has no groups yet.")), styles["Normal"]))
    for group in groups:
        if story:
            story.append(PageBreak())
        label = (
            _("Tie %(number)s")
            if match_day.stage == MatchDay.Stage.KNOCKOUT
            else _("Group %(number)s")
        ) % {"number": group.number}
        story.append(Paragraph(escape(label), group_heading))
        story += [_team_block(team, document) for team in group.teams]
        if not group.rounds:
            message = _("The tables are drawn with the first round; they follow here then.")
            story.append(Paragraph(escape(message), styles["Normal"]))
        story += [_tables_block(number, tables, document) for number, tables in group.rounds]
    return document.build(story)


# The season table ------------------------------------------------------------------------------


def season_table_pdf(
    *,
    competition: Competition,
    lines: list[SeasonLine],
    provisional: list[int],
    as_of: datetime.datetime | None = None,
) -> bytes:
    """The season table: rank, team and club, match points (with ½), summed game points; the
    promotion places marked ▲ and shaded green, the relegation places ▼ and red, explained in a
    legend below with the tie-breaks. ``provisional``: the numbers of the match days whose
    sheets are not all confirmed yet (the table counts them once they are)."""
    subtitle = " · ".join(part for part in [competition.season, competition.club] if part)
    document = _TeamDocument(title=_("Season table"), name=competition.name, subtitle=subtitle)
    styles = document.styles
    normal = styles["Normal"]
    cell = ParagraphStyle("cell", parent=normal, fontSize=10, leading=12, embeddedHyphenation=2)
    club = ParagraphStyle("club", parent=cell, fontSize=8, leading=10, textColor=_GREY)
    story: list[Flowable] = [Paragraph(escape(_as_of(as_of)), normal)]
    if provisional:
        note = ngettext(
            "Not counted yet: match day %(numbers)s, until every scoresheet of it is confirmed.",
            "Not counted yet: match days %(numbers)s, until every scoresheet of them is confirmed.",
            len(provisional),
        ) % {"numbers": ", ".join(str(number) for number in provisional)}
        story.append(Paragraph(escape(note), normal))
    story.append(Spacer(1, 4 * mm))
    if not lines:
        story.append(Paragraph(escape(_("No teams yet.")), normal))
        return document.build(story)
    table = _season_table(lines, cell=cell, club=club, room=document.room)
    story += [table, Spacer(1, 4 * mm)]
    story += [Paragraph(escape(text), normal) for text in _season_legend(competition, lines)]
    return document.build(story)


def _season_table(
    lines: list[SeasonLine], *, cell: ParagraphStyle, club: ParagraphStyle, room: float
) -> Table:
    """The table of the teams: a line per team, its zone marked and shaded, a strong line
    between the zones and the rest, as a league table draws it."""
    widths = [8 * mm, 14 * mm, None, 28 * mm, 28 * mm]
    team_room = room - sum(w for w in widths if w) - 2 * _TABLE_PADDING
    rows: list[list] = [["", _("Rank"), _("Team"), _("Match points"), _("Game points")]]
    commands: list[tuple] = [
        ("FONT", (0, 0), (-1, 0), BOLD, 9),
        ("FONTSIZE", (0, 1), (-1, -1), 11),
        ("FONT", (3, 1), (3, -1), BOLD, 12),
        ("ALIGN", (0, 0), (1, -1), "CENTER"),
        ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.grey),
    ]
    for index, line in enumerate(lines, start=1):
        team: list[Flowable] = [words_paragraph(line.team.name, cell, team_room)]
        if line.team.club:
            team.append(words_paragraph(line.team.club, club, team_room))
        mark = {"promotion": PROMOTION_MARK, "relegation": RELEGATION_MARK}.get(line.zone, "")
        rows.append(
            [
                mark,
                f"{line.rank}." if not line.shared else f"({line.rank}.)",
                team,
                match_points_text(line.match_points),
                str(line.game_points),
            ]
        )
        if line.zone:
            shade = _PROMOTION if line.zone == "promotion" else _RELEGATION
            commands.append(("BACKGROUND", (0, index), (-1, index), shade))
        # A line between the zones and the rest, as a league table draws it.
        if index < len(lines) and lines[index].zone != line.zone:
            commands.append(("LINEBELOW", (0, index), (-1, index), 1.2, colors.black))
    table = Table(rows, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(_table_style(commands))
    return table


def _season_legend(competition: Competition, lines: list[SeasonLine]) -> list[str]:
    """The legend below the table: the zones' marks, a shared rank, the tie-breaks and how match
    points are given."""
    legend: list[str] = []
    if competition.promotion_places:
        legend.append(
            f"{PROMOTION_MARK} "
            + _("promotion place (the top %(count)s)") % {"count": competition.promotion_places}
        )
    if competition.relegation_places:
        legend.append(
            f"{RELEGATION_MARK} "
            + _("relegation place (the bottom %(count)s)")
            % {"count": competition.relegation_places}
        )
    if any(line.shared for line in lines):
        legend.append(_("(2.) a rank shared: no tie-break tells the teams apart"))
    legend.append(
        _("Ranked by match points, then: %(tiebreaks)s.")
        % {"tiebreaks": competition.get_tiebreaks_display()}
    )
    legend.append(
        _("Match points per group and match day: 4, 3, 2, 1 by the summed game points; %(ties)s.")
        % {"ties": competition.get_ties_display()}
    )
    return legend


# The season plan -------------------------------------------------------------------------------


def season_plan_pdf(*, competition: Competition, plan: PlanView) -> bytes:
    """A league's season plan: a table of match days by groups with each group's teams, the
    statement how evenly the pairs meet, and the matrix of how often each pair meets (teams
    numbered, the matrix on the same numbers)."""
    subtitle = " · ".join(part for part in [competition.season, competition.club] if part)
    document = _TeamDocument(title=_("Season plan"), name=competition.name, subtitle=subtitle)
    styles = document.styles
    normal = styles["Normal"]
    cell = ParagraphStyle("cell", parent=normal, fontSize=8.5, leading=10, embeddedHyphenation=2)
    story: list[Flowable] = [Paragraph(escape(_plan_statement(plan)), normal), Spacer(1, 4 * mm)]
    groups = max((len(day.groups) for day in plan.days), default=0)
    if groups:
        day_width = 14 * mm
        group_width = (document.room - day_width) / groups
        rows: list[list] = [
            [_("Match day")] + [_("Group %(number)s") % {"number": n} for n in range(1, groups + 1)]
        ]
        for day in plan.days:
            rows.append(
                [
                    str(day.number),
                    *[
                        [words_paragraph(team.name, cell, group_width - 6) for team in teams]
                        for _number, teams in day.groups
                    ],
                ]
            )
        table = Table(rows, colWidths=[day_width, *[group_width] * groups], repeatRows=1)
        table.setStyle(
            _table_style(
                [
                    ("FONT", (0, 0), (-1, 0), BOLD, 8),
                    ("BACKGROUND", (0, 0), (-1, 0), _HEADER_GREY),
                    ("FONT", (0, 1), (0, -1), BOLD, 11),
                    ("ALIGN", (0, 0), (0, -1), "CENTER"),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                    ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                ]
            )
        )
        story += [table, Spacer(1, 6 * mm)]
    if plan.teams:
        story.append(Paragraph(escape(_("How often each pair of teams meets")), styles["Heading2"]))
        count = len(plan.teams)
        name_width = min(55 * mm, document.room / 3)
        width = (document.room - name_width) / count
        size = min(8.0, max(4.5, width / mm * 1.6))
        rows = [[""] + [str(n) for n in range(1, count + 1)]]
        for number, (team, meetings) in enumerate(zip(plan.teams, plan.matrix, strict=True), 1):
            rows.append(
                [f"{number}. {team.name}"]
                + ["–" if value is None else str(value) for value in meetings]
            )
        matrix = Table(rows, colWidths=[name_width, *[width] * count], repeatRows=1)
        commands: list[tuple] = [
            ("FONT", (0, 0), (-1, -1), REGULAR, size),
            ("FONT", (0, 0), (-1, 0), BOLD, size),
            ("ALIGN", (1, 0), (-1, -1), "CENTER"),
            ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
            ("LEFTPADDING", (0, 0), (-1, -1), 1),
            ("RIGHTPADDING", (0, 0), (-1, -1), 1),
        ]
        for i in range(count):
            commands.append(("BACKGROUND", (i + 1, i + 1), (i + 1, i + 1), _HEADER_GREY))
        matrix.setStyle(_table_style(commands))
        story.append(matrix)
    return document.build(story)


def _plan_statement(plan: PlanView) -> str:
    if plan.every_pair_once:
        text = _("Every team meets every other team exactly once.")
    elif plan.most <= plan.least_most:
        text = ngettext(
            "No two teams meet more than once; no plan of this field does better.",
            "No two teams meet more than %(most)s times; no plan of this field does better.",
            plan.most,
        ) % {"most": plan.most}
    else:
        text = ngettext(
            "No two teams meet more than once.",
            "No two teams meet more than %(most)s times.",
            plan.most,
        ) % {"most": plan.most}
    if plan.plan.double:
        text += " " + _("Double match days: each half is scored 4, 3, 2, 1 on its own.")
    return text
