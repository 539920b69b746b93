"""The desk's view of a round through the API (scoring/api/desk.py): the same states, order and
counts as the page, for the same readers."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests import factories

pytestmark = pytest.mark.django_db


def url(world):
    return reverse("api:desk", args=[world.tournament.slug, world.round.number])


def client_of(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_tables_come_with_their_states_in_the_desks_order(desk_world):
    answer = client_of(desk_world.organiser).get(url(desk_world))
    assert answer.status_code == 200
    data = answer.json()
    assert [(t["table"], t["state"]) for t in data["tables"]] == [
        (7, "settle"),
        (5, "complaint"),
        (3, "handed_in"),
        (6, "second_entry"),
        (2, "typing"),
        (1, "empty"),
        (4, "confirmed"),
        (8, "confirmed"),
    ]
    assert data["counts"] == {
        "settle": 1,
        "complaint": 1,
        "handed_in": 1,
        "second_entry": 1,
        "typing": 1,
        "empty": 1,
        "confirmed": 2,
    }
    tables = {t["table"]: t for t in data["tables"]}
    assert tables[7]["differences"] == [7]
    assert tables[6]["second_entry"]["hands"] == 5
    assert tables[6]["second_entry"]["by"] == "Zora Zweit"
    assert tables[8]["confirmed_how"] == "double_entry"
    assert tables[2]["last_change"]["action"] == "hands"
    assert tables[1]["last_change"] is None
    assert tables[2]["playing_until"] is not None
    assert tables[2]["time_over"] is False


def test_one_state_is_listed_alone(desk_world):
    data = client_of(desk_world.organiser).get(url(desk_world), {"state": "confirmed"}).json()
    assert [t["table"] for t in data["tables"]] == [4, 8]
    assert data["total"] == 8


def test_an_unknown_state_is_refused_on_its_field(desk_world):
    answer = client_of(desk_world.organiser).get(url(desk_world), {"state": "done"})
    assert answer.status_code == 400
    assert "state" in answer.json()


def test_a_seats_key_is_refused(desk_world):
    seat = desk_world.sheets[1].table.seats.get(position=4)
    answer = APIClient().get(url(desk_world), headers={"X-Seat-Key": seat.token})
    assert answer.status_code == 403


def test_an_account_without_a_role_is_told_who_reads_the_desk(desk_world):
    answer = client_of(factories.user()).get(url(desk_world), HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 403
    assert "Only the tournament's staff see the desk" in answer.json()["detail"]


def test_a_visitor_is_asked_to_authenticate(desk_world):
    assert APIClient().get(url(desk_world)).status_code == 401
