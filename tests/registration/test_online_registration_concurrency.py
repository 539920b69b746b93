"""Online registration at the same instant on a real PostgreSQL (the `--postgres` pass): several
players posting for the last place at once get it once, the others join the waiting list in
turn; without a waiting list they are refused, never a 500; the same person sent twice at once is
one registration, also in two spellings (issue 44).

Each request runs in a thread of its own, with its own database connection, and they start
together at a barrier (``tests.threads.together``), so their transactions overlap.
"""

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from registration.models import OnlineRegistration, Registration
from tests import factories
from tests.threads import together
from tournaments.models import Entry

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _open(*, places: int, waiting_list: bool = True):
    """Four players added by hand, registration open with one place left (or ``places``)."""
    tournament = factories.tournament(players=4)
    now = timezone.now()
    OnlineRegistration.objects.create(
        tournament=tournament,
        opens_at=now - datetime.timedelta(days=1),
        closes_at=now + datetime.timedelta(days=1),
        capacity=places,
        waiting_list=waiting_list,
    )
    return tournament


def _post(tournament, n: int, **fields):
    def request():
        client = APIClient(raise_request_exception=False)
        return client.post(
            f"/api/v1/tournaments/{tournament.slug}/registrations",
            {
                "first_name": "Schnell",
                "last_name": f"Nummer{n}",
                "email": f"schnell{n}@example.org",
                **fields,
            },
            format="json",
            HTTP_ACCEPT_LANGUAGE="en",
        )

    return request


def test_the_last_place_goes_to_one_and_the_others_wait_in_turn():
    tournament = _open(places=5)
    answers = together([_post(tournament, n) for n in range(6)])
    assert [answer.status_code for answer in answers] == [201] * 6
    states = sorted(answer.json()["state"] for answer in answers)
    assert states == ["registered"] + ["waiting"] * 5
    assert tournament.entries.filter(status=Entry.Status.ACTIVE).count() == 5
    places = sorted(answer.json()["place"] for answer in answers if answer.json()["place"])
    assert places == [1, 2, 3, 4, 5]
    positions = list(
        Registration.objects.filter(state="waiting").values_list("waiting_position", flat=True)
    )
    assert sorted(positions) == [1, 2, 3, 4, 5]


def test_without_a_waiting_list_the_others_are_refused_not_a_500():
    tournament = _open(places=5, waiting_list=False)
    answers = together([_post(tournament, n) for n in range(6)])
    assert sorted(answer.status_code for answer in answers) == [201] + [400] * 5
    assert all("capacity" in answer.json() for answer in answers if answer.status_code == 400)
    assert tournament.entries.filter(status=Entry.Status.ACTIVE).count() == 5


def test_the_same_person_twice_at_once_is_one_registration():
    tournament = _open(places=20)
    answers = together([_post(tournament, 1, ddv_number="8080") for _twice in range(2)])
    assert sorted(answer.status_code for answer in answers) == [201, 400]
    assert Registration.objects.filter(tournament=tournament).count() == 1
    assert tournament.entries.count() == 5


def test_the_same_person_in_two_spellings_at_once_is_one_registration():
    tournament = _open(places=20)
    spellings = [("Jürgen", "Müller"), ("Jurgen", "MUELLER")]
    answers = together(
        [
            _post(tournament, 1, first_name=first, last_name=last, email="jm@example.org")
            for first, last in spellings
        ]
    )
    assert sorted(answer.status_code for answer in answers) == [201, 400]
    refused = next(answer for answer in answers if answer.status_code == 400)
    assert "first_name" in refused.json()
    assert Registration.objects.filter(tournament=tournament).count() == 1
