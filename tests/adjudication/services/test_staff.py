"""Appointing the staff (TSR 8.2.1)."""

import pytest
from django.contrib.auth.models import Permission, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from adjudication import services
from adjudication.invitations import invitation_tokens
from adjudication.models import Event
from adjudication.services import staff as staff_services
from tests import factories
from tests.adjudication.helpers import Role
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db


def test_roles_are_set_by_an_organiser_and_one_stays(tournament, staff):
    user = factories.user()
    entry = tournament.entries.first()
    grant = services.role_grant(
        tournament=tournament, user=user, role=Role.PANEL, entry=entry, by=staff["organiser"]
    )
    assert grant.entry == entry
    with pytest.raises(PermissionDenied):
        services.role_grant(
            tournament=tournament, user=user, role=Role.ORGANISER, by=staff["adjudicator"]
        )
    services.role_revoke(grant=grant, by=staff["organiser"])
    own = TournamentRole.objects.get(user=staff["organiser"], role=Role.ORGANISER)
    with pytest.raises(ValidationError):
        services.role_revoke(grant=own, by=staff["organiser"])


# Inviting someone new --------------------------------------------------------------------------


def site(path: str) -> str:
    return "https://turnier.example.org" + path


def invite(tournament, by, **fields):
    return services.staff_invite(
        tournament=tournament,
        **{"name": "Jürgen Müller", "email": "juergen@example.org", "role": Role.PANEL, **fields},
        address=site,
        by=by,
    )


def test_an_invitation_makes_an_account_without_a_password_and_grants_the_role(tournament, staff):
    entry = tournament.entries.get(start_number=2)
    invitation = invite(tournament, staff["organiser"], entry=entry)
    user = invitation.grant.user
    assert (user.username, user.first_name, user.last_name, user.email) == (
        "juergen.mueller",
        "Jürgen",
        "Müller",
        "juergen@example.org",
    )
    assert not user.has_usable_password()
    assert TournamentRole.objects.get(user=user).role == Role.PANEL
    assert invitation.grant.entry == entry
    assert invitation.url.startswith("https://turnier.example.org/accounts/invitation/")
    assert invitation.mailed


def test_an_invitation_is_in_the_log(tournament, staff):
    invite(tournament, staff["organiser"])
    event = Event.objects.get(tournament=tournament)
    assert event.action == Event.Action.ROLE
    assert event.summary == (
        "Invited with a new account (juergen.mueller): Jürgen Müller as arbitration panel member"
    )
    assert event.details == {"user": "juergen.mueller", "role": "panel"}


def test_the_link_is_mailed_once_the_invitation_is_saved(
    tournament, staff, mailoutbox, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "https://turnier.example.org/"
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        invitation = invite(tournament, staff["organiser"])
    assert mailoutbox == []
    for callback in callbacks:
        callback()
    (mail,) = mailoutbox
    assert mail.to == ["juergen@example.org"]
    assert mail.subject == f"Your access to {tournament.name}"
    assert invitation.url in mail.body
    assert "Your user name: juergen.mueller" in mail.body
    assert "valid for 7 days" in mail.body


def test_the_mail_is_written_in_the_language_of_the_page(
    tournament, staff, mailoutbox, django_capture_on_commit_callbacks
):
    """Here the role's name: the German catalogue has it already."""
    with translation.override("de"), django_capture_on_commit_callbacks(execute=True):
        invite(tournament, staff["organiser"])
    with translation.override("de"):
        role = str(TournamentRole.Role.PANEL.label)
    assert role != "arbitration panel member"
    assert role in mailoutbox[0].body


def test_a_mail_that_fails_leaves_the_invitation(
    tournament, staff, monkeypatch, django_capture_on_commit_callbacks, caplog
):
    def refuse(*args, **kwargs):
        raise OSError("no mail server")

    monkeypatch.setattr("tournaments.mails.send_mail", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        invitation = invite(tournament, staff["organiser"])
    assert TournamentRole.objects.filter(pk=invitation.grant.pk).exists()
    assert "was not sent" in caplog.text


def nothing_saved(before: tuple) -> bool:
    return (
        User.objects.count(),
        TournamentRole.objects.count(),
        Event.objects.count(),
    ) == before


def counts() -> tuple:
    return User.objects.count(), TournamentRole.objects.count(), Event.objects.count()


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": "   "}, "name"),
        ({"name": "x" * 151}, "name"),
        ({"name": "Jürgen\x00Müller"}, "name"),
        ({"name": "J\ud800"}, "name"),
        ({"email": "kein-at-zeichen"}, "email"),
        ({"email": ""}, "email"),
        ({"email": "a@b\ud800.de"}, "email"),
        ({"email": "ADJUDICATOR@example.org"}, "email"),
    ],
)
def test_a_bad_name_or_address_saves_nothing(tournament, staff, fields, field, mailoutbox):
    staff["adjudicator"].email = "adjudicator@example.org"
    staff["adjudicator"].save()
    before = counts()
    with pytest.raises(ValidationError) as refused:
        invite(tournament, staff["organiser"], **fields)
    assert field in refused.value.message_dict
    assert nothing_saved(before)
    assert mailoutbox == []


def test_a_player_of_another_tournament_saves_nothing(tournament, staff):
    other = factories.tournament(players=4)
    before = counts()
    with pytest.raises(ValidationError) as refused:
        invite(tournament, staff["organiser"], entry=other.entries.first())
    assert "entry" in refused.value.message_dict
    assert nothing_saved(before)


def test_only_an_organiser_invites(tournament, staff):
    before = counts()
    with pytest.raises(PermissionDenied):
        invite(tournament, staff["adjudicator"])
    assert nothing_saved(before)


def test_the_account_and_the_role_are_made_in_one_transaction(tournament, staff, monkeypatch):
    """A failure after the account was made (here: writing the log) leaves no account."""

    def broken(*args, **kwargs):
        raise RuntimeError("log unavailable")

    monkeypatch.setattr("adjudication.services.staff.log_event", broken)
    before = counts()
    with pytest.raises(RuntimeError):
        invite(tournament, staff["organiser"])
    assert nothing_saved(before)
    assert not User.objects.filter(email="juergen@example.org").exists()


@pytest.mark.parametrize(
    ("name", "email", "username"),
    [
        ("Jürgen Müller", "j@example.org", "juergen.mueller"),
        ("Müller, Jürgen", "j@example.org", "juergen.mueller"),
        ("Jiří Dvořák", "j@example.org", "jiri.dvorak"),
        ("Łukasz Straße", "j@example.org", "lukasz.strasse"),
        ("Anna-Lena von der Heide", "j@example.org", "anna.lena.von.der.heide"),
        ("Иван Петров", "ivan.petrov@example.org", "ivan.petrov"),
        ("Иван Петров", "иван@example.org", "staff"),
        ("A" * 60, "j@example.org", "a" * 30),
    ],
)
def test_user_names_are_spelt_out_from_the_name(name, email, username):
    first, last = staff_services.name_parts(name)
    base = staff_services.username_base(first_name=first, last_name=last, email=email)
    assert base == username


def test_user_names_are_unique_whatever_their_case(tournament, staff):
    factories.user(username="Juergen.Mueller")
    second = invite(tournament, staff["organiser"], email="j2@example.org")
    third = invite(tournament, staff["organiser"], email="j3@example.org")
    assert second.grant.user.username == "juergen.mueller2"
    assert third.grant.user.username == "juergen.mueller3"


def test_a_name_taken_in_between_takes_the_next(tournament, staff, monkeypatch):
    """Two invitations of one name at once: another account takes the name after this one
    read the names taken, its insert fails on the unique user name, and it takes the next."""
    real = staff_services._usernames
    taken = []

    def racing(base):
        if not taken:  # the first time: just after the names taken were read
            taken.append(factories.user(username=base))
        return real(base)

    monkeypatch.setattr(staff_services, "_usernames", racing)
    invitation = invite(tournament, staff["organiser"])
    assert invitation.grant.user.username == "juergen.mueller2"


# Invite again ----------------------------------------------------------------------------------


def test_invite_again_gives_a_fresh_link_and_the_old_one_stops_working(tournament, staff):
    first = invite(tournament, staff["organiser"])
    user = first.grant.user
    old_token = first.url.rstrip("/").rsplit("/", 1)[1]
    assert invitation_tokens.check_token(user, old_token)
    again = services.staff_invite_again(grant=first.grant, address=site, by=staff["organiser"])
    user.refresh_from_db()
    new_token = again.url.rstrip("/").rsplit("/", 1)[1]
    assert not invitation_tokens.check_token(user, old_token)
    assert invitation_tokens.check_token(user, new_token)
    assert Event.objects.filter(summary__startswith="Invited again: Jürgen Müller").exists()


def test_invite_again_is_refused_once_a_password_is_set(tournament, staff):
    grant = TournamentRole.objects.get(user=staff["adjudicator"], tournament=tournament)
    with pytest.raises(PermissionDenied, match="has set a password already"):
        services.staff_invite_again(grant=grant, address=site, by=staff["organiser"])


@pytest.mark.parametrize("more", ["role elsewhere", "is_staff", "is_superuser", "permission"])
def test_invite_again_is_refused_for_an_account_that_holds_more(tournament, staff, more):
    """The link opens the account: an organiser gets none for an account that may more than
    the roles in his tournament."""
    grant = invite(tournament, staff["organiser"]).grant
    user = grant.user
    if more == "role elsewhere":
        factories.role_grant(tournament=factories.tournament(), user=user, role=Role.ORGANISER)
    elif more == "permission":
        user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    else:
        setattr(user, more, True)
        user.save()
    password = User.objects.get(pk=user.pk).password
    with pytest.raises(PermissionDenied, match="holds more than its roles"):
        services.staff_invite_again(grant=grant, address=site, by=staff["organiser"])
    assert User.objects.get(pk=user.pk).password == password


def test_only_an_organiser_invites_again(tournament, staff):
    grant = invite(tournament, staff["organiser"]).grant
    with pytest.raises(PermissionDenied, match="Only an organiser"):
        services.staff_invite_again(grant=grant, address=site, by=staff["adjudicator"])
