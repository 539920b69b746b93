"""Passwords without an administrator (config/accounts.py): "Forgot your password?" through
Django's views, limited, telling nobody which addresses have accounts; and the page of an
invitation link, where new staff choose their password and then log in."""

import re
from datetime import datetime, timedelta

import pytest
from django.core.mail.backends import locmem
from django.urls import reverse

from adjudication.invitations import invitation_path, invitation_tokens
from tests import factories
from tests.served import served

pytestmark = pytest.mark.django_db

PASSWORD = "ein-langes-Passwort-42"


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def olga():
    return factories.user(username="olga", email="olga@example.org", first_name="Olga")


def reset(client, email, address="10.0.0.1"):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)


def link_in(mail) -> str:
    return re.search(r"https?://\S+", mail.body).group(0)


def choose(client, link: str, password: str = PASSWORD):
    """Open a link to choose a password, and choose it."""
    form = client.get(link, follow=True)
    assert form.status_code == 200
    assert b'name="new_password1"' in form.content
    return client.post(
        form.redirect_chain[-1][0], {"new_password1": password, "new_password2": password}
    )


def logs_in(username: str, password: str = PASSWORD) -> bool:
    from django.test import Client

    response = Client().post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


def test_the_login_page_offers_a_new_password(client):
    page = client.get(reverse("login")).content.decode()
    assert "Forgot your password?" in page
    assert reverse("password_reset") in page


def test_a_forgotten_password_is_chosen_anew_through_the_mailed_link(client, olga, mailoutbox):
    response = reset(client, "OLGA@example.org")
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    (mail,) = mailoutbox
    assert mail.to == ["olga@example.org"]
    assert "olga" in mail.body
    chosen = choose(client, link_in(mail))
    assert chosen["Location"] == reverse("password_reset_complete")
    assert "Your new password is set" in client.get(chosen["Location"]).content.decode()
    assert logs_in("olga")
    assert not logs_in("olga", "a-long-test-password")


def test_the_mailed_link_carries_the_site_url(client, olga, mailoutbox, settings):
    settings.SITE_URL = "http://192.168.1.20:8000/"
    reset(client, "olga@example.org")
    assert link_in(mailoutbox[0]).startswith("http://192.168.1.20:8000/accounts/reset/")


def test_a_reset_link_works_once(client, olga, mailoutbox):
    reset(client, "olga@example.org")
    link = link_in(mailoutbox[0])
    choose(client, link)
    again = client.get(link, follow=True).content.decode()
    assert "This link no longer works" in again


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client, olga, mailoutbox):
    known = reset(client, "olga@example.org")
    unknown = reset(client, "nobody@example.org")
    assert (unknown.status_code, unknown["Location"]) == (known.status_code, known["Location"])
    assert len(mailoutbox) == 1


def test_the_sent_page_does_not_say_whether_the_address_has_an_account(client):
    page = client.get(reverse("password_reset_done")).content.decode()
    assert "If an account has this e-mail address" in page


@pytest.mark.usefixtures("steady_clock")
def test_requests_are_limited_per_e_mail_address(client, olga, mailoutbox, settings):
    settings.PASSWORD_RESET_RATE_EMAIL = "2/h"
    for n in range(2):
        assert reset(client, "olga@example.org", address=f"10.0.0.{n}").status_code == 302
    limited = reset(client, "Olga@Example.org", address="10.0.0.9")
    assert limited.status_code == 429
    assert 0 < int(limited.headers["Retry-After"]) <= 3600
    assert "Too many requests for a new password" in limited.content.decode()
    assert len(mailoutbox) == 2


@pytest.mark.usefixtures("steady_clock")
def test_an_unknown_address_is_limited_alike(client, settings):
    """The limit answers the same whether the address has an account: it tells nothing."""
    settings.PASSWORD_RESET_RATE_EMAIL = "1/h"
    assert reset(client, "nobody@example.org").status_code == 302
    assert reset(client, "nobody@example.org").status_code == 429


@pytest.mark.usefixtures("steady_clock")
def test_requests_are_limited_per_client_address(client, olga, mailoutbox, settings):
    settings.PASSWORD_RESET_RATE_ADDRESS = "3/h"
    for n in range(3):
        assert reset(client, f"person{n}@example.org").status_code == 302
    assert reset(client, "olga@example.org").status_code == 429
    assert reset(client, "olga@example.org", address="10.0.0.2").status_code == 302
    assert len(mailoutbox) == 1


def test_the_defaults_are_5_per_e_mail_and_20_per_address_an_hour():
    from config import settings
    from limits.windows import parse_rate

    assert parse_rate(settings.PASSWORD_RESET_RATE_EMAIL) == (5, 3600)
    assert parse_rate(settings.PASSWORD_RESET_RATE_ADDRESS) == (20, 3600)


# The page of invitation links made before invitations were stored, honoured until they run out
# (the stored invitations: tests/adjudication/test_staff_pages.py). -------------------------


@pytest.fixture
def invitee():
    user = factories.user(username="juergen.mueller", first_name="Jürgen", last_name="Müller")
    user.set_unusable_password()
    user.save()
    return user


def test_an_invitation_link_lets_the_person_choose_a_password_and_log_in(client, invitee):
    link = invitation_path(invitee)
    page = client.get(link, follow=True).content.decode()
    assert "Hello Jürgen Müller" in page
    assert "<strong>juergen.mueller</strong>" in page
    chosen = choose(client, link)
    assert chosen["Location"] == reverse("login") + "?username=juergen.mueller"
    login_page = client.get(chosen["Location"]).content.decode()
    assert "Your password is set. Log in with your user name, juergen.mueller." in login_page
    assert 'value="juergen.mueller"' in login_page
    assert logs_in("juergen.mueller")


def test_an_invitation_link_works_once(client, invitee):
    link = invitation_path(invitee)
    choose(client, link)
    page = client.get(link, follow=True).content.decode()
    assert "This invitation link no longer works" in page
    assert 'name="new_password1"' not in page


def test_an_invitation_link_has_expired_after_seven_days(client, invitee, monkeypatch):
    made = datetime(2025, 3, 1, 9, 0)
    monkeypatch.setattr(invitation_tokens, "_now", lambda: made)
    link = invitation_path(invitee)
    monkeypatch.setattr(invitation_tokens, "_now", lambda: made + timedelta(days=7, seconds=1))
    assert "This invitation link no longer works" in client.get(link, follow=True).content.decode()


def test_a_password_reset_link_is_no_invitation(client, invitee):
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    path = reverse(
        "invitation-token",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(invitee.pk)),
            "token": default_token_generator.make_token(invitee),
        },
    )
    assert "This invitation link no longer works" in client.get(path, follow=True).content.decode()


def test_a_weak_password_is_refused_on_the_invitation_page(client, invitee):
    response = choose(client, invitation_path(invitee), password="12345678")
    assert response.status_code == 200
    assert "This password is too common" in response.content.decode()
    invitee.refresh_from_db()
    assert not invitee.has_usable_password()


# Finding N7 of issue 30: the reset page tells nobody, by its time, which addresses have
# accounts. ---------------------------------------------------------------------------------


class SlowBackend(locmem.EmailBackend):
    """A mail server that takes its time (0.4 s for a known address in the finding). It counts
    its calls, so that a test sees whether the answer waited for it without timing the machine
    (a slow or busy one would take longer than any pause to answer)."""

    calls = 0

    def send_messages(self, messages):
        SlowBackend.calls += 1
        return super().send_messages(messages)


def comparable(response) -> tuple:
    """What a client reads of an answer, but for the CSRF cookie and token, which differ on
    every answer."""
    headers = {k: v for k, v in response.headers.items() if k.lower() not in {"set-cookie"}}
    return response.status_code, headers, response.content


def test_known_and_unknown_addresses_get_the_same_answer_after_the_same_work(olga, mailoutbox):
    known, known_queries = served("post", reverse("password_reset"), {"email": "olga@example.org"})
    unknown, unknown_queries = served(
        "post", reverse("password_reset"), {"email": "nobody@example.org"}
    )
    assert comparable(known) == comparable(unknown)
    # The answer asks the database nothing about accounts (nothing at all, in fact).
    assert [q["sql"] for q in known_queries] == [q["sql"] for q in unknown_queries] == []
    assert mailoutbox == []
    known.close()
    unknown.close()
    (mail,) = mailoutbox
    assert mail.to == ["olga@example.org"]


def test_a_slow_mail_server_does_not_hold_the_answer(olga, mailoutbox, settings, monkeypatch):
    """The mail is sent once the answer has gone (the server closing the response), never
    while the client waits for it."""
    settings.EMAIL_BACKEND = "tests.test_accounts.SlowBackend"
    monkeypatch.setattr(SlowBackend, "calls", 0)
    response, _queries = served("post", reverse("password_reset"), {"email": "olga@example.org"})
    assert response.status_code == 302
    assert (SlowBackend.calls, mailoutbox) == (0, [])  # answered without asking the mail server
    response.close()
    assert SlowBackend.calls == 1
    (mail,) = mailoutbox
    assert "/accounts/reset/" in link_in(mail)


def test_a_mail_server_that_fails_does_not_show_in_the_answer(olga, client, monkeypatch, caplog):
    def refuse(*args, **kwargs):
        raise OSError("no mail server")

    monkeypatch.setattr("tournaments.mails.send_mail", refuse)
    response = reset(client, "olga@example.org")
    assert response.status_code == 302
    assert "was not sent" in caplog.text


def test_with_a_broker_the_mail_is_queued_to_a_worker_after_the_answer(
    olga, mailoutbox, settings, monkeypatch
):
    from tournaments.tasks import password_reset_mail_task

    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued = []
    monkeypatch.setattr(password_reset_mail_task, "delay", lambda *args: queued.append(args))
    response, _queries = served(
        "post", reverse("password_reset"), {"email": "olga@example.org"}, HTTP_ACCEPT_LANGUAGE="de"
    )
    assert queued == []
    response.close()
    assert queued == [("olga@example.org", "de")]
    assert mailoutbox == []  # the worker sends it


def test_with_the_broker_away_the_mail_is_sent_here_after_the_answer(
    olga, mailoutbox, settings, monkeypatch
):
    from kombu.exceptions import OperationalError

    from tournaments.tasks import password_reset_mail_task

    def away(*args):
        raise OperationalError("no broker")

    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(password_reset_mail_task, "delay", away)
    response, _queries = served("post", reverse("password_reset"), {"email": "olga@example.org"})
    assert response.status_code == 302
    assert mailoutbox == []
    response.close()
    assert len(mailoutbox) == 1
