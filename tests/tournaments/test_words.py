"""The words the tournament pages use in German (docs/writing-german.md): a player is withdrawn,
only the account logs out."""

import pytest
from django.urls import reverse

from tests import factories
from tournaments import services

pytestmark = pytest.mark.django_db


def page(client, name: str, *args, language: str = "de") -> str:
    return client.get(reverse(name, args=args), HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_withdrawing_a_player_is_not_logging_out(client):
    organiser = factories.user(username="orga")
    tournament = factories.tournament(players=4, organiser=organiser)
    client.force_login(organiser)
    german = page(client, "entries", tournament.slug)
    assert german.count(">Zurückziehen</button>") == 4
    assert german.count("Abmelden") == 1  # the account's, in the top bar
    assert "Diesen Spieler für den Rest des Turniers zurückziehen?" in german
    english = page(client, "entries", tournament.slug, language="en")
    assert english.count(">Withdraw</button>") == 4


@pytest.mark.parametrize(
    ("language", "one", "many"),
    [
        ("de", "Tisch 1 hat 1 Minute mehr.", "Tisch 1 hat 5 Minuten mehr."),
        ("en", "Table 1 has 1 more minute.", "Table 1 has 5 more minutes."),
    ],
)
def test_a_count_of_one_is_singular(client, language, one, many):
    organiser = factories.user(username="orga")
    tournament = factories.tournament(players=4, organiser=organiser)
    services.round_start(round=factories.seated_round(tournament))
    client.force_login(organiser)
    path = reverse("round-extra-time", args=[tournament.slug, 1])
    for minutes, message in [(1, one), (5, many)]:
        response = client.post(
            path,
            {"table": 1, "minutes": minutes, "reason": "Beschwerde"},
            HTTP_ACCEPT_LANGUAGE=language,
            follow=True,
        )
        assert message in response.content.decode()
