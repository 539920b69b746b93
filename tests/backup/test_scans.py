"""The photos and scans of the signed sheets in a tournament's backup: exported with the sheet,
imported back through the storage API, checked against what the document says of them, cleaned
as an upload is (issue 44: a file changed in the backup, or written before the cleaning, keeps
no metadata and no script), and never left behind in storage by an import that fails."""

import base64
import hashlib
import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from backup.selectors import tournament_export
from backup.services import tournament_import
from scoring import services as scoring_services
from scoring.models import Scoresheet, ScoresheetScan
from scoring.policies import Actor
from tests import factories
from tests.scans import AUTHOR, CAMERA, jpeg, pdf, upload
from tournaments import services as tournament_services
from tournaments.models import Tournament, TournamentRole

pytestmark = pytest.mark.django_db


def files(media) -> set[str]:
    return {str(p.relative_to(media)) for p in media.rglob("*") if p.is_file()}


def content(scan: ScoresheetScan) -> bytes:
    with scan.file.open("rb") as file:
        return file.read()


def described(scan: ScoresheetScan) -> tuple:
    """What a scan is, but for its ids and its file's name."""
    seat = scan.uploaded_by_seat
    return (
        scan.scoresheet.table.number,
        scan.content_type,
        scan.size,
        scan.sha256,
        scan.uploaded_at,
        scan.uploaded_by.username if scan.uploaded_by else None,
        (seat.table.number, seat.position) if seat else None,
        scan.uploaded_by_name,
        content(scan),
    )


def scans_of(tournament) -> list[tuple]:
    return [
        described(scan)
        for scan in ScoresheetScan.objects.filter(
            scoresheet__table__round__tournament=tournament
        ).order_by("scoresheet__table__number")
    ]


@pytest.fixture
def tournament(media):
    """Two tables, round 1 running: table 1's photo attached by its scorekeeper's link, table
    2's PDF by the desk's account."""
    desk = factories.user(username="desk")
    tournament = factories.tournament(players=8)
    factories.role_grant(tournament=tournament, user=desk, role=TournamentRole.Role.SCOREKEEPER)
    tournament_services.round_start(round=factories.seated_round(tournament))
    one, two = Scoresheet.objects.filter(table__round__tournament=tournament).order_by(
        "table__number"
    )
    scoring_services.scoresheet_scan_attach(
        scoresheet=one, upload=upload(jpeg()), by=factories.keeper(one)
    )
    scoring_services.scoresheet_scan_attach(
        scoresheet=two, upload=upload(pdf()), by=Actor(user=desk)
    )
    return tournament


def through_json(data: dict) -> dict:
    return json.loads(json.dumps(data))


def test_a_scan_survives_the_round_trip_byte_for_byte(
    tournament, media, django_capture_on_commit_callbacks
):
    before = scans_of(tournament)
    assert [row[1] for row in before] == ["image/jpeg", "application/pdf"]
    data = through_json(tournament_export(tournament=tournament))
    item = data["scoresheets"][0]["scan"]
    assert item["content_type"] == "image/jpeg"
    assert item["uploaded_by_seat"] is not None
    assert data["scoresheets"][1]["scan"]["uploaded_by"] == "desk"
    assert "desk" in data["users"]

    # Onto a new server: without the tournament, its files and the desk's account.
    with django_capture_on_commit_callbacks(execute=True):
        tournament.delete()
        get_user_model().objects.filter(username="desk").delete()
    assert files(media) == set()
    with django_capture_on_commit_callbacks(execute=True):
        restored = tournament_import(data=data)

    after = scans_of(restored)
    assert [row[:5] + row[6:] for row in after] == [row[:5] + row[6:] for row in before]
    assert [row[5] for row in after] == [None, "desk"]  # the account, created inactive
    assert files(media) == {scan.file.name for scan in ScoresheetScan.objects.all()}
    # Exported again, it is the same document.
    again = through_json(tournament_export(tournament=restored))
    assert {**again, "exported_at": None} == {**data, "exported_at": None}


def test_a_copy_next_to_the_original_has_files_of_its_own(tournament, media):
    data = through_json(tournament_export(tournament=tournament))
    data["tournament"]["slug"] = "copy"
    copy = tournament_import(data=data)
    assert scans_of(copy) != []
    assert [row[8] for row in scans_of(copy)] == [row[8] for row in scans_of(tournament)]
    assert len(files(media)) == 4


def test_a_backup_from_before_scans_or_without_them_imports_without(tournament, media):
    data = through_json(tournament_export(tournament=tournament, scans=False))
    assert [item["scan"] for item in data["scoresheets"]] == [None, None]
    for item in data["scoresheets"]:
        del item["scan"]
    data["tournament"]["slug"] = "older"
    older = tournament_import(data=data)
    assert scans_of(older) == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"data": "not base64!"}, "is not base64"),
        ({"size": 1}, "is not the file it describes"),
        ({"sha256": "0" * 64}, "is not the file it describes"),
        ({"content_type": "image/png"}, "is not the file it describes"),
        ({"data": ""}, "is not the file it describes"),
    ],
)
def test_a_scan_that_is_not_what_the_backup_says_is_refused_and_leaves_no_file(
    tournament, media, change, message
):
    data = through_json(tournament_export(tournament=tournament))
    data["tournament"]["slug"] = "copy"
    data["scoresheets"][1]["scan"].update(change)  # the first one is written by then
    held = files(media)
    with pytest.raises(ValidationError, match=message):
        tournament_import(data=data)
    assert not Tournament.objects.filter(slug="copy").exists()
    assert files(media) == held


def test_an_import_failing_after_the_scans_leaves_no_file(tournament, media):
    data = through_json(tournament_export(tournament=tournament))
    data["tournament"]["slug"] = "copy"
    data["events"].append({"decision": 999})  # the last thing imported
    held = files(media)
    with pytest.raises(ValidationError, match="damaged"):
        tournament_import(data=data)
    assert files(media) == held


def test_the_export_command_leaves_them_out_on_request(tournament, tmp_path):
    path = tmp_path / "backup.json"
    call_command("export_tournament", tournament.slug, "-o", str(path), stdout=StringIO())
    assert json.loads(path.read_text())["scoresheets"][0]["scan"]["data"]
    call_command(
        "export_tournament", tournament.slug, "--without-scans", "-o", str(path), stdout=StringIO()
    )
    assert json.loads(path.read_text())["scoresheets"][0]["scan"] is None


def test_a_file_missing_from_storage_is_named_by_the_export_command(tournament):
    scan = ScoresheetScan.objects.filter(scoresheet__table__round__tournament=tournament).first()
    scan.file.storage.delete(scan.file.name)
    with pytest.raises(CommandError, match="--without-scans"):
        call_command("export_tournament", tournament.slug, stdout=StringIO())


def put_in(item: dict, data: bytes) -> None:
    """Put a file into the backup's scan as a changed backup would: what the document says of
    it agrees with it."""
    item.update(
        data=base64.b64encode(data).decode(),
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
    )


@pytest.mark.parametrize(
    ("index", "data"), [(0, jpeg()), (1, pdf())], ids=["photo with EXIF and GPS", "PDF with JS"]
)
def test_a_scan_with_metadata_in_the_backup_comes_back_cleaned_as_an_upload(
    tournament, media, index, data
):
    backup = through_json(tournament_export(tournament=tournament))
    backup["tournament"]["slug"] = "copy"
    put_in(backup["scoresheets"][index]["scan"], data)
    assert CAMERA.split()[0].encode() in data

    copy = tournament_import(data=backup)

    scan = ScoresheetScan.objects.get(
        scoresheet__table__round__tournament=copy, scoresheet__table__number=index + 1
    )
    stored = content(scan)
    for text in (CAMERA.split()[0], AUTHOR, "GPS", "JavaScript", "/Author"):
        assert text.encode() not in stored
    assert (scan.size, scan.sha256) == (len(stored), hashlib.sha256(stored).hexdigest())
    assert scan.content_type == backup["scoresheets"][index]["scan"]["content_type"]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (pdf(pages=11), "The PDF has 11 pages"),
        (pdf(password="secret"), "The PDF is encrypted"),
        (b"\xff\xd8\xff" + b"not a picture" * 10, "The picture cannot be read"),
    ],
    ids=["too many pages", "encrypted", "no picture"],
)
def test_a_scan_the_cleaning_refuses_refuses_the_import_naming_its_sheet(
    tournament, media, tmp_path, data, reason
):
    backup = through_json(tournament_export(tournament=tournament))
    backup["tournament"]["slug"] = "copy"
    item = backup["scoresheets"][1]["scan"]  # the first one is written by then
    put_in(item, data)
    item["content_type"] = "application/pdf" if data.startswith(b"%PDF") else "image/jpeg"
    held = files(media)
    with pytest.raises(ValidationError, match=f"round 1, table 2 is refused: {reason}"):
        tournament_import(data=backup)
    assert not Tournament.objects.filter(slug="copy").exists()
    assert files(media) == held

    path = tmp_path / "backup.json"
    path.write_text(json.dumps(backup), encoding="utf-8")
    with pytest.raises(CommandError, match="Import with --without-scans"):
        call_command("import_tournament", str(path), stdout=StringIO())
    call_command("import_tournament", str(path), "--without-scans", stdout=StringIO())
    assert not ScoresheetScan.objects.filter(
        scoresheet__table__round__tournament__slug="copy"
    ).exists()
