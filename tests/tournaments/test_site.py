"""SITE_URL: the address the phones in the hall open, and the warning when they cannot
(tournaments/site.py)."""

import pytest
from django.test import RequestFactory
from django.utils import translation

from tournaments.site import absolute_url, is_loopback, site_url, site_warning


def test_without_site_url_links_use_the_request_address(settings):
    settings.SITE_URL = ""
    request = RequestFactory().get("/")
    assert site_url(request) == "http://testserver/"
    assert absolute_url(request, "/s/abc/") == "http://testserver/s/abc/"


def test_site_url_wins_over_the_request_address(settings):
    settings.SITE_URL = "http://192.168.1.20:8000"
    request = RequestFactory().get("/")
    assert site_url(request) == "http://192.168.1.20:8000/"
    assert absolute_url(request, "/s/abc/") == "http://192.168.1.20:8000/s/abc/"


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/",
        "http://127.1.2.3/",  # all of 127.0.0.0/8
        "http://localhost:8000/",
        "http://LOCALHOST/",
        "HTTP://LocalHost.:8000/",
        "http://doko.localhost:8000/",
        "http://[::1]:8000/",
        "http://[::ffff:127.0.0.1]/",  # IPv4 in IPv6
        "http://0.0.0.0:8000/",
        "http://[::]:8000/",
        "127.0.0.1:8000",  # an address without a scheme
    ],
)
def test_an_address_of_this_machine_only_is_loopback(url):
    assert is_loopback(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://192.168.1.20:8000/",
        "http://[fe80::1]:8000/",
        "http://[2001:db8::1]/",
        "https://doko.example.org/",
        "http://localhost.example.org/",
        "http://mylocalhost/",
        "http://128.0.0.1/",
        "http://[::1/",  # unclosed: no address at all, so no warning about it either
        "",
    ],
)
def test_an_address_the_hall_can_reach_is_not_loopback(url):
    assert not is_loopback(url)


@pytest.fixture
def hosts(settings):
    """Requests may come in on this machine's address or on the hall's network."""
    settings.ALLOWED_HOSTS = ["testserver", "127.0.0.1", "[::1]", "192.168.1.20"]


def test_the_warning_names_the_address_and_what_to_do(settings, hosts):
    settings.SITE_URL = ""
    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1:8000")
    warning = site_warning(request)
    assert warning is not None
    assert "http://127.0.0.1:8000/" in warning
    assert "make run HOST=0.0.0.0" in warning
    assert "SITE_URL=http://192.168.1.20:8000/" in warning


def test_the_warning_is_in_german_for_a_german_reader(settings):
    settings.SITE_URL = "http://localhost:8000"
    with translation.override("de"):
        warning = site_warning(RequestFactory().get("/"))
    assert warning is not None
    assert warning.startswith("Links und QR-Codes zeigen auf http://localhost:8000/")


def test_site_url_decides_whether_to_warn(settings, hosts):
    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1:8000")
    settings.SITE_URL = "http://192.168.1.20:8000/"
    assert site_warning(request) is None
    settings.SITE_URL = "http://127.0.0.1:8000/"
    assert site_warning(RequestFactory().get("/", HTTP_HOST="192.168.1.20")) is not None


def test_without_site_url_the_requests_own_address_decides(settings, hosts):
    settings.SITE_URL = ""
    assert site_warning(RequestFactory().get("/", HTTP_HOST="192.168.1.20:8000")) is None
    assert site_warning(RequestFactory().get("/", HTTP_HOST="[::1]:8000")) is not None
