"""The list of players as a PDF, read back as text."""

import io

import pytest
from django.utils import translation
from pypdf import PdfReader

from printing.pdf import lists as pdf
from tests import factories
from tests.printing.helpers import pages_of, unsaved_tables
from tournaments import selectors, services

pytestmark = pytest.mark.django_db


def text_of(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_list_of_players_shows_every_player_and_reports_progress():
    tournament = factories.tournament(name="Pokal <Kreuz & Pik>", venue="Köln")
    services.entry_create(
        tournament=tournament,
        player=factories.player(first_name="Jörg", last_name="Weiß", club="Doko & Co."),
    )
    for _ in range(59):
        services.entry_create(tournament=tournament, player=factories.player())
    seen = []
    content = pdf.entry_list_pdf(
        tournament=tournament,
        entries=list(selectors.entry_list(tournament=tournament)),
        progress=seen.append,
    )
    text = text_of(content)
    assert "Pokal <Kreuz & Pik>" in text
    assert "Weiß, Jörg" in text
    assert "Doko & Co." in text
    assert "Nachname" in text  # the other players
    assert len(PdfReader(io.BytesIO(content)).pages) >= 2
    assert seen == sorted(seen)
    assert 0 < seen[-1] <= 90


# The seating of a round ---------------------------------------------------------------------


def seated_tournament(*, players: int = 17):
    """A tournament with Jörg Weiß (of "Doko & Co."), Anna Ärger and Bernd Bauer among
    ``players`` players, its first round drawn, and the round's tables (17: one of five)."""
    tournament = factories.tournament(
        name="Pokal <Kreuz & Pik>", venue="Köln", allow_tables_of_five=True
    )
    for first_name, last_name, club in [
        ("Jörg", "Weiß", "Doko & Co."),
        ("Anna", "Ärger", ""),
        ("Bernd", "Bauer", "Kreuz As"),
    ]:
        services.entry_create(
            tournament=tournament,
            player=factories.player(first_name=first_name, last_name=last_name, club=club),
        )
    for _ in range(players - 3):
        services.entry_create(tournament=tournament, player=factories.player())
    round_ = factories.seated_round(tournament)
    return tournament, round_.number, selectors.round_tables(round=round_)


def build(function, tournament, round_number, tables, **kwargs) -> bytes:
    """The printout, checking that progress rose to at most 90 on the way."""
    seen = []
    content = function(
        tournament=tournament,
        round_number=round_number,
        tables=tables,
        progress=seen.append,
        **kwargs,
    )
    assert content.startswith(b"%PDF")
    assert seen, "progress is reported"
    assert seen == sorted(set(seen))
    assert 0 < seen[-1] <= 90
    return content


def seat_of(tables, last_name):
    for row in tables:
        for seat in row.seats:
            if seat.entry.player.last_name == last_name:
                return row.table.number, seat
    raise AssertionError(last_name)


def test_name_key_sorts_umlauts_with_their_vowels_whatever_the_case():
    names = ["Zander", "bauer", "Öztürk", "Ärger", "Weiß", "Weiss", "Ostermann", "Abel", "Weisz"]
    assert sorted(names, key=selectors.name_key) == [
        "Abel",
        "Ärger",
        "bauer",
        "Ostermann",
        "Öztürk",
        "Weiß",
        "Weiss",
        "Weisz",
        "Zander",
    ]
    assert selectors.name_key("Weiß") == selectors.name_key("WEISS") == "weiss"
    assert selectors.name_key("Ärger") == "arger"


def test_seating_by_table_shows_every_table_seat_and_player():
    tournament, round_number, tables = seated_tournament()
    assert sorted(len(row.seats) for row in tables) == [4, 4, 4, 5]
    text = text_of(build(pdf.seating_by_table_pdf, tournament, round_number, tables))

    assert "Seating, round 1: Pokal <Kreuz & Pik>" in text
    assert "Köln" in text
    for row in tables:
        assert f"Table {row.table.number}" in text
        for seat in row.seats:
            # seat number and start number, then the player
            assert f"{seat.position}\n{seat.entry.start_number}\n{seat.entry.player.name}\n" in text
    assert "Jörg Weiß\nDoko & Co.\n" in text  # the club beneath the name
    five = next(row for row in tables if len(row.seats) == 5)
    assert text.count("Table of five") == 1  # the one table of five is marked
    assert f"Table {five.table.number} – Table of five" in text


def test_seating_by_table_keeps_each_table_on_one_page():
    tournament = factories.tournament(name="Pokal")
    tables = unsaved_tables(*[4] * 47, 5, 5, 5)
    content = build(pdf.seating_by_table_pdf, tournament, 2, tables)
    pages = pages_of(content)
    assert len(pages) >= 3
    assert "Seating, round 2: Pokal" in pages[0]
    assert "Page 3" in pages[2]
    for row in tables:
        heading = (
            f"Table {row.table.number}\n" if len(row.seats) == 4 else f"Table {row.table.number} – "
        )
        first, last = row.seats[0].entry.player.name, row.seats[-1].entry.player.name
        assert [page for page in pages if heading in page] == [
            page for page in pages if f"\n{first}\n" in page and f"\n{last}\n" in page
        ]
    assert sum(page.count("Table of five") for page in pages) == 3


def test_seating_alphabetical_lists_every_player_by_name_with_table_and_seat():
    tournament, round_number, tables = seated_tournament()
    text = text_of(build(pdf.seating_alphabetical_pdf, tournament, round_number, tables))

    assert "Seating by name, round 1: Pokal <Kreuz & Pik>" in text
    names = [seat.entry.player.sort_name for row in tables for seat in row.seats]
    assert len(names) == 17
    in_pdf = sorted(names, key=lambda name: text.index(f"\n{name}\n"))
    # "Ärger" sorts with A, before "Bauer"; "Weiß" after the "Nachname"s
    assert in_pdf == sorted(names, key=selectors.name_key)
    assert in_pdf[:2] == ["Ärger, Anna", "Bauer, Bernd"]
    assert in_pdf[-1] == "Weiß, Jörg"
    for last_name in ["Weiß", "Ärger", "Bauer"]:
        table_number, seat = seat_of(tables, last_name)
        name, number = seat.entry.player.sort_name, seat.entry.start_number
        assert f"\n{name}\n{number}\n{table_number}\n{seat.position}\n" in text


def test_seating_alphabetical_repeats_its_header_row_on_every_page():
    tournament = factories.tournament(name="Pokal")
    content = build(pdf.seating_alphabetical_pdf, tournament, 1, unsaved_tables(*[4] * 20))
    pages = pages_of(content)
    assert len(pages) >= 3
    for page in pages:
        assert "\nName\nNo.\nTable\nSeat\n" in page


def test_table_cards_one_card_per_table_two_to_a_page():
    tournament, round_number, tables = seated_tournament()
    content = build(pdf.table_cards_pdf, tournament, round_number, tables)
    pages = pages_of(content)
    assert len(pages) == 2
    for row in tables:
        page = pages[(row.table.number - 1) // 2]
        assert f"Table {row.table.number}\n" in page
        for seat in row.seats:
            assert f"\n{seat.position}\n{seat.entry.player.name}\n" in page
    text = "\n".join(pages)
    assert text.count("Round 1 · Pokal <Kreuz & Pik>") == 4
    assert text.count("deals first") == 4
    # the sheet is kept by seat 4, at a table of five by seat 5
    for row in tables:
        last = row.seats[-1]
        assert f"\n{last.position}\n{last.entry.player.name}\n" in text
    assert text.count("keeps the sheet") == 4
    assert text.count("Table of five") == 1
    assert "The dealer sits out each hand." in text
    assert "http" not in text


def test_table_cards_with_a_qr_code_ask_for_each_tables_address_once():
    tournament, round_number, tables = seated_tournament()
    asked = []

    def url_for_table(number):
        asked.append(number)
        return f"https://doko.example/t/{tournament.slug}/1/{number}/?a=1&b=2"

    content = build(
        pdf.table_cards_pdf, tournament, round_number, tables, url_for_table=url_for_table
    )
    assert asked == [1, 2, 3, 4]
    printed = "".join(text_of(content).split())  # the address may wrap
    for number in asked:
        assert f"https://doko.example/t/{tournament.slug}/1/{number}/?a=1&b=2" in printed
    # each card draws its code: in units of a module, the top rows of the upper finder
    # patterns are runs of seven dark modules after the quiet zone of four
    count = len(pdf._QrCode(f"https://doko.example/t/{tournament.slug}/1/1/?a=1&b=2", 1).rows)
    for page in PdfReader(io.BytesIO(content)).pages:
        operators = page.get_contents().get_data().decode("latin-1")
        assert operators.count(f"\n4 {count + 3} 7 1 re\n") == 2  # two cards on the page
        assert operators.count(f"\n{count - 3} {count + 3} 7 1 re\n") == 2


def test_long_names_wrap_at_their_hyphens():
    tournament = factories.tournament(name="Pokal")
    tables = unsaved_tables(4, 4)
    player = tables[0].seats[1].entry  # the name the tournament registered
    player.first_name = "Maximiliane-Friederike Theodora"
    player.last_name = "von Hohenzollern-Sigmaringen-Oberschwaben"
    player.club = "Doppelkopfverein Kreuzdame und Pikbube Niederrhein-Westfalen 1998 e. V."
    for function in [pdf.seating_by_table_pdf, pdf.seating_alphabetical_pdf, pdf.table_cards_pdf]:
        text = text_of(build(function, tournament, 1, tables))
        assert "Hohenzollern-Sigmaringen-" in text
        assert "Oberschwaben" in text
        assert "Pikbube" in text or function is pdf.seating_alphabetical_pdf


@pytest.mark.parametrize(
    "function", [pdf.seating_by_table_pdf, pdf.seating_alphabetical_pdf, pdf.table_cards_pdf]
)
def test_the_seating_printouts_build_in_german(function):
    tournament, round_number, tables = seated_tournament()
    with translation.override("de"):
        text = text_of(build(function, tournament, round_number, tables))
    assert "Weiß, Jörg" in text or "Jörg Weiß" in text
    assert "21. November 2026" in text
    if function is not pdf.seating_alphabetical_pdf:
        assert "Tisch 1" in text
    assert "Position" in text  # "Seat"


@pytest.mark.parametrize(
    "function", [pdf.seating_by_table_pdf, pdf.seating_alphabetical_pdf, pdf.table_cards_pdf]
)
def test_a_round_without_seating_prints_a_page_that_says_so(function):
    tournament = factories.tournament(name="Pokal")
    text = text_of(build(function, tournament, 3, []))
    assert "The seating of this round has not been drawn yet." in text
