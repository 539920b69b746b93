"""The signed sheet's photo or scan through the API (…/scoresheet/scan): the scorekeeper's key or
sheet staff attach it (multipart, ``file``); it is served back byte for byte as it was stored,
without its metadata, to staff and to every seat key of the table, and refused to anonymous
readers and to the keys of other tables."""

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring import scans
from scoring.models import SCAN_MAX_BYTES, Scoresheet, ScoresheetScan
from tests import factories
from tests.scans import CAMERA, jpeg, padded_jpeg, pdf, png, upload
from tournaments import services as tournament_services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media")]


@pytest.fixture
def organiser():
    return factories.user(first_name="Olga", last_name="Organ")


@pytest.fixture
def tournament(organiser):
    """Eight players at two tables, round 1 running."""
    tournament = factories.tournament(players=8, organiser=organiser)
    tournament_services.round_start(round=factories.seated_round(tournament))
    return tournament


@pytest.fixture
def sheet(tournament) -> Scoresheet:
    return Scoresheet.objects.select_related("table__round__tournament").get(
        table__round__tournament=tournament, table__number=1
    )


@pytest.fixture
def api():
    return APIClient()


def url(sheet, action="scan", table=None):
    args = [sheet.table.round.tournament.slug, sheet.table.round.number]
    name = "api:scoresheet" + (f"-{action}" if action else "")
    return reverse(name, args=[*args, table or sheet.table.number])


def key(sheet, position, table=1) -> dict:
    seat = sheet.table.round.seats.get(table__number=table, position=position)
    return {"X-Seat-Key": seat.token, "Accept-Language": "en"}


def token(user) -> dict:
    return {
        "Authorization": f"Token {Token.objects.get_or_create(user=user)[0].key}",
        "Accept-Language": "en",
    }


def post(api, sheet, data, headers, name="sheet.jpg", **extra):
    return api.post(
        url(sheet), {"file": upload(data, name=name)}, format="multipart", headers=headers, **extra
    )


def stored(sheet) -> bytes:
    with ScoresheetScan.objects.get(scoresheet=sheet).file.open("rb") as file:
        return file.read()


def body(response) -> bytes:
    return b"".join(response.streaming_content)


# Attaching --------------------------------------------------------------------------------------


def test_the_scorekeepers_key_attaches_the_photo(api, sheet):
    response = post(api, sheet, jpeg(), key(sheet, 4))
    assert response.status_code == 201, response.content
    data = response.json()
    keeper = sheet.table.seats.get(position=4).entry.player.name
    assert data["content_type"] == "image/jpeg"
    assert data["size"] == len(stored(sheet))
    assert data["uploaded_by"] == f"{keeper} (seat 4)"
    assert data["uploaded_at"]
    assert data["url"] == url(sheet)
    assert response["Location"] == f"http://testserver{url(sheet)}"


def test_attaching_leaves_the_sheets_version_and_the_sheet_names_its_scan(api, sheet, organiser):
    version = api.get(url(sheet, ""), headers=token(organiser)).json()["version"]
    post(api, sheet, pdf(), token(organiser), name="scan.pdf")
    data = api.get(url(sheet, ""), headers=token(organiser)).json()
    assert data["version"] == version
    assert data["scan"]["content_type"] == "application/pdf"
    assert data["scan"]["uploaded_by"] == "Olga Organ"
    assert data["scan"]["url"] == url(sheet)


def test_a_sheet_without_a_scan_says_so(api, sheet, organiser):
    assert api.get(url(sheet, ""), headers=token(organiser)).json()["scan"] is None


def test_another_players_key_may_not_attach_it_and_is_told_who_does(api, sheet):
    response = post(api, sheet, jpeg(), key(sheet, 1))
    assert response.status_code == 403
    assert response.json()["detail"] == (
        "The scorekeeper (seat 4) or the desk attaches the signed scoresheet."
    )
    assert not ScoresheetScan.objects.exists()


def test_the_key_of_another_table_may_not_attach_it(api, sheet):
    assert post(api, sheet, jpeg(), key(sheet, 4, table=2)).status_code == 403
    assert not ScoresheetScan.objects.exists()


def test_anonymous_uploads_are_refused(api, sheet):
    assert post(api, sheet, jpeg(), {}).status_code == 401


def test_an_upload_without_a_file_is_a_400_on_file(api, sheet):
    response = api.post(url(sheet), {"other": "x"}, format="multipart", headers=key(sheet, 4))
    assert response.status_code == 400
    assert response.json() == {
        "file": ["Choose a photo or a scan of the signed scoresheet: a JPEG, PNG or PDF file."]
    }


def test_json_is_not_an_upload(api, sheet):
    response = api.post(url(sheet), {"file": "x"}, format="json", headers=key(sheet, 4))
    assert response.status_code == 415


def test_a_file_of_ten_megabytes_is_attached_and_one_a_byte_larger_is_refused(api, sheet):
    assert post(api, sheet, padded_jpeg(SCAN_MAX_BYTES), key(sheet, 4)).status_code == 201
    refused = post(api, sheet, padded_jpeg(SCAN_MAX_BYTES + 1), key(sheet, 4))
    assert refused.status_code == 400
    assert list(refused.json()) == ["file"]
    assert refused.json()["file"][0].startswith("The file is larger than 10.0\xa0MB.")


def test_a_file_of_another_type_is_refused_whatever_it_is_called(api, sheet):
    response = post(api, sheet, b"<svg onload='alert(1)'/>", key(sheet, 4), name="x.png")
    assert response.status_code == 400
    assert response.json()["file"][0].startswith("This is not a JPEG, PNG or PDF file.")


def test_the_refusal_is_in_the_readers_language(api, sheet):
    headers = {**key(sheet, 4), "Accept-Language": "de"}
    response = post(api, sheet, b"hello", headers)
    assert response.json()["file"][0].startswith("Das ist keine JPEG-, PNG- oder PDF-Datei.")


def test_uploads_through_a_key_count_against_its_limit(api, sheet, settings, steady_clock):
    settings.SEAT_LINK_RATE = "1/min"
    assert post(api, sheet, jpeg(), key(sheet, 4)).status_code == 201
    first = stored(sheet)
    refused = post(api, sheet, png(), key(sheet, 4))
    assert refused.status_code == 429
    assert refused["Retry-After"]
    assert stored(sheet) == first


# Reading it back --------------------------------------------------------------------------------


@pytest.mark.parametrize("position", [1, 2, 3, 4])
def test_every_seat_key_of_the_table_gets_the_file_byte_for_byte(api, sheet, position):
    original = jpeg()
    post(api, sheet, original, key(sheet, 4))
    response = api.get(url(sheet), headers=key(sheet, position))
    assert response.status_code == 200
    content = body(response)
    assert content == stored(sheet) == scans.scan_clean(upload(original)).content
    assert CAMERA.split()[0].encode() not in content


def test_staff_get_the_file_with_its_type_shown_inline(api, sheet, organiser):
    post(api, sheet, pdf(), key(sheet, 4), name="../../etc/passwd\r\n.pdf")
    response = api.get(url(sheet), headers=token(organiser))
    assert response.status_code == 200
    assert body(response) == stored(sheet)
    assert response["Content-Type"] == "application/pdf"
    slug = sheet.table.round.tournament.slug
    assert response["Content-Disposition"] == (
        f'inline; filename="scoresheet-{slug}-round-1-table-1.pdf"'
    )
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Cache-Control"] == "private, no-store"  # config/privacy.py
    assert int(response["Content-Length"]) == len(stored(sheet))


def test_the_file_is_not_sent_again_while_it_is_unchanged(api, sheet, organiser):
    post(api, sheet, jpeg(), key(sheet, 4))
    etag = api.get(url(sheet), headers=token(organiser))["ETag"]
    again = api.get(url(sheet), headers={**token(organiser), "If-None-Match": etag})
    assert again.status_code == 304
    post(api, sheet, png(), key(sheet, 4))
    replaced = api.get(url(sheet), headers={**token(organiser), "If-None-Match": etag})
    assert replaced.status_code == 200
    assert replaced["Content-Type"] == "image/png"


def test_a_browser_asking_for_a_picture_gets_it(api, sheet):
    post(api, sheet, jpeg(), key(sheet, 4))
    headers = {**key(sheet, 1), "Accept": "image/avif,image/webp,image/*"}
    assert api.get(url(sheet), headers=headers).status_code == 200


def test_anonymous_readers_are_refused(api, sheet):
    post(api, sheet, jpeg(), key(sheet, 4))
    assert api.get(url(sheet)).status_code == 401


def test_the_keys_of_another_table_are_refused(api, sheet):
    post(api, sheet, jpeg(), key(sheet, 4))
    for position in (1, 4):
        response = api.get(url(sheet), headers=key(sheet, position, table=2))
        assert response.status_code == 403
        assert b"\xff\xd8" not in response.content


def test_an_account_without_a_role_is_refused(api, sheet):
    post(api, sheet, jpeg(), key(sheet, 4))
    assert api.get(url(sheet), headers=token(factories.user())).status_code == 403


def test_no_scan_is_a_404(api, sheet):
    assert api.get(url(sheet), headers=key(sheet, 1)).status_code == 404


def test_the_schema_documents_the_upload_and_the_file(api):
    schema = api.get("/api/schema/?format=json").json()
    (path,) = [p for p in schema["paths"] if p.endswith("/scoresheet/scan")]
    operations = schema["paths"][path]
    assert "multipart/form-data" in operations["post"]["requestBody"]["content"]
    assert {"201", "400", "403"} <= set(operations["post"]["responses"])
    assert set(operations["get"]["responses"]["200"]["content"]) == {
        "image/jpeg",
        "image/png",
        "application/pdf",
    }


# Hostile uploads -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["../../etc/passwd", "a\x00b.jpg", "\u202egpj.exe", "x" * 5000 + ".jpg", "", "sheet.php"],
    ids=["traversal", "nul", "rtl", "long", "none", "php"],
)
def test_whatever_the_file_is_called_nothing_but_its_content_counts(api, sheet, name):
    response = post(api, sheet, jpeg(), key(sheet, 4), name=name or "x")
    assert response.status_code == 201, response.content
    scan = ScoresheetScan.objects.get(scoresheet=sheet)
    assert scan.file.name.startswith("scans/")
    assert scan.file.name.endswith(".jpg")


@pytest.mark.parametrize(
    "data",
    [
        b"\xff\xd8\xff\xe0<html><script>alert(1)</script></html>",  # a JPEG's start, then HTML
        b"%PDF-1.4\n<script>alert(1)</script>",
        b"\x89PNG\r\n\x1a\n<svg onload=alert(1)>",
        b"\x00" * 1000,
    ],
    ids=["jpeg-html", "pdf-html", "png-svg", "zeros"],
)
def test_a_polyglot_is_refused_not_stored(api, sheet, data):
    response = post(api, sheet, data, key(sheet, 4))
    assert response.status_code == 400
    assert list(response.json()) == ["file"]
    assert not ScoresheetScan.objects.exists()


def test_two_files_at_once_keep_the_first_only(api, sheet):
    response = api.post(
        url(sheet),
        {"file": [upload(png()), upload(jpeg())]},
        format="multipart",
        headers=key(sheet, 4),
    )
    assert response.status_code == 201
    assert response.json()["content_type"] == "image/png"


def test_a_session_upload_without_the_csrf_token_is_refused(sheet, organiser):
    from django.test import Client

    from tests.permissions import fingerprint

    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    before = fingerprint()
    response = client.post(url(sheet), {"file": upload(jpeg())})
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert fingerprint() == before
