"""The venue screen once a round is over, and the links between the round pages (issue 32),
through the pages in English and German."""

import pytest
from django.urls import reverse

from doko.sample_sheets import full_match
from scoring.models import Scoresheet
from tests import factories
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _played(tournament, *, close: bool = True):
    """Draw, play and confirm the next round; end its time and close it unless told not to."""
    round_ = services.round_start(round=factories.seated_round(tournament))
    for sheet in Scoresheet.objects.filter(table__round=round_):
        factories.sheet_confirmed(sheet, full_match())
    factories.round_end(round_)
    if close:
        services.round_close(round=round_)
    return round_


def screen(client, tournament, language="en") -> str:
    client.cookies["django_language"] = language
    return client.get(
        reverse("tournaments:screen", args=[tournament.slug]), headers={"HX-Request": "true"}
    ).content.decode()


@pytest.fixture
def closed(django_capture_on_commit_callbacks):
    """Eight players, two rounds planned, round 1 played and closed, the standings built."""
    with django_capture_on_commit_callbacks(execute=True):
        tournament = factories.tournament(players=8, planned_rounds=2, name="Frühjahrspokal")
        _played(tournament)
    tournament.refresh_from_db()
    return tournament


def test_after_the_round_the_screen_shows_the_standings_and_what_follows(client, closed):
    page = screen(client, closed)
    assert "Standings after round 1" in page
    assert "Round 2 follows: its seating appears here as soon as the organiser publishes it." in (
        page
    )
    assert page.count("screen-standings screen-page") == 1  # eight players: one page
    assert "00:00" not in page
    german = screen(client, closed, "de")
    assert "Zwischenstand nach Runde 1" in german
    assert "Runde 2 folgt" in german


def test_the_screen_keeps_hidden_standings_hidden(client, closed):
    Tournament.objects.filter(pk=closed.pk).update(standings_public=False)
    page = screen(client, closed)
    assert "The organiser has hidden the standings for now." in page
    assert "screen-standings screen-page" not in page
    assert "Vorname" not in page


def test_the_screen_shows_the_next_seating_once_published(client, closed):
    factories.seated_round(closed, seed=2, publish=False)
    assert "Standings after round 1" in screen(client, closed)
    services.round_publish(round=closed.rounds.get(number=2))
    page = screen(client, closed)
    assert "Round 2 · seated" in page
    assert page.count("<li>") == 8


def test_a_round_whose_time_ended_with_sheets_out_stays_on_the_screen(client):
    tournament = factories.tournament(players=8, planned_rounds=2)
    round_ = services.round_start(round=factories.seated_round(tournament))
    factories.sheet_confirmed(Scoresheet.objects.filter(table__round=round_).first(), full_match())
    factories.round_end(round_)
    page = screen(client, tournament)
    assert "Round 1 · finished" in page
    assert "Playing time is over" in page


def test_the_round_pages_link_to_each_other_in_german(client, closed):
    client.cookies["django_language"] = "de"
    page = client.get(reverse("tournaments:round", args=[closed.slug, 1])).content.decode()
    assert 'id="round-nav"' in page
    assert 'rel="prev"' not in page
    assert "Runde 2 ist noch nicht angelegt: Die Turnierleitung legt sie an" in page
    factories.seated_round(closed, seed=2)
    page = client.get(reverse("tournaments:round", args=[closed.slug, 1])).content.decode()
    assert f'rel="next" href="{reverse("tournaments:round", args=[closed.slug, 2])}"' in page
    page = client.get(reverse("tournaments:round", args=[closed.slug, 2])).content.decode()
    assert f'rel="prev" href="{reverse("tournaments:round", args=[closed.slug, 1])}"' in page
    assert "noch nicht angelegt" not in page  # two rounds planned: none follows


def test_the_organiser_adds_the_next_round_from_the_round_page(client, closed):
    client.force_login(factories.organiser(closed))
    client.cookies["django_language"] = "en"
    page = client.get(reverse("tournaments:round", args=[closed.slug, 1])).content.decode()
    assert "Add round 2" in page
    assert "is not added yet" not in page


def test_a_closed_rounds_page_shows_no_clock(client, closed):
    """The walk found a red 00:00 on a closed round's page: its time is told in words instead."""
    client.cookies["django_language"] = "de"
    page = client.get(reverse("tournaments:round", args=[closed.slug, 1])).content.decode()
    assert 'id="clock"' not in page
    assert "Spielzeit beendet" in page


def test_the_screen_counts_those_who_have_not_played_instead_of_listing_them(
    client, closed, django_capture_on_commit_callbacks
):
    """A substitute registered after round 1 has no rank: the hall reads how many, not a name
    with a dash at the foot of the standings."""
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_register(tournament=closed, first_name="Erna", last_name="Ersatz")
    closed.refresh_from_db()
    page = screen(client, closed)
    assert "Ersatz" not in page
    assert "One player has not played yet and is not ranked." in page
    assert page.count("<li>") == 8
    assert "Ein Spieler hat noch nicht gespielt und hat keinen Rang." in screen(
        client, closed, "de"
    )
