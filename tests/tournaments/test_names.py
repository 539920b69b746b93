"""Names found however they are typed, the same on SQLite and PostgreSQL (the suite's second
pass runs these on PostgreSQL): the find page and API, the players list and API, the admin,
and the import that reuses known players."""

import pytest
from django.urls import reverse

from tests import factories
from tournaments import selectors, services
from tournaments.models import Player

pytestmark = pytest.mark.django_db

NAMES = [
    ("Ayşe", "Öztürk"),
    ("Jörg", "Müller"),
    ("Karl", "Köhler"),
    ("Karin", "Koehler"),
    ("Anna", "Straße"),
    ("Antonín", "Dvořák"),
    ("Emre", "Yılmaz"),
    ("Hans", "Schmidt"),
]

# (query, the name it must find)
FOUND = [
    ("öztürk", "Ayşe Öztürk"),
    ("OEZTUERK", "Ayşe Öztürk"),
    ("ozturk", "Ayşe Öztürk"),
    ("Muller", "Jörg Müller"),
    ("Mueller", "Jörg Müller"),
    ("MÜLLER", "Jörg Müller"),
    ("müller", "Jörg Müller"),
    ("Koehler", "Karl Köhler"),
    ("Köhler", "Karin Koehler"),
    ("strasse", "Anna Straße"),
    ("dvorak", "Antonín Dvořák"),
    ("yilmaz", "Emre Yılmaz"),
    ("müller, jörg", "Jörg Müller"),
    ("JORG mul", "Jörg Müller"),
]


@pytest.fixture
def tournament():
    tournament = factories.tournament()
    for first_name, last_name in NAMES:
        services.entry_create(
            tournament=tournament,
            player=factories.player(first_name=first_name, last_name=last_name),
        )
    factories.seated_round(tournament)
    return tournament


def _names(entries) -> set[str]:
    return {entry.player.name for entry in entries}


@pytest.mark.parametrize(("query", "name"), FOUND)
def test_the_find_page_finds_a_name_however_it_is_typed(client, tournament, query, name):
    page = client.get(
        reverse("tournaments:find", args=[tournament.slug]), {"q": query}
    ).content.decode()
    assert name in page
    assert "Hans Schmidt" not in page


@pytest.mark.parametrize(("query", "name"), FOUND)
def test_the_find_api_finds_a_name_however_it_is_typed(client, tournament, query, name):
    found = client.get(reverse("api:find", args=[tournament.slug]), {"q": query}).json()
    assert name in {player["name"] for player in found}
    assert "Hans Schmidt" not in {player["name"] for player in found}


@pytest.mark.parametrize(("query", "name"), FOUND)
def test_the_players_list_finds_a_name_however_it_is_typed(client, tournament, query, name):
    found = selectors.entry_list(tournament=tournament, query=query)
    assert name in _names(found)
    assert "Hans Schmidt" not in _names(found)


def test_the_players_page_shows_only_the_players_found(client, tournament):
    page = client.get(reverse("tournaments:entries", args=[tournament.slug]), {"q": "MUELLER"})
    content = page.content.decode()
    assert page.status_code == 200
    assert "Müller, Jörg" in content
    assert "Öztürk" not in content
    assert 'value="MUELLER"' in content


def test_the_players_page_says_when_nobody_matches(client, tournament):
    page = client.get(reverse("tournaments:entries", args=[tournament.slug]), {"q": "Niemand"})
    assert "Niemand" in page.content.decode()
    assert "Schmidt" not in page.content.decode()


def test_the_players_api_filters_by_a_query(client, tournament):
    url = reverse("api:entries", args=[tournament.slug])
    found = client.get(url, {"q": "koehler"}).json()
    assert {(p["first_name"], p["last_name"]) for p in found} == {
        ("Karl", "Köhler"),
        ("Karin", "Koehler"),
    }
    assert len(client.get(url).json()) == len(NAMES)


def test_words_must_all_match(tournament):
    assert _names(selectors.entry_list(tournament=tournament, query="karl koehler")) == {
        "Karl Köhler"
    }
    assert not selectors.entry_list(tournament=tournament, query="karl schmidt").exists()


def test_a_start_number_still_finds_its_player(client, tournament):
    entry = tournament.entries.get(player__last_name="Müller")
    number = str(entry.start_number)
    page = client.get(
        reverse("tournaments:find", args=[tournament.slug]), {"q": number}
    ).content.decode()
    assert "Jörg Müller" in page
    found = client.get(reverse("api:find", args=[tournament.slug]), {"q": number}).json()
    assert [player["name"] for player in found] == ["Jörg Müller"]
    assert _names(selectors.entry_list(tournament=tournament, query=number)) == {"Jörg Müller"}


@pytest.mark.parametrize("query", ["\x00", "Mül\x00ler", "\t", ",", "||", "´", "%", "²"])
def test_any_query_answers_without_an_error(client, tournament, query):
    assert (
        client.get(reverse("tournaments:find", args=[tournament.slug]), {"q": query}).status_code
        == 200
    )
    assert client.get(reverse("api:find", args=[tournament.slug]), {"q": query}).status_code == 200
    assert (
        client.get(reverse("tournaments:entries", args=[tournament.slug]), {"q": query}).status_code
        == 200
    )
    assert (
        client.get(reverse("api:entries", args=[tournament.slug]), {"q": query}).status_code == 200
    )


@pytest.mark.parametrize("query", ["\x00", ",", "||", "´", "%", "M_ller", "²"])
def test_a_query_without_a_letter_of_a_name_finds_nobody(tournament, query):
    assert selectors.seat_find(tournament=tournament, query=query) == []
    assert not selectors.entry_list(tournament=tournament, query=query).exists()


def test_a_blank_query_lists_every_player(tournament):
    assert len(selectors.entry_list(tournament=tournament, query=" \t")) == len(NAMES)


def test_a_nul_splits_words_like_a_space(tournament):
    assert _names(selectors.entry_list(tournament=tournament, query="Jörg\x00Mül")) == {
        "Jörg Müller"
    }


def test_a_corrected_name_is_found_by_its_new_spelling_only(tournament):
    entry = tournament.entries.get(player__last_name="Müller")
    services.entry_update(
        entry=entry,
        first_name="Jörg",
        last_name="Möller",
        start_number=entry.start_number,
        by=factories.organiser(tournament),
    )
    assert _names(selectors.entry_list(tournament=tournament, query="moeller")) == {"Jörg Möller"}
    assert not selectors.entry_list(tournament=tournament, query="mueller").exists()


def test_the_name_filter_serves_players_too():
    mueller = factories.player(first_name="Jörg", last_name="Müller")
    factories.player(first_name="Jörg", last_name="Meier")
    assert list(selectors.name_filter(Player.objects.all(), query="mueller")) == [mueller]


def test_the_admin_search_finds_names_however_spelt(admin_client):
    factories.player(first_name="Jörg", last_name="Müller")
    page = admin_client.get(reverse("admin:tournaments_player_changelist"), {"q": "mueller"})
    assert "Müller" in page.content.decode()


# The import's known players -----------------------------------------------------------------


def test_a_known_player_is_found_by_his_name_in_any_case():
    known = factories.player(first_name="Jörg", last_name="Müller", club="Köln")
    found = services.player_find_or_create(first_name="JÖRG", last_name="MÜLLER", club="KÖLN")
    assert found == known


@pytest.mark.parametrize(
    ("first_name", "last_name", "club"),
    [("Jörg", "Mueller", "Köln"), ("Jörg", "Müller", "Bonn"), ("Jörg", "Müller", "")],
)
def test_another_spelling_or_club_is_another_player(first_name, last_name, club):
    known = factories.player(first_name="Jörg", last_name="Müller", club="Köln")
    found = services.player_find_or_create(first_name=first_name, last_name=last_name, club=club)
    assert found != known


def test_weiss_and_weiss_with_sharp_s_are_two_families():
    known = factories.player(first_name="Jörg", last_name="Weiß")
    assert services.player_find_or_create(first_name="Jörg", last_name="Weiss") != known


def test_the_import_reuses_a_known_player_written_in_capitals():
    known = factories.player(first_name="Änne", last_name="Müller")
    data = "Vorname;Nachname\nÄNNE;MÜLLER\n".encode()
    created = services.players_import(tournament=factories.tournament(), data=data).entries
    assert created[0].player == known
