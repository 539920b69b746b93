"""The rounds API's repairs, as the round's page offers them: a draw undone, the last round
deleted, before the round starts (organiser)."""

import pytest
from django.urls import reverse

from scoring.models import Scoresheet
from tests import factories
from tournaments import services
from tournaments.models import SeatingMethod

pytestmark = pytest.mark.django_db


def test_the_organiser_undoes_a_draw_and_the_round_is_planned_again(client, staffed):
    tournament, headers = staffed
    factories.seated_round(tournament)
    response = client.post(
        reverse("api:round-unseat", args=[tournament.slug, 1]), headers=headers["organiser"]
    )
    assert response.status_code == 200
    assert response.json()["status"] == "planned"
    assert response.json()["table_count"] == 0
    assert not Scoresheet.objects.filter(table__round__tournament=tournament).exists()


def test_by_the_ddv_method_the_api_undoes_the_later_rounds_drawn_with_it(client, staffed):
    tournament, headers = staffed
    tournament.seating_method = SeatingMethod.DDV
    tournament.save()
    services.round_seat(round=services.round_create(tournament=tournament), seed=1)
    client.post(
        reverse("api:round-unseat", args=[tournament.slug, 1]), headers=headers["organiser"]
    )
    rounds = client.get(reverse("api:rounds", args=[tournament.slug])).json()
    assert [(r["number"], r["status"]) for r in rounds] == [(1, "planned"), (2, "planned")]


def test_undoing_a_draw_that_is_running_is_refused_on_status(client, staffed):
    tournament, headers = staffed
    services.round_start(round=factories.seated_round(tournament))
    response = client.post(
        reverse("api:round-unseat", args=[tournament.slug, 1]), headers=headers["organiser"]
    )
    assert response.status_code == 400
    assert "status" in response.json()
    assert tournament.rounds.get().status == "running"


def test_the_organiser_deletes_the_last_round_and_no_other(client, staffed):
    tournament, headers = staffed
    factories.seated_round(tournament)
    services.round_create(tournament=tournament)
    first = reverse("api:round", args=[tournament.slug, 1])
    response = client.delete(first, headers=headers["organiser"])
    assert response.status_code == 400
    assert "number" in response.json()
    response = client.delete(
        reverse("api:round", args=[tournament.slug, 2]), headers=headers["organiser"]
    )
    assert response.status_code == 204
    assert client.delete(first, headers=headers["organiser"]).status_code == 204
    assert not tournament.rounds.exists()
    assert client.delete(first, headers=headers["organiser"]).status_code == 404


def test_only_the_organiser_undoes_a_draw_or_deletes_a_round(client, staffed):
    tournament, headers = staffed
    factories.seated_round(tournament)
    for answer in (
        client.post(
            reverse("api:round-unseat", args=[tournament.slug, 1]),
            headers=headers["adjudicator"],
        ),
        client.delete(
            reverse("api:round", args=[tournament.slug, 1]), headers=headers["adjudicator"]
        ),
    ):
        assert answer.status_code == 403
    assert client.delete(reverse("api:round", args=[tournament.slug, 1])).status_code == 401
    assert tournament.rounds.get().status == "seated"
