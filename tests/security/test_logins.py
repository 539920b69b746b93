"""Logins at a venue, replayed through HTTP against the running site (issue 44, item 5).

Every request of the live server comes from 127.0.0.1: the hall's shared address, where the
desk, the organiser and whoever guesses at their names all sit.

- Wrong passwords typed by others never refuse the right password to a device that has signed
  in before (its signed device cookie names the account: ``limits/devices.py``); such a device
  that guesses wrong too often is locked for that name, alone. A device that never signed in is
  slowed for a minute at most by others' failures, never locked (``limits/logins.py``).
- A second factor (TOTP, django-otp) for every account that sets one up, asked for after the
  password on the login page, in the administration and at the token endpoint; compulsory for
  the administration's accounts when ``OTP_REQUIRED_FOR_ADMINS`` says so; removed by its owner
  with a code, or by an administrator for a lost phone (``config/second_factor/``).
"""

import base64
import re
import types

import pytest
from django.contrib.auth import get_user_model
from django_otp.oath import TOTP

from tests import factories

# Every window of the limits holds still during a test (tests/conftest.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("steady_clock")]

PASSWORD = "a-long-test-password"
SECRET = re.compile(r'id="totp-secret">([A-Z2-7 ]+)<')
BACKUP_CODE = re.compile(r'class="backup-code">([a-z2-7]+)<')


@pytest.fixture(autouse=True)
def the_default_limits(settings):
    """The limits as shipped (docs/configuration.md), whatever the environment says."""
    settings.LOGIN_RATE_USERNAME_ADDRESS = "10/15min"
    settings.LOGIN_RATE_USERNAME = "10/15min"
    settings.LOGIN_RATE_SLOWED = "1/min"
    settings.LOGIN_RATE_DEVICE = "10/15min"


@pytest.fixture
def authenticator(monkeypatch):
    """The authenticator app on the owner's phone, and the server's clock for its codes (moved on
    half a minute for every code, so that no code is one the server took already)."""
    import time

    now = [time.time()]

    def code(secret: str) -> str:
        # Patched at the first code, not before: where django-otp is none of the site's apps
        # (before issue 44) its model cannot be imported, and the test fails on its page.
        monkeypatch.setattr(
            "django_otp.plugins.otp_totp.models.time", types.SimpleNamespace(time=lambda: now[0])
        )
        now[0] += 30
        generator = TOTP(base64.b32decode(secret.replace(" ", "")), step=30, t0=0, digits=6)
        generator.time = now[0]
        return f"{generator.token():06d}"

    return code


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


def second_factor_set_up(visitor, authenticator) -> tuple[str, list[str]]:
    """Set up an authenticator on the page, as its owner does: the secret read from the page,
    confirmed by a first code. Returns the secret and the backup codes shown once."""
    page = visitor.get("/accounts/second-factor/")
    assert page.status_code == 200, page.text[:500]
    secret = SECRET.search(page.text).group(1)
    response = visitor.post_form(
        "/accounts/second-factor/", {"action": "add", "code": authenticator(secret)}
    )
    assert response.status_code == 302, response.text[:500]
    shown = visitor.get("/accounts/second-factor/")
    codes = BACKUP_CODE.findall(shown.text)
    assert len(codes) == 10
    # Shown once.
    assert BACKUP_CODE.findall(visitor.get("/accounts/second-factor/").text) == []
    return secret, codes


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


# Finding: "No second factor for organisers and administrators" ----------------------------------


def test_a_second_factor_is_asked_for_after_the_password(visitor, authenticator):
    factories.user(username="organiser", is_staff=True)
    owner = visitor()
    owner.log_in("organiser", PASSWORD)
    secret, _codes = second_factor_set_up(owner, authenticator)
    log_out(owner)

    thief = visitor()
    step = thief.post_form("/accounts/login/", {"username": "organiser", "password": PASSWORD})
    assert step.status_code == 302
    assert step.headers["Location"].startswith("/accounts/login/code/")
    assert not logged_in(thief)
    assert thief.get("/admin/").status_code == 302
    wrong = thief.post_form("/accounts/login/code/", {"code": "000000"})
    assert wrong.status_code == 200
    assert "This code is wrong" in wrong.text
    assert not logged_in(thief)

    assert (
        owner.log_in("organiser", PASSWORD).headers["Location"].startswith("/accounts/login/code/")
    )
    done = owner.post_form("/accounts/login/code/", {"code": authenticator(secret)})
    assert done.status_code == 302
    assert logged_in(owner)
    assert owner.get("/admin/").status_code == 200


def test_the_administrations_login_asks_for_the_code_too(visitor, authenticator):
    factories.user(username="organiser", is_staff=True)
    owner = visitor()
    owner.log_in("organiser", PASSWORD)
    secret, _codes = second_factor_set_up(owner, authenticator)
    log_out(owner)
    step = owner.post_form(
        "/admin/login/?next=/admin/", {"username": "organiser", "password": PASSWORD}
    )
    assert step.status_code == 302
    assert step.headers["Location"].startswith("/accounts/login/code/")
    assert owner.get("/admin/").status_code == 302
    done = owner.post_form(step.headers["Location"], {"code": authenticator(secret)})
    assert done.status_code == 302
    assert done.headers["Location"] == "/admin/"
    assert owner.get("/admin/").status_code == 200


def test_a_backup_code_logs_in_once(visitor, authenticator):
    factories.user(username="organiser")
    owner = visitor()
    owner.log_in("organiser", PASSWORD)
    _secret, codes = second_factor_set_up(owner, authenticator)
    log_out(owner)
    owner.log_in("organiser", PASSWORD)
    assert owner.post_form("/accounts/login/code/", {"code": codes[0]}).status_code == 302
    assert logged_in(owner)
    log_out(owner)
    owner.log_in("organiser", PASSWORD)
    assert owner.post_form("/accounts/login/code/", {"code": codes[0]}).status_code == 200
    assert not logged_in(owner)


def test_the_token_endpoint_asks_for_the_code_by_the_otp_field(visitor, authenticator):
    factories.user(username="organiser")
    owner = visitor()
    owner.log_in("organiser", PASSWORD)
    secret, _codes = second_factor_set_up(owner, authenticator)
    script = visitor(cookies=False)
    body = {"username": "organiser", "password": PASSWORD}
    missing = script.api("POST", "auth/token", body)
    assert missing.status_code == 400
    assert "otp" in missing.json()
    wrong = script.api("POST", "auth/token", {**body, "otp": "000000"})
    assert wrong.status_code == 400
    assert "otp" in wrong.json()
    for hostile in (["1"], {"a": 1}, "x" * 10_000):
        refused = script.api("POST", "auth/token", {**body, "otp": hostile})
        assert refused.status_code == 400
        assert "otp" in refused.json()
    right = script.api("POST", "auth/token", {**body, "otp": authenticator(secret)})
    assert right.status_code == 200
    assert right.json()["token"]


def test_wrong_codes_count_as_failed_logins(visitor, authenticator):
    factories.user(username="organiser")
    owner = visitor()
    owner.log_in("organiser", PASSWORD)
    secret, _codes = second_factor_set_up(owner, authenticator)
    thief = visitor(cookies=False)
    body = {"username": "organiser", "password": PASSWORD}
    answers = [
        thief.api("POST", "auth/token", {**body, "otp": f"{n:06d}"}).status_code for n in range(12)
    ]
    assert answers[:10] == [400] * 10
    assert 429 in answers[10:]
    # The owner's own device, which signed in before, is not kept out.
    log_out(owner)
    owner.log_in("organiser", PASSWORD)
    assert (
        owner.post_form("/accounts/login/code/", {"code": authenticator(secret)}).status_code == 302
    )


def test_administrators_must_set_up_a_second_factor_before_anything_else(
    visitor, authenticator, settings
):
    settings.OTP_REQUIRED_FOR_ADMINS = True
    get_user_model().objects.create_superuser("chief", password=PASSWORD)
    chief = visitor()
    step = chief.post_form("/accounts/login/", {"username": "chief", "password": PASSWORD})
    assert step.status_code == 302
    assert step.headers["Location"].startswith("/accounts/second-factor/")
    assert chief.get("/admin/").status_code == 302
    token = visitor(cookies=False).api(
        "POST", "auth/token", {"username": "chief", "password": PASSWORD}
    )
    assert token.status_code == 400
    assert "otp" in token.json()
    second_factor_set_up(chief, authenticator)
    assert chief.get("/admin/").status_code == 200


def test_a_member_of_staff_logged_in_before_the_setting_is_led_to_set_one_up(
    visitor, authenticator, settings
):
    factories.user(username="organiser", is_staff=True)
    organiser = visitor()
    organiser.log_in("organiser", PASSWORD)
    assert organiser.get("/admin/").status_code == 200
    settings.OTP_REQUIRED_FOR_ADMINS = True
    led = organiser.get("/admin/", allow_redirects=True)
    assert "/accounts/second-factor/" in led.url
    second_factor_set_up(organiser, authenticator)
    assert organiser.get("/admin/").status_code == 200


def test_the_owner_removes_his_second_factor_with_a_code(visitor, authenticator):
    factories.user(username="organiser")
    owner = visitor()
    owner.log_in("organiser", PASSWORD)
    secret, _codes = second_factor_set_up(owner, authenticator)
    refused = owner.post_form("/accounts/second-factor/", {"action": "remove", "code": "000000"})
    assert refused.status_code == 400
    removed = owner.post_form(
        "/accounts/second-factor/", {"action": "remove", "code": authenticator(secret)}
    )
    assert removed.status_code == 302
    log_out(owner)
    assert owner.log_in("organiser", PASSWORD).headers["Location"] == "/"


def test_an_administrator_removes_a_persons_second_factor(visitor, authenticator):
    person = factories.user(username="organiser")
    owner = visitor()
    owner.log_in("organiser", PASSWORD)
    second_factor_set_up(owner, authenticator)
    log_out(owner)
    get_user_model().objects.create_superuser("chief", password=PASSWORD)
    chief = visitor()
    chief.log_in("chief", PASSWORD)
    done = chief.post_form(
        "/admin/auth/user/",
        {"action": "second_factor_remove", "_selected_action": [person.pk]},
    )
    assert done.status_code == 302
    # The phone is lost: the password alone lets him in, and he sets up the new one.
    assert owner.log_in("organiser", PASSWORD).headers["Location"] == "/"
    assert logged_in(owner)
