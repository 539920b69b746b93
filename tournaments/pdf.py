"""PDF documents for organisers, drawn with ReportLab."""

import io
from collections.abc import Callable
from xml.sax.saxutils import escape

from django.utils import formats
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from tournaments.models import Entry, Tournament

Progress = Callable[[int], None]


def entry_list_pdf(*, tournament: Tournament, entries: list[Entry], progress: Progress) -> bytes:
    """The list of players for the check-in desk: start number, name, club, DDV number, and a
    column to sign in."""
    styles = getSampleStyleSheet()
    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        title=f"{_('List of players')} – {tournament.name}",
        author=tournament.name,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=15 * mm,
    )
    dates = formats.date_format(tournament.starts_on, "DATE_FORMAT")
    if tournament.ends_on != tournament.starts_on:
        dates += " – " + formats.date_format(tournament.ends_on, "DATE_FORMAT")
    story = [
        Paragraph(escape(f"{_('List of players')}: {tournament.name}"), styles["Title"]),
        Paragraph(
            escape(", ".join(part for part in [dates, tournament.venue] if part)), styles["Normal"]
        ),
        Spacer(1, 6 * mm),
    ]
    cell = ParagraphStyle("cell", parent=styles["Normal"], fontSize=9, leading=11)
    rows = [[_("No."), _("Name"), _("Club"), _("DDV no."), _("Status"), _("Signature")]]
    step = max(len(entries) // 20, 1)
    for index, entry in enumerate(entries, start=1):
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
        if index % step == 0:
            progress(min(90, 90 * index // len(entries)))
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
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f2f2f2")]),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("BOTTOMPADDING", (0, 1), (-1, -1), 5),
                ("TOPPADDING", (0, 1), (-1, -1), 5),
            ]
        )
    )
    story.append(table)
    document.build(story)
    return buffer.getvalue()
