"""Inviting staff at the same instant on a real PostgreSQL (the `--postgres` pass): one
e-mail address invited twice at once makes one account, and the second request gets a 400 on
``email``."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests import factories
from tests.threads import together

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _invite(tournament, organiser, name: str):
    api = APIClient(raise_request_exception=False)
    api.credentials(
        HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    person = {"name": name, "email": "Juergen@Example.org", "role": "adjudicator"}
    return lambda: api.post(reverse("api-roles", args=[tournament.slug]), person, format="json")


def test_one_address_invited_twice_at_once_is_one_account():
    first, second = factories.user(), factories.user()
    invitations = [
        _invite(factories.tournament(organiser=first), first, "Jürgen Müller"),
        _invite(factories.tournament(organiser=second), second, "Jürgen Mueller"),
    ]

    answers = together(invitations)

    assert sorted(answer.status_code for answer in answers) == [201, 400], [
        answer.content for answer in answers
    ]
    (refused,) = [answer for answer in answers if answer.status_code == 400]
    assert list(refused.json()) == ["email"]
    assert User.objects.filter(email__iexact="juergen@example.org").count() == 1
