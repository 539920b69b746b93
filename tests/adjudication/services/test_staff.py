"""Appointing the staff (TSR 8.2.1)."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone, translation

from adjudication import services
from adjudication.invitations import invitation_key_hash
from adjudication.models import Event, StaffInvitation
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


# Inviting by e-mail address -------------------------------------------------------------------


PASSWORD = "ein-langes-Passwort-42"


def site(path: str) -> str:
    return "https://turnier.example.org" + path


def invite(tournament, by, **fields):
    return services.staff_invite(
        tournament=tournament,
        **{"name": "Jürgen Müller", "email": "juergen@example.org", "role": Role.PANEL, **fields},
        address=site,
        by=by,
    )


def key_of(made) -> str:
    return made.url.rstrip("/").rsplit("/", 1)[1]


@pytest.fixture(autouse=True)
def no_mail_leaves(monkeypatch):
    """As the embedded default (the console backend): the organiser is given the link, and the
    tests its key; the mails still arrive in the test's outbox."""
    monkeypatch.setattr(staff_services, "mail_leaves_the_server", lambda: False)


def test_an_invitation_is_stored_and_makes_no_account_and_no_role(tournament, staff):
    users, roles = User.objects.count(), TournamentRole.objects.count()
    entry = tournament.entries.get(start_number=2)
    made = invite(tournament, staff["organiser"], entry=entry)
    invitation = made.invitation
    assert (invitation.name, invitation.email, invitation.role, invitation.entry) == (
        "Jürgen Müller",
        "juergen@example.org",
        Role.PANEL,
        entry,
    )
    assert invitation.expires_at - invitation.created_at == timedelta(days=7)
    assert made.url.startswith("https://turnier.example.org/accounts/invitation/")
    assert invitation.key_hash == invitation_key_hash(key_of(made))
    assert key_of(made) not in invitation.key_hash
    assert (User.objects.count(), TournamentRole.objects.count()) == (users, roles)


def test_where_mail_leaves_the_server_the_organiser_gets_no_link(tournament, staff, monkeypatch):
    monkeypatch.setattr(staff_services, "mail_leaves_the_server", lambda: True)
    assert invite(tournament, staff["organiser"]).url is None


def test_an_invitation_is_in_the_log(tournament, staff):
    invite(tournament, staff["organiser"])
    event = Event.objects.get(tournament=tournament)
    assert event.action == Event.Action.ROLE
    assert event.summary == (
        "Invited: Jürgen Müller <juergen@example.org> as arbitration panel member"
    )
    assert event.details == {"email": "juergen@example.org", "role": "panel"}


def test_a_new_address_is_mailed_to_create_its_account(
    tournament, staff, mailoutbox, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "https://turnier.example.org/"
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        made = invite(tournament, staff["organiser"])
    assert mailoutbox == []
    for callback in callbacks:
        callback()
    (mail,) = mailoutbox
    assert mail.to == ["juergen@example.org"]
    assert mail.subject == f"Your access to {tournament.name}"
    assert made.url in mail.body
    assert "Create your account here" in mail.body
    assert "valid for 7 days" in mail.body


def test_an_address_with_an_account_is_mailed_to_log_in_and_accept(
    tournament, staff, mailoutbox, django_capture_on_commit_callbacks
):
    factories.user(username="jm", email="Juergen@Example.org")
    with django_capture_on_commit_callbacks(execute=True):
        made = invite(tournament, staff["organiser"])
    (mail,) = mailoutbox
    assert "log in with it and accept" in mail.body
    assert key_of(made) in mail.body
    assert "jm" not in mail.body.split()  # the user name is not told to the address


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
        made = invite(tournament, staff["organiser"])
    assert StaffInvitation.objects.filter(pk=made.invitation.pk).exists()
    assert "was not sent" in caplog.text


def counts() -> tuple:
    return (
        User.objects.count(),
        TournamentRole.objects.count(),
        Event.objects.count(),
        StaffInvitation.objects.count(),
    )


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
    ],
)
def test_a_bad_name_or_address_saves_nothing(tournament, staff, fields, field, mailoutbox):
    before = counts()
    with pytest.raises(ValidationError) as refused:
        invite(tournament, staff["organiser"], **fields)
    assert field in refused.value.message_dict
    assert counts() == before
    assert mailoutbox == []


def test_a_player_of_another_tournament_saves_nothing(tournament, staff):
    other = factories.tournament(players=4)
    before = counts()
    with pytest.raises(ValidationError) as refused:
        invite(tournament, staff["organiser"], entry=other.entries.first())
    assert "entry" in refused.value.message_dict
    assert counts() == before


def test_only_an_organiser_invites(tournament, staff):
    before = counts()
    with pytest.raises(PermissionDenied):
        invite(tournament, staff["adjudicator"])
    assert counts() == before


def test_the_invitation_and_its_log_are_one_transaction(tournament, staff, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("log unavailable")

    monkeypatch.setattr("adjudication.services.staff.log_event", broken)
    before = counts()
    with pytest.raises(RuntimeError):
        invite(tournament, staff["organiser"])
    assert counts() == before


def test_one_invitation_is_open_per_address_and_role(tournament, staff):
    first = invite(tournament, staff["organiser"])
    second = invite(tournament, staff["organiser"], email="JUERGEN@example.org")
    first.invitation.refresh_from_db()
    assert first.invitation.withdrawn_at is not None
    assert second.invitation.withdrawn_at is None
    other_role = invite(tournament, staff["organiser"], role=Role.SCOREKEEPER)
    assert other_role.invitation.withdrawn_at is None
    # The database holds it too.
    with pytest.raises(IntegrityError), transaction.atomic():
        StaffInvitation.objects.filter(pk=first.invitation.pk).update(withdrawn_at=None)


# Accepting --------------------------------------------------------------------------------------


def accept(made, by=None, password=""):
    return services.staff_invitation_accept(
        invitation=made.invitation, by=by or AnonymousUser(), password=password
    )


def test_a_new_address_accepts_with_a_password_and_gets_account_and_role(tournament, staff):
    entry = tournament.entries.get(start_number=2)
    made = invite(tournament, staff["organiser"], entry=entry)
    grant = accept(made, password=PASSWORD)
    user = grant.user
    assert (user.username, user.first_name, user.last_name, user.email) == (
        "juergen.mueller",
        "Jürgen",
        "Müller",
        "juergen@example.org",
    )
    assert user.check_password(PASSWORD)
    assert (grant.role, grant.entry) == (Role.PANEL, entry)
    made.invitation.refresh_from_db()
    assert made.invitation.accepted_by == user
    assert Event.objects.filter(
        summary="Accepted with a new account (juergen.mueller): "
        "Jürgen Müller as arbitration panel member, plays as " + str(entry.player)
    ).exists()


def test_a_weak_password_makes_nothing(tournament, staff):
    made = invite(tournament, staff["organiser"])
    before = counts()
    with pytest.raises(ValidationError) as refused:
        accept(made, password="12345678")
    assert "password" in refused.value.message_dict
    assert counts() == before


def test_an_account_of_the_address_accepts_logged_in(tournament, staff):
    account = factories.user(username="jm", email="juergen@EXAMPLE.org")
    password = account.password
    made = invite(tournament, staff["organiser"])
    grant = accept(made, by=account)
    assert (grant.user, grant.role) == (account, Role.PANEL)
    account.refresh_from_db()
    assert account.password == password


@pytest.mark.parametrize("who", ["anonymous", "other", "organiser"])
def test_only_the_account_of_the_address_accepts_it(tournament, staff, who):
    """Finding N9 of issue 30: the link (which a second organiser may have seen) never opens
    the account of the address or sets its password."""
    account = factories.user(username="jm", email="juergen@example.org")
    password = account.password
    made = invite(tournament, staff["organiser"])
    by = {
        "anonymous": AnonymousUser(),
        "other": factories.user(username="other", email="other@example.org"),
        "organiser": staff["organiser"],
    }[who]
    before = counts()
    with pytest.raises(PermissionDenied, match="log in as that account"):
        accept(made, by=by, password=PASSWORD)
    assert counts() == before
    account.refresh_from_db()
    assert account.password == password


@pytest.mark.parametrize("state", ["accepted", "withdrawn", "run out"])
def test_a_closed_invitation_is_not_accepted_and_says_whom_to_ask(tournament, staff, state):
    made = invite(tournament, staff["organiser"])
    invitation = made.invitation
    if state == "accepted":
        accept(made, password=PASSWORD)
    elif state == "withdrawn":
        services.staff_invitation_withdraw(invitation=invitation, by=staff["organiser"])
    else:
        now = timezone.now()
        StaffInvitation.objects.filter(pk=invitation.pk).update(
            created_at=now - timedelta(days=7, seconds=1), expires_at=now - timedelta(seconds=1)
        )
    with pytest.raises(ValidationError) as refused:
        accept(made, password=PASSWORD + "x")
    (message,) = refused.value.message_dict["invitation"]
    if state != "accepted":
        assert staff["organiser"].get_username() in message or "organises" in message
    assert User.objects.filter(email="juergen@example.org").count() == (state == "accepted")


def test_user_names_are_unique_whatever_their_case(tournament, staff):
    factories.user(username="Juergen.Mueller")
    second = accept(
        invite(tournament, staff["organiser"], email="j2@example.org"), password=PASSWORD
    )
    third = accept(
        invite(tournament, staff["organiser"], email="j3@example.org"), password=PASSWORD
    )
    assert second.user.username == "juergen.mueller2"
    assert third.user.username == "juergen.mueller3"


def test_a_name_taken_in_between_takes_the_next(tournament, staff, monkeypatch):
    """Two acceptances of one name at once: another account takes the name after this one
    read the names taken, its insert fails on the unique user name, and it takes the next."""
    made = invite(tournament, staff["organiser"])
    real = staff_services._usernames
    taken = []

    def racing(base):
        if not taken:  # the first time: just after the names taken were read
            taken.append(factories.user(username=base))
        return real(base)

    monkeypatch.setattr(staff_services, "_usernames", racing)
    assert accept(made, password=PASSWORD).user.username == "juergen.mueller2"


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


# Invite again, withdraw -------------------------------------------------------------------------


def test_invite_again_gives_a_fresh_link_and_the_old_one_stops_working(tournament, staff):
    first = invite(tournament, staff["organiser"])
    again = services.staff_invite_again(
        invitation=first.invitation, address=site, by=staff["organiser"]
    )
    assert key_of(again) != key_of(first)
    with pytest.raises(ValidationError, match="withdrawn, or replaced"):
        accept(first, password=PASSWORD)
    assert accept(again, password=PASSWORD).role == Role.PANEL
    assert Event.objects.filter(summary__startswith="Invited again: Jürgen Müller").exists()


def test_only_an_organiser_invites_again_or_withdraws(tournament, staff):
    made = invite(tournament, staff["organiser"])
    with pytest.raises(PermissionDenied, match="Only an organiser"):
        services.staff_invite_again(
            invitation=made.invitation, address=site, by=staff["adjudicator"]
        )
    with pytest.raises(PermissionDenied, match="Only an organiser"):
        services.staff_invitation_withdraw(invitation=made.invitation, by=staff["adjudicator"])


def test_an_accepted_invitation_is_not_invited_again_or_withdrawn(tournament, staff):
    made = invite(tournament, staff["organiser"])
    accept(made, password=PASSWORD)
    with pytest.raises(ValidationError, match="accepted or withdrawn already"):
        services.staff_invite_again(invitation=made.invitation, address=site, by=staff["organiser"])
    with pytest.raises(ValidationError, match="accepted or withdrawn already"):
        services.staff_invitation_withdraw(invitation=made.invitation, by=staff["organiser"])
