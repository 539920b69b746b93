"""Accepting invitations at the same instant on a real PostgreSQL (the `--postgres` pass): two
invitations of one new address, accepted at once, make one account; the second acceptance
finds it (``name_lock``) and is sent back to its link, which asks to log in as it."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from adjudication import services
from tests import factories
from tests.threads import together
from tournaments.models import TournamentRole

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

PASSWORD = "ein-langes-Passwort-42"


def _link(name: str) -> str:
    organiser = factories.user()
    made = services.staff_invite(
        tournament=factories.tournament(organiser=organiser),
        name=name,
        email="Juergen@Example.org",
        role=TournamentRole.Role.ADJUDICATOR,
        address=lambda path: path,
        by=organiser,
    )
    assert made.url is not None
    return made.url


def _accept(link: str):
    client = Client(HTTP_ACCEPT_LANGUAGE="en", raise_request_exception=False)
    return lambda: client.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})


def test_one_address_accepted_twice_at_once_is_one_account(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    links = [_link("Jürgen Müller"), _link("Jürgen Mueller")]

    answers = together([_accept(link) for link in links])

    # One makes the account, signs it in and sends it on to its tournament (issue 47). The
    # other, had it waited for the first inside the service (``name_lock``), is sent back to its
    # link; had the first committed before its page even looked, the page itself answers 403 and
    # asks to log in as that account.
    first, second = sorted(answers, key=lambda answer: answer.get("Location") in [None, *links])
    assert first.status_code == 302, [a.status_code for a in answers]
    assert first["Location"].startswith("/tournaments/"), first["Location"]
    assert first.wsgi_request.user.get_username() == "juergen.mueller"
    if second.status_code == 403:
        assert f"{reverse('login')}?next=".encode() in second.content  # "log in as it"
    else:
        assert second.get("Location") in links, second.get("Location")
    assert User.objects.filter(email__iexact="juergen@example.org").count() == 1
