"""The tournament pages: what a visitor, a player and an organiser see of tournaments and
rounds, in German by default, in a fixed number of queries."""

import datetime
import re

import pytest
from django.urls import reverse

from doko.sample_sheets import full_match
from scoring import services as scoring_services
from scoring.models import Scoresheet
from tests import factories
from tournaments import services

pytestmark = pytest.mark.django_db


def test_home_lists_public_tournaments(client, played):
    tournament, _, _ = played
    hidden = factories.tournament(name="Geheimturnier", is_public=False)
    page = client.get(reverse("tournaments:home")).content.decode()
    assert tournament.name in page
    assert hidden.name not in page


def test_home_lists_the_newest_tournament_first(client):
    factories.tournament(name="Frühjahrsturnier", starts_on=datetime.date(2026, 3, 1), players=5)
    factories.tournament(name="Herbstturnier", starts_on=datetime.date(2026, 10, 1), players=4)
    listed = list(client.get(reverse("tournaments:home")).context["tournaments"])
    assert [t.name for t in listed] == ["Herbstturnier", "Frühjahrsturnier"]
    assert [t.entry_count for t in listed] == [4, 5]


def test_private_tournament_is_shown_to_its_staff_only(client):
    organiser = factories.user()
    hidden = factories.tournament(name="Geheimturnier", is_public=False, organiser=organiser)
    assert client.get(reverse("tournaments:tournament", args=[hidden.slug])).status_code == 404
    client.force_login(organiser)
    assert client.get(reverse("tournaments:tournament", args=[hidden.slug])).status_code == 200


def test_tournament_page_shows_rounds_and_progress(client, played):
    tournament, _, _ = played
    page = client.get(reverse("tournaments:tournament", args=[tournament.slug])).content.decode()
    assert reverse("tournaments:round", args=[tournament.slug, 1]) in page
    assert "3 / 3" in page  # three tables, three confirmed sheets


def test_round_page_shows_every_table_with_players_and_points(client, played):
    tournament, round_, _ = played
    response = client.get(reverse("tournaments:round", args=[tournament.slug, 1]))
    page = response.content.decode()
    for seat in round_.seats.select_related("entry__player"):
        assert seat.entry.player.name in page
    assert len(response.context["tables"]) == 3
    totals = [seat.points for row in response.context["tables"] for seat in row.seats]
    assert sum(totals) == 0


def test_unknown_round_and_table_are_404(client, played):
    tournament, _, _ = played
    assert client.get(reverse("tournaments:round", args=[tournament.slug, 9])).status_code == 404
    assert client.get(reverse("scoring:table", args=[tournament.slug, 1, 9])).status_code == 404


def test_pages_are_german_by_default_and_english_on_request(client, played):
    tournament, _, _ = played
    german = client.get(reverse("tournaments:tournament", args=[tournament.slug])).content.decode()
    assert "Runden" in german
    assert 'lang="de"' in german
    switched = client.get(reverse("language", args=["en"]), {"next": "/tournaments/"})
    assert switched.status_code == 302
    assert switched["Location"] == "/tournaments/"
    english = client.get(reverse("tournaments:tournament", args=[tournament.slug])).content.decode()
    assert "Rounds" in english
    assert 'lang="en"' in english


def test_public_pages_set_no_csrf_cookie(client, played):
    tournament, _, _ = played
    response = client.get(reverse("tournaments:standings", args=[tournament.slug]))
    assert "csrftoken" not in response.cookies


@pytest.mark.parametrize("players", [8, 40])
def test_list_pages_run_a_fixed_number_of_queries(client, django_assert_num_queries, players):
    tournament = factories.tournament(players=players)
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    for sheet in Scoresheet.objects.filter(table__round=round_):
        scoring_services.scoresheet_hands_replace(
            scoresheet=sheet, hands=full_match(), version=1, by=factories.keeper(sheet)
        )
    adjudicator = factories.adjudicator(tournament)
    for table in round_.tables.all()[:3]:
        services.table_extra_time_grant(table=table, minutes=5, reason="Beschwerde", by=adjudicator)
    with django_assert_num_queries(1):
        client.get(reverse("tournaments:home"))
    with django_assert_num_queries(4):  # with the online registration's state and counts
        client.get(reverse("tournaments:tournament", args=[tournament.slug]))
    with django_assert_num_queries(2):
        client.get(reverse("tournaments:entries", args=[tournament.slug]))
    with django_assert_num_queries(2):
        client.get(reverse("tournaments:entries", args=[tournament.slug]), {"q": "nachname"})
    with django_assert_num_queries(7):  # with the rounds either side, for the links
        client.get(reverse("tournaments:round", args=[tournament.slug, 1]))
    with django_assert_num_queries(7):  # with the table's decisions and deductions
        client.get(reverse("scoring:table", args=[tournament.slug, 1, 1]))
    with django_assert_num_queries(4):
        client.get(reverse("tournaments:find", args=[tournament.slug]), {"q": "Nachname"})
    # The clock's tables (sizes, extra time) are kept since the round page read them.
    with django_assert_num_queries(3):
        client.get(reverse("tournaments:screen", args=[tournament.slug]))


def test_the_players_form_limits_the_names_as_the_columns_do(client):
    """The registration form on the players page tells the browser each name's length and a
    phone the number pad for numbers (this setup sat after a ``return`` and never ran)."""
    organiser = factories.user(username="leitung")
    tournament = factories.tournament(organiser=organiser)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:entries", args=[tournament.slug])).content.decode()
    assert re.search(r'<input[^>]*name="first_name"[^>]*maxlength="100"', page)
    assert re.search(r'<input[^>]*name="club"[^>]*maxlength="200"', page)
    assert re.search(r'<input[^>]*name="ddv_number"[^>]*inputmode="numeric"', page)
