"""The season plan through the API and on the pages: a 16-team league plans five match days
with every pair meeting once, its first match day takes the plan's groups, a swap before a
match day is made and its refusal after; another club's organiser is refused (403) with the
reason; the page shows the plan, the meetings and the print."""

import datetime
import itertools
import re

import pytest
from django.urls import reverse

from teams import selectors, services
from teams.models import GroupTeam, PlannedPlace
from tests.printing.helpers import words_of
from tests.teams.factories import league, organiser_of, teams
from tests.teams.test_api import API, DAY, client_of, ok, organiser_user

DATE = datetime.date(2026, 12, 5)

pytestmark = pytest.mark.django_db


def test_a_sixteen_team_league_plans_five_match_days_every_pair_meeting_once():
    competition = league(teams=16)
    api = client_of(organiser_of(competition))
    base = f"{API}/{competition.slug}"
    assert api.get(f"{base}/plan").status_code == 404
    plan = ok(api.post(f"{base}/plan", {"match_days": 5, "double": True}, format="json"), 201)
    assert plan["match_days"] == 5
    assert plan["double"] is True
    assert plan["every_pair_once"] is True
    assert plan["most"] == 1
    ids = [team["team_id"] for team in plan["teams"]]
    assert sorted(ids) == sorted(team.pk for team in teams(competition))
    for day in plan["days"]:
        assert not day["made"]
        assert sorted(t["team_id"] for g in day["groups"] for t in g["teams"]) == sorted(ids)
        assert all(len(group["teams"]) == 4 for group in day["groups"])
    met = {
        frozenset((a["team_id"], b["team_id"]))
        for day in plan["days"]
        for group in day["groups"]
        for a, b in itertools.combinations(group["teams"], 2)
    }
    assert len(met) == 16 * 15 // 2
    meetings = plan["meetings"]
    assert all(meetings[i][j] == (None if i == j else 1) for i in range(16) for j in range(16))
    # Anyone may read a public competition's plan.
    assert ok(client_of().get(f"{base}/plan")) == plan

    # Match day 1, made without groups, takes the plan's and is a double match day.
    made = ok(api.post(f"{base}/match-days", {"starts_on": DAY, "rounds": 2}, format="json"), 201)
    assert made["double"] is True
    planned = {
        frozenset(t["team_id"] for t in group["teams"]) for group in plan["days"][0]["groups"]
    }
    assert {frozenset(t["team_id"] for t in group["teams"]) for group in made["groups"]} == planned
    assert all(len(row["halves"]) == 2 for group in made["groups"] for row in group["teams"])

    # Swapping on match day 1 is refused now (400 naming the match day); on day 2 it is done.
    one, two = plan["days"][0]["groups"][:2]
    pair = [one["teams"][0]["team_id"], two["teams"][0]["team_id"]]
    refused = api.post(f"{base}/plan/swap", {"match_day": 1, "teams": pair}, format="json")
    assert refused.status_code == 400
    assert "Match day 1 is made already" in refused.json()["match_day"][0]
    one, two = plan["days"][1]["groups"][:2]
    pair = [one["teams"][0]["team_id"], two["teams"][0]["team_id"]]
    swapped = ok(api.post(f"{base}/plan/swap", {"match_day": 2, "teams": pair}, format="json"))
    groups = swapped["days"][1]["groups"]
    assert pair[1] in [t["team_id"] for t in groups[0]["teams"]]
    assert pair[0] in [t["team_id"] for t in groups[1]["teams"]]
    assert swapped["days"][0]["made"] is True
    assert swapped["every_pair_once"] is False  # the swap makes some pairs meet twice

    # Drawing the plan again is refused once a match day is made.
    again = api.post(f"{base}/plan", {"match_days": 5}, format="json")
    assert again.status_code == 400
    assert "plan" in again.json()


def test_another_clubs_organiser_is_refused_the_plan_with_the_reason():
    competition = league(teams=8)
    services.season_plan_create(
        competition=competition, match_days=2, by=organiser_of(competition), seed=3
    )
    before = sorted(PlannedPlace.objects.values_list("pk", "match_day", "group", "team_id"))
    stranger = client_of(organiser_user("fremder-leiter"))
    base = f"{API}/{competition.slug}"
    a, b = (team.pk for team in teams(competition)[:2])
    for address, body in [
        (f"{base}/plan", {"match_days": 3}),
        (f"{base}/plan/swap", {"match_day": 1, "teams": [a, b]}),
    ]:
        response = stranger.post(address, body, format="json")
        assert response.status_code == 403, response.content
        assert "Only the organisers of “Testliga”" in response.json()["detail"]
        assert client_of().post(address, body, format="json").status_code == 401
    assert sorted(PlannedPlace.objects.values_list("pk", "match_day", "group", "team_id")) == before


def test_bad_plan_requests_name_the_field():
    competition = league(teams=6)
    api = client_of(organiser_of(competition))
    base = f"{API}/{competition.slug}"
    response = api.post(f"{base}/plan", {"match_days": 3}, format="json")
    assert response.status_code == 400
    assert "6 teams" in response.json()["teams"][0]
    for body, field in [
        ({"match_days": 0}, "match_days"),
        ({"match_days": 41}, "match_days"),
        ({"match_days": 2, "seed": 4}, "seed"),
    ]:
        response = api.post(f"{base}/plan", body, format="json")
        assert response.status_code == 400, body
        assert field in response.json(), body
    response = api.post(f"{base}/plan/swap", {"match_day": 1, "teams": [1]}, format="json")
    assert response.status_code == 400
    assert "teams" in response.json()
    response = api.post(f"{base}/plan/swap", {"match_day": 1, "teams": [1, 2]}, format="json")
    assert response.status_code == 400  # no such teams, or no plan: named, never a 500


def test_a_hidden_leagues_plan_is_not_shown_to_strangers():
    competition = league(teams=8, is_public=False)
    services.season_plan_create(
        competition=competition, match_days=2, by=organiser_of(competition), seed=3
    )
    assert client_of().get(f"{API}/{competition.slug}/plan").status_code == 404
    assert (
        client_of(organiser_of(competition)).get(f"{API}/{competition.slug}/plan").status_code
        == 200
    )


# The pages -----------------------------------------------------------------------------------------


def test_the_competition_page_shows_the_plan_and_its_page_swaps(client):
    competition = league(teams=16)
    by = organiser_of(competition)
    services.season_plan_create(competition=competition, match_days=5, by=by, seed=3)
    page = client.get(reverse("teams:competition", args=[competition.slug])).content.decode()
    assert 'id="season-plan"' in page
    assert "Jede Mannschaft trifft jede andere genau einmal." in page
    client.force_login(by)
    plan_page = client.get(reverse("teams:season-plan", args=[competition.slug])).content.decode()
    assert 'id="plan-meetings"' in plan_page
    assert plan_page.count('name="first"') == 5  # a swap form per match day not made
    view = selectors.season_plan_of(competition=competition)
    assert view is not None
    (_, g1), (_, g2), *_ = view.days[2].groups
    response = client.post(
        reverse("teams:season-plan-swap", args=[competition.slug]),
        {"match_day": "3", "first": str(g1[0].pk), "second": str(g2[0].pk)},
    )
    assert response.status_code == 302
    moved = PlannedPlace.objects.get(plan__competition=competition, match_day=3, team=g1[0])
    assert moved.group == 2
    page = client.get(reverse("teams:season-plan", args=[competition.slug])).content.decode()
    assert "tauschen an Spieltag 3 die Gruppen" in page


def test_a_stranger_sees_why_he_cannot_swap_and_is_refused_403(client):
    competition = league(teams=8)
    services.season_plan_create(
        competition=competition, match_days=2, by=organiser_of(competition), seed=3
    )
    stranger = organiser_user("fremder-leiter")
    client.force_login(stranger)
    page = client.get(reverse("teams:season-plan", args=[competition.slug])).content.decode()
    assert 'name="first"' not in page
    assert "Nur die Turnierleitung von „Testliga“ ändert diesen Wettbewerb" in page
    one, two = teams(competition)[:2]
    before = sorted(PlannedPlace.objects.values_list("pk", "group"))
    for name, body in [
        ("teams:season-plan-swap", {"match_day": "1", "first": one.pk, "second": two.pk}),
        ("teams:season-plan-draw", {"match_days": "3"}),
    ]:
        response = client.post(reverse(name, args=[competition.slug]), body)
        assert response.status_code == 403
    assert sorted(PlannedPlace.objects.values_list("pk", "group")) == before


def test_a_made_match_day_says_why_it_no_longer_changes(client):
    competition = league(teams=8)
    by = organiser_of(competition)
    services.season_plan_create(competition=competition, match_days=2, by=by, seed=3)
    services.match_day_create(competition=competition, starts_on=DATE, by=by)
    assert GroupTeam.objects.count() == 8
    client.force_login(by)
    page = client.get(reverse("teams:season-plan", args=[competition.slug])).content.decode()
    assert page.count('name="first"') == 1
    assert "Spieltag 1 ist schon angelegt" in page
    assert 'id="draw-refusal"' in page


def test_the_plan_prints_as_a_pdf_with_its_groups_and_statement(client):
    competition = league(teams=16)
    services.season_plan_create(
        competition=competition, match_days=5, by=organiser_of(competition), seed=3
    )
    response = client.get(reverse("printing:team-plan-pdf", args=[competition.slug]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    text = words_of(response.content)
    assert "Jede Mannschaft trifft jede andere genau einmal." in text
    assert "Team 16" in text
    empty = league(teams=8, name="Ohne Plan")
    assert client.get(reverse("printing:team-plan-pdf", args=[empty.slug])).status_code == 404


def test_the_plan_page_in_english(client):
    competition = league(teams=16)
    services.season_plan_create(
        competition=competition, match_days=5, by=organiser_of(competition), seed=3
    )
    page = client.get(
        reverse("teams:season-plan", args=[competition.slug]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Season plan" in page
    assert "Every team meets every other team exactly once." in page


def test_the_new_match_day_page_takes_the_plans_groups_and_its_double_days(client):
    competition = league(teams=8)
    by = organiser_of(competition)
    services.season_plan_create(competition=competition, match_days=2, by=by, double=True, seed=3)
    client.force_login(by)
    client.cookies["django_language"] = "en"
    address = reverse("teams:match-day-new", args=[competition.slug])
    page = client.get(address).content.decode()
    assert 'id="plan-note"' in page
    # The plan's double match days tick the box.
    assert re.search(r'<input[^>]*name="double"[^>]*checked', page)
    response = client.post(
        address,
        {
            "starts_on": "2026-12-06",
            "rounds": "4",
            "stage": "groups",
            "grouping": "draw",
            "double": "on",
        },
    )
    assert response.status_code == 302
    made = competition.match_days.get()
    assert made.double
    planned = {
        frozenset(group.team_id for group in PlannedPlace.objects.filter(match_day=1, group=number))
        for number in (1, 2)
    }
    assert {
        frozenset(
            GroupTeam.objects.filter(match_day=made, group__number=n).values_list(
                "team_id", flat=True
            )
        )
        for n in (1, 2)
    } == planned
    odd = client.post(
        address,
        {
            "starts_on": "2026-12-07",
            "rounds": "3",
            "stage": "groups",
            "grouping": "draw",
            "double": "on",
        },
    )
    assert odd.status_code == 400
    assert "even number of rounds" in odd.content.decode()


@pytest.mark.postgres("counted queries")
def test_the_plan_pages_queries_do_not_grow_with_its_match_days(client):
    """The page asks who may swap once, not once a planned match day."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for days in (2, 8):
        by = organiser_user(f"leiter-{days}")  # not the site's superuser: asked in the database
        competition = league(teams=8, name=f"Liga {days}", by=by)
        services.season_plan_create(competition=competition, match_days=days, by=by, seed=3)
        client.force_login(by)
        url = reverse("teams:season-plan", args=[competition.slug])
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
