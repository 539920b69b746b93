"""Helpers of the printing tests."""

import io

from pypdf import PdfReader

from tournaments import qr, selectors
from tournaments.models import Entry, Player, Table


def unsaved_tables(*sizes: int) -> list[selectors.TableRow]:
    """Tables of the given sizes, built in memory: many of them without drawing a seating."""
    tables, start_number = [], 0
    for number, size in enumerate(sizes, start=1):
        seats = []
        for position in range(1, size + 1):
            start_number += 1
            player = Player(first_name=f"Vorname{start_number}", last_name=f"Name{start_number}")
            entry = Entry(
                player=player,
                first_name=player.first_name,
                last_name=player.last_name,
                start_number=start_number,
            )
            seats.append(selectors.SeatRow(position=position, entry=entry, points=None))
        tables.append(selectors.TableRow(table=Table(number=number), seats=seats))
    return tables


def pages_of(content: bytes) -> list[str]:
    """The text of each page of a PDF."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def words_of(content: bytes) -> str:
    """The text with every run of white space one space: a long line may take two."""
    return " ".join("\n".join(pages_of(content)).split())


def operators_of(content: bytes) -> str:
    """The drawing instructions of every page, one text."""
    return "\n".join(
        page.get_contents().get_data().decode("latin-1")
        for page in PdfReader(io.BytesIO(content)).pages
    )


def qr_drawn(operators: str, url: str) -> bool:
    """Whether the drawing instructions draw the QR code of ``url`` (its runs, as tournaments.qr
    makes them): the very symbol a phone reads back as ``url``."""
    return qr.pdf_operators(qr.qr_rows(url)) in operators
