"""Blank scoresheets for a round of 500 tables (issue 5: under 3 s on this 2-core machine),
against ReportLab drawing the same number of pages with only the static grid; the QR codes of
the scorekeepers' links against ReportLab's own encoder; and one completed sheet.

Each sheet twice: built in memory (the document alone), and as the job's worker builds it for
round 10 of the run's synthetic tournament (bench.tournament: 500 tables, every sheet confirmed,
in the run's database), reading the round or the sheet from the database first."""

import datetime
import io
import secrets

from reportlab.graphics.barcode import qrencoder
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from bench.figures import Figure, alternate, both_clocks, in_turn_with
from bench.tournament import ROUNDS, job_builder, shared
from doko.sample_sheets import full_match
from printing.pdf import scoresheets as pdf
from scoring.models import Hand, Scoresheet
from scoring.selectors import scoresheet_rows
from tournaments import qr
from tournaments.models import Entry, Player, Round, Seat, Table, Tournament
from tournaments.selectors import SeatRow, TableRow

TABLES = 500
FIVES = 20  # tables of five among them
URL = "http://192.168.178.20:8000/s/{key}/"
SITE = "http://127.0.0.1/"


def tournament() -> Tournament:
    return Tournament(
        name="Deutsche Meisterschaft",
        slug="dm",
        venue="Stadthalle Bielefeld",
        starts_on=datetime.date(2026, 11, 21),
        ends_on=datetime.date(2026, 11, 22),
    )


def tables() -> list[TableRow]:
    """500 tables, the last 20 of them of five, built in memory (no database)."""
    rows, number = [], 0
    for table in range(1, TABLES + 1):
        seats = []
        for position in range(1, (5 if table > TABLES - FIVES else 4) + 1):
            number += 1
            player = Player(
                first_name=f"Vorname{number}", last_name=f"Müller-Lüdenscheidt-{number}"
            )
            entry = Entry(
                pk=number,
                player=player,
                first_name=player.first_name,
                last_name=player.last_name,
                start_number=number,
            )
            seats.append(SeatRow(position=position, entry=entry, points=None))
        rows.append(TableRow(table=Table(number=table), seats=seats))
    return rows


def grid_only(pages: int, event: Tournament) -> bytes:
    """The baseline: the same number of A4 pages, each with only the static grid and its labels
    drawn on it, by ReportLab, no table's text, no QR code, nothing shared between pages."""
    grid = pdf._Grid.of(size=4, main=20, solos=4)  # 24 hands, compulsory solos included
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1)
    for _page in range(pages):
        pdf._draw_frame(
            canvas, tournament=event, round_number=1, grid=grid, title="Scoresheet", blank=True
        )
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def reportlab_qr(value: str) -> list:
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(value)
    code.make()
    return code.modules


def completed() -> tuple[Scoresheet, list[Seat], list]:
    event = tournament()
    table = Table(number=7, round=Round(number=3, tournament=event))
    sheet = Scoresheet(table=table, status=Scoresheet.Status.CONFIRMED)
    seats = [
        Seat(
            position=position,
            entry=Entry(
                player=Player(first_name="Vorname", last_name=f"Name{position}"),
                first_name="Vorname",
                last_name=f"Name{position}",
            ),
        )
        for position in range(1, 5)
    ]
    hands = [
        Hand(
            number=number,
            contract=line.contract,
            dealer=line.dealer,
            soloist=line.soloist,
            solo_type=line.solo_type or "",
            game_value=line.game_value,
            section="compulsory_solo" if line.contract == "compulsory_solo" else "main",
            **{f"points_{seat}": points for seat, points in line.points.items()},
        )
        for number, line in enumerate(full_match(), start=1)
    ]
    return sheet, seats, scoresheet_rows(hands=hands, table_size=4)


def figures() -> list[Figure]:
    """Each document in turn with its baseline: a round's blank sheets and a completed sheet
    built in memory and from the run's database, each two of them in turn with one baseline;
    what is built in memory in the thread's processor time, what reads the database in wall
    time."""
    from printing.models import Job

    event = tournament()
    rows = tables()
    keys = {row.seats[-1].entry.pk: secrets.token_urlsafe(24) for row in rows}

    def build() -> bytes:
        return pdf.blank_scoresheets_pdf(
            tournament=event,
            round_number=1,
            tables=rows,
            url_for_seat=lambda seat: URL.format(key=keys[seat.entry.pk]),
            progress=lambda _p: None,
        )

    # The same documents as the jobs build them from round 10 of the run's tournament, against
    # the same baselines (the run's tournament has 500 tables of four, no table of five).
    large = shared()
    tables_read = large.per_round
    assert tables_read == TABLES, tables_read
    build_read = job_builder(Job.Kind.SCORESHEETS_PDF, round_number=ROUNDS, site=SITE)
    table = large.round_tables(ROUNDS)[0]
    completed_read = job_builder(Job.Kind.SCORESHEET_PDF, round_number=ROUNDS, table=table)
    hands = table.scoresheet.hands.count()

    # A round's sheets take seconds: one call a run, 5 pairs. Each turn times the baseline once
    # on both clocks: the sheets built in memory against its processor time, those read from
    # the database (PostgreSQL works meanwhile) against its wall time.
    blank, blank_read = _split(
        alternate(
            both_clocks(lambda: grid_only(TABLES, event)),
            [both_clocks(build), both_clocks(build_read)],
            pairs=5,
        )
    )
    urls = [URL.format(key=key) for key in list(keys.values())[:50]]
    (qr_codes,) = _ms(
        in_turn_with(
            lambda: [reportlab_qr(url) for url in urls],
            [lambda: [qr.qr_rows(url) for url in urls]],
            pairs=5,
            seconds=0.2,
            best_of=2,
            cpu=True,
        ),
        per=len(urls),
    )
    sheet, seats, hand_rows = completed()
    one, one_read = _split(
        alternate(
            both_clocks(lambda: grid_only(1, event), best_of=2),
            [
                both_clocks(
                    lambda: pdf.scoresheet_pdf(
                        scoresheet=sheet, seats=seats, rows=hand_rows, progress=lambda _p: None
                    ),
                    best_of=2,
                ),
                both_clocks(completed_read, best_of=2),
            ],
            pairs=5,
        )
    )
    grid, single = f"{TABLES} pages, static grid only", "1 page, static grid only"
    return [
        Figure.paired(
            f"blank scoresheets, {TABLES} tables ({FIVES} of five) with QR codes", blank, grid, "ms"
        ),
        Figure.paired("QR code of a link (tournaments.qr)", qr_codes, "ReportLab's encoder", "ms"),
        Figure.paired("completed scoresheet, 20 hands + 4 solos", one, single, "ms"),
        Figure.paired(
            f"blank scoresheets, round {ROUNDS}: {tables_read} tables from the database, with QR "
            "codes",
            blank_read,
            grid,
            "ms",
        ),
        Figure.paired(
            f"completed scoresheet of table {table.number}, round {ROUNDS}, {hands} hands, "
            "from the database",
            one_read,
            single,
            "ms",
        ),
    ]


def _split(measured: list[list[tuple[tuple[float, float], tuple[float, float]]]]) -> list:
    """The pairs of (in memory, from the database) on both clocks, as milliseconds: the first
    in processor time, the second in wall time."""
    memory, read = measured
    return [
        [(value[1] / 1000, base[1] / 1000) for value, base in memory],
        [(value[0] / 1000, base[0] / 1000) for value, base in read],
    ]


def _ms(measured: list[list[tuple[float, float]]], per: int = 1) -> list[list[tuple[float, float]]]:
    """Pairs of microseconds per call as milliseconds per document (or per one of ``per``)."""
    return [
        [(value / per / 1000, base / per / 1000) for value, base in pairs] for pairs in measured
    ]
