"""The staff page (TSR 8.2.1) without the command line: the organiser offers a role to an account
by user name (found by name in any spelling among the staff of his tournaments), which it
accepts or declines under "Your roles"; or invites someone by name and e-mail address (the link
is mailed, or shown to pass on where the site sends no mail), invites again or withdraws; the
person accepts through the link: with the account of the address, or by choosing a password for
a new one."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client, TestCase
from django.urls import reverse
from django.utils import timezone

from adjudication.models import Event, RoleOffer, StaffInvitation
from tests import factories
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role
PASSWORD = "ein-langes-Passwort-42"


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def organiser(client, staff):
    client.force_login(staff["organiser"])
    return client


def staff_url(tournament, name="adjudication:staff", *args) -> str:
    return reverse(name, args=[tournament.slug, *args])


def committed(client, path, data=None, **extra):
    """A POST whose work queued on commit runs, as outside a test's transaction (the mail)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(path, data or {}, **extra)


def invite(client, tournament, **fields):
    data = {"name": "Jürgen Müller", "email": "juergen@example.org", "role": "adjudicator"}
    return committed(client, staff_url(tournament, "adjudication:staff-invite"), {**data, **fields})


def shown_link(page: str) -> str:
    return re.search(r'id="invitation-url" type="text" value="([^"]+)"', page).group(1)


def link_in(mail) -> str:
    return re.search(r"https?://\S+/accounts/invitation/\S+", mail.body).group(0)


def colleague(tournament, **fields):
    """An account on the staff of another tournament the organiser organises: one he has
    worked with, whom its staff page shows him anyway."""
    earlier = factories.tournament(organiser=tournament.roles.get(role=Role.ORGANISER).user)
    account = factories.user(**fields)
    factories.role_grant(tournament=earlier, user=account, role=Role.SCOREKEEPER)
    return account


@pytest.mark.parametrize("query", ["muller", "Mueller", "MÜLLER", "jürgen müller", "jmuell"])
def test_an_account_is_found_by_its_name_in_any_spelling(organiser, tournament, query):
    colleague(tournament, username="jmueller", first_name="Jürgen", last_name="Müller")
    colleague(tournament, username="kmeier", first_name="Karl", last_name="Meier")
    page = organiser.get(staff_url(tournament), {"q": query}).content.decode()
    assert "?username=jmueller#appoint" in page
    assert "kmeier" not in page


def test_the_search_finds_nobody_the_organiser_has_not_worked_with(organiser, tournament):
    """Whether a name has an account is told to nobody: the search looks only through the
    staff of the organiser's own tournaments."""
    factories.user(username="jmueller", first_name="Jürgen", last_name="Müller")
    stranger = factories.tournament()
    factories.role_grant(
        tournament=stranger, user=factories.user(username="kmueller"), role=Role.PANEL
    )
    page = organiser.get(staff_url(tournament), {"q": "mueller"}).content.decode()
    assert "jmueller" not in page
    assert "kmueller" not in page
    assert "Nobody on the staff of your tournaments matches “mueller”" in page


def test_the_search_shows_ten_accounts_at_most(organiser, tournament):
    for n in range(12):
        colleague(tournament, username=f"schmidt{n:02d}", last_name="Schmidt")
    page = organiser.get(staff_url(tournament), {"q": "schmidt"}).content.decode()
    assert page.count("?username=schmidt") == 10


def test_a_found_account_is_chosen_and_offered_the_role(organiser, tournament):
    found = colleague(tournament, username="jmueller", first_name="Jürgen", last_name="Müller")
    page = organiser.get(staff_url(tournament), {"username": "jmueller"}).content.decode()
    assert re.search(r'name="username"[^>]*value="jmueller"', page)
    response = organiser.post(staff_url(tournament), {"username": "jmueller", "role": "panel"})
    assert response.status_code == 302
    assert not TournamentRole.objects.filter(user=found, role=Role.PANEL).exists()
    offer = RoleOffer.objects.get()
    assert (offer.user, offer.role, offer.username) == (found, Role.PANEL, "jmueller")
    page = organiser.get(staff_url(tournament)).content.decode()
    assert "Role offered to jmueller as arbitration panel member." in page
    assert "Roles offered, not yet accepted" in page


def answer(client, offer, how: str):
    return client.post(reverse("role-offer-answer", args=[offer.pk]), {"answer": how})


def test_the_named_account_accepts_and_holds_the_role(organiser, tournament):
    named = factories.user(username="jmueller")
    organiser.post(staff_url(tournament), {"username": "jmueller", "role": "adjudicator"})
    offer = RoleOffer.objects.get()
    person = Client()
    person.cookies["django_language"] = "en"
    person.force_login(named)
    page = person.get(reverse("roles")).content.decode()
    assert f"offers you the role of adjudicator in <strong>{tournament.name}</strong>" in page
    response = answer(person, offer, "accept")
    assert response.status_code == 302
    assert TournamentRole.objects.filter(user=named, role=Role.ADJUDICATOR).exists()
    page = person.get(reverse("roles")).content.decode()
    assert f"Accepted: you are adjudicator in {tournament.name}." in page
    assert "No role is offered to you." in page
    assert Event.objects.filter(summary__contains="Accepted (jmueller)").exists()
    assert answer(person, offer, "accept").status_code == 302  # once only
    assert TournamentRole.objects.filter(user=named, role=Role.ADJUDICATOR).count() == 1


def test_a_declined_offer_grants_nothing_and_the_log_says_so(organiser, tournament):
    named = factories.user(username="jmueller")
    organiser.post(staff_url(tournament), {"username": "jmueller", "role": "panel"})
    person = Client()
    person.cookies["django_language"] = "en"
    person.force_login(named)
    assert answer(person, RoleOffer.objects.get(), "decline").status_code == 302
    assert not TournamentRole.objects.filter(user=named).exists()
    assert Event.objects.filter(summary__contains="Declined (jmueller)").exists()


def test_nobody_else_answers_an_offer(organiser, tournament):
    factories.user(username="jmueller")
    organiser.post(staff_url(tournament), {"username": "jmueller", "role": "panel"})
    other = Client()
    other.force_login(factories.user(username="andere"))
    assert answer(other, RoleOffer.objects.get(), "accept").status_code == 404
    assert not TournamentRole.objects.filter(role=Role.PANEL, user__username="andere").exists()


def test_a_bad_answer_is_a_400_naming_the_field(organiser, tournament):
    named = factories.user(username="jmueller")
    organiser.post(staff_url(tournament), {"username": "jmueller", "role": "panel"})
    person = Client()
    person.cookies["django_language"] = "en"
    person.force_login(named)
    response = answer(person, RoleOffer.objects.get(), "yes\x00")
    assert response.status_code == 400
    assert "The field “answer” must be “accept” or “decline”." in response.content.decode()


def test_the_organisers_own_user_name_takes_the_role_at_once(organiser, tournament, staff):
    response = organiser.post(staff_url(tournament), {"username": "organiser", "role": "panel"})
    assert response.status_code == 302
    assert TournamentRole.objects.filter(user=staff["organiser"], role=Role.PANEL).exists()
    assert not RoleOffer.objects.exists()


def test_an_offer_is_withdrawn_and_can_no_longer_be_accepted(organiser, tournament):
    named = factories.user(username="jmueller")
    organiser.post(staff_url(tournament), {"username": "jmueller", "role": "panel"})
    offer = RoleOffer.objects.get()
    withdrawn = organiser.post(staff_url(tournament, "adjudication:staff-offer-withdraw", offer.pk))
    assert withdrawn.status_code == 302
    person = Client()
    person.cookies["django_language"] = "en"
    person.force_login(named)
    page = person.get(reverse("roles")).content.decode()
    assert "No role is offered to you." in page
    page = person.post(
        reverse("role-offer-answer", args=[offer.pk]), {"answer": "accept"}, follow=True
    ).content.decode()
    assert "This offer has been withdrawn" in page
    assert not TournamentRole.objects.filter(user=named).exists()


def test_the_login_says_that_roles_wait(organiser, tournament):
    factories.user(username="jmueller")
    organiser.post(staff_url(tournament), {"username": "jmueller", "role": "panel"})
    person = Client()
    person.cookies["django_language"] = "en"
    response = person.post(
        reverse("login"),
        {"username": "jmueller", "password": "a-long-test-password"},
        follow=True,
    )
    assert "1 role is offered to you: accept or decline it under “Your roles”" in (
        response.content.decode()
    )


@pytest.fixture
def no_mail(settings):
    """The embedded default: mails are written to the server's output, and the organiser is
    given the link to pass on."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"


def test_an_invitation_is_sent_and_listed_as_pending(organiser, tournament, mailoutbox, settings):
    settings.SITE_URL = "http://testserver/"
    users, roles = User.objects.count(), TournamentRole.objects.count()
    response = invite(organiser, tournament, start_number=3)
    assert response.status_code == 302
    page = organiser.get(response["Location"]).content.decode()
    assert "Invitation sent to juergen@example.org." in page
    assert 'id="invitation-url"' not in page  # the link goes to the address only
    invitation = StaffInvitation.objects.get()
    assert "Invitations not yet accepted" in page
    assert staff_url(tournament, "adjudication:staff-invite-again", invitation.pk) in page
    assert staff_url(tournament, "adjudication:staff-invitation-withdraw", invitation.pk) in page
    assert "plays as" in page
    (mail,) = mailoutbox
    assert mail.to == ["juergen@example.org"]
    assert link_in(mail).startswith("http://testserver/accounts/invitation/")
    assert (User.objects.count(), TournamentRole.objects.count()) == (users, roles)
    assert Event.objects.filter(tournament=tournament, summary__startswith="Invited: ").exists()


def test_without_a_mail_server_the_link_is_shown_to_pass_on(organiser, tournament, no_mail):
    response = invite(organiser, tournament)
    page = organiser.get(response["Location"]).content.decode()
    link = shown_link(page)
    assert link.startswith("http://testserver/accounts/invitation/")
    assert "This site sends no e-mail: pass this link on to them." in page
    assert "valid for 7 days and works once" in page
    assert 'data-copy="invitation-url"' in page
    assert 'href="mailto:juergen@example.org?body=http%3A%2F%2Ftestserver' in page
    # Shown once on top: the next visit shows it in the invitation's line instead.
    again = organiser.get(staff_url(tournament)).content.decode()
    assert 'id="invitation-url"' not in again
    assert f'value="{link}"' in again


def test_the_link_carries_the_site_url(organiser, tournament, settings, no_mail):
    settings.SITE_URL = "http://192.168.1.20:8000/"
    response = invite(organiser, tournament)
    link = shown_link(organiser.get(response["Location"]).content.decode())
    assert link.startswith("http://192.168.1.20:8000/accounts/invitation/")


def test_a_bad_invitation_shows_its_errors_and_saves_nothing(organiser, tournament, mailoutbox):
    response = invite(organiser, tournament, email="kein-at", start_number=99)
    assert response.status_code == 422
    assert "Enter a valid email address." in response.content.decode()
    response = invite(organiser, tournament, start_number=99)
    assert "No player has this start number." in response.content.decode()
    assert not StaffInvitation.objects.exists()
    assert mailoutbox == []


def person_client() -> Client:
    person = Client()
    person.cookies["django_language"] = "en"
    return person


def test_a_new_address_chooses_a_password_and_sees_the_tournament(
    organiser, tournament, round_, no_mail
):
    response = invite(organiser, tournament)
    link = shown_link(organiser.get(response["Location"]).content.decode())
    person = person_client()
    form = person.get(link).content.decode()
    assert "Hello Jürgen Müller" in form
    assert "Your user name will be <strong>juergen.mueller</strong>" in form
    chosen = person.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    # Signed in with the password just chosen (issue 47), not sent to type it again.
    assert chosen["Location"] == reverse("tournaments:tournament", args=[tournament.slug])
    welcome = person.get(chosen["Location"]).content.decode()
    assert "Your account is made and you are logged in" in welcome
    assert "juergen.mueller" in welcome
    dashboard = person.get(staff_url(tournament, "adjudication:adjudication"))
    assert dashboard.status_code == 200
    assert tournament.name in dashboard.content.decode()
    # The link has done its work, and the staff page lists the role, not the invitation.
    used = person_client().get(link)
    assert "This invitation has been accepted already" in used.content.decode()
    page = organiser.get(staff_url(tournament)).content.decode()
    assert "Invitations not yet accepted" not in page
    assert "juergen.mueller" in page


def test_an_address_with_an_account_logs_in_and_accepts(organiser, tournament, no_mail):
    account = factories.user(username="jm", email="juergen@example.org")
    response = invite(organiser, tournament)
    link = shown_link(organiser.get(response["Location"]).content.decode())
    person = person_client()
    page = person.get(link).content.decode()
    assert "log in as that account to accept" in page
    login = reverse("login") + "?next=" + link.split("testserver")[1].replace("/", "%2F")
    assert login in page
    assert 'name="new_password1"' not in page
    person.force_login(account)
    assert "Accept the invitation" in person.get(link).content.decode()
    accepted = person.post(link)
    assert accepted["Location"] == reverse("tournaments:tournament", args=[tournament.slug])
    assert TournamentRole.objects.filter(
        tournament=tournament, user=account, role=Role.ADJUDICATOR
    ).exists()


@pytest.mark.parametrize("state", ["withdrawn", "run out", "replaced"])
def test_a_link_that_no_longer_works_says_so_and_whom_to_ask(
    organiser, tournament, no_mail, state, staff
):
    staff["organiser"].first_name, staff["organiser"].last_name = "Olga", "Organisatorin"
    staff["organiser"].save()
    response = invite(organiser, tournament)
    link = shown_link(organiser.get(response["Location"]).content.decode())
    invitation = StaffInvitation.objects.get()
    if state == "withdrawn":
        organiser.post(
            staff_url(tournament, "adjudication:staff-invitation-withdraw", invitation.pk)
        )
    elif state == "replaced":
        committed(
            organiser, staff_url(tournament, "adjudication:staff-invite-again", invitation.pk)
        )
    else:
        now = timezone.now()
        StaffInvitation.objects.filter(pk=invitation.pk).update(
            created_at=now - timedelta(days=8), expires_at=now - timedelta(days=1)
        )
    answer = person_client().get(link)
    assert answer.status_code == 410
    page = answer.content.decode()
    assert f"ask olga organisatorin, who organises {tournament.name}".lower() in page.lower()
    assert 'name="new_password1"' not in page


def test_a_made_up_link_says_so(client):
    answer = client.get(reverse("invitation", kwargs={"key": "made-up"}))
    assert answer.status_code == 404
    assert "This invitation link does not work" in answer.content.decode()


def test_invite_again_gives_a_fresh_link_and_the_first_stops_working(
    organiser, tournament, mailoutbox, settings
):
    settings.SITE_URL = "http://testserver/"
    invite(organiser, tournament)
    invitation = StaffInvitation.objects.get()
    again = committed(
        organiser, staff_url(tournament, "adjudication:staff-invite-again", invitation.pk)
    )
    assert again.status_code == 302
    first, second = (link_in(mail) for mail in mailoutbox)
    assert first != second
    assert "withdrawn, or replaced" in person_client().get(first).content.decode()
    assert 'name="new_password1"' in person_client().get(second).content.decode()


def test_the_staff_page_reads_in_few_queries(organiser, tournament, django_assert_num_queries):
    invite(organiser, tournament)
    invite(organiser, tournament, name="Karl Meier", email="karl@example.org")
    organiser.get(staff_url(tournament))  # shows and forgets the last message
    # session, user, tournament, the organiser's roles, the staff, the offers, the invitations.
    with django_assert_num_queries(7):
        organiser.get(staff_url(tournament))


def test_no_role_is_chosen_in_advance(organiser, tournament):
    page = organiser.get(staff_url(tournament)).content.decode()
    assert '<option value="" selected>–</option>' in page
    response = invite(organiser, tournament, role="")
    assert response.status_code == 422
    assert not StaffInvitation.objects.exists()


def list_links(page: str) -> dict[str, str]:
    """The links of the invitations listed, by the input's id."""
    return dict(re.findall(r'id="(invitation-url-\d+)" type="text" value="([^"]+)"', page))


def test_every_open_invitation_keeps_its_link(organiser, tournament, no_mail):
    first = shown_link(organiser.get(invite(organiser, tournament)["Location"]).content.decode())
    response = invite(organiser, tournament, name="Karl Meier", email="karl@example.org")
    page = organiser.get(response["Location"]).content.decode()
    second = shown_link(page)
    # The one just made is on top; the other keeps its link (and copy button) in the list.
    juergen = StaffInvitation.objects.get(email="juergen@example.org")
    assert list_links(page) == {f"invitation-url-{juergen.pk}": first}
    assert f'data-copy="invitation-url-{juergen.pk}"' in page
    page = organiser.get(staff_url(tournament)).content.decode()
    assert sorted(list_links(page).values()) == sorted([first, second])
    for link in (first, second):
        assert 'name="new_password1"' in person_client().get(link).content.decode()


def test_the_kept_links_cost_no_query_per_invitation(
    organiser, tournament, no_mail, django_assert_num_queries
):
    invite(organiser, tournament)
    invite(organiser, tournament, name="Karl Meier", email="karl@example.org")
    organiser.get(staff_url(tournament))
    with django_assert_num_queries(7):
        assert len(list_links(organiser.get(staff_url(tournament)).content.decode())) == 2


def test_the_database_alone_holds_no_working_link(organiser, tournament, no_mail, settings):
    link = shown_link(organiser.get(invite(organiser, tournament)["Location"]).content.decode())
    key = link.rstrip("/").rsplit("/", 1)[1]
    invitation = StaffInvitation.objects.get()
    assert key not in invitation.key_seed
    assert key not in invitation.key_hash
    # A new secret key (the old one kept as a fallback, so the login stays) makes another key
    # from the seed: the page shows no link that would not work, but how to get a new one.
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "another-secret-key-" + "x" * 40
    page = organiser.get(staff_url(tournament)).content.decode()
    assert list_links(page) == {}
    assert "“Invite again” makes a new one" in page


def test_an_invitation_from_before_the_kept_links_says_how_to_get_one(
    organiser, tournament, no_mail
):
    organiser.get(invite(organiser, tournament)["Location"])  # the link on top, once
    StaffInvitation.objects.update(key_seed="")
    page = organiser.get(staff_url(tournament)).content.decode()
    assert list_links(page) == {}
    assert "cannot be shown again: “Invite again” makes a new one" in page


def test_a_link_run_out_is_not_shown(organiser, tournament, no_mail):
    organiser.get(invite(organiser, tournament)["Location"])  # the link on top, once
    StaffInvitation.objects.update(expires_at=timezone.now())
    page = organiser.get(staff_url(tournament)).content.decode()
    assert list_links(page) == {}
    assert "run out" in page


def test_where_mail_leaves_the_server_no_link_is_listed(organiser, tournament, settings):
    settings.SITE_URL = "http://testserver/"
    invite(organiser, tournament)
    invite(organiser, tournament, name="Karl Meier", email="karl@example.org")
    page = organiser.get(staff_url(tournament)).content.decode()
    assert list_links(page) == {}
    assert "/accounts/invitation/" not in page


def test_only_an_organiser_reads_an_invitations_link(organiser, tournament, no_mail):
    from adjudication import policies

    invite(organiser, tournament)
    invitation = StaffInvitation.objects.get()
    assert policies.may_read_invitation_link(invitation=invitation, roles={Role.ORGANISER}) is None
    for role in (Role.ADJUDICATOR, Role.DEPUTY, Role.PANEL, Role.SCOREKEEPER):
        assert policies.may_read_invitation_link(invitation=invitation, roles={role}) is not None


def test_the_kept_links_in_german(organiser, tournament, no_mail):
    organiser.get(invite(organiser, tournament)["Location"])
    organiser.cookies["django_language"] = "de"
    page = organiser.get(staff_url(tournament)).content.decode()
    assert "Einladungslink für Jürgen Müller" in page
    assert len(list_links(page)) == 1
    StaffInvitation.objects.update(key_seed="")
    page = organiser.get(staff_url(tournament)).content.decode()
    assert "kann nicht erneut angezeigt werden: „Erneut einladen“ erstellt einen neuen" in page
