"""The official tournament (TSR 8.1.1): it plays the TSR's round (24 hands in 100 minutes at
four, 30 in 125 at five: TSR 8.5.1, 10.1.5), held by the database, refused on its field by the
service, the API and the page; a ranking list may admit official tournaments only. A club evening
keeps its freedom."""

import datetime

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from rest_framework.test import APIClient

from rankings.models import RankingAdmission, RankingList
from rankings.services.admissions import (
    ranking_admission_admit,
    ranking_admission_request,
    ranking_maintainer_add,
)
from rankings.services.lists import ranking_list_save
from tests import factories
from tests.tournaments.helpers import play, settings_form
from tournaments import policies, services
from tournaments.models import Seat, Tournament

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


def creator():
    user = factories.user()
    user.groups.add(Group.objects.get(name=policies.ORGANISERS_GROUP))
    return user


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    client.credentials(HTTP_ACCEPT_LANGUAGE="en")
    return client


# The database holds it -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"hands_per_match": 8},
        {"match_minutes": 60},
        {"hands_per_match_five": 25},
        {"match_minutes_five": 110},
    ],
)
def test_the_database_refuses_an_official_tournament_off_the_tsr(fields):
    tournament = factories.tournament(official=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(**fields)


def test_the_database_takes_any_round_of_a_club_evening():
    tournament = factories.tournament()
    Tournament.objects.filter(pk=tournament.pk).update(hands_per_match=8, match_minutes=60)
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(official=True)


# The service refuses it, naming the field and the section --------------------------------------


def test_an_official_tournament_takes_the_tsr_round_by_default():
    tournament = services.tournament_create(name="DM", starts_on=DAY, official=True)
    assert tournament.official
    assert (tournament.hands_per_match, tournament.match_minutes) == (24, 100)
    assert (tournament.hands_per_match_five, tournament.match_minutes_five) == (30, 125)


def test_an_eight_hand_official_round_is_refused_on_its_field_and_nothing_is_saved():
    with pytest.raises(ValidationError) as refused:
        services.tournament_create(
            name="DM", starts_on=DAY, official=True, hands_per_match=8, match_minutes=60
        )
    errors = refused.value.message_dict
    assert set(errors) == {"hands_per_match", "match_minutes"}
    assert "24 hands" in errors["hands_per_match"][0]
    assert errors["hands_per_match"][0].endswith("(TSR 8.5.1)")
    assert not Tournament.objects.exists()


def test_a_club_evening_keeps_its_freedom():
    tournament = services.tournament_create(
        name="Clubabend",
        starts_on=DAY,
        hands_per_match=8,
        match_minutes=60,
        allow_tables_of_five=True,
        hands_per_match_five=10,
        match_minutes_five=75,
    )
    assert not tournament.official
    assert (tournament.hands_per_match, tournament.match_minutes) == (8, 60)
    organiser = factories.user()
    factories.role_grant(tournament=tournament, user=organiser, role="organiser")
    change = services.tournament_update(
        tournament=tournament, by=organiser, changes={"hands_per_match": 12}
    )
    assert change.changed == ("hands_per_match",)


def test_making_a_club_evening_official_names_each_setting_off_the_tsr():
    organiser = factories.user()
    tournament = factories.tournament(organiser=organiser, hands_per_match=8, match_minutes_five=90)
    with pytest.raises(ValidationError) as refused:
        services.tournament_update(tournament=tournament, by=organiser, changes={"official": True})
    errors = refused.value.message_dict
    assert set(errors) == {"hands_per_match", "match_minutes_five"}
    assert errors["match_minutes_five"][0].endswith("(TSR 10.1.5)")
    tournament.refresh_from_db()
    assert not tournament.official
    services.tournament_update(
        tournament=tournament,
        by=organiser,
        changes={"official": True, "hands_per_match": 24, "match_minutes_five": 125},
    )
    tournament.refresh_from_db()
    assert tournament.official


def test_whether_it_is_official_is_fixed_once_a_round_begins():
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser, official=True)
    round_ = factories.seated_round(tournament)
    services.tournament_update(tournament=tournament, by=organiser, changes={"official": False})
    services.tournament_update(tournament=tournament, by=organiser, changes={"official": True})
    services.round_start(round=round_)
    with pytest.raises(ValidationError) as refused:
        services.tournament_update(tournament=tournament, by=organiser, changes={"official": False})
    assert "stays official (TSR 8.1.1)" in refused.value.message_dict["official"][0]


@pytest.mark.parametrize(("players", "fives"), [(16, 0), (17, 1), (19, 3)])
def test_an_official_tournament_seats_fives_only_where_the_field_needs_them(players, fives):
    """TSR 8.3.1, 10: tables of four, and ``players mod 4`` tables of five where allowed."""
    tournament = factories.tournament(players=players, official=True, allow_tables_of_five=True)
    round_ = factories.seated_round(tournament)
    assert Seat.objects.filter(round=round_, position=5).count() == fives


# The API ---------------------------------------------------------------------------------------


def test_the_api_refuses_an_eight_hand_official_round_400_naming_the_field():
    response = api_as(creator()).post(
        reverse("api:tournaments"),
        {"name": "DM", "starts_on": "2026-12-05", "official": True, "hands_per_match": 8},
        "json",
    )
    assert response.status_code == 400
    errors = response.json()
    assert list(errors) == ["hands_per_match"]
    assert "TSR 8.5.1" in errors["hands_per_match"][0]
    assert not Tournament.objects.exists()


def test_the_api_creates_an_official_tournament_and_says_so():
    response = api_as(creator()).post(
        reverse("api:tournaments"),
        {"name": "DM", "starts_on": "2026-12-05", "official": True},
        "json",
    )
    assert response.status_code == 201
    assert response.json()["official"] is True
    assert response.json()["hands_per_match"] == 24


def test_the_api_refuses_a_patch_that_breaks_the_official_round():
    organiser = factories.user()
    tournament = factories.tournament(organiser=organiser, official=True)
    response = api_as(organiser).patch(
        reverse("api:tournament", args=[tournament.slug]), {"match_minutes": 60}, "json"
    )
    assert response.status_code == 400
    assert list(response.json()) == ["match_minutes"]
    assert "100 minutes" in response.json()["match_minutes"][0]
    # Off, the club evening sets its own round.
    response = api_as(organiser).patch(
        reverse("api:tournament", args=[tournament.slug]),
        {"official": False, "match_minutes": 60},
        "json",
    )
    assert response.status_code == 200
    assert (response.json()["official"], response.json()["match_minutes"]) == (False, 60)


# The pages -------------------------------------------------------------------------------------


NEW = {
    "name": "Deutsche Meisterschaft",
    "starts_on": "2026-12-05",
    "ends_on": "",
    "venue": "Dortmund",
    "planned_rounds": "8",
    "seating_method": "ddv",
    "hands_per_match": "8",
    "match_minutes": "60",
    "hands_per_match_five": "30",
    "match_minutes_five": "125",
    "tiebreaks": "start_number",
    "sheet_keeping": "both",
    "is_public": "on",
    "standings_public": "on",
    "counts_for_ranking": "on",
}


def test_the_new_tournament_page_shows_an_eight_hand_official_round_at_its_field(client):
    client.force_login(creator())
    response = client.post(reverse("tournaments:tournament-new"), {**NEW, "official": "on"})
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert set(errors) == {"hands_per_match", "match_minutes"}
    assert "(TSR 8.5.1)" in errors["hands_per_match"][0]
    assert "TSR 8.5.1" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_form_shows_the_official_values_and_fills_them_in(client):
    client.force_login(creator())
    page = client.get(reverse("tournaments:tournament-new")).content.decode()
    assert "Official tournament: 24 (TSR 8.5.1)." in page
    assert "Official tournament: 125 (TSR 10.1.5)." in page
    response = client.post(reverse("tournaments:tournament-new"), {**NEW, "official_fill": "1"})
    assert response.status_code == 200
    assert not Tournament.objects.exists()
    form = response.context["form"]
    assert not form.is_bound
    assert form.initial["official"] is True
    assert (form.initial["hands_per_match"], form.initial["match_minutes"]) == (24, 100)
    assert form.initial["name"] == "Deutsche Meisterschaft"  # what was typed stays
    filled = {**NEW, "official": "on", "hands_per_match": "24", "match_minutes": "100"}
    response = client.post(reverse("tournaments:tournament-new"), filled)
    assert response.status_code == 302
    assert Tournament.objects.get().official


def test_the_settings_page_refuses_official_on_an_eight_hand_round(client):
    organiser = factories.user()
    tournament = factories.tournament(organiser=organiser, hands_per_match=8)
    client.force_login(organiser)
    response = client.post(
        reverse("tournaments:tournament-settings", args=[tournament.slug]),
        {**settings_form(tournament, official=True), "slug": tournament.slug},
    )
    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["hands_per_match"]
    tournament.refresh_from_db()
    assert not tournament.official


def test_the_tournament_page_and_the_home_page_show_an_official_tournament(client):
    official = factories.tournament(name="Deutsche Meisterschaft", official=True)
    factories.tournament(name="Clubabend")
    page = client.get(reverse("tournaments:tournament", args=[official.slug])).content.decode()
    assert ">official</span>" in page
    assert "yes: played by the TSR (TSR 8.1.1)" in page
    home = client.get(reverse("tournaments:home")).content.decode()
    assert home.count(">official</span>") == 1


def test_the_badge_is_german_in_german(client):
    client.cookies["django_language"] = "de"
    official = factories.tournament(official=True)
    page = client.get(reverse("tournaments:tournament", args=[official.slug])).content.decode()
    assert ">offiziell</span>" in page


# Ranking lists of official tournaments only ----------------------------------------------------


@pytest.fixture
def official_list(django_capture_on_commit_callbacks):
    admin = factories.user(username="list-admin", is_superuser=True, is_staff=True)
    factories.user(username="listkeeper")
    with django_capture_on_commit_callbacks(execute=True):
        ranking = ranking_list_save(
            name="DDV-Rangliste",
            slug="ddv",
            months=6,
            min_rounds=1,
            tournament_min_players=4,
            tournament_min_rounds=1,
            tournament_official_only=True,
        )
        ranking_maintainer_add(ranking_list=ranking, who="listkeeper", by=admin)
    return ranking


def finished(capture, **fields):
    organiser = factories.user()
    today = datetime.date.today()
    with capture(execute=True):
        tournament = factories.tournament(
            players=4, planned_rounds=1, organiser=organiser, starts_on=today, **fields
        )
        play(tournament)
    return tournament, organiser


def test_a_club_evening_asking_a_list_of_official_tournaments_is_refused_naming_it(
    django_capture_on_commit_callbacks, official_list
):
    tournament, organiser = finished(django_capture_on_commit_callbacks, name="Clubabend")
    response = api_as(organiser).post(
        reverse("api:ranking-requests", args=[tournament.slug]), {"list": "ddv"}, "json"
    )
    assert response.status_code == 400
    (message,) = response.json()["tournament_official_only"]
    assert "Clubabend is not marked official" in message
    assert "TSR 8.1.1" in message
    assert not RankingAdmission.objects.exists()


def test_the_settings_page_says_why_a_list_refuses_a_club_evening(
    client, django_capture_on_commit_callbacks, official_list
):
    tournament, organiser = finished(django_capture_on_commit_callbacks, name="Clubabend")
    client.force_login(organiser)
    page = client.get(
        reverse("tournaments:tournament-settings", args=[tournament.slug])
    ).content.decode()
    assert "official tournaments only" in page
    response = client.post(
        reverse("rankings:ranking-requests", args=[tournament.slug]),
        {"list": "ddv", "action": "request"},
        follow=True,
    )
    assert "Clubabend is not marked official" in response.content.decode()
    assert not RankingAdmission.objects.exists()


def test_admitting_a_tournament_no_longer_official_is_refused_on_page_and_api(
    client, django_capture_on_commit_callbacks, official_list
):
    """Asked as official, then (before it began) made a club evening: the maintainers' decision
    checks it again."""
    organiser = factories.user()
    today = datetime.date.today()
    with django_capture_on_commit_callbacks(execute=True):
        tournament = factories.tournament(
            name="Herbstpokal",
            players=4,
            planned_rounds=1,
            organiser=organiser,
            starts_on=today,
            official=True,
        )
        ranking_admission_request(ranking_list=official_list, tournament=tournament, by=organiser)
        services.tournament_update(tournament=tournament, by=organiser, changes={"official": False})
        play(tournament)
    keeper = official_list.maintainers.get()
    url = reverse("api:ranking-admit", args=["ddv", tournament.slug])
    response = api_as(keeper).post(url, {}, "json")
    assert response.status_code == 400
    assert list(response.json()) == ["tournament_official_only"]
    assert "Herbstpokal is not marked official" in response.json()["tournament_official_only"][0]
    client.force_login(keeper)
    response = client.post(
        reverse("rankings:ranking-admission", args=["ddv", tournament.slug]),
        {"action": "admit"},
        follow=True,
    )
    assert "Herbstpokal is not marked official" in response.content.decode()
    assert RankingAdmission.objects.get().status == "requested"


def test_an_official_tournament_is_admitted_to_a_list_of_official_tournaments(
    django_capture_on_commit_callbacks, official_list
):
    tournament, organiser = finished(django_capture_on_commit_callbacks, official=True)
    keeper = official_list.maintainers.get()
    with django_capture_on_commit_callbacks(execute=True):
        admission = ranking_admission_request(
            ranking_list=official_list, tournament=tournament, by=organiser
        )
        ranking_admission_admit(admission=admission, by=keeper)
    assert RankingAdmission.objects.get().status == "admitted"


def test_a_list_states_whether_it_admits_official_tournaments_only(client, official_list):
    data = client.get(reverse("api:ranking-admissions", args=["ddv"])).json()
    assert data["criteria"]["official_only"] is True
    page = client.get(reverse("rankings:ranking", args=["ddv"])).content.decode()
    assert "it is an official tournament, played by the TSR" in page
    RankingList.objects.filter(pk=official_list.pk).update(tournament_official_only=False)
    page = client.get(reverse("rankings:ranking", args=["ddv"])).content.decode()
    assert "official tournaments and club evenings alike" in page
