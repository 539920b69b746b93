"""Printouts whose links and QR codes no phone in the hall can open: the site served on this
machine only (``make run``'s 127.0.0.1, SITE_URL unset or set to such an address). The print
buttons that put links on paper warn beside them, and the PDF says so at the foot of every
page; printouts without links say nothing (tournaments/site.py, printing/jobs.py)."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from printing.models import Job
from tests import factories
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

PAGE_WARNING = "Links and QR codes point to http://127.0.0.1:8000/"
FOOTER = "These links point to 127.0.0.1, which phones in the hall cannot open: set SITE_URL"
LAN = "http://192.168.1.20:8000/"

# SITE_URL, the address the request came in on, and whether the phones cannot open the links.
ADDRESSES = [
    pytest.param("", "127.0.0.1:8000", True, id="make-run-default"),
    pytest.param("http://127.0.0.1:8000/", "192.168.1.20:8000", True, id="site-url-loopback"),
    pytest.param(LAN, "127.0.0.1:8000", False, id="site-url-lan"),
    pytest.param("", "192.168.1.20:8000", False, id="request-on-lan"),
]


@pytest.fixture(autouse=True)
def hosts(settings):
    settings.ALLOWED_HOSTS = ["testserver", "127.0.0.1", "[::1]", "192.168.1.20"]


@pytest.fixture
def client(client):
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def organiser():
    return factories.user(first_name="Olga", last_name="Organ")


@pytest.fixture
def tournament(organiser):
    """Nine players, round 1 drawn and running: a table of four and one of five (TSR 10)."""
    tournament = factories.tournament(
        players=9, organiser=organiser, name="Pokal", allow_tables_of_five=True
    )
    tournament_services.round_start(round=factories.seated_round(tournament))
    return tournament


def pages_of(content: bytes) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(content)).pages]


def printed(client, tournament, kind: str, host: str, capture) -> list[str]:
    """The pages of a round's printout started from the round's page as the organiser does."""
    with capture(execute=True):
        client.post(
            reverse("printing:round-print", args=[tournament.slug, 1, kind]), headers={"host": host}
        )
    job = Job.objects.get()
    assert job.status == Job.Status.DONE, job.error
    with job.file.open("rb") as file:
        return pages_of(file.read())


# The pages ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("site_url", "host", "warned"), ADDRESSES)
def test_the_rounds_printouts_warn_when_the_phones_cannot_open_their_links(
    client, organiser, tournament, settings, site_url, host, warned
):
    settings.SITE_URL = site_url
    client.force_login(organiser)
    page = client.get(
        reverse("tournaments:round", args=[tournament.slug, 1]), headers={"host": host}
    )
    text = page.content.decode()
    assert ("make run HOST=0.0.0.0" in text) is warned
    if warned:
        address = site_url or f"http://{host}/"
        assert f"Links and QR codes point to {address}" in text
        # Once, above the buttons, which stay: a club evening on one laptop may print.
        assert text.count("Links and QR codes point to") == 1
        assert text.index("Links and QR codes point to") < text.index("Table cards (PDF)")
        assert "Table cards, scoresheets and seat slips:" in text
        for kind in ["tables", "names", "cards", "scoresheets", "slips", "results"]:
            assert reverse("printing:round-print", args=[tournament.slug, 1, kind]) in text


def test_the_warning_is_in_german_for_a_german_organiser(client, organiser, tournament):
    client.cookies["django_language"] = "de"
    client.force_login(organiser)
    text = client.get(
        reverse("tournaments:round", args=[tournament.slug, 1]), headers={"host": "127.0.0.1:8000"}
    ).content.decode()
    assert "Tischkarten, Spiellisten und Platzzettel:" in text
    assert "Links und QR-Codes zeigen auf http://127.0.0.1:8000/" in text


def test_printouts_without_links_carry_no_warning(client, organiser, tournament):
    """The list of players, the standings and a table's completed scoresheet print no link."""
    client.force_login(organiser)
    local = {"host": "127.0.0.1:8000"}
    pages = {
        "tournament": reverse("tournaments:tournament", args=[tournament.slug]),
        "standings": reverse("tournaments:standings", args=[tournament.slug]),
        "sheet": reverse("scoring:sheet", args=[tournament.slug, 1, 1]),
    }
    buttons = {
        "tournament": reverse("printing:entries-print", args=[tournament.slug]),
        "standings": reverse("printing:standings-print", args=[tournament.slug]),
        "sheet": reverse("printing:sheet-pdf", args=[tournament.slug, 1, 1]),
    }
    for name, url in pages.items():
        text = client.get(url, headers=local).content.decode()
        assert buttons[name] in text, name
        assert "make run HOST=0.0.0.0" not in text, name


def test_a_warned_organiser_may_still_print(
    client, organiser, tournament, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    pages = printed(
        client, tournament, "cards", "127.0.0.1:8000", django_capture_on_commit_callbacks
    )
    assert "http://127.0.0.1:8000/" in pages[0]


# The printouts ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["cards", "scoresheets", "slips"])
@pytest.mark.parametrize(("site_url", "host", "warned"), ADDRESSES)
def test_a_printout_with_links_says_so_at_the_foot_of_every_page(
    client,
    organiser,
    tournament,
    settings,
    django_capture_on_commit_callbacks,
    kind,
    site_url,
    host,
    warned,
):
    settings.SITE_URL = site_url
    client.force_login(organiser)
    pages = printed(client, tournament, kind, host, django_capture_on_commit_callbacks)
    # The links are those the footer speaks of: the address the job was started with.
    address = (site_url or f"http://{host}/").rstrip("/")
    assert all(address in page for page in pages)
    assert [FOOTER in page for page in pages] == [warned] * len(pages)
    if kind != "cards":
        assert len(pages) == 2  # two tables; nine slips, eight to a page


@pytest.mark.parametrize("kind", ["tables", "names", "results"])
def test_a_printout_without_links_has_no_such_footer(
    client, organiser, tournament, django_capture_on_commit_callbacks, kind
):
    client.force_login(organiser)
    pages = printed(client, tournament, kind, "127.0.0.1:8000", django_capture_on_commit_callbacks)
    assert not any("These links point to" in page for page in pages)


def test_the_footer_is_in_the_language_the_printout_was_asked_in(
    client, organiser, tournament, django_capture_on_commit_callbacks
):
    client.cookies["django_language"] = "de"
    client.force_login(organiser)
    pages = printed(client, tournament, "slips", "[::1]:8000", django_capture_on_commit_callbacks)
    footer = "Diese Links zeigen auf ::1, das die Handys im Saal nicht öffnen können"
    assert all(footer in page for page in pages)
