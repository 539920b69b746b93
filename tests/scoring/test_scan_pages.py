"""The "Signed sheet" section of the sheet page, for staff and the seats' links: the scan shown,
the upload form for whom may attach it (a phone offers its camera or a file), the reason for whom may not,
a plain multipart form that works without JavaScript."""

import pytest
from django.urls import reverse

from scoring.models import Scoresheet, ScoresheetScan
from tests import factories
from tests.scans import jpeg, pdf, upload
from tournaments import services as tournament_services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media")]


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def organiser():
    return factories.user(first_name="Olga", last_name="Organ")


@pytest.fixture
def sheet(organiser) -> Scoresheet:
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    return Scoresheet.objects.select_related("table__round__tournament").get(table__round=round_)


def link(sheet, position, action=""):
    token = sheet.table.seats.get(position=position).token
    return reverse("scoring:sheet-link" + (f"-{action}" if action else ""), args=[token])


def staff_url(sheet, action=""):
    table = sheet.table
    args = [table.round.tournament.slug, table.round.number, table.number]
    return reverse("scoring:sheet" + (f"-{action}" if action else ""), args=args)


def section(page) -> str:
    html = page.content.decode()
    start = html.index('<section id="scan"')
    return html[start : html.index("</section>", start)]


def test_the_scorekeeper_is_offered_the_camera_or_a_file(client, sheet):
    """No ``capture``: it would open the camera only (on Android), never the files; without it
    Android and iOS alike offer camera, photos and files, for a photo or a PDF."""
    html = section(client.get(link(sheet, 4)))
    assert "No photo or scan of the signed scoresheet has been attached yet." in html
    assert 'enctype="multipart/form-data"' in html
    assert f'action="{link(sheet, 4, "scan")}#scan"' in html
    assert 'accept="image/jpeg,image/png,application/pdf"' in html
    assert "capture=" not in html
    assert "csrfmiddlewaretoken" in html


def test_another_player_sees_who_attaches_it_instead_of_the_form(client, sheet):
    html = section(client.get(link(sheet, 1)))
    assert "<form" not in html
    assert "The scorekeeper (seat 4) or the desk attaches the signed scoresheet." in html


def test_the_scorekeepers_photo_is_attached_and_shown_to_the_table(client, sheet):
    response = client.post(link(sheet, 4, "scan"), {"file": upload(jpeg())})
    assert response.status_code == 302
    assert response["Location"] == f"{link(sheet, 4)}#scan"
    scan = ScoresheetScan.objects.get(scoresheet=sheet)
    for position in (1, 4):
        html = section(client.get(link(sheet, position)))
        src = f"{link(sheet, position, 'scan')}?v={scan.sha256[:12]}"
        assert f'<img src="{src}"' in html
        assert "Attached by" in html
        assert "(seat 4)" in html
        shown = client.get(src)
        assert shown.status_code == 200
        assert shown["Content-Type"] == "image/jpeg"
        assert b"".join(shown.streaming_content) == scan.file.open("rb").read()


def test_staff_attach_a_pdf_and_it_is_linked_to_open_in_the_browser(client, sheet, organiser):
    client.force_login(organiser)
    response = client.post(staff_url(sheet, "scan"), {"file": upload(pdf(), name="s.pdf")})
    assert response.status_code == 302
    html = section(client.get(staff_url(sheet)))
    assert "Open the signed scoresheet (PDF)" in html
    assert "Attached by Olga Organ" in html
    assert "Replace it with a new photo or scan" in html
    opened = client.get(staff_url(sheet, "scan"))
    assert opened["Content-Type"] == "application/pdf"
    assert opened["Content-Disposition"].startswith("inline;")


def test_a_refused_file_is_answered_beside_the_form_and_nothing_is_saved(client, sheet):
    response = client.post(link(sheet, 4, "scan"), {"file": upload(b"no picture")})
    assert response.status_code == 422
    html = section(response)
    assert "This is not a JPEG, PNG or PDF file." in html
    assert 'type="file"' in html  # the form again, to try another file
    assert not ScoresheetScan.objects.exists()


def test_a_post_without_a_file_is_answered_beside_the_form(client, sheet):
    response = client.post(link(sheet, 4, "scan"), {})
    assert response.status_code == 422
    assert "Choose a photo or a scan of the signed scoresheet" in section(response)


def test_another_player_may_not_attach_it(client, sheet):
    response = client.post(link(sheet, 1, "scan"), {"file": upload(jpeg())})
    assert response.status_code == 403
    assert not ScoresheetScan.objects.exists()


def test_the_file_has_a_policy_of_its_own_that_runs_nothing(client, sheet):
    client.post(link(sheet, 4, "scan"), {"file": upload(jpeg())})
    policy = client.get(link(sheet, 1, "scan"))["Content-Security-Policy"]
    assert "default-src 'none'" in policy
    assert "script-src" not in policy


def test_no_scan_is_a_404(client, sheet):
    assert client.get(link(sheet, 1, "scan")).status_code == 404


def test_the_staff_address_needs_a_login(client, sheet):
    response = client.get(staff_url(sheet, "scan"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_history_names_who_attached_it_beside_the_versions(client, sheet, organiser):
    client.post(link(sheet, 4, "scan"), {"file": upload(jpeg())})
    html = client.get(link(sheet, 1, "history")).content.decode()
    assert "Signed sheet attached by" in html
    assert "attaching changes no version of the sheet" in html


def test_a_file_a_byte_over_ten_megabytes_is_refused_beside_the_form_naming_the_limit(
    client, sheet
):
    from scoring.models import SCAN_MAX_BYTES
    from tests.scans import padded_jpeg

    response = client.post(
        link(sheet, 4, "scan"), {"file": upload(padded_jpeg(SCAN_MAX_BYTES + 1))}
    )
    assert response.status_code == 422
    assert "The file is larger than 10.0\xa0MB." in section(response)
    assert not ScoresheetScan.objects.exists()
