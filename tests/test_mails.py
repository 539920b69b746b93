"""Every mail names the site by ``SITE_URL`` only (tournaments/mails.py), never by the Host a
request came in on, which is the client's to choose; a production site that sends mail refuses
to start without it (tournaments/checks.py)."""

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import TestCase
from django.urls import reverse

from tests import factories
from tournaments.checks import site_url_check

pytestmark = pytest.mark.django_db

FORGED = "attacker.example"


@pytest.fixture(autouse=True)
def any_host(settings):
    """A site that answers to any host name (or a proxy that passes the client's Host on)."""
    settings.ALLOWED_HOSTS = ["*"]


def every_text(mail) -> str:
    return mail.subject + "\n" + mail.body


@pytest.mark.parametrize(
    ("site_url", "named"),
    [("https://doko.example/", "https://doko.example/"), ("", "http://localhost:8000/")],
)
def test_the_reset_mail_names_the_site_url_not_a_forged_host(
    client, mailoutbox, settings, site_url, named
):
    settings.SITE_URL = site_url
    factories.user(username="olga", email="olga@example.org")
    client.post(
        reverse("password_reset"),
        {"email": "olga@example.org"},
        HTTP_HOST=FORGED,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    (mail,) = mailoutbox
    assert FORGED not in every_text(mail)
    assert mail.subject == "A new password for " + named.split("//")[1].rstrip("/")
    assert named + "accounts/reset/" in mail.body


@pytest.mark.parametrize(
    ("site_url", "named"),
    [("https://doko.example/", "https://doko.example/"), ("", "http://localhost:8000/")],
)
def test_the_invitation_mail_names_the_site_url_not_a_forged_host(
    client, mailoutbox, settings, site_url, named
):
    settings.SITE_URL = site_url
    organiser = factories.user(username="organiser")
    tournament = factories.tournament(organiser=organiser)
    client.force_login(organiser)
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(
            reverse("adjudication:staff-invite", args=[tournament.slug]),
            {"name": "Jürgen Müller", "email": "juergen@example.org", "role": "adjudicator"},
            HTTP_HOST=FORGED,
        )
    assert response.status_code == 302
    (mail,) = mailoutbox
    assert FORGED not in every_text(mail)
    assert named + "accounts/invitation/" in mail.body


PRODUCTION_MAIL = {"DEBUG": False, "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend"}


def test_a_production_site_that_sends_mail_needs_a_site_url(settings):
    for name, value in PRODUCTION_MAIL.items():
        setattr(settings, name, value)
    settings.SITE_URL = ""
    (error,) = site_url_check(None)
    assert error.id == "tournaments.E001"
    assert "SITE_URL is not set" in error.msg
    with pytest.raises(SystemCheckError, match="SITE_URL"):
        call_command("check")
    settings.SITE_URL = "https://doko.example/"
    assert site_url_check(None) == []


@pytest.mark.parametrize(
    ("debug", "backend"),
    [
        (True, "django.core.mail.backends.smtp.EmailBackend"),
        (False, "django.core.mail.backends.console.EmailBackend"),
    ],
)
def test_a_local_run_or_a_site_without_mail_needs_none(settings, debug, backend):
    settings.DEBUG, settings.EMAIL_BACKEND, settings.SITE_URL = debug, backend, ""
    assert site_url_check(None) == []


@pytest.mark.parametrize("site_url", ["doko.example", "ftp://doko.example/", "https://"])
def test_a_site_url_that_is_no_web_address_is_refused(settings, site_url):
    settings.SITE_URL = site_url
    (error,) = site_url_check(None)
    assert error.id == "tournaments.E002"
