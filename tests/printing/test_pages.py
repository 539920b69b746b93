"""The printout pages: an organiser starts a job, watches it and downloads the PDF; nobody
else sees it."""

import pytest
from django.urls import reverse

from printing import services as printing_services
from printing.models import Job
from tests import factories

pytestmark = pytest.mark.django_db


def test_organiser_prints_the_list_of_players(client, played, django_capture_on_commit_callbacks):
    tournament, _, organiser = played
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("printing:entries-print", args=[tournament.slug]))
    job = Job.objects.get()
    assert response.url == reverse("printing:job", args=[job.pk])
    # Without Redis the job ran in-process as soon as the request's transaction committed.
    assert job.status == Job.Status.DONE
    assert job.progress == 100
    status = client.get(reverse("printing:job", args=[job.pk]), headers={"HX-Request": "true"})
    assert reverse("printing:job-download", args=[job.pk]) in status.content.decode()
    download = client.get(reverse("printing:job-download", args=[job.pk]))
    pdf = b"".join(download.streaming_content)
    assert pdf.startswith(b"%PDF")
    assert download["Content-Disposition"].startswith("attachment")


def test_job_page_polls_while_the_job_runs(client, played):
    tournament, _, organiser = played
    job = Job.objects.create(tournament=tournament, kind=Job.Kind.ENTRY_LIST_PDF, language="de")
    client.force_login(organiser)
    page = client.get(reverse("printing:job", args=[job.pk])).content.decode()
    assert 'hx-trigger="every 1s"' in page
    assert client.get(reverse("printing:job-download", args=[job.pk])).status_code == 404


def test_a_rounds_printout_leads_back_to_its_round(client, played):
    """The walk: after printing the seat slips the page led back only to the tournament."""
    tournament, _, organiser = played
    round_ = tournament.rounds.get(number=1)
    job = Job.objects.create(
        tournament=tournament, round=round_, kind=Job.Kind.SEAT_SLIPS_PDF, language="de"
    )
    client.force_login(organiser)
    page = client.get(reverse("printing:job", args=[job.pk])).content.decode()
    assert f'href="{reverse("tournaments:round", args=[tournament.slug, 1])}"' in page


def test_printing_needs_the_organiser_role(client, played):
    tournament, _, _ = played
    url = reverse("printing:entries-print", args=[tournament.slug])
    assert client.post(url).status_code == 302  # to the login page
    client.force_login(factories.user())
    assert client.post(url).status_code == 403
    assert not Job.objects.exists()


def test_someone_elses_job_is_not_found(client, played):
    tournament, _, organiser = played
    job = printing_services.job_start(
        tournament=tournament, kind=Job.Kind.ENTRY_LIST_PDF, by=organiser
    )
    client.force_login(factories.user())
    assert client.get(reverse("printing:job", args=[job.pk])).status_code == 404
    assert client.get(reverse("printing:job-download", args=[job.pk])).status_code == 404


def test_a_rounds_files_are_named_in_the_readers_language(
    client, played, django_capture_on_commit_callbacks
):
    """The seating by name was started in English and the seat slips in German (issue 32: a
    download set read "…-names.pdf" beside "…-platzzettel.pdf"): each reader gets every file
    named in his own language, whoever started it."""
    tournament, round_, organiser = played
    client.force_login(organiser)
    kinds = ["tables", "names", "cards", "scoresheets", "slips", "results"]
    for index, kind in enumerate(kinds):
        client.cookies["django_language"] = "en" if index % 2 else "de"
        with django_capture_on_commit_callbacks(execute=True):
            client.post(
                reverse("printing:round-print", args=[tournament.slug, round_.number, kind])
            )
    jobs = list(Job.objects.filter(round=round_).order_by("created_at"))
    assert {job.language for job in jobs} == {"de", "en"}
    assert all(job.status == Job.Status.DONE for job in jobs)
    slug = tournament.slug
    expected = {
        "de": [
            f"{slug}-runde-1-tische.pdf",
            f"{slug}-runde-1-namen.pdf",
            f"{slug}-runde-1-tischkarten.pdf",
            f"{slug}-runde-1-spiellisten.pdf",
            f"{slug}-runde-1-platzzettel.pdf",
            f"{slug}-runde-1-ergebnisse.pdf",
        ],
        "en": [
            f"{slug}-round-1-tables.pdf",
            f"{slug}-round-1-names.pdf",
            f"{slug}-round-1-table-cards.pdf",
            f"{slug}-round-1-scoresheets.pdf",
            f"{slug}-round-1-seat-slips.pdf",
            f"{slug}-round-1-results.pdf",
        ],
    }
    for language, names in expected.items():
        client.cookies["django_language"] = language
        downloaded = []
        for job in jobs:
            response = client.get(reverse("printing:job-download", args=[job.pk]))
            assert b"".join(response.streaming_content).startswith(b"%PDF")
            disposition = response["Content-Disposition"]
            downloaded.append(disposition.split('filename="')[1].rstrip('"'))
        assert downloaded == names


def test_a_tables_sheet_and_the_standings_are_named_in_the_readers_language(
    client, played, django_capture_on_commit_callbacks
):
    tournament, round_, organiser = played
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("printing:standings-print", args=[tournament.slug]))
        client.post(reverse("printing:sheet-pdf", args=[tournament.slug, round_.number, 2]))
        client.post(reverse("printing:entries-print", args=[tournament.slug]))
    client.cookies["django_language"] = "de"
    names = []
    for job in Job.objects.order_by("created_at"):
        response = client.get(reverse("printing:job-download", args=[job.pk]))
        names.append(response["Content-Disposition"].split('filename="')[1].rstrip('"'))
    slug = tournament.slug
    assert names == [
        f"{slug}-zwischenstand.pdf",
        f"{slug}-runde-1-tisch-2.pdf",
        f"{slug}-spieler.pdf",
    ]
