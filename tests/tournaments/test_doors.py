"""The doors from the pages of the apps below to the pages above (tournaments.doors): each is
registered by its app, a page shows the link through it, and without it shows none."""

import pytest
from django.urls import reverse

from tests import factories
from tournaments import doors


def test_every_door_is_registered_by_an_app_above():
    assert doors.registered() == list(doors.DOORS)


def test_a_door_opens_on_the_upper_apps_page():
    table = doors.opened("table", "pokal", 2, 3)
    assert table is not None
    assert table.url == reverse("scoring:table", args=["pokal", 2, 3])
    staff = doors.opened("staff", "pokal")
    assert staff is not None
    assert (staff.url, str(staff.label)) == (reverse("adjudication:staff", args=["pokal"]), "Staff")


def test_a_door_no_page_asks_for_is_refused():
    with pytest.raises(ValueError, match="no door"):
        doors.opened("scoring:table", "pokal", 1, 1)
    with pytest.raises(ValueError, match="no door"):
        doors.register("sideways", address=lambda: "/")


@pytest.fixture
def without(monkeypatch):
    """Close doors for one test, as if their app were not installed."""

    def close(*names: str) -> None:
        for name in names:
            monkeypatch.delitem(doors._doors, name)

    return close


@pytest.mark.django_db
def test_the_home_page_links_to_the_team_competitions_only_through_the_door(client, without):
    # The site's menu (base.html, the frame's) links there too, by the route's name.
    link = f'href="{reverse("teams:competitions")}"'
    assert client.get(reverse("tournaments:home")).content.decode().count(link) == 2
    without("team-competitions")
    page = client.get(reverse("tournaments:home"))
    assert page.status_code == 200
    assert page.content.decode().count(link) == 1


@pytest.mark.django_db
def test_the_tournament_page_without_the_upper_apps_shows_no_links_to_them(client, without):
    tournament = factories.tournament(players=8)
    client.force_login(factories.organiser(tournament))
    address = reverse("tournaments:tournament", args=[tournament.slug])
    page = client.get(address).content.decode()
    staff = reverse("adjudication:staff", args=[tournament.slug])
    adjudication = reverse("adjudication:adjudication", args=[tournament.slug])
    entries_pdf = reverse("printing:entries-print", args=[tournament.slug])
    assert all(link in page for link in (staff, adjudication, entries_pdf))
    without("staff", "adjudication", "print-entries")
    page = client.get(address).content.decode()
    assert not any(link in page for link in (staff, adjudication, entries_pdf))


@pytest.mark.django_db
def test_the_round_page_without_scoring_names_its_tables_without_links(client, without):
    tournament = factories.tournament(players=8)
    factories.seated_round(tournament)
    client.force_login(factories.organiser(tournament))
    address = reverse("tournaments:round", args=[tournament.slug, 1])
    table = reverse("scoring:table", args=[tournament.slug, 1, 1])
    assert f'href="{table}"' in client.get(address).content.decode()
    without("table", "sheet")
    page = client.get(address).content.decode()
    assert table not in page
    assert "Tisch 1" in page  # German, the site's language
