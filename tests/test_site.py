"""The site's own pages: the language switch and the health check."""

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
