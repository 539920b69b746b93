"""Failed logins are limited per username and per address (config/login.py), on the login page
and on the API's token endpoint; successful logins and public reads are not."""

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from limits.windows import parse_rate
from tests import factories

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password"


@pytest.fixture(autouse=True)
def small_limits(settings):
    settings.LOGIN_RATE_USERNAME = "3/15min"
    settings.LOGIN_RATE_ADDRESS = "5/15min"


def login(client, username, password, address="10.0.0.1"):
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE="en",
    )


def token(api, username, password, address="10.0.0.1"):
    return api.post(
        reverse("api-token"),
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE="en",
    )


def test_rates_are_read_with_minutes():
    assert parse_rate("10/15min") == (10, 900)
    assert parse_rate("50/h") == (50, 3600)
    assert parse_rate("6000/min") == (6000, 60)
    with pytest.raises(ValueError, match="Not a rate"):
        parse_rate("10/fortnight")


def test_the_defaults_are_10_per_username_and_50_per_address_in_15_minutes():
    from config import settings

    assert parse_rate(settings.LOGIN_RATE_USERNAME) == (10, 900)
    assert parse_rate(settings.LOGIN_RATE_ADDRESS) == (50, 900)


def test_failed_logins_per_username_end_in_429_even_with_the_right_password(client):
    factories.user(username="olga")
    for n in range(3):
        assert login(client, "olga", "wrong", address=f"10.0.1.{n}").status_code == 200
    response = login(client, "olga", PASSWORD, address="10.0.2.1")
    assert response.status_code == 429
    assert "Too many failed login attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session
    # Another username from the same address still logs in.
    factories.user(username="otto")
    assert login(client, "otto", PASSWORD, address="10.0.2.1").status_code == 302


def test_the_username_is_counted_whatever_its_case(client):
    factories.user(username="olga")
    for name in ("olga", "OLGA", "Olga"):
        login(client, name, "wrong", address="10.0.3.1")
    assert login(client, "olga", PASSWORD, address="10.0.3.2").status_code == 429


def test_failed_logins_per_address_end_in_429(client):
    factories.user(username="olga")
    for n in range(5):
        assert login(client, f"nobody{n}", "wrong").status_code == 200
    assert login(client, "olga", PASSWORD).status_code == 429
    # Another address is not affected.
    assert login(client, "olga", PASSWORD, address="10.9.9.9").status_code == 302


def test_successful_logins_are_not_counted(client):
    factories.user(username="olga")
    for _ in range(10):
        assert login(client, "olga", PASSWORD).status_code == 302
        client.logout()


def test_the_token_endpoint_shares_the_limit():
    api = APIClient()
    user = factories.user(username="olga")
    for _ in range(3):
        assert token(api, "olga", "wrong").status_code == 400
    response = token(api, "olga", PASSWORD)
    assert response.status_code == 429
    assert "Too many failed login attempts" in response.json()["detail"]
    assert "Retry-After" in response.headers
    # The login page counts the same failures.
    assert login(api, "olga", PASSWORD, address="10.0.5.5").status_code == 429
    assert not Token.objects.filter(user=user).exists()


def test_the_token_endpoint_gives_a_token_when_not_limited():
    api = APIClient()
    factories.user(username="olga")
    for _ in range(10):
        assert token(api, "olga", PASSWORD).status_code == 200


def test_public_reads_from_one_address_are_not_limited(client):
    """A venue shares one address: the public pages answer however often they are read, even
    after that address has used up its failed logins."""
    tournament = factories.tournament(players=4)
    for n in range(5):
        login(client, f"nobody{n}", "wrong")
    for _ in range(60):
        assert client.get(reverse("tournament", args=[tournament.slug])).status_code == 200
        assert client.get(reverse("api-tournament", args=[tournament.slug])).status_code == 200


def test_the_administrations_login_is_limited_too(client, settings):
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    settings.LOGIN_RATE_USERNAME = "3/15min"
    client.cookies["django_language"] = "en"
    get_user_model().objects.create_superuser("chief", password="right-horse-battery")
    url = reverse("admin:login")
    for _ in range(3):
        response = client.post(url, {"username": "chief", "password": "wrong"})
        assert "Too many" not in response.content.decode()
    refused = client.post(url, {"username": "chief", "password": "right-horse-battery"})
    assert "Too many failed login attempts" in refused.content.decode()
    assert "_auth_user_id" not in client.session
