"""Personal link cards: a card for every active player with the QR code of their personal link
(``/p/<key>/``) for the whole tournament; started from the players page by the organiser and
built by a job, as the other printouts are."""

import math
import re

import pytest
from django.urls import reverse
from django.utils import translation

from printing.models import Job
from printing.pdf import cards as pdf
from printing.pdf import slips as slips_pdf
from printing.pdf.card_sheet import PER_PAGE
from tests import factories
from tests.printing.helpers import operators_of, pages_of, qr_drawn, unsaved_tables, words_of
from tournaments import services as tournament_services
from tournaments.models import Entry, Seat

pytestmark = pytest.mark.django_db

LINE = "Your page for the whole tournament: your table in each round, your results, your scoresheet"


@pytest.fixture
def client(client):
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def organiser():
    return factories.user(first_name="Olga", last_name="Organ")


@pytest.fixture
def tournament(organiser):
    """Eleven players, two of them with names beyond Latin-1, one withdrawn."""
    tournament = factories.tournament(players=9, organiser=organiser, name="Herbstpokal")
    for first, last, club in [
        ("Łukasz", "Żółć", "Skat & Doko Kraków"),
        ("Ὀδυσσεύς", "Λαέρτιάδης", ""),
    ]:
        tournament_services.entry_register(
            tournament=tournament, first_name=first, last_name=last, club=club
        )
    tournament_services.entry_withdraw(entry=tournament.entries.get(start_number=2))
    return tournament


def print_cards(client, tournament, capture) -> bytes:
    """Start the cards from the players page as the organiser does, and download them."""
    page = client.get(reverse("tournaments:entries", args=[tournament.slug])).content.decode()
    action = reverse("printing:personal-cards-print", args=[tournament.slug])
    assert action in page
    assert "Print personal link cards" in page
    with capture(execute=True):
        response = client.post(action)
    job = Job.objects.get()
    assert response.url == reverse("printing:job", args=[job.pk])
    assert job.kind == Job.Kind.PERSONAL_CARDS_PDF
    assert job.round is None
    assert job.status == Job.Status.DONE, job.error
    assert job.file.name.endswith("-personal-links.pdf")
    return b"".join(client.get(reverse("printing:job-download", args=[job.pk])).streaming_content)


def test_every_active_player_gets_a_card_with_the_qr_of_their_personal_link(
    client, organiser, tournament, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    content = print_cards(client, tournament, django_capture_on_commit_callbacks)
    active = list(tournament.entries.filter(status=Entry.Status.ACTIVE))
    assert len(active) == 10
    assert len(pages_of(content)) == math.ceil(10 / PER_PAGE) == 2
    words = words_of(content)
    printed = "".join(words.split())  # the address may wrap
    operators = operators_of(content)
    for entry in active:
        url = "http://testserver" + reverse("registration:personal-link", args=[entry.link_key])
        assert qr_drawn(operators, url)
        assert url in printed
        assert words.count(entry.sort_name) == 1
        assert f"Start number {entry.start_number}" in words
    assert words.count("Herbstpokal") == 10
    assert words.count(LINE) == 10
    assert "Żółć, Łukasz" in words
    assert "Skat & Doko Kraków" in words
    assert "Λαέρτιάδης, Ὀδυσσεύς" in words


def test_a_withdrawn_player_gets_no_card(
    client, organiser, tournament, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    content = print_cards(client, tournament, django_capture_on_commit_callbacks)
    withdrawn = tournament.entries.get(start_number=2)
    words = words_of(content)
    assert withdrawn.sort_name not in words
    assert withdrawn.link_key not in "".join(words.split())


def test_the_cards_are_in_the_order_of_the_names(
    client, organiser, tournament, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    # A long name takes two lines.
    text = words_of(print_cards(client, tournament, django_capture_on_commit_callbacks))
    names = [entry.sort_name for entry in tournament.entries.filter(status=Entry.Status.ACTIVE)]
    # By last name: Λαέρτιάδης (Greek) after the Latin ones, Żółć among them as Zolc.
    assert sorted(names, key=text.index)[-2:] == ["Żółć, Łukasz", "Λαέρτιάδης, Ὀδυσσεύς"]


def test_the_cards_are_in_german_for_a_german_organiser(
    client, organiser, tournament, django_capture_on_commit_callbacks
):
    client.cookies["django_language"] = "de"
    client.force_login(organiser)
    action = reverse("printing:personal-cards-print", args=[tournament.slug])
    page = client.get(reverse("tournaments:entries", args=[tournament.slug])).content.decode()
    assert "Karten mit dem persönlichen Link drucken" in page
    with django_capture_on_commit_callbacks(execute=True):
        client.post(action)
    job = Job.objects.get()
    assert job.status == Job.Status.DONE, job.error
    words = words_of(
        b"".join(client.get(reverse("printing:job-download", args=[job.pk])).streaming_content)
    )
    assert words.count("Ihre Seite für das ganze Turnier") == 10
    assert "Startnummer 1" in words


def test_the_cards_carry_the_site_url_when_it_is_set(
    client, organiser, tournament, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "http://192.168.1.20:8000"
    client.force_login(organiser)
    content = print_cards(client, tournament, django_capture_on_commit_callbacks)
    printed = "".join(words_of(content).split())
    assert "testserver" not in printed
    entry = tournament.entries.get(start_number=1)
    url = "http://192.168.1.20:8000" + reverse("registration:personal-link", args=[entry.link_key])
    assert url in printed
    assert qr_drawn(operators_of(content), url)


def test_only_the_organiser_prints_the_cards(client, organiser, tournament):
    page_url = reverse("tournaments:entries", args=[tournament.slug])
    action = reverse("printing:personal-cards-print", args=[tournament.slug])
    adjudicator = factories.adjudicator(tournament)
    client.force_login(adjudicator)
    page = client.get(page_url).content.decode()
    # The adjudicator hands out links (the mail) but does not print: the page says why.
    assert action not in page
    assert "Only an organiser starts printouts and downloads them." in page
    assert client.post(action).status_code == 403
    client.logout()
    page = client.get(page_url).content.decode()
    assert action not in page
    assert "Personal links" not in page
    assert not Job.objects.exists()


def test_the_cards_go_in_the_order_of_the_seat_slips():
    """Both piles are handed out alike, even where two names differ only by an umlaut."""
    tables = unsaved_tables(4)
    for seat, (last_name, start_number) in zip(
        tables[0].seats,
        [("Müller", 1), ("Muller", 2), ("Mueller", 3), ("Ahrens", 4)],
        strict=True,
    ):
        seat.entry.first_name, seat.entry.last_name = "Anna", last_name
        seat.entry.start_number = start_number
    tournament = factories.tournament()
    slips = slips_pdf.seat_slips_pdf(
        tournament=tournament, round_number=1, tables=tables, progress=lambda percent: None
    )
    cards = pdf.personal_cards_pdf(
        tournament=tournament,
        entries=[seat.entry for seat in tables[0].seats],
        url_for_entry=lambda entry: f"https://doko.example/p/{entry.start_number}/",
        progress=lambda percent: None,
    )
    names = [seat.entry.sort_name for seat in tables[0].seats]
    in_slips, in_cards = words_of(slips), words_of(cards)
    assert sorted(names, key=in_slips.index) == sorted(names, key=in_cards.index)
    assert sorted(names, key=in_cards.index)[:2] == ["Ahrens, Anna", "Mueller, Anna"]


def test_a_tournament_without_players_prints_a_page_that_says_so():
    tournament = factories.tournament()
    seen: list[int] = []
    content = pdf.personal_cards_pdf(
        tournament=tournament, entries=[], url_for_entry=str, progress=seen.append
    )
    assert "No active players." in pages_of(content)[0]
    assert seen[-1] == 100


def test_long_names_and_clubs_print_whole_in_german():
    """Never cut nor split inside a word (issue 32), the German line included."""
    tournament = factories.tournament(name="Großer Herbstpokal der Doppelkopffreunde Bödefeld")
    entries = [
        Entry(
            first_name="Maximiliane-Friederike Charlotte",
            last_name="von Hohenzollern-Sigmaringen-Wittgenstein",
            club="Doppelkopffreunde Bödefeld-Gellinghausen e. V.",
            start_number=1,
            link_key="k" * 32,
        )
    ]
    with translation.override("de"):
        content = pdf.personal_cards_pdf(
            tournament=tournament,
            entries=entries,
            url_for_entry=lambda entry: "https://doko.example/p/" + entry.link_key + "/",
            progress=lambda percent: None,
        )
    text = "\n".join(pages_of(content))
    assert "…" not in text
    found = set(re.findall(r"[^\s,-]+-?", text))
    for item in [
        entries[0].sort_name,
        entries[0].club,
        tournament.name,
        "Ihre Seite für das ganze Turnier: Ihr Tisch in jeder Runde, Ihre Ergebnisse, "
        "Ihre Spielliste",
    ]:
        missing = set(re.findall(r"[^\s,-]+-?", item)) - found
        assert not missing, f"{item!r}: {sorted(missing)} cut or split"


def test_the_seat_slips_keep_the_rounds_qr_and_name_the_personal_link(
    client, organiser, tournament, django_capture_on_commit_callbacks
):
    """The round's QR opens the round's sheet; the line at the foot the player's own page."""
    for start_number in (3, 4):  # eight players: two tables of four
        tournament_services.entry_withdraw(entry=tournament.entries.get(start_number=start_number))
    tournament_services.round_start(round=factories.seated_round(tournament))
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("printing:round-print", args=[tournament.slug, 1, "slips"]))
    job = Job.objects.get()
    assert job.status == Job.Status.DONE, job.error
    content = b"".join(
        client.get(reverse("printing:job-download", args=[job.pk])).streaming_content
    )
    words = words_of(content)
    printed = "".join(words.split())
    operators = operators_of(content)
    seats = Seat.objects.filter(round__number=1).select_related("entry")
    assert len(seats) == 8
    assert words.count("Your page for the whole tournament:") == 8
    for seat in seats:
        assert qr_drawn(
            operators, "http://testserver" + reverse("scoring:sheet-link", args=[seat.token])
        )
        personal = "http://testserver" + reverse(
            "registration:personal-link", args=[seat.entry.link_key]
        )
        assert personal in printed
        assert not qr_drawn(operators, personal)  # one code on a slip: the round's


def test_one_players_card_is_printed_from_the_entry_edit_page(
    client, organiser, tournament, django_capture_on_commit_callbacks
):
    """A card lost, or the link replaced: a card for that player alone."""
    client.force_login(organiser)
    entry = tournament.entries.get(start_number=5)
    page = client.get(reverse("tournaments:entry-edit", args=[tournament.slug, 5])).content.decode()
    action = reverse("printing:personal-card-print", args=[tournament.slug, 5])
    assert action in page
    assert "Print this player's personal link card" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(action)
    job = Job.objects.get()
    assert response.url == reverse("printing:job", args=[job.pk])
    assert job.status == Job.Status.DONE, job.error
    assert job.file.name.endswith("-5-personal-links.pdf")
    content = b"".join(
        client.get(reverse("printing:job-download", args=[job.pk])).streaming_content
    )
    assert len(pages_of(content)) == 1
    words = words_of(content)
    assert words.count(LINE) == 1
    assert entry.sort_name in words
    assert qr_drawn(
        operators_of(content),
        "http://testserver" + reverse("registration:personal-link", args=[entry.link_key]),
    )


def test_a_withdrawn_player_is_told_why_there_is_no_card(client, organiser, tournament):
    client.force_login(organiser)
    action = reverse("printing:personal-card-print", args=[tournament.slug, 2])
    page = client.get(reverse("tournaments:entry-edit", args=[tournament.slug, 2])).content.decode()
    assert action not in page
    assert "No personal link card: the player is withdrawn." in page
    response = client.post(action, follow=True)
    assert "is not active (withdrawn): no card is printed." in response.content.decode()
    assert not Job.objects.exists()
