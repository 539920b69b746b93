"""The printouts of a round (issue 4), each against a document of the same number of blank pages
drawn by ReportLab alone: for the 148 players of a German championship at 37 tables, built in
memory (the documents alone); and for round 10 of the run's synthetic tournament (bench.tournament:
500 tables, 2,000 players, in the run's database) as the job's worker builds them, the round read
from the database first."""

import datetime
import io

from pypdf import PdfReader
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from bench.figures import Figure, per_call
from bench.tournament import ROUNDS, job_builder, shared
from printing.pdf import lists as pdf
from tournaments.models import Entry, Player, Table, Tournament
from tournaments.selectors import SeatRow, TableRow

TABLES = 37


def tables() -> list[TableRow]:
    """37 tables of four, built in memory (no database)."""
    rows, number = [], 0
    for table in range(1, TABLES + 1):
        seats = []
        for position in range(1, 5):
            number += 1
            player = Player(
                first_name=f"Vorname{number}", last_name=f"Müller-{number}", club="Club"
            )
            seats.append(
                SeatRow(
                    position=position,
                    entry=Entry(
                        player=player,
                        first_name=player.first_name,
                        last_name=player.last_name,
                        club=player.club,
                        start_number=number,
                    ),
                    points=None,
                )
            )
        rows.append(TableRow(table=Table(number=table), seats=seats))
    return rows


def blank(pages: int) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    for page in range(pages):
        canvas.drawString(100, 100, str(page + 1))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def figures() -> list[Figure]:
    return [*in_memory(), *from_database()]


def in_memory() -> list[Figure]:
    tournament = Tournament(
        name="Deutsche Meisterschaft",
        starts_on=datetime.date(2026, 11, 21),
        ends_on=datetime.date(2026, 11, 22),
        slug="dm",
    )
    rows = tables()
    results = []
    printouts = [
        ("seating by table", pdf.seating_by_table_pdf, {}),
        ("seating by name", pdf.seating_alphabetical_pdf, {}),
        (
            "table cards with QR codes",
            pdf.table_cards_pdf,
            {
                "url_for_table": lambda n: (
                    f"http://127.0.0.1:8000/tournaments/dm/rounds/1/tables/{n}/"
                )
            },
        ),
    ]
    for name, function, options in printouts:

        def build(function=function, options=options):
            return function(
                tournament=tournament,
                round_number=1,
                tables=rows,
                progress=lambda _p: None,
                **options,
            )

        pages = len(PdfReader(io.BytesIO(build())).pages)
        took = per_call(build, repeat=3, budget=1.0)
        base = per_call(lambda pages=pages: blank(pages), repeat=3, budget=0.5)
        results.append(
            Figure(
                f"{name}, {TABLES} tables ({pages} pages)",
                took / 1000,
                f"{pages} blank pages",
                base / 1000,
                "ms",
            )
        )
    return results


def from_database() -> list[Figure]:
    from printing.models import Job

    tables = shared().per_round
    results = []
    for name, kind in (
        ("seating by table", Job.Kind.SEATING_BY_TABLE_PDF),
        ("seating by name", Job.Kind.SEATING_ALPHABETICAL_PDF),
        ("table cards with QR codes", Job.Kind.TABLE_CARDS_PDF),
    ):
        build = job_builder(kind, round_number=ROUNDS, site="http://127.0.0.1:8000/")
        pages = len(PdfReader(io.BytesIO(build())).pages)
        took = per_call(build, repeat=3, budget=1.0)
        base = per_call(lambda pages=pages: blank(pages), repeat=3, budget=0.5)
        results.append(
            Figure(
                f"{name}, round {ROUNDS}: {tables} tables from the database ({pages} pages)",
                took / 1000,
                f"{pages} blank pages",
                base / 1000,
                "ms",
            )
        )
    return results
