"""The ranking lists' boxes on tournaments' pages (``tournaments.page_boxes``) and their rebuild
when tournaments says what it counts changed (``tournaments.ranked``): tournaments names
neither the app nor its routes."""

import pytest
from django.urls import reverse

from rankings.hooks import PlayerPlaces, RankingLists, RankingRequests
from rankings.services.lists import ranking_list_save
from tests import factories
from tournaments import page_boxes, ranked

pytestmark = pytest.mark.django_db


def test_the_app_answers_tournaments_hooks():
    assert any(isinstance(box, RankingRequests) for box in page_boxes.boxes(page_boxes.SETTINGS))
    assert any(isinstance(box, PlayerPlaces) for box in page_boxes.boxes(page_boxes.PERSON))
    assert any(isinstance(listener, RankingLists) for listener in ranked._listeners.values())


def test_the_settings_page_asks_the_lists_through_the_rankings_route(client):
    ranking_list_save(name="Clubliste", slug="club")
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:tournament-settings", args=[tournament.slug]))
    html = page.content.decode()
    assert reverse("rankings:ranking-requests", args=[tournament.slug]) in html
    assert reverse("rankings:ranking", args=["club"]) in html


def test_the_rebuild_by_hand_names_each_list(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        ranking_list_save(name="Clubliste", slug="club")
    assert "ranking list club: 0 players" in ranked.rebuild()


def test_a_lists_maintainer_corrects_persons_through_the_policy_hook():
    from django.contrib.auth.models import User

    from rankings.models import RankingList
    from tournaments import policies

    keeper = User.objects.create_user("keeper")
    assert policies.may_change_person(user=keeper) is not None
    ranking_list = RankingList.objects.create(name="Vereinsrangliste", slug="verein")
    ranking_list.maintainers.add(keeper)
    assert policies.may_change_person(user=keeper) is None
