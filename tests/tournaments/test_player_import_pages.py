"""The import page: a CSV list of players uploaded, previewed with every problem by line, then
registered all or none."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def organiser():
    return factories.user(username="orga")


@pytest.fixture
def tournament(organiser):
    return factories.tournament(players=12, organiser=organiser, name="Pik-Pokal")


def upload(content: bytes, name: str = "spieler.csv"):
    return SimpleUploadedFile(name, content, content_type="text/csv")


@pytest.mark.parametrize("byte", [b"\x00", b"\x1b", b"\xc2\x85"])
def test_a_control_character_is_named_by_line_and_column_in_the_preview(
    client, organiser, tournament, byte
):
    """A NUL byte, which PostgreSQL's text cannot hold, and the other control characters: the
    preview names them, and nothing can be confirmed."""
    client.force_login(organiser)
    url = reverse("players-import", args=[tournament.slug])
    response = client.post(url, {"file": upload(b"Vorname;Nachname\nAnna;Ber" + byte + b"g\n")})
    page = response.content.decode()
    assert response.status_code == 400
    assert "Line 2, column “Nachname”: the value holds an invisible control character" in page
    assert "nothing has been saved" in page
    assert 'name="key"' not in page
    assert 'name="content"' not in page
    assert tournament.entries.count() == 12
