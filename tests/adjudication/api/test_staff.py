"""Appointing the staff through the API (TSR 8.2.1)."""

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client, TestCase

from adjudication import services
from adjudication.models import Event, RoleOffer, StaffInvitation
from tests import factories
from tests.adjudication.api.helpers import send, token, url
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role


def test_the_organiser_offers_a_role_and_revokes_it_once_accepted(api, tournament, staff):
    newcomer = factories.user(username="newcomer", first_name="Nina", last_name="Neu")
    entry = tournament.entries.get(start_number=3)
    path = url("api:roles", tournament)
    offered = send(
        api,
        "post",
        path,
        staff["organiser"],
        {"username": "newcomer", "role": "panel", "start_number": 3},
    )
    assert offered.status_code == 202
    data = offered.json()
    assert data == {
        "id": data["id"],
        "username": "newcomer",
        "role": "panel",
        "start_number": 3,
        "created_at": data["created_at"],
        "expires_at": data["expires_at"],
    }
    assert not TournamentRole.objects.filter(user=newcomer).exists()
    offers = send(api, "get", url("api:role-offers", tournament), staff["organiser"]).json()
    assert offers == [data]
    services.role_offer_accept(offer=RoleOffer.objects.get(pk=data["id"]), by=newcomer)
    grant = TournamentRole.objects.get(user=newcomer)
    assert grant.entry == entry
    listed = send(api, "get", path, staff["panel"][0]).json()
    assert {
        "id": grant.pk,
        "username": "newcomer",
        "name": "Nina Neu",
        "role": "panel",
        "start_number": 3,
    } in listed
    assert {(r["username"], r["role"]) for r in listed} >= {
        ("organiser", "organiser"),
        ("desk", "scorekeeper"),
    }
    revoked = send(api, "delete", url("api:role", tournament, grant.pk), staff["organiser"])
    assert revoked.status_code == 204
    assert not TournamentRole.objects.filter(user=newcomer).exists()


def test_the_answer_is_the_same_whether_the_user_name_has_an_account(api, tournament, staff):
    factories.user(username="real")
    answers = []
    for username in ("real", "ghost"):
        response = send(
            api,
            "post",
            url("api:roles", tournament),
            staff["organiser"],
            {"username": username, "role": "panel"},
        )
        assert response.status_code == 202
        answers.append(
            {
                k: v
                for k, v in response.json().items()
                if k not in {"id", "created_at", "expires_at"}
            }
        )
    assert answers[0] == {**answers[1], "username": "real"}
    assert not TournamentRole.objects.filter(role=Role.PANEL, user__username="real").exists()


def test_the_organisers_own_user_name_takes_the_role_at_once(api, tournament, staff):
    response = send(
        api,
        "post",
        url("api:roles", tournament),
        staff["organiser"],
        {"username": "organiser", "role": "panel"},
    )
    assert response.status_code == 201
    assert TournamentRole.objects.filter(user=staff["organiser"], role=Role.PANEL).exists()


def test_an_offer_is_withdrawn(api, tournament, staff):
    offered = send(
        api,
        "post",
        url("api:roles", tournament),
        staff["organiser"],
        {"username": "ghost", "role": "panel"},
    ).json()
    address = url("api:role-offer", tournament, offered["id"])
    assert send(api, "delete", address, staff["adjudicator"]).status_code == 403
    assert send(api, "delete", address, staff["organiser"]).status_code == 204
    assert send(api, "get", url("api:role-offers", tournament), staff["organiser"]).json() == []
    again = send(api, "delete", address, staff["organiser"])
    assert again.status_code == 400
    assert "offer" in again.json()


def test_only_the_organiser_appoints(api, tournament, staff):
    path = url("api:roles", tournament)
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
    assert unknown.json() == {"start_number": ["No player has start number 99."]}
    own = TournamentRole.objects.get(user=staff["organiser"], role=Role.ORGANISER)
    last = send(api, "delete", url("api:role", tournament, own.pk), staff["organiser"])
    assert last.status_code == 400
    assert "role" in last.json()


NEW = {"name": "Jürgen Müller", "email": "juergen@example.org", "role": "adjudicator"}


def test_someone_is_invited_by_name_and_e_mail(api, tournament, staff, mailoutbox):
    users, roles = User.objects.count(), TournamentRole.objects.count()
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = send(
            api,
            "post",
            url("api:roles", tournament),
            staff["organiser"],
            {**NEW, "start_number": 2},
        )
    assert response.status_code == 202
    data = response.json()
    assert data == {
        "id": data["id"],
        "name": "Jürgen Müller",
        "email": "juergen@example.org",
        "role": "adjudicator",
        "start_number": 2,
        "created_at": data["created_at"],
        "expires_at": data["expires_at"],
        "invitation_url": None,  # mailed, to the address only
    }
    assert (User.objects.count(), TournamentRole.objects.count()) == (users, roles)
    assert mailoutbox[0].to == ["juergen@example.org"]
    assert Event.objects.filter(summary__startswith="Invited: Jürgen Müller").exists()
    listed = send(api, "get", url("api:invitations", tournament), staff["organiser"]).json()
    assert [invitation["id"] for invitation in listed] == [data["id"]]


def test_an_address_with_an_account_gets_the_same_answer(api, tournament, staff):
    factories.user(username="jm", email="juergen@example.org")
    known = send(api, "post", url("api:roles", tournament), staff["organiser"], NEW)
    unknown = send(
        api,
        "post",
        url("api:roles", tournament),
        staff["organiser"],
        {**NEW, "email": "x@example.org"},
    )
    assert known.status_code == unknown.status_code == 202
    strip = {"id", "email", "created_at", "expires_at"}
    assert {k: v for k, v in known.json().items() if k not in strip} == {
        k: v for k, v in unknown.json().items() if k not in strip
    }


def test_without_mail_the_answer_carries_the_link(api, tournament, staff, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    settings.SITE_URL = "https://turnier.example.org/"
    response = send(api, "post", url("api:roles", tournament), staff["organiser"], NEW)
    link = response.json()["invitation_url"]
    assert link.startswith("https://turnier.example.org/accounts/invitation/")
    page = Client().get(link.replace("https://turnier.example.org", ""))
    assert b'name="new_password1"' in page.content


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"role": "panel"}, "username"),
        ({**NEW, "username": "desk"}, "username"),
        ({"username": "desk", "email": "x@example.org", "role": "panel"}, "username"),
        ({"name": "Nur Name", "role": "panel"}, "email"),
        ({"email": "nur@example.org", "role": "panel"}, "name"),
        ({**NEW, "email": "kein-at"}, "email"),
        ({**NEW, "name": "   "}, "name"),
        ({**NEW, "name": "x" * 151}, "name"),
        ({**NEW, "start_number": 99}, "start_number"),
    ],
)
def test_a_bad_appointment_is_400_naming_the_field_and_saves_nothing(
    api, tournament, staff, body, field
):
    users, grants = User.objects.count(), TournamentRole.objects.count()
    response = send(api, "post", url("api:roles", tournament), staff["organiser"], body)
    assert response.status_code == 400
    assert field in response.json()
    assert (User.objects.count(), TournamentRole.objects.count()) == (users, grants)
    assert not StaffInvitation.objects.exists()


@pytest.mark.parametrize("who", ["adjudicator", "deputy", "keeper"])
def test_only_the_organiser_invites(api, tournament, staff, who):
    response = send(api, "post", url("api:roles", tournament), staff[who], NEW)
    assert response.status_code == 403
    assert not StaffInvitation.objects.exists()


def test_an_invitation_is_given_again_and_withdrawn(api, tournament, staff, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    first = send(api, "post", url("api:roles", tournament), staff["organiser"], NEW).json()
    again = send(
        api, "post", url("api:invitation-again", tournament, first["id"]), staff["organiser"]
    )
    assert again.status_code == 202
    second = again.json()
    assert second["invitation_url"] != first["invitation_url"]
    assert b"withdrawn, or replaced" in (
        Client(HTTP_ACCEPT_LANGUAGE="en").get(first["invitation_url"]).content
    )
    assert b'name="new_password1"' in Client().get(second["invitation_url"]).content
    refused = send(
        api, "post", url("api:invitation-again", tournament, first["id"]), staff["organiser"]
    )
    assert refused.status_code == 400
    assert "invitation" in refused.json()
    path = url("api:invitation", tournament, second["id"])
    assert send(api, "delete", path, staff["adjudicator"]).status_code == 403
    assert send(api, "delete", path, staff["organiser"]).status_code == 204
    assert send(api, "get", url("api:invitations", tournament), staff["organiser"]).json() == []
    assert (
        send(api, "get", url("api:invitations", tournament), staff["adjudicator"]).status_code
        == 403
    )


@pytest.mark.parametrize("field", ["name", "email", "username"])
def test_a_lone_surrogate_is_400(api, tournament, staff, field):
    body = {**NEW, field: "PLACEHOLDER"}
    if field == "username":
        body = {"username": "PLACEHOLDER", "role": "panel"}
    raw = json.dumps(body).replace("PLACEHOLDER", "J\\ud800")
    response = api.post(
        url("api:roles", tournament),
        raw,
        content_type="application/json",
        headers={"Accept-Language": "en", **token(staff["organiser"])},
    )
    assert response.status_code == 400
    assert field in response.json()
