"""The import page: a CSV list of players uploaded, previewed with every problem by line, then
registered all or none."""

import base64
import copy
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests import factories
from tournaments import services
from tournaments.models import ImportUpload, TournamentRole
from tournaments.player_import import MAX_IMPORT_BYTES
from tournaments.services.imports import IMPORT_KEPT

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
    url = reverse("tournaments:players-import", args=[tournament.slug])
    response = client.post(url, {"file": upload(b"Vorname;Nachname\nAnna;Ber" + byte + b"g\n")})
    page = response.content.decode()
    assert response.status_code == 400
    assert "Line 2, column “Nachname”: the value holds an invisible control character" in page
    assert "nothing has been saved" in page
    assert 'name="key"' not in page
    assert 'name="content"' not in page
    assert tournament.entries.count() == 12


def confirm_key(page: str) -> str:
    """The key the preview's confirm button posts."""
    match = re.search(r'<input type="hidden" name="key" value="([^"]+)"', page)
    assert match, "the preview offers to register the players"
    return match.group(1)


def test_import_shows_a_preview_then_registers_all(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("tournaments:players-import", args=[tournament.slug])
    assert client.get(url).status_code == 200
    csv = "Vorname;Nachname;Verein\nJörg;Weiß;Köln\nÄnne;Müller;\n".encode()
    preview = client.post(url, {"file": upload(csv)})
    page = preview.content.decode()
    assert preview.status_code == 200
    assert "Preview: 2 players" in page
    assert tournament.entries.count() == 12  # nothing saved yet
    assert base64.b64encode(csv).decode() not in page  # the file stays on the server
    confirm = client.post(url, {"key": confirm_key(page)})
    assert confirm.status_code == 302
    assert tournament.entries.count() == 14
    assert not ImportUpload.objects.exists()  # removed once imported


def test_import_with_errors_saves_nothing_and_lists_them(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("tournaments:players-import", args=[tournament.slug])
    response = client.post(url, {"file": upload(b"Vorname;Nachname\nAnna;\n;Berg\n")})
    page = response.content.decode()
    assert response.status_code == 400
    assert "Line 2" in page
    assert "Line 3" in page
    assert "nothing has been saved" in page
    assert 'name="key"' not in page
    assert not ImportUpload.objects.exists()
    assert tournament.entries.count() == 12


def padded_list(size: int) -> bytes:
    """A list of five players that a spreadsheet padded to ``size`` bytes with empty lines of
    delimiters, as Excel writes the rows a user once touched."""
    head = "Vorname;Nachname;Verein;DDV-Nr;Startnummer\r\n" + "".join(
        f"Vorname{n};Nachname{n};Verein {n};;\r\n" for n in range(1, 6)
    )
    blank = ";;;;\r\n"
    lines, rest = divmod(size - len(head.encode()), len(blank))
    data = (head + blank * lines + " " * rest).encode()
    assert len(data) == size
    return data


def test_a_list_just_under_the_upload_limit_that_passes_the_preview_imports(
    client, organiser, tournament, settings
):
    """Finding 9: the confirm used to post the file back as base64, a third larger, and a file
    near the upload limit came back over DATA_UPLOAD_MAX_MEMORY_SIZE as a bare 400."""
    data = padded_list(MAX_IMPORT_BYTES - 1)
    assert len(base64.b64encode(data)) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    client.force_login(organiser)
    url = reverse("tournaments:players-import", args=[tournament.slug])
    preview = client.post(url, {"file": upload(data)})
    assert preview.status_code == 200
    assert "Preview: 5 players" in preview.content.decode()
    confirm = client.post(url, {"key": confirm_key(preview.content.decode())})
    assert confirm.status_code == 302
    assert tournament.entries.count() == 17


def test_a_list_over_the_upload_limit_is_refused_naming_the_limit(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("tournaments:players-import", args=[tournament.slug])
    response = client.post(url, {"file": upload(padded_list(MAX_IMPORT_BYTES + 1))})
    page = response.content.decode()
    assert response.status_code == 400
    assert "The file is larger than 2.0\xa0MB, the most that can be imported at once." in page
    assert not ImportUpload.objects.exists()


def test_a_list_with_too_many_players_is_refused_naming_the_limit(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("tournaments:players-import", args=[tournament.slug])
    rows = "".join(f"V{n};N{n}\n" for n in range(5001))
    response = client.post(url, {"file": upload(f"Vorname;Nachname\n{rows}".encode())})
    assert response.status_code == 400
    assert "The file has more than 5000 players." in response.content.decode()


def test_a_key_is_confirmed_only_by_its_uploader_in_the_same_session(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("tournaments:players-import", args=[tournament.slug])
    page = client.post(url, {"file": upload(b"Vorname;Nachname\nAnna;Berg\n")}).content.decode()
    key = confirm_key(page)
    colleague = factories.user()
    factories.role_grant(tournament=tournament, user=colleague, role=TournamentRole.Role.ORGANISER)
    other = Client()
    other.cookies["django_language"] = "en"
    other.force_login(colleague)
    assert other.post(url, {"key": key}).status_code == 400
    again = Client()
    again.cookies["django_language"] = "en"
    again.force_login(organiser)  # the same user in another session
    refused = again.post(url, {"key": key})
    assert refused.status_code == 400
    assert "Upload the file again" in refused.content.decode()
    assert tournament.entries.count() == 12
    assert client.post(url, {"key": key}).status_code == 302
    assert tournament.entries.count() == 13


def test_a_key_is_confirmed_once(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("tournaments:players-import", args=[tournament.slug])
    page = client.post(url, {"file": upload(b"Vorname;Nachname\nAnna;Berg\n")}).content.decode()
    key = confirm_key(page)
    assert client.post(url, {"key": key}).status_code == 302
    twice = client.post(url, {"key": key})
    assert twice.status_code == 400
    assert "This upload is no longer kept" in twice.content.decode()
    assert tournament.entries.count() == 13


def test_an_upload_expires_after_an_hour(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("tournaments:players-import", args=[tournament.slug])
    page = client.post(url, {"file": upload(b"Vorname;Nachname\nAnna;Berg\n")}).content.decode()
    ImportUpload.objects.update(created_at=timezone.now() - IMPORT_KEPT - timedelta(seconds=1))
    response = client.post(url, {"key": confirm_key(page)})
    assert response.status_code == 400
    assert "This upload is no longer kept" in response.content.decode()
    assert tournament.entries.count() == 12


def test_expired_uploads_are_removed_by_the_next(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("tournaments:players-import", args=[tournament.slug])
    client.post(url, {"file": upload(b"Vorname;Nachname\nAnna;Berg\n")})
    ImportUpload.objects.update(created_at=timezone.now() - IMPORT_KEPT - timedelta(seconds=1))
    other = factories.tournament(organiser=organiser)
    client.post(
        reverse("tournaments:players-import", args=[other.slug]),
        {"file": upload(b"Vorname;Nachname\nBob;Berg\n")},
    )
    assert list(ImportUpload.objects.values_list("tournament", flat=True)) == [other.pk]


def test_a_new_upload_replaces_the_one_before(client, organiser, tournament):
    client.force_login(organiser)
    url = reverse("tournaments:players-import", args=[tournament.slug])
    first = client.post(url, {"file": upload(b"Vorname;Nachname\nAnna;Berg\n")}).content.decode()
    second = client.post(url, {"file": upload(b"Vorname;Nachname\nBob;Tal\n")}).content.decode()
    assert ImportUpload.objects.count() == 1
    assert client.post(url, {"key": confirm_key(first)}).status_code == 400
    assert client.post(url, {"key": confirm_key(second)}).status_code == 302
    assert tournament.entries.filter(player__last_name="Tal").exists()
    assert not tournament.entries.filter(player__last_name="Berg").exists()


def test_an_import_the_tournament_refuses_at_confirm_names_why(client, organiser, tournament):
    """Between preview and confirm another organiser registered one of the players."""
    client.force_login(organiser)
    url = reverse("tournaments:players-import", args=[tournament.slug])
    page = client.post(url, {"file": upload(b"Vorname;Nachname\nAnna;Berg\n")}).content.decode()
    services.entry_register(tournament=tournament, first_name="Anna", last_name="Berg")
    response = client.post(url, {"key": confirm_key(page)})
    assert response.status_code == 400
    assert "Line 2: Anna Berg is already registered." in response.content.decode()
    assert "Preview: 1 player" in response.content.decode()
    assert tournament.entries.count() == 13


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_confirms_at_once_import_once():
    """A double click on PostgreSQL: the kept list is claimed in the import's transaction."""
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    url = reverse("tournaments:players-import", args=[tournament.slug])
    client = Client()
    client.force_login(organiser)
    page = client.post(url, {"file": upload(b"Vorname;Nachname\nAnna;Berg\n")}).content.decode()
    key = confirm_key(page)
    together = threading.Barrier(2)

    def confirm(_):
        try:
            clicker = Client()
            clicker.cookies = copy.deepcopy(client.cookies)
            together.wait(timeout=60)
            return clicker.post(url, {"key": key}).status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(2) as pool:
        assert sorted(pool.map(confirm, range(2))) == [302, 400]
    assert tournament.entries.count() == 5
    assert not ImportUpload.objects.exists()


@pytest.mark.parametrize("key", ["\x00", "a\x00b", "x" * 65, "../key", "²"])
def test_a_key_that_no_upload_can_have_is_refused_in_words(client, organiser, tournament, key):
    client.force_login(organiser)
    refused = client.post(
        reverse("tournaments:players-import", args=[tournament.slug]), {"key": key}
    )
    assert refused.status_code == 400
    assert "This upload is no longer kept" in refused.content.decode()
