"""Helpers of the printing tests."""

from tournaments import selectors
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
