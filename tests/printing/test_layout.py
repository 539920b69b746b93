"""Every printout with long German names and headings, read back as text: each name and each
heading whole, wrapped at most between words (at a space or after a hyphen), never cut short
with an ellipsis nor split inside a word (issue 32: "Kürzel (Schiedsric…", "von Bödefeld,
Marie-Lu…", "Platzieru/ngen")."""

import io
import re

import pytest
from django.utils import translation
from pypdf import PdfReader

from doko import standings
from printing.pdf import lists, scoresheets, slips
from tests import factories
from tests.printing.helpers import unsaved_tables
from tournaments import selectors
from tournaments.models import Entry, Player, Round

pytestmark = pytest.mark.django_db

# (first name, last name, club): the long names a club really has, and a longer one still, who
# deals first (every slip of her table names her).
LONG = [
    (
        "Maximiliane-Friederike Charlotte",
        "von Hohenzollern-Sigmaringen-Wittgenstein",
        "Kreuzbube Nordrhein-Westfalen",
    ),
    ("Marie-Luise", "von Bödefeld", "Doppelkopffreunde Bödefeld-Gellinghausen e. V."),
    ("Jörg", "Weißenbrunner-Schützenhöfer", ""),
]


def text_of(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def words(text: str) -> set[str]:
    """The words of ``text`` as a wrapped line may break them: at spaces, and after a hyphen
    ("Marie-Luise" is "Marie-" and "Luise" whether it wraps there or not)."""
    return set(re.findall(r"[^\s,-]+-?", text))


def assert_whole(text: str, *wanted: str) -> None:
    """Each of ``wanted`` is in ``text`` with every word whole, and nothing is cut short."""
    assert "…" not in text
    found = words(text)
    for item in wanted:
        missing = words(item) - found
        assert not missing, f"{item!r}: {sorted(missing)} cut or split"


def tables_with_long_names(*sizes: int) -> list[selectors.TableRow]:
    """The tables, the first players of the first table with the long names and clubs."""
    tables = unsaved_tables(*sizes)
    for seat, (first, last, club) in zip(tables[0].seats, LONG, strict=False):
        seat.entry.first_name, seat.entry.last_name, seat.entry.club = first, last, club
        seat.entry.player.first_name, seat.entry.player.last_name = first, last
    return tables


def long_names() -> list[str]:
    return [f"{first} {last}" for first, last, _club in LONG]


def sort_names() -> list[str]:
    return [f"{last}, {first}" for first, last, _club in LONG]


def clubs() -> list[str]:
    return [club for _first, _last, club in LONG if club]


@pytest.fixture
def tournament():
    return factories.tournament(name="Herbstturnier der Doppelkopffreunde", venue="Bödefeld")


@pytest.fixture(autouse=True)
def german():
    with translation.override("de"):
        yield


def progress(percent: int) -> None:
    pass


@pytest.mark.parametrize("size", [4, 5, 6, 7])
def test_the_blank_scoresheet_shows_headings_and_names_whole(tournament, size):
    content = scoresheets.blank_scoresheets_pdf(
        tournament=tournament,
        round_number=1,
        tables=tables_with_long_names(size),
        url_for_seat=lambda seat: f"http://doko.example/s/{seat.entry.start_number}",
        progress=progress,
    )
    text = text_of(content)
    # The column headings, the adjudicator's initials among them, and each name twice: in
    # the list of players and, last name first, above the player's column.
    assert_whole(text, "Kürzel (Schiedsrichter)", "Spielart, Solospieler", "Plus-Positionen")
    assert_whole(text, *long_names(), *sort_names())
    # The name above the column, last name first, whole (in one line or two).
    assert re.search(r"von\s+Bödefeld,\s+Marie-\s*Luise", text)


def test_the_seat_slips_show_long_names_whole(tournament):
    content = slips.seat_slips_pdf(
        tournament=tournament,
        round_number=1,
        tables=tables_with_long_names(4, 4),
        url_for_seat=lambda seat: f"http://doko.example/s/{seat.entry.start_number}",
        progress=progress,
    )
    assert_whole(text_of(content), *long_names(), *sort_names())


@pytest.mark.parametrize(
    "function",
    [lists.seating_by_table_pdf, lists.seating_alphabetical_pdf, lists.table_cards_pdf],
)
def test_the_seating_printouts_show_long_names_and_clubs_whole(tournament, function):
    content = function(
        tournament=tournament,
        round_number=1,
        tables=tables_with_long_names(4, 5, 7),
        progress=progress,
    )
    assert_whole(text_of(content), *long_names())


def test_the_list_of_players_shows_long_names_and_clubs_whole(tournament):
    entries = [
        Entry(
            player=Player(first_name=first, last_name=last, ddv_number="123456"),
            first_name=first,
            last_name=last,
            club=club,
            start_number=number,
        )
        for number, (first, last, club) in enumerate(LONG, start=1)
    ]
    content = lists.entry_list_pdf(tournament=tournament, entries=entries, progress=progress)
    assert_whole(text_of(content), *sort_names(), *clubs(), "Unterschrift")


@pytest.mark.parametrize("rounds", [3, 10])
def test_the_standings_show_long_names_and_headings_whole(tournament, rounds):
    entrants = [
        standings.Entrant(number, number, f"{first} {last}", club)
        for number, (first, last, club) in enumerate(LONG, start=1)
    ]
    results = [
        standings.RoundResult(entrant.entry_id, n, 1, 1, 10 * entrant.entry_id)
        for entrant in entrants
        for n in range(1, rounds + 1)
    ]
    table = standings.standings(entrants=entrants, results=results)
    content = lists.standings_pdf(
        tournament=tournament,
        standings=table,
        progress=progress,
        ddv_numbers={1: "0123456789"},
    )
    text = text_of(content)
    # "Platzierungen", not "Platzieru" and "ngen".
    assert_whole(text, "Rang", "Platzierungen", "Beste Runde", "DDV-Nr.", "0123456789")
    assert_whole(text, *long_names(), *clubs())


def test_the_results_of_a_round_show_long_names_and_clubs_whole(tournament):
    seats = [
        selectors.ResultSeat(
            position=position,
            start_number=position,
            name=f"{first} {last}",
            club=club,
            points=10,
            penalty=0,
            deducted=0,
            placing=1,
        )
        for position, (first, last, club) in enumerate(LONG, start=1)
    ]
    content = lists.round_results_pdf(
        tournament=tournament,
        round=Round(tournament=tournament, number=1),
        tables=[selectors.ResultTable(number=1, sheet_status=None, hand_count=0, seats=seats)],
        progress=progress,
    )
    assert_whole(text_of(content), *long_names(), *clubs(), "Strafpunkte")
