"""The online registration's API (issue 33): a player registers without a login; the organiser
reads the registrations, changes the settings, closes and reopens, orders the waiting list."""

import pytest
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from registration.models import OnlineRegistration, Registration
from tests import factories
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return factories.user(username="leitung")


@pytest.fixture
def tournament(organiser):
    """Two players added by hand; registration open for three places, with a waiting list."""
    tournament = factories.tournament(players=2, organiser=organiser)
    factories.registration_open(tournament, capacity=3)
    return tournament


@pytest.fixture
def anyone():
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_ACCEPT_LANGUAGE="en")
    return client


@pytest.fixture
def staff(organiser):
    client = APIClient()
    client.credentials(
        HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    return client


def url(tournament, tail: str = "registrations") -> str:
    return f"/api/v1/tournaments/{tournament.slug}/{tail}"


def player(n: int, **fields) -> dict:
    return {
        "first_name": "Spieler",
        "last_name": f"Nummer{n}",
        "club": "Kreuz Bube",
        "email": f"spieler{n}@example.org",
        **fields,
    }


def test_registered_within_capacity(anyone, tournament):
    answer = anyone.post(url(tournament), player(1, ddv_number="123"), format="json")
    assert answer.status_code == 201, answer.content
    registration = Registration.objects.get()
    body = answer.json()
    assert (body["state"], body["place"], body["start_number"]) == ("registered", None, 3)
    assert answer.json()["personal_link"].endswith(f"/p/{registration.key}/")
    assert registration.entry.link_key == registration.key


def test_waiting_with_place(anyone, tournament):
    anyone.post(url(tournament), player(1), format="json")
    second = anyone.post(url(tournament), player(2), format="json")
    third = anyone.post(url(tournament), player(3), format="json")
    assert second.json()["state"] == "waiting"
    assert second.json()["place"] == 1
    assert second.json()["start_number"] is None
    assert third.json()["place"] == 2


def test_moved_up_on_a_withdrawal(anyone, staff, tournament):
    anyone.post(url(tournament), player(1), format="json")
    anyone.post(url(tournament), player(2), format="json")
    answer = staff.post(url(tournament, "players/1/withdraw"))
    assert answer.status_code == 200
    moved = Registration.objects.get(last_name="Nummer2")
    assert moved.state == Registration.State.ADMITTED
    assert moved.entry.link_key == moved.key
    listed = staff.get(url(tournament)).json()
    assert {line["last_name"]: line["state"] for line in listed}["Nummer2"] == "admitted"


def test_closed_is_a_400(anyone, staff, tournament):
    assert staff.post(url(tournament, "registration/close")).status_code == 200
    answer = anyone.post(url(tournament), player(1), format="json")
    assert answer.status_code == 400
    assert "closed" in answer.json()["non_field_errors"][0]
    assert not Registration.objects.exists()


def test_full_without_a_waiting_list_is_a_400_on_capacity(anyone, tournament):
    OnlineRegistration.objects.filter(tournament=tournament).update(waiting_list=False)
    anyone.post(url(tournament), player(1), format="json")
    answer = anyone.post(url(tournament), player(2), format="json")
    assert answer.status_code == 400
    assert answer.json()["capacity"] == [
        "All places are taken, and this tournament keeps no waiting list."
    ]


def test_the_same_person_at_the_same_address_is_a_400_on_the_name(anyone, tournament):
    anyone.post(url(tournament), player(1, ddv_number="55"), format="json")
    same_person = anyone.post(
        url(tournament), player(1, email="SPIELER1@example.org"), format="json"
    )
    assert same_person.status_code == 400
    assert "first_name" in same_person.json()


def test_the_same_ddv_number_from_another_person_is_taken_as_a_claim(anyone, tournament):
    """Never refused for another's claim (issue 44): the organiser decides at the desk."""
    OnlineRegistration.objects.filter(tournament=tournament).update(capacity=None)
    anyone.post(url(tournament), player(1, ddv_number="55"), format="json")
    same_number = anyone.post(url(tournament), player(2, ddv_number="55"), format="json")
    assert same_number.status_code == 201
    assert set(tournament.registrations.values_list("claim", flat=True)) == {"open"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**player(1), "first_name": "x" * 101}, "first_name"),
        ({**player(1), "email": 5}, "email"),
        ({**player(1), "ddv_number": "abc"}, "ddv_number"),
        ({**player(1), "last_name": "Nul\u0000"}, "last_name"),
        ({**player(1), "admin": True}, "admin"),
        ({"first_name": "Nur"}, "last_name"),
    ],
)
def test_hostile_input_is_a_400_naming_the_field(anyone, tournament, body, field):
    answer = anyone.post(url(tournament), body, format="json")
    assert answer.status_code == 400
    assert field in answer.json()
    assert not Registration.objects.exists()


@override_settings(REGISTRATION_RATE_CLIENT="2/hour", REGISTRATION_RATE_ADDRESS="60/hour")
def test_a_client_over_its_limit_gets_429_with_retry_after(anyone, tournament, steady_clock):
    OnlineRegistration.objects.filter(tournament=tournament).update(capacity=None)
    statuses = [
        anyone.post(url(tournament), player(n), format="json").status_code for n in range(1, 5)
    ]
    # The first answer hands out the client cookie: from then on the client is counted.
    assert statuses == [201, 201, 201, 429]
    refused = anyone.post(url(tournament), player(9), format="json")
    assert int(refused["Retry-After"]) > 0


def test_the_list_is_the_organisers(anyone, staff, tournament):
    anyone.post(url(tournament), player(1), format="json")
    anyone.post(url(tournament), player(2), format="json")
    assert anyone.get(url(tournament)).status_code == 401
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=factories.user()).key}")
    refused = other.get(url(tournament), HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 403
    assert "Only an organiser" in refused.json()["detail"]
    listed = staff.get(url(tournament)).json()
    assert [
        (line["last_name"], line["state"], line["place"], line["start_number"]) for line in listed
    ] == [
        ("Nummer1", "admitted", None, 3),
        ("Nummer2", "waiting", 1, None),
    ]


def test_settings_read_change_and_the_waiting_list_moves_up(anyone, staff, tournament):
    anyone.post(url(tournament), player(1), format="json")
    anyone.post(url(tournament), player(2), format="json")
    read = staff.get(url(tournament, "registration")).json()
    assert read["capacity"] == 3
    assert read["is_open"] is True
    changed = staff.patch(url(tournament, "registration"), {"capacity": 4}, format="json")
    assert changed.status_code == 200, changed.content
    assert changed.json()["capacity"] == 4
    assert Registration.objects.get(last_name="Nummer2").state == Registration.State.ADMITTED


def test_settings_put_opens_a_registration_and_refuses_a_bad_window(staff, organiser):
    tournament = factories.tournament(organiser=organiser)
    assert staff.get(url(tournament, "registration")).status_code == 404
    bad = staff.put(
        url(tournament, "registration"),
        {"opens_at": "2026-02-01T10:00:00Z", "closes_at": "2026-01-01T10:00:00Z"},
        format="json",
    )
    assert bad.status_code == 400
    assert "closes_at" in bad.json()
    good = staff.put(
        url(tournament, "registration"),
        {
            "opens_at": "2026-01-01T10:00:00Z",
            "closes_at": "2099-01-01T10:00:00Z",
            "capacity": None,
            "waiting_list": False,
            "note": "Startgeld 10 €",
        },
        format="json",
    )
    assert good.status_code == 200, good.content
    assert OnlineRegistration.objects.get(tournament=tournament).note == "Startgeld 10 €"


def test_reopen(anyone, staff, tournament):
    staff.post(url(tournament, "registration/close"))
    answer = staff.post(url(tournament, "registration/reopen"))
    assert answer.status_code == 200
    assert answer.json()["is_open"] is True
    assert anyone.post(url(tournament), player(1), format="json").status_code == 201


def test_admit_move_and_cancel(anyone, staff, tournament):
    for n in (1, 2, 3, 4):
        anyone.post(url(tournament), player(n), format="json")
    second, third, fourth = (Registration.objects.get(last_name=f"Nummer{n}") for n in (2, 3, 4))
    moved = staff.post(
        url(tournament, f"registrations/{fourth.pk}/move"), {"place": 1}, format="json"
    )
    assert moved.status_code == 200
    assert moved.json()["place"] == 1
    bad = staff.post(
        url(tournament, f"registrations/{fourth.pk}/move"), {"place": 0}, format="json"
    )
    assert bad.status_code == 400
    assert "place" in bad.json()
    admitted = staff.post(url(tournament, f"registrations/{third.pk}/admit"))
    assert admitted.status_code == 200
    assert admitted.json()["start_number"] == 4
    cancelled = staff.delete(url(tournament, f"registrations/{second.pk}"))
    assert cancelled.status_code == 200
    assert cancelled.json()["state"] == "cancelled"
    again = staff.delete(url(tournament, f"registrations/{second.pk}"))
    assert again.status_code == 400
    assert "state" in again.json()
    assert Entry.objects.filter(tournament=tournament, status="active").count() == 4
    assert staff.delete(url(tournament, "registrations/999999")).status_code == 404


def test_a_bad_address_is_refused_in_german_with_sie(tournament):
    """Django REST framework's own German says "Gib eine gültige E-Mail Adresse an."; the site
    words the message itself (config/worded.py), on the API as on the pages."""
    answer = APIClient().post(
        url(tournament), player(1, email="kein-at"), format="json", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert answer.status_code == 400
    assert answer.json()["email"] == ["Geben Sie eine gültige E-Mail-Adresse ein."]


def test_a_time_far_from_any_tournament_is_a_400_on_its_field(staff, organiser):
    """The fuzzer's year 84: Europe/Berlin's local mean time then is +00:53:28, which the API
    would hand back as no RFC 3339 date-time."""
    tournament = factories.tournament(organiser=organiser)
    answer = staff.put(
        url(tournament, "registration"),
        {"opens_at": "0084-10-31T19:48:29Z", "closes_at": "2026-01-01T10:00:00Z"},
        format="json",
    )
    assert answer.status_code == 400
    assert answer.json()["opens_at"] == ["Choose a time between the years 2000 and 2100."]
    assert not OnlineRegistration.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize(
    ("content_type", "said"),
    [("text/plain", "not as text/plain"), ("", "names no type")],
)
def test_anything_but_json_is_a_415_that_says_so(anyone, tournament, content_type, said):
    """Issue 44: a form on another site's page posts form fields or text, never JSON."""
    answer = anyone.generic("POST", url(tournament), "first_name=Neu", content_type=content_type)
    assert answer.status_code == 415
    assert said in answer.json()["detail"]
    assert not Registration.objects.exists()


@override_settings(
    SITE_URL="https://turnier.example.org/",
    CSRF_TRUSTED_ORIGINS=["https://*.doko.example"],
)
@pytest.mark.parametrize(
    ("origin", "status"),
    [
        ("https://turnier.example.org", 201),
        ("http://testserver", 201),
        ("https://anmeldung.doko.example", 201),
        ("https://doko.example.evil", 403),
        ("null", 403),
        ("http://[", 403),
    ],
)
def test_only_the_sites_own_origins_register(anyone, tournament, origin, status):
    answer = anyone.post(url(tournament), player(1), format="json", HTTP_ORIGIN=origin)
    assert answer.status_code == status, answer.json()
