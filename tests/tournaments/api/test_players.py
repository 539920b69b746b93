"""The players API: registering, importing and withdrawing players, and their DDV numbers."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.authtoken.models import Token

from tests import factories
from tournaments.player_import import MAX_IMPORT_BYTES

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("ddv_number", "status"), [("", 201), ("0123", 201), ("12a", 400)])
def test_a_ddv_number_is_digits_or_blank(client, ddv_number, status):
    organiser = factories.user()
    tournament = factories.tournament(organiser=organiser)
    token = Token.objects.create(user=organiser).key
    response = client.post(
        reverse("api:entries", args=[tournament.slug]),
        {"first_name": "Erika", "last_name": "Muster", "ddv_number": ddv_number},
        content_type="application/json",
        headers={"Authorization": f"Token {token}"},
    )
    assert response.status_code == status, response.json()
    if status == 400:
        assert "ddv_number" in response.json()


@pytest.mark.parametrize("start_number", [1, "٣"])
def test_a_start_number_taken_is_refused_on_its_field(client, start_number):
    """ "٣" is 3 to Python: taken too, and said where it was typed."""
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    response = client.post(
        reverse("api:entries", args=[tournament.slug]),
        {"first_name": "Erika", "last_name": "Muster", "start_number": start_number},
        content_type="application/json",
        headers={
            "Authorization": f"Token {Token.objects.create(user=organiser).key}",
            "Accept-Language": "en",
        },
    )
    assert response.status_code == 400
    assert response.json() == {"start_number": ["This start number is already taken."]}
    assert tournament.entries.count() == 4


@pytest.mark.parametrize("start_number", [10**30, -(10**30), str(10**30)])
def test_a_start_number_beyond_64_bits_is_refused_on_its_field(client, start_number):
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    response = client.post(
        reverse("api:entries", args=[tournament.slug]),
        {"first_name": "Erika", "last_name": "Muster", "start_number": start_number},
        content_type="application/json",
        headers={"Authorization": f"Token {Token.objects.create(user=organiser).key}"},
    )
    assert response.status_code == 400
    assert list(response.json()) == ["start_number"]
    assert tournament.entries.count() == 4


def test_api_registers_imports_and_withdraws_players(client, staffed):
    tournament, headers = staffed
    slug = tournament.slug
    registered = client.post(
        reverse("api:entries", args=[slug]),
        {"first_name": "Jörg", "last_name": "Weiß", "club": "Köln"},
        content_type="application/json",
        headers=headers["organiser"],
    )
    assert registered.status_code == 201
    assert registered.json()["start_number"] == 13
    taken = client.post(
        reverse("api:entries", args=[slug]),
        {"first_name": "A", "last_name": "B", "start_number": 13},
        content_type="application/json",
        headers={**headers["organiser"], "Accept-Language": "en"},
    )
    assert taken.status_code == 400
    assert "already taken" in str(taken.json())
    imported = client.post(
        reverse("api:players-import", args=[slug]),
        {"file": SimpleUploadedFile("p.csv", "Vorname;Nachname\nÄnne;Öz\n".encode())},
        headers=headers["organiser"],
    )
    assert imported.status_code == 201
    assert imported.json()[0]["last_name"] == "Öz"
    broken = client.post(
        reverse("api:players-import", args=[slug]),
        {"file": SimpleUploadedFile("p.csv", b"Vorname;Nachname\nAnna;\n")},
        headers={**headers["organiser"], "Accept-Language": "en"},
    )
    assert broken.status_code == 400
    assert "Line 2" in broken.json()["file"][0]
    withdrawn = client.post(
        reverse("api:entry-withdraw", args=[slug, 13]), headers=headers["organiser"]
    )
    assert withdrawn.json()["status"] == "withdrawn"
    listed = client.get(reverse("api:entries", args=[slug])).json()
    assert len(listed) == 14
    refused = client.post(
        reverse("api:entry-reinstate", args=[slug, 13]), headers=headers["adjudicator"]
    )
    assert refused.status_code == 403


@pytest.mark.parametrize("byte", [b"\x00", b"\x1b", b"\xc2\x85"])
def test_a_control_character_in_an_imported_file_is_a_400_naming_line_and_column(
    client, staffed, byte
):
    """A NUL byte, which PostgreSQL's text cannot hold, and the other control characters."""
    tournament, headers = staffed
    response = client.post(
        reverse("api:players-import", args=[tournament.slug]),
        {"file": SimpleUploadedFile("p.csv", b"Vorname;Nachname\nAnna;Ber" + byte + b"g\n")},
        headers={**headers["organiser"], "Accept-Language": "en"},
    )
    assert response.status_code == 400
    [message] = response.json()["file"]
    assert message.startswith("Line 2, column “Nachname”: the value holds an invisible control")
    assert tournament.entries.count() == 12


def test_an_imported_file_over_the_limit_is_a_400_naming_the_limit(client, staffed):
    tournament, headers = staffed
    data = b"Vorname;Nachname\nAnna;Berg\n" + b";\n" * (MAX_IMPORT_BYTES // 2)
    response = client.post(
        reverse("api:players-import", args=[tournament.slug]),
        {"file": SimpleUploadedFile("p.csv", data)},
        headers={**headers["organiser"], "Accept-Language": "en"},
    )
    assert response.status_code == 400
    assert response.json() == {
        "file": [
            "The file is larger than 2.0\xa0MB, the most that can be imported at once. "
            "Split it into several files."
        ]
    }
    assert tournament.entries.count() == 12


@pytest.mark.parametrize("players", [8, 32])
def test_the_players_list_runs_a_fixed_number_of_queries(
    client, django_assert_num_queries, players
):
    tournament = factories.tournament(players=players)
    url = reverse("api:entries", args=[tournament.slug])
    with django_assert_num_queries(2):
        assert len(client.get(url).json()) == players
    with django_assert_num_queries(2):
        assert len(client.get(url, {"q": "nachname"}).json()) == players
