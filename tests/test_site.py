"""The site's own pages: the language switch, the health check and the icon."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_language_link_goes_back_only_to_this_site(client):
    response = client.get(reverse("language", args=["en"]), {"next": "https://example.org/"})
    assert response["Location"] == "/"
    assert response.cookies["django_language"].value == "en"
    assert client.get(reverse("language", args=["fr"])).status_code == 404


def test_health_check_answers(client):
    assert client.get("/healthz/").json() == {"status": "ok"}


def test_the_browsers_favicon_is_the_sites_icon(client):
    """Issue 47: ``/favicon.ico`` was a 404 in every browser's console."""
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith(".ico")
    assert "/static/img/favicon" in response["Location"]
    assert "max-age=86400" in response["Cache-Control"]
