"""The staff page (TSR 8.2.1) without the command line: the organiser finds an account by name
in any spelling, or invites someone new by name and e-mail address, passes the link on, and
gives a fresh one; the person chooses a password there and logs in to the tournament."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client, TestCase
from django.urls import reverse

from adjudication.models import Event
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


def staff_url(tournament, name="staff", *args) -> str:
    return reverse(name, args=[tournament.slug, *args])


def committed(client, path, data=None, **extra):
    """A POST whose work queued on commit runs, as outside a test's transaction (the mail)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(path, data or {}, **extra)


def invite(client, tournament, **fields):
    data = {"name": "Jürgen Müller", "email": "juergen@example.org", "role": "adjudicator"}
    return committed(client, staff_url(tournament, "staff-invite"), {**data, **fields})


def shown_link(page: str) -> str:
    return re.search(r'id="invitation-url" type="text" value="([^"]+)"', page).group(1)


@pytest.mark.parametrize("query", ["muller", "Mueller", "MÜLLER", "jürgen müller", "jmuell"])
def test_an_account_is_found_by_its_name_in_any_spelling(organiser, tournament, query):
    factories.user(username="jmueller", first_name="Jürgen", last_name="Müller")
    factories.user(username="kmeier", first_name="Karl", last_name="Meier")
    page = organiser.get(staff_url(tournament), {"q": query}).content.decode()
    assert "?username=jmueller#appoint" in page
    assert "kmeier" not in page


def test_a_search_that_finds_nobody_points_to_the_invitation(organiser, tournament):
    page = organiser.get(staff_url(tournament), {"q": "Zzyzx"}).content.decode()
    assert "No account matches “Zzyzx”" in page


def test_the_search_shows_ten_accounts_at_most(organiser, tournament):
    for n in range(12):
        factories.user(username=f"schmidt{n:02d}", last_name="Schmidt")
    page = organiser.get(staff_url(tournament), {"q": "schmidt"}).content.decode()
    assert page.count("?username=schmidt") == 10


def test_a_found_account_is_chosen_and_appointed(organiser, tournament):
    found = factories.user(username="jmueller", first_name="Jürgen", last_name="Müller")
    page = organiser.get(staff_url(tournament), {"username": "jmueller"}).content.decode()
    assert re.search(r'name="username"[^>]*value="jmueller"', page)
    response = organiser.post(staff_url(tournament), {"username": "jmueller", "role": "panel"})
    assert response.status_code == 302
    assert TournamentRole.objects.filter(user=found, role=Role.PANEL).exists()


def test_someone_new_is_invited_and_the_link_shown_to_pass_on(
    organiser, tournament, mailoutbox, settings
):
    settings.SITE_URL = "http://testserver/"
    response = invite(organiser, tournament, start_number=3)
    assert response.status_code == 302
    user = User.objects.get(email="juergen@example.org")
    grant = TournamentRole.objects.get(user=user)
    assert (grant.role, grant.entry.start_number) == (Role.ADJUDICATOR, 3)
    page = organiser.get(response["Location"]).content.decode()
    link = shown_link(page)
    assert link.startswith("http://testserver/accounts/invitation/")
    assert "user name <strong>juergen.mueller</strong>" in page
    assert "valid for 7 days and works once" in page
    assert "It has been sent to juergen@example.org as well." in page
    assert 'data-copy="invitation-url"' in page
    assert "no password yet" in page
    (mail,) = mailoutbox
    assert link in mail.body
    assert Event.objects.filter(
        tournament=tournament, summary__startswith="Invited with a new account"
    ).exists()
    # Shown once: the next visit does not show it again.
    assert 'id="invitation-url"' not in organiser.get(staff_url(tournament)).content.decode()


def test_the_link_carries_the_site_url(organiser, tournament, settings):
    settings.SITE_URL = "http://192.168.1.20:8000/"
    response = invite(organiser, tournament)
    link = shown_link(organiser.get(response["Location"]).content.decode())
    assert link.startswith("http://192.168.1.20:8000/accounts/invitation/")


def test_without_a_mail_server_the_page_says_to_pass_the_link_on(organiser, tournament, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    response = invite(organiser, tournament)
    page = organiser.get(response["Location"]).content.decode()
    assert "This site sends no e-mail: pass the link on yourself." in page
    assert 'href="mailto:juergen@example.org?body=http%3A%2F%2Ftestserver' in page


def test_a_bad_invitation_shows_its_errors_and_saves_nothing(organiser, tournament, mailoutbox):
    users = User.objects.count()
    response = invite(organiser, tournament, email="kein-at", start_number=99)
    assert response.status_code == 422
    page = response.content.decode()
    assert "Enter a valid email address." in page
    assert User.objects.count() == users
    factories.user(username="da", email="juergen@example.org")
    response = invite(organiser, tournament)
    assert response.status_code == 422
    assert "An account with this e-mail address exists already" in response.content.decode()
    response = invite(organiser, tournament, start_number=99)
    assert "No player has this start number." in response.content.decode()
    assert User.objects.count() == users + 1
    assert mailoutbox == []


def test_the_invited_person_chooses_a_password_and_sees_the_tournament(
    organiser, tournament, round_
):
    response = invite(organiser, tournament)
    link = shown_link(organiser.get(response["Location"]).content.decode())
    person = Client()
    person.cookies["django_language"] = "en"
    form = person.get(link, follow=True)
    assert "Hello Jürgen Müller" in form.content.decode()
    chosen = person.post(
        form.redirect_chain[-1][0], {"new_password1": PASSWORD, "new_password2": PASSWORD}
    )
    assert chosen["Location"] == reverse("login") + "?username=juergen.mueller"
    logged_in = person.post(
        reverse("login"),
        {
            "username": "juergen.mueller",
            "password": PASSWORD,
            "next": staff_url(tournament, "adjudication"),
        },
    )
    assert logged_in.status_code == 302
    dashboard = person.get(logged_in["Location"])
    assert dashboard.status_code == 200
    assert tournament.name in dashboard.content.decode()
    # The link has done its work.
    assert (
        "no longer works"
        in Client(HTTP_ACCEPT_LANGUAGE="en").get(link, follow=True).content.decode()
    )
    # And the staff page no longer offers to invite again.
    page = organiser.get(staff_url(tournament)).content.decode()
    assert "Invite again" not in page
    assert "no password yet" not in page


def test_invite_again_gives_a_fresh_link_and_the_first_stops_working(
    organiser, tournament, mailoutbox, settings
):
    settings.SITE_URL = "http://testserver/"
    response = invite(organiser, tournament)
    first = shown_link(organiser.get(response["Location"]).content.decode())
    grant = TournamentRole.objects.get(user__email="juergen@example.org")
    page = organiser.get(staff_url(tournament)).content.decode()
    assert staff_url(tournament, "staff-invite-again", grant.pk) in page
    again = committed(organiser, staff_url(tournament, "staff-invite-again", grant.pk))
    assert again.status_code == 302
    second = shown_link(organiser.get(again["Location"]).content.decode())
    assert second != first
    assert (
        "no longer works"
        in Client(HTTP_ACCEPT_LANGUAGE="en").get(first, follow=True).content.decode()
    )
    assert 'name="new_password1"' in Client().get(second, follow=True).content.decode()
    assert [second in mail.body for mail in mailoutbox] == [False, True]


def test_invite_again_is_not_offered_for_an_account_with_a_password(organiser, tournament, staff):
    grant = TournamentRole.objects.get(user=staff["adjudicator"], tournament=tournament)
    page = organiser.get(staff_url(tournament)).content.decode()
    assert "Invite again" not in page
    response = organiser.post(staff_url(tournament, "staff-invite-again", grant.pk), follow=True)
    assert "has set a password already" in response.content.decode()


def test_the_staff_page_reads_in_few_queries(organiser, tournament, django_assert_num_queries):
    invite(organiser, tournament)
    invite(organiser, tournament, name="Karl Meier", email="karl@example.org")
    organiser.get(staff_url(tournament))  # shows and forgets the last link
    # session, user, tournament, the organiser's roles (for the page and for the policy), the
    # staff, and what else the accounts without a password hold.
    with django_assert_num_queries(7):
        organiser.get(staff_url(tournament))


def test_no_role_is_chosen_in_advance(organiser, tournament):
    page = organiser.get(staff_url(tournament)).content.decode()
    assert '<option value="" selected>–</option>' in page
    response = invite(organiser, tournament, role="")
    assert response.status_code == 422
    assert not User.objects.filter(email="juergen@example.org").exists()
