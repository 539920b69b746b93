"""A late entry after the seating is drawn (issue 32): the refusal says what it is and what
lets the player in (tables of five, TSR 8.3.1, 10), the page offers it in one step, and the
API's 400 names the setting and the rule."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.authtoken.models import Token

from tests import factories
from tournaments import services
from tournaments.models import Entry, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def ddv_drawn(client):
    """Sixteen players, three rounds drawn at once by the DDV method, at tables of four; the
    organiser logged in."""
    organiser = factories.user(username="leitung")
    tournament = factories.tournament(
        players=16, planned_rounds=3, seating_method="ddv", organiser=organiser
    )
    services.round_seat(round=services.round_create(tournament=tournament), seed=3)
    services.tournament_seating_publish(tournament=tournament)
    client.force_login(organiser)
    return tournament


LATE = {"first_name": "Greta", "last_name": "Spät", "club": "", "ddv_number": ""}


def register(client, tournament, language="en", **extra):
    client.cookies["django_language"] = language
    return client.post(reverse("tournaments:entries", args=[tournament.slug]), {**LATE, **extra})


def test_a_late_entry_after_a_ddv_draw_is_told_what_lets_it_in(client, ddv_drawn):
    response = register(client, ddv_drawn)
    assert response.status_code == 400
    page = response.content.decode()
    assert (
        "The DDV seating plan of rounds 1 to 3 is drawn for a field that fills its tables" in page
    )
    assert "17 players with the late entry do not (TSR 8.3.1)" in page
    assert "A late entry fits in only at a table of five" in page
    # Not the withdrawal's advice.
    assert "Register a substitute" not in page
    assert 'name="allow_tables_of_five"' in page
    assert not Entry.objects.filter(last_name="Spät").exists()


def test_the_way_out_allows_tables_of_five_and_seats_the_late_entry(client, ddv_drawn):
    before = {
        (seat.round.number, seat.entry_id): (seat.table.number, seat.position)
        for seat in Seat.objects.select_related("round", "table")
    }
    response = register(client, ddv_drawn, allow_tables_of_five="1")
    assert response.status_code == 302
    ddv_drawn.refresh_from_db()
    assert ddv_drawn.allow_tables_of_five
    late = Entry.objects.get(last_name="Spät")
    # Seated in every round of the plan, at a table of five; nobody else moved.
    assert Seat.objects.filter(entry=late).count() == 3
    assert set(Seat.objects.filter(entry=late).values_list("position", flat=True)) == {5}
    after = {
        (seat.round.number, seat.entry_id): (seat.table.number, seat.position)
        for seat in Seat.objects.select_related("round", "table").exclude(entry=late)
    }
    assert after == before


def test_a_late_entry_in_german(client, ddv_drawn):
    page = register(client, ddv_drawn, language="de").content.decode()
    assert "Die nach dem DDV-Verfahren ausgeloste Sitzordnung der Runden 1 bis 3" in page
    assert "Fünfer-Tische zulassen (TSR 10) und den Spieler anmelden" in page


def test_a_late_entry_when_tables_of_five_would_not_seat_the_field(client):
    organiser = factories.user(username="leitung")
    tournament = factories.tournament(players=4, planned_rounds=2, organiser=organiser)
    factories.seated_round(tournament)
    client.force_login(organiser)
    # Five fit at a table of five; register one, then the sixth does not fit either way.
    assert register(client, tournament, allow_tables_of_five="1").status_code == 302
    response = register(client, tournament, first_name="Hans")
    page = response.content.decode()
    assert response.status_code == 400
    assert "Round 1 is drawn already for a field that fills its tables" in page
    assert "undo the draw and draw again once the field is complete" in page
    assert 'name="allow_tables_of_five"' not in page


def test_the_api_names_the_setting_and_the_rule(client, ddv_drawn):
    organiser = ddv_drawn.roles.get().user
    response = client.post(
        reverse("api:entries", args=[ddv_drawn.slug]),
        {"first_name": "Greta", "last_name": "Spät"},
        content_type="application/json",
        headers={
            "Authorization": f"Token {Token.objects.create(user=organiser).key}",
            "Accept-Language": "en",
        },
    )
    assert response.status_code == 400, response.content
    [message] = response.json()["allow_tables_of_five"]
    assert "TSR 8.3.1" in message
    assert "allow tables of five (TSR 10)" in message
    assert not Entry.objects.filter(last_name="Spät").exists()


def test_late_entries_by_a_list_are_offered_tables_of_five(client, ddv_drawn):
    client.cookies["django_language"] = "en"
    url = reverse("tournaments:players-import", args=[ddv_drawn.slug])
    csv = "Vorname;Nachname\nGreta;Spät\n".encode()
    preview = client.post(url, {"file": SimpleUploadedFile("late.csv", csv, "text/csv")})
    key = re.search(r'name="key" value="([^"]+)"', preview.content.decode()).group(1)
    refused = client.post(url, {"key": key})
    page = refused.content.decode()
    assert refused.status_code == 400
    assert "A late entry fits in only at a table of five" in page
    assert "Correct the file and upload it again" not in page
    assert 'name="allow_tables_of_five"' in page
    assert not Entry.objects.filter(last_name="Spät").exists()
    # The way out: the list kept on the server is imported at a table of five.
    assert client.post(url, {"key": key, "allow_tables_of_five": "1"}).status_code == 302
    ddv_drawn.refresh_from_db()
    assert ddv_drawn.allow_tables_of_five
    late = Entry.objects.get(last_name="Spät")
    assert set(Seat.objects.filter(entry=late).values_list("position", flat=True)) == {5}
