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
        response = client.post(reverse("entries-print", args=[tournament.slug]))
    job = Job.objects.get()
    assert response.url == reverse("job", args=[job.pk])
    # Without Redis the job ran in-process as soon as the request's transaction committed.
    assert job.status == Job.Status.DONE
    assert job.progress == 100
    status = client.get(reverse("job", args=[job.pk]), headers={"HX-Request": "true"})
    assert reverse("job-download", args=[job.pk]) in status.content.decode()
    download = client.get(reverse("job-download", args=[job.pk]))
    pdf = b"".join(download.streaming_content)
    assert pdf.startswith(b"%PDF")
    assert download["Content-Disposition"].startswith("attachment")


def test_job_page_polls_while_the_job_runs(client, played):
    tournament, _, organiser = played
    job = Job.objects.create(tournament=tournament, kind=Job.Kind.ENTRY_LIST_PDF, language="de")
    client.force_login(organiser)
    page = client.get(reverse("job", args=[job.pk])).content.decode()
    assert 'hx-trigger="every 1s"' in page
    assert client.get(reverse("job-download", args=[job.pk])).status_code == 404


def test_printing_needs_the_organiser_role(client, played):
    tournament, _, _ = played
    url = reverse("entries-print", args=[tournament.slug])
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
    assert client.get(reverse("job", args=[job.pk])).status_code == 404
    assert client.get(reverse("job-download", args=[job.pk])).status_code == 404
