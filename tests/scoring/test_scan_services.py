"""Attaching the photo or scan of the signed paper sheet (TSR 7.3.4, 8.5.2): who may, when, what
is stored and where, and that a replaced or deleted scan leaves no file behind."""

import io

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from PIL import Image

from doko.sample_sheets import full_match
from scoring import policies, services
from scoring.models import Scoresheet, ScoresheetChange, ScoresheetScan
from scoring.policies import Actor
from tests import factories
from tests.scans import CAMERA, jpeg, pdf, png, upload
from tournaments import services as tournament_services
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media(media):
    return media


def files(media) -> list[str]:
    """The files stored, by name under MEDIA_ROOT."""
    return sorted(str(p.relative_to(media)) for p in media.rglob("*") if p.is_file())


def seat(sheet: Scoresheet, position: int) -> Actor:
    return Actor(seat=sheet.table.seats.get(position=position))


def staff(sheet: Scoresheet, role: str) -> Actor:
    user = factories.user(first_name="Dora", last_name="Desk")
    factories.role_grant(tournament=sheet.table.round.tournament, user=user, role=role)
    return Actor(user=user)


def attach(sheet, data=None, by=None):
    return services.scoresheet_scan_attach(
        scoresheet=sheet, upload=upload(data or jpeg()), by=by or factories.keeper(sheet)
    )


def close(sheet) -> Scoresheet:
    """The sheet confirmed, the round's time ended and the round closed (TSR 8.5.2)."""
    sheet = factories.sheet_confirmed(sheet, full_match())
    tournament_services.round_close(round=factories.round_end(sheet.table.round))
    return Scoresheet.objects.select_related("table__round").get(pk=sheet.pk)


# What is stored --------------------------------------------------------------------------------


def test_the_scorekeeper_attaches_the_photo_and_it_is_stored_without_its_metadata(sheet, media):
    scan = attach(sheet)
    scan.refresh_from_db()
    keeper = sheet.table.seats.get(position=4)
    assert scan.content_type == "image/jpeg"
    assert scan.uploaded_by_seat == keeper
    assert scan.uploaded_by is None
    assert scan.uploaded_by_name == f"{keeper.entry.player.name} (seat 4)"
    assert scan.uploaded_at is not None
    assert files(media) == [scan.file.name]
    with scan.file.open("rb") as stored:
        content = stored.read()
    assert len(content) == scan.size
    assert CAMERA.split()[0].encode() not in content
    assert Image.open(io.BytesIO(content)).size == (40, 20)


def test_attaching_changes_neither_the_sheet_nor_its_version_nor_its_history(sheet):
    keeper = factories.keeper(sheet)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:3], version=1, by=keeper
    )
    before = Scoresheet.objects.values().get(pk=sheet.pk)
    attach(sheet)
    assert Scoresheet.objects.values().get(pk=sheet.pk) == before
    assert ScoresheetChange.objects.filter(scoresheet=sheet).count() == 1
    # The scorekeeper's next save, based on the version he read, is no conflict.
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:4], version=sheet.version, by=keeper
    )


def test_a_new_scan_replaces_the_old_one_and_its_file_goes_once_committed(
    sheet, media, django_capture_on_commit_callbacks
):
    first = attach(sheet)
    old_name = first.file.name
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        second = attach(sheet, png(), by=staff(sheet, TournamentRole.Role.SCOREKEEPER))
    assert second.pk == first.pk
    assert ScoresheetScan.objects.count() == 1
    assert sorted(files(media)) == sorted([old_name, second.file.name])  # not yet committed
    for callback in callbacks:
        callback()
    assert files(media) == [second.file.name]
    second.refresh_from_db()
    assert (second.content_type, second.uploaded_by_name) == ("image/png", "Dora Desk")
    assert second.uploaded_by_seat is None


def test_a_refused_file_stores_nothing(sheet, media):
    with pytest.raises(ValidationError) as refused:
        attach(sheet, b"not a picture")
    assert list(refused.value.message_dict) == ["file"]
    assert not ScoresheetScan.objects.exists()
    assert files(media) == []


def test_a_row_not_written_takes_its_new_file_along(sheet, media, monkeypatch):
    def fail(scan, *, by):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(services.scans, "_scan_store", fail)
    with pytest.raises(RuntimeError):
        attach(sheet)
    assert files(media) == []


def test_a_pdf_scan_is_stored_as_a_pdf(sheet):
    scan = attach(sheet, pdf())
    assert scan.content_type == "application/pdf"
    assert scan.file.name.endswith(".pdf")
    assert not scan.is_image


# Who may, and when ---------------------------------------------------------------------------


def test_another_player_of_the_table_is_refused_and_told_who_attaches_it(sheet, media):
    with pytest.raises(PermissionDenied) as refused:
        attach(sheet, by=seat(sheet, 1))
    assert str(refused.value) == (
        "The scorekeeper (seat 4) or the desk attaches the signed scoresheet."
    )
    assert files(media) == []


def test_a_link_of_another_table_is_refused(tournament_of_eight):
    sheet, other = (
        Scoresheet.objects.get(table__round__tournament=tournament_of_eight, table__number=n)
        for n in (1, 2)
    )
    with pytest.raises(PermissionDenied, match="This link does not open this scoresheet"):
        attach(sheet, by=factories.keeper(other))


@pytest.fixture
def tournament_of_eight():
    tournament = factories.tournament(players=8)
    tournament_services.round_start(round=factories.seated_round(tournament))
    return tournament


def test_the_seat_the_sheet_was_handed_over_to_attaches_it(sheet):
    organiser = staff(sheet, TournamentRole.Role.ORGANISER)
    services.scoresheet_keeper_move(scoresheet=sheet, seat=2, version=1, by=organiser)
    sheet.refresh_from_db()
    assert attach(sheet, by=seat(sheet, 2)).uploaded_by_seat.position == 2
    with pytest.raises(PermissionDenied):
        attach(sheet, by=seat(sheet, 4))


@pytest.mark.parametrize("role", ["organiser", "adjudicator", "scorekeeper"])
def test_sheet_staff_attach_it(sheet, role):
    assert attach(sheet, by=staff(sheet, role)).uploaded_by_name == "Dora Desk"


@pytest.mark.parametrize("role", ["deputy", "panel"])
def test_other_staff_may_not(sheet, role):
    with pytest.raises(PermissionDenied, match="attaches the signed scoresheet"):
        attach(sheet, by=staff(sheet, role))


def test_a_confirmed_sheet_still_takes_its_scan(sheet):
    """The desk photographs the sheets once the table has signed and confirmed them."""
    sheet = factories.sheet_confirmed(sheet, full_match())
    assert attach(sheet).scoresheet.status == "confirmed"


def test_once_the_round_is_closed_only_an_organiser_attaches_it(sheet):
    sheet = close(sheet)
    for actor in (factories.keeper(sheet), staff(sheet, "adjudicator")):
        with pytest.raises(ValidationError) as refused:
            attach(sheet, by=actor)
        assert refused.value.message_dict == {
            "round": ["Round 1 is closed: only an organiser attaches a signed scoresheet now."]
        }
    assert attach(sheet, by=staff(sheet, "organiser")).uploaded_by_name == "Dora Desk"


def test_before_the_round_starts_nobody_attaches_it():
    tournament = factories.tournament(players=4)
    sheet = Scoresheet.objects.get(table__round=factories.seated_round(tournament))
    refusal = policies.may_attach_scan(
        sheet=sheet, actor=Actor(user=factories.user()), roles={"organiser"}
    )
    assert refusal is not None
    assert refusal.field == "round"
    assert refusal.message.startswith("Round 1 has not started")


def test_every_player_of_the_table_and_its_staff_read_it(sheet):
    for position in (1, 2, 3, 4):
        assert policies.may_read_scan(sheet=sheet, actor=seat(sheet, position), roles=()) is None
    for role in ("organiser", "adjudicator", "deputy", "panel", "scorekeeper"):
        actor = Actor(user=factories.user())
        assert policies.may_read_scan(sheet=sheet, actor=actor, roles={role}) is None
    refusal = policies.may_read_scan(sheet=sheet, actor=Actor(user=factories.user()), roles=())
    assert refusal == policies.Refusal("You may not see this scoresheet.")


def test_a_scorekeeper_account_reads_it_once_the_seating_is_published():
    tournament = factories.tournament(players=4)
    sheet = Scoresheet.objects.get(table__round=factories.seated_round(tournament, publish=False))
    actor = Actor(user=factories.user())
    assert policies.may_read_scan(sheet=sheet, actor=actor, roles={"scorekeeper"}) is not None
    assert policies.may_read_scan(sheet=sheet, actor=actor, roles={"organiser"}) is None


# Deleted with what holds it ----------------------------------------------------------------------


def test_a_sheet_deleted_with_its_tournament_takes_its_file_along(
    sheet, media, django_capture_on_commit_callbacks
):
    attach(sheet)
    with django_capture_on_commit_callbacks(execute=True):
        sheet.table.round.tournament.delete()
    assert not ScoresheetScan.objects.exists()
    assert files(media) == []


def test_a_file_gone_already_does_not_stop_the_delete(
    sheet, media, django_capture_on_commit_callbacks
):
    scan = attach(sheet)
    scan.file.storage.delete(scan.file.name)
    with django_capture_on_commit_callbacks(execute=True):
        sheet.delete()
    assert not ScoresheetScan.objects.exists()


def test_a_file_that_cannot_be_deleted_is_logged_not_raised(
    sheet, media, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    attach(sheet)

    def broken(storage, name):
        raise OSError("the object store does not answer")

    monkeypatch.setattr("django.core.files.storage.FileSystemStorage.delete", broken)
    with django_capture_on_commit_callbacks(execute=True):
        sheet.delete()
    assert not ScoresheetScan.objects.exists()
    assert "the object store does not answer" in caplog.text


# What the database holds -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [{"size": 0}, {"size": 10 * 1024 * 1024 + 1}, {"content_type": "text/html"}],
    ids=["empty", "too-large", "html"],
)
def test_the_database_refuses_a_scan_it_should_not_hold(sheet, fields):
    from django.db import IntegrityError, transaction
    from django.utils import timezone

    row = {
        "scoresheet": sheet,
        "file": "scans/x.jpg",
        "content_type": "image/jpeg",
        "size": 10,
        "sha256": "0" * 64,
        "uploaded_at": timezone.now(),
        "uploaded_by_name": "X",
    }
    with pytest.raises(IntegrityError), transaction.atomic():
        ScoresheetScan.objects.create(**{**row, **fields})
    ScoresheetScan.objects.create(**row)  # as it should be
