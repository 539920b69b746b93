"""SITE_URL: the address the phones in the hall open (tournaments/site.py)."""

from django.test import RequestFactory

from tournaments.site import absolute_url, site_url


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
