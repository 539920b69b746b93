"""The round's page repairs a round that has not started: undo its draw, delete it if it is the
last; each asked once on the page, without JavaScript, and only for the organiser. Drawing again
and ending the playing time, which cannot be taken back either, are asked the same way."""

import re

import pytest
from django.urls import reverse

from tests import factories
from tournaments import services
from tournaments.models import SeatingMethod, TournamentRole

pytestmark = pytest.mark.django_db

Role = TournamentRole.Role


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def organiser():
    return factories.user(username="orga")


@pytest.fixture
def tournament(organiser):
    return factories.tournament(players=8, organiser=organiser, name="Herz-Pokal", planned_rounds=2)


def page(client, tournament, number=1, query=""):
    return client.get(
        reverse("tournaments:round", args=[tournament.slug, number]) + query
    ).content.decode()


def action(tournament, name, number=1):
    return reverse("tournaments:round-action", args=[tournament.slug, number, name])


def test_the_organiser_undoes_the_draw_after_asking_once(client, organiser, tournament):
    factories.seated_round(tournament)
    client.force_login(organiser)
    shown = page(client, tournament)
    assert "?ask=unseat#round-ask" in shown
    asked = page(client, tournament, query="?ask=unseat")
    form = re.search(r'<form[^>]*id="round-ask".*?</form>', asked, re.S).group()
    assert "Undo the draw of round 1?" in form
    assert f'action="{action(tournament, "unseat")}"' in form
    assert "seat slips" in form
    assert tournament.rounds.get().status == "seated"  # asking changes nothing
    response = client.post(action(tournament, "unseat"))
    assert response.url == reverse("tournaments:round", args=[tournament.slug, 1])
    shown = page(client, tournament)
    assert "The draw is undone: round 1 is planned again." in shown
    assert "Draw the seating" in shown
    assert tournament.rounds.get().status == "planned"


def test_by_the_ddv_method_the_page_says_which_rounds_are_planned_again(client, organiser):
    tournament = factories.tournament(
        players=8, organiser=organiser, planned_rounds=3, seating_method=SeatingMethod.DDV
    )
    services.round_seat(round=services.round_create(tournament=tournament), seed=1)
    client.force_login(organiser)
    asked = page(client, tournament, query="?ask=unseat")
    assert "rounds 1 to 3 are planned again" in asked
    client.post(action(tournament, "unseat"))
    assert "The draw is undone: rounds 1 to 3 are planned again." in page(client, tournament)


def test_the_organiser_deletes_the_last_round_after_asking_once(client, organiser, tournament):
    factories.seated_round(tournament)
    services.round_create(tournament=tournament)
    client.force_login(organiser)
    assert "?ask=delete" not in page(client, tournament, 1)  # not the last
    assert "?ask=delete#round-ask" in page(client, tournament, 2)
    asked = page(client, tournament, 2, "?ask=delete")
    assert "Delete round 2?" in asked
    response = client.post(action(tournament, "delete", 2))
    assert response.url == reverse("tournaments:tournament", args=[tournament.slug])
    assert "Round 2 is deleted." in client.get(response.url).content.decode()
    assert list(tournament.rounds.values_list("number", flat=True)) == [1]


def test_a_round_that_started_offers_no_repair_and_a_forced_post_is_refused(
    client, organiser, tournament
):
    services.round_start(round=factories.seated_round(tournament))
    client.force_login(organiser)
    shown = page(client, tournament, query="?ask=unseat")
    assert "?ask=unseat" not in shown
    assert "?ask=delete" not in shown
    assert 'id="round-ask"' not in shown
    client.post(action(tournament, "unseat"))
    assert "a draw is undone only before the round starts" in page(client, tournament)
    client.post(action(tournament, "delete"))
    assert tournament.rounds.get().status == "running"


@pytest.mark.parametrize("role", [None, Role.ADJUDICATOR])
def test_only_the_organiser_is_offered_the_repairs(client, tournament, role):
    factories.seated_round(tournament)
    user = factories.user()
    if role:
        factories.role_grant(tournament=tournament, user=user, role=role)
    client.force_login(user)
    shown = page(client, tournament, query="?ask=delete")
    assert "?ask=" not in shown
    assert 'id="round-ask"' not in shown
    assert client.post(action(tournament, "delete")).status_code == 403
    assert tournament.rounds.get().status == "seated"


def test_an_unknown_question_is_not_found(client, tournament):
    factories.seated_round(tournament)
    assert (
        client.get(
            reverse("tournaments:round", args=[tournament.slug, 1]) + "?ask=close"
        ).status_code
        == 404
    )


def test_the_round_page_asks_without_inline_script_handlers(client, organiser, tournament):
    factories.seated_round(tournament)
    client.force_login(organiser)
    asked = page(client, tournament, query="?ask=unseat")
    form = re.search(r'<form[^>]*id="round-ask".*?</form>', asked, re.S).group()
    assert not re.search(r"\son[a-z]+=", form)


def test_drawing_again_is_asked_once_on_the_page(client, organiser, tournament):
    round_ = factories.seated_round(tournament)
    seats = set(round_.seats.values_list("pk", flat=True))
    client.force_login(organiser)
    shown = page(client, tournament)
    assert "?ask=seat#round-ask" in shown
    assert f'action="{action(tournament, "seat")}"' not in shown  # no one-click redraw
    asked = page(client, tournament, query="?ask=seat")
    form = re.search(r'<form[^>]*id="round-ask".*?</form>', asked, re.S).group()
    assert "Draw this seating again? The current one is replaced." in form
    assert f'action="{action(tournament, "seat")}"' in form
    assert "seat slips" in form
    assert set(round_.seats.values_list("pk", flat=True)) == seats  # asking changes nothing
    client.post(action(tournament, "seat"))
    assert "The seating is drawn." in page(client, tournament)
    assert set(round_.seats.values_list("pk", flat=True)).isdisjoint(seats)


def test_a_planned_round_is_drawn_with_one_click(client, organiser, tournament):
    services.round_create(tournament=tournament)
    client.force_login(organiser)
    shown = page(client, tournament)
    assert "?ask=seat" not in shown
    assert f'action="{action(tournament, "seat")}"' in shown
    assert page(client, tournament, query="?ask=seat").count('id="round-ask"') == 0


@pytest.mark.parametrize("role", [Role.ADJUDICATOR, Role.ORGANISER])
def test_ending_the_playing_time_is_asked_once_on_the_page(client, tournament, role):
    services.round_start(round=factories.seated_round(tournament))
    user = factories.user()
    factories.role_grant(tournament=tournament, user=user, role=role)
    client.force_login(user)
    shown = page(client, tournament)
    assert "?ask=end#round-ask" in shown
    assert f'action="{action(tournament, "end")}"' not in shown
    asked = page(client, tournament, query="?ask=end")
    form = re.search(r'<form[^>]*id="round-ask".*?</form>', asked, re.S).group()
    assert "Announce the end of the playing time for all tables?" in form
    assert "Yes, end the playing time" in form
    assert tournament.rounds.get().status == "running"
    client.post(action(tournament, "end"))
    assert tournament.rounds.get().status == "finished"
    assert "?ask=end" not in page(client, tournament)


def test_a_panel_member_is_not_asked_to_end_the_playing_time(client, tournament):
    services.round_start(round=factories.seated_round(tournament))
    member = factories.user()
    factories.role_grant(tournament=tournament, user=member, role=Role.PANEL)
    client.force_login(member)
    asked = page(client, tournament, query="?ask=end")
    assert 'id="round-ask"' not in asked
    assert "?ask=end" not in asked
