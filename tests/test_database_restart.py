"""A database that really does not answer (the `--postgres` pass): while PostgreSQL restarts,
connections are refused, and every page and the API answer our 503 with ``Retry-After`` in the
reader's language (``config/errors.py``), never Django's bare English "Server Error (500)"; the
site answers again once the database is back. ``tests/test_errors.py`` holds the same with a
patched cursor on both backends; this is the fault as it happens."""

import contextlib
import socket

import pytest
from django.db import connection
from django.test import Client

from tests import factories

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _closed_port() -> int:
    """A port on loopback where nothing listens, as PostgreSQL's while it restarts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def database_restarting():
    """Within it the site's connection goes to a port nobody answers on; afterwards back."""
    assert connection.vendor == "postgresql"
    settings_dict = connection.settings_dict
    host, port = settings_dict["HOST"], settings_dict["PORT"]
    connection.close()
    settings_dict["HOST"], settings_dict["PORT"] = "127.0.0.1", _closed_port()
    try:
        yield
    finally:
        connection.close()
        settings_dict["HOST"], settings_dict["PORT"] = host, port


def test_pages_and_the_api_answer_503_in_german_while_the_database_restarts(settings):
    settings.DEBUG = False
    tournament = factories.tournament(players=4)
    client = Client(raise_request_exception=False)
    addresses = ["/", f"/tournaments/{tournament.slug}/", "/api/v1/tournaments/"]
    with database_restarting():
        answers = {
            address: client.get(address, headers={"accept-language": "de"}) for address in addresses
        }
    for address, answer in answers.items():
        assert answer.status_code == 503, (address, answer.status_code)
        assert answer["Retry-After"].isdigit(), address
        assert answer["Content-Language"] == "de", address
        text = answer.content.decode()
        assert "Datenbank" in text, (address, text[:300])
        assert "Server Error" not in text, address
    assert "Datenbank" in answers["/api/v1/tournaments/"].json()["detail"]
    # The database back, the same reader is served again.
    assert client.get(f"/tournaments/{tournament.slug}/").status_code == 200
