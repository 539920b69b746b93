"""Seat slips: a card for every player of a round with his table, seat, who deals first, who
keeps the sheet and the QR code of his own private link; offered on the round's page and built
by a job."""

import math

import pytest
from django.urls import reverse

from printing.models import Job
from printing.pdf import slips as pdf
from printing.pdf.card_sheet import PER_PAGE
from scoring.models import Scoresheet
from tests import factories
from tests.printing.helpers import operators_of, pages_of, qr_drawn, unsaved_tables, words_of
from tournaments import selectors
from tournaments import services as tournament_services
from tournaments.models import Seat

pytestmark = pytest.mark.django_db


def slips(tables, **options) -> bytes:
    seen = []
    content = pdf.seat_slips_pdf(
        tournament=factories.tournament(name="Pokal <Kreuz & Pik>"),
        round_number=3,
        tables=tables,
        progress=seen.append,
        **options,
    )
    assert seen == sorted(seen)
    assert seen[-1] == 100
    return content


def link(seat) -> str:
    return f"https://doko.example/s/key-{seat.entry.start_number}/"


def test_a_slip_for_every_seated_player_in_the_order_of_their_names():
    tables = unsaved_tables(4, 5, 4)
    # Names against their start numbers: the slips go by name, not by number or table.
    for row in tables:
        for seat in row.seats:
            seat.entry.last_name = f"Name{100 - seat.entry.start_number}"
    content = slips(tables, url_for_seat=link)
    pages = pages_of(content)
    assert len(pages) == math.ceil(13 / PER_PAGE)
    text = "\n".join(pages)
    seats = [(row, seat) for row in tables for seat in row.seats]
    names = [seat.entry.sort_name for _row, seat in seats]
    assert sorted(names, key=text.index) == sorted(names)
    for _row, seat in seats:
        assert text.count(seat.entry.sort_name) == 1
    assert text.count("Pokal <Kreuz & Pik>") == 13
    assert text.count("Round 3") == 13
    assert text.count("Your scoresheet link") == 13
    operators = operators_of(content)
    printed = "".join(text.split())  # the address may wrap
    for _row, seat in seats:
        assert qr_drawn(operators, link(seat))
        assert link(seat) in printed


def test_a_slip_says_where_the_player_sits_and_who_deals_and_keeps_the_sheet():
    tables = unsaved_tables(4, 5)
    content = slips(tables, url_for_seat=link)
    text = "\n".join(pages_of(content))
    for row in tables:
        dealer, keeper = row.seats[0], row.seats[-1]
        # TSR 3.3.1, 8.4.1: seat 1 deals first; seat 4, at a table of five seat 5, keeps it.
        dealing = f"Seat 1 deals first: {dealer.entry.player.name}"
        keeping = f"Seat {len(row.seats)} keeps the scoresheet: {keeper.entry.player.name}"
        assert text.count(dealing) == len(row.seats)
        assert text.count(keeping) == len(row.seats)
        for seat in row.seats:
            number = seat.entry.start_number
            card = text[text.index(seat.entry.player.sort_name) :]
            assert card.startswith(
                f"{seat.entry.player.sort_name}\nStart number {number}\n"
                f"Table\n{row.table.number}\nSeat\n{seat.position}\n"
            ), card[:200]
    assert text.count("Table of five: the dealer sits out each hand (TSR 10.1.1).") == 5


def test_a_sheet_handed_over_names_its_new_keeper_on_the_slips():
    """TSR 3.1.1: printed after the sheet was handed over, the slips name the seat keeping it."""
    tables = unsaved_tables(4)
    row = tables[0]
    tables = [selectors.TableRow(table=row.table, seats=row.seats, keeper_seat=2)]
    text = "\n".join(pages_of(slips(tables)))
    keeper = row.seats[1].entry.player.name
    assert text.count(f"Seat 2 keeps the scoresheet: {keeper}") == 4
    assert "Seat 4 keeps" not in text


def test_without_an_address_the_slips_have_no_code():
    text = "\n".join(pages_of(slips(unsaved_tables(4))))
    assert "Vorname1 Name1" in text
    assert "Your scoresheet link" not in text
    assert "http" not in text


def test_a_long_name_wraps_rather_than_being_cut():
    tables = unsaved_tables(4)
    player = tables[0].seats[2].entry  # the name the tournament registered
    player.first_name = "Maximiliane-Friederike"
    player.last_name = "von Hohenzollern-Sigmaringen"
    text = "\n".join(pages_of(slips(tables, url_for_seat=link)))
    assert "von Hohenzollern-Sigmaringen," in text
    assert "Maximiliane-Friederike" in text
    assert "…" not in text.split("Start number 3")[0].split("Round 3")[-1]


def test_a_round_without_seating_prints_a_page_that_says_so():
    text = pages_of(slips([]))[0]
    assert "The seating of this round has not been drawn yet." in text


# The job and the round's page ---------------------------------------------------------------


@pytest.fixture
def client(client):
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def organiser():
    return factories.user(first_name="Olga", last_name="Organ")


@pytest.fixture
def tournament(organiser):
    """Nine players, round 1 drawn and running: a table of four and one of five (TSR 10)."""
    tournament = factories.tournament(
        players=9, organiser=organiser, name="Pokal", allow_tables_of_five=True
    )
    tournament_services.round_start(round=factories.seated_round(tournament))
    return tournament


def print_slips(client, tournament, capture) -> bytes:
    """Start the slips from the round's page as the organiser does, and download them."""
    with capture(execute=True):
        response = client.post(reverse("printing:round-print", args=[tournament.slug, 1, "slips"]))
    job = Job.objects.get()
    assert response.url == reverse("printing:job", args=[job.pk])
    assert job.kind == Job.Kind.SEAT_SLIPS_PDF
    assert job.status == Job.Status.DONE, job.error
    assert job.file.name.endswith("-round-1-seat-slips.pdf")
    page = client.get(reverse("printing:job", args=[job.pk])).content.decode()
    assert reverse("printing:job-download", args=[job.pk]) in page
    return b"".join(client.get(reverse("printing:job-download", args=[job.pk])).streaming_content)


def test_the_organiser_is_offered_the_slips_on_the_rounds_page(client, organiser, tournament):
    url = reverse("tournaments:round", args=[tournament.slug, 1])
    action = reverse("printing:round-print", args=[tournament.slug, 1, "slips"])
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert action in page
    assert "Seat slips (PDF)" in page
    # Beside the blank scoresheets.
    assert page.index("Scoresheets (PDF)") < page.index("Seat slips (PDF)")
    adjudicator = factories.adjudicator(tournament)
    client.force_login(adjudicator)
    assert action not in client.get(url).content.decode()
    assert client.post(action).status_code == 403
    client.logout()
    assert action not in client.get(url).content.decode()
    assert not Job.objects.exists()


def test_the_slips_job_prints_every_players_own_link(
    client, organiser, tournament, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    content = print_slips(client, tournament, django_capture_on_commit_callbacks)
    text = "\n".join(pages_of(content))
    printed = "".join(text.split())
    operators = operators_of(content)
    seats = Seat.objects.filter(round__number=1).select_related("entry__player", "table")
    assert len(seats) == 9
    words = words_of(content)
    for seat in seats:
        url = "http://testserver" + reverse("scoring:sheet-link", args=[seat.token])
        assert qr_drawn(operators, url)
        assert url in printed
        assert words.count(seat.entry.player.sort_name) == 1
    round_page = client.get(
        reverse("tournaments:round", args=[tournament.slug, 1])
    ).content.decode()
    assert "seat slips (PDF)" in round_page  # among the round's latest printouts


def test_the_slips_carry_the_site_url_when_it_is_set(
    client, organiser, tournament, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "http://192.168.1.20:8000"
    client.force_login(organiser)
    content = print_slips(client, tournament, django_capture_on_commit_callbacks)
    printed = "".join("\n".join(pages_of(content)).split())
    operators = operators_of(content)
    assert "testserver" not in printed
    for token in Seat.objects.filter(round__number=1).values_list("token", flat=True):
        url = "http://192.168.1.20:8000" + reverse("scoring:sheet-link", args=[token])
        assert url in printed
        assert qr_drawn(operators, url)


def test_a_player_opens_his_sheet_with_the_link_on_his_slip(
    client, organiser, tournament, django_capture_on_commit_callbacks
):
    """The link on a slip is the seat's own: it opens the table's sheet without an account."""
    client.force_login(organiser)
    text = "".join(
        "\n".join(
            pages_of(print_slips(client, tournament, django_capture_on_commit_callbacks))
        ).split()
    )
    client.logout()
    sheet = Scoresheet.objects.get(table__round__number=1, table__number=1)
    keeper = sheet.table.seats.get(position=4)
    path = reverse("scoring:sheet-link", args=[keeper.token])
    assert "http://testserver" + path in text
    page = client.get(path)
    assert page.status_code == 200
    assert keeper.entry.player.name in page.content.decode()
