"""Logins at a venue, replayed through HTTP against the running site (issue 44, item 5).

Every request of the live server comes from 127.0.0.1: the hall's shared address, where the
desk, the organiser and whoever guesses at their names all sit.

- Wrong passwords typed by others never refuse the right password to a device that has signed
  in before (its signed device cookie names the account: ``limits/devices.py``); such a device
  that guesses wrong too often is locked for that name, alone. A device that never signed in is
  slowed for a minute at most by others' failures, never locked (``limits/logins.py``).
"""

import pytest

from tests import factories

# Every window of the limits holds still during a test (tests/conftest.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("steady_clock")]

PASSWORD = "a-long-test-password"


@pytest.fixture(autouse=True)
def the_default_limits(settings):
    """The limits as shipped (docs/configuration.md), whatever the environment says."""
    settings.LOGIN_RATE_USERNAME_ADDRESS = "10/15min"
    settings.LOGIN_RATE_USERNAME = "10/15min"
    settings.LOGIN_RATE_SLOWED = "1/min"
    settings.LOGIN_RATE_DEVICE = "10/15min"


def log_out(visitor) -> None:
    response = visitor.post_form("/accounts/logout/", form="/accounts/login/")
    assert response.status_code == 302


def logged_in(visitor) -> bool:
    """Whether the visitor's session is logged in: every page offers to log out only then."""
    return 'action="/accounts/logout/"' in visitor.get("/").text


def wrong_passwords(visitor, username: str, times: int = 10) -> None:
    for _ in range(times):
        response = visitor.post_form(
            "/accounts/login/", {"username": username, "password": "wrong"}
        )
        assert response.status_code in {200, 429}


# Finding: "Hall lockout is back by another way" -------------------------------------------------


def test_wrong_passwords_from_the_hall_never_refuse_the_desks_known_device(visitor):
    factories.user(username="DESK1A")
    desk = visitor()
    desk.log_in("DESK1A", PASSWORD)
    log_out(desk)
    # 10 wrong passwords for "DESK1A " (folded: the same name) from the hall's shared address.
    wrong_passwords(visitor(), "DESK1A ")
    # The desk's laptop, which signed in before, is let in at once.
    assert desk.log_in("DESK1A", PASSWORD).status_code == 302
    assert logged_in(desk)


def test_the_desks_fresh_laptop_waits_a_minute_at_most(visitor, steady_clock):
    factories.user(username="DESK1A")
    wrong_passwords(visitor(), "DESK1A ")
    fresh = visitor()
    refused = fresh.post_form("/accounts/login/", {"username": "DESK1A", "password": PASSWORD})
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert "Too many failed login attempts" in refused.text
    steady_clock(60)
    assert fresh.log_in("DESK1A", PASSWORD).status_code == 302
    assert logged_in(fresh)


def test_the_token_endpoint_lets_a_known_device_in_too(visitor):
    factories.user(username="DESK1A")
    script = visitor()
    script.api_log_in("DESK1A", PASSWORD)
    wrong_passwords(visitor(), "DESK1A ")
    for _ in range(3):
        script.api_log_in("DESK1A ", PASSWORD)


def test_a_known_device_that_guesses_wrong_too_often_is_locked_for_that_name_alone(visitor):
    factories.user(username="DESK1A")
    factories.user(username="DESK1B")
    taken, laptop = visitor(), visitor()
    for device in (taken, laptop):
        device.log_in("DESK1A", PASSWORD)
        device.log_in("DESK1B", PASSWORD)
        log_out(device)
    wrong_passwords(taken, "DESK1A")
    refused = taken.post_form("/accounts/login/", {"username": "DESK1A", "password": PASSWORD})
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 900
    # The same device still signs in as another account, and the desk's other laptop as DESK1A.
    assert taken.log_in("DESK1B", PASSWORD).status_code == 302
    assert laptop.log_in("DESK1A", PASSWORD).status_code == 302


def test_a_device_cookie_made_up_or_of_another_account_counts_for_nothing(visitor):
    factories.user(username="DESK1A")
    factories.user(username="guesser")
    guesser = visitor()
    guesser.log_in("guesser", PASSWORD)
    log_out(guesser)
    # Signed in as himself: his device is unknown to DESK1A, and slowed as any other.
    wrong_passwords(guesser, "DESK1A")
    assert (
        guesser.post_form(
            "/accounts/login/", {"username": "DESK1A", "password": PASSWORD}
        ).status_code
        == 429
    )
    forged = visitor()
    forged.session.cookies.set("doko_device", "eyJkIjoieCIsIm4iOltdfQ:forged:forged")
    assert (
        forged.post_form(
            "/accounts/login/", {"username": "DESK1A", "password": PASSWORD}
        ).status_code
        == 429
    )
