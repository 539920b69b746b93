"""The words the tournament pages use in German (docs/writing-german.md): a player is withdrawn,
only the account logs out; counts take their number's form; dates and times as German readers
write them."""

import datetime
import zoneinfo

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
    german = page(client, "tournaments:entries", tournament.slug)
    assert german.count(">Zurückziehen</button>") == 4
    assert german.count("Abmelden") == 1  # the account's, in the top bar
    assert "Diesen Spieler für den Rest des Turniers zurückziehen?" in german
    english = page(client, "tournaments:entries", tournament.slug, language="en")
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
    path = reverse("tournaments:round-extra-time", args=[tournament.slug, 1])
    for minutes, message in [(1, one), (5, many)]:
        response = client.post(
            path,
            {"table": 1, "minutes": minutes, "reason": "Beschwerde"},
            HTTP_ACCEPT_LANGUAGE=language,
            follow=True,
        )
        assert message in response.content.decode()


BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")


@pytest.mark.parametrize(
    ("language", "clock", "started"),
    [
        ("de", "von 13:05 bis 14:45 Uhr", "Begonnen 24.11.2026, 13:05"),
        ("en", "from 13:05 to 14:45", "Started 24 Nov 2026, 13:05"),
    ],
)
def test_times_read_as_their_readers_write_them(client, language, clock, started):
    """A German reader sees 24.11.2026 and 14:05, with "Uhr" after a time in a sentence; an
    English one the same 24-hour clock, not "1:05 p.m." (config/formats/)."""
    tournament = factories.tournament(players=4)  # 100 minutes to play
    round_ = services.round_start(round=factories.seated_round(tournament))
    round_.started_at = datetime.datetime(2026, 11, 24, 13, 5, tzinfo=BERLIN)
    round_.save(update_fields=["started_at"])
    text = " ".join(
        page(client, "tournaments:round", tournament.slug, 1, language=language).split()
    )
    assert clock in text
    assert started in text
    api = client.get(
        reverse("api:round", args=[tournament.slug, 1]), HTTP_ACCEPT_LANGUAGE=language
    ).json()
    assert api["round"]["started_at"] == "2026-11-24T13:05:00+01:00"  # ISO 8601 always
