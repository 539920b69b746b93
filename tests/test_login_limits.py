"""Failed logins are limited without locking the owner out (limits/logins.py, config/login.py),
on the login page, the administration's login and the API's token endpoint alike:

- a right password is refused only from an address where that user name has failed many times
  (or from an address past the flood cap);
- failures for one user name from many addresses, or from one address across many user names,
  slow the guesser: one attempt a minute for that name from that address, failures answered 429;
- successful logins and public reads are not limited.
"""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from limits.windows import parse_rate
from tests import factories

# Every window holds still during a test (tests/conftest.py).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("steady_clock")]

PASSWORD = "a-long-test-password"
A, B, VENUE = "10.0.0.1", "10.0.0.2", "192.0.2.7"
ROUTES = ["page", "admin", "token"]


@pytest.fixture(autouse=True)
def the_default_limits(settings):
    """The limits as shipped (README: Configuration), whatever the environment says."""
    settings.LOGIN_RATE_USERNAME_ADDRESS = "10/15min"
    settings.LOGIN_RATE_USERNAME = "10/15min"
    settings.LOGIN_RATE_ADDRESS = "50/15min"
    settings.LOGIN_RATE_SLOWED = "1/min"
    settings.LOGIN_RATE_ADDRESS_FLOOD = "500/15min"


@pytest.fixture
def organiser():
    """The README's example name; a member of staff, so that the administration lets him in."""
    return factories.user(username="organiser", is_staff=True)


def login(client, username, password, address=A):
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE="en",
    )


def admin_login(client, username, password, address=A):
    return client.post(
        reverse("admin:login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE="en",
    )


def token(api, username, password, address=A):
    return api.post(
        reverse("api-token"),
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE="en",
    )


def attempt(route, username, password, address=A):
    """One login through ``route``, from a client of its own (a fresh browser or script)."""
    if route == "token":
        return token(APIClient(), username, password, address)
    client = Client()
    client.cookies["django_language"] = "en"
    return (login if route == "page" else admin_login)(client, username, password, address)


# What each route answers: a login, a wrong password, a refusal.
IN = {"page": 302, "admin": 302, "token": 200}
WRONG = {"page": 200, "admin": 200, "token": 400}


def test_the_defaults_lock_a_name_at_one_address_after_10_and_slow_after_10_or_50():
    from config import settings

    assert parse_rate(settings.LOGIN_RATE_USERNAME_ADDRESS) == (10, 900)
    assert parse_rate(settings.LOGIN_RATE_USERNAME) == (10, 900)
    assert parse_rate(settings.LOGIN_RATE_ADDRESS) == (50, 900)
    assert parse_rate(settings.LOGIN_RATE_SLOWED) == (1, 60)
    assert parse_rate(settings.LOGIN_RATE_ADDRESS_FLOOD) == (500, 900)


# Finding 3 of issue 21: nobody locks staff out from elsewhere. ----------------------------------


@pytest.mark.parametrize("route", ROUTES)
def test_ten_wrong_passwords_from_one_address_do_not_stop_the_right_one_from_another(
    route, organiser
):
    for _ in range(10):
        assert attempt(route, "organiser", "wrong", address=A).status_code in {WRONG[route], 429}
    assert attempt(route, "organiser", PASSWORD, address=B).status_code == IN[route]


@pytest.mark.parametrize("route", ROUTES)
def test_many_failures_from_one_address_lock_that_account_there_only(route, organiser):
    for _ in range(10):
        attempt(route, "organiser", "wrong", address=A)
    refused = attempt(route, "organiser", PASSWORD, address=A)
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 900
    assert "Too many failed login attempts" in refused.content.decode()
    assert not Token.objects.filter(user=organiser).exists()
    # The owner, elsewhere (his phone's own connection), logs in.
    assert attempt(route, "organiser", PASSWORD, address=B).status_code == IN[route]


@pytest.mark.parametrize("route", ROUTES)
def test_fifty_failures_at_the_venue_across_names_do_not_refuse_another_account_there(
    route, organiser
):
    """The venue's Wi-Fi is one address: one player's wrong guesses (several names) never lock
    another's account."""
    for n in range(50):
        attempt(route, f"player{n % 7}", "wrong", address=VENUE)
    assert attempt(route, "organiser", PASSWORD, address=VENUE).status_code == IN[route]


# The guesser is slowed, not the owner. ----------------------------------------------------------


@pytest.mark.parametrize("route", ROUTES)
def test_failures_for_one_name_from_many_addresses_slow_further_failures(
    route, organiser, settings
):
    settings.LOGIN_RATE_USERNAME = "3/15min"
    for n in range(3):
        assert attempt(route, "organiser", "wrong", f"10.0.1.{n}").status_code == WRONG[route]
    # Now every address gets one try a minute at this name, and a failure is answered 429.
    slowed = attempt(route, "organiser", "wrong", address=A)
    assert slowed.status_code == 429
    assert 0 < int(slowed.headers["Retry-After"]) <= 60
    assert "Too many failed login attempts" in slowed.content.decode()
    # The next try from there within the minute is refused unchecked, even the right password.
    assert attempt(route, "organiser", PASSWORD, address=A).status_code == 429
    # The owner, from an address that has not failed at his name, logs in at once.
    assert attempt(route, "organiser", PASSWORD, address=B).status_code == IN[route]


def test_a_slowed_name_is_tried_again_after_the_minute(client, organiser, settings, steady_clock):
    settings.LOGIN_RATE_USERNAME = "3/15min"
    for n in range(3):
        login(client, "organiser", "wrong", f"10.0.1.{n}")
    assert login(client, "organiser", "wrong", address=A).status_code == 429
    steady_clock(60)
    assert login(client, "organiser", PASSWORD, address=A).status_code == 302


@pytest.mark.parametrize("route", ROUTES)
def test_failures_from_one_address_across_names_slow_that_address_only_for_failures(
    route, organiser, settings
):
    settings.LOGIN_RATE_ADDRESS = "5/15min"
    for n in range(5):
        assert attempt(route, f"nobody{n}", "wrong", address=VENUE).status_code == WRONG[route]
    assert attempt(route, "nobody9", "wrong", address=VENUE).status_code == 429
    assert attempt(route, "nobody9", "wrong", address=VENUE).status_code == 429
    # Someone else behind the same address, with his own right password, logs in.
    assert attempt(route, "organiser", PASSWORD, address=VENUE).status_code == IN[route]


@pytest.mark.parametrize("route", ROUTES)
def test_the_flood_cap_refuses_every_login_from_an_address(route, organiser, settings):
    """The one limit on a right password from an address that has not failed at that name: so
    many failures from one address, across names, that no venue makes them."""
    settings.LOGIN_RATE_ADDRESS_FLOOD = "20/15min"
    for n in range(20):
        attempt(route, f"nobody{n}", "wrong", address=VENUE)
    assert attempt(route, "organiser", PASSWORD, address=VENUE).status_code == 429
    assert attempt(route, "organiser", PASSWORD, address=B).status_code == IN[route]


def test_the_username_is_counted_whatever_its_case(client, organiser, settings):
    settings.LOGIN_RATE_USERNAME_ADDRESS = "3/15min"
    for name in ("organiser", "ORGANISER", " Organiser"):
        login(client, name, "wrong", address=A)
    assert login(client, "organiser", PASSWORD, address=A).status_code == 429
    assert login(client, "organiser", PASSWORD, address=B).status_code == 302


def test_the_login_page_and_the_token_endpoint_count_the_same_failures(client, organiser):
    api = APIClient()
    for _ in range(10):
        token(api, "organiser", "wrong", address=A)
    assert login(client, "organiser", PASSWORD, address=A).status_code == 429
    assert "_auth_user_id" not in client.session
    assert admin_login(client, "organiser", PASSWORD, address=A).status_code == 429


def test_the_administration_says_why_it_refuses(client, organiser):
    for _ in range(10):
        admin_login(client, "organiser", "wrong", address=A)
    refused = admin_login(client, "organiser", PASSWORD, address=A)
    assert refused.status_code == 429
    assert "Too many failed login attempts" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_successful_logins_are_not_counted(client, organiser):
    for _ in range(20):
        assert login(client, "organiser", PASSWORD).status_code == 302
        client.logout()


def test_the_token_endpoint_gives_a_token_when_not_limited(organiser):
    api = APIClient()
    for _ in range(20):
        assert token(api, "organiser", PASSWORD).status_code == 200


def test_public_reads_from_one_address_are_not_limited(client, settings):
    """A venue shares one address: the public pages answer however often they are read, even
    after that address has used up its failed logins."""
    settings.LOGIN_RATE_ADDRESS_FLOOD = "5/15min"
    tournament = factories.tournament(players=4)
    for n in range(5):
        login(client, f"nobody{n}", "wrong")
    for _ in range(60):
        assert client.get(reverse("tournament", args=[tournament.slug])).status_code == 200
        assert client.get(reverse("api-tournament", args=[tournament.slug])).status_code == 200


def test_a_superuser_logs_in_to_the_administration(client):
    get_user_model().objects.create_superuser("chief", password="right-horse-battery")
    assert admin_login(client, "chief", "right-horse-battery").status_code == 302


def test_a_user_name_no_encoding_can_write_is_refused_not_a_server_error():
    """A JSON body may hold a lone surrogate; the token endpoint says which field is wrong."""
    api = APIClient()
    response = api.post(
        reverse("api-token"),
        b'{"username": "\\ud800", "password": "wrong"}',
        content_type="application/json",
        REMOTE_ADDR=A,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "username" in response.json()
