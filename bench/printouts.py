"""The printouts of a round (issue 4), each against a document of the same number of blank pages
drawn by ReportLab alone, in turn with it 5 times (bench.figures): for the 148 players of a
German championship at 37 tables, built in memory (the documents alone), in the thread's
processor time; and for round 10 of the run's synthetic tournament (bench.tournament: 500
tables, 2,000 players, in the run's database) as the job's worker builds them, the round read
from the database first, in wall time, as the database works for them too."""

import datetime
import io
import time

from pypdf import PdfReader
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from bench.figures import Figure, alternate, timer
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


def _in_turn_ms(build, baseline, *, cpu: bool) -> tuple[int, list[tuple[float, float]]]:
    """A document's pages, and the document built in turn with its baseline 5 times (ms per
    document; in the thread's processor time with ``cpu``, for a document built in memory):
    one call a run when a build takes a twentieth of a second or more, else the better of two
    runs of about a tenth of a second; the first build, for the pages, warms up."""
    start = time.perf_counter()
    pages = len(PdfReader(io.BytesIO(build())).pages)
    took = time.perf_counter() - start
    if took >= 0.05:
        measure = timer(build, number=1, best_of=1, cpu=cpu)
    else:
        measure = timer(build, seconds=0.2, best_of=2, cpu=cpu)
    pairs = alternate(timer(lambda: baseline(pages), cpu=cpu), [measure], pairs=5)[0]
    return pages, [(value / 1000, base / 1000) for value, base in pairs]


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

        pages, pairs = _in_turn_ms(build, blank, cpu=True)
        results.append(
            Figure.paired(
                f"{name}, {TABLES} tables ({pages} pages)",
                pairs,
                f"{pages} blank pages",
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
        pages, pairs = _in_turn_ms(build, blank, cpu=False)
        results.append(
            Figure.paired(
                f"{name}, round {ROUNDS}: {tables} tables from the database ({pages} pages)",
                pairs,
                f"{pages} blank pages",
                "ms",
            )
        )
    return results
