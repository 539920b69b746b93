"""The answers when the server fails (config/errors.py): the database away is a 503 with
Retry-After, anything else a 500, both translated, as a page or as the API's JSON, and neither
asks the database anything (no session, no user, no messages)."""

import pytest
from django.db import InterfaceError, OperationalError, connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def reader(settings):
    """A logged-in reader (so that a page asking for the session or the user would query),
    whose failed requests are answered as a server answers them (not raised in the test)."""
    settings.ROOT_URLCONF = "tests.error_urls"
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    client.force_login(factories.user(username="reader", is_staff=True))
    return client


@pytest.fixture
def database_away(monkeypatch):
    """From the call on, every query fails as when the database restarts (``error``, as
    Django raises it); the list of tries it returns counts them."""

    def away(error: type[Exception] = OperationalError) -> list[str]:
        tries: list[str] = []

        def cursor(self, *args, **kwargs):
            tries.append(self.alias)
            raise error("server closed the connection unexpectedly")

        monkeypatch.setattr(BaseDatabaseWrapper, "cursor", cursor)
        return tries

    return away


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_page_with_the_database_away_is_a_503_in_german_without_a_query(
    reader, database_away, error
):
    tries = database_away(error)
    response = reader.get(reverse("tournaments:home"), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    page = response.content.decode()
    assert "Die Datenbank antwortet gerade nicht" in page
    assert 'lang="de"' in page
    assert "Server Error" not in page
    # The view's one try, and none for the answer (no session, user or messages).
    assert len(tries) == 1


def test_the_api_with_the_database_away_is_a_503_in_its_json(reader, database_away):
    tries = database_away()
    response = reader.get(reverse("api:tournaments"), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "detail": "Die Datenbank antwortet gerade nicht. Bitte versuchen Sie es in einer Minute noch einmal."
    }
    assert len(tries) == 1


def test_the_language_cookie_chooses_the_language_of_the_503(reader, database_away):
    reader.cookies["django_language"] = "en"
    database_away()
    response = reader.get(reverse("tournaments:home"), HTTP_ACCEPT_LANGUAGE="de")
    assert "The database is not answering at the moment" in response.content.decode()


def test_a_page_that_fails_is_a_translated_500_without_a_query(reader):
    with CaptureQueriesContext(connection) as queries:
        response = reader.get("/boom/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 500
    assert "Retry-After" not in response
    page = response.content.decode()
    assert "Auf dem Server ist ein Fehler aufgetreten" in page
    assert "Server Error (500)" not in page
    assert len(queries) == 0


def test_the_api_that_fails_is_a_500_in_its_json(reader):
    reader.logout()  # the API's authentication would read the session before the view fails
    with CaptureQueriesContext(connection) as queries:
        response = reader.get("/api/v1/boom/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 500
    assert response.json() == {
        "detail": "Something went wrong on the server. It has been logged; please try again."
    }
    assert len(queries) == 0
