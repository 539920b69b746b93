"""Appointing the staff through the API (TSR 8.2.1)."""

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client, TestCase

from adjudication.models import Event
from tests import factories
from tests.adjudication.api.helpers import send, token, url
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role


def test_the_organiser_appoints_and_revokes_staff(api, tournament, staff):
    newcomer = factories.user(username="newcomer", first_name="Nina", last_name="Neu")
    entry = tournament.entries.get(start_number=3)
    path = url("api-roles", tournament)
    granted = send(
        api,
        "post",
        path,
        staff["organiser"],
        {"username": "newcomer", "role": "panel", "start_number": 3},
    )
    assert granted.status_code == 201
    data = granted.json()
    assert data == {
        "id": data["id"],
        "username": "newcomer",
        "name": "Nina Neu",
        "role": "panel",
        "start_number": 3,
        "invitation_url": None,
    }
    assert TournamentRole.objects.get(user=newcomer).entry == entry
    listed = send(api, "get", path, staff["panel"][0]).json()
    assert {key: value for key, value in data.items() if key != "invitation_url"} in listed
    assert {(r["username"], r["role"]) for r in listed} >= {
        ("organiser", "organiser"),
        ("desk", "scorekeeper"),
    }
    revoked = send(api, "delete", url("api-role", tournament, data["id"]), staff["organiser"])
    assert revoked.status_code == 204
    assert not TournamentRole.objects.filter(user=newcomer).exists()


def test_only_the_organiser_appoints(api, tournament, staff):
    path = url("api-roles", tournament)
    refused = send(
        api, "post", path, staff["adjudicator"], {"username": "desk", "role": "organiser"}
    )
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Only an organiser appoints the staff."
    assert not TournamentRole.objects.filter(user=staff["keeper"], role=Role.ORGANISER).exists()
    unknown = send(
        api,
        "post",
        path,
        staff["organiser"],
        {"username": "ghost", "role": "panel", "start_number": 99},
    )
    assert unknown.json() == {
        "username": ["No such user: ghost."],
        "start_number": ["No player has start number 99."],
    }
    own = TournamentRole.objects.get(user=staff["organiser"], role=Role.ORGANISER)
    last = send(api, "delete", url("api-role", tournament, own.pk), staff["organiser"])
    assert last.status_code == 400
    assert "role" in last.json()


NEW = {"name": "Jürgen Müller", "email": "juergen@example.org", "role": "adjudicator"}


def test_someone_new_is_invited_by_name_and_e_mail(api, tournament, staff, mailoutbox):
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = send(
            api,
            "post",
            url("api-roles", tournament),
            staff["organiser"],
            {**NEW, "start_number": 2},
        )
    assert response.status_code == 201
    data = response.json()
    link = data.pop("invitation_url")
    assert data == {
        "id": data["id"],
        "username": "juergen.mueller",
        "name": "Jürgen Müller",
        "role": "adjudicator",
        "start_number": 2,
    }
    assert link.startswith("http://testserver/accounts/invitation/")
    user = User.objects.get(username="juergen.mueller")
    assert not user.has_usable_password()
    assert mailoutbox[0].to == ["juergen@example.org"]
    assert link in mailoutbox[0].body
    assert Event.objects.filter(summary__startswith="Invited with a new account").exists()
    page = Client().get(link, follow=True)
    assert b'name="new_password1"' in page.content


def test_the_invitation_link_carries_the_site_url(api, tournament, staff, settings):
    settings.SITE_URL = "https://turnier.example.org/"
    response = send(api, "post", url("api-roles", tournament), staff["organiser"], NEW)
    assert response.json()["invitation_url"].startswith(
        "https://turnier.example.org/accounts/invitation/"
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"role": "panel"}, "username"),
        ({**NEW, "username": "desk"}, "username"),
        ({"username": "desk", "email": "x@example.org", "role": "panel"}, "username"),
        ({"name": "Nur Name", "role": "panel"}, "email"),
        ({"email": "nur@example.org", "role": "panel"}, "name"),
        ({**NEW, "email": "kein-at"}, "email"),
        ({**NEW, "email": "ADJUDICATOR@example.org"}, "email"),
        ({**NEW, "name": "   "}, "name"),
        ({**NEW, "name": "x" * 151}, "name"),
        ({**NEW, "start_number": 99}, "start_number"),
    ],
)
def test_a_bad_appointment_is_400_naming_the_field_and_saves_nothing(
    api, tournament, staff, body, field
):
    staff["adjudicator"].email = "adjudicator@example.org"
    staff["adjudicator"].save()
    users, grants = User.objects.count(), TournamentRole.objects.count()
    response = send(api, "post", url("api-roles", tournament), staff["organiser"], body)
    assert response.status_code == 400
    assert field in response.json()
    assert (User.objects.count(), TournamentRole.objects.count()) == (users, grants)


@pytest.mark.parametrize("who", ["adjudicator", "deputy", "keeper"])
def test_only_the_organiser_invites(api, tournament, staff, who):
    users = User.objects.count()
    response = send(api, "post", url("api-roles", tournament), staff[who], NEW)
    assert response.status_code == 403
    assert User.objects.count() == users


def test_an_invitation_is_given_again_and_the_first_stops_working(api, tournament, staff):
    first = send(api, "post", url("api-roles", tournament), staff["organiser"], NEW).json()
    again = send(
        api, "post", url("api-role-invitation", tournament, first["id"]), staff["organiser"]
    )
    assert again.status_code == 201
    second = again.json()["invitation_url"]
    assert second != first["invitation_url"]
    assert b"no longer works" in (
        Client(HTTP_ACCEPT_LANGUAGE="en").get(first["invitation_url"], follow=True).content
    )
    assert b'name="new_password1"' in Client().get(second, follow=True).content


def test_an_account_with_a_password_is_not_invited_again(api, tournament, staff):
    grant = TournamentRole.objects.get(user=staff["adjudicator"], tournament=tournament)
    path = url("api-role-invitation", tournament, grant.pk)
    refused = send(api, "post", path, staff["organiser"])
    assert refused.status_code == 403
    assert "has set a password already" in refused.json()["detail"]
    invited = send(api, "post", url("api-roles", tournament), staff["organiser"], NEW).json()
    path = url("api-role-invitation", tournament, invited["id"])
    assert send(api, "post", path, staff["adjudicator"]).status_code == 403


@pytest.mark.parametrize("field", ["name", "email", "username"])
def test_a_lone_surrogate_is_400(api, tournament, staff, field):
    body = {**NEW, field: "PLACEHOLDER"}
    if field == "username":
        body = {"username": "PLACEHOLDER", "role": "panel"}
    raw = json.dumps(body).replace("PLACEHOLDER", "J\\ud800")
    response = api.post(
        url("api-roles", tournament),
        raw,
        content_type="application/json",
        headers={"Accept-Language": "en", **token(staff["organiser"])},
    )
    assert response.status_code == 400
    assert field in response.json()
