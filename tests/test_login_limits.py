"""Failed logins are limited without locking the owner out (limits/logins.py, config/login.py),
on the login page, the administration's login and the API's token endpoint alike:

- only wrong passwords are counted: a request without a user name or a password counts
  against nobody, and nothing is counted by address alone (a venue shares one);
- a device that signed in as a name before (its signed cookie, limits/devices.py) is counted on
  its own: others' failures never refuse it, and only its own lock it out of that name;
- failures for one user name from many addresses, or many from one, slow the other devices:
  one attempt a minute for that name from each address, failures answered 429; none is locked;
- every answer costs one run of the password hasher, whether the name has an account or not;
- successful logins and public reads are not limited.
"""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher
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
    """The limits as shipped (docs/configuration.md), whatever the environment says."""
    settings.LOGIN_RATE_USERNAME_ADDRESS = "10/15min"
    settings.LOGIN_RATE_USERNAME = "10/15min"
    settings.LOGIN_RATE_SLOWED = "1/min"
    settings.LOGIN_RATE_DEVICE = "10/15min"


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
        reverse("api:token"),
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE="en",
    )


def log_out(client):
    """Log out as the page's button does (the test client's own logout forgets every cookie)."""
    client.post(reverse("logout"))


def device(route):
    """A browser (or a script that keeps cookies) for ``route``: one device."""
    if route == "token":
        return APIClient()
    client = Client()
    client.cookies["django_language"] = "en"
    return client


def attempt_on(client, route, username, password, address=A):
    """One login through ``route`` from the device ``client``."""
    send = {"page": login, "admin": admin_login, "token": token}[route]
    response = send(client, username, password, address)
    if route != "token":
        log_out(client)
    return response


def attempt(route, username, password, address=A):
    """One login through ``route``, from a client of its own (a fresh browser or script)."""
    return attempt_on(device(route), route, username, password, address)


# What each route answers: a login, a wrong password, a refusal.
IN = {"page": 302, "admin": 302, "token": 200}
WRONG = {"page": 200, "admin": 200, "token": 400}


def test_the_defaults_lock_a_device_after_10_and_slow_the_others_after_10():
    from config import settings

    assert parse_rate(settings.LOGIN_RATE_DEVICE) == (10, 900)
    assert parse_rate(settings.LOGIN_RATE_USERNAME_ADDRESS) == (10, 900)
    assert parse_rate(settings.LOGIN_RATE_USERNAME) == (10, 900)
    assert parse_rate(settings.LOGIN_RATE_SLOWED) == (1, 60)
    assert not hasattr(settings, "LOGIN_RATE_ADDRESS")
    assert not hasattr(settings, "LOGIN_RATE_ADDRESS_FLOOD")


# Finding 3 of issue 21: nobody locks staff out from elsewhere. ----------------------------------


@pytest.mark.parametrize("route", ROUTES)
def test_ten_wrong_passwords_from_one_address_do_not_stop_the_right_one_from_another(
    route, organiser
):
    for _ in range(10):
        assert attempt(route, "organiser", "wrong", address=A).status_code in {WRONG[route], 429}
    assert attempt(route, "organiser", PASSWORD, address=B).status_code == IN[route]


@pytest.mark.parametrize("route", ROUTES)
def test_many_failures_from_one_address_slow_that_name_there_for_a_minute(
    route, organiser, steady_clock
):
    for _ in range(10):
        attempt(route, "organiser", "wrong", address=A)
    refused = attempt(route, "organiser", PASSWORD, address=A)
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert "Too many failed login attempts" in refused.content.decode()
    assert not Token.objects.filter(user=organiser).exists()
    # The owner, elsewhere (his phone's own connection), logs in; and there after the minute.
    assert attempt(route, "organiser", PASSWORD, address=B).status_code == IN[route]
    steady_clock(60)
    assert attempt(route, "organiser", PASSWORD, address=A).status_code == IN[route]


# Issue 44: the devices that signed in before. ---------------------------------------------------


@pytest.mark.parametrize("route", ROUTES)
def test_others_failures_at_the_same_address_never_refuse_a_device_that_signed_in_before(
    route, organiser
):
    laptop = device(route)
    assert attempt_on(laptop, route, "organiser", PASSWORD, address=VENUE).status_code == IN[route]
    for _ in range(30):
        attempt(route, "organiser", "wrong", address=VENUE)
    assert attempt(route, "organiser", PASSWORD, address=VENUE).status_code == 429
    assert attempt_on(laptop, route, "organiser", PASSWORD, address=VENUE).status_code == IN[route]


@pytest.mark.parametrize("route", ROUTES)
def test_a_device_that_signed_in_before_is_locked_by_its_own_failures_alone(route, organiser):
    laptop, phone = device(route), device(route)
    for known in (laptop, phone):
        assert attempt_on(known, route, "organiser", PASSWORD).status_code == IN[route]
    for _ in range(10):
        assert attempt_on(laptop, route, "organiser", "wrong").status_code == WRONG[route]
    refused = attempt_on(laptop, route, "organiser", PASSWORD)
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 900
    assert "Too many failed login attempts" in refused.content.decode()
    assert attempt_on(phone, route, "organiser", PASSWORD).status_code == IN[route]


def test_a_device_remembers_every_account_that_signed_in_on_it(client):
    for name in ("desk1", "desk2", "organiser"):
        factories.user(username=name)
        assert login(client, name, PASSWORD).status_code == 302
        log_out(client)
    for _ in range(10):
        for name in ("desk1", "desk2", "organiser"):
            attempt("page", name, "wrong")
    for name in ("desk1", "desk2", "organiser"):
        assert login(client, name, PASSWORD).status_code == 302
        log_out(client)


def test_a_device_cookie_that_was_tampered_with_counts_for_nothing(client, organiser):
    assert login(client, "organiser", PASSWORD).status_code == 302
    log_out(client)
    client.cookies["doko_device"] = client.cookies["doko_device"].value[:-2] + "xx"
    for _ in range(10):
        attempt("page", "organiser", "wrong")
    assert login(client, "organiser", PASSWORD).status_code == 429


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
def test_failures_from_one_address_across_names_slow_nobody_there(route, organiser):
    """Nothing is counted by address alone: a venue's many players mistyping their passwords
    slow none of them."""
    for n in range(60):
        assert attempt(route, f"nobody{n}", "wrong", address=VENUE).status_code == WRONG[route]
    assert attempt(route, "organiser", "wrong", address=VENUE).status_code == WRONG[route]
    assert attempt(route, "organiser", PASSWORD, address=VENUE).status_code == IN[route]


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
    tournament = factories.tournament(players=4)
    for n in range(60):
        login(client, f"nobody{n}", "wrong")
    for _ in range(60):
        client.post(reverse("login"), {}, REMOTE_ADDR=A)
    for _ in range(60):
        assert (
            client.get(reverse("tournaments:tournament", args=[tournament.slug])).status_code == 200
        )
        assert client.get(reverse("api:tournament", args=[tournament.slug])).status_code == 200


def test_a_superuser_logs_in_to_the_administration(client):
    get_user_model().objects.create_superuser("chief", password="right-horse-battery")
    assert admin_login(client, "chief", "right-horse-battery").status_code == 302


def test_a_user_name_no_encoding_can_write_is_refused_not_a_server_error():
    """A JSON body may hold a lone surrogate; the token endpoint says which field is wrong."""
    api = APIClient()
    response = api.post(
        reverse("api:token"),
        b'{"username": "\\ud800", "password": "wrong"}',
        content_type="application/json",
        REMOTE_ADDR=A,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "username" in response.json()


# Finding N3 of issue 30: no flood of malformed requests locks a venue. --------------------------


def malformed(route, body, address=VENUE):
    """A request to ``route`` with ``body`` as it stands (no user name, or no password)."""
    if route == "token":
        return APIClient().post(reverse("api:token"), body, format="json", REMOTE_ADDR=address)
    url = reverse("login" if route == "page" else "admin:login")
    return Client().post(url, body, REMOTE_ADDR=address)


@pytest.mark.parametrize("route", ROUTES)
def test_600_malformed_requests_from_a_venue_lock_nobody_there(route, organiser):
    for _ in range(600):
        assert malformed(route, {}).status_code in {200, 400}
    assert attempt(route, "organiser", PASSWORD, address=VENUE).status_code == IN[route]


@pytest.mark.parametrize("route", ROUTES)
def test_ten_requests_naming_a_user_without_a_password_do_not_lock_him(route, organiser):
    for body in [{"username": "organiser"}, {"username": "organiser", "password": ""}] * 10:
        assert malformed(route, body).status_code in {200, 400}
    assert attempt(route, "organiser", PASSWORD, address=VENUE).status_code == IN[route]


@pytest.mark.parametrize("route", ROUTES)
def test_ten_wrong_passwords_at_a_venue_slow_that_name_there_and_nowhere_else(route, organiser):
    for _ in range(10):
        attempt(route, "organiser", "wrong", address=VENUE)
    refused = attempt(route, "organiser", PASSWORD, address=VENUE)
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    # Everyone else at the venue logs in, and he does from his phone's own connection.
    factories.user(username="player", is_staff=True)
    assert attempt(route, "player", PASSWORD, address=VENUE).status_code == IN[route]
    assert attempt(route, "organiser", PASSWORD, address=B).status_code == IN[route]


def test_a_password_sent_as_a_number_is_counted():
    get_user_model().objects.create_user("numbers", password="12345678")
    for _ in range(10):
        APIClient().post(
            reverse("api:token"),
            {"username": "numbers", "password": 1},
            format="json",
            REMOTE_ADDR=A,
        )
    refused = APIClient().post(
        reverse("api:token"),
        {"username": "numbers", "password": 12345678},
        format="json",
        REMOTE_ADDR=A,
    )
    assert refused.status_code == 429


class CountingHasher(MD5PasswordHasher):
    """The tests' hasher, counting how often it hashes."""

    runs = 0

    def encode(self, password, salt):
        CountingHasher.runs += 1
        return super().encode(password, salt)


ANSWERS = {
    "a known name, a wrong password": {"username": "organiser", "password": "wrong"},
    "an unknown name, a password": {"username": "nobody", "password": "wrong"},
    "a known name, no password": {"username": "organiser"},
    "a known name, an empty password": {"username": "organiser", "password": ""},
    "nothing": {},
}


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("body", ANSWERS.values(), ids=ANSWERS.keys())
def test_every_failed_answer_runs_the_password_hasher_once(route, body, organiser, settings):
    """So that the time of an answer does not tell whether a name has an account, or whether
    the request named one at all."""
    settings.PASSWORD_HASHERS = ["tests.test_login_limits.CountingHasher"]
    CountingHasher.runs = 0
    assert malformed(route, body).status_code in {200, 400}
    assert CountingHasher.runs == 1
