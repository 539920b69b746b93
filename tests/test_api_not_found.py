"""Every API address that names nothing answers a 404 in the reader's language and in the
site's words: never Django's "No TournamentRole matches the given query.", which names a model
and is English only (``config.api_errors``)."""

import re

import pytest
from django.apps import apps
from django.urls import URLPattern, reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config import api_urls
from tests import factories
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

MISSING_NUMBER = 987654


def _addresses(slug: str) -> list[str]:
    """Each API route, with the tournament's short name and numbers or keys that name nothing:
    a round, table, player, decision or role that does not exist."""
    fill = {"SlugConverter": slug, "IntConverter": MISSING_NUMBER}
    addresses = []
    for pattern in api_urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        kwargs = {
            name: fill.get(type(converter).__name__, "0" * 12)
            for name, converter in pattern.pattern.converters.items()
        }
        addresses.append(reverse(f"{api_urls.app_name}:{pattern.name}", kwargs=kwargs))
    return addresses


def _internal_words() -> re.Pattern:
    names = {model.__name__ for model in apps.get_models()}
    words = [*names, "matches the given query", "Not found", "pk", "object", "query"]
    return re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b")


def test_every_api_404_speaks_german_and_names_no_internals():
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    tournament_services.round_start(round=factories.seated_round(tournament))
    api = APIClient()
    token = Token.objects.get_or_create(user=organiser)[0].key
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}", HTTP_ACCEPT_LANGUAGE="de")
    internal = _internal_words()
    found = {}
    for address in _addresses(tournament.slug):
        answer = api.get(address)
        if answer.status_code == 404:
            found[address] = answer.json()
    assert len(found) >= 10, found
    for address, body in found.items():
        text = str(body)
        assert not internal.search(text), (address, body)
    assert any("Unter dieser Adresse" in str(body) for body in found.values()), found


def test_a_tournament_that_does_not_exist_is_a_404_in_english_too():
    answer = APIClient().get(
        reverse("api:tournament", args=["no-such-tournament"]),
        headers={"accept-language": "en"},
    )
    assert answer.status_code == 404
    assert answer.json()["detail"].startswith("Nothing was found at this address")


def test_a_page_that_names_nothing_is_our_404_in_german(client):
    """The pages as the API: our own page in the reader's language, never Django's "Not
    Found" or a model's name (``templates/404.html``)."""
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    addresses = [
        "/no-such-page/",
        reverse("tournaments:tournament", args=["no-such-tournament"]),
        reverse("tournaments:player", args=[tournament.slug, MISSING_NUMBER]),
    ]
    internal = _internal_words()
    for address in addresses:
        answer = client.get(address, headers={"accept-language": "de"})
        assert answer.status_code == 404, address
        text = answer.content.decode()
        assert "Nicht gefunden" in text, address
        assert not internal.search(text.replace("Nicht gefunden", "")), address
