"""The tournaments API: the list, and what anonymous clients see of it."""

import pytest
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


def test_tournaments_are_listed(client, tournament):
    data = client.get(reverse("api-tournaments")).json()
    assert data["count"] == 1
    assert data["results"][0]["slug"] == tournament.slug
    assert data["results"][0]["entry_count"] == 8


def test_private_tournaments_are_not_listed_for_anonymous_clients(client, tournament):
    factories.tournament(is_public=False)
    assert client.get(reverse("api-tournaments")).json()["count"] == 1
