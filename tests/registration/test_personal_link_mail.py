"""Handing the players their personal links (``/p/<key>/``, issue 33): the organiser mails every
player theirs (asked once, once in ten minutes), gives players an address (the form, the API,
the CSV import, never shown to the public), and the seat's sheet leads its player to their page
for the whole tournament."""

import datetime
import html
from unittest import mock

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from registration import mails as registration_mails
from registration.models import Registration
from tests import factories
from tournaments import services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(client):
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def organiser():
    return factories.user(first_name="Olga", last_name="Organ")


@pytest.fixture
def tournament(organiser):
    """Six players: four with an address, one of them withdrawn, two without."""
    tournament = factories.tournament(players=6, organiser=organiser, name="Herbstpokal")
    for number in (1, 2, 3, 4):
        Entry.objects.filter(tournament=tournament, start_number=number).update(
            email=f"player{number}@example.org"
        )
    services.entry_withdraw(entry=tournament.entries.get(start_number=4))
    return tournament


def mail_page(tournament) -> str:
    return reverse("registration:personal-links-mail", args=[tournament.slug])


def mail_all(client, tournament, capture):
    """Click "Mail" on the page that asks, as the organiser does; the task runs at once."""
    with capture(execute=True):
        return client.post(mail_page(tournament), follow=True)


def personal_url(entry: Entry) -> str:
    # In mails the links are made from SITE_URL only (tournaments.mails).
    return "http://localhost:8000" + reverse("registration:personal-link", args=[entry.link_key])


def test_the_players_page_offers_the_mail_and_the_page_asks_once_naming_who_has_no_address(
    client, organiser, tournament
):
    client.force_login(organiser)
    page = client.get(reverse("tournaments:entries", args=[tournament.slug])).content.decode()
    assert mail_page(tournament) in page
    assert "Mail every player their personal link" in page
    page = client.get(mail_page(tournament)).content.decode()
    assert "3 active players have an e-mail address." in page
    assert "2 have none." in page
    for entry in tournament.entries.filter(start_number__in=[5, 6]):
        assert entry.sort_name in page
    withdrawn = tournament.entries.get(start_number=4)
    assert withdrawn.sort_name not in page
    assert "Mail the personal links to 3 players" in page
    assert not mail.outbox  # asking sends nothing


def test_every_active_player_with_an_address_gets_one_mail_with_their_link(
    client, organiser, tournament, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    response = mail_all(client, tournament, django_capture_on_commit_callbacks)
    assert response.redirect_chain[-1][0] == reverse("tournaments:entries", args=[tournament.slug])
    page = response.content.decode()
    assert "The personal links are being mailed to 3 players." in page
    assert sorted(message.to[0] for message in mail.outbox) == [
        "player1@example.org",
        "player2@example.org",
        "player3@example.org",
    ]
    for message in mail.outbox:
        number = int(message.to[0].removeprefix("player").split("@")[0])
        entry = tournament.entries.get(start_number=number)
        # The site's language (German) where the player registered in none.
        assert message.subject == "Ihr persönlicher Link für Herbstpokal"
        assert personal_url(entry) in message.body
        assert entry.name in message.body
        assert "Ihre Seite für das ganze Turnier" in message.body
        # Nobody else's link.
        others = tournament.entries.exclude(pk=entry.pk)
        assert not any(other.link_key in message.body for other in others)
    tournament.refresh_from_db()
    assert tournament.personal_links_mailed_at is not None
    assert "Last mailed:" in page


def test_the_mail_is_in_the_language_the_player_registered_in(
    client, organiser, tournament, django_capture_on_commit_callbacks
):
    entry = tournament.entries.get(start_number=1)
    Registration.objects.create(
        tournament=tournament,
        first_name=entry.first_name,
        last_name=entry.last_name,
        email=entry.email,
        state=Registration.State.ADMITTED,
        entry=entry,
        key=entry.link_key,
        language="en",
    )
    client.force_login(organiser)
    mail_all(client, tournament, django_capture_on_commit_callbacks)
    by_address = {message.to[0]: message for message in mail.outbox}
    english = by_address["player1@example.org"]
    assert english.subject == "Your personal link for Herbstpokal"
    assert "It is your page for the whole tournament" in english.body
    assert by_address["player2@example.org"].subject.startswith("Ihr persönlicher Link")


def test_a_second_click_within_ten_minutes_mails_nobody_and_says_when_it_was_sent(
    client, organiser, tournament, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    mail_all(client, tournament, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 3
    tournament.refresh_from_db()
    mailed = timezone.localtime(tournament.personal_links_mailed_at).strftime("%H:%M")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(mail_page(tournament))
    assert response.status_code == 400
    page = response.content.decode()
    assert f"The personal links were mailed at {mailed}" in page
    assert len(mail.outbox) == 3
    # The page that asks says so before the click, without the button.
    page = client.get(mail_page(tournament)).content.decode()
    assert f"The personal links were mailed at {mailed}" in page
    assert "Mail the personal links to 3 players" not in page
    # Ten minutes on, they may be mailed again.
    tournament.personal_links_mailed_at = timezone.now() - datetime.timedelta(minutes=10)
    tournament.save(update_fields=["personal_links_mailed_at"])
    mail_all(client, tournament, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 6


def test_a_failing_address_is_logged_and_the_others_are_mailed(
    client, organiser, tournament, django_capture_on_commit_callbacks, caplog
):
    real = registration_mails.mail_send

    def send(**kwargs):
        if kwargs["to"] == "player2@example.org":
            raise OSError("the mail server refused it")
        real(**kwargs)

    client.force_login(organiser)
    with mock.patch.object(registration_mails, "mail_send", send):
        mail_all(client, tournament, django_capture_on_commit_callbacks)
    assert sorted(message.to[0] for message in mail.outbox) == [
        "player1@example.org",
        "player3@example.org",
    ]
    assert "was not mailed" in caplog.text


def test_when_the_site_sends_no_mail_the_page_says_so_and_suggests_the_cards(
    client, organiser, tournament, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    client.force_login(organiser)
    message = "This site sends no e-mail: the mails go to the server's console"
    page = html.unescape(client.get(mail_page(tournament)).content.decode())
    assert message in page
    assert reverse("printing:personal-cards-print", args=[tournament.slug]) in page
    response = mail_all(client, tournament, django_capture_on_commit_callbacks)
    page = html.unescape(response.content.decode())
    assert message in page
    assert "Print the cards with the personal links instead." in page


def test_nobody_with_an_address_is_refused_with_the_reason(
    client, organiser, django_capture_on_commit_callbacks
):
    tournament = factories.tournament(players=4, organiser=organiser)
    client.force_login(organiser)
    page = client.get(mail_page(tournament)).content.decode()
    assert "No active player has an e-mail address." in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(mail_page(tournament))
    assert response.status_code == 400
    assert "No active player has an e-mail address." in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.personal_links_mailed_at is None
    assert not mail.outbox


def test_the_adjudicator_may_mail_the_links_but_a_deputy_is_told_who_may(
    client, tournament, django_capture_on_commit_callbacks
):
    client.force_login(factories.adjudicator(tournament))
    mail_all(client, tournament, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 3
    deputy = factories.user()
    factories.role_grant(tournament=tournament, user=deputy, role="deputy")
    client.force_login(deputy)
    page = client.get(reverse("tournaments:entries", args=[tournament.slug])).content.decode()
    assert mail_page(tournament) not in page
    response = client.post(mail_page(tournament))
    assert response.status_code == 403
    assert "Only an organiser or the adjudicator hands out" in response.content.decode()
    assert len(mail.outbox) == 3


def test_the_pages_are_in_german(client, organiser, tournament):
    client.cookies["django_language"] = "de"
    client.force_login(organiser)
    page = client.get(reverse("tournaments:entries", args=[tournament.slug])).content.decode()
    assert "Allen Spielern ihren persönlichen Link per E-Mail senden" in page
    page = client.get(mail_page(tournament)).content.decode()
    assert "3 aktive Spieler haben eine E-Mail-Adresse." in page
    assert "2 haben keine." in page


# The addresses ---------------------------------------------------------------------------------


def test_the_organiser_gives_an_address_on_the_players_page_and_the_edit_page(
    client, organiser, tournament
):
    client.force_login(organiser)
    response = client.post(
        reverse("tournaments:entries", args=[tournament.slug]),
        {"first_name": "Jörg", "last_name": "Weiß", "email": "joerg@example.org"},
    )
    assert response.status_code == 302
    entry = tournament.entries.get(last_name="Weiß")
    assert entry.email == "joerg@example.org"
    edit = reverse("tournaments:entry-edit", args=[tournament.slug, entry.start_number])
    assert 'value="joerg@example.org"' in client.get(edit).content.decode()
    response = client.post(
        edit,
        {
            "first_name": "Jörg",
            "last_name": "Weiß",
            "start_number": entry.start_number,
            "email": "weiss@example.org",
        },
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.email == "weiss@example.org"


def test_a_bad_address_is_refused_on_its_field_and_nothing_is_saved(client, organiser, tournament):
    client.force_login(organiser)
    count = tournament.entries.count()
    response = client.post(
        reverse("tournaments:entries", args=[tournament.slug]),
        {"first_name": "Jörg", "last_name": "Weiß", "email": "not an address\x00"},
    )
    assert response.status_code == 400
    assert response.context["form"].errors["email"]
    assert tournament.entries.count() == count


def test_the_players_api_takes_an_address_and_shows_it_only_to_who_hands_out_links(
    organiser, tournament
):
    api = APIClient()
    url = reverse("api:entries", args=[tournament.slug])
    api.force_authenticate(organiser)
    response = api.post(
        url, {"first_name": "Jörg", "last_name": "Weiß", "email": "joerg@example.org"}, "json"
    )
    assert response.status_code == 201, response.data
    assert response.data["email"] == "joerg@example.org"
    number = response.data["start_number"]
    assert tournament.entries.get(start_number=number).email == "joerg@example.org"
    listed = {row["start_number"]: row for row in api.get(url).data}
    assert listed[1]["email"] == "player1@example.org"
    detail = reverse("api:player", args=[tournament.slug, number])
    response = api.patch(detail, {"email": "weiss@example.org"}, "json")
    assert response.status_code == 200, response.data
    assert response.data["email"] == "weiss@example.org"
    assert response.data["last_name"] == "Weiß"  # what is not sent stays
    response = api.patch(detail, {"email": "x" * 250 + "@example.org"}, "json")
    assert response.status_code == 400
    assert "email" in response.data
    response = api.patch(detail, {"email": ["a@example.org"]}, "json")
    assert response.status_code == 400
    assert "email" in response.data
    # The public: neither the list, nor a player's page, nor the standings name an address.
    public = APIClient()
    for path in [
        url,
        detail,
        reverse("api:player", args=[tournament.slug, 1]),
        reverse("api:standings", args=[tournament.slug]),
    ]:
        answer = public.get(path)
        assert answer.status_code == 200, path
        assert "example.org" not in answer.content.decode(), path
    for path in [
        reverse("tournaments:entries", args=[tournament.slug]),
        reverse("tournaments:standings", args=[tournament.slug]),
    ]:
        assert "example.org" not in public.get(path).content.decode(), path


def test_the_csv_import_takes_an_optional_email_column(organiser):
    tournament = factories.tournament(organiser=organiser)
    data = "Vorname;Nachname;E-Mail\nJörg;Weiß;joerg@example.org\nAnna;Berg;\n".encode()
    imported = services.players_import(tournament=tournament, data=data)
    assert {entry.last_name: entry.email for entry in imported.entries} == {
        "Weiß": "joerg@example.org",
        "Berg": "",
    }
    with pytest.raises(ValidationError) as refused:
        services.players_import(
            tournament=tournament, data=b"Vorname;Nachname;email\nKarl;Kahn;kein-at\n"
        )
    assert refused.value.message_dict["file"] == ["Line 2: “kein-at” is not an e-mail address."]


# The sheet's page through the seat's link ------------------------------------------------------


def test_the_seats_sheet_leads_its_player_to_their_page_for_the_whole_tournament(client):
    tournament = factories.tournament(players=4)
    services.round_start(round=factories.seated_round(tournament))
    seat = tournament.rounds.get().seats.select_related("entry").get(position=2)
    page = client.get(reverse("scoring:sheet-link", args=[seat.token])).content.decode()
    assert "Your page for the whole tournament" in page
    assert reverse("registration:personal-link", args=[seat.entry.link_key]) in page
    others = tournament.entries.exclude(pk=seat.entry_id)
    assert not any(other.link_key in page for other in others)


def test_the_pages_ask_as_many_queries_for_many_players_as_for_few(
    client, organiser, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    """No query per player: the page that asks, and the players page with its block."""
    few = factories.tournament(players=2, organiser=organiser)
    many = factories.tournament(players=40, organiser=organiser)
    Entry.objects.filter(tournament=many, start_number__lte=20).update(email="p@example.org")
    client.force_login(organiser)
    counts = {}
    for tournament in (few, many):
        for name in ("registration:personal-links-mail", "tournaments:entries"):
            path = reverse(name, args=[tournament.slug])
            client.get(path)  # the session and the caches warm
            with CaptureQueriesContext(connection) as queries:
                assert client.get(path).status_code == 200
            counts[tournament.pk, name] = len(queries)
    for name in ("registration:personal-links-mail", "tournaments:entries"):
        assert counts[many.pk, name] == counts[few.pk, name], name
    with django_assert_max_num_queries(counts[many.pk, "registration:personal-links-mail"]):
        client.get(reverse("registration:personal-links-mail", args=[many.slug]))
    # Mailing 20 players asks what mailing 2 asks: the players are read with their
    # registrations (for the language) at once.
    Entry.objects.filter(tournament=few).update(email="q@example.org")
    with CaptureQueriesContext(connection) as queries:
        mail_all(client, few, django_capture_on_commit_callbacks)
    with django_assert_max_num_queries(len(queries)):
        mail_all(client, many, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 22
