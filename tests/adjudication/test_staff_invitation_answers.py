"""Finding N9 of issue 30: inviting staff by e-mail address told any organiser whether the
address had an account on the site ("An account with this e-mail address exists already").
Now the answer is the same, after the same queries, for every address; the account is looked
up after the answer, by the mail's task; and an invitation, which a second organiser may have
seen, never opens an existing account or sets its password."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from adjudication.models import StaffInvitation
from tests import factories
from tests.served import served
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "ein-langes-Passwort-42"
KNOWN = "olga@example.org"
UNKNOWN = "nobody@example.org"


@pytest.fixture
def organiser():
    return factories.user(username="organiser")


@pytest.fixture
def tournament(organiser):
    return factories.tournament(players=4, organiser=organiser)


@pytest.fixture
def olga():
    return factories.user(username="olga", email=KNOWN, first_name="Olga")


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def invited(tournament, organiser, email: str):
    """The organiser's invitation, served as a WSGI server does, the response not yet closed."""
    return served(
        "post",
        reverse("adjudication:staff-invite", args=[tournament.slug]),
        {"name": "Olga Neu", "email": email, "role": "adjudicator"},
        HTTP_COOKIE=f"sessionid={session_of(organiser)}; django_language=en",
    )


def comparable(response) -> tuple:
    """What a client reads of an answer, but for its cookies (the CSRF token, the message)."""
    headers = {k: v for k, v in response.headers.items() if k.lower() != "set-cookie"}
    return response.status_code, headers, response.content


def shape(queries, email: str) -> list[str]:
    """The queries, without their values (the address, the key, the times)."""
    shapes = []
    for query in queries:
        sql = query["sql"].replace(email, "ADDRESS")
        shapes.append(re.sub(r"'[^']*'|\b\d+(\.\d+)?\b", "?", sql))
    return shapes


def staff_page(organiser, tournament, response, email: str) -> str:
    """The staff page the answer leads to, with the answer's message, as the organiser reads
    it; the address, the CSRF tokens and the invitation's number made alike."""
    client = Client()
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    for name, morsel in response.cookies.items():
        client.cookies[name] = morsel.value
    page = client.get(response["Location"]).content.decode()
    page = page.replace(email, "ADDRESS")
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "CSRF", page)
    return re.sub(r"/staff/invitations/\d+/", "/staff/invitations/N/", page)


def test_an_address_with_an_account_and_one_without_get_the_same_answer(
    organiser, tournament, olga, mailoutbox
):
    known, known_queries = invited(tournament, organiser, KNOWN)
    assert mailoutbox == []  # nothing is sent before the answer has gone
    known.close()
    (to_olga,) = mailoutbox
    known_page = staff_page(organiser, tournament, known, KNOWN)
    # Withdrawn, so that the next page lists one invitation too.
    StaffInvitation.objects.update(withdrawn_at=StaffInvitation.objects.get().created_at)
    unknown, unknown_queries = invited(tournament, organiser, UNKNOWN)
    assert mailoutbox == [to_olga]
    unknown.close()
    unknown_page = staff_page(organiser, tournament, unknown, UNKNOWN)

    assert comparable(known) == comparable(unknown)
    assert known.status_code == 302
    assert "Invitation sent to ADDRESS." in known_page
    assert known_page == unknown_page
    assert shape(known_queries, KNOWN) == shape(unknown_queries, UNKNOWN)
    # No query of the answer reads the accounts.
    assert not any("auth_user" in q["sql"] and "email" in q["sql"] for q in known_queries)
    assert not TournamentRole.objects.filter(user=olga).exists()
    _, to_nobody = mailoutbox
    assert (to_olga.to, to_nobody.to) == ([KNOWN], [UNKNOWN])
    assert "log in with it and accept" in to_olga.body
    assert "Create your account here" in to_nobody.body


def test_a_second_organisers_invitation_opens_no_account(organiser, olga, settings):
    """Where the site sends no mail the organiser gets the link: for an address with an
    account it asks to log in as that account, and nothing posted to it sets the account's
    password or logs anyone in."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    olga.set_password("olgas-own-password-1")
    olga.save()
    second = factories.user(username="second")
    tournament = factories.tournament(players=4, organiser=second)
    response, _queries = invited(tournament, second, KNOWN)
    response.close()
    made = Client()
    made.force_login(second)
    for name, morsel in response.cookies.items():
        made.cookies[name] = morsel.value
    page = made.get(response["Location"]).content.decode()
    link = re.search(r'id="invitation-url" type="text" value="([^"]+)"', page).group(1)

    stranger = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert "log in as that account" in stranger.get(link).content.decode()
    for client in (stranger, made):
        answer = client.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
        assert answer.status_code == 403
        assert "_auth_user_id" not in client.session or client.session["_auth_user_id"] == str(
            second.pk
        )
    olga.refresh_from_db()
    assert olga.check_password("olgas-own-password-1")
    assert not olga.check_password(PASSWORD)
    assert not TournamentRole.objects.filter(user=olga).exists()
    assert User.objects.filter(email__iexact=KNOWN).count() == 1
    # Olga herself accepts, logged in.
    own = Client()
    own.force_login(olga)
    assert own.post(link).status_code == 302
    assert TournamentRole.objects.filter(user=olga, tournament=tournament).exists()
