"""The pages of team competitions: the list, a competition with its teams, match days and
table, its settings, a team and its players, a match day with its groups and line-ups, the
season table and the bracket; who sees and who changes them, and what bad input does."""

import dataclasses
import datetime
import re

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from teams import services
from teams.models import (
    Competition,
    GroupTeam,
    LineUp,
    MatchDay,
    OrganiserOffer,
    Team,
    TeamMember,
)
from teams.templatetags.team_tags import match_points
from tests import factories
from tests.teams.factories import league, organiser_of, play_round, teams
from tournaments import policies
from tournaments import services as tournament_services
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 5)

NEW = {
    "name": "Bezirksliga Nord",
    "kind": "league",
    "season": "2026/27",
    "club": "DDV",
    "promotion_places": "2",
    "relegation_places": "2",
    "ties": "shared",
    "tiebreaks": "game_points,direct",
    "is_public": "on",
}


def creator():
    user = factories.user()
    user.groups.add(Group.objects.get(name=policies.ORGANISERS_GROUP))
    return user


def organised_league(**settings) -> Competition:
    return league(by=creator(), **settings)


def in_groups(competition: Competition) -> list[list[Team]]:
    all_teams = teams(competition)
    return [all_teams[i : i + 4] for i in range(0, len(all_teams), 4)]


def match_day(competition: Competition, **kwargs) -> MatchDay:
    return services.match_day_create(
        competition=competition,
        starts_on=DAY,
        by=organiser_of(competition),
        groups=kwargs.pop("groups", None) or in_groups(competition),
        **kwargs,
    )


def championship_with_knockout() -> tuple[Competition, MatchDay]:
    competition = organised_league(kind="championship", name="Mannschaftsmeisterschaft")
    match_day(competition)
    knockout = match_day(competition, stage=MatchDay.Stage.KNOCKOUT, advance=2)
    return competition, knockout


def pages(competition: Competition) -> list[str]:
    """Every page of a competition with a match day, a team, and its line-up form."""
    slug = competition.slug
    team = teams(competition)[0]
    return [
        reverse("teams:competitions"),
        reverse("teams:competition", args=[slug]),
        reverse("teams:season-table", args=[slug]),
        reverse("teams:bracket", args=[slug]),
        reverse("teams:team", args=[slug, team.pk]),
        reverse("teams:match-day", args=[slug, 1]),
    ]


def form_pages(competition: Competition) -> list[str]:
    slug = competition.slug
    team = teams(competition)[0]
    return [
        reverse("teams:competition-settings", args=[slug]),
        reverse("teams:team-new", args=[slug]),
        reverse("teams:match-day-new", args=[slug]),
        reverse("teams:line-up", args=[slug, 1, team.pk]),
        reverse("teams:match-day-delete", args=[slug, 1]),
    ]


def form_posts(competition: Competition) -> list[tuple[str, dict]]:
    slug = competition.slug
    team = teams(competition)[0]
    member = team.members.order_by("pk").last()
    return [
        (reverse("teams:competition-settings", args=[slug]), {**NEW, "name": "Fremd"}),
        (reverse("teams:competition-organisers", args=[slug]), {"user": "fremd"}),
        (reverse("teams:team-new", args=[slug]), {"name": "Fremde", "club": ""}),
        (reverse("teams:team-edit", args=[slug, team.pk]), {"name": "Fremde", "club": ""}),
        (reverse("teams:team-delete", args=[slug, team.pk]), {}),
        (reverse("teams:team-member-add", args=[slug, team.pk]), {"player": factories.player().pk}),
        (reverse("teams:team-member-remove", args=[slug, team.pk, member.pk]), {}),
        (reverse("teams:team-captain", args=[slug, team.pk, member.pk]), {}),
        (reverse("teams:match-day-new", args=[slug]), {"starts_on": "2026-12-06", "rounds": "4"}),
        (reverse("teams:line-up", args=[slug, 1, team.pk]), {"from_round": "1"}),
        (reverse("teams:tie-decide", args=[slug, 1]), {"place": "1", "through": "yes"}),
        (reverse("teams:match-day-delete", args=[slug, 1]), {}),
    ]


# Every page, in German and English ------------------------------------------------------------


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_page_renders_for_an_organiser(client, language):
    competition = organised_league()
    match_day(competition)
    client.cookies["django_language"] = language
    client.force_login(organiser_of(competition))
    for address in [
        *pages(competition),
        *form_pages(competition),
        reverse("teams:competition-new"),
    ]:
        response = client.get(address)
        assert response.status_code == 200, address
        assert f'<html lang="{language}">' in response.content.decode(), address


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_page_of_a_championship_renders(client, language):
    competition, knockout = championship_with_knockout()
    client.cookies["django_language"] = language
    for address in [
        *pages(competition),
        reverse("teams:match-day", args=[competition.slug, knockout.number]),
    ]:
        assert client.get(address).status_code == 200, address


def test_english_wording_of_the_competition_page(client):
    competition = organised_league(promotion_places=1, relegation_places=2)
    match_day(competition)
    client.cookies["django_language"] = "en"
    html = client.get(reverse("teams:competition", args=[competition.slug])).content.decode()
    assert "Season table" in html
    assert "Match day 1" in html
    assert "2 relegation places" in html


def test_the_navigation_and_the_home_page_link_the_team_competitions(client):
    html = client.get(reverse("tournaments:home")).content.decode()
    assert html.count(f'href="{reverse("teams:competitions")}"') == 2


# Who sees what --------------------------------------------------------------------------------


def test_anonymous_sees_a_public_competition(client):
    competition = organised_league()
    match_day(competition)
    for address in pages(competition):
        response = client.get(address)
        assert response.status_code == 200, address
        # No organiser's button for him, and no reason either: he is not signed in.
        assert reverse("teams:competition-settings", args=[competition.slug]) not in (
            response.content.decode()
        )
    assert competition.name in client.get(reverse("teams:competitions")).content.decode()


def test_a_hidden_competition_is_404_for_anyone_but_its_organisers(client):
    competition = organised_league(is_public=False)
    match_day(competition)
    addresses = pages(competition)[1:]
    for address in addresses:
        assert client.get(address).status_code == 404, address
    assert competition.name not in client.get(reverse("teams:competitions")).content.decode()
    client.force_login(creator())  # another organiser
    for address in addresses + form_pages(competition):
        assert client.get(address).status_code == 404, address
    client.force_login(organiser_of(competition))
    for address in addresses:
        assert client.get(address).status_code == 200, address


def test_another_organiser_is_refused_every_form_with_the_reason(client):
    client.cookies["django_language"] = "en"  # the wording checked is English
    competition = organised_league()
    match_day(competition)
    client.force_login(creator())
    for address in form_pages(competition):
        response = client.get(address)
        assert response.status_code == 403, address
        assert "Only the organisers of" in response.content.decode()
    counts = {model: model.objects.count() for model in (Team, TeamMember, MatchDay, LineUp)}
    for address, data in form_posts(competition):
        response = client.post(address, data)
        assert response.status_code == 403, address
        assert "Only the organisers of" in response.content.decode(), address
    assert counts == {model: model.objects.count() for model in counts}
    competition.refresh_from_db()
    assert competition.name == "Testliga"


def test_anonymous_is_sent_to_log_in_from_every_form(client):
    competition = organised_league()
    match_day(competition)
    for address, data in form_posts(competition):
        response = client.post(address, data)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_the_competition_page_says_why_another_organiser_gets_no_buttons(client):
    client.cookies["django_language"] = "en"  # the wording checked is English
    competition = organised_league()
    client.force_login(creator())
    html = client.get(reverse("teams:competition", args=[competition.slug])).content.decode()
    assert reverse("teams:match-day-new", args=[competition.slug]) not in html
    assert 'id="manage-refusal"' in html
    assert "ask one of them to add you as an organiser" in html


# The list and a new competition ---------------------------------------------------------------


def test_the_list_offers_a_new_competition_to_organisers_and_says_who_grants_it(client):
    client.cookies["django_language"] = "en"  # the wording checked is English
    new = reverse("teams:competition-new")
    assert new not in client.get(reverse("teams:competitions")).content.decode()
    client.force_login(factories.user())
    html = client.get(reverse("teams:competitions")).content.decode()
    assert new not in html
    assert "an administrator adds you to the" in html
    client.force_login(creator())
    assert new in client.get(reverse("teams:competitions")).content.decode()


def test_a_user_without_the_right_is_refused_the_new_competition_page(client):
    client.cookies["django_language"] = "en"  # the wording checked is English
    client.force_login(factories.user())
    response = client.get(reverse("teams:competition-new"))
    assert response.status_code == 403
    assert "an administrator adds you" in response.content.decode()


def test_new_competition_makes_its_creator_its_organiser(client):
    user = creator()
    client.force_login(user)
    response = client.post(reverse("teams:competition-new"), NEW)
    competition = Competition.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("teams:competition", args=[competition.slug])
    assert competition.name == "Bezirksliga Nord"
    assert competition.relegation_places == 2
    assert list(competition.organisers.all()) == [user]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", ""),
        ("name", "x" * 201),
        ("name", "Liga\x00"),
        ("kind", "cup"),
        ("promotion_places", "65"),
        ("relegation_places", "-1"),
        ("relegation_places", "zwei"),
        ("ties", "lower"),
        ("tiebreaks", "luck"),
    ],
)
def test_bad_competition_input_names_the_field_and_saves_nothing(client, field, value):
    client.force_login(creator())
    response = client.post(reverse("teams:competition-new"), {**NEW, field: value})
    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert not Competition.objects.exists()


def test_settings_change_the_competition(client):
    competition = organised_league()
    client.force_login(organiser_of(competition))
    response = client.post(
        reverse("teams:competition-settings", args=[competition.slug]),
        {**NEW, "name": "Landesliga", "is_public": ""},
    )
    assert response.status_code == 302
    competition.refresh_from_db()
    assert (competition.name, competition.is_public) == ("Landesliga", False)


def test_settings_refuse_a_new_kind_once_match_days_are_played(client):
    client.cookies["django_language"] = "en"  # the wording checked is English
    competition = organised_league()
    match_day(competition)
    client.force_login(organiser_of(competition))
    response = client.post(
        reverse("teams:competition-settings", args=[competition.slug]),
        {**NEW, "kind": "championship"},
    )
    assert response.status_code == 400
    assert "its kind cannot change" in str(response.context["form"].errors["kind"])
    competition.refresh_from_db()
    assert (competition.kind, competition.name) == ("league", "Testliga")


@pytest.mark.parametrize("named", ["Kollegin", "kollegin@example.org"])
def test_an_organiser_offers_another_by_user_name_or_e_mail_address(client, named):
    competition = organised_league(teams=4)
    day = match_day(competition)
    colleague = factories.user(username="kollegin", email="Kollegin@example.org")
    client.force_login(organiser_of(competition))
    response = client.post(
        reverse("teams:competition-organisers", args=[competition.slug]), {"user": named}
    )
    assert response["Location"] == reverse("teams:competition-settings", args=[competition.slug])
    assert not competition.organisers.filter(pk=colleague.pk).exists()  # not before he accepts
    offer = OrganiserOffer.objects.get()
    client.force_login(colleague)
    page = client.get(reverse("roles")).content.decode()
    assert f"organiser-offer-{offer.pk}" in page
    answer = reverse("organiser-offer-answer", args=[offer.pk])
    assert client.post(answer, {"answer": "accept"}).status_code == 302
    assert competition.organisers.filter(pk=colleague.pk).exists()
    assert day.tournament.roles.filter(user=colleague, role="organiser").exists()
    address = reverse("teams:competition-settings", args=[competition.slug])
    assert client.get(address).status_code == 200


def test_the_answer_is_the_same_whether_the_name_has_an_account(client):
    competition = organised_league(teams=0)
    factories.user(username="kollegin")
    client.force_login(organiser_of(competition))
    client.cookies["django_language"] = "en"
    address = reverse("teams:competition-organisers", args=[competition.slug])
    pages = [
        client.post(address, {"user": named}, follow=True).content.decode()
        for named in ("kollegin", "niemand")
    ]
    assert "Offered to kollegin: they organise the competition once they accept" in pages[0]
    assert "Offered to niemand: they organise the competition once they accept" in pages[1]
    assert competition.organisers.count() == 1


def test_a_declined_offer_makes_nobody_organiser(client):
    competition = organised_league(teams=0)
    colleague = factories.user(username="kollegin")
    client.force_login(organiser_of(competition))
    client.post(
        reverse("teams:competition-organisers", args=[competition.slug]), {"user": "kollegin"}
    )
    offer = OrganiserOffer.objects.get()
    client.force_login(colleague)
    answer = reverse("organiser-offer-answer", args=[offer.pk])
    assert client.post(answer, {"answer": "decline"}).status_code == 302
    assert client.post(answer, {"answer": "accept"}).status_code == 302  # answered: refused
    assert competition.organisers.count() == 1


@pytest.mark.parametrize("named", ["", "x" * 300, "a\x00b"])
def test_a_bad_name_is_refused_and_the_page_says_why(client, named):
    competition = organised_league(teams=0)
    client.force_login(organiser_of(competition))
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("teams:competition-organisers", args=[competition.slug]),
        {"user": named},
        follow=True,
    )
    assert "alert-danger" in response.content.decode()
    assert competition.organisers.count() == 1
    assert not OrganiserOffer.objects.exists()


# Teams and their players ----------------------------------------------------------------------


def test_a_team_is_added_renamed_and_removed(client):
    competition = organised_league(teams=0)
    client.force_login(organiser_of(competition))
    response = client.post(
        reverse("teams:team-new", args=[competition.slug]),
        {"name": "Kreuz Buben", "club": "DK Köln"},
    )
    team = Team.objects.get()
    assert response["Location"] == reverse("teams:team", args=[competition.slug, team.pk])
    client.post(
        reverse("teams:team-edit", args=[competition.slug, team.pk]), {"name": "Herz Damen"}
    )
    team.refresh_from_db()
    assert (team.name, team.club) == ("Herz Damen", "")
    client.post(reverse("teams:team-delete", args=[competition.slug, team.pk]))
    assert not Team.objects.exists()


def test_a_second_team_of_the_same_name_is_refused_on_the_name(client):
    competition = organised_league(teams=1)
    client.force_login(organiser_of(competition))
    response = client.post(reverse("teams:team-new", args=[competition.slug]), {"name": "Team 1"})
    assert response.status_code == 400
    assert response.context["form"].errors["name"]
    assert Team.objects.count() == 1


@pytest.mark.parametrize("name", ["", "x" * 121, "A\x00B"])
def test_a_bad_team_name_is_refused_and_nothing_saved(client, name):
    competition = organised_league(teams=1)
    team = teams(competition)[0]
    client.force_login(organiser_of(competition))
    response = client.post(reverse("teams:team-new", args=[competition.slug]), {"name": name})
    assert response.status_code == 400
    assert response.context["form"].errors["name"]
    response = client.post(
        reverse("teams:team-edit", args=[competition.slug, team.pk]), {"name": name}
    )
    assert response.status_code == 400
    assert response.context["rename"].errors["name"]
    team.refresh_from_db()
    assert team.name == "Team 1"
    assert Team.objects.count() == 1


def test_a_team_that_played_cannot_be_removed_and_the_page_says_why(client):
    client.cookies["django_language"] = "en"  # the wording checked is English
    competition = organised_league(teams=4)
    match_day(competition)
    team = teams(competition)[0]
    client.force_login(organiser_of(competition))
    response = client.post(
        reverse("teams:team-delete", args=[competition.slug, team.pk]), follow=True
    )
    assert "take it out there first" in response.content.decode()
    assert Team.objects.filter(pk=team.pk).exists()


@pytest.mark.parametrize("query", ["MUELLER", "müller", "Mu", "4711"])
def test_the_person_search_finds_a_known_person_in_any_spelling_or_by_ddv_number(client, query):
    competition = organised_league(teams=1, members=0)
    team = teams(competition)[0]
    person = factories.player(first_name="Jürgen", last_name="Müller", ddv_number="4711")
    client.force_login(organiser_of(competition))
    response = client.get(reverse("teams:team", args=[competition.slug, team.pk]), {"q": query})
    assert response.status_code == 200
    assert [player.pk for player in response.context["found"]] == [person.pk]
    client.post(
        reverse("teams:team-member-add", args=[competition.slug, team.pk]), {"player": person.pk}
    )
    assert list(team.members.values_list("player_id", flat=True)) == [person.pk]


def test_the_person_search_is_the_organisers(client):
    competition = organised_league(teams=1, members=0)
    team = teams(competition)[0]
    factories.player(first_name="Jürgen", last_name="Müller")
    response = client.get(reverse("teams:team", args=[competition.slug, team.pk]), {"q": "Müller"})
    assert response.context["found"] == []
    assert "Müller" not in response.content.decode()


def test_a_new_person_is_added_and_made_captain(client):
    competition = organised_league(teams=1, members=1)
    team = teams(competition)[0]
    client.force_login(organiser_of(competition))
    response = client.post(
        reverse("teams:team-member-add", args=[competition.slug, team.pk]),
        {
            "first_name": "Greta",
            "last_name": "Groß",
            "club": "DK Kiel",
            "ddv_number": "815",
            "captain": "on",
        },
    )
    assert response.status_code == 302
    member = team.members.get(player__ddv_number="815")
    assert member.is_captain
    assert team.members.filter(is_captain=True).count() == 1


def test_a_teams_page_heads_its_players_spieler_in_german(client):
    """Not "Teilnehmer" (a tournament's entrants): a team's players are its "Spieler"."""
    competition = organised_league(teams=1)
    team = teams(competition)[0]
    html = client.get(reverse("teams:team", args=[competition.slug, team.pk])).content.decode()
    assert '<h2 class="h4">Spieler</h2>' in html
    client.cookies["django_language"] = "en"
    html = client.get(reverse("teams:team", args=[competition.slug, team.pk])).content.decode()
    assert '<h2 class="h4">Players</h2>' in html


def test_the_first_player_named_is_the_captain_as_the_page_says(client):
    """The new team's page says whoever is named first becomes captain: a known person found
    by the search and added without ticking "Captain" is it; the second is not."""
    competition = organised_league(teams=0)
    client.force_login(organiser_of(competition))
    client.post(reverse("teams:team-new", args=[competition.slug]), {"name": "Kreuz-Buben"})
    team = Team.objects.get(competition=competition)
    first, second = factories.player(), factories.player()
    for person in (first, second):
        response = client.post(
            reverse("teams:team-member-add", args=[competition.slug, team.pk]),
            {"player": person.pk},
        )
        assert response.status_code == 302
    assert list(team.members.filter(is_captain=True).values_list("player", flat=True)) == [first.pk]


def test_a_new_person_with_another_persons_ddv_number_is_refused_and_nobody_made(client):
    competition = organised_league(teams=1, members=0)
    team = teams(competition)[0]
    factories.player(first_name="Jürgen", last_name="Müller", ddv_number="4711")
    client.force_login(organiser_of(competition))
    players = Player.objects.count()
    response = client.post(
        reverse("teams:team-member-add", args=[competition.slug, team.pk]),
        {"first_name": "Anna", "last_name": "Anders", "ddv_number": "4711"},
    )
    assert response.status_code == 400
    assert response.context["add"].errors["ddv_number"]
    assert Player.objects.count() == players
    assert not team.members.exists()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"first_name": "Anna"},
        {"player": "abc"},
        {"first_name": "A" * 300, "last_name": "B"},
        {"first_name": "A\x00", "last_name": "B"},
        {"first_name": "A", "last_name": "B", "ddv_number": "12a"},
    ],
)
def test_bad_player_input_names_the_field_and_saves_nothing(client, data):
    competition = organised_league(teams=1, members=0)
    team = teams(competition)[0]
    client.force_login(organiser_of(competition))
    players = Player.objects.count()
    response = client.post(reverse("teams:team-member-add", args=[competition.slug, team.pk]), data)
    assert response.status_code == 400
    assert response.context["add"].errors
    assert Player.objects.count() == players
    assert not team.members.exists()


def test_a_person_of_another_team_is_refused_with_the_reason(client):
    client.cookies["django_language"] = "en"  # the wording checked is English
    competition = organised_league(teams=2, members=1)
    first, second = teams(competition)
    other = first.members.get().player
    client.force_login(organiser_of(competition))
    response = client.post(
        reverse("teams:team-member-add", args=[competition.slug, second.pk]), {"player": other.pk}
    )
    assert response.status_code == 400
    assert "already plays for Team 1" in response.content.decode()
    assert not second.members.filter(player=other).exists()


def test_a_player_is_removed_and_another_made_captain(client):
    competition = organised_league(teams=1, members=3)
    team = teams(competition)[0]
    _captain, second, third = team.members.order_by("pk")
    client.force_login(organiser_of(competition))
    client.post(reverse("teams:team-captain", args=[competition.slug, team.pk, second.pk]))
    client.post(reverse("teams:team-member-remove", args=[competition.slug, team.pk, third.pk]))
    assert list(team.members.filter(is_captain=True)) == [second]
    assert not TeamMember.objects.filter(pk=third.pk).exists()


def test_a_member_of_another_team_is_not_found_through_this_one(client):
    competition = organised_league(teams=2, members=1)
    first, second = teams(competition)
    member = second.members.get()
    client.force_login(organiser_of(competition))
    response = client.post(
        reverse("teams:team-member-remove", args=[competition.slug, first.pk, member.pk])
    )
    assert response.status_code == 404
    assert TeamMember.objects.filter(pk=member.pk).exists()


# Match days -----------------------------------------------------------------------------------


def test_a_match_day_with_chosen_groups(client):
    competition = organised_league()
    client.force_login(organiser_of(competition))
    all_teams = teams(competition)
    data = {"starts_on": "2026-12-05", "venue": "Kiel", "rounds": "3", "stage": "groups"}
    data["grouping"] = "choose"
    for index, team in enumerate(all_teams):
        data[f"group_{team.pk}"] = str(2 - index % 2)
    response = client.post(reverse("teams:match-day-new", args=[competition.slug]), data)
    assert response.status_code == 302
    day = MatchDay.objects.get()
    assert response["Location"] == reverse("teams:match-day", args=[competition.slug, day.number])
    assert day.tournament.planned_rounds == 3
    group_of = dict(GroupTeam.objects.filter(match_day=day).values_list("team_id", "group__number"))
    assert group_of == {team.pk: 2 - index % 2 for index, team in enumerate(all_teams)}


def test_the_new_match_day_offers_only_the_groups_its_teams_fill(client):
    """Four teams to a group: 8 teams are offered groups 1 and 2, not 1 to 16 (issue 47)."""
    competition = organised_league()
    client.force_login(organiser_of(competition))
    client.cookies["django_language"] = "en"
    html = client.get(reverse("teams:match-day-new", args=[competition.slug])).content.decode()
    assert ">Group 2</option>" in html
    assert ">Group 3</option>" not in html


def test_a_match_day_page_has_no_online_registration_and_draws_one_round(client):
    """A match day's players are its line-ups: no "Registration: not open online" (issue 47);
    a day of one round is drawn by "Draw round 1", not "Draw rounds 1 to 1"."""
    competition = organised_league(teams=4)
    organiser = organiser_of(competition)
    day = services.match_day_create(
        competition=competition,
        starts_on=datetime.date(2026, 12, 5),
        by=organiser,
        groups=[teams(competition)],
        rounds=1,
    )
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    slug = day.tournament.slug
    html = client.get(reverse("tournaments:tournament", args=[slug])).content.decode()
    assert "not open online" not in html
    assert reverse("registration:registration-manage", args=[slug]) not in html
    round_ = tournament_services.round_create(tournament=day.tournament)
    page = client.get(reverse("tournaments:round", args=[slug, round_.number])).content.decode()
    assert "Draw rounds 1 to 1" not in page
    assert "Draw round 1" in page


def test_a_match_day_with_groups_drawn(client):
    competition = organised_league()
    client.force_login(organiser_of(competition))
    response = client.post(
        reverse("teams:match-day-new", args=[competition.slug]),
        {"starts_on": "2026-12-05", "rounds": "4", "stage": "groups", "grouping": "draw"},
    )
    assert response.status_code == 302
    assert GroupTeam.objects.count() == 8


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"starts_on": "morgen"}, "starts_on"),
        ({"rounds": "0"}, "rounds"),
        ({"rounds": "99"}, "rounds"),
        ({"stage": "knockout"}, "stage"),  # a league plays no knock-out rounds
        ({"grouping": "choose"}, "grouping"),  # no team given a group
        ({"grouping": "lots"}, "grouping"),
        ({"venue": "x" * 201}, "venue"),
    ],
)
def test_bad_match_day_input_names_the_field_and_saves_nothing(client, data, field):
    competition = organised_league()
    client.force_login(organiser_of(competition))
    base = {"starts_on": "2026-12-05", "rounds": "4", "stage": "groups", "grouping": "draw"}
    response = client.post(
        reverse("teams:match-day-new", args=[competition.slug]), {**base, **data}
    )
    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert not MatchDay.objects.exists()


def test_a_group_of_three_is_refused_with_the_reason_and_nothing_saved(client):
    client.cookies["django_language"] = "en"  # the wording checked is English
    competition = organised_league(teams=4)
    client.force_login(organiser_of(competition))
    data = {"starts_on": "2026-12-05", "rounds": "4", "stage": "groups", "grouping": "choose"}
    for team in teams(competition)[:3]:
        data[f"group_{team.pk}"] = "1"
    response = client.post(reverse("teams:match-day-new", args=[competition.slug]), data)
    assert response.status_code == 400
    assert "Group 1 has 3 teams" in response.content.decode()
    assert not MatchDay.objects.exists()
    assert not competition.match_days.exists()


def short_of_players(competition: Competition) -> Team:
    """The first team, one player short: three named, and none of them in a line-up yet."""
    team = teams(competition)[0]
    team.members.order_by("-pk")[0].delete()
    return team


def test_a_group_whose_team_cannot_field_four_is_refused_naming_the_team(client):
    client.cookies["django_language"] = "en"  # the wording checked is English
    competition = organised_league(teams=4)
    short = short_of_players(competition)
    client.force_login(organiser_of(competition))
    data = {"starts_on": "2026-12-05", "rounds": "4", "stage": "groups", "grouping": "choose"}
    for team in teams(competition):
        data[f"group_{team.pk}"] = "1"
    response = client.post(reverse("teams:match-day-new", args=[competition.slug]), data)
    assert response.status_code == 400
    html = response.content.decode()
    assert f"Group 1: {short.name} names 3 players; a team plays with four" in html
    assert not MatchDay.objects.exists()
    assert not competition.match_days.exists()


def test_a_match_day_is_deleted_after_asking_until_it_is_drawn(client):
    client.cookies["django_language"] = "en"  # the wording checked is English
    competition = organised_league(teams=4)
    day = match_day(competition)
    tournament_id = day.tournament_id
    client.force_login(organiser_of(competition))
    page = client.get(reverse("teams:match-day", args=[competition.slug, 1])).content.decode()
    assert reverse("teams:match-day-delete", args=[competition.slug, 1]) in page
    asked = client.get(reverse("teams:match-day-delete", args=[competition.slug, 1]))
    assert asked.status_code == 200
    assert "Delete match day 1 for good" in asked.content.decode()
    assert MatchDay.objects.filter(pk=day.pk).exists()  # asking deletes nothing
    response = client.post(reverse("teams:match-day-delete", args=[competition.slug, 1]))
    assert response.status_code == 302
    assert response["Location"] == reverse("teams:competition", args=[competition.slug])
    assert not MatchDay.objects.exists()
    assert not GroupTeam.objects.exists()
    assert not LineUp.objects.exists()
    assert not Tournament.objects.filter(pk=tournament_id).exists()
    assert Team.objects.filter(competition=competition).count() == 4  # the teams stay


def test_a_drawn_match_day_stays_and_its_page_says_why(client):
    client.cookies["django_language"] = "en"  # the wording checked is English
    competition = organised_league(teams=4)
    day = match_day(competition)
    tournament_services.round_seat(
        round=tournament_services.round_create(tournament=day.tournament), seed=3
    )
    client.force_login(organiser_of(competition))
    page = client.get(reverse("teams:match-day", args=[competition.slug, 1])).content.decode()
    assert reverse("teams:match-day-delete", args=[competition.slug, 1]) not in page
    assert 'id="delete-refusal"' in page
    # A match day's draw seats all its rounds at once (doko.team_seating).
    assert "Rounds 1, 2, 3, 4 of match day 1 are drawn" in page
    response = client.post(reverse("teams:match-day-delete", args=[competition.slug, 1]))
    assert response.status_code == 400
    assert "undoes the draw" in response.content.decode()
    assert MatchDay.objects.filter(pk=day.pk).exists()


def test_the_match_day_page_shows_groups_line_ups_and_links(client):
    competition = organised_league()
    day = match_day(competition)
    client.cookies["django_language"] = "en"
    html = client.get(reverse("teams:match-day", args=[competition.slug, 1])).content.decode()
    assert 'id="provisional"' in html
    assert "Group 2" in html
    assert reverse("tournaments:tournament", args=[day.tournament.slug]) in html
    assert reverse("tournaments:standings", args=[day.tournament.slug]) in html
    first = teams(competition)[0].members.order_by("pk").first()
    assert first.player.name in html  # the line-up, place 1


def test_match_points_show_after_a_played_round(client):
    competition = organised_league(teams=4)
    day = match_day(competition, rounds=1)
    favoured = teams(competition)[0]
    play_round(day, 1, favoured)
    client.cookies["django_language"] = "en"
    response = client.get(reverse("teams:match-day", args=[competition.slug, 1]))
    html = response.content.decode()
    assert 'id="provisional"' not in html
    (_result, rows) = response.context["groups"][0]
    assert rows[0][0].team == favoured
    assert rows[0][0].match_points == 4


def test_match_points_are_written_with_a_half():
    from fractions import Fraction

    assert match_points(Fraction(5, 2)) == "2½"
    assert match_points(Fraction(1, 2)) == "½"
    assert match_points(Fraction(4)) == "4"
    assert match_points(Fraction(-3, 2)) == "-1½"
    assert match_points(None) == "–"


def test_the_tournament_page_of_a_match_day_links_back(client):
    competition = organised_league(teams=4)
    day = match_day(competition)
    client.cookies["django_language"] = "en"
    html = client.get(
        reverse("tournaments:tournament", args=[day.tournament.slug])
    ).content.decode()
    assert reverse("teams:match-day", args=[competition.slug, 1]) in html
    assert "Match day 1 of Testliga 2026/27" in html
    plain = factories.tournament()
    html = client.get(reverse("tournaments:tournament", args=[plain.slug])).content.decode()
    assert 'id="match-day-of"' not in html


def test_the_round_page_of_a_match_day_names_each_players_team(client):
    """The organiser checks the team draw on the round page: every table shows four players
    with four different team names (the individual side's round page shows none)."""
    from tournaments import services as tournament_services

    competition = organised_league(teams=8)
    day = match_day(competition)
    round_ = tournament_services.round_create(tournament=day.tournament)
    tournament_services.round_seat(round=round_, seed=7)
    client.force_login(organiser_of(competition))
    html = client.get(
        reverse("tournaments:round", args=[day.tournament.slug, 1]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    names = {team.name for team in teams(competition)}
    cards = html.split('class="card table-card')[1:]
    assert len(cards) == 8
    for card in cards:
        shown = re.findall(
            r'<span class="d-block small text-body-secondary seat-team">([^<]+)<', card
        )
        assert len(set(shown)) == len(shown) == 4
        assert set(shown) <= names


# Line-ups -------------------------------------------------------------------------------------


def test_a_line_up_is_changed_from_a_round_on(client):
    competition = organised_league(teams=4, members=5)
    day = match_day(competition)
    team = teams(competition)[0]
    members = list(team.members.order_by("pk"))
    reserve = members[4].player
    client.force_login(organiser_of(competition))
    data = {"from_round": "3"}
    chosen = [members[0], members[1], members[2], members[4]]
    for place, member in enumerate(chosen, start=1):
        data[f"place_{place}"] = str(member.player_id)
    response = client.post(reverse("teams:line-up", args=[competition.slug, 1, team.pk]), data)
    assert response.status_code == 302
    playing = LineUp.objects.filter(match_day=day, team=team, place=4)
    assert {line.round_number: line.entry.player_id for line in playing} == {
        1: members[3].player_id,
        2: members[3].player_id,
        3: reserve.pk,
        4: reserve.pk,
    }


def test_a_reserve_brought_in_raises_no_tables_of_four_warning(client):
    """The match day's tournament counts 17 active players once a reserve plays from round 3;
    the team draw seats the line-ups, so the page does not tell the organiser to register
    three more, withdraw one or allow tables of five."""
    competition = organised_league(teams=4, members=5)
    day = match_day(competition)
    team = teams(competition)[0]
    members = list(team.members.order_by("pk"))
    services.line_up_set(
        match_day=day,
        team=team,
        from_round=3,
        players=[member.player for member in (members[0], members[1], members[2], members[4])],
        by=organiser_of(competition),
    )
    assert day.tournament.entries.filter(status="active").count() == 17
    client.force_login(organiser_of(competition))
    client.cookies["django_language"] = "en"
    html = client.get(
        reverse("tournaments:tournament", args=[day.tournament.slug])
    ).content.decode()
    assert "tables of four" not in html
    assert "Allow tables of five" not in html


@pytest.mark.parametrize(
    "change",
    [
        {"place_4": "same"},  # the first player twice
        {"place_4": "99999"},  # nobody of the team
        {"place_2": ""},
        {"from_round": "9"},
        {"from_round": "x"},
    ],
)
def test_a_bad_line_up_names_the_field_and_saves_nothing(client, change):
    competition = organised_league(teams=4, members=5)
    day = match_day(competition)
    team = teams(competition)[0]
    members = list(team.members.order_by("pk"))
    before = list(LineUp.objects.filter(match_day=day).values_list("pk", "entry_id"))
    client.force_login(organiser_of(competition))
    data = {"from_round": "1"}
    for place, member in enumerate(members[:4], start=1):
        data[f"place_{place}"] = str(member.player_id)
    for key, value in change.items():
        data[key] = data["place_1"] if value == "same" else value
    response = client.post(reverse("teams:line-up", args=[competition.slug, 1, team.pk]), data)
    assert response.status_code == 400
    assert response.context["form"].errors
    assert list(LineUp.objects.filter(match_day=day).values_list("pk", "entry_id")) == before


# Knock-out ties -------------------------------------------------------------------------------


def test_a_tie_is_decided_by_an_organiser(client):
    competition, knockout = championship_with_knockout()
    place = GroupTeam.objects.filter(match_day=knockout).first()
    client.force_login(organiser_of(competition))
    response = client.post(
        reverse("teams:tie-decide", args=[competition.slug, knockout.number]),
        {"place": place.pk, "through": "yes"},
    )
    assert response.status_code == 302
    place.refresh_from_db()
    assert place.through is True


def test_a_group_stage_place_is_not_decided(client):
    client.cookies["django_language"] = "en"  # the wording checked is English
    competition, _knockout = championship_with_knockout()
    place = GroupTeam.objects.filter(match_day__number=1).first()
    client.force_login(organiser_of(competition))
    response = client.post(
        reverse("teams:tie-decide", args=[competition.slug, 1]),
        {"place": place.pk, "through": "yes"},
        follow=True,
    )
    assert "Only knock-out ties are decided" in response.content.decode()
    place.refresh_from_db()
    assert place.through is None


def _level_at_the_cut(monkeypatch) -> None:
    """The knock-out ties as if every one ended level at the cut, undecided: what the page
    shows then (the points to make it so by playing are many sheets away)."""
    from teams import selectors

    real = selectors.group_results

    def level(*, match_day):
        return [
            dataclasses.replace(
                result,
                complete=True,
                level_at_cut=bool(result.group.advance),
                rows=tuple(dataclasses.replace(row, through=None) for row in result.rows),
            )
            for result in real(match_day=match_day)
        ]

    monkeypatch.setattr(selectors, "group_results", level)


def test_a_tie_level_at_the_cut_offers_the_organiser_the_decision(client, monkeypatch):
    competition, knockout = championship_with_knockout()
    _level_at_the_cut(monkeypatch)
    address = reverse("teams:match-day", args=[competition.slug, knockout.number])
    decide = reverse("teams:tie-decide", args=[competition.slug, knockout.number])
    client.cookies["django_language"] = "en"
    html = client.get(address).content.decode()
    assert "level at the cut" in html
    assert decide not in html  # not for the public
    client.force_login(creator())
    html = client.get(address).content.decode()
    assert decide not in html
    assert "Only the organisers of" in html  # another organiser: why not, and whose it is
    client.force_login(organiser_of(competition))
    html = client.get(address).content.decode()
    assert html.count(f'action="{decide}"') == 8  # every team of the two ties
    place = GroupTeam.objects.filter(match_day=knockout).order_by("pk").first()
    assert f'name="place" value="{place.pk}"' in html
    client.post(decide, {"place": place.pk, "through": "no"})
    place.refresh_from_db()
    assert place.through is False


@pytest.mark.parametrize("data", [{}, {"place": "x", "through": "yes"}, {"place": "1"}])
def test_a_bad_decision_is_refused_and_nothing_saved(client, data):
    competition, knockout = championship_with_knockout()
    client.force_login(organiser_of(competition))
    response = client.post(
        reverse("teams:tie-decide", args=[competition.slug, knockout.number]), data, follow=True
    )
    assert response.status_code == 200
    assert "alert-danger" in response.content.decode()
    assert not GroupTeam.objects.exclude(through=None).exists()


# The season table and the bracket -------------------------------------------------------------


def test_the_season_table_marks_no_zone_before_a_match_day_counts(client):
    competition = organised_league(promotion_places=1, relegation_places=2)
    client.cookies["django_language"] = "en"
    html = client.get(reverse("teams:season-table", args=[competition.slug])).content.decode()
    assert "zone-promotion table-success" not in html.split('id="table-legend"')[0]
    assert "zone-relegation table-danger" not in html.split('id="table-legend"')[0]
    assert 'id="table-legend"' in html
    assert "2 relegation places" in html
    # Nothing played: every team is equal, none ranked "1." above the others (issue 47).
    assert ">1.</td>" not in html
    assert html.count(">–</td>") == 8


def test_a_league_has_no_bracket_and_links_its_table(client):
    competition = organised_league(teams=4)
    client.cookies["django_language"] = "en"
    html = client.get(reverse("teams:bracket", args=[competition.slug])).content.decode()
    assert "A league has no knock-out rounds" in html
    assert reverse("teams:season-table", args=[competition.slug]) in html


def test_the_bracket_shows_the_knock_out_ties(client):
    competition, knockout = championship_with_knockout()
    client.cookies["django_language"] = "en"
    response = client.get(reverse("teams:bracket", args=[competition.slug]))
    assert [each.match_day for each in response.context["rounds"]] == [knockout]
    assert "Tie 2" in response.content.decode()


# Query counts ---------------------------------------------------------------------------------


def _queries(client, address) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(address).status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    ("page", "most"),
    [("teams:competition", 25), ("teams:season-table", 20), ("teams:match-day", 25)],
)
def test_the_queries_do_not_grow_with_the_teams(client, page, most, django_assert_max_num_queries):
    counts = []
    for size in (4, 12):
        competition = organised_league(teams=size, name=f"Liga {size}")
        match_day(competition)
        args = [competition.slug, 1] if page == "teams:match-day" else [competition.slug]
        counts.append(_queries(client, reverse(page, args=args)))
    assert counts[0] == counts[1]
    with django_assert_max_num_queries(most):
        client.get(reverse(page, args=args))


def test_a_visitor_is_told_who_changes_the_competition_and_where_to_log_in(client):
    competition = organised_league(teams=4)
    html = client.get(reverse("teams:competition", args=[competition.slug])).content.decode()
    assert 'id="manage-login"' in html
    assert "Die Turnierleitung des Wettbewerbs ändert ihn nach dem Anmelden." in html
    assert f"{reverse('login')}?next=/teams/{competition.slug}/" in html
